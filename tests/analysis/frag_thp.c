// SPDX-License-Identifier: GPL-2.0-only
/*
 * frag_thp.c - make real direct compaction happen, to record analyzer fixtures.
 *
 * Copies /proc/vmstat to BEFORE, fills a fraction of MemAvailable with base pages
 * (MADV_NOHUGEPAGE), touches every page, frees one 4 KiB page in every STRIDE (default 2:
 * every other page) with MADV_DONTNEED, so free memory is all holes; then maps THP_MIB MiB
 * with MADV_HUGEPAGE and touches one byte per 2 MiB (with THP defrag "madvise" each fault
 * that finds no free 2 MiB block compacts directly), copies /proc/vmstat to AFTER and
 * reports how many regions are huge. The vmstat window covers the whole program, so under
 * a tracer started just before it the two see the same activity but for the tracer's own
 * start and stop:
 *
 *   trace-cmd-here record -e compaction ... -o x.dat -- \
 *           frag_thp 0.9 512 before after [STRIDE]
 *
 * Not a test on its own: it takes most of the machine's memory for a few seconds (other
 * processes may be pushed into reclaim or, at high fill fractions, the OOM killer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

#define HPAGE (2UL << 20)

static int copy_vmstat(const char *dst)
{
	size_t len;
	char *s = cb_read_file("/proc/vmstat", &len);
	int ret;

	if (!s)
		return -1;
	ret = cb_write_file_atomic(dst, s, len);
	free(s);
	return ret;
}

/* count the huge pages backing [p, p + len) from /proc/self/smaps AnonHugePages */
static long anon_huge_kb(void *p)
{
	char *s = cb_read_file("/proc/self/smaps", NULL), *line, *save = NULL;
	unsigned long start = (unsigned long)p, a, b;
	long kb = -1;
	int in = 0;

	if (!s)
		return -1;
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%lx-%lx ", &a, &b) == 2) {
			in = (a <= start && start < b);
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	free(s);
	return kb;
}

int main(int argc, char **argv)
{
	double frac;
	unsigned long fill, thp, off, stride = 2, page = sysconf(_SC_PAGESIZE);
	long long avail;
	char *a, *h, *hal;
	long kb;
	struct timespec t0, t1;

	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: %s FILL_FRACTION THP_MIB VMSTAT_BEFORE VMSTAT_AFTER [STRIDE]\n",
			argv[0]);
		return 2;
	}
	if (argc == 6)
		stride = strtoul(argv[5], NULL, 10);
	frac = strtod(argv[1], NULL);
	thp = strtoul(argv[2], NULL, 10) << 20;
	avail = cb_meminfo_kb(NULL, "MemAvailable");
	if (frac <= 0 || frac > 0.98 || !thp || avail < 0 || stride < 2) {
		fprintf(stderr, "frag_thp: bad arguments or no MemAvailable\n");
		return 2;
	}
	fill = (unsigned long)(avail * 1024.0 * frac) & ~(HPAGE - 1);
	if (copy_vmstat(argv[3])) {
		perror(argv[3]);
		return 1;
	}
	a = mmap(NULL, fill, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED || madvise(a, fill, MADV_NOHUGEPAGE)) {
		perror("frag_thp: fill mmap");
		return 1;
	}
	for (off = 0; off < fill; off += page)
		a[off] = 1;
	for (off = 0; off < fill; off += stride * page)
		madvise(a + off, page, MADV_DONTNEED);
	fprintf(stderr, "frag_thp: filled %lu MiB, freed one page in %lu\n", fill >> 20, stride);

	h = mmap(NULL, thp + HPAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (h == MAP_FAILED) {
		perror("frag_thp: thp mmap");
		return 1;
	}
	hal = (char *)(((unsigned long)h + HPAGE - 1) & ~(HPAGE - 1));
	if (madvise(hal, thp, MADV_HUGEPAGE)) {
		perror("frag_thp: MADV_HUGEPAGE");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (off = 0; off < thp; off += HPAGE)
		hal[off] = 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (copy_vmstat(argv[4])) {
		perror(argv[4]);
		return 1;
	}
	kb = anon_huge_kb(hal);
	fprintf(stderr, "frag_thp: %lu regions faulted in %.3f s, %ld of them huge\n",
		thp / HPAGE, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
		kb < 0 ? -1 : kb / 2048);
	return 0;
}
