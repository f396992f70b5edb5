// SPDX-License-Identifier: GPL-2.0-only
/*
 * churn.c - keep re-fragmenting a fragmenter's memory at a set rate, with page-cache
 * traffic (churn.h says how).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "churn.h"
#include "util.h"
#include "wl_json.h"
#include "wl_signal.h"

#define PC_FILE_MAX (1ULL << 20) /* bytes per page-cache file */
#define PC_WRITE (64 << 10)	 /* bytes per write(2) */

/* churn_splitmix64 - the next value of splitmix64 from *@state (a seed means the same pages) */
uint64_t churn_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* whether the pattern of generation @gen (1 = after the first pass) keeps page @i */
static bool wants(const struct churn *c, uint64_t i, uint64_t gen)
{
	uint64_t s;

	if (!c->o.random)
		return (i + gen) % c->o.keep_every == 0;
	s = c->o.seed ^ (gen * 0xd1b54a32d192ed03ULL) ^ (i * 0x9e3779b97f4a7c15ULL);
	return churn_splitmix64(&s) % c->o.keep_every == 0;
}

/* free pages [a, b) that the next generation does not keep, contiguous runs in one call */
static int free_range(struct churn *c, uint64_t a, uint64_t b)
{
	uint64_t gen = c->cycle + 1, i, run = UINT64_MAX;

	for (i = a; i <= b; i++) {
		bool drop = i < b && churn_bit(c->o.kept, i) && !wants(c, i, gen);

		if (drop) {
			churn_set_bit(c->o.kept, i, false);
			if (run == UINT64_MAX)
				run = i;
			continue;
		}
		if (run == UINT64_MAX)
			continue;
		if (madvise(c->o.mem + run * c->o.page, (i - run) * c->o.page, MADV_DONTNEED) < 0) {
			snprintf(c->error, sizeof(c->error), "churn: madvise(MADV_DONTNEED): %s",
				 strerror(errno));
			return -1;
		}
		c->anon.freed += (i - run) * c->o.page;
		run = UINT64_MAX;
	}
	return 0;
}

/*
 * fault pages the next generation keeps until @budget bytes were allocated (or one whole
 * pass found nothing to do), then free what the scanned pages no longer keep
 */
static int anon_step(struct churn *c, uint64_t budget)
{
	uint64_t start = c->cursor, got = 0, scanned;

	for (scanned = 0; got < budget && scanned < c->o.npages; scanned++) {
		uint64_t i = c->cursor;

		if (wants(c, i, c->cycle + 1) && !churn_bit(c->o.kept, i)) {
			c->o.mem[i * c->o.page] = 1;
			churn_set_bit(c->o.kept, i, true);
			got += c->o.page;
		}
		if (++c->cursor == c->o.npages) {
			if (free_range(c, start, c->o.npages) < 0)
				return -1;
			c->cursor = start = 0;
			c->cycle++;
		}
	}
	c->anon.done += got;
	return free_range(c, start, c->cursor);
}

static void pc_name(char *buf, size_t size, uint64_t idx)
{
	snprintf(buf, size, "c%010llu", (unsigned long long)idx);
}

/* delete the oldest closed files while more than pc_hold bytes are kept */
static void pc_trim(struct churn *c)
{
	char name[32];

	while (c->kept_bytes > c->o.pc_hold && c->tail < c->head) {
		pc_name(name, sizeof(name), c->tail++);
		if (unlinkat(c->dirfd, name, 0) == 0) {
			c->kept_bytes -= c->file_bytes;
			c->pc.freed += c->file_bytes;
		}
	}
}

