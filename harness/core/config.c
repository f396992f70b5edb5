// SPDX-License-Identifier: GPL-2.0-only
/*
 * config.c - read a matrix config with libinih and check every key against the tables.
 *
 * libinih does the INI syntax; Debian builds it without INI_HANDLER_LINENO, so the line
 * numbers come from our own reader (ini_parse_stream), which also sees the section
 * headers — an empty section never reaches the key handler, and a duplicate section must
 * be an error.
 */
#include "config.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <libgen.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_int.h"
#include "policy.h"
#include "target_class.h"

struct pstate {
	struct cb_config *cfg;
	FILE *fp;
	const char *file;
	int line;
	enum cfg_sec sec;
	void *obj;	   /* the current kernel/setting/workload */
	char **seen;	   /* "section\x1fkey" of every key so far */
	size_t nr_seen;
	struct owned_key {	   /* a [kernel] key only one target reads, checked at the end */
		size_t kernel;
		const struct cb_target_class *cls;
		const struct cfg_key *k;
		int line;
	} *owned;
	size_t nr_owned;
	struct stash {		   /* a kernel's private config, until its target is set */
		size_t kernel;
		const struct cb_target_class *cls;
		void *priv;
	} *stash;
	size_t nr_stash;
	char err[1024];
	char section[160]; /* the section of the key being read, as written ("kernel k") */
	bool indented;	   /* the line read starts with blanks: libinih's continuation line */
	bool failed;
};

static void fail(struct pstate *ps, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct pstate *ps, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return;
	ps->failed = true;
	n = snprintf(ps->err, sizeof(ps->err), "%s:%d: ", ps->file, line);
	va_start(ap, fmt);
	vsnprintf(ps->err + n, sizeof(ps->err) - n, fmt, ap);
	va_end(ap);
}

