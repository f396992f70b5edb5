/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stalls.h - direct compaction stalls reconstructed from tracepoints (the "tracepoint"
 * method), the attribution of every compaction run, compaction work by attribution,
 * high-order allocation counts and extfrag fallbacks. analysis/README.md states the rules
 * and the kernel code they follow.
 *
 * Two layers: a small state machine fed with normalized events (struct cb_sev), which the
 * unit tests drive directly, and cb_stalls_from_trace() (stalls_trace.c), which reads a
 * trace.dat and feeds it. Memory grows with the number of stalls (one small record each,
 * for the percentiles) and of distinct pids, never with the number of events.
 */
#ifndef CB_STALLS_H
#define CB_STALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cruns.h"
#include "hist.h"
#include "origin.h"
#include "stalls_probe.h"

#define CB_STALLS_MAX_ORDER 15
#define CB_MT_NR 8 /* migratetypes counted by index; larger ones are folded into the last */

/* what a normalized event is */
enum cb_sev_kind {
	CB_SEV_TRY,	      /* compaction:mm_compaction_try_to_compact_pages (order, gfp) */
	CB_SEV_BEGIN,	      /* compaction:mm_compaction_begin: a compaction run starts */
	CB_SEV_END,	      /* compaction:mm_compaction_end (status) */
	CB_SEV_DEFERRED,      /* compaction:mm_compaction_deferred (a zone was deferred) */
	CB_SEV_SUITABLE,      /* compaction:mm_compaction_suitable (order, ret) */
	CB_SEV_COMPACTION,    /* any other compaction:* event done by the task itself */
	CB_SEV_KCOMPACTD,     /* mm_compaction_kcompactd_wake: kcompactd_do_work() starts */
	CB_SEV_KCOMPACTD_SLEEP, /* mm_compaction_kcompactd_sleep: kcompactd() goes to wait */
	CB_SEV_RECLAIM_BEGIN, /* vmscan:mm_vmscan_direct_reclaim_begin */
	CB_SEV_PAGE_ALLOC,    /* kmem:mm_page_alloc (order; ok: a page was returned) */
	CB_SEV_ISOLATE_MIGRATE, /* mm_compaction_isolate_migratepages (a scanned, b taken) */
	CB_SEV_ISOLATE_FREE,  /* mm_compaction_(fast_)isolate_freepages (a scanned, b taken) */
	CB_SEV_MIGRATE,	      /* mm_compaction_migratepages (a migrated, b failed) */
	CB_SEV_EXTFRAG,	      /* kmem:mm_page_alloc_extfrag */
	CB_SEV_LOSS,	      /* the ring buffer lost events before this point (any CPU) */
	CB_SEV_DEMAND_TARGET, /* mm_compaction_demand_target (patched kcompactd; ok: after=1) */
	CB_SEV_SLOWPATH,      /* mm_compaction_demand (patched): an allocation's slow path began */
};

/* how a compaction run ended: mm_compaction_end's status, by its symbol */
enum cb_end { CB_END_SUCCESS, CB_END_COMPLETE, CB_END_PARTIAL, CB_END_CONTENDED, CB_END_OTHER,
	      CB_END_NR };

extern const char *const cb_end_names[CB_END_NR];

struct cb_sev {
	enum cb_sev_kind kind;
	uint64_t ts;	  /* ns */
	int pid;
	int order;	  /* TRY, PAGE_ALLOC, SUITABLE; EXTFRAG: the fallback order */
	long long ret;	  /* SUITABLE */
	bool ok;	  /* PAGE_ALLOC: pfn != -1; EXTFRAG: change_ownership; DEMAND_TARGET: after */
	const char *comm; /* the pid's saved command name, NULL if unknown (TRY, BEGIN) */
	unsigned int gfp; /* TRY: abstract gfp bits (origin.h) */
	enum cb_end end;  /* END */
	uint64_t a, b;	  /* ISOLATE_*, MIGRATE: see the kinds; EXTFRAG: alloc, fallback mt */
};

/* where a compaction run came from (README: "Attribution") */
enum cb_attr {
	CB_ATTR_DIRECT,
	CB_ATTR_KCOMPACTD,
	CB_ATTR_PROACTIVE,
	CB_ATTR_DEMAND,	 /* kcompactd's demand pass (the demand-kcompactd series) */
	CB_ATTR_KHUGEPAGED,
	CB_ATTR_MANUAL,
	CB_ATTR_UNKNOWN, /* work seen without the begin of its run (it began before the trace) */
	CB_ATTR_NR
};

extern const char *const cb_attr_names[CB_ATTR_NR];