/* write @budget bytes into the files, a new file every file_bytes */
static int pc_step(struct churn *c, uint64_t budget)
{
	char name[32];
	uint64_t got = 0;

	while (got < budget) {
		size_t n = PC_WRITE;
		ssize_t w;

		if (c->fd < 0) {
			pc_name(name, sizeof(name), c->head);
			c->fd = openat(c->dirfd, name, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0600);
			if (c->fd < 0)
				goto fail;
			c->cur_bytes = 0;
		}
		if (n > c->file_bytes - c->cur_bytes)
			n = (size_t)(c->file_bytes - c->cur_bytes);
		if (n > budget - got)
			n = (size_t)(budget - got);
		w = write(c->fd, c->buf, n);
		if (w <= 0)
			goto fail;
		got += (uint64_t)w;
		c->cur_bytes += (uint64_t)w;
		c->kept_bytes += (uint64_t)w;
		if (c->cur_bytes == c->file_bytes) {
			close(c->fd);
			c->fd = -1;
			c->head++;
			pc_trim(c);
		}
	}
	c->pc.done += got;
	return 0;
fail:
	snprintf(c->error, sizeof(c->error), "churn: writing %s/%s: %s", c->pc_dir, name,
		 strerror(errno ? errno : ENOSPC));
	c->pc.done += got;
	return -1;
}

