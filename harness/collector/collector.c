// SPDX-License-Identifier: GPL-2.0-only
/*
 * collector.c - compactbench's own tracefs collector (see collector.h): start, events,
 * probes, stop and stale instances; the drain thread and the final drain are in
 * collector_drain.c.
 *
 * start: instance "compactbench-<pid>", tracing_on 0, buffers, clock, each event enabled
 *   through its own enable file (tracefs_event_enable() takes regexes: "mm_page_alloc"
 *   would also match mm_page_alloc_extfrag), filters, the allocator probes (probes.c) unless
 *   the kernel cannot take them (then "tracepoint" mode and why), trace_pipe_raw opened
 *   non-blocking, drain thread, tracing_on 1 read back.
 * stop: tracing_on 0, join, final drain, trace.dat (tracedat.c) through "<path>.tmp" and
 *   a rename, teardown: events off, pipes closed, instance, probes and spool files removed
 *   (also on abort and failed start).
 */
#include "collector_int.h"
#include "probes.h"
#include "tep_print.h"
#include "tracedat.h"
#include "util.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <tracefs.h>

#define DEFAULT_BUFFER_KB 16384		/* 16 MiB per CPU: ~0.8 s of 400k events/s */
#define DEFAULT_POLL_MS 100
#define DEFAULT_CLOCK "mono"
#define TRACEFS_MAGIC 0x74726163
#define DEBUGFS_MAGIC 0x64626720

const char *const cb_collector_default_events[] = {
	"compaction:*",
	"vmscan:mm_vmscan_direct_reclaim_begin",
	"vmscan:mm_vmscan_direct_reclaim_end",
	"vmscan:mm_vmscan_kswapd_wake",
	"vmscan:mm_vmscan_kswapd_sleep",
	"vmscan:mm_vmscan_wakeup_kswapd",
	/*
	 * Not kmem:mm_page_alloc: its tracepoint runs, filter and all, for every page the kernel
	 * hands out, and that cost a fragmented guest's THP faults 2.4% (each one that falls
	 * back faults 512 base pages), against 0.3% for the rest of this list
	 * (bench/observer/README.md). The analysis does without it (analysis/README.md: a
	 * stall ends at its last compaction event, success and fail are unknown, the break-up
	 * estimate counts huge pages from the sampler's THP counters); `-e` adds it, as
	 * CB_COLLECTOR_ALLOC_EVENT for the allocations that can stall and all of order >= 9.
	 */
	"kmem:mm_page_alloc_extfrag",
	/* khugepaged: 5.10 has the first four, the _file ones came with 5.19 */
	"huge_memory:mm_khugepaged_scan_pmd",
	"huge_memory:mm_collapse_huge_page",
	"huge_memory:mm_collapse_huge_page_isolate",
	"huge_memory:mm_collapse_huge_page_swapin",
	"huge_memory:mm_khugepaged_scan_file",
	"huge_memory:mm_khugepaged_collapse_file",
	"sched:sched_process_exec",
	"sched:sched_process_fork",
	NULL,
};

/* cb_vfail() into @buf (@size 0: none), @err as cb_collector_set_err() takes it */
static int vput_err(char *buf, size_t size, int err, const char *fmt, va_list ap)
{
	int e = err >= 0 ? err : errno ? errno : -err;
	size_t len;

	cb_vfail(buf, size, e, fmt, ap);
	len = size ? strlen(buf) : 0;
	if (err < 0 && len < size)
		snprintf(buf + len, size - len, ": %s", strerror(e));
	return -1;
}

/* vput_err() for the functions that fail before there is a collector: the caller's buffer */
static int __attribute__((format(printf, 4, 5)))
put_err(char *buf, size_t size, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vput_err(buf, size, err, fmt, ap);
	va_end(ap);
	return -1;
}

int cb_collector_set_err(struct cb_collector *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vput_err(c->err, sizeof(c->err), err, fmt, ap);
	va_end(ap);
	return -1;
}

/* the short name used in this file */
#define set_err cb_collector_set_err

const char *cb_collector_error(const struct cb_collector *c)
{
	return c->err;
}

const char *cb_collector_instance_name(const struct cb_collector *c)
{
	return c->name;
}

/* --- setup and teardown ------------------------------------------------------------- */