static bool name_ok(const char *s)
{
	size_t i;

	if (!*s || strlen(s) >= CB_NAME_MAX)
		return false;
	for (i = 0; s[i]; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_-+", s[i]))
			return false;
	return true;
}

static void *base_of(struct pstate *ps, enum key_base b)
{
	return b == KB_CONFIG ? (void *)ps->cfg : ps->obj;
}

/* check and store one value of a key into @base; @line for the message */
static int store_key(struct pstate *ps, const struct cfg_key *k, void *base, const char *value,
		     int line)
{
	char why[768];

	if (cb_cfg_store(k, base, value, line, ps->section, why, sizeof(why)) < 0) {
		fail(ps, line, "%s", why);
		return -1;
	}
	return 0;
}

static const struct cfg_key *find_key(enum cfg_sec sec, const char *name)
{
	const struct cfg_key *k;

	for (k = cb_cfg_keys; k->name; k++)
		if (k->sec == sec && !strcmp(k->name, name))
			return k;
	return NULL;
}

static void set_defaults(struct pstate *ps, enum cfg_sec sec, void *obj)
{
	const struct cfg_key *k;
	void *saved = ps->obj;

	ps->obj = obj;
	for (k = cb_cfg_keys; k->name; k++)
		if (k->sec == sec && k->def)
			store_key(ps, k, base_of(ps, k->base), k->def, 0);
	ps->obj = saved;
}

/* a section header line: "[type NAME]" or "[global]" */
static void open_section(struct pstate *ps, char *text)
{
	struct cb_config *cfg = ps->cfg;
	char *name = strchr(text, ' ');
	size_t i;
	int t;

	if (name)
		*name++ = '\0';
	for (t = 0; t < SEC_NONE && strcmp(cb_cfg_sec_names[t], text); t++)
		;
	ps->sec = SEC_NONE;
	ps->obj = NULL;
	if (t == SEC_NONE) {
		fail(ps, ps->line, "unknown section [%s]: sections are [global], [kernel NAME], "
			 "[setting NAME], [workload NAME] and [collector]", text);
		return;
	}
	if (cb_cfg_sec_named[t] && (!name || !name_ok(name))) {
		fail(ps, ps->line, "section [%s%s%s] needs a name of letters, digits, '_', '-', '+'",
		     text, name ? " " : "", name ? name : "");
		return;
	}
	if (!cb_cfg_sec_named[t] && name) {
		fail(ps, ps->line, "section [%s] takes no name", text);
		return;
	}
	/* a repeated section name is a mistake (fio would merge; a matrix must not) */
	for (i = 0; i < ps->nr_seen; i++) {
		char want[256];

		snprintf(want, sizeof(want), "%s%s%s\x1f[", text, name ? " " : "", name ? name : "");
		if (!strncmp(ps->seen[i], want, strlen(want))) {
			fail(ps, ps->line, "duplicate section [%s%s%s]", text, name ? " " : "",
			     name ? name : "");
			return;
		}
	}
	ps->seen = cb_xrealloc(ps->seen, (ps->nr_seen + 1) * sizeof(*ps->seen));
	ps->seen[ps->nr_seen++] = cb_xasprintf("%s%s%s\x1f[", text, name ? " " : "",
					       name ? name : "");
	ps->sec = t;
	switch (t) {
	case SEC_KERNEL: {
		struct cb_kernel *k;

		cfg->kernels = cb_xrealloc(cfg->kernels, (cfg->nr_kernels + 1) * sizeof(*k));
		k = &cfg->kernels[cfg->nr_kernels++];
		memset(k, 0, sizeof(*k));
		snprintf(k->name, sizeof(k->name), "%s", name);
		k->line = ps->line; /* cls stays NULL until a target key, else [global]'s */
		set_defaults(ps, SEC_KERNEL, k);
		ps->obj = k;
		break;
	}
	case SEC_SETTING: {
		struct cb_setting *s;

		cfg->settings = cb_xrealloc(cfg->settings, (cfg->nr_settings + 1) * sizeof(*s));
		s = &cfg->settings[cfg->nr_settings++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", name);
		s->line = ps->line;
		ps->obj = s;
		break;
	}
	case SEC_WORKLOAD: {
		struct cb_workload *w;

		cfg->workloads = cb_xrealloc(cfg->workloads, (cfg->nr_workloads + 1) * sizeof(*w));
		w = &cfg->workloads[cfg->nr_workloads++];
		memset(w, 0, sizeof(*w));
		snprintf(w->name, sizeof(w->name), "%s", name);
		w->line = ps->line;
		set_defaults(ps, SEC_WORKLOAD, w);
		ps->obj = w;
		break;
	}
	default:
		break;
	}
}

/* libinih's reader: fgets that counts lines and sees the section headers first */
static char *reader(char *buf, int size, void *stream)
{
	struct pstate *ps = stream;
	char *s, *end;
	size_t len;

	if (!fgets(buf, size, ps->fp))
		return NULL;
	ps->line++;
	len = strlen(buf);
	if (len == (size_t)size - 1 && buf[len - 1] != '\n' && !feof(ps->fp))
		fail(ps, ps->line, "line longer than %d characters", size - 2);
	for (s = buf; isspace((unsigned char)*s); s++)
		;
	ps->indented = s > buf;
	if (*s != '[')
		return buf;
	end = strchr(s, ']');
	if (!end) {
		fail(ps, ps->line, "section header without ']'");
		return buf;
	}
	{
		char text[256];

		snprintf(text, sizeof(text), "%.*s", (int)(end - s - 1), s + 1);
		open_section(ps, text);
	}
	return buf;
}

static bool seen_key(struct pstate *ps, const char *section, const char *name)
{
	char *tag;
	size_t i;

	tag = cb_xasprintf("%s\x1f%s", section, name);
	for (i = 0; i < ps->nr_seen; i++) {
		if (!strcmp(ps->seen[i], tag)) {
			free(tag);
			return true;
		}
	}
	ps->seen = cb_xrealloc(ps->seen, (ps->nr_seen + 1) * sizeof(*ps->seen));
	ps->seen[ps->nr_seen++] = tag;
	return false;
}

/* a key of a policy's table: into @s's private config of that policy, made at its first key */
static bool policy_key(struct pstate *ps, struct cb_setting *s, const char *name,
		       const char *value)
{
	const struct cb_policy_ops *p;
	const struct cfg_key *k = NULL;
	void *priv;

	for (size_t i = 0; !k && (p = cb_policy_nth(i)); i++)
		k = cb_cfg_key_find(p->keys, name);
	if (!k)
		return false;
	priv = cb_setting_policy(s, p);
	if (!priv) {
		priv = cb_cfg_priv_new(p->priv_alloc, p->keys, SEC_SETTING);
		s->policies = cb_xrealloc(s->policies, (s->nr_policies + 1) * sizeof(*s->policies));
		s->policies[s->nr_policies++] = (struct cb_policy_conf){ p, priv };
	}
	store_key(ps, k, priv, value, ps->line);
	return true;
}

static void setting_key(struct pstate *ps, const char *name, const char *value)
{
	struct cb_setting *s = ps->obj;
	struct cb_knob_setting *ks;
	const struct cb_knob *knob;
	const struct cfg_key *k = find_key(SEC_SETTING, name);
	char arg[32], why[256];

	if (k) {
		/* the setting's own keys: kernels */
		if (store_key(ps, k, s, value, ps->line) == 0 && !strcmp(name, "kernels"))
			s->kernels_line = ps->line;
		return;
	}
	if (policy_key(ps, s, name, value))
		return;
	knob = cb_knob_find(name, arg, sizeof(arg));
	if (!knob) {
		fail(ps, ps->line, "[setting %s]: unknown knob '%s' (see configs/README.md)", s->name,
		     name);
		return;
	}
	if (cb_knob_check(knob, value, why, sizeof(why)) < 0) {
		fail(ps, ps->line, "[setting %s] key '%s': %s", s->name, name, why);
		return;
	}
	s->knobs = cb_xrealloc(s->knobs, (s->nr_knobs + 1) * sizeof(*ks));
	ks = &s->knobs[s->nr_knobs++];
	memset(ks, 0, sizeof(*ks));
	ks->knob = knob;
	snprintf(ks->arg, sizeof(ks->arg), "%s", arg);
	ks->key = cb_xstrdup(name);
	ks->value = cb_xstrdup(value);
	ks->line = ps->line;
}

static const char *const phase_names[CB_NR_PHASES] = { "fragment", "demand", "background",
							      "companion" };

static int phase_index(const char *s, size_t len)
{
	for (int p = 0; p < CB_NR_PHASES; p++)
		if (strlen(phase_names[p]) == len && !strncmp(s, phase_names[p], len))
			return p;
	return -1;
}

/* workload keys: PHASE = PROGRAM, PHASE.OPTION = VALUE, quick.PHASE.OPTION = VALUE */
static void workload_key(struct pstate *ps, const char *name, const char *value)
{
	struct cb_workload *w = ps->obj;
	const struct cfg_key *k = find_key(SEC_WORKLOAD, name);
	bool quick = !strncmp(name, "quick.", 6);
	const char *rest = quick ? name + 6 : name, *dot = strchr(rest, '.');
	int p = phase_index(rest, dot ? (size_t)(dot - rest) : strlen(rest));
	struct cb_phase *ph;
	struct cb_wl_arg *a;

	if (k) {
		if (store_key(ps, k, w, value, ps->line) == 0 && !strcmp(name, "kernels"))
			w->kernels_line = ps->line;
		return;
	}
	if (p < 0 || (quick && !dot) || (dot && !dot[1])) {
		fail(ps, ps->line, "[workload %s]: unknown key '%s' (keys: fragment, demand, "
			 "background, companion, PHASE.OPTION, quick.PHASE.OPTION, timeout, ready_timeout, "
			 "settle)", w->name, name);
		return;
	}
	ph = &w->phase[p];
	if (!dot) {
		const struct wl_info *wl = wl_find(value);

		if (!wl) {
			fail(ps, ps->line, "[workload %s] key '%s': unknown workload program '%s'",
			     w->name, name, value);
			return;
		}
		if ((int)wl->phase != (p == CB_PHASE_FRAGMENT ? WL_PHASE_FRAGMENT :
				       p == CB_PHASE_BACKGROUND ? WL_PHASE_BACKGROUND : WL_PHASE_DEMAND)) {
			fail(ps, ps->line, "[workload %s] key '%s': '%s' is not a %s program", w->name,
			     name, value, p == CB_PHASE_COMPANION ? "demand" : phase_names[p]);
			return;
		}
		ph->wl = wl;
		ph->line = ps->line;
		return;
	}
	/* options are checked once the whole section is read: the program may come later */
	ph->args = cb_xrealloc(ph->args, (ph->nr_args + 1) * sizeof(*a));
	a = &ph->args[ph->nr_args++];
	memset(a, 0, sizeof(*a));
	a->name = cb_xstrdup(dot + 1);
	a->value = cb_xstrdup(value);
	a->quick = quick;
	a->line = ps->line;
}

/* kernel @kernel's private config of @cls, made (with the defaults) at its first key */
static void *stash_priv(struct pstate *ps, size_t kernel, const struct cb_target_class *cls)
{
	struct stash *st;

	for (size_t i = 0; i < ps->nr_stash; i++)
		if (ps->stash[i].kernel == kernel && ps->stash[i].cls == cls)
			return ps->stash[i].priv;
	ps->stash = cb_xrealloc(ps->stash, (ps->nr_stash + 1) * sizeof(*ps->stash));
	st = &ps->stash[ps->nr_stash++];
	*st = (struct stash){ kernel, cls, cb_cfg_priv_new(cls->priv_alloc, cls->keys, SEC_KERNEL) };
	return st->priv;
}

/* the row of [kernel] key @name in a target's table, the kernel's own first; its class */
static const struct cfg_key *find_target_key(const struct cb_kernel *kern, const char *name,
					     const struct cb_target_class **cls)
{
	const struct cfg_key *k;

	*cls = kern->cls;
	k = *cls ? cb_cfg_key_find((*cls)->keys, name) : NULL;
	for (size_t i = 0; !k && (*cls = cb_target_class_nth(i)); i++)
		k = cb_cfg_key_find((*cls)->keys, name);
	return k;
}

/*
 * a [kernel] key of a target's table: the kernel's target may be set later in the section,
 * or by [global], so the key goes into the private config of the class whose table has it
 * (the kernel's own if it names one with it) and the target is checked at the end
 */
static bool target_key(struct pstate *ps, const char *name, const char *value)
{
	struct cb_kernel *kern = ps->obj;
	size_t idx = kern - ps->cfg->kernels;
	const struct cb_target_class *cls;
	const struct cfg_key *k = find_target_key(kern, name, &cls);

	if (!k)
		return false;
	if (store_key(ps, k, stash_priv(ps, idx, cls), value, ps->line) < 0)
		return true;
	ps->owned = cb_xrealloc(ps->owned, (ps->nr_owned + 1) * sizeof(*ps->owned));
	ps->owned[ps->nr_owned++] = (struct owned_key){ idx, cls, k, ps->line };
	return true;
}

/*
 * an indented line after KEY = VALUE: libinih hands it over as a second value of KEY. A list
 * goes on with it, so that a long one (the collector's events) fits libinih's 200-character
 * lines; any other key refuses it.
 */
static void continue_key(struct pstate *ps, const char *name, const char *value)
{
	const struct cfg_key *k = find_key(ps->sec, name);
	const struct cb_target_class *cls = NULL;
	char why[512], *items;
	void *base;

	if (!k && ps->sec == SEC_KERNEL)
		k = find_target_key(ps->obj, name, &cls);
	if (!k) {
		fail(ps, ps->line, "[%s]: an indented line goes on with the key above it ('%s'), "
		     "which takes one value", ps->section, name);
		return;
	}
	base = cls ? stash_priv(ps, (struct cb_kernel *)ps->obj - ps->cfg->kernels, cls) :
		     base_of(ps, k->base);
	/* libinih cuts " ; comment" off a KEY = VALUE line only: this line's is cut here */
	items = cb_xstrdup(value);
	for (char *c = items; (c = strchr(c, ';')); c++)
		if (c > items && isspace((unsigned char)c[-1])) {
			*c = '\0';
			break;
		}
	if (cb_cfg_append(k, base, items, why, sizeof(why)) < 0)
		fail(ps, ps->line, "[%s] %s", ps->section, why);
	free(items);
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct pstate *ps = user;
	const struct cfg_key *k;

	snprintf(ps->section, sizeof(ps->section), "%s", section);
	if (ps->failed || ps->sec == SEC_NONE) {
		if (!ps->failed)
			fail(ps, ps->line, "key '%s' outside a section", name);
		return 1;
	}
	if (seen_key(ps, section, name)) {
		if (!ps->indented)
			fail(ps, ps->line, "[%s]: duplicate key '%s'", section, name);
		else
			continue_key(ps, name, value);
		return 1;
	}
	switch (ps->sec) {
	case SEC_SETTING:
		setting_key(ps, name, value);
		return 1;
	case SEC_WORKLOAD:
		workload_key(ps, name, value);
		return 1;
	default:
		break;
	}
	k = find_key(ps->sec, name);
	if (!k && ps->sec == SEC_KERNEL && target_key(ps, name, value))
		return 1;
	if (!k) {
		fail(ps, ps->line, "[%s]: unknown key '%s' (see configs/README.md)", section, name);
		return 1;
	}
	store_key(ps, k, base_of(ps, k->base), value, ps->line);
	return 1;
}

static void check_workload(struct pstate *ps, struct cb_workload *w)
{
	char why[256];

	if (!w->phase[CB_PHASE_DEMAND].wl) {
		fail(ps, w->line, "[workload %s]: missing required key 'demand' (the demand program)",
		     w->name);
		return;
	}
	for (int p = 0; p < CB_NR_PHASES; p++) {
		struct cb_phase *ph = &w->phase[p];

		for (size_t i = 0; i < ph->nr_args; i++) {
			struct cb_wl_arg *a = &ph->args[i];

			if (!ph->wl) {
				fail(ps, a->line, "[workload %s] key '%s.%s': no '%s' program named",
				     w->name, phase_names[p], a->name, phase_names[p]);
				return;
			}
			a->opt = wl_find_option(ph->wl, a->name);
			if (!a->opt) {
				fail(ps, a->line, "[workload %s] key '%s.%s': %s has no option '%s' "
					 "(see %s --help)", w->name, phase_names[p], a->name,
				     ph->wl->name, a->name, ph->wl->name);
				return;
			}
			if (wl_check_value(a->opt, a->value, why, sizeof(why)) < 0) {
				fail(ps, a->line, "[workload %s] key '%s.%s': %s", w->name,
				     phase_names[p], a->name, why);
				return;
			}
		}
	}
}

/* a `kernels` list of [SECTION NAME] at @line: every name must be a [kernel] of the file */
static void check_kernel_names(struct pstate *ps, const char *section, const char *name,
			       char **list, int line)
{
	const struct cb_config *cfg = ps->cfg;

	for (size_t i = 0; list && list[i]; i++) {
		size_t k;

		for (k = 0; k < cfg->nr_kernels && strcmp(cfg->kernels[k].name, list[i]); k++)
			;
		if (k == cfg->nr_kernels) {
			char known[512] = "";

			for (k = 0; k < cfg->nr_kernels; k++)
				snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
					 k ? ", " : "", cfg->kernels[k].name);
			fail(ps, line, "[%s %s] key 'kernels': no [kernel %s] (kernels: %s)", section,
			     name, list[i], known);
			return;
		}
	}
}

/* a setting's own keys, once every [kernel] is known: kernels names them; every policy's verify */
static void check_setting(struct pstate *ps, struct cb_setting *s)
{
	char why[512];
	int line;

	for (size_t i = 0; i < s->nr_policies; i++) {
		const struct cb_policy_conf *pc = &s->policies[i];

		line = s->line;
		if (pc->ops->verify && pc->ops->verify(s, pc->priv, why, sizeof(why), &line) < 0) {
			fail(ps, line, "%s", why);
			return;
		}
	}
	check_kernel_names(ps, "setting", s->name, s->kernels, s->kernels_line);
}

static void check_kernel_target(struct pstate *ps, const struct cb_kernel *k)
{
	char why[512];

	if (k->cls->verify && k->cls->verify(k, why, sizeof(why)) < 0)
		fail(ps, k->line, "%s", why);
}

/*
 * every kernel takes its target's private config: the one its keys filled, else a new one
 * with the defaults; the others' (the keys of another target, refused) are freed. Also on
 * a failed load, where a kernel may have no target yet.
 */
static void attach_privs(struct pstate *ps)
{
	struct cb_config *cfg = ps->cfg;

	for (size_t i = 0; i < ps->nr_stash; i++) {
		struct stash *st = &ps->stash[i];
		struct cb_kernel *k = &cfg->kernels[st->kernel];

		if (k->cls == st->cls && !k->priv)
			k->priv = st->priv;
		else if (st->cls->priv_free)
			st->cls->priv_free(st->priv);
	}
	free(ps->stash);
	ps->stash = NULL;
	ps->nr_stash = 0;
	for (size_t i = 0; i < cfg->nr_kernels; i++) {
		struct cb_kernel *k = &cfg->kernels[i];

		if (k->cls && !k->priv)
			k->priv = cb_cfg_priv_new(k->cls->priv_alloc, k->cls->keys, SEC_KERNEL);
	}
}

static void check_config(struct pstate *ps)
{
	struct cb_config *cfg = ps->cfg;
	size_t i;

	if (!cb_policy_nth(0))
		fail(ps, ps->line, "no policy registered (internal: cb_policies_register() was not "
		     "called): the policy keys would go unchecked");
	if (!cfg->nr_settings)
		fail(ps, ps->line, "no [setting NAME] section: a matrix needs at least one setting");
	if (!cfg->nr_workloads)
		fail(ps, ps->line, "no [workload NAME] section: a matrix needs at least one workload");
	for (i = 0; i < cfg->nr_kernels; i++)
		if (!cfg->kernels[i].cls)
			cfg->kernels[i].cls = cfg->target;
	if (!cfg->nr_kernels) {
		/* no kernel named: the booted one, on the global target */
		cfg->kernels = cb_xrealloc(NULL, sizeof(*cfg->kernels));
		memset(cfg->kernels, 0, sizeof(*cfg->kernels));
		snprintf(cfg->kernels[0].name, CB_NAME_MAX, "%s", cfg->target->name);
		cfg->kernels[0].cls = cfg->target;
		set_defaults(ps, SEC_KERNEL, &cfg->kernels[0]);
		cfg->nr_kernels = 1;
	}
	for (i = 0; i < cfg->nr_settings && !ps->failed; i++)
		check_setting(ps, &cfg->settings[i]);
	for (i = 0; i < ps->nr_owned && !ps->failed; i++) {
		const struct owned_key *o = &ps->owned[i];
		const struct cb_kernel *k = &cfg->kernels[o->kernel];

		if (k->cls != o->cls)
			fail(ps, o->line, "[kernel %s] key '%s': only the %s target reads it, and "
			     "this kernel's target is %s", k->name, o->k->name, o->cls->name,
			     k->cls->name);
	}
	attach_privs(ps);
	for (i = 0; i < cfg->nr_kernels && !ps->failed; i++)
		check_kernel_target(ps, &cfg->kernels[i]);
	for (i = 0; i < cfg->nr_workloads && !ps->failed; i++) {
		check_workload(ps, &cfg->workloads[i]);
		if (!ps->failed)
			check_kernel_names(ps, "workload", cfg->workloads[i].name,
					   cfg->workloads[i].kernels, cfg->workloads[i].kernels_line);
	}
	if (!cfg->name) {
		char *dup = cb_xstrdup(cfg->path), *base = basename(dup), *dot = strrchr(base, '.');

		if (dot && !strcmp(dot, ".ini"))
			*dot = '\0';
		cfg->name = cb_xstrdup(base);
		free(dup);
	}
}

static void hash_file(struct cb_config *cfg, const char *data, size_t len)
{
	unsigned char md[32];
	unsigned int mdlen = 0;

	EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL);
	for (unsigned int i = 0; i < mdlen && i < 32; i++)
		snprintf(cfg->sha256 + 2 * i, 3, "%02x", md[i]);
}

