// SPDX-License-Identifier: GPL-2.0-only
/*
 * config_store.c - one value of a config key checked against its row (config_key.h) and
 * stored: for the harness's own table and for the tables of target classes and policies
 * alike; and the defaults and the freeing of what a table stores.
 */
#include "config_int.h"
#include "target_class.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

const struct cfg_key *cb_cfg_key_find(const struct cfg_key *keys, const char *name)
{
	for (const struct cfg_key *k = keys; k && k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

const char *cb_cfg_choices_text(const char *const *choices, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; choices[i] && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? ", " : "", choices[i]);
	return buf;
}

void cb_cfg_target_choices(const char **names, size_t max)
{
	const struct cb_target_class *cls;
	size_t i;

	for (i = 0; i + 1 < max && (cls = cb_target_class_nth(i)); i++)
		names[i] = cls->name;
	names[i] = NULL;
}

/* an enum's (or a target's) bad value: the section, the key and every allowed value */
static int bad_choice(const struct cfg_key *k, const char *value, const char *section,
		      const char *const *choices, char *why, size_t len)
{
	char allowed[256];

	snprintf(why, len, "[%s] key '%s': '%s' is not one of the allowed values: %s", section,
		 k->name, value, cb_cfg_choices_text(choices, allowed, sizeof(allowed)));
	return -1;
}

static int store_list(const struct cfg_key *k, char *field, const char *value, char *why,
		      size_t len)
{
	char **list = NULL, *dup = cb_xstrdup(value), *tok, *save = NULL;
	size_t n = 0, i;

	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*tok))
			tok++;
		for (i = strlen(tok); i && isspace((unsigned char)tok[i - 1]); i--)
			tok[i - 1] = '\0';
		if (!*tok)
			continue;
		list = cb_xrealloc(list, (n + 2) * sizeof(*list));
		list[n++] = cb_xstrdup(tok);
		list[n] = NULL;
	}
	free(dup);
	if (!n) {
		snprintf(why, len, "key '%s': empty list", k->name);
		return -1;
	}
	*(char ***)field = list;
	return 0;
}

/* a duration key: in its range, in seconds */
static int store_duration(const struct cfg_key *k, char *field, const char *value, char *why,
			  size_t len)
{
	char lo[32], hi[32];
	double d;

	if (cb_parse_duration(value, &d) < 0) {
		snprintf(why, len, "key '%s': '%s' is %s", k->name, value, errno == ERANGE ?
			 "longer than any duration this tool takes (" CB_DURATION_MAX_TEXT ")" :
			 "not a duration (30, 30s, 500ms, 2m, 1h)");
		return -1;
	}
	if (d * 1000 < (double)k->min || d * 1000 > (double)cb_cfg_max(k)) {
		snprintf(why, len, "key '%s': '%s' is outside %s..%s", k->name, value,
			 cb_cfg_ms_text(k->min, lo, sizeof(lo)),
			 cb_cfg_ms_text(cb_cfg_max(k), hi, sizeof(hi)));
		return -1;
	}
	*(double *)field = d;
	return 0;
}

/* a size key: in its range or a fraction; kept as text, resolved on the target */
static int store_size(const struct cfg_key *k, char *field, const char *value, char *why,
		      size_t len)
{
	char lo[32], hi[32];
	uint64_t sz;

	if (cb_parse_size(value, 1ULL << 40, &sz) < 0) {
		snprintf(why, len, "key '%s': '%s' is %s", k->name, value, errno == ERANGE ?
			 "larger than any size this tool takes (" CB_SIZE_MAX_TEXT ")" :
			 "not a size (a fraction like 0.25, or 512M, 4G)");
		return -1;
	}
	if (!cb_size_is_fraction(value) && (sz < (uint64_t)k->min ||
					     sz > (uint64_t)cb_cfg_max(k))) {
		snprintf(why, len, "key '%s': '%s' is outside %s..%s (or a fraction in (0, 1])",
			 k->name, value, cb_cfg_bytes_text(k->min, lo, sizeof(lo)),
			 cb_cfg_bytes_text(cb_cfg_max(k), hi, sizeof(hi)));
		return -1;
	}
	free(*(char **)field);
	*(char **)field = cb_xstrdup(value);
	return 0;
}

