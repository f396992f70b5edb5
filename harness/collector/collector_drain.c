// SPDX-License-Identifier: GPL-2.0-only
/*
 * collector_drain.c - the collector's drain thread and final drain (see collector_int.h).
 *
 * drain: every poll_ms (at once again while pages keep coming) whole pages of every CPU
 *   go to spool_dir/<instance>.cpuN (splice by default, see CB_SPOOL_*).
 * final drain (tracing off, thread joined): "entries" of each CPU, the rest (partial pages
 *   too), each CPU's stats, then a pass over the spool pages' headers counting the pages
 *   the kernel flagged with missed events (RB_MISSED_EVENTS in the commit word, with the
 *   number of missed events stored after the data when RB_MISSED_STORED is set).
 */
#include "collector_int.h"
#include "rb_page.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#define PAGES_PER_TURN 64		/* pages taken from one CPU before visiting the next */

#define PAGE_HDR 16			/* u64 timestamp + u64 commit (64-bit kernels) */

static int drain_fail(struct cb_collector *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* the drain thread's error, reported by stop: errno kept, strerror appended; returns -1 */
static int drain_fail(struct cb_collector *c, const char *fmt, ...)
{
	int e = errno ? errno : EIO;
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->drain_err, sizeof(c->drain_err), fmt, ap);
	va_end(ap);
	len = strlen(c->drain_err);
	snprintf(c->drain_err + len, sizeof(c->drain_err) - len, ": %s", strerror(e));
	c->drain_errno = e;
	errno = e;
	return -1;
}

/* bytes of events in a ring-buffer page (64-bit commit field, without the flag bits) */
static uint64_t page_len(const void *page)
{
	uint64_t commit;

	memcpy(&commit, (const char *)page + 8, 8);
	return commit & RB_COMMIT_MASK;
}

/*
 * move up to @max pages of one CPU to its spool (@flush: partial pages too, once tracing
 * is off); *@more says whether it stopped at @max with pages left. Returns the pages
 * moved, or -1 with drain_err set.
 */
static int drain_cpu(struct cb_collector *c, int cpu, void *buf, int max, bool flush, bool *more)
{
	struct cb_collector_cpu *s = &c->cpu[cpu];
	bool caught_up = false;
	int n, moved = 0;

	while (moved < max && !caught_up) {
		if (c->spool == CB_SPOOL_READ || flush) {
			n = flush ? tracefs_cpu_flush(s->tcpu, buf) : tracefs_cpu_read(s->tcpu, buf, true);
			if (n < 0 && errno == EAGAIN)
				n = 0;
			if (n > 0) {
				/* a short read is still a page: keep the spool page-aligned */
				if (n < c->page_size)
					memset((char *)buf + n, 0, c->page_size - n);
				/* read(2) hands out pages before they are full: then we are caught up */
				caught_up = !flush && page_len(buf) < (uint64_t)c->page_size / 2;
				errno = ENOSPC;	/* a short write to a regular file: disk full */
				n = write(s->fd, buf, c->page_size) == c->page_size ? c->page_size : -1;
			}
		} else {
			n = tracefs_cpu_write(s->tcpu, s->fd, true);
			if (n < 0 && errno == EAGAIN)
				n = 0;
		}
		if (n < 0)
			return drain_fail(c, "moving CPU %d's pages to %s", cpu, s->path);
		if (n == 0)
			break;
		s->bytes += n;
		moved += (n + c->page_size - 1) / c->page_size;
	}
	*more = moved >= max && !caught_up;
	return moved;
}

/*
 * passes over all CPUs: in the drain thread, again at once while a CPU had more than one
 * turn's worth; @to_empty: until nothing is left; @flush: partial pages too.
 * Returns the pages moved, or -1.
 */
static long drain_all(struct cb_collector *c, void *buf, bool to_empty, bool flush)
{
	long total = 0, got;
	bool more = false, again;
	int cpu, n;

	do {
		got = 0;
		again = false;
		for (cpu = 0; cpu < c->nr_cpus; cpu++) {
			if (!c->cpu[cpu].tcpu)
				continue;
			n = drain_cpu(c, cpu, buf, PAGES_PER_TURN, flush, &more);
			if (n < 0)
				return -1;
			got += n;
			again |= more;
		}
		total += got;
	} while (to_empty ? got > 0 : again && !atomic_load(&c->stop));
	return total;
}

static void *drain_main(void *arg)
{
	struct cb_collector *c = arg;
	struct pollfd pfd = { .fd = c->wake_fd, .events = POLLIN };
	struct timespec ts;
	void *buf = malloc(c->page_size);

	if (!buf)
		drain_fail(c, "drain thread");
	while (buf && !atomic_load(&c->stop)) {
		if (drain_all(c, buf, false, false) < 0)
			break;
		if (poll(&pfd, 1, c->poll_ms) < 0 && errno != EINTR) {
			drain_fail(c, "drain thread: poll");
			break;
		}
	}
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
		c->drain_cpu_ns = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	free(buf);
	return NULL;
}

