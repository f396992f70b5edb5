/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stalls.h - direct compaction stalls reconstructed from tracepoints (the "tracepoint"
 * method; analysis/README.md states the rule and the kernel code it follows).
 *
 * Two layers: a small state machine fed with normalized events (struct cb_sev), which the
 * unit tests drive directly, and cb_stalls_from_trace(), which reads a trace.dat and feeds
 * it. Memory grows with the number of stalls (one double each, for the percentiles) and of
 * distinct pids, never with the number of events.
 */
#ifndef CB_STALLS_H
#define CB_STALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CB_STALLS_MAX_ORDER 15

/* what a normalized event is */
enum cb_sev_kind {
	CB_SEV_TRY,	      /* compaction:mm_compaction_try_to_compact_pages (order) */
	CB_SEV_BEGIN,	      /* compaction:mm_compaction_begin: a compaction run starts */
	CB_SEV_END,	      /* compaction:mm_compaction_end */
	CB_SEV_DEFERRED,      /* compaction:mm_compaction_deferred (a zone was deferred) */
	CB_SEV_SUITABLE,      /* compaction:mm_compaction_suitable (ret) */
	CB_SEV_COMPACTION,    /* any other compaction:* event done by the task itself */
	CB_SEV_KCOMPACTD,     /* mm_compaction_kcompactd_wake/_sleep: the pid is a kcompactd */
	CB_SEV_RECLAIM_BEGIN, /* vmscan:mm_vmscan_direct_reclaim_begin */
	CB_SEV_PAGE_ALLOC,    /* kmem:mm_page_alloc (order; ok: a page was returned) */
};

struct cb_sev {
	enum cb_sev_kind kind;
	uint64_t ts;	  /* ns */
	int pid;
	int order;	  /* TRY and PAGE_ALLOC */
	long long ret;	  /* SUITABLE */
	bool ok;	  /* PAGE_ALLOC: pfn != -1 */
	const char *comm; /* the pid's saved command name, NULL if unknown (BEGIN only) */
};

/* where a compaction run that is not inside a direct attempt came from */
enum cb_bg_kind { CB_BG_KCOMPACTD, CB_BG_KHUGEPAGED, CB_BG_OTHER, CB_BG_NR };

extern const char *const cb_bg_names[CB_BG_NR];

struct cb_stalls {
	uint64_t attempts;	   /* try_to_compact_pages events */
	uint64_t stalls;	   /* closed attempts that count as a compact_stall */
	uint64_t skipped;	   /* closed attempts that do not (COMPACT_SKIPPED) */
	uint64_t truncated;	   /* attempts still open at the end of the trace */
	uint64_t truncated_stalls; /* ... of which had already qualified as stalls */
	uint64_t success;	   /* stalls ended by a page of their order */
	uint64_t fail;		   /* stalls that did not get one */
	uint64_t end_alloc;	   /* stalls timed to their mm_page_alloc */
	uint64_t end_last;	   /* stalls timed to their last compaction event */
	uint64_t no_run;	   /* stalls without a compaction run: every zone deferred */
	uint64_t direct_runs;	   /* compaction runs (begin) inside attempts */
	uint64_t deferred;	   /* zones deferred inside attempts */
	uint64_t bg_runs[CB_BG_NR];
	uint64_t by_order[CB_STALLS_MAX_ORDER + 1]; /* stalls per allocation order */
	uint64_t khugepaged;	   /* stalls of khugepaged (a kernel thread, still direct) */
	uint64_t outside;	   /* stalls whose attempt began outside [win_start, win_end] */
	uint64_t win_start, win_end; /* the vmstat window (trace clock ns); 0, 0: no window */
	uint64_t total_ns;
	double *ns;		   /* one duration per stall, ns; sorted by cb_stalls_finish */
	size_t n, cap;

	/* the trace pass (cb_stalls_from_trace only) */
	uint64_t events;	   /* records read */
	uint64_t missed;	   /* events the ring buffer reported lost */
	uint64_t missed_unknown;   /* losses of unknown size */
	uint64_t first_ts, last_ts;
	char missing[256];	   /* optional events the file lacks, comma separated */

	/* state (private) */
	void *pids;
	size_t npids, pcap;
	long long suitable_success; /* COMPACT_SUCCESS in this trace's enum, -1 if unknown */
};

/*
 * cb_stalls_init - an empty result; @suitable_success is the value of COMPACT_SUCCESS in
 * the ret field of mm_compaction_suitable (8 on 5.x-6.x), or -1 to ignore that case.
 */
void cb_stalls_init(struct cb_stalls *s, long long suitable_success);

/* cb_stalls_feed - one event, in timestamp order; returns 0, or -1 with ENOMEM */
int cb_stalls_feed(struct cb_stalls *s, const struct cb_sev *ev);

/* cb_stalls_finish - end of trace: count still-open attempts as truncated, sort durations */
void cb_stalls_finish(struct cb_stalls *s);

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
 * cb_stalls_from_trace - read @path and reconstruct its stalls into @s (initialized here;
 * free with cb_stalls_free). The file is read in a forked child process: libtraceevent can
 * crash on a corrupt format section, and a bad file must cost an error, not the analyzer.
 * Returns 0, or -1 with a message naming the file (and the event and field when the format
 * lacks one) in @err.
 */
int cb_stalls_from_trace(const char *path, struct cb_stalls *s, char *err, size_t errlen);

/*
 * cb_stalls_set_window - count only attempts that begin inside [@start, @end] (ns of the
 * trace clock); the others are counted in s->outside. The agent reads vmstat.before and
 * vmstat.after at the window's ends, so trace and vmstat then cover the same time. Call it
 * after cb_stalls_init.
 */
void cb_stalls_set_window(struct cb_stalls *s, uint64_t start, uint64_t end);

/*
 * cb_stalls_from_trace_window - cb_stalls_from_trace counting only attempts that begin in
 * [@start, @end] (0, 0: the whole trace)
 */
int cb_stalls_from_trace_window(const char *path, uint64_t start, uint64_t end,
				struct cb_stalls *s, char *err, size_t errlen);

#endif
