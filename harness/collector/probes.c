// SPDX-License-Identifier: GPL-2.0-only
/*
 * probes.c - kprobe/kretprobe pairs on the allocator slow path and direct compaction
 * (see probes.h for the events and the argument analysis).
 *
 * One table describes the pairs; create walks it: availability (kprobe_events, lockdown),
 * symbols (kallsyms, compiler suffixes), then tracefs_kprobe_alloc/tracefs_kretprobe_alloc
 * and tracefs_dynevent_create for each, undoing what was made if one fails.
 */
#include "probes.h"
#include "util.h"
#include "xalloc.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#if defined(__x86_64__)
#define ARG_GFP "%di"
#define ARG_ORDER "%si"
#define ARG_PRIO "%r8"
#else
#define ARG_GFP "$arg1"
#define ARG_ORDER "$arg2"
#define ARG_PRIO "$arg5"
#endif

struct probe_def {
	const char *event;	/* the entry event; the return event is event + "_ret" */
	const char *symbol;	/* the function, without compiler suffix */
	const char *args;	/* fetch args of the entry probe */
};

static const struct probe_def probe_defs[] = {
	{ "alloc_slowpath", "__alloc_pages_slowpath",
	  "gfp=" ARG_GFP ":x32 order=" ARG_ORDER ":u32" },
	{ "direct_compact", "__alloc_pages_direct_compact",
	  "gfp=" ARG_GFP ":x32 order=" ARG_ORDER ":u32 prio=" ARG_PRIO ":s32" },
};

#define NR_PAIRS CB_ARRAY_SIZE(probe_defs)
#define RET_ARGS "ret=$retval:x64"

struct cb_probes {
	char system[64];
	struct tracefs_dynevent *dev[2 * NR_PAIRS];	/* entry, return, entry, return */
	char *names[2 * NR_PAIRS + 1];			/* "system:event", NULL-terminated */
	char describe[512];
};

/* the rank of a candidate's suffix: 0 exact, 1 .constprop, 2 .isra, 3 other; -1 no match */
static int suffix_rank(const char *name, const char *base)
{
	size_t len = strlen(base);
	const char *sfx = name + len;

	if (strncmp(name, base, len))
		return -1;
	if (!*sfx)
		return 0;
	if (*sfx != '.' || strstr(sfx, ".cold"))
		return -1;
	if (!strncmp(sfx, ".constprop.", 11))
		return 1;
	if (!strncmp(sfx, ".isra.", 6))
		return 2;
	return 3;
}

int cb_probes_resolve(const char *kallsyms_path, const char *base, char *out, size_t size,
		      char *err, size_t errlen)
{
	const char *path = kallsyms_path ? kallsyms_path : "/proc/kallsyms";
	int best = 4, rank;
	char line[512], name[256], type;
	FILE *f;

	if (!base || !*base || !out || !size)
		return cb_fail(err, errlen, EINVAL, "no symbol given");
	f = fopen(path, "re");
	if (!f)
		return cb_fail(err, errlen, errno, "cannot read %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		/* "ffffffff8163af50 t __alloc_pages_slowpath.constprop.0" [\t[module]] */
		if (sscanf(line, "%*s %c %255s", &type, name) != 2 || strchr(line, '['))
			continue;
		if (type != 't' && type != 'T')
			continue;
		rank = suffix_rank(name, base);
		if (rank >= 0 && rank < best) {
			best = rank;
			snprintf(out, size, "%s", name);
		}
	}
	fclose(f);
	if (best > 3)
		return cb_fail(err, errlen, ENOENT, "symbol %s is not in %s (nor with a "
			       ".constprop/.isra/.part suffix): renamed or inlined in this kernel",
			       base, path);
	return 0;
}

/*
 * whether the tracefs root has @name (tracefs_file_exists() of libtracefs 1.6.4 ignores a
 * directory set with tracefs_set_tracing_dir(); tracefs_get_tracing_file() does not)
 */
static bool tracing_file_exists(const char *name)
{
	char *path = tracefs_get_tracing_file(name);
	struct stat st;
	bool ret = path && stat(path, &st) == 0 && !S_ISDIR(st.st_mode);

	tracefs_put_tracing_file(path);
	return ret;
}

/* why this kernel cannot take kprobes, or 0 if it seems it can */
static int check_available(const struct cb_probes_opts *o, char *err, size_t errlen)
{
	const char *lockdown = o->lockdown_path ? o->lockdown_path : "/sys/kernel/security/lockdown";
	const char *dir = tracefs_tracing_dir();
	char mode[128];

	if (!dir)
		return cb_fail(err, errlen, ENODEV, "tracefs is not mounted");
	if (!tracing_file_exists("kprobe_events"))
		return cb_fail(err, errlen, ENOTSUP, "the kernel has no kprobe events (no "
			       "%s/kprobe_events: CONFIG_KPROBES or CONFIG_KPROBE_EVENTS is off)",
			       dir);
	if (cb_read_trimmed(lockdown, mode, sizeof(mode)) == 0 && strstr(mode, "[confidentiality]"))
		return cb_fail(err, errlen, EPERM, "kernel lockdown (%s: %s) forbids kprobes",
			       lockdown, mode);
	return 0;
}

/* undo: remove every probe made so far (forcing them off in every instance) */
static int remove_all(struct cb_probes *p, char *err, size_t errlen)
{
	int ret = 0, saved = 0;
	size_t i;

	for (i = 2 * NR_PAIRS; i-- > 0;) {
		if (!p->dev[i])
			continue;
		if (tracefs_dynevent_destroy(p->dev[i], true) < 0 && !ret) {
			saved = errno ? errno : EBUSY;
			ret = cb_fail(err, errlen, saved, "cannot remove kprobe %s: %s", p->names[i],
				      strerror(saved));
		}
		tracefs_dynevent_free(p->dev[i]);
		p->dev[i] = NULL;
	}
	errno = saved;
	return ret;
}