/* compaction work of one attribution */
struct cb_work {
	uint64_t runs;		  /* mm_compaction_begin */
	uint64_t run_ns;	  /* begin .. end of the runs that ended */
	uint64_t open;		  /* runs still open at the end of the trace */
	uint64_t migrate_scanned, migrate_isolated;
	uint64_t free_scanned, free_isolated;
	uint64_t migrated, migrate_failed;
	uint64_t end[CB_END_NR];
};

/* where a compaction run that is not inside a direct attempt came from (schema 1 names) */
enum cb_bg_kind { CB_BG_KCOMPACTD, CB_BG_KHUGEPAGED, CB_BG_OTHER, CB_BG_NR };

extern const char *const cb_bg_names[CB_BG_NR];

/* one stall: its duration and what it is split by */
struct cb_stall_rec {
	double ns;
	uint64_t start; /* the attempt's first event, ns of the trace clock (for timelines) */
	int16_t order;
	uint8_t origin; /* enum cb_origin */
	uint8_t khugepaged;
};

/* a successful allocation of order >= 9 in the window: the break-up estimate (waves.h) */
struct cb_big_alloc {
	uint64_t ts;	/* ns of the trace clock */
	int order;
};

/* an extfrag fallback cell: allocating migratetype x fallback migratetype */
struct cb_extfrag {
	uint64_t events, change_ownership, fragmenting;
};

struct cb_stalls {
	uint64_t attempts;	   /* try_to_compact_pages events */
	uint64_t stalls;	   /* closed attempts that count as a compact_stall */
	uint64_t skipped;	   /* closed attempts that do not (COMPACT_SKIPPED) */
	uint64_t truncated;	   /* attempts still open at the end of the trace */
	uint64_t truncated_stalls; /* ... of which had already qualified as stalls */
	uint64_t cut_by_loss;	   /* attempts open when events were lost: not in stalls */
	uint64_t success;	   /* stalls ended by a page of their order */
	uint64_t fail;		   /* stalls that did not get one */
	uint64_t end_alloc;	   /* stalls timed to their mm_page_alloc */
	uint64_t end_last;	   /* stalls timed to their last compaction event */
	uint64_t no_run;	   /* stalls without a compaction run: every zone deferred */
	uint64_t direct_runs;	   /* compaction runs (begin) inside attempts */
	uint64_t deferred;	   /* zones deferred inside attempts */
	uint64_t bg_runs[CB_BG_NR];
	uint64_t by_order[CB_STALLS_MAX_ORDER + 1]; /* stalls per allocation order */
	uint64_t by_origin[CB_ORIGIN_NR];
	uint64_t khugepaged;	   /* stalls of khugepaged (a kernel thread, still direct) */
	uint64_t outside;	   /* stalls whose attempt began outside [win_start, win_end] */
	uint64_t win_start, win_end; /* the vmstat window (trace clock ns); 0, 0: no window */
	uint64_t total_ns;
	struct cb_work work[CB_ATTR_NR];
	uint64_t alloc_hi;	   /* mm_page_alloc of order > 0 in the window */
	uint64_t alloc_hi_failed;  /* ... that returned no page */
	uint64_t alloc_by_order[CB_STALLS_MAX_ORDER + 1];
	struct cb_extfrag extfrag[CB_MT_NR][CB_MT_NR];
	uint64_t extfrag_events;
	int pageblock_order;	   /* for "fragmenting" (fallback_order < pageblock_order) */
	double *ns;		   /* every stall duration, sorted by cb_stalls_finish */
	struct cb_stall_rec *rec;  /* one per stall, in the order they closed */
	size_t n, cap;
	struct cb_big_alloc *big;  /* one per mm_page_alloc of order >= 9 that got a page */
	size_t nbig, bigcap;
	struct cb_cruns *cruns;	   /* the runs begun in the window (NULL: none yet), bounded */

	/* the trace pass (cb_stalls_from_trace only) */
	uint64_t events;	   /* records read */
	uint64_t missed;	   /* events the ring buffer reported lost */
	uint64_t missed_unknown;   /* losses of unknown size */
	uint64_t first_ts, last_ts;
	char missing[512];	   /* optional events the file lacks, comma separated */
	bool gfp_from_trace;	   /* the gfp bit values came from the file's own formats */
	struct cb_pstalls probe;   /* the probe method, when the trace has the probes */

	/* state (private) */
	void *pids;
	size_t npids, pcap;
	uint64_t feed_ts;	   /* the last event's time: where a run without its end stops */
	long long suitable_success; /* COMPACT_SUCCESS in this trace's enum, -1 if unknown */
};

