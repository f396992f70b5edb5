/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wmark.h - the watermark compaction policy of the 2017 discussion (seeds/: Michal Hocko's
 * `compact_wmark`: period, order, count), emulated in user space so it runs on any kernel:
 * every period, on each node whose free memory holds fewer than `count` blocks of `order`
 * (a larger free block counts as the blocks of `order` it contains), compaction is asked
 * for through the kernel's own interface: /sys/devices/system/node/nodeN/compact, or
 * /proc/sys/vm/compact_memory where the kernel has no per-node file (then one write per
 * period compacts every node). Both writes compact synchronously in the writer's context,
 * so the policy thread's CPU time (CLOCK_THREAD_CPUTIME_ID: user + system, exact) is the
 * policy's cost, the compaction included.
 */
#ifndef CB_WMARK_H
#define CB_WMARK_H

#include <stdbool.h>
#include <stdint.h>

#define CB_WMARK_MAX_NODES 64

struct cb_wmark_opts {
	const char *root; /* prefix of /proc and /sys ("" for the machine) */
	double period_s;
	int order;
	uint64_t count;
	/* bounds of the thread's loop (0: none): it stops by itself after either */
	uint64_t max_checks;
	double max_s;
};

/* one period's decision */
struct cb_wmark_check {
	int nnodes;				  /* nodes in buddyinfo (highest node id + 1) */
	uint64_t blocks[CB_WMARK_MAX_NODES];	  /* free blocks of the order, per node */
	bool below[CB_WMARK_MAX_NODES];		  /* blocks < count: compaction asked for */
	bool global;				  /* through compact_memory (no per-node file) */
	char failed[256];			  /* the file a failed step could not use */
};

struct cb_wmark_stats {
	uint64_t checks;   /* periods evaluated */
	uint64_t triggers; /* compaction requests written (per node, or one global per period) */
	uint64_t node_triggers[CB_WMARK_MAX_NODES]; /* periods in which the node was below */
	int nnodes;
	bool global;	   /* some request went through compact_memory */
	uint64_t missed;   /* periods skipped because a step outlasted them */
	uint64_t cpu_ns;   /* CPU time of the policy thread, compaction included */
	uint64_t wall_ns;  /* from the thread's start to its end */
	bool bounded;	   /* the loop ended on max_checks or max_s, not on cb_wmark_stop */
	char err[256];	   /* why a step failed ("" if none did) */
};

struct cb_wmark;
struct json_object;

#define CB_WMARK_WHAT "user-space emulation of the compact_wmark proposal"

/*
 * cb_wmark_step - one period's decision: read buddyinfo, and for every node below the
 * watermark write the node's compact file (or compact_memory once). @out (may be NULL)
 * gets the decision. Returns the number of compaction requests written, or -1 with errno
 * set (buddyinfo unreadable, the order beyond buddyinfo's columns, a compact file not
 * writable).
 */
int cb_wmark_step(const struct cb_wmark_opts *o, struct cb_wmark_check *out);

/* cb_wmark_start - run cb_wmark_step every period in a thread; NULL with errno on failure */
struct cb_wmark *cb_wmark_start(const struct cb_wmark_opts *o);

/*
 * cb_wmark_stop - stop the thread (a compaction write in progress finishes first), fill
 * @st, free. Returns 0, or -1 if a step had failed (the loop then stopped; st->err says why).
 */
int cb_wmark_stop(struct cb_wmark *w, struct cb_wmark_stats *st);

/*
 * cb_wmark_json - what a cell's wmark.json holds: the policy's options, its counters
 * (checks, triggers, per-node triggers, missed periods) and cpu_ns, the figure the
 * analyzer's cpu_policy_ns metric reads. A new object (put it with json_object_put).
 */
struct json_object *cb_wmark_json(const struct cb_wmark_opts *o, const struct cb_wmark_stats *st);

/* the wmark policy's ops (policy.h: keys, private config, start/stop), in policy_wmark.c */
extern const struct cb_policy_ops cb_policy_wmark;

#endif
