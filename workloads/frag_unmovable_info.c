// SPDX-License-Identifier: GPL-2.0-only
/*
 * frag_unmovable_info.c - the option table of frag-unmovable (unmovable kernel memory held
 * through pipes, sockets and page tables). Parsing, --help, the harness's `fragment.*` key
 * checks and the docs all come from it.
 */
#include "wl_info.h"

static const struct wl_option frag_unmovable_options[] = {
	{ .name = "size", .type = WL_OPT_SIZE, .def = "0.05",
	  .help = "unmovable memory to hold: a fraction of the window or bytes, split equally "
		  "among --kinds; capped at 0.5 of MemAvailable (read at start)" },
	{ .name = "kinds", .type = WL_OPT_STRING, .def = "pipe,socket,pagetable",
	  .help = "comma-separated: pipe (full pipe buffers), socket (AF_UNIX data queued "
		  "unread), pagetable (page-table pages from one read per 2 MiB of a sparse "
		  "mapping)" },
	{ .name = "pipe-size", .type = WL_OPT_SIZE, .def = "1M",
	  .help = "buffer of each pipe (F_SETPIPE_SZ; above fs.pipe-max-size only with "
		  "CAP_SYS_RESOURCE, else the largest allowed)" },
	{ .name = "socket-size", .type = WL_OPT_SIZE, .def = "1M",
	  .help = "data queued in each socket pair" },
	{ .name = "filler", .type = WL_OPT_SIZE, .def = NULL,
	  .help = "spread the kernel memory: first fault this much anonymous memory (a fraction of the "
		  "window or bytes; capped at 0.95 of MemAvailable, and so that its half plus "
		  "--size stay within 0.9 of it) and free every other page, so the kernel allocations that "
		  "follow land in the holes of many pageblocks once the free blocks left are used "
		  "up; the filler is freed before \"ready\". Without it they gather in few "
		  "pageblocks. The holes --size leaves unfilled free whole pageblocks again with the "
		  "filler: the larger both are, the fewer" },
	{ .name = "filler-lock", .type = WL_OPT_BOOL, .def = "false",
	  .help = "keep the filler's other half through the hold, mlocked, instead of freeing it "
		  "before \"ready\" (its holes are not faulted back): with "
		  "vm.compact_unevictable_allowed = 0 compaction cannot move it either, so no "
		  "pageblock it touches becomes a free huge page" },
	{ .name = "duration", .type = WL_OPT_DURATION, .def = "10m",
	  .help = "bound on the allocating: stop when it is reached and hold what was made" },
	{ .name = "hold", .type = WL_OPT_DURATION, .def = "0",
	  .help = "how long to hold after \"ready\"; 0 = until SIGINT/SIGTERM (at most "
		  "--max-hold)" },
	{ .name = "max-hold", .type = WL_OPT_DURATION, .def = "1h",
	  .help = "upper bound on the hold, whatever --hold says" },
	{ 0 }
};

const struct wl_info wl_frag_unmovable = {
	.name = "frag-unmovable",
	.phase = WL_PHASE_FRAGMENT,
	.summary = "hold unmovable kernel memory spread over pageblocks: full pipes, queued "
		   "socket data, page tables",
	.options = frag_unmovable_options,
	.details =
	"Method: the kinds are allocated in turn, about 1 MiB of each at a time: a pipe filled\n"
	"page by page (its write end then closed: the data stays), an AF_UNIX stream pair with\n"
	"4 KiB writes queued unread (its writer closed likewise), and 256 reads of a PROT_READ,\n"
	"MADV_NOHUGEPAGE mapping 2 MiB apart (one page-table page each, the zero page mapped).\n"
	"All of it is unmovable: compaction cannot move it. Descriptors: RLIMIT_NOFILE's soft\n"
	"limit is raised to the hard one and 64 are kept spare; when they run out it holds less\n"
	"and says \"fd_limited\":true.\n"
	"\n"
	"Output (JSON lines on stdout, one object per line):\n"
	"  {\"type\":\"phase\",\"phase\":\"start\",...}                   resolved parameters\n"
	"  {\"type\":\"buddyinfo\",\"when\":\"before\"|\"after\",...}      /proc/buddyinfo\n"
	"  {\"type\":\"pageblocks\",\"when\":\"before\"|\"after\",\"Unmovable\":N,\"Movable\":N,...}\n"
	"                                   pageblocks per migrate type (/proc/pagetypeinfo)\n"
	"  {\"type\":\"phase\",\"phase\":\"ready\",\"pipes\":N,\"pipe_bytes\":..,\"sockets\":N,\n"
	"   \"socket_bytes\":..,\"pagetable_bytes\":..,\"locked_kb\":N,\"fds\":N,\"fd_limited\":..,...}\n"
	"  {\"type\":\"summary\",\"workload\":\"frag-unmovable\",...,\"fds_open_at_end\":N,\n"
	"   \"interrupted\":..}\n"
	"\n"
	"Exit status: 0 when the memory was allocated and held (a SIGINT/SIGTERM during the hold\n"
	"is the normal end); 130 (SIGINT) or 143 (SIGTERM) when a signal stopped the allocating;\n"
	"1 on a system error; 2 on a bad argument. Everything is closed and unmapped before the\n"
	"summary (and the kernel frees it at exit in any case, SIGKILL included).\n",
};
