// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_opt.c - what the commands share to read their command lines (cmd.h). It sits in
 * libcbcmd, with the table and the commands that use it.
 */
#include "cmd.h"

#include <stdio.h>
#include <string.h>

int cb_command_bad_option(const char *cmd, int argc, char **argv, const char *const *known,
			  const char *usage)
{
	for (int i = 1; i < argc; i++) {
		const char *const *k = known;

		if (argv[i][0] != '-')
			continue;
		while (k && *k && strcmp(*k, argv[i]))
			k++;
		if (k && *k)
			continue;
		fprintf(stderr, "compactbench %s: unknown option '%s'\n", cmd, argv[i]);
		fputs(usage, stderr);
		return 2;
	}
	return 0;
}