struct cb_config *cb_config_load(const char *path, char *err, size_t errlen)
{
	struct pstate ps = { 0 };
	struct cb_config *cfg;
	size_t len;
	char *data;
	int rc;

	data = cb_read_file(path, &len);
	if (!data) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	cfg = cb_xcalloc(1, sizeof(*cfg));
	cfg->path = cb_xstrdup(path);
	hash_file(cfg, data, len);
	ps.cfg = cfg;
	ps.file = path;
	ps.sec = SEC_NONE;
	/* a check skipped in silence would pass a config it should refuse: say it */
	if (!cb_target_class_nth(0))
		fail(&ps, 0, "no target class registered (internal: cb_targets_register() was not "
		     "called)");
	set_defaults(&ps, SEC_GLOBAL, NULL);
	set_defaults(&ps, SEC_COLLECTOR, NULL);
	ps.fp = fmemopen(data, len, "r");
	if (!ps.fp)
		cb_oom();
	rc = ini_parse_stream(reader, &ps, handler, &ps);
	fclose(ps.fp);
	free(data);
	if (rc > 0 && !ps.failed)
		fail(&ps, rc, "not an INI line (KEY = VALUE, [section] or a ; comment)");
	if (!ps.failed)
		check_config(&ps);
	attach_privs(&ps); /* what a failed load left in the stash */
	for (size_t i = 0; i < ps.nr_seen; i++)
		free(ps.seen[i]);
	free(ps.seen);
	free(ps.owned);
	if (ps.failed) {
		snprintf(err, errlen, "%s", ps.err);
		cb_config_free(cfg);
		return NULL;
	}
	return cfg;
}

