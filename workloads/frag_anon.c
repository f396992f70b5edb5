// SPDX-License-Identifier: GPL-2.0-only
/*
 * frag-anon - fragment physical memory with anonymous base pages (phase: fragment).
 *
 * Fill a share of memory with base pages, free a pattern of them (every other page by
 * default) so that the free memory is scattered in order-0 holes, print "ready", and hold
 * the rest until told to stop. A THP fault after that needs compaction to find 2 MiB.
 * `frag-anon --help` describes the options, the output and the exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "churn.h"
#include "util.h"
#include "wl_args.h"
#include "wl_json.h"
#include "wl_mm.h"
#include "wl_signal.h"

#define MAX_SHARE_OF_AVAILABLE 0.95 /* no swap here: more than this invites the OOM killer */
#define PROGRESS_BYTES (1ULL << 30)
#define GIB (double)(1ULL << 30)
#define AVAIL_CHECK_BYTES (64ULL << 20) /* how often the fill looks at MemAvailable */

enum pattern { PAT_EVERY_OTHER, PAT_1_IN_N, PAT_RANDOM };

struct frag {
	/* what was asked, resolved */
	uint64_t size;
	struct wl_mem win;	/* the window, MemAvailable at the start */
	bool clamped;		/* --size was lowered to fit */
	size_t page;
	enum pattern pattern;
	const char *pattern_name;
	uint64_t keep_every, seed;
	double fill_limit_s, hold_s, max_hold_s;
	/* what happened */
	char *mem;
	uint64_t filled, freed;
	double fill_s, free_s, held_s;
	bool fill_truncated, ready, hold_capped;
	bool fill_low_memory;	/* the fill stopped: others took the headroom it meant to leave */
	const char *hold_end; /* "time", "max-hold", "signal" or "error" (churn) */
	/* the churn during the hold (--churn-*), off when both rates are 0 */
	struct churn_opts churn_o;
	uint8_t *kept;		/* bitmap of the pages held, for the churn */
	char error[256];
};

static double secs_since(uint64_t t0)
{
	return (double)(cb_now_ns() - t0) / 1e9;
}

/* the --churn-* options into f->churn_o (a rate as a fraction is of the window per second) */
static int resolve_churn(struct frag *f, const struct wl_args *a)
{
	struct churn_opts *o = &f->churn_o;
	uint64_t v = 0;

	if (wl_arg_str(a, "churn-rate") && wl_arg_size(a, "churn-rate", f->win.window, &v) == 0)
		o->rate_bps = (double)v;
	v = 0;
	if (wl_arg_str(a, "churn-pagecache") &&
	    wl_arg_size(a, "churn-pagecache", f->win.window, &v) == 0)
		o->pc_rate_bps = (double)v;
	if (wl_arg_str(a, "churn-free-target"))
		wl_arg_size(a, "churn-free-target", f->win.window, &o->free_target);
	wl_arg_size(a, "churn-pool-max", f->win.window, &o->pool_max);
	o->pool_max -= o->pool_max % f->page;
	if (wl_arg_size(a, "churn-pagecache-hold", f->win.window, &o->pc_hold) < 0 ||
	    o->pc_hold < f->page)
		return wl_args_error(a, "churn-pagecache-hold", "less than a page");
	o->dir = wl_arg_str(a, "churn-dir");
	if (o->pc_rate_bps > 0 && (!o->dir || access(o->dir, W_OK | X_OK) < 0))
		return wl_args_error(a, "churn-dir", "not a directory this program may write in: %s",
				     strerror(errno ? errno : ENOENT));
	o->report_s = wl_arg_duration(a, "churn-report");
	o->page = f->page;
	o->keep_every = f->keep_every;
	o->random = f->pattern == PAT_RANDOM;
	o->seed = f->seed;
	return WL_ARGS_OK;
}

static bool churning(const struct frag *f)
{
	return f->churn_o.rate_bps > 0 || f->churn_o.pc_rate_bps > 0 || f->churn_o.free_target > 0;
}

