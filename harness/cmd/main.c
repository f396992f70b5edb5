// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - the `compactbench` command: one table of commands, git-style.
 */
#include "analyze.h"
#include "cmd.h"
#include "cmd_record.h"
#include "compare.h"
#include "version.h"

#include <stdio.h>
#include <string.h>

struct cb_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct cb_command commands[] = {
	{ "run", cmd_run, "run a matrix config: every cell, then the table and the verdict" },
	{ "analyze", cmd_analyze, "(re)compute summaries and report.md of a run, or analyze a trace.dat" },
	{ "merge", cmd_merge, "join the run directories of shards (run --shard I/N) into one run" },
	{ "restore", cmd_restore, "put back knobs a killed run left changed" },
	{ "config", cmd_config, "check a config file, or print the key reference" },
	{ "record", cmd_record, "record compaction events around a command into trace.dat" },
	{ "compare", cmd_compare, "compare runs: every metric, delta, CI, p-value" },
	{ "gate", cmd_gate, "CI gate on stall-latency regressions" },
	{ "plot", cmd_plot, "gnuplot charts of runs" },
	{ "kernel", cmd_kernel, "build a kernel from a recipe (for the qemu target)" },
	{ "agent", cmd_agent, "run one cell of a config here (what runs inside a target)" },
	{ NULL },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: compactbench [--version] [--help] <command> [<args>]\n\n"
		     "Does a compaction policy spare applications from direct compaction, and what\n"
		     "does it cost? Commands:\n\n");
	for (const struct cb_command *c = commands; c->name; c++)
		fprintf(out, "  %-9s %s\n", c->name, c->summary);
	fprintf(out, "\n'compactbench <command> --help' tells more about a command.\n");
}

int main(int argc, char **argv)
{
	const struct cb_command *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2) {
			char *sub[] = { argv[2], "--help", NULL };

			for (c = commands; c->name; c++)
				if (!strcmp(c->name, argv[2]))
					return c->fn(2, sub);
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("compactbench %s\n", CB_VERSION);
		return 0;
	}
	for (c = commands; c->name; c++) {
		if (!strcmp(c->name, argv[1]))
			return c->fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "compactbench: '%s' is not a command\n\n", argv[1]);
	usage(stderr);
	return 2;
}
