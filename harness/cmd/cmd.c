// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd.c - the table of commands and the one place that checks, before a command runs,
 * what its row says it needs (cmd.h).
 *
 * No row sets a flag yet: the commands that need root or tracefs need them only for part
 * of their work, after their own checks of the command line (run needs root only when
 * cells are left to run, restore only when the journal lists knobs, record says so itself
 * when its tracefs instance cannot be made), so a refusal before dispatch would change
 * what they answer. A command that cannot do anything without one sets the flag.
 */
#include "cmd.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct cb_command cb_commands[] = {
	{ "run", cmd_run, "run a matrix config: every cell, then the table and the verdict" },
	{ "analyze", cmd_analyze,
	  "(re)compute summaries and report.md of a run, or analyze a trace.dat" },
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

const struct cb_command *cb_command_find(const char *name)
{
	for (const struct cb_command *c = cb_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* whether tracefs is mounted where the kernel puts it (or under debugfs, older kernels) */
static int tracefs_mounted(void)
{
	struct stat st;

	return !stat("/sys/kernel/tracing/trace_marker", &st) ||
	       !stat("/sys/kernel/debug/tracing/trace_marker", &st);
}

int cb_command_check(const struct cb_command *c, char *why, size_t len)
{
	if ((c->flags & CB_CMD_ROOT) && geteuid() != 0) {
		snprintf(why, len, "compactbench %s: it changes sysctls: run as root", c->name);
		return -1;
	}
	if ((c->flags & CB_CMD_TRACEFS) && !tracefs_mounted()) {
		snprintf(why, len, "compactbench %s: it traces the kernel, but tracefs is not "
			 "mounted (mount -t tracefs nodev /sys/kernel/tracing)", c->name);
		return -1;
	}
	return 0;
}

int cb_command_run(const struct cb_command *c, int argc, char **argv)
{
	char why[256];

	if (cb_command_check(c, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	return c->fn(argc, argv);
}
