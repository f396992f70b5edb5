// SPDX-License-Identifier: GPL-2.0-only
/*
 * idle_info.c - the option table of idle (a demand phase that does nothing, so the cost of
 * background compaction on an idle, fragmented system can be measured).
 */
#include "wl_info.h"

static const struct wl_option idle_options[] = {
	{ .name = "duration", .type = WL_OPT_DURATION, .def = "60s",
	  .help = "how long to do nothing" },
	{ 0 }
};

const struct wl_info wl_idle = {
	.name = "idle",
	.phase = WL_PHASE_DEMAND,
	.summary = "do nothing for --duration while the fragmenter holds its state "
		   "(background compaction and its CPU/energy on an idle system)",
	.options = idle_options,
	.details =
	"It sleeps (interruptibly, CLOCK_MONOTONIC) and reads /proc/vmstat and /proc/buddyinfo\n"
	"around the sleep, so the summary shows what the kernel did meanwhile on its own.\n"
	"\n"
	"Output (JSON lines on stdout, one object per line):\n"
	"  {\"type\":\"phase\",\"phase\":\"start\",\"workload\":\"idle\",\"duration_s\":..,\"pid\":N}\n"
	"  {\"type\":\"buddyinfo\",\"when\":\"before\"|\"after\",\"zones\":[...]}\n"
	"  {\"type\":\"summary\",\"workload\":\"idle\",\"slept_s\":..,\"vmstat_delta\":{\"compact_daemon_wake\":..,\n"
	"   ...},\"interrupted\":..,\"duration_s\":..}   (a counter the kernel lacks is null)\n"
	"\n"
	"Exit status: 0 when --duration passed; 130 (SIGINT) or 143 (SIGTERM) when a signal cut\n"
	"it short (the summary is still printed); 2 on a bad argument.\n",
};
