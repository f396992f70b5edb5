// SPDX-License-Identifier: GPL-2.0-only
/*
 * collector.c - compactbench's own tracefs collector (see collector.h).
 *
 * start: instance "compactbench-<pid>", tracing_on 0, buffers, clock, each event enabled
 *   through its own enable file (tracefs_event_enable() takes regexes: "mm_page_alloc"
 *   would also match mm_page_alloc_extfrag), filters, trace_pipe_raw opened non-blocking,
 *   drain thread, tracing_on 1 read back.
 * drain: every poll_ms (at once again while pages keep coming) whole pages of every CPU
 *   go to spool_dir/<instance>.cpuN (splice by default, see CB_SPOOL_*).
 * stop: tracing_on 0, join, stats ("entries" left), the rest (partial pages too), stats
 *   again, trace.dat (tracedat.c) through "<path>.tmp" and a rename, teardown: events off,
 *   pipes closed, instance and spool files removed (also on abort and failed start).
 */
#include "collector.h"
#include "tracedat.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#define DEFAULT_BUFFER_KB 16384		/* 16 MiB per CPU: ~0.8 s of 400k events/s */
#define DEFAULT_POLL_MS 100
#define DEFAULT_CLOCK "mono"
#define PAGES_PER_TURN 64		/* pages taken from one CPU before visiting the next */

const char *const cb_collector_default_events[] = {
	"compaction:*",
	"vmscan:mm_vmscan_direct_reclaim_begin",
	"vmscan:mm_vmscan_direct_reclaim_end",
	"vmscan:mm_vmscan_kswapd_wake",
	"vmscan:mm_vmscan_kswapd_sleep",
	"vmscan:mm_vmscan_wakeup_kswapd",
	"kmem:mm_page_alloc if order > 0",
	"kmem:mm_page_alloc_extfrag",
	"sched:sched_process_exec",
	"sched:sched_process_fork",
	NULL,
};

struct cpu_spool {
	struct tracefs_cpu *tcpu;
	int fd;
	char path[PATH_MAX];
	uint64_t bytes;
	char *stats_text;	/* per_cpu/cpuN/stats after the final drain */
};

struct cb_collector {
	struct tracefs_instance *inst;
	char name[64];
	char err[512];
	int nr_cpus;
	struct cpu_spool *cpu;
	int page_size;
	unsigned int poll_ms;
	size_t buffer_kb;
	char clock[32];
	bool kallsyms;
	enum cb_collector_spool spool;
	char spool_dir[PATH_MAX];
	char **enabled;
	char **missing;
	/* the drain thread */
	pthread_t thread;
	bool thread_started;
	int wake_fd;
	atomic_bool stop;
	int drain_errno;
	char drain_err[PATH_MAX + 128];
	uint64_t drain_cpu_ns;
	uint64_t t_on, t_off;
	/* results */
	struct cb_collector_cpu_stats *cstats;
	struct cb_collector_stats stats;
	bool done;	/* torn down */
};

static __thread char start_err[512];

/*
 * format a message into @buf and set errno = @err; @err < 0: keep errno (-@err if errno is
 * 0) and append ": strerror". Returns errno.
 */
static int vset(char *buf, size_t size, int err, const char *fmt, va_list ap)
{
	int e = err >= 0 ? err : errno ? errno : -err;
	size_t len;

	vsnprintf(buf, size, fmt, ap);
	len = strlen(buf);
	if (err < 0 && len < size)
		snprintf(buf + len, size - len, ": %s", strerror(e));
	errno = e;
	return e;
}