/*
 * cb_stalls_init - an empty result; @suitable_success is the value of COMPACT_SUCCESS in
 * the ret field of mm_compaction_suitable (8 on 5.x-6.x), or -1 to ignore that case.
 */
void cb_stalls_init(struct cb_stalls *s, long long suitable_success);

/* cb_stalls_feed - one event, in timestamp order; returns 0, or -1 with ENOMEM */
int cb_stalls_feed(struct cb_stalls *s, const struct cb_sev *ev);

/*
 * cb_stalls_finish - end of trace: count still-open attempts as truncated and open runs as
 * such, and build the sorted durations. Returns 0, or -1 with ENOMEM.
 */
int cb_stalls_finish(struct cb_stalls *s);

/* cb_stalls_free - free what init/feed allocated; the counters stay readable */
void cb_stalls_free(struct cb_stalls *s);

/*
 * cb_stalls_quantile - the @q quantile (0..1) of the stall durations in ns, by
 * gsl_stats_quantile_from_sorted_data (linear interpolation at index (n-1)*q).
 * Returns 0, or -1 with errno ENODATA when there are no stalls.
 */
int cb_stalls_quantile(const struct cb_stalls *s, double q, double *out);

/* cb_stalls_max - the longest stall in ns (0 when none) */
double cb_stalls_max(const struct cb_stalls *s);

/*
 * cb_stalls_recorded - whether the trace had @event ("system:name"); false only for the
 * optional events listed in s->missing
 */
bool cb_stalls_recorded(const struct cb_stalls *s, const char *event);

/* which stalls cb_stalls_dist summarizes */
enum cb_split {
	CB_SPLIT_ALL,
	CB_SPLIT_ORDER,	 /* @value: the order */
	CB_SPLIT_ORIGIN, /* @value: enum cb_origin */
	CB_SPLIT_COSTLY, /* @value 0: orders <= 3 (PAGE_ALLOC_COSTLY_ORDER), 1: above */
};

/*
 * cb_stalls_dist - count, total, percentiles, max and histogram (may be NULL) of the stalls
 * of order @value (CB_SPLIT_ORDER), of origin @value (CB_SPLIT_ORIGIN) or of all of them.
 * Returns 0, or -1 with ENOMEM.
 */
int cb_stalls_dist(const struct cb_stalls *s, enum cb_split split, int value, struct cb_dist *d,
		   struct cb_hist *h);

/*
 * cb_stalls_set_window - count only what begins inside [@start, @end] (ns of the trace
 * clock): attempts (the others are counted in s->outside), runs, work, allocations and
 * fallbacks. The agent reads vmstat.before and vmstat.after at the window's ends, so trace
 * and vmstat then cover the same time. Call it after cb_stalls_init.
 */
void cb_stalls_set_window(struct cb_stalls *s, uint64_t start, uint64_t end);

/*
 * cb_stalls_from_trace - read @path and reconstruct its stalls into @s (initialized here;
 * free with cb_stalls_free). The file is checked (tracecheck.h) and then read in a forked
 * child process: libtraceevent can crash on a corrupt format section, and a bad file must
 * cost an error, not the analyzer. Returns 0, or -1 with a message naming the file (and the
 * event and field, or the offset) in @err.
 */
int cb_stalls_from_trace(const char *path, struct cb_stalls *s, char *err, size_t errlen);

/*
 * cb_stalls_from_trace_window - cb_stalls_from_trace counting only what begins in
 * [@start, @end] (0, 0: the whole trace)
 */
int cb_stalls_from_trace_window(const char *path, uint64_t start, uint64_t end,
				struct cb_stalls *s, char *err, size_t errlen);

#define CB_READER_TIMEOUT 600	/* s: the reader child's default wall-clock watchdog */

/*
 * cb_stalls_reader_limits - the limits of the reader child of cb_stalls_from_trace: it is
 * killed after @timeout_s seconds of wall-clock time (0: CB_READER_TIMEOUT) and runs under
 * an address-space limit (RLIMIT_AS) of @memory bytes (0: 4 GiB plus twice the file's
 * size; not set in an AddressSanitizer build, whose shadow memory is terabytes). A reader
 * stopped by either, or killed by a signal, is an error whose message says which.
 */
void cb_stalls_reader_limits(unsigned int timeout_s, uint64_t memory);

/*
 * cb_stalls_read_trace - what the forked child of cb_stalls_from_trace_window runs: read
 * @path into @s in this process (window already set in @s). Exposed for the fuzzer and the
 * benchmark; returns 0, or -1 with a message in @err.
 */
int cb_stalls_read_trace(const char *path, struct cb_stalls *s, char *err, size_t errlen);

#endif
