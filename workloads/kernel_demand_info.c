// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_demand_info.c - the option table of kernel-demand (order 1-4 allocations the kernel
 * makes for the program). Parsing, --help, the harness's `demand.*` key checks and the docs
 * all come from it.
 */
#include "waves_opts.h"
#include "wl_info.h"

WAVES_ARRIVALS;

static const struct wl_option kernel_demand_options[] = {
	{ .name = "paths", .type = WL_OPT_STRING,
	  .def = "unix-stream,unix-dgram,tcp,cmsg,pipe-resize",
	  .help = "comma-separated paths to drive, in turn: unix-stream, unix-dgram, tcp, cmsg, "
		  "pipe-resize, unix-dgram-big (see below)" },
	{ .name = "size", .type = WL_OPT_SIZE, .def = "32M",
	  .help = "most bytes kept queued in the kernel at once, shared equally by the paths "
		  "(a socket path takes at least 256k): a fraction of the window or bytes; "
		  "capped at 0.25 of MemAvailable (read at start)" },
	{ .name = "rate", .type = WL_OPT_REAL, .def = "0", .min = 0, .max = 1e6,
	  .help = "rounds per second (a round: each path once); 0 = as fast as possible" },
	{ .name = "duration", .type = WL_OPT_DURATION, .def = "10s",
	  .help = "how long to run (with --waves: the bound on all waves)" },
	WAVES_OPTION_ROWS("run rounds until the paths moved --wave-bytes"),
	{ .name = "wave-bytes", .type = WL_OPT_SIZE, .def = "64M",
	  .help = "with --waves: bytes the paths move through the kernel in each wave (a "
		  "fraction of the window or bytes); a wave runs whole rounds until it is reached" },
	{ 0 }
};

const struct wl_info wl_kernel_demand = {
	.name = "kernel-demand",
	.phase = WL_PHASE_DEMAND,
	.summary = "make the kernel allocate pages of order 1-4 for us: socket buffers, "
		   "skb heads and frags, pipe rings, ancillary data",
	.options = kernel_demand_options,
	.details =
	"Paths (each round queues up to its share of --size, then reads it all back):\n"
	"  unix-stream  AF_UNIX stream writes of 8/16/32 KiB: skb page frags of order 1, 2, 3\n"
	"  unix-dgram   AF_UNIX datagrams of 12-100 KiB: large-kmalloc skb heads (order 2, 4)\n"
	"               and page frags (order 1, 3)\n"
	"  tcp          127.0.0.1 TCP, 64 KiB writes: page frags of order 3 (only)\n"
	"  cmsg         sendmsg with 12/24/48 KiB of ancillary data: sock_kmalloc, orders 2, 3, 4\n"
	"               (within net.core.optmem_max)\n"
	"  pipe-resize  F_SETPIPE_SZ 1/2/4 MiB and back: ring arrays of order 2, 3, 4 (3 and 4\n"
	"               need CAP_SYS_RESOURCE above fs.pipe-max-size)\n"
	"  unix-dgram-big  AF_UNIX datagrams of 100 KiB only: skb heads of order 4 and frags of\n"
	"               order 3, no order 1-2; order 4 is costly, so under fragmentation it\n"
	"               fails (ENOBUFS) rather than OOM-kill (not in the default --paths)\n"
	"Order 1 comes only from AF_UNIX page frags (a large kmalloc starts at order 2: SLUB\n"
	"serves up to 8 KiB from slabs). The orders are what the kernel's code does; a\n"
	"collector trace (kmem:mm_page_alloc, order > 0, this pid) is the proof, and the tests\n"
	"check it. Under fragmentation the kernel may fall back to order 0 (frags) or fail\n"
	"(ENOBUFS/ENOMEM, counted as errors).\n"
	"\n"
	"Output (JSON lines on stdout, one object per line):\n"
	"  {\"type\":\"phase\",\"phase\":\"start\",...,\"pid\":N}   resolved parameters\n"
	"  {\"type\":\"path\",\"path\":NAME,\"ops\":N,\"bytes\":N,\"errors\":N,\"orders\":[..],\n"
	"   \"sizes\":[..],\"budget_bytes\":N,\"mechanism\":..,\"note\":..}  one per path, at the end\n"
	"  {\"type\":\"summary\",\"workload\":\"kernel-demand\",\"rounds\":N,\"ops\":N,\"bytes\":N,\n"
	"   \"errors\":N,\"stopped\":\"duration\"|\"signal\"|\"error\",\"interrupted\":..,\"duration_s\":..}\n"
	"With --waves N (recurring demand), before the path lines:\n"
	"  {\"type\":\"waves\",\"arrival\":\"periodic\"|\"poisson\",\"period_s\":P,\"count\":N,\"seed\":S,\n"
	"   \"clock\":\"CLOCK_MONOTONIC\",...}              once, before the first wave\n"
	"  {\"type\":\"wave\",\"index\":I,\"start_ns\":T0,\"end_ns\":T1,\"kind\":\"kernel\",\n"
	"   \"requested_bytes\":B,\"arrival_ns\":A,\"allocs\":n,\"failed\":n,\"bytes\":..,\n"
	"   \"rounds\":..,\"fault_ns_p50\":..,\"fault_ns_p99\":..,\"fault_ns_max\":..,\"fault_ns_sum\":..,\n"
	"   \"late_ns\":..,\"complete\":true}            when wave I ends\n"
	WAVES_ARRIVAL_HELP
	"A wave runs whole rounds until its paths moved --wave-bytes (requested_bytes); allocs\n"
	"counts their calls that made the kernel allocate (ops), failed those that failed\n"
	"(errors); what a round queues it reads back, so a wave's kernel memory is freed when it\n"
	"ends. The latency keys keep thp-demand's names but time one path's round (a batch of\n"
	"calls, up to the path's share of --size), nearest-rank ns over the wave's rounds.\n"
	"--rate paces rounds within a wave.\n"
	"\n"
	"Exit status: 0 when --duration ended it (with --waves: every wave ran or --duration\n"
	"ended them); 130 (SIGINT) or 143 (SIGTERM) when a signal\n"
	"stopped it (the summary is still printed); 1 on a system error; 2 on a bad argument.\n"
	"Everything is closed before the summary.\n",
};
