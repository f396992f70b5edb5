// SPDX-License-Identifier: GPL-2.0-only
/*
 * frag_anon_info.c - the option table of frag-anon (anonymous hole-punch fragmenter).
 * Parsing, --help, the harness's `fragment.*` key checks and the docs all come from it.
 */
#include "wl_info.h"

static const char *const frag_anon_patterns[] = { "every-other", "1-in-N", "random", NULL };

static const struct wl_option frag_anon_options[] = {
	{ .name = "size", .type = WL_OPT_SIZE, .def = "0.5",
	  .help = "memory to fill: a fraction of the window, or bytes (64k, 512M, 4G); capped at "
		  "0.95 of MemAvailable (read at start), and the fill stops early (a note, "
		  "\"fill_low_memory\":true) if others take the 0.05 it leaves" },
	{ .name = "pattern", .type = WL_OPT_ENUM, .def = "every-other",
	  .choices = frag_anon_patterns,
	  .help = "which base pages to free: every-other keeps pages 0, 2, 4, ...; 1-in-N keeps "
		  "the first page of every N (frees the N-1 after it in one call); random "
		  "keeps each page with probability 1/N" },
	{ .name = "keep-every", .type = WL_OPT_INT, .def = "2", .min = 2, .max = 1 << 20,
	  .help = "N for 1-in-N and random (512 pins every 2 MiB block with 1/512 of the "
		  "memory)" },
	{ .name = "seed", .type = WL_OPT_INT, .def = "1", .min = 0, .max = 4294967295.0,
	  .help = "seed of the random pattern (same seed, same pages)" },
	{ .name = "duration", .type = WL_OPT_DURATION, .def = "10m",
	  .help = "bound on the fill: stop filling when it is reached and fragment what was "
		  "filled" },
	{ .name = "hold", .type = WL_OPT_DURATION, .def = "0",
	  .help = "how long to hold the fragmented memory after \"ready\"; 0 = until "
		  "SIGINT/SIGTERM (at most --max-hold)" },
	{ .name = "max-hold", .type = WL_OPT_DURATION, .def = "1h",
	  .help = "upper bound on the hold, whatever --hold says" },
	{ .name = "churn-rate", .type = WL_OPT_SIZE, .def = NULL,
	  .help = "keep re-fragmenting during the hold: bytes of the held memory freed and "
		  "allocated anew per second (8M = 8 MiB/s; a fraction is of the window per "
		  "second); default: no churn, the memory is only held" },
	{ .name = "churn-pagecache", .type = WL_OPT_SIZE, .def = NULL,
	  .help = "page-cache traffic during the hold: bytes written per second into files in "
		  "--churn-dir, the oldest deleted beyond --churn-pagecache-hold; default: none" },
	{ .name = "churn-pagecache-hold", .type = WL_OPT_SIZE, .def = "16M",
	  .help = "most page-cache bytes the churn keeps in its files at once" },
	{ .name = "churn-dir", .type = WL_OPT_STRING, .def = "/tmp",
	  .help = "where the page-cache churn makes its directory frag-anon-churn.XXXXXX "
		  "(removed at exit); on tmpfs its pages are shmem, freed when a file is deleted" },
	{ .name = "churn-free-target", .type = WL_OPT_SIZE, .def = NULL,
	  .help = "during the hold, keep MemFree near this (a fraction of the window or bytes) "
		  "with a pool of base pages, the way page cache fills a machine: written (at most "
		  "16 MiB per 20 ms) while MemFree is above it by more than a sixteenth, then "
		  "MADV_FREE so the kernel may reclaim them under pressure; dropped by the churn "
		  "itself when MemFree is below it by more than an eighth; default: no pool" },
	{ .name = "churn-pool-max", .type = WL_OPT_SIZE, .def = "0.5",
	  .help = "most memory the pool of --churn-free-target holds (a fraction of the window "
		  "or bytes)" },
	{ .name = "churn-report", .type = WL_OPT_DURATION, .def = "1s",
	  .help = "period of the \"churn\" lines (0: only the final \"churn_summary\")" },
	{ 0 }
};