static void teardown(struct cb_collector *c)
{
	char perr[sizeof(c->err)];
	int i;

	if (c->done)
		return;
	cb_collector_drain_stop(c);
	if (c->inst) {
		tracefs_trace_off(c->inst);
		tracefs_instance_file_write(c->inst, "events/enable", "0");
	}
	for (i = 0; c->cpu && i < c->nr_cpus; i++) {
		if (c->cpu[i].tcpu)
			tracefs_cpu_close(c->cpu[i].tcpu);
		c->cpu[i].tcpu = NULL;
		if (c->cpu[i].fd >= 0)
			close(c->cpu[i].fd);
		c->cpu[i].fd = -1;
		if (c->cpu[i].path[0])
			unlink(c->cpu[i].path);
	}
	if (c->inst) {
		if (tracefs_instance_destroy(c->inst) < 0 && !c->err[0])
			set_err(c, -EBUSY, "cannot remove tracefs instance %s", c->name);
		tracefs_instance_free(c->inst);
		c->inst = NULL;
	}
	/* after the instance: a probe still enabled somewhere cannot be removed */
	if (c->probes && cb_probes_destroy(c->probes, perr, sizeof(perr)) < 0 && !c->err[0])
		set_err(c, errno, "%s", perr);
	c->probes = NULL;
	if (c->wake_fd >= 0)
		close(c->wake_fd);
	c->wake_fd = -1;
	c->done = true;
}

static bool valid_name(const char *s)
{
	return *s && !strpbrk(s, "/ \t:") && strcmp(s, "..");
}

static bool in_list(char **list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* add @s to @list unless it is there */
static int list_add(struct cb_collector *c, char ***list, const char *s)
{
	char **l;

	if (in_list(*list, s))
		return 0;
	l = tracefs_list_add(*list, s);
	if (!l)
		return set_err(c, ENOMEM, "out of memory");
	*list = l;
	return 0;
}

/* enable one existing event, with an optional filter; checks its format is readable */
/*
 * @filter with its flag names (e.g. __GFP_DIRECT_RECLAIM) as the numbers of this kernel's
 * @format: the kernel's filter language has no names for flags, and their bits move between
 * releases (gfp_types.h made them an enum in 6.0)
 */
static int filter_flags(struct cb_collector *c, const char *sys, const char *ev,
			const char *format, const char *filter, char *out, size_t outlen)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *event = NULL;
	char why[256];
	int ret = -1;

	if (!tep)
		cb_oom();
	if (tep_parse_format(tep, &event, format, strlen(format), sys) || !event)
		set_err(c, EINVAL, "filter \"%s\": the format of %s:%s does not parse", filter,
			sys, ev);
	else if (cb_tep_filter_flags(event, filter, out, outlen, why, sizeof(why)))
		set_err(c, EINVAL, "filter \"%s\": %s", filter, why);
	else
		ret = 0;
	tep_free(tep);
	return ret;
}

static int enable_one(struct cb_collector *c, const char *sys, const char *ev, const char *filter)
{
	char name[512], resolved[1024], *s;

	snprintf(name, sizeof(name), "%s:%s", sys, ev);
	/* an event has one filter: a second one would be dropped without a word */
	if (in_list(c->enabled, name) && filter)
		return set_err(c, EINVAL, "event %s is asked for twice, the second time with filter "
			       "\"%s\": an event takes one filter, give it once", name, filter);
	if (in_list(c->enabled, name))
		return 0;
	s = tracefs_event_file_read(c->inst, sys, ev, "format", NULL);
	if (!s)
		return set_err(c, -EIO, "event format of %s unreadable (events/%s/%s/format)", name,
			       sys, ev);
	if (filter && strstr(filter, "__")) {
		if (filter_flags(c, sys, ev, s, filter, resolved, sizeof(resolved)) < 0) {
			free(s);
			return -1;
		}
		filter = resolved;
	}
	free(s);
	if (filter && tracefs_event_file_write(c->inst, sys, ev, "filter", filter) < 0) {
		/* the kernel says why in the filter file: "parse_error: Field not found" */
		char *why;

		s = tracefs_event_file_read(c->inst, sys, ev, "filter", NULL);
		why = s ? strstr(s, "parse_error: ") : NULL;
		set_err(c, EINVAL, "filter \"%s\" rejected by %s: %s", filter, name,
			why ? strtok(why + 13, "\n") : "invalid");
		free(s);
		return -1;
	}
	if (tracefs_event_file_write(c->inst, sys, ev, "enable", "1") < 0)
		return set_err(c, -EIO, "cannot enable %s in instance %s", name, c->name);
	return list_add(c, &c->enabled, name);
}