static void free_list(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

void cb_config_free(struct cb_config *cfg)
{
	size_t i, k;

	if (!cfg)
		return;
	for (i = 0; i < cfg->nr_kernels; i++) {
		const struct cb_kernel *kern = &cfg->kernels[i];

		free(kern->release);
		if (kern->cls && kern->cls->priv_free)
			kern->cls->priv_free(kern->priv);
	}
	for (i = 0; i < cfg->nr_settings; i++) {
		for (k = 0; k < cfg->settings[i].nr_policies; k++) {
			const struct cb_policy_conf *pc = &cfg->settings[i].policies[k];

			if (pc->ops->priv_free)
				pc->ops->priv_free(pc->priv);
		}
		free(cfg->settings[i].policies);
		for (k = 0; k < cfg->settings[i].nr_knobs; k++) {
			free(cfg->settings[i].knobs[k].key);
			free(cfg->settings[i].knobs[k].value);
		}
		free(cfg->settings[i].knobs);
		free_list(cfg->settings[i].kernels);
	}
	for (i = 0; i < cfg->nr_workloads; i++) {
		for (int p = 0; p < CB_NR_PHASES; p++) {
			struct cb_phase *ph = &cfg->workloads[i].phase[p];

			for (k = 0; k < ph->nr_args; k++) {
				free(ph->args[k].name);
				free(ph->args[k].value);
			}
			free(ph->args);
		}
		free_list(cfg->workloads[i].kernels);
	}
	free_list(cfg->events);
	free(cfg->kernels);
	free(cfg->settings);
	free(cfg->workloads);
	free(cfg->memory_limit);
	free(cfg->output);
	free(cfg->name);
	free(cfg->path);
	free(cfg);
}
