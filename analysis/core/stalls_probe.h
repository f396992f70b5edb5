/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stalls_probe.h - allocation stalls reconstructed from the collector's kprobe pairs (the
 * "probe" method, analysis/README.md): per slow-path call of __alloc_pages_slowpath, its
 * pid, comm, order, gfp, total time, and the time spent inside __alloc_pages_direct_compact
 * and inside direct reclaim (vmscan:mm_vmscan_direct_reclaim_begin .. _end).
 *
 * A state machine fed with normalized events (struct cb_pev), one open call per pid (the
 * slow path does not nest). stalls_trace.c feeds it from a trace.dat when the file has the
 * probe events (harness/collector/probes.h names them); the unit tests can drive it directly.
 */
#ifndef CB_STALLS_PROBE_H
#define CB_STALLS_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cb_pev_kind {
	CB_PEV_SLOW,	     /* <system>:alloc_slowpath (order, gfp) */
	CB_PEV_SLOW_RET,     /* <system>:alloc_slowpath_ret (ret: the page, 0 on failure) */
	CB_PEV_DC,	     /* <system>:direct_compact */
	CB_PEV_DC_RET,	     /* <system>:direct_compact_ret */
	CB_PEV_RECLAIM,	     /* vmscan:mm_vmscan_direct_reclaim_begin */
	CB_PEV_RECLAIM_END,  /* vmscan:mm_vmscan_direct_reclaim_end */
	CB_PEV_LOSS,	     /* the ring buffer lost events before this point (any CPU) */
};

struct cb_pev {
	enum cb_pev_kind kind;
	uint64_t ts;	  /* ns */
	int pid;
	int order;	  /* SLOW */
	unsigned int gfp; /* SLOW: the raw gfp_t */
	bool ok;	  /* SLOW_RET: a page was returned */
	const char *comm; /* SLOW: the pid's saved command name, NULL if unknown */
};

/* one slow-path call that stalled (compaction or reclaim time > 0) */
struct cb_pstall {
	uint64_t start;	     /* entry timestamp */
	uint64_t ns;	     /* entry .. return */
	uint64_t dc_ns;	     /* inside __alloc_pages_direct_compact */
	uint64_t reclaim_ns; /* inside direct reclaim */
	int pid;
	int16_t order;
	uint8_t ok;	     /* the call returned a page */
	uint32_t gfp;
	char comm[16];
};

struct cb_pstalls {
	bool present;	      /* the trace had the probe pair */
	char system[64];      /* its event system ("compactbench_<pid>") */
	uint64_t calls;	      /* slow-path calls that returned (inside the window) */
	uint64_t stalls;      /* ... with compaction or reclaim time > 0 */
	uint64_t dc_calls;    /* __alloc_pages_direct_compact calls inside them */
	uint64_t reclaims;    /* direct reclaim passes inside them */
	uint64_t truncated;   /* calls still open at the end of the trace */
	uint64_t cut_by_loss; /* calls open when events were lost */
	uint64_t unmatched;   /* returns without an open call: began before the trace or a loss */
	uint64_t lost_ret;    /* calls whose pid entered again before their return came */
	uint64_t outside;     /* calls that began outside [win_start, win_end] */
	uint64_t win_start, win_end;
	uint64_t total_ns, dc_ns, reclaim_ns; /* summed over the stalls */
	struct cb_pstall *rec; /* the stalls, in the order they returned */
	size_t n, cap;
	double *ns;	      /* stall durations sorted by cb_pstalls_finish */

	/* state (private) */
	void *pids;
	size_t npids, pcap;
};

/* cb_pstalls_init - an empty result that counts what begins in [@start, @end] (0, 0: all) */
void cb_pstalls_init(struct cb_pstalls *p, uint64_t start, uint64_t end);

/* cb_pstalls_feed - one event, in timestamp order; returns 0, or -1 with ENOMEM */
int cb_pstalls_feed(struct cb_pstalls *p, const struct cb_pev *ev);

/*
 * cb_pstalls_finish - end of trace: count calls still open as truncated, sort the stall
 * durations. Returns 0, or -1 with ENOMEM.
 */
int cb_pstalls_finish(struct cb_pstalls *p);

/* cb_pstalls_free - free what init/feed/finish allocated; the counters stay readable */
void cb_pstalls_free(struct cb_pstalls *p);

/*
 * cb_pstalls_quantile - the @q quantile (0..1) of the stall durations in ns (GSL, linear
 * interpolation as cb_stalls_quantile). Returns 0, or -1 with errno ENODATA when none.
 */
int cb_pstalls_quantile(const struct cb_pstalls *p, double q, double *out);

#endif
