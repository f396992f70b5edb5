// SPDX-License-Identifier: GPL-2.0-only
/*
 * frag_pagecache_info.c - the option table of frag-pagecache (page cache interleaved with
 * reclaimable slab). Parsing, --help, the harness's `fragment.*` key checks and the docs all
 * come from it.
 */
#include "wl_info.h"

static const struct wl_option frag_pagecache_options[] = {
	{ .name = "dir", .type = WL_OPT_STRING, .def = NULL,
	  .help = "required: a directory on the filesystem whose page cache to fill; the program "
		  "makes its own subdirectory frag-pagecache.XXXXXX in it and removes it at exit" },
	{ .name = "size", .type = WL_OPT_SIZE, .def = "0.25",
	  .help = "file data to write: a fraction of the window or bytes; refused above 0.9 of "
		  "the filesystem's free space" },
	{ .name = "chunk", .type = WL_OPT_SIZE, .def = "64k",
	  .help = "file data written between two batches of small files" },
	{ .name = "files-per-chunk", .type = WL_OPT_INT, .def = "8", .min = 0, .max = 1 << 20,
	  .help = "empty files created after each chunk: each is a dentry and an inode in the "
		  "reclaimable slab caches, allocated between the chunks' page-cache pages" },
	{ .name = "file-size", .type = WL_OPT_SIZE, .def = "8M",
	  .help = "bytes per data file before the next one is started" },
	{ .name = "write-size", .type = WL_OPT_SIZE, .def = "4k",
	  .help = "bytes per write(2): a page at a time by default, because filesystems with large "
		  "folios (ext4 since 6.16, xfs) cache a larger write in larger folios" },
	{ .name = "duration", .type = WL_OPT_DURATION, .def = "10m",
	  .help = "bound on the writing: stop when it is reached and hold what was written" },
	{ .name = "hold", .type = WL_OPT_DURATION, .def = "0",
	  .help = "how long to hold the files after \"ready\"; 0 = until SIGINT/SIGTERM (at most "
		  "--max-hold)" },
	{ .name = "max-hold", .type = WL_OPT_DURATION, .def = "1h",
	  .help = "upper bound on the hold, whatever --hold says" },
	{ 0 }
};

const struct wl_info wl_frag_pagecache = {
	.name = "frag-pagecache",
	.phase = WL_PHASE_FRAGMENT,
	.summary = "fragment memory with page cache interleaved with reclaimable slab (dentries, "
		   "inodes of many small files)",
	.options = frag_pagecache_options,
	.details =
	"Method: in DIR/frag-pagecache.XXXXXX (mkdtemp, mode 0700), write data files a chunk at a\n"
	"time and create --files-per-chunk empty files after each chunk (4096 a subdirectory), so\n"
	"dentry/inode slab pages are allocated between the page-cache pages. Nothing is synced:\n"
	"the kernel writes the data back on its own; the pages stay cached.\n"
	"\n"
	"Output (JSON lines on stdout, one object per line):\n"
	"  {\"type\":\"phase\",\"phase\":\"start\",...,\"tree\":PATH}   resolved parameters\n"
	"  {\"type\":\"buddyinfo\",\"when\":\"before\"|\"after\",\"zones\":[...]}  around the writing\n"
	"  {\"type\":\"phase\",\"phase\":\"ready\",\"data_bytes\":..,\"data_files\":..,\"small_files\":..,\n"
	"   \"cached_kb_delta\":..,\"sreclaimable_kb_delta\":..,\"fill_s\":..,\"truncated\":..}\n"
	"  {\"type\":\"summary\",\"workload\":\"frag-pagecache\",...,\"removed\":N,\"left\":0,\n"
	"   \"interrupted\":..}\n"
	"Progress goes to stderr every eighth of --size.\n"
	"\n"
	"Removal: only the names it created (counted as it created them), each unlinked relative\n"
	"to the directory descriptor it made, then rmdir: anything else found in its tree is left\n"
	"and counted in \"left\". It runs at every exit but SIGKILL (a killed run leaves its\n"
	"frag-pagecache.XXXXXX; the next run warns about it and does not touch it).\n"
	"\n"
	"Exit status: 0 when the files were written and held (a SIGINT/SIGTERM during the hold is\n"
	"the normal end: \"interrupted\":true); 130 (SIGINT) or 143 (SIGTERM) when a signal\n"
	"stopped the writing before \"ready\"; 1 on a system error or when something could not\n"
	"be removed; 2 on a bad argument.\n",
};