/* turn the parsed options into @f; returns WL_ARGS_OK or WL_ARGS_ERROR (message printed) */
static int resolve(struct frag *f, const struct wl_args *a)
{
	const char *pat = wl_arg_str(a, "pattern");

	if (wl_mem_resolve("frag-anon", &f->win) < 0)
		return WL_ARGS_ERROR;
	f->page = (size_t)sysconf(_SC_PAGESIZE);
	if (wl_arg_size_fit(a, "size", &f->win, MAX_SHARE_OF_AVAILABLE, &f->size, &f->clamped))
		return WL_ARGS_ERROR;
	f->size -= f->size % f->page;
	if (f->size < 2 * f->page)
		return wl_args_error(a, "size", "less than two pages");
	f->pattern_name = pat;
	f->pattern = !strcmp(pat, "random") ? PAT_RANDOM :
		     !strcmp(pat, "1-in-N") ? PAT_1_IN_N : PAT_EVERY_OTHER;
	f->keep_every = f->pattern == PAT_EVERY_OTHER ? 2 : (uint64_t)wl_arg_long(a, "keep-every");
	f->seed = (uint64_t)wl_arg_long(a, "seed");
	f->fill_limit_s = wl_arg_duration(a, "duration");
	f->max_hold_s = wl_arg_duration(a, "max-hold");
	f->hold_s = wl_arg_duration(a, "hold");
	f->hold_capped = f->hold_s == 0 || f->hold_s > f->max_hold_s;
	if (f->hold_capped)
		f->hold_s = f->max_hold_s;
	return resolve_churn(f, a);
}

static void emit_start(const struct frag *f)
{
	struct json_object *o = wl_json_new("phase");

	wl_json_str(o, "phase", "start");
	wl_json_str(o, "workload", "frag-anon");
	wl_json_int(o, "size_bytes", (int64_t)f->size);
	wl_mem_json(o, &f->win, f->clamped);
	wl_json_int(o, "page_size", (int64_t)f->page);
	wl_json_str(o, "pattern", f->pattern_name);
	wl_json_int(o, "keep_every", (int64_t)f->keep_every);
	wl_json_int(o, "seed", (int64_t)f->seed);
	wl_json_real(o, "fill_limit_s", f->fill_limit_s);
	wl_json_real(o, "hold_s", f->hold_s);
	wl_json_real(o, "churn_rate_bps", f->churn_o.rate_bps);
	wl_json_real(o, "churn_pagecache_bps", f->churn_o.pc_rate_bps);
	wl_json_int(o, "churn_pagecache_hold_bytes", (int64_t)f->churn_o.pc_hold);
	wl_json_int(o, "churn_free_target_bytes", (int64_t)f->churn_o.free_target);
	wl_json_int(o, "churn_pool_max_bytes", (int64_t)f->churn_o.pool_max);
	wl_json_int(o, "pid", getpid());
	wl_json_emit(o);
}

static void emit_buddyinfo(const char *when)
{
	struct wl_buddy_zone zones[WL_BUDDY_MAX_ZONES];
	int n = wl_buddyinfo_read(NULL, zones, WL_BUDDY_MAX_ZONES);

	if (n < 0) {
		fprintf(stderr, "frag-anon: cannot read /proc/buddyinfo: %s\n", strerror(errno));
		return;
	}
	wl_json_emit(wl_buddyinfo_json(when, zones, n));
}

