/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * churn.h - keep re-fragmenting a fragmenter's memory at a set rate (frag-anon's
 * --churn-rate), with page-cache traffic beside it (--churn-pagecache).
 *
 * The anonymous churn walks the fragmenter's pages as a ring. Each pass (a "cycle") moves
 * the pattern of kept pages: every-other and 1-in-N shift it by one page, random draws a new
 * set. On its way it first faults the pages the new pattern keeps and the old one did not
 * (allocations the kernel serves from its free lists, so they may split free blocks), then
 * frees the pages the old pattern kept and the new one does not: memory held stays the
 * same, the physical pages behind it keep changing. The page-cache churn writes files in a
 * directory of its own and deletes the oldest once more than a set amount is kept.
 *
 * Both are rate-controlled against the clock: at time t since the churn began, the work
 * done is brought up to rate * t, at most CHURN_CATCHUP_S of work per tick, so a machine
 * that cannot keep up shows a measured rate below the set one (and says so).
 *
 * A churn that frees what it allocates mostly gets its own freed pages back: the buddy
 * allocator serves a base page from the smallest free block, so larger free blocks (those
 * a demand wave freed, those compaction made) survive while small ones last. The free
 * target (--churn-free-target) closes that gap the way page cache does on a real machine:
 * a pool of base pages grows while MemFree is above the target (taking the small free
 * blocks first, then splitting larger ones) when MemFree is above the target by more than a
 * sixteenth, at most CHURN_POOL_STEP per tick. Its pages
 * are MADV_FREE once written, so the kernel reclaims them under pressure like clean page
 * cache (no swap needed, no OOM kill when a wave comes faster than a tick); the churn also
 * drops pool pages itself when MemFree falls below the target by more than an eighth.
 */
#ifndef CB_CHURN_H
#define CB_CHURN_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <limits.h>

#define CHURN_TICK_NS 20000000ULL /* 20 ms between two rate checks */
#define CHURN_CATCHUP_S 0.25	  /* at most this much of the rate's work per tick */
#define CHURN_POOL_STEP (16ULL << 20) /* most bytes the pool grows by per tick */

struct churn_opts {
	double rate_bps;	/* anonymous bytes re-allocated per second (0: none) */
	double pc_rate_bps;	/* page-cache bytes written per second (0: none) */
	uint64_t pc_hold;	/* most page-cache bytes kept in files at once */
	const char *dir;	/* where the page-cache directory is made */
	double report_s;	/* period of the "churn" lines */
	uint64_t free_target;	/* keep MemFree near this with the pool (0: no pool) */
	uint64_t pool_max;	/* most bytes the pool holds */
	/* the fragmenter's memory: @npages pages of @page bytes at @mem, @kept its bitmap */
	char *mem;
	uint64_t npages;
	size_t page;
	uint8_t *kept;
	uint64_t keep_every;	/* N of the pattern (2: every-other) */
	bool random;		/* keep each page with probability 1/N, else rotate */
	uint64_t seed;
};

/* work of one kind: what was done, what the last report had seen */
struct churn_count {
	uint64_t done, freed, reported, reported_freed;
};

struct churn {
	struct churn_opts o;
	uint64_t t0, last_report_ns, cycle, cursor, ticks;
	struct churn_count anon, pc;
	/* the page-cache files: indexes [tail, head) exist, head is being written */
	char pc_dir[PATH_MAX];
	int dirfd, fd;
	uint64_t head, tail, file_bytes, cur_bytes, kept_bytes;
	/* the pool (free target): a ring of pool_pages pages, pool_bytes of them resident */
	char *pool_mem;
	unsigned char *pool_vec; /* mincore's answer */
	uint64_t pool_pages, pool_cursor, pool_bytes, pool_grown, pool_shrunk, pool_peak;
	long long mem_free;	/* MemFree in bytes at the last tick, -1 if unread */
	char *buf;
	char error[256];
};

/* churn_splitmix64 - the next value of splitmix64 from *@state (a seed means the same pages) */
uint64_t churn_splitmix64(uint64_t *state);

/*
 * churn_bit - whether page @i is set in bitmap @bm; churn_set_bit - set or clear it
 */
static inline bool churn_bit(const uint8_t *bm, uint64_t i)
{
	return bm[i >> 3] & (1u << (i & 7));
}

static inline void churn_set_bit(uint8_t *bm, uint64_t i, bool v)
{
	if (v)
		bm[i >> 3] |= (uint8_t)(1u << (i & 7));
	else
		bm[i >> 3] &= (uint8_t)~(1u << (i & 7));
}

/*
 * churn_start - set @c up from @o (copied; o->kept stays the caller's) and make the
 * page-cache directory. Returns 0, or -1 with c->error set.
 */
int churn_start(struct churn *c, const struct churn_opts *o);

/*
 * churn_run - churn until CLOCK_MONOTONIC reaches @deadline_ns, a stop signal or an error,
 * printing a "churn" line every report period. Returns 1 at the deadline, 0 on a signal,
 * -1 on an error (c->error set).
 */
int churn_run(struct churn *c, uint64_t deadline_ns);

/* churn_finish - print the "churn_summary" line and remove the page-cache files */
void churn_finish(struct churn *c);

#endif
