/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sampler.h - what the agent records besides the trace and vmstat, for the analyzer's
 * fragmentation, CPU and energy figures (results/README.md has the files):
 *
 *   cb_snapshot_extra(dir, root, "before")   zoneinfo.before, pagetypeinfo.before,
 *                                            cpu.before, energy.before
 *   s = cb_sampler_start(dir, root, 250)     a thread appends to samples.csv (and, where
 *                                            powercap has RAPL zones, energy.csv) every 250 ms
 *   ... workload phases ...
 *   cb_sampler_stop(s)                       samples.csv complete (renamed into place)
 *   cb_snapshot_extra(dir, root, "after")    zoneinfo.after, ... energy.after
 *
 * samples.csv, one row per zone per sample (times are CLOCK_MONOTONIC, like the trace and
 * meta.json's window):
 *
 *   t_ns,node,zone,present,score,weighted,node_score,o0,o1,...,o10[,thp_alloc]
 *
 * energy.csv has a row per RAPL package/DRAM zone per sample (harness/lib/energy.h): the
 * analyzer sums the wrap-corrected deltas between consecutive readings, so that a cell
 * longer than the counters' wrap period still has its energy.
 *
 * o<k> is the zone's free block count of order k from /proc/buddyinfo; score is
 * fragmentation_score_zone(), weighted fragmentation_score_zone_weighted() and node_score
 * fragmentation_score_node() as mm/compaction.c computes them (harness/lib/frag.h).
 * thp_alloc, where /proc/vmstat has thp_fault_alloc at the first sample, is the sum of the
 * THP allocation counters at that sample (the same in each zone's row): the break-up
 * estimate's allocations when the trace has no kmem:mm_page_alloc.
 *
 * @root prefixes every /proc and /sys path ("" or NULL for the real ones; tests use a fake
 * tree). Every file is written under a temporary name and renamed. Functions return -1 (or
 * NULL) with errno set and one line naming the file at fault in the caller's @err on failure.
 */
#ifndef CB_SAMPLER_H
#define CB_SAMPLER_H

#include <stddef.h>

#define CB_SAMPLER_DEFAULT_MS 250

struct cb_sampler;

/*
 * cb_sampler_start - start the sampling thread; the first sample is taken before this
 * returns (so a failure to read buddyinfo is reported here). @period_ms 0 means
 * CB_SAMPLER_DEFAULT_MS. Returns the sampler, or NULL.
 */
struct cb_sampler *cb_sampler_start(const char *cell_dir, const char *root, unsigned int period_ms,
				    char *err, size_t errlen);

/*
 * cb_sampler_stop - take a last sample, stop the thread, rename samples.csv into place and
 * free @s. Returns the number of samples taken, or -1 (the thread still stopped, @s freed).
 */
int cb_sampler_stop(struct cb_sampler *s, char *err, size_t errlen);

/*
 * cb_snapshot_extra - write zoneinfo.@when, pagetypeinfo.@when, cpu.@when and
 * energy.@when into @cell_dir. All four are attempted; returns 0, or -1 for the first that
 * failed.
 */
int cb_snapshot_extra(const char *cell_dir, const char *root, const char *when, char *err,
		      size_t errlen);

#endif
