// SPDX-License-Identifier: GPL-2.0-only
/*
 * forkexec - a deterministic load for comparing recorders: N fork+exec of /bin/true (one
 * at a time), then MB MiB of MADV_HUGEPAGE memory faulted once (one order-9 allocation per
 * 2 MiB where a free block exists), then exit with STATUS.
 *
 *   forkexec N MB [STATUS]
 *
 * Prints one JSON line: {"forks":N,"thp_mb":MB,"failed":F}.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n, mb, i, failed = 0;
	size_t len, off;
	char *p;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: forkexec N MB [STATUS]\n");
		return 2;
	}
	n = strtol(argv[1], NULL, 10);
	mb = strtol(argv[2], NULL, 10);
	for (i = 0; i < n; i++) {
		int st;
		pid_t pid = fork();

		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || st)
			failed++;
	}
	if (mb > 0) {
		len = (size_t)mb << 20;
		/* 2 MiB aligned, so every 2 MiB of the range can be a huge page */
		p = mmap(NULL, len + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		p = (char *)(((unsigned long)p + (2 << 20) - 1) & ~((2UL << 20) - 1));
		madvise(p, len, MADV_HUGEPAGE);
		for (off = 0; off < len; off += 4096)
			p[off] = 1;
	}
	printf("{\"forks\":%ld,\"thp_mb\":%ld,\"failed\":%ld}\n", n, mb, failed);
	return argc > 3 ? atoi(argv[3]) : 0;
}