static int store_value(const struct cfg_key *k, char *field, const char *value,
		       const char *section, char *why, size_t len)
{
	const char *names[CB_CFG_MAX_TARGETS + 1];
	long long v;

	switch (k->type) {
	case KT_INT:
		if (cb_parse_long(value, k->min, k->max, &v) < 0) {
			snprintf(why, len, "key '%s': '%s' is not a whole number in [%lld, %lld]",
				 k->name, value, k->min, k->max);
			return -1;
		}
		*(long *)field = v;
		return 0;
	case KT_DURATION:
		return store_duration(k, field, value, why, len);
	case KT_SIZE:
		return store_size(k, field, value, why, len);
	case KT_STRING:
		free(*(char **)field);
		*(char **)field = cb_xstrdup(value);
		return 0;
	case KT_ENUM:
		for (size_t i = 0; k->choices[i]; i++) {
			if (!strcmp(k->choices[i], value)) {
				*(int *)field = (int)i;
				return 0;
			}
		}
		return bad_choice(k, value, section, k->choices, why, len);
	case KT_TARGET:
		*(const struct cb_target_class **)field = cb_target_class_find(value);
		if (*(const struct cb_target_class **)field)
			return 0;
		cb_cfg_target_choices(names, sizeof(names) / sizeof(names[0]));
		return bad_choice(k, value, section, names, why, len);
	case KT_LIST:
		return store_list(k, field, value, why, len);
	}
	snprintf(why, len, "key '%s': no such key type", k->name);
	return -1;
}

int cb_cfg_store(const struct cfg_key *k, void *base, const char *value, int line,
		 const char *section, char *why, size_t len)
{
	if (store_value(k, (char *)base + k->off, value, section, why, len) < 0)
		return -1;
	if (k->line_off && line > 0)
		*(int *)((char *)base + k->line_off - 1) = line;
	return 0;
}

int cb_cfg_append(const struct cfg_key *k, void *base, const char *value, char *why,
		  size_t len)
{
	char ***field = (char ***)((char *)base + k->off), **more = NULL;
	size_t n = 0, m = 0;

	if (k->type != KT_LIST) {
		snprintf(why, len, "key '%s' takes one value, and an indented line goes on with the "
			 "key above it (only a list goes on over lines)", k->name);
		return -1;
	}
	if (store_list(k, (char *)&more, value, why, len) < 0)
		return -1;
	while (*field && (*field)[n])
		n++;
	while (more[m])
		m++;
	*field = cb_xrealloc(*field, (n + m + 1) * sizeof(**field));
	memcpy(*field + n, more, (m + 1) * sizeof(*more));
	free(more);
	return 0;
}

int cb_cfg_set_defaults(const struct cfg_key *keys, enum cfg_sec sec, void *base, char *why,
			size_t len)
{
	for (const struct cfg_key *k = keys; k && k->name; k++)
		if (k->sec == sec && k->def && cb_cfg_store(k, base, k->def, 0, "", why, len) < 0)
			return -1;
	return 0;
}

void *cb_cfg_priv_new(void *(*alloc)(void), const struct cfg_key *keys, enum cfg_sec sec)
{
	char why[512];
	void *priv = alloc ? alloc() : NULL;

	/* a default that does not pass its own row is a bug in the table, not in the file */
	if (priv && cb_cfg_set_defaults(keys, sec, priv, why, sizeof(why)) < 0) {
		fprintf(stderr, "compactbench: internal: default of %s\n", why);
		abort();
	}
	return priv;
}

void cb_cfg_keys_free(const struct cfg_key *keys, void *priv)
{
	if (!priv)
		return;
	for (const struct cfg_key *k = keys; k && k->name; k++) {
		char *field = (char *)priv + k->off;

		if (k->type == KT_STRING || k->type == KT_SIZE) {
			free(*(char **)field);
		} else if (k->type == KT_LIST) {
			char **list = *(char ***)field;

			for (size_t i = 0; list && list[i]; i++)
				free(list[i]);
			free(list);
		}
	}
	free(priv);
}

int cb_kernel_set_target(struct cb_kernel *k, const struct cb_target_class *cls)
{
	if (!cls) {
		errno = EINVAL;
		return -1;
	}
	if (k->cls == cls)
		return 0;
	if (k->cls && k->cls->priv_free)
		k->cls->priv_free(k->priv);
	k->cls = cls;
	k->priv = cb_cfg_priv_new(cls->priv_alloc, cls->keys, SEC_KERNEL);
	return 0;
}