/* map the memory; base pages only, see the --help text for why */
static int map_memory(struct frag *f)
{
	f->mem = mmap(NULL, f->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (f->mem == MAP_FAILED) {
		f->mem = NULL;
		snprintf(f->error, sizeof(f->error), "mmap %llu bytes: %s",
			 (unsigned long long)f->size, strerror(errno));
		return -1;
	}
	/* EINVAL means a kernel without THP: base pages anyway */
	if (madvise(f->mem, f->size, MADV_NOHUGEPAGE) < 0 && errno != EINVAL) {
		snprintf(f->error, sizeof(f->error), "madvise(MADV_NOHUGEPAGE): %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * whether MemAvailable fell below the headroom the size was meant to leave (1 - the share,
 * of MemAvailable at the start): a window is shared, and what others take while we fill
 * must not make the OOM killer end the cell
 */
static bool memory_low(const struct frag *f)
{
	long long kb = cb_meminfo_kb(NULL, "MemAvailable");
	double floor = (1 - MAX_SHARE_OF_AVAILABLE) * (double)f->win.avail;

	return kb >= 0 && (double)kb * 1024 < floor;
}

/*
 * write every page, stopping early on a signal, at --duration or when memory_low; sets
 * f->filled
 */
static void fill(struct frag *f)
{
	uint64_t t0 = cb_now_ns(), limit_ns = (uint64_t)(f->fill_limit_s * 1e9);
	uint64_t off, next_progress = PROGRESS_BYTES, next_check = AVAIL_CHECK_BYTES;
	size_t checks = 0;

	for (off = 0; off < f->size && !wl_stopping(); off += f->page) {
		f->mem[off] = 1;
		/* the clock every 2 MiB or so: cheap next to 512 page faults */
		if (++checks % 512 == 0 && cb_now_ns() - t0 > limit_ns) {
			f->fill_truncated = true;
			off += f->page;
			break;
		}
		if (off + f->page >= next_check) {
			next_check += AVAIL_CHECK_BYTES;
			if (memory_low(f)) {
				f->fill_truncated = f->fill_low_memory = true;
				off += f->page;
				fprintf(stderr, "frag-anon: note: MemAvailable fell below %.2f of its "
					"%llu bytes at the start (others are using the window): filling "
					"stopped at %llu bytes\n", 1 - MAX_SHARE_OF_AVAILABLE,
					(unsigned long long)f->win.avail, (unsigned long long)off);
				break;
			}
		}
		if (off + f->page >= next_progress) {
			fprintf(stderr, "frag-anon: filled %.1f of %.1f GiB (%.1f s)\n",
				(double)(off + f->page) / GIB, (double)f->size / GIB, secs_since(t0));
			next_progress += PROGRESS_BYTES;
		}
	}
	f->filled = off < f->size ? off : f->size;
	f->fill_s = secs_since(t0);
}

/* whether page @i stays mapped under the pattern */
static bool keep_page(const struct frag *f, uint64_t i, uint64_t *rng)
{
	switch (f->pattern) {
	case PAT_1_IN_N:
		return i % f->keep_every == 0;
	case PAT_RANDOM:
		return churn_splitmix64(rng) % f->keep_every == 0;
	case PAT_EVERY_OTHER:
	default:
		return i % 2 == 0;
	}
}

/* free pages [start, end) in one call */
static int free_run(struct frag *f, uint64_t start, uint64_t end)
{
	size_t len = (end - start) * f->page;

	if (madvise(f->mem + start * f->page, len, MADV_DONTNEED) < 0) {
		snprintf(f->error, sizeof(f->error), "madvise(MADV_DONTNEED): %s", strerror(errno));
		return -1;
	}
	f->freed += len;
	return 0;
}

/*
 * free the pattern's pages of what was filled, contiguous runs in one call each.
 * Returns 0 when done, -1 on an error or a signal.
 */
static int free_pattern(struct frag *f)
{
	uint64_t t0 = cb_now_ns(), npages = f->filled / f->page, i, run = UINT64_MAX;
	uint64_t rng = f->seed;
	int ret = 0;

	for (i = 0; i < npages && !ret; i++) {
		if (wl_stopping()) {
			ret = -1;
			break;
		}
		if (!keep_page(f, i, &rng)) {
			if (run == UINT64_MAX)
				run = i;
			continue;
		}
		if (f->kept)
			churn_set_bit(f->kept, i, true);
		if (run != UINT64_MAX) {
			ret = free_run(f, run, i);
			run = UINT64_MAX;
		}
	}
	if (!ret && run != UINT64_MAX)
		ret = free_run(f, run, npages);
	f->free_s = secs_since(t0);
	return ret;
}

static void emit_ready(const struct frag *f)
{
	struct json_object *o = wl_json_new("phase");

	wl_json_str(o, "phase", "ready");
	wl_json_int(o, "held_bytes", (int64_t)(f->filled - f->freed));
	wl_json_int(o, "freed_bytes", (int64_t)f->freed);
	wl_json_int(o, "filled_bytes", (int64_t)f->filled);
	wl_json_bool(o, "fill_truncated", f->fill_truncated);
	wl_json_bool(o, "fill_low_memory", f->fill_low_memory);
	wl_json_real(o, "fill_s", f->fill_s);
	wl_json_real(o, "free_s", f->free_s);
	wl_json_emit(o);
}

/* churn until @deadline; returns like churn_run (-1: f->error set) */
static int hold_churning(struct frag *f, uint64_t deadline)
{
	struct churn c;
	int ret;

	f->churn_o.mem = f->mem;
	f->churn_o.npages = f->churn_o.rate_bps > 0 ? f->filled / f->page : 0;
	f->churn_o.kept = f->kept;
	ret = churn_start(&c, &f->churn_o);
	if (ret == 0)
		ret = churn_run(&c, deadline);
	churn_finish(&c);
	if (ret < 0)
		snprintf(f->error, sizeof(f->error), "%s", c.error);
	return ret;
}

/* hold the fragmented memory (churning it if asked) for f->hold_s or until a signal */
static void hold(struct frag *f)
{
	uint64_t t0 = cb_now_ns(), deadline = t0 + (uint64_t)(f->hold_s * 1e9);
	int ret = churning(f) ? hold_churning(f, deadline) : wl_sleep_until(deadline);

	if (ret > 0)
		f->hold_end = f->hold_capped ? "max-hold" : "time";
	else
		f->hold_end = ret < 0 ? "error" : "signal";
	f->held_s = secs_since(t0);
}

static void emit_summary(const struct frag *f, double total_s)
{
	struct json_object *o = wl_json_new("summary");

	wl_json_str(o, "workload", "frag-anon");
	wl_json_int(o, "size_bytes", (int64_t)f->size);
	wl_json_int(o, "filled_bytes", (int64_t)f->filled);
	wl_json_int(o, "held_bytes", (int64_t)(f->filled - f->freed));
	wl_json_int(o, "freed_bytes", (int64_t)f->freed);
	wl_json_bool(o, "ready", f->ready);
	wl_json_bool(o, "fill_truncated", f->fill_truncated);
	wl_json_bool(o, "fill_low_memory", f->fill_low_memory);
	wl_json_real(o, "fill_s", f->fill_s);
	wl_json_real(o, "free_s", f->free_s);
	wl_json_real(o, "held_s", f->held_s);
	wl_json_str(o, "hold_end", f->hold_end);
	wl_json_bool(o, "interrupted", wl_stopping());
	wl_json_str(o, "signal", wl_signal_name());
	wl_json_str(o, "error", f->error[0] ? f->error : NULL);
	wl_json_real(o, "duration_s", total_s);
	wl_json_emit(o);
}

/* make the fragmentation; returns 0 when "ready" was printed */
static int fragment(struct frag *f)
{
	emit_buddyinfo("before");
	if (map_memory(f) < 0)
		return -1;
	if (churning(f)) {
		f->kept = calloc(f->size / f->page / 8 + 1, 1);
		if (!f->kept) {
			snprintf(f->error, sizeof(f->error), "churn bitmap: %s", strerror(errno));
			return -1;
		}
	}
	fill(f);
	if (wl_stopping() || free_pattern(f) < 0)
		return -1;
	emit_buddyinfo("after");
	emit_ready(f);
	f->ready = true;
	return 0;
}

int main(int argc, char **argv)
{
	struct frag f = { 0 };
	struct wl_args a;
	uint64_t t0 = cb_now_ns();
	int ret;

	wl_json_init();
	ret = wl_args_parse(&a, &wl_frag_anon, argc, argv);
	if (ret == WL_ARGS_OK)
		ret = resolve(&f, &a);
	if (ret != WL_ARGS_OK)
		return ret == WL_ARGS_HELP ? 0 : 2;
	if (wl_signal_install() < 0) {
		perror("frag-anon: sigaction");
		return 1;
	}
	/* no swap: if memory runs out, the fragmenter is the process to lose */
	cb_write_string("/proc/self/oom_score_adj", "1000");
	emit_start(&f);
	if (fragment(&f) == 0)
		hold(&f);
	if (f.mem)
		munmap(f.mem, f.size);
	free(f.kept);
	emit_summary(&f, secs_since(t0));
	if (f.error[0]) {
		fprintf(stderr, "frag-anon: %s\n", f.error);
		return 1;
	}
	/* a signal during the hold is how a hold ends: success */
	return f.ready ? 0 : wl_signal_exit_code();
}