/*
 * split "system:event[ if FILTER]" (or "system:*") in @buf, a copy of @spec, into its
 * parts; -1 with EINVAL when it has no such shape
 */
static int split_spec(const char *spec, char *buf, size_t size, char **sys, char **ev,
		      char **filter)
{
	char *colon;

	if (snprintf(buf, size, "%s", spec) >= (int)size) {
		errno = EINVAL;
		return -1;
	}
	*filter = strstr(buf, " if ");
	if (*filter) {
		**filter = '\0';
		*filter += 4;
		while (**filter == ' ')
			(*filter)++;
	}
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	*sys = buf;
	*ev = colon ? colon + 1 : "";
	if (!valid_name(*sys) || !valid_name(*ev)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int cb_collector_check_event(const char *spec, char *err, size_t errlen)
{
	char buf[1024], *sys, *ev, *filter;

	if (split_spec(spec, buf, sizeof(buf), &sys, &ev, &filter) == 0)
		return 0;
	snprintf(err, errlen, "bad event \"%.200s\": want system:event or system:*, optionally "
		 "followed by \" if FILTER\"", spec);
	return -1;
}

/* "system:event[ if FILTER]" or "system:*[ if FILTER]" */
static int enable_spec(struct cb_collector *c, const char *spec)
{
	char buf[1024], name[1030], *filter, *sys, *ev, **events;
	int i, ret = 0;

	if (split_spec(spec, buf, sizeof(buf), &sys, &ev, &filter) < 0)
		return set_err(c, EINVAL, "bad event \"%.200s\": want system:event or system:*",
			       spec);
	snprintf(name, sizeof(name), "%s:%s", sys, ev);
	if (strcmp(ev, "*")) {
		if (!tracefs_event_file_exists(c->inst, sys, ev, "enable"))
			return list_add(c, &c->missing, name);
		return enable_one(c, sys, ev, filter);
	}
	events = tracefs_system_events(tracefs_tracing_dir(), sys);
	if (!events || !events[0]) {
		tracefs_list_free(events);
		return list_add(c, &c->missing, name);
	}
	for (i = 0; events[i] && !ret; i++)
		ret = enable_one(c, sys, events[i], filter);
	tracefs_list_free(events);
	return ret;
}

static size_t default_buffer_kb(int nr_cpus)
{
	long long mem = cb_meminfo_kb(NULL, "MemTotal");
	size_t kb = DEFAULT_BUFFER_KB;

	/* never take more than 1/32 of memory for all CPUs together */
	if (mem > 0 && (size_t)(mem / 32 / nr_cpus) < kb)
		kb = mem / 32 / nr_cpus;
	return kb < 1024 ? 1024 : kb;
}

static int setup_buffers(struct cb_collector *c, size_t want_kb)
{
	char *s;
	long long got;

	c->buffer_kb = want_kb ? want_kb : default_buffer_kb(c->nr_cpus);
	if (tracefs_instance_set_buffer_size(c->inst, c->buffer_kb, -1) < 0)
		return set_err(c, -ENOMEM, "cannot set buffer_size_kb of %s to %zu", c->name,
			       c->buffer_kb);
	s = tracefs_instance_file_read(c->inst, "buffer_size_kb", NULL);
	if (s && sscanf(s, "%lld", &got) == 1 && got > 0)
		c->buffer_kb = got;
	free(s);
	if (tracefs_instance_file_write(c->inst, "trace_clock", c->clock) < 0)
		return set_err(c, -EINVAL, "trace clock \"%s\" refused by %s/trace_clock", c->clock,
			       c->name);
	return 0;
}

static int open_spools(struct cb_collector *c)
{
	int i;

	for (i = 0; i < c->nr_cpus; i++) {
		struct cb_collector_cpu *s = &c->cpu[i];
		char rel[64];

		snprintf(rel, sizeof(rel), "per_cpu/cpu%d", i);
		if (!tracefs_dir_exists(c->inst, rel))
			continue;	/* a CPU the kernel does not trace: empty data */
		if (cb_path(s->path, sizeof(s->path), "%s/%s.cpu%d", c->spool_dir, c->name, i) < 0)
			return set_err(c, ENAMETOOLONG, "spool path too long in %s", c->spool_dir);
		s->fd = open(s->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (s->fd < 0) {
			set_err(c, -EIO, "cannot create spool file %s", s->path);
			s->path[0] = '\0';
			return -1;
		}
		s->tcpu = tracefs_cpu_open(c->inst, i, true);
		if (!s->tcpu)
			return set_err(c, -EIO, "cannot open %s/per_cpu/cpu%d/trace_pipe_raw", c->name, i);
		c->page_size = tracefs_cpu_read_size(s->tcpu);
	}
	if (c->page_size <= 0)
		return set_err(c, ENODEV, "no per_cpu/cpuN/trace_pipe_raw in instance %s", c->name);
	return 0;
}

int cb_collector_set_tracing_dir(const char *dir, char *err, size_t errlen)
{
	struct statfs fs;

	if (dir && tracefs_set_tracing_dir((char *)dir) < 0)
		return put_err(err, errlen, -ENOMEM, "collector: tracing directory %s", dir);
	dir = tracefs_tracing_dir();
	if (!dir)
		return put_err(err, errlen, ENODEV, "tracefs is not mounted (mount -t tracefs nodev "
			       "/sys/kernel/tracing)");
	if (statfs(dir, &fs) < 0)
		return put_err(err, errlen, -ENODEV, "tracefs is not mounted: %s", dir);
	if (fs.f_type != TRACEFS_MAGIC && fs.f_type != DEBUGFS_MAGIC)
		return put_err(err, errlen, ENODEV, "%s is not a tracefs mount (filesystem type "
			       "0x%lx): tracefs is not mounted there (mount -t tracefs nodev %s)",
			       dir, (unsigned long)fs.f_type, dir);
	return 0;
}

static int check_opts(const struct cb_collector_opts *o, char *err, size_t errlen)
{
	struct stat st;

	if (!o || !o->spool_dir)
		return put_err(err, errlen, EINVAL, "collector: no spool directory given");
	errno = 0;
	if (stat(o->spool_dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return put_err(err, errlen, -ENOTDIR, "collector: spool directory %s", o->spool_dir);
	if (o->clock && (!*o->clock || strlen(o->clock) >= 32))
		return put_err(err, errlen, EINVAL, "collector: bad trace clock \"%s\"", o->clock);
	return cb_collector_set_tracing_dir(o->tracing_dir, err, errlen);
}

/* disable the events of system @sys (the probes') and take them off the enabled list */
static void drop_system(struct cb_collector *c, const char *sys)
{
	size_t len = strlen(sys), i, j;

	for (i = j = 0; c->enabled && c->enabled[i]; i++) {
		if (!strncmp(c->enabled[i], sys, len) && c->enabled[i][len] == ':') {
			tracefs_event_file_write(c->inst, sys, c->enabled[i] + len + 1, "enable", "0");
			free(c->enabled[i]);
			continue;
		}
		c->enabled[j++] = c->enabled[i];
	}
	if (c->enabled)
		c->enabled[j] = NULL;
}

/*
 * the allocator probes, enabled in the instance; where they cannot be made the reason
 * goes to probe_why and the collector goes on (unless they are required)
 */
static int setup_probes(struct cb_collector *c, const struct cb_collector_opts *opts)
{
	const char *const *ev;
	char sys[128], *name;
	int i;

	if (opts->probes == CB_PROBES_OFF) {
		snprintf(c->probe_why, sizeof(c->probe_why), "probes turned off");
		return 0;
	}
	c->probes = cb_probes_create(opts->probe_opts, c->probe_why, sizeof(c->probe_why));
	for (ev = c->probes ? cb_probes_events(c->probes) : NULL, i = 0; ev && ev[i]; i++) {
		snprintf(sys, sizeof(sys), "%s", ev[i]);
		name = strchr(sys, ':');
		*name++ = '\0';
		if (enable_one(c, sys, name, NULL) == 0)
			continue;
		snprintf(c->probe_why, sizeof(c->probe_why), "%s", c->err);
		c->err[0] = '\0';
		drop_system(c, sys);
		cb_probes_destroy(c->probes, NULL, 0);
		c->probes = NULL;
		break;
	}
	if (c->probes) {
		snprintf(c->probe_desc, sizeof(c->probe_desc), "%s", cb_probes_describe(c->probes));
		return 0;
	}
	if (opts->probes == CB_PROBES_REQUIRE)
		return set_err(c, errno ? errno : ENOTSUP, "kprobes required: %s", c->probe_why);
	return 0;
}

static int start_tracing(struct cb_collector *c, const struct cb_collector_opts *opts)
{
	const char *const *ev = opts->events ? opts->events : cb_collector_default_events;
	int i;

	if (setup_buffers(c, opts->buffer_kb) < 0)
		return -1;
	for (i = 0; ev[i]; i++)
		if (enable_spec(c, ev[i]) < 0)
			return -1;
	if (!c->enabled)
		return set_err(c, ENOENT, "none of the requested events exists in this kernel "
			       "(first: %s)", ev[0] ? ev[0] : "none requested");
	if (setup_probes(c, opts) < 0)
		return -1;
	if (open_spools(c) < 0)
		return -1;
	c->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->wake_fd < 0)
		return set_err(c, -EIO, "eventfd");
	if (cb_collector_drain_start(c) < 0)
		return -1;
	c->t_on = cb_now_ns();
	if (tracefs_trace_on(c->inst) < 0 || tracefs_trace_is_on(c->inst) != 1)
		return set_err(c, -EIO, "tracing_on of instance %s did not turn on", c->name);
	return 0;
}

struct cb_collector *cb_collector_start(const struct cb_collector_opts *opts, char *err,
				       size_t errlen)
{
	struct cb_collector *c;
	int i, saved;

	if (check_opts(opts, err, errlen) < 0)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c) {
		put_err(err, errlen, ENOMEM, "collector: out of memory");
		return NULL;
	}
	c->wake_fd = -1;
	c->poll_ms = opts->poll_ms ? opts->poll_ms : DEFAULT_POLL_MS;
	c->kallsyms = opts->kallsyms;
	c->spool = opts->spool == CB_SPOOL_READ ? CB_SPOOL_READ : CB_SPOOL_SPLICE;
	snprintf(c->clock, sizeof(c->clock), "%s", opts->clock ? opts->clock : DEFAULT_CLOCK);
	snprintf(c->spool_dir, sizeof(c->spool_dir), "%s", opts->spool_dir);
	snprintf(c->name, sizeof(c->name), CB_INSTANCE_PREFIX "%d", (int)getpid());
	c->nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	if (c->nr_cpus < 1)
		c->nr_cpus = 1;
	c->cpu = calloc(c->nr_cpus, sizeof(*c->cpu));
	c->cstats = calloc(c->nr_cpus, sizeof(*c->cstats));
	for (i = 0; c->cpu && i < c->nr_cpus; i++)
		c->cpu[i].fd = -1;
	if (!c->cpu || !c->cstats) {
		set_err(c, ENOMEM, "collector: out of memory");
		goto fail;
	}
	if (tracefs_instance_exists(c->name)) {
		set_err(c, EEXIST, "tracefs instance %s already exists (a collector of this process "
			"is running, or a stale one: remove it)", c->name);
		goto fail;
	}
	c->inst = tracefs_instance_create(c->name);
	if (!c->inst) {
		set_err(c, -EIO, "cannot create tracefs instance %s in %s/instances", c->name,
			tracefs_tracing_dir());
		goto fail;
	}
	if (tracefs_trace_off(c->inst) == 0 && start_tracing(c, opts) == 0)
		return c;
	if (!c->err[0])
		set_err(c, -EIO, "cannot write tracing_on of instance %s", c->name);
fail:
	saved = errno;
	if (errlen)
		snprintf(err, errlen, "%s", c->err);
	teardown(c);
	cb_collector_free(c);
	errno = saved;
	return NULL;
}

/* --- stop ----------------------------------------------------------------------------- */

static int write_trace(struct cb_collector *c, const char *trace_path)
{
	struct cb_tracedat_cpu *cpu = calloc(c->nr_cpus, sizeof(*cpu));
	const char **stats = calloc(c->nr_cpus, sizeof(*stats));
	struct cb_tracedat_src src = {
		.events = (const char *const *)c->enabled,
		.nr_cpus = c->nr_cpus,
		.page_size = c->page_size,
		.trace_clock = c->clock,
		.kallsyms_path = c->kallsyms ? "/proc/kallsyms" : NULL,
		/* the biggest spool file becomes the trace: its pages are not copied */
		.adopt = true,
	};
	char tmp[PATH_MAX], terr[sizeof(c->err)];
	long long size = -1;
	int i;

	if (!cpu || !stats) {
		set_err(c, ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < c->nr_cpus; i++) {
		cpu[i].path = c->cpu[i].path[0] ? c->cpu[i].path : NULL;
		stats[i] = c->cpu[i].stats_text;
	}
	src.cpu = cpu;
	src.cpustats = stats;
	if (cb_path(tmp, sizeof(tmp), "%s.tmp", trace_path) < 0) {
		set_err(c, ENAMETOOLONG, "trace path too long: %s", trace_path);
		goto out;
	}
	size = cb_tracedat_write(tmp, &src, NULL, terr, sizeof(terr));
	if (size < 0) {
		set_err(c, errno, "writing the trace: %s", terr);
	} else if (rename(tmp, trace_path) < 0) {
		set_err(c, -EIO, "cannot rename %s to %s", tmp, trace_path);
		unlink(tmp);
		size = -1;
	}
out:
	free(cpu);
	free(stats);
	c->stats.trace_bytes = size > 0 ? size : 0;
	return size < 0 ? -1 : 0;
}

int cb_collector_stop(struct cb_collector *c, const char *trace_path, struct cb_collector_stats *stats)
{
	int ret = -1, saved;

	if (!c || c->done || !trace_path) {
		if (c)
			set_err(c, EINVAL, "collector already stopped");
		errno = EINVAL;
		return -1;
	}
	c->err[0] = '\0';
	if (tracefs_trace_off(c->inst) < 0 || tracefs_trace_is_on(c->inst) != 0)
		set_err(c, -EIO, "tracing_on of instance %s did not turn off", c->name);
	c->t_off = cb_now_ns();
	cb_collector_drain_stop(c);
	c->stats.nr_cpus = c->nr_cpus;
	c->stats.cpu = c->cstats;
	c->stats.enabled = c->enabled;
	c->stats.missing = c->missing;
	c->stats.buffer_kb = c->buffer_kb;
	c->stats.clock = c->clock;
	c->stats.spool = c->spool == CB_SPOOL_READ ? "read" : "splice";
	c->stats.drain_cpu_ns = c->drain_cpu_ns;
	c->stats.duration_s = (c->t_off - c->t_on) / 1e9;
	c->stats.probe_mode = c->probes ? "kprobe" : "tracepoint";
	c->stats.probe_why = c->probe_why;
	c->stats.probe_symbols = c->probe_desc;
	if (c->drain_errno && !c->err[0])
		set_err(c, c->drain_errno, "%s", c->drain_err);
	if (!c->err[0] && cb_collector_final_drain(c) == 0 && write_trace(c, trace_path) == 0)
		ret = 0;
	saved = errno;
	teardown(c);
	if (stats)
		*stats = c->stats;
	errno = ret ? saved : 0;
	return ret;
}

void cb_collector_abort(struct cb_collector *c)
{
	if (c)
		teardown(c);
}

void cb_collector_free(struct cb_collector *c)
{
	int i;

	if (!c)
		return;
	teardown(c);
	for (i = 0; c->cpu && i < c->nr_cpus; i++)
		free(c->cpu[i].stats_text);
	free(c->cpu);
	free(c->cstats);
	tracefs_list_free(c->enabled);
	tracefs_list_free(c->missing);
	free(c);
}

/* --- stale instances and probes ------------------------------------------------------- */

/*
 * A pid from another pid namespace looks dead from here: run the cleanup in the namespace
 * that ran the collectors.
 */
int cb_collector_cleanup_stale(void (*log)(const char *msg))
{
	/* no regex: tracefs_instances() of libtracefs 1.6.4 leaks a compiled one */
	char **names = tracefs_instances(NULL), msg[512], *end;
	size_t plen = strlen(CB_INSTANCE_PREFIX);
	int i, removed = 0, probes;

	if (!tracefs_tracing_dir()) {
		errno = ENODEV;
		return -1;
	}
	for (i = 0; names && names[i]; i++) {
		long pid = strtol(names[i] + plen, &end, 10);
		struct tracefs_instance *inst;

		if (strncmp(names[i], CB_INSTANCE_PREFIX, plen) || *end || pid <= 0 ||
		    pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		inst = tracefs_instance_alloc(NULL, names[i]);
		if (inst) {
			tracefs_trace_off(inst);
			tracefs_instance_file_write(inst, "events/enable", "0");
		}
		if (!inst || tracefs_instance_destroy(inst) < 0) {
			snprintf(msg, sizeof(msg), "cannot remove stale tracefs instance %s: %s",
				 names[i], strerror(errno));
		} else {
			snprintf(msg, sizeof(msg), "removed stale tracefs instance %s (pid %ld is gone)",
				 names[i], pid);
			removed++;
		}
		if (log)
			log(msg);
		tracefs_instance_free(inst);
	}
	tracefs_list_free(names);
	/* after the instances, which may have had the probes enabled */
	probes = cb_probes_cleanup_stale(log);
	return probes < 0 ? -1 : removed + probes;
}