const struct wl_info wl_frag_anon = {
	.name = "frag-anon",
	.phase = WL_PHASE_FRAGMENT,
	.summary = "fragment memory: fill with anonymous base pages, then free a pattern of them",
	.options = frag_anon_options,
	.details =
	"Method: mmap anonymous memory, madvise(MADV_NOHUGEPAGE) so it is backed by base pages\n"
	"(with THP, freeing a 4k subpage only splits the huge page), write every page, then\n"
	"free the pattern's pages with madvise(MADV_DONTNEED), batching contiguous runs.\n"
	"\n"
	"Output (JSON lines on stdout, one object per line):\n"
	"  {\"type\":\"phase\",\"phase\":\"start\",...}             resolved parameters\n"
	"  {\"type\":\"buddyinfo\",\"when\":\"before\"|\"after\",\"zones\":[{\"node\":0,\"zone\":\"Normal\",\n"
	"   \"free\":[n0,...,n10]}]}                          /proc/buddyinfo around the fragmenting\n"
	"  {\"type\":\"phase\",\"phase\":\"ready\",\"held_bytes\":..,\"freed_bytes\":..,\"fill_s\":..,\n"
	"   \"free_s\":..}                                   fragmentation is done, holding\n"
	"  {\"type\":\"churn\",\"t_ns\":..,\"interval_s\":..,\"rate_set_bps\":..,\"rate_bps\":..,\n"
	"   \"freed_bytes\":..,\"allocated_bytes\":..,\"pagecache_bytes\":..,\n"
	"   \"pagecache_rate_set_bps\":..,\"pagecache_rate_bps\":..,\"pagecache_freed_bytes\":..,\n"
	"   \"cycles\":..,\"free_target_bytes\":..,\"mem_free_bytes\":..,\"pool_resident_bytes\":..,\n"
	"   \"pool_peak_bytes\":..,\"pool_grown_bytes\":..,\"pool_shrunk_bytes\":..}\n"
	"                                                 with --churn-*: every --churn-report,\n"
	"                                                 what the churn did since the last line\n"
	"  {\"type\":\"churn_summary\",...same keys over the whole churn, \"duration_s\" for\n"
	"   \"interval_s\",\"ticks\":..,\"error\":null}        when the hold ends\n"
	"  {\"type\":\"summary\",\"workload\":\"frag-anon\",...,\"interrupted\":false}\n"
	"t_ns is CLOCK_MONOTONIC (the trace's \"mono\" clock). rate_bps is allocated_bytes per\n"
	"second (the anonymous churn), pagecache_rate_bps pagecache_bytes (written) per second;\n"
	"the *_set_bps are the asked rates. Progress goes to stderr every GiB of fill.\n"
	"\n"
	"Churn (--churn-rate): the held pages are walked as a ring; each pass moves the pattern\n"
	"of kept pages (every-other and 1-in-N shift it by one page, random draws a new set):\n"
	"first the pages the new pattern keeps are faulted (allocations the kernel serves from\n"
	"its free lists), then the pages only the old one kept are freed, so the memory held\n"
	"stays the same while the pages behind it change. The buddy allocator serves a base\n"
	"page from the smallest free block, so the churn splits larger free blocks (those a\n"
	"demand wave freed, those compaction made) only once smaller ones run short. Work is\n"
	"paced against the clock every 20 ms (catching up at most 0.25 s of it per tick): a\n"
	"machine that cannot keep up shows rate_bps below rate_set_bps. Hence\n"
	"--churn-free-target: its pool takes the small free blocks first and then splits the\n"
	"larger ones, so what a wave frees is broken up before the next wave unless a policy\n"
	"compacts it again. The pool_* keys (with --churn-free-target) are the state at the\n"
	"line's time and totals since the churn began, not per interval.\n"
	"\n"
	"Exit status: 0 when the memory was fragmented and held (a SIGINT/SIGTERM during the hold\n"
	"is the normal way to end it: exit 0 with \"interrupted\":true); 130 (SIGINT) or 143\n"
	"(SIGTERM) when a signal stopped the fill or the free before \"ready\"; 1 on a system\n"
	"error; 2 on a bad argument. The memory is unmapped before the summary in every case.\n"
	"The program sets its own oom_score_adj to 1000: with no swap, it is the process to lose.\n",
};
