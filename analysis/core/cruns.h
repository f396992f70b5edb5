/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cruns.h - the compaction runs of the measurement window, one list per lane (an
 * attribution of stalls.h, with the harness's watermark policy told apart from other
 * manual runs), for the timeline chart. Bounded: at most CB_CRUNS_MAX runs per lane,
 * spread evenly over the window when there are more (analysis/README.md, "Compaction runs
 * in the window"); the others are counted as dropped.
 */
#ifndef CB_CRUNS_H
#define CB_CRUNS_H

#include <stdbool.h>
#include <stdint.h>

#define CB_CRUNS_MAX 500	/* runs kept per lane */
#define CB_CRUNS_POLICY_COMM "cb-wmark" /* harness/agent/wmark.c's thread name */

/* where a run came from: enum cb_attr's runs (unknown has none) and the policy's */
enum cb_lane {
	CB_LANE_DIRECT,
	CB_LANE_KCOMPACTD,
	CB_LANE_PROACTIVE,
	CB_LANE_DEMAND,
	CB_LANE_KHUGEPAGED,
	CB_LANE_MANUAL,
	CB_LANE_POLICY,	/* manual, by the thread CB_CRUNS_POLICY_COMM */
	CB_LANE_NR
};

extern const char *const cb_lane_names[CB_LANE_NR];

/* one run: mm_compaction_begin .. mm_compaction_end, ns of the trace clock */
struct cb_crun {
	uint64_t start, end;
	bool open;	/* the trace showed no end: @end is where the analyzer closed it */
};

/* the runs of one lane */
struct cb_crun_lane {
	struct cb_crun run[CB_CRUNS_MAX]; /* in the order they were committed */
	uint32_t n;		/* kept */
	uint32_t stride;	/* every stride-th run is kept (a power of two, 0: 1) */
	uint64_t seen;		/* runs offered: kept + dropped */
};

struct cb_cruns {
	struct cb_crun_lane lane[CB_LANE_NR];
};

/*
 * cb_cruns_add - offer a run of @lane to @c: the seen-th run is kept when seen is a multiple
 * of the lane's stride; a full lane drops every second kept run and doubles its stride, so
 * the kept runs stay spread over the whole window. @open: its end is where it was closed.
 */
void cb_cruns_add(struct cb_cruns *c, enum cb_lane lane, uint64_t start, uint64_t end, bool open);

/* cb_cruns_dropped - the runs of @lane offered and not kept */
uint64_t cb_cruns_dropped(const struct cb_cruns *c, enum cb_lane lane);

#endif
