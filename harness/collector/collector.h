/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * collector.h - compactbench's own tracefs collector.
 *
 * It records into its own tracefs instance ("compactbench-<pid>"), never the top-level
 * buffer, reads the per-CPU ring buffers as raw pages (libtracefs' tracefs_cpu API) from a
 * drain thread into per-CPU spool files, and at stop writes a trace-cmd trace.dat
 * (version 6, see tracedat.h) that `trace-cmd report` and libtracecmd read. Where the kernel
 * takes kprobes it also puts kprobe/kretprobe pairs on the allocator slow path and on direct
 * compaction (probes.h); where it cannot, it says why and records in "tracepoint" mode.
 *
 * Functions return -1 and set errno on failure. A running collector keeps the message
 * saying what failed in itself (cb_collector_error()); the functions that fail before
 * there is one (start, set_tracing_dir) write it into a caller's buffer (@err, @errlen; an
 * @errlen of 0 asks for no message). This module never prints on its own except through
 * the log callback.
 */
#ifndef CB_COLLECTOR_H
#define CB_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes.h"

#define CB_INSTANCE_PREFIX "compactbench-"

struct cb_collector;

/* how the drain thread moves pages from the ring buffer to the spool files */
enum cb_collector_spool {
	CB_SPOOL_DEFAULT = 0,	/* splice: measured best here (~40% less drain CPU than read) */
	CB_SPOOL_READ,		/* tracefs_cpu_read(): read(2) whole or partial pages, then write(2) */
	CB_SPOOL_SPLICE,	/* tracefs_cpu_write(): splice(2) full pages only into the file */
};

/* whether the collector puts the allocator probes (probes.h) in */
enum cb_collector_probes {
	CB_PROBES_AUTO = 0,	/* where the kernel can: otherwise tracepoint mode, and why */
	CB_PROBES_OFF,		/* never (tracepoint mode) */
	CB_PROBES_REQUIRE,	/* a start without them fails, saying why */
};

struct cb_collector_opts {
	/*
	 * "system:event" or "system:*", optionally followed by " if FILTER" (an ftrace filter
	 * expression applied in the kernel, e.g. "kmem:mm_page_alloc if order > 0");
	 * NULL-terminated; NULL means cb_collector_default_events
	 */
	const char *const *events;
	/* per-CPU ring buffer size in KiB; 0: 16 MiB, at most 1/32 of MemTotal over all CPUs */
	size_t buffer_kb;
	/* how often the drain thread wakes up when the buffers are not full, in ms; 0: default */
	unsigned int poll_ms;
	/* directory for the per-CPU spool files (removed at stop); must exist */
	const char *spool_dir;
	/* extensions (zero means the default) */
	/* the instance's trace_clock; NULL: "mono" (CLOCK_MONOTONIC, as the workloads use) */
	const char *clock;
	/* embed /proc/kallsyms in the trace.dat (none of the default events needs it) */
	bool kallsyms;
	enum cb_collector_spool spool;
	enum cb_collector_probes probes;
	/* where the probes go and where their symbols come from; NULL: the defaults */
	const struct cb_probes_opts *probe_opts;
	/*
	 * the tracefs root (tracefs_set_tracing_dir(), for the whole process); NULL: the one
	 * libtracefs finds. A directory that is not a tracefs mount is refused.
	 */
	const char *tracing_dir;
};

struct cb_collector_cpu_stats {
	uint64_t entries;	  /* "entries" at stop: still in the buffer, read by the final drain */
	uint64_t overrun;	  /* "overrun": events overwritten (overwrite mode) */
	uint64_t commit_overrun;  /* "commit overrun" */
	uint64_t dropped_events;  /* "dropped events": lost because the buffer was full */
	uint64_t read_events;	  /* "read events" after the final drain: events in the trace */
	uint64_t bytes_written;	  /* raw page bytes this collector wrote to the spool */
	uint64_t missed_pages;	  /* pages the kernel flagged "events missed before this page" */
	uint64_t missed_events;	  /* the missed counts stored in those pages (where stored) */
};

