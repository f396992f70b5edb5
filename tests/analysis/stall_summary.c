// SPDX-License-Identifier: GPL-2.0-only
/*
 * stall_summary.c - print the direct compaction stall summary of trace.dat files, without
 * the compactbench CLI: `stall_summary [--format json] FILE.dat...` (what
 * `compactbench analyze FILE.dat` prints). Exit 0, or 2 on the first bad file.
 */
#include <stdio.h>
#include <string.h>

#include "analyze.h"

int main(int argc, char **argv)
{
	const char *format = "text";
	int i, ret = 0;

	for (i = 1; i < argc && !ret; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 < argc) {
			format = argv[++i];
			continue;
		}
		char *args[] = { (char *)"analyze", argv[i], (char *)"--format", (char *)format,
				 NULL };

		ret = cmd_analyze(4, args);
		fflush(stdout);
	}
	return argc < 2 ? 2 : ret;
}