static void free_probes(struct cb_probes *p)
{
	size_t i;

	for (i = 0; i < 2 * NR_PAIRS; i++)
		free(p->names[i]);
	free(p);
}

/* make the entry and return probes of one pair on @sym; dev[] holds only probes made */
static int make_pair(struct cb_probes *p, size_t k, const char *sym, char *err, size_t errlen)
{
	const struct probe_def *d = &probe_defs[k];
	struct tracefs_dynevent *dev;
	char event[64];
	size_t i;
	int e;

	for (i = 2 * k; i < 2 * k + 2; i++) {
		snprintf(event, sizeof(event), "%s%s", d->event, i & 1 ? "_ret" : "");
		if (asprintf(&p->names[i], "%s:%s", p->system, event) < 0) {
			p->names[i] = NULL;
			return cb_fail(err, errlen, ENOMEM, "out of memory");
		}
		dev = i & 1 ? tracefs_kretprobe_alloc(p->system, event, sym, RET_ARGS, 0) :
			      tracefs_kprobe_alloc(p->system, event, sym, d->args);
		if (!dev)
			return cb_fail(err, errlen, errno ? errno : ENOMEM,
				       "cannot describe kprobe %s on %s", p->names[i], sym);
		if (tracefs_dynevent_create(dev) < 0) {
			e = errno ? errno : EINVAL;
			tracefs_dynevent_free(dev);
			return cb_fail(err, errlen, e, "the kernel refused kprobe %s on %s: %s%s",
				       p->names[i], sym, strerror(e),
				       e == EINVAL ? " (see tracefs error_log)" : "");
		}
		p->dev[i] = dev;
	}
	return 0;
}

struct cb_probes *cb_probes_create(const struct cb_probes_opts *opts, char *err, size_t errlen)
{
	static const struct cb_probes_opts none;
	const struct cb_probes_opts *o = opts ? opts : &none;
	const char *base[NR_PAIRS] = { o->slowpath_symbol, o->compact_symbol };
	char sym[NR_PAIRS][256];
	struct cb_probes *p;
	size_t k, len = 0;
	int saved;

	if (check_available(o, err, errlen) < 0)
		return NULL;
	for (k = 0; k < NR_PAIRS; k++)
		if (cb_probes_resolve(o->kallsyms_path, base[k] ? base[k] : probe_defs[k].symbol,
				      sym[k], sizeof(sym[k]), err, errlen) < 0)
			return NULL;
	p = calloc(1, sizeof(*p));
	if (!p) {
		cb_fail(err, errlen, ENOMEM, "out of memory");
		return NULL;
	}
	snprintf(p->system, sizeof(p->system), CB_PROBES_SYSTEM_PREFIX "%d", (int)getpid());
	for (k = 0; k < NR_PAIRS; k++) {
		if (make_pair(p, k, sym[k], err, errlen) < 0) {
			/* undo what was made, keeping the first error's message */
			saved = errno;
			remove_all(p, NULL, 0);
			free_probes(p);
			errno = saved;
			return NULL;
		}
		len += snprintf(p->describe + len, sizeof(p->describe) - len, "%s%s=%s",
				k ? " " : "", probe_defs[k].event, sym[k]);
		if (len >= sizeof(p->describe))
			len = sizeof(p->describe) - 1;
	}
	return p;
}

int cb_probes_destroy(struct cb_probes *p, char *err, size_t errlen)
{
	int ret;

	if (!p)
		return 0;
	ret = remove_all(p, err, errlen);
	free_probes(p);
	return ret;
}

const char *const *cb_probes_events(const struct cb_probes *p)
{
	return (const char *const *)p->names;
}

const char *cb_probes_describe(const struct cb_probes *p)
{
	return p->describe;
}

/* the pid of a system named CB_PROBES_SYSTEM_PREFIX<pid>, or 0 */
static long system_pid(const char *system)
{
	size_t plen = strlen(CB_PROBES_SYSTEM_PREFIX);
	char *end;
	long pid;

	if (!system || strncmp(system, CB_PROBES_SYSTEM_PREFIX, plen))
		return 0;
	pid = strtol(system + plen, &end, 10);
	return *end || pid <= 0 ? 0 : pid;
}

int cb_probes_cleanup_stale(void (*log)(const char *msg))
{
	struct tracefs_dynevent **all;
	char msg[512];
	int i, removed = 0;

	if (!tracefs_tracing_dir() || !tracing_file_exists("kprobe_events"))
		return 0;	/* no kprobes in this kernel: none can be left */
	all = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_KPROBE | TRACEFS_DYNEVENT_KRETPROBE, NULL);
	for (i = 0; all && all[i]; i++) {
		char *system = NULL, *event = NULL;
		long pid;

		tracefs_dynevent_info(all[i], &system, &event, NULL, NULL, NULL);
		pid = system_pid(system);
		if (pid && pid != getpid() && kill(pid, 0) < 0 && errno == ESRCH) {
			if (tracefs_dynevent_destroy(all[i], true) < 0) {
				snprintf(msg, sizeof(msg), "cannot remove stale kprobe %s:%s: %s",
					 system, event, strerror(errno));
			} else {
				snprintf(msg, sizeof(msg), "removed stale kprobe %s:%s (pid %ld is gone)",
					 system, event, pid);
				removed++;
			}
			if (log)
				log(msg);
		}
		free(system);
		free(event);
	}
	tracefs_dynevent_list_free(all);
	return removed;
}
