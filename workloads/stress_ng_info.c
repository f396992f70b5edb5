// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress_ng_info.c - stress-ng (Debian's package) as optional background load of a cell.
 *
 * Only the options a compaction experiment needs are listed, so a [workload] key is checked
 * against this table like any of ours; the harness runs /usr/bin/stress-ng with execv (no
 * shell), with --temp-path in the cell, and stops it with SIGINT when the cell ends.
 */
#include "wl_info.h"

static const struct wl_option stress_ng_options[] = {
	{ .name = "cpu", .type = WL_OPT_INT, .min = 0, .max = 64,
	  .help = "CPU stressors (0 = one per online CPU)" },
	{ .name = "cpu-load", .type = WL_OPT_INT, .min = 1, .max = 100,
	  .help = "percent of each CPU the cpu stressors use" },
	{ .name = "vm", .type = WL_OPT_INT, .min = 0, .max = 64,
	  .help = "anonymous-memory stressors (mmap, touch, munmap in a loop)" },
	{ .name = "vm-bytes", .type = WL_OPT_STRING,
	  .help = "memory per vm stressor, as stress-ng takes it (64M, 10%)" },
	{ .name = "vm-keep", .type = WL_OPT_BOOL,
	  .help = "keep the vm stressors' mappings instead of unmapping and remapping" },
	{ .name = "page-in", .type = WL_OPT_BOOL,
	  .help = "touch non-resident pages of the stressors' mappings" },
	{ .name = "metrics-brief", .type = WL_OPT_BOOL,
	  .help = "print stress-ng's bogo-op metrics when it stops" },
	{ NULL },
};

const struct wl_info wl_stress_ng = {
	.name = "stress-ng",
	.phase = WL_PHASE_BACKGROUND,
	.summary = "background load (Debian's stress-ng): CPU and memory churn beside the cell",
	.options = stress_ng_options,
	.path = "/usr/bin/stress-ng",
};
