/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wmark.h - the watermark compaction policy of the 2017 discussion (seeds/: Michal Hocko's
 * `compact_wmark`: period, order, count), emulated in user space so it runs on any kernel:
 * every period, on each node whose free memory holds fewer than `count` blocks of `order`
 * (a larger free block counts as the blocks of `order` it contains), compaction is asked
 * for through the kernel's own interface: /sys/devices/system/node/nodeN/compact, or
 * /proc/sys/vm/compact_memory where the kernel has no per-node file. The compaction runs
 * in the policy thread's context, so that thread's CPU time is the policy's cost.
 */
#ifndef CB_WMARK_H
#define CB_WMARK_H

#include <stdint.h>

struct cb_wmark_opts {
	const char *root; /* prefix of /proc and /sys ("" for the machine) */
	double period_s;
	int order;
	uint64_t count;
};

struct cb_wmark_stats {
	uint64_t checks;   /* periods evaluated */
	uint64_t triggers; /* compaction requests written (one per node per period) */
	uint64_t cpu_ns;   /* CPU time of the policy thread, compaction included */
};

struct cb_wmark;

/*
 * cb_wmark_step - one period's decision: read buddyinfo, and for every node below the
 * watermark write the node's compact file. Returns the number of nodes it compacted, or
 * -1 with errno set (buddyinfo unreadable, a compact file not writable).
 */
int cb_wmark_step(const struct cb_wmark_opts *o);

/* cb_wmark_start - run cb_wmark_step every period in a thread; NULL with errno on failure */
struct cb_wmark *cb_wmark_start(const struct cb_wmark_opts *o);

/* cb_wmark_stop - stop the thread, fill @st, free; returns 0, or -1 if a step had failed */
int cb_wmark_stop(struct cb_wmark *w, struct cb_wmark_stats *st);

#endif
