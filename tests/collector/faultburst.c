// SPDX-License-Identifier: GPL-2.0-only
/*
 * faultburst - a page-fault load for the collector's tests and figures.
 *
 *   faultburst thp|base MB SECONDS
 *
 * Maps MB of anonymous memory (MADV_HUGEPAGE for thp, MADV_NOHUGEPAGE for base), touches
 * every 4 KiB page, unmaps, and repeats for SECONDS (0: once). Prints one JSON line with
 * the number of rounds and pages touched, the wall time and its own CPU time (user+sys,
 * which the benchmark takes off its recorder's rusage).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t len, off, pages = 0;
	struct rusage ru;
	double secs, t0;
	long rounds = 0;
	int thp;

	if (argc != 4) {
		fprintf(stderr, "usage: faultburst thp|base MB SECONDS\n");
		return 2;
	}
	thp = !strcmp(argv[1], "thp");
	len = strtoul(argv[2], NULL, 10) << 20;
	secs = strtod(argv[3], NULL);
	t0 = now();
	do {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		madvise(p, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
		for (off = 0; off < len; off += 4096) {
			p[off] = 1;
			pages++;
		}
		munmap(p, len);
		rounds++;
	} while (now() - t0 < secs);
	t0 = now() - t0;
	getrusage(RUSAGE_SELF, &ru);
	printf("{\"mode\":\"%s\",\"rounds\":%ld,\"pages\":%zu,\"seconds\":%.6f,\"cpu_s\":%.6f}\n",
	       argv[1], rounds, pages, t0, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}