struct cb_collector_stats {
	int nr_cpus;
	struct cb_collector_cpu_stats *cpu; /* nr_cpus entries, owned by the collector */
	uint64_t lost;			    /* sum of overrun + commit_overrun + dropped_events */
	uint64_t trace_bytes;		    /* size of the trace.dat written */
	char **enabled;			    /* events really enabled ("system:event"), NULL-terminated */
	char **missing;			    /* requested events the running kernel does not have */
	/* extensions */
	uint64_t entries_read;		    /* sum of read_events: the events in the trace.dat */
	size_t buffer_kb;		    /* per-CPU ring buffer size really set */
	const char *clock;		    /* trace_clock used */
	const char *spool;		    /* spool method used: "read" or "splice" */
	uint64_t drain_cpu_ns;		    /* CPU time of the drain thread */
	double duration_s;		    /* from tracing on to tracing off */
	uint64_t missed_pages;		    /* sum of the CPUs' missed_pages */
	uint64_t missed_events;		    /* sum of the CPUs' missed_events */
	const char *probe_mode;		    /* "kprobe" or "tracepoint" (no probes: see probe_why) */
	const char *probe_why;		    /* why there are no probes ("" with probes) */
	const char *probe_symbols;	    /* cb_probes_describe(): where the probes sat */
};

/*
 * cb_collector_stats_lost - whether the trace lost events: lost counters or pages flagged
 * with missed events
 */
static inline bool cb_collector_stats_lost(const struct cb_collector_stats *st)
{
	return st->lost || st->missed_pages;
}

/*
 * the events recorded when the config names none (NULL-terminated): compaction:*, direct
 * reclaim begin/end, kswapd wake/sleep/wakeup, mm_page_alloc_extfrag, the huge_memory
 * khugepaged events, sched_process_exec/fork
 */
extern const char *const cb_collector_default_events[];

/*
 * the allocation event to add to them for the analysis' allocation view (each stall ended
 * at its allocation, success and fail, the high-order allocations): the allocations that
 * can stall, and all of order >= 9. Not in the default for its cost (collector.c).
 */
#define CB_COLLECTOR_ALLOC_EVENT \
	"kmem:mm_page_alloc if order > 0 && (order >= 9 || gfp_flags & __GFP_DIRECT_RECLAIM)"

/*
 * cb_collector_check_event - whether @spec has the shape cb_collector_start() takes
 * ("system:event" or "system:*", optionally followed by " if FILTER"), without touching
 * tracefs: for command lines and config files, so a typo is a usage error before anything
 * is recorded. Returns 0, or -1 with a message naming @spec in @err.
 */
int cb_collector_check_event(const char *spec, char *err, size_t errlen);

/*
 * cb_collector_cleanup_stale - remove instances named CB_INSTANCE_PREFIX<pid> and kprobes
 * of system CB_PROBES_SYSTEM_PREFIX<pid> whose pid is no longer alive (left by a killed
 * collector). Calls @log once per instance or probe removed with a message naming it.
 * Returns the number removed, or -1 with errno ENODEV when tracefs is not mounted.
 */
int cb_collector_cleanup_stale(void (*log)(const char *msg));

/*
 * cb_collector_set_tracing_dir - use @dir as the tracefs root from now on, for the whole
 * process (NULL: keep the one libtracefs found), and check it is a tracefs (or debugfs)
 * mount. Returns 0, or -1 with errno ENODEV and @err saying tracefs is not mounted there.
 */
int cb_collector_set_tracing_dir(const char *dir, char *err, size_t errlen);

/*
 * cb_collector_start - create the instance, size its buffers, enable the events (an event
 * the kernel lacks is listed in stats.missing, not an error, unless none is left), make
 * and enable the probes (opts.probes), turn tracing on in the instance and start the drain
 * thread.
 * Returns NULL with errno set on failure, and @err saying why.
 */
struct cb_collector *cb_collector_start(const struct cb_collector_opts *opts, char *err,
				       size_t errlen);

/*
 * cb_collector_stop - turn tracing off in the instance, flush every CPU's remaining pages,
 * read each CPU's stats, count the pages flagged with missed events, write the trace.dat to
 * @trace_path (through a temporary name and a rename), remove the spool files, the instance
 * and the probes. @stats is filled and stays
 * valid until cb_collector_free(). Returns 0, or -1 with errno set (the instance is
 * destroyed either way).
 */
int cb_collector_stop(struct cb_collector *c, const char *trace_path, struct cb_collector_stats *stats);

/*
 * cb_collector_abort - stop without writing a trace: disable, destroy the instance and the
 * probes, remove the spool files. Used on errors and interrupts. Safe to call after a failed stop.
 */
void cb_collector_abort(struct cb_collector *c);

/* cb_collector_free - free what start/stop allocated (stats included) */
void cb_collector_free(struct cb_collector *c);

/* cb_collector_instance_name - the instance's name ("compactbench-<pid>") */
const char *cb_collector_instance_name(const struct cb_collector *c);

/* cb_collector_error - the last error message of @c (a failed stop's, say) */
const char *cb_collector_error(const struct cb_collector *c);

#endif