int cb_collector_drain_start(struct cb_collector *c)
{
	errno = pthread_create(&c->thread, NULL, drain_main, c);
	if (errno)
		return cb_collector_set_err(c, -EAGAIN, "cannot start the drain thread");
	c->thread_started = true;
	return 0;
}

void cb_collector_drain_stop(struct cb_collector *c)
{
	uint64_t one = 1;

	if (!c->thread_started)
		return;
	atomic_store(&c->stop, true);
	if (write(c->wake_fd, &one, sizeof(one)) < 0)
		one = 0;	/* the thread still sees the flag within poll_ms */
	pthread_join(c->thread, NULL);
	c->thread_started = false;
}

static uint64_t stat_value(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return strtoull(p + klen + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static char *read_cpu_stats(struct cb_collector *c, int cpu)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
	return tracefs_instance_file_read(c->inst, rel, NULL);
}

/* scan_missed() where the spool cannot be mapped: a pread of each page's header */
static int scan_missed_pread(struct cb_collector *c, int cpu, struct cb_collector_cpu_stats *cs)
{
	struct cb_collector_cpu *s = &c->cpu[cpu];
	unsigned char hdr[PAGE_HDR];
	uint64_t off, commit, len, count;

	for (off = 0; off + c->page_size <= s->bytes; off += c->page_size) {
		if (pread(s->fd, hdr, sizeof(hdr), off) != (ssize_t)sizeof(hdr)) {
			errno = errno ? errno : EIO;
			return cb_collector_set_err(c, -EIO, "reading spool file %s", s->path);
		}
		memcpy(&commit, hdr + 8, 8);
		if (!(commit & RB_MISSED_EVENTS))
			continue;
		cs->missed_pages++;
		len = commit & RB_COMMIT_MASK;
		if ((commit & RB_MISSED_STORED) && PAGE_HDR + len + 8 <= (uint64_t)c->page_size &&
		    pread(s->fd, &count, 8, off + PAGE_HDR + len) == 8)
			cs->missed_events += count;
	}
	return 0;
}

/*
 * the pages of one spool file the kernel flagged with missed events: walks each page's
 * header (and the stored count after the data when there is one) through one read-only
 * mapping of the file, not a pread per page. Returns 0 or -1.
 */
static int scan_missed(struct cb_collector *c, int cpu, struct cb_collector_cpu_stats *cs)
{
	struct cb_collector_cpu *s = &c->cpu[cpu];
	uint64_t off, commit, len, count, size = s->bytes / c->page_size * c->page_size;
	const unsigned char *map;

	if (!size)
		return 0;
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, s->fd, 0);
	if (map == MAP_FAILED)
		return scan_missed_pread(c, cpu, cs);	/* 9p (the guest's run dir) cannot map */
	madvise((void *)map, size, MADV_SEQUENTIAL);
	for (off = 0; off < size; off += c->page_size) {
		memcpy(&commit, map + off + 8, 8);
		if (!(commit & RB_MISSED_EVENTS))
			continue;
		cs->missed_pages++;
		len = commit & RB_COMMIT_MASK;
		if ((commit & RB_MISSED_STORED) && PAGE_HDR + len + 8 <= (uint64_t)c->page_size) {
			memcpy(&count, map + off + PAGE_HDR + len, 8);
			cs->missed_events += count;
		}
	}
	munmap((void *)map, size);
	return 0;
}

int cb_collector_final_drain(struct cb_collector *c)
{
	struct cb_collector_stats *st = &c->stats;
	void *buf = malloc(c->page_size);
	int i;

	if (!buf)
		return cb_collector_set_err(c, ENOMEM, "out of memory");
	for (i = 0; i < c->nr_cpus; i++) {
		char *s = c->cpu[i].tcpu ? read_cpu_stats(c, i) : NULL;

		c->cstats[i].entries = stat_value(s, "entries");
		free(s);
	}
	/* full pages the usual way first, then what is left in partial pages */
	i = drain_all(c, buf, true, false) < 0 || drain_all(c, buf, true, true) < 0;
	free(buf);
	if (i)
		return cb_collector_set_err(c, c->drain_errno, "%s", c->drain_err);
	for (i = 0; i < c->nr_cpus; i++) {
		struct cb_collector_cpu_stats *cs = &c->cstats[i];
		char *s = c->cpu[i].tcpu ? read_cpu_stats(c, i) : NULL;

		cs->overrun = stat_value(s, "overrun");
		cs->commit_overrun = stat_value(s, "commit overrun");
		cs->dropped_events = stat_value(s, "dropped events");
		cs->read_events = stat_value(s, "read events");
		cs->bytes_written = c->cpu[i].bytes;
		c->cpu[i].stats_text = s;
		if (c->cpu[i].fd >= 0 && scan_missed(c, i, cs) < 0)
			return -1;
		st->lost += cs->overrun + cs->commit_overrun + cs->dropped_events;
		st->entries_read += cs->read_events;
		st->missed_pages += cs->missed_pages;
		st->missed_events += cs->missed_events;
	}
	return 0;
}