static int set_err(struct cb_collector *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* the message of @c (NULL: of the failed start), as vset(); returns -1 */
static int set_err(struct cb_collector *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(c ? c->err : start_err, c ? sizeof(c->err) : sizeof(start_err), err, fmt, ap);
	va_end(ap);
	return -1;
}

static int drain_fail(struct cb_collector *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* the drain thread's error, reported by stop; errno and strerror as vset(-EIO); returns -1 */
static int drain_fail(struct cb_collector *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	c->drain_errno = vset(c->drain_err, sizeof(c->drain_err), -EIO, fmt, ap);
	va_end(ap);
	return -1;
}

const char *cb_collector_error(const struct cb_collector *c)
{
	return c ? c->err : start_err;
}

const char *cb_collector_instance_name(const struct cb_collector *c)
{
	return c->name;
}

/* --- the drain thread --------------------------------------------------------------- */

/* bytes of events in a ring-buffer page (64-bit commit field, without the flag bits) */
static uint64_t page_len(const void *page)
{
	uint64_t commit;

	memcpy(&commit, (const char *)page + 8, 8);
	return commit & ((1ULL << 30) - 1);
}

/*
 * move up to @max pages of one CPU to its spool (@flush: partial pages too, once tracing
 * is off); *@more says whether it stopped at @max with pages left. Returns the pages
 * moved, or -1 with drain_err set.
 */
static int drain_cpu(struct cb_collector *c, int cpu, void *buf, int max, bool flush, bool *more)
{
	struct cpu_spool *s = &c->cpu[cpu];
	bool caught_up = false;
	int n, moved = 0;

	while (moved < max && !caught_up) {
		if (c->spool == CB_SPOOL_READ || flush) {
			n = flush ? tracefs_cpu_flush(s->tcpu, buf) : tracefs_cpu_read(s->tcpu, buf, true);
			if (n < 0 && errno == EAGAIN)
				n = 0;
			if (n > 0) {
				/* a short read is still a page: keep the spool page-aligned */
				if (n < c->page_size)
					memset((char *)buf + n, 0, c->page_size - n);
				/* read(2) hands out pages before they are full: then we are caught up */
				caught_up = !flush && page_len(buf) < (uint64_t)c->page_size / 2;
				errno = ENOSPC;	/* a short write to a regular file: disk full */
				n = write(s->fd, buf, c->page_size) == c->page_size ? c->page_size : -1;
			}
		} else {
			n = tracefs_cpu_write(s->tcpu, s->fd, true);
			if (n < 0 && errno == EAGAIN)
				n = 0;
		}
		if (n < 0)
			return drain_fail(c, "moving CPU %d's pages to %s", cpu, s->path);
		if (n == 0)
			break;
		s->bytes += n;
		moved += (n + c->page_size - 1) / c->page_size;
	}
	*more = moved >= max && !caught_up;
	return moved;
}

/*
 * passes over all CPUs: in the drain thread, again at once while a CPU had more than one
 * turn's worth; @to_empty: until nothing is left; @flush: partial pages too.
 * Returns the pages moved, or -1.
 */
static long drain_all(struct cb_collector *c, void *buf, bool to_empty, bool flush)
{
	long total = 0, got;
	bool more = false, again;
	int cpu, n;

	do {
		got = 0;
		again = false;
		for (cpu = 0; cpu < c->nr_cpus; cpu++) {
			if (!c->cpu[cpu].tcpu)
				continue;
			n = drain_cpu(c, cpu, buf, PAGES_PER_TURN, flush, &more);
			if (n < 0)
				return -1;
			got += n;
			again |= more;
		}
		total += got;
	} while (to_empty ? got > 0 : again && !atomic_load(&c->stop));
	return total;
}

static void *drain_main(void *arg)
{
	struct cb_collector *c = arg;
	struct pollfd pfd = { .fd = c->wake_fd, .events = POLLIN };
	struct timespec ts;
	void *buf = malloc(c->page_size);

	if (!buf)
		drain_fail(c, "drain thread");
	while (buf && !atomic_load(&c->stop)) {
		if (drain_all(c, buf, false, false) < 0)
			break;
		if (poll(&pfd, 1, c->poll_ms) < 0 && errno != EINTR) {
			drain_fail(c, "drain thread: poll");
			break;
		}
	}
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
		c->drain_cpu_ns = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	free(buf);
	return NULL;
}

static void stop_thread(struct cb_collector *c)
{
	uint64_t one = 1;

	if (!c->thread_started)
		return;
	atomic_store(&c->stop, true);
	if (write(c->wake_fd, &one, sizeof(one)) < 0)
		one = 0;	/* the thread still sees the flag within poll_ms */
	pthread_join(c->thread, NULL);
	c->thread_started = false;
}

/* --- setup and teardown ------------------------------------------------------------- */

static void teardown(struct cb_collector *c)
{
	int i;

	if (c->done)
		return;
	stop_thread(c);
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
static int enable_one(struct cb_collector *c, const char *sys, const char *ev, const char *filter)
{
	char name[512], *s;

	snprintf(name, sizeof(name), "%s:%s", sys, ev);
	if (in_list(c->enabled, name))
		return 0;
	s = tracefs_event_file_read(c->inst, sys, ev, "format", NULL);
	if (!s)
		return set_err(c, -EIO, "event format of %s unreadable (events/%s/%s/format)", name,
			       sys, ev);
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

/* "system:event[ if FILTER]" or "system:*[ if FILTER]" */
static int enable_spec(struct cb_collector *c, const char *spec)
{
	char buf[1024], name[1030], *filter, *colon, *sys, *ev, **events;
	int i, ret = 0;

	if (snprintf(buf, sizeof(buf), "%s", spec) >= (int)sizeof(buf))
		return set_err(c, EINVAL, "event spec too long: %.60s...", spec);
	filter = strstr(buf, " if ");
	if (filter) {
		*filter = '\0';
		filter += 4;
		while (*filter == ' ')
			filter++;
	}
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	sys = buf;
	ev = colon ? colon + 1 : "";
	if (!valid_name(sys) || !valid_name(ev))
		return set_err(c, EINVAL, "bad event \"%s\": want system:event or system:*", spec);
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
		struct cpu_spool *s = &c->cpu[i];
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

static int check_opts(const struct cb_collector_opts *o)
{
	struct stat st;

	if (!o || !o->spool_dir)
		return set_err(NULL, EINVAL, "collector: no spool directory given");
	errno = 0;
	if (stat(o->spool_dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return set_err(NULL, -ENOTDIR, "collector: spool directory %s", o->spool_dir);
	if (o->clock && (!*o->clock || strlen(o->clock) >= 32))
		return set_err(NULL, EINVAL, "collector: bad trace clock \"%s\"", o->clock);
	if (!tracefs_tracing_dir())
		return set_err(NULL, ENODEV, "tracefs is not mounted (mount -t tracefs nodev "
			       "/sys/kernel/tracing)");
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
	if (open_spools(c) < 0)
		return -1;
	c->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->wake_fd < 0)
		return set_err(c, -EIO, "eventfd");
	errno = pthread_create(&c->thread, NULL, drain_main, c);
	if (errno)
		return set_err(c, -EAGAIN, "cannot start the drain thread");
	c->thread_started = true;
	c->t_on = cb_now_ns();
	if (tracefs_trace_on(c->inst) < 0 || tracefs_trace_is_on(c->inst) != 1)
		return set_err(c, -EIO, "tracing_on of instance %s did not turn on", c->name);
	return 0;
}

struct cb_collector *cb_collector_start(const struct cb_collector_opts *opts)
{
	struct cb_collector *c;
	int i, saved;

	if (check_opts(opts) < 0)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c) {
		set_err(NULL, ENOMEM, "collector: out of memory");
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
	snprintf(start_err, sizeof(start_err), "%s", c->err);
	teardown(c);
	cb_collector_free(c);
	errno = saved;
	return NULL;
}

/* --- stop ----------------------------------------------------------------------------- */

static uint64_t stat_value(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return strtoull(p + klen + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static char *read_cpu_stats(struct cb_collector *c, int cpu)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
	return tracefs_instance_file_read(c->inst, rel, NULL);
}

static int final_drain(struct cb_collector *c)
{
	struct cb_collector_stats *st = &c->stats;
	void *buf = malloc(c->page_size);
	int i;

	if (!buf)
		return set_err(c, ENOMEM, "out of memory");
	for (i = 0; i < c->nr_cpus; i++) {
		char *s = c->cpu[i].tcpu ? read_cpu_stats(c, i) : NULL;

		c->cstats[i].entries = stat_value(s, "entries");
		free(s);
	}
	/* full pages the usual way first, then what is left in partial pages */
	i = drain_all(c, buf, true, false) < 0 || drain_all(c, buf, true, true) < 0;
	free(buf);
	if (i)
		return set_err(c, c->drain_errno, "%s", c->drain_err);
	for (i = 0; i < c->nr_cpus; i++) {
		struct cb_collector_cpu_stats *cs = &c->cstats[i];
		char *s = c->cpu[i].tcpu ? read_cpu_stats(c, i) : NULL;

		cs->overrun = stat_value(s, "overrun");
		cs->commit_overrun = stat_value(s, "commit overrun");
		cs->dropped_events = stat_value(s, "dropped events");
		cs->read_events = stat_value(s, "read events");
		cs->bytes_written = c->cpu[i].bytes;
		st->lost += cs->overrun + cs->commit_overrun + cs->dropped_events;
		st->entries_read += cs->read_events;
		c->cpu[i].stats_text = s;
	}
	return 0;
}

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
	};
	char tmp[PATH_MAX];
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
	size = cb_tracedat_write(tmp, &src);
	if (size < 0) {
		set_err(c, errno, "writing the trace: %s", cb_tracedat_error());
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
	stop_thread(c);
	c->stats.nr_cpus = c->nr_cpus;
	c->stats.cpu = c->cstats;
	c->stats.enabled = c->enabled;
	c->stats.missing = c->missing;
	c->stats.buffer_kb = c->buffer_kb;
	c->stats.clock = c->clock;
	c->stats.spool = c->spool == CB_SPOOL_READ ? "read" : "splice";
	c->stats.drain_cpu_ns = c->drain_cpu_ns;
	c->stats.duration_s = (c->t_off - c->t_on) / 1e9;
	if (c->drain_errno && !c->err[0])
		set_err(c, c->drain_errno, "%s", c->drain_err);
	if (!c->err[0] && final_drain(c) == 0 && write_trace(c, trace_path) == 0)
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

/* --- stale instances ------------------------------------------------------------------- */

/*
 * A pid from another pid namespace looks dead from here: run the cleanup in the namespace
 * that ran the collectors.
 */
int cb_collector_cleanup_stale(void (*log)(const char *msg))
{
	/* no regex: tracefs_instances() of libtracefs 1.6.4 leaks a compiled one */
	char **names = tracefs_instances(NULL), msg[512], *end;
	size_t plen = strlen(CB_INSTANCE_PREFIX);
	int i, removed = 0;

	if (!names)
		return -1;
	for (i = 0; names[i]; i++) {
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
	return removed;
}
