// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - the `compactbench` command: the table of commands (cmd.c), git-style.
 */
#include "cmd.h"
#include "target.h"
#include "policy.h"
#include "version.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
	fprintf(out, "usage: compactbench [--version] [--help] <command> [<args>]\n\n"
		     "Does a compaction policy spare applications from direct compaction, and what\n"
		     "does it cost? Commands:\n\n");
	for (const struct cb_command *c = cb_commands; c->name; c++)
		fprintf(out, "  %-9s %s\n", c->name, c->summary);
	fprintf(out, "\n'compactbench <command> --help' tells more about a command.\n");
}

int main(int argc, char **argv)
{
	const struct cb_command *c;

	cb_targets_register();
	cb_policies_register();
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc == 3 && !strcmp(argv[2], "--markdown")) {
			cb_commands_markdown(stdout); /* README's command table */
			return 0;
		}
		c = argc > 2 ? cb_command_find(argv[2]) : NULL;
		if (c) {
			char *sub[] = { argv[2], "--help", NULL };

			return c->fn(2, sub);
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("compactbench %s\n", CB_VERSION);
		return 0;
	}
	c = cb_command_find(argv[1]);
	if (c)
		return cb_command_run(c, argc - 1, argv + 1);
	fprintf(stderr, "compactbench: '%s' is not a command\n\n", argv[1]);
	usage(stderr);
	return 2;
}
