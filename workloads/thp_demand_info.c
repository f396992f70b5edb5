// SPDX-License-Identifier: GPL-2.0-only
/*
 * thp_demand_info.c - the option table of thp-demand (THP/mTHP fault demand with timing).
 * Parsing, --help, the harness's `demand.*` key checks and the docs all come from it.
 */
#include "waves_opts.h"
#include "wl_info.h"

WAVES_ARRIVALS;

static const struct wl_option thp_demand_options[] = {
	{ .name = "size", .type = WL_OPT_SIZE, .def = "1G",
	  .help = "memory to fault (with --waves: in each wave): a fraction of the window or "
		  "bytes; without --release or --waves capped at 0.95 of MemAvailable (read at "
		  "start)" },
	{ .name = "region", .type = WL_OPT_SIZE, .def = NULL,
	  .help = "bytes per region, a power of two (default: the PMD size, "
		  "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size)" },
	{ .name = "rate", .type = WL_OPT_REAL, .def = "0", .min = 0, .max = 1e7,
	  .help = "regions faulted per second; 0 = as fast as possible" },
	{ .name = "duration", .type = WL_OPT_DURATION, .def = "60s",
	  .help = "bound: stop faulting new regions after this long" },
	{ .name = "mthp-size", .type = WL_OPT_SIZE, .def = NULL,
	  .help = "use regions of this mTHP size (e.g. 64k) instead; says if its "
		  "hugepages-<N>kB/enabled is \"never\"" },
	{ .name = "release", .type = WL_OPT_BOOL, .def = "false",
	  .help = "free each region right after it is measured (default: keep every region "
		  "until the end, so that later faults need compaction)" },
	WAVES_OPTION_ROWS("fault --size, releasing it when the wave ends"),
	{ .name = "wave-hold", .type = WL_OPT_DURATION, .def = "0",
	  .help = "keep a wave's memory this long after its last fault before releasing it" },
	{ 0 }
};

const struct wl_info wl_thp_demand = {
	.name = "thp-demand",
	.phase = WL_PHASE_DEMAND,
	.summary = "fault MADV_HUGEPAGE regions, time each first touch, count huge vs base pages",
	.options = thp_demand_options,
	.details =
	"Per region: take it from one aligned MADV_HUGEPAGE mapping, time one write to its first\n"
	"byte (CLOCK_MONOTONIC; that write is the fault), classify it, then write every remaining\n"
	"4k page of it, so a base-page fallback consumes as much memory as a huge page would.\n"
	"Huge = the first fault mapped the whole region with one large folio: pagemap shows its\n"
	"first and last pages present on contiguous PFNs with the /proc/kpageflags THP bit\n"
	"(needs root; without PFNs, PMD regions fall back to the AnonHugePages delta of\n"
	"/proc/self/smaps_rollup, and mTHP sizes are refused). The output says which method.\n"
	"Percentiles are nearest-rank over every measured region.\n"
	"\n"
	"Output (JSON lines on stdout, one object per line):\n"
	"  {\"type\":\"phase\",\"phase\":\"start\",...}       resolved parameters, THP settings\n"
	"  {\"type\":\"histogram\",\"unit\":\"ns\",\"buckets\":[{\"ge\":..,\"lt\":..,\"huge\":..,\"base\":..}]}\n"
	"                                             log2 buckets of first-touch latency\n"
	"  {\"type\":\"summary\",\"workload\":\"thp-demand\",\"regions\":N,\"huge\":H,\"base\":B,\n"
	"   \"thp_success_rate\":H/N,\"fault_ns\":{\"p50\",\"p90\",\"p99\",\"max\",\"mean\"},...,\n"
	"   \"interrupted\":false,\"duration_s\":..}\n"
	"With --waves N (recurring demand), before the histogram:\n"
	"  {\"type\":\"waves\",\"arrival\":\"periodic\"|\"poisson\",\"period_s\":P,\"count\":N,\"seed\":S,\n"
	"   \"clock\":\"CLOCK_MONOTONIC\",\"hold_s\":..,\"rng\":..}   once, before the first wave\n"
	"  {\"type\":\"wave\",\"index\":I,\"start_ns\":T0,\"end_ns\":T1,\"kind\":\"thp\",\n"
	"   \"requested_bytes\":B,\"arrival_ns\":A,\"faults\":n,\"thp\":h,\"fault_ns_p50\":..,\n"
	"   \"fault_ns_p99\":..,\"fault_ns_max\":..,\"fault_ns_sum\":..,\"prefaulted\":..,\"faulted_bytes\":..,\n"
	"   \"late_ns\":..,\"complete\":true}             when wave I ends (its memory released)\n"
	WAVES_ARRIVAL_HELP
	"A wave runs from before its mapping to after its release; faults counts the regions\n"
	"measured, thp those that got a huge page (as in the summary), latencies are\n"
	"nearest-rank ns over the wave's faults (null if none). The summary covers every wave.\n"
	"\n"
	"Exit status: 0 when every region was faulted or --duration ended it; 130 (SIGINT) or\n"
	"143 (SIGTERM) when a signal stopped it (the summary is still printed); 1 on a system\n"
	"error; 2 on a bad argument. All regions are unmapped before the summary. The program sets\n"
	"its own oom_score_adj to 1000: with no swap, a workload is the process to lose.\n",
};