/* the pool's mapping: base pages, reserved lazily, with its residency vector */
static int pool_map(struct churn *c)
{
	c->pool_pages = c->o.pool_max / c->o.page;
	c->pool_vec = malloc(c->pool_pages);
	c->pool_mem = mmap(NULL, c->o.pool_max, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (c->pool_mem == MAP_FAILED || !c->pool_vec) {
		c->pool_mem = NULL;
		snprintf(c->error, sizeof(c->error), "churn: mapping the pool: %s", strerror(errno));
		return -1;
	}
	if (madvise(c->pool_mem, c->o.pool_max, MADV_NOHUGEPAGE) < 0 && errno != EINVAL) {
		snprintf(c->error, sizeof(c->error), "churn: madvise(MADV_NOHUGEPAGE): %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* madvise @advice on the pool's pages [a, b); -1 with c->error set */
static int pool_advise(struct churn *c, uint64_t a, uint64_t b, int advice)
{
	if (b > a && madvise(c->pool_mem + a * c->o.page, (b - a) * c->o.page, advice) < 0) {
		snprintf(c->error, sizeof(c->error), "churn: madvise(%s) on the pool: %s",
			 advice == MADV_FREE ? "MADV_FREE" : "MADV_DONTNEED", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * walk the pool's ring from its cursor: growing, write (and then MADV_FREE) pages that are
 * not resident until @want bytes were written; shrinking, drop resident ones until @want
 * bytes were dropped. One pass at most.
 */
static int pool_walk(struct churn *c, uint64_t want, bool grow)
{
	uint64_t done = 0, n, i, run = UINT64_MAX;
	int advice = grow ? MADV_FREE : MADV_DONTNEED;

	for (n = 0; n <= c->pool_pages; n++) {
		bool last = n == c->pool_pages || done >= want;
		bool take = !last && !(c->pool_vec[c->pool_cursor] & 1) == grow;

		i = c->pool_cursor;
		if (take) {
			if (grow)
				c->pool_mem[i * c->o.page] = 1;
			done += c->o.page;
			if (run == UINT64_MAX)
				run = i;
		}
		if (run != UINT64_MAX && (!take || last || i + 1 == c->pool_pages)) {
			if (pool_advise(c, run, take ? i + 1 : i, advice) < 0)
				return -1;
			run = UINT64_MAX;
		}
		if (last)
			break;
		c->pool_cursor = (i + 1) % c->pool_pages;
	}
	if (grow)
		c->pool_grown += done;
	else
		c->pool_shrunk += done;
	return 0;
}

/* the pool's residency (mincore) into pool_vec and pool_bytes; -1 with c->error set */
static int pool_resident(struct churn *c)
{
	uint64_t i;

	if (mincore(c->pool_mem, c->o.pool_max, c->pool_vec) < 0) {
		snprintf(c->error, sizeof(c->error), "churn: mincore: %s", strerror(errno));
		return -1;
	}
	for (c->pool_bytes = 0, i = 0; i < c->pool_pages; i++)
		c->pool_bytes += (c->pool_vec[i] & 1) * c->o.page;
	if (c->pool_bytes > c->pool_peak)
		c->pool_peak = c->pool_bytes;
	return 0;
}

/*
 * keep MemFree near the target: write pool pages while it is above by more than 1/16 of
 * the target (the kernel may reclaim them, MADV_FREE), drop some at once while it is below
 * by more than 1/8; in between, nothing (not even mincore: a tick stays cheap)
 */
static int pool_step(struct churn *c)
{
	long long kb = cb_meminfo_kb(NULL, "MemFree");
	uint64_t t = c->o.free_target, want;

	if (kb < 0) {
		snprintf(c->error, sizeof(c->error), "churn: MemFree: %s", strerror(errno));
		return -1;
	}
	c->mem_free = kb * 1024;
	if ((uint64_t)c->mem_free > t + t / 16) {
		want = (uint64_t)c->mem_free - t;
		if (want > CHURN_POOL_STEP)
			want = CHURN_POOL_STEP;
		if (pool_resident(c) < 0)
			return -1;
		if (c->pool_bytes < c->o.pool_max)
			return pool_walk(c, want, true);
	} else if ((uint64_t)c->mem_free + t / 8 < t) {
		if (pool_resident(c) < 0)
			return -1;
		return pool_walk(c, t - (uint64_t)c->mem_free, false);
	}
	return 0;
}

/*
 * churn_start - set @c up from @o (copied; o->kept stays the caller's) and make the
 * page-cache directory. Returns 0, or -1 with c->error set.
 */
int churn_start(struct churn *c, const struct churn_opts *o)
{
	memset(c, 0, sizeof(*c));
	c->o = *o;
	c->dirfd = c->fd = -1;
	c->t0 = c->last_report_ns = cb_now_ns();
	c->mem_free = -1;
	if (o->free_target && o->pool_max && pool_map(c) < 0)
		return -1;
	if (o->pc_rate_bps <= 0)
		return 0;
	c->file_bytes = o->pc_hold / 2 < PC_FILE_MAX ? o->pc_hold / 2 : PC_FILE_MAX;
	c->file_bytes -= c->file_bytes % o->page;
	if (c->file_bytes < o->page)
		c->file_bytes = o->page;
	c->buf = malloc(PC_WRITE);
	snprintf(c->pc_dir, sizeof(c->pc_dir), "%s/frag-anon-churn.XXXXXX", o->dir);
	if (!c->buf || !mkdtemp(c->pc_dir) ||
	    (c->dirfd = open(c->pc_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		snprintf(c->error, sizeof(c->error), "churn: cannot make a directory in %s: %s",
			 o->dir, strerror(errno));
		return -1;
	}
	memset(c->buf, 0x5a, PC_WRITE);
	return 0;
}

/* the keys of a "churn" or "churn_summary" line: @done bytes (@freed) over @secs */
static void add_counts(struct json_object *o, const char *prefix, double set_bps, uint64_t done,
		       uint64_t freed, double secs)
{
	char key[64];

	snprintf(key, sizeof(key), "%srate_set_bps", prefix);
	wl_json_real(o, key, set_bps);
	snprintf(key, sizeof(key), "%srate_bps", prefix);
	wl_json_real(o, key, secs > 0 ? (double)done / secs : 0.0);
	snprintf(key, sizeof(key), "%sfreed_bytes", prefix);
	wl_json_int(o, key, (int64_t)freed);
}

/* a churn line of what happened since the last one (@type "churn") or since the start */
static void emit(struct churn *c, const char *type, uint64_t now)
{
	bool whole = strcmp(type, "churn") != 0;
	struct json_object *o = wl_json_new(type);
	uint64_t since = whole ? c->t0 : c->last_report_ns;
	uint64_t a = c->anon.done - (whole ? 0 : c->anon.reported);
	uint64_t af = c->anon.freed - (whole ? 0 : c->anon.reported_freed);
	uint64_t p = c->pc.done - (whole ? 0 : c->pc.reported);
	uint64_t pf = c->pc.freed - (whole ? 0 : c->pc.reported_freed);
	double secs = (double)(now - since) / 1e9;

	wl_json_int(o, "t_ns", (int64_t)now);
	wl_json_real(o, whole ? "duration_s" : "interval_s", secs);
	add_counts(o, "", c->o.rate_bps, a, af, secs);
	wl_json_int(o, "allocated_bytes", (int64_t)a);
	wl_json_int(o, "pagecache_bytes", (int64_t)p);
	add_counts(o, "pagecache_", c->o.pc_rate_bps, p, pf, secs);
	wl_json_int(o, "cycles", (int64_t)c->cycle);
	if (c->pool_mem) {
		pool_resident(c); /* fresh figures; a failure leaves the last ones */
		wl_json_int(o, "free_target_bytes", (int64_t)c->o.free_target);
		wl_json_int(o, "mem_free_bytes", c->mem_free);
		wl_json_int(o, "pool_resident_bytes", (int64_t)c->pool_bytes);
		wl_json_int(o, "pool_peak_bytes", (int64_t)c->pool_peak);
		wl_json_int(o, "pool_grown_bytes", (int64_t)c->pool_grown);
		wl_json_int(o, "pool_shrunk_bytes", (int64_t)c->pool_shrunk);
	}
	if (whole) {
		wl_json_int(o, "ticks", (int64_t)c->ticks);
		wl_json_str(o, "error", c->error[0] ? c->error : NULL);
	}
	wl_json_emit(o);
	if (!whole) {
		c->anon.reported = c->anon.done;
		c->anon.reported_freed = c->anon.freed;
		c->pc.reported = c->pc.done;
		c->pc.reported_freed = c->pc.freed;
		c->last_report_ns = now;
	}
}

/* the work of kind @k due at @now at @rate bytes/s, at most CHURN_CATCHUP_S of it */
static uint64_t due(const struct churn *c, const struct churn_count *k, double rate, uint64_t now)
{
	double target = rate * (double)(now - c->t0) / 1e9, cap = rate * CHURN_CATCHUP_S;
	double d = target - (double)k->done;

	if (d <= 0)
		return 0;
	return (uint64_t)(d < cap ? d : cap);
}

/*
 * churn_run - churn until CLOCK_MONOTONIC reaches @deadline_ns, a stop signal or an error,
 * printing a "churn" line every report period. Returns 1 at the deadline, 0 on a signal,
 * -1 on an error (c->error set). Bounded: one tick per CHURN_TICK_NS, each tick's work at
 * most CHURN_CATCHUP_S of the rates.
 */
int churn_run(struct churn *c, uint64_t deadline_ns)
{
	uint64_t report_ns = (uint64_t)(c->o.report_s * 1e9), now, next;

	for (now = cb_now_ns(); now < deadline_ns; now = cb_now_ns()) {
		uint64_t b = due(c, &c->anon, c->o.rate_bps, now);

		c->ticks++;
		if (c->pool_mem && pool_step(c) < 0)
			return -1;
		if (b && c->o.npages && anon_step(c, b) < 0)
			return -1;
		b = due(c, &c->pc, c->o.pc_rate_bps, now);
		if (b && pc_step(c, b) < 0)
			return -1;
		now = cb_now_ns();
		if (report_ns && now - c->last_report_ns >= report_ns)
			emit(c, "churn", now);
		next = now + CHURN_TICK_NS;
		if (!wl_sleep_until(next < deadline_ns ? next : deadline_ns))
			return 0;
	}
	return 1;
}

/* churn_finish - print the "churn_summary" line and remove the page-cache files */
void churn_finish(struct churn *c)
{
	uint64_t now = cb_now_ns();

	if (c->last_report_ns < now && c->ticks)
		emit(c, "churn", now);
	emit(c, "churn_summary", now);
	if (c->fd >= 0)
		close(c->fd);
	if (c->dirfd >= 0)
		close(c->dirfd);
	if (c->pc_dir[0] && !strstr(c->pc_dir, "XXXXXX"))
		cb_rm_rf(c->pc_dir);
	if (c->pool_mem)
		munmap(c->pool_mem, c->o.pool_max);
	c->pool_mem = NULL;
	free(c->pool_vec);
	c->pool_vec = NULL;
	free(c->buf);
	c->buf = NULL;
	c->fd = c->dirfd = -1;
}
