// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd.c - the table of commands, README's command table made from it (cb_commands_markdown)
 * and the one place that checks, before a command runs, what its row says it needs (cmd.h).
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
	{ "run", cmd_run, "run a matrix config: every cell, then the table and the verdict",
	  .doc = { { "run CONFIG [-o DIR] [--resume] [--shard I/N] [--reps N] [--quick] "
		     "[--target host] [--jobs N]", NULL,
		     "every cell of the matrix, then the table, the verdict and `report.md`; "
		     "`--resume` continues DIR on the booted kernel, `--shard` runs one N-th of the "
		     "cells, `--jobs` up to N QEMU cells at once "
		     "([below](#how-long-a-run-takes-and-a-bigger-machine))" } } },
	{ "analyze", cmd_analyze,
	  "(re)compute summaries and report.md of a run, or analyze a trace.dat",
	  .doc = { { "analyze DIR [--format json]", NULL,
		     "recompute every `summary.json` and `report.md` of a run from what is on disk "
		     "(plot's Charts section kept); JSON: every cell with its summary" },
		   { "analyze FILE.dat [--all] [--format text|json]", NULL,
		     "one trace, also one `trace-cmd record` made elsewhere, for a person: stalls in "
		     "ms/us, who compacted, a log2 latency histogram per order and origin, background "
		     "work; `--all` every metric, JSON every figure" } } },
	{ "merge", cmd_merge, "join the run directories of shards (run --shard I/N) into one run",
	  .doc = { { "merge OUT DIR...", NULL,
		     "join the run directories of shards into one run (refuses other configs or "
		     "tool versions)" } } },
	{ "restore", cmd_restore, "put back knobs a killed run left changed",
	  .doc = { { "restore", NULL,
		     "put back knobs a killed run left changed (a run also does it at its start)" } } },
	{ "config", cmd_config, "check a config file, or print the key reference",
	  .doc = { { "config check CONFIG", "config doc",
		     "check a config and list its cells / print the key reference" } } },
	{ "record", cmd_record, "record compaction events around a command into trace.dat",
	  .doc = { { "record [-o FILE] [-e EVENT]... [--no-probes] -- CMD [ARGS]", NULL,
		     "our collector around any command: trace.dat that `trace-cmd report` reads; "
		     "exits with CMD's status" } } },
	{ "compare", cmd_compare, "compare runs: every metric, delta, CI, p-value",
	  .doc = { { "compare DIR_A [DIR_B...] [--kernels A,B] [--all] "
		     "[--format text|markdown|json]", NULL,
		     "the key metrics (`--all`: every one), baseline vs candidate: medians over "
		     "repetitions, change, 95% CI, p, and better/worse or the detectable change; "
		     "\"direct compaction avoided\"; drift" } } },
	{ "gate", cmd_gate, "CI gate on stall-latency regressions",
	  .doc = { { "gate --baseline A --candidate B [--metric M]... [--max-regress 10%] "
		     "[--max-mde PCT] [--junit FILE] [--summary-md FILE]", NULL,
		     "CI gate: pass, regression or inconclusive (exit 0, 1, 3: the exit status "
		     "below); JUnit XML and a markdown summary" } } },
	{ "plot", cmd_plot, "gnuplot charts of runs",
	  .doc = { { "plot DIR [DIR...]", NULL,
		     "gnuplot charts (SVG, the same picture as PNG by rsvg-convert, and each "
		     "one's numbers in CHART.dat) into "
		     "DIR/charts: a panel per workload, a colour per setting, 95% CIs; latency "
		     "CDFs; stalls by order and origin; cost against benefit; a timeline of each "
		     "group's median cell (free blocks, stalls, the waves of recurring demand "
		     "shaded, compaction runs by attribution); stall time per wave (the "
		     "learning curve). Writes report.html: verdict, tables, contents, charts" } } },
	{ "kernel", cmd_kernel, "build a kernel from a recipe (for the qemu target)",
	  .doc = { { "kernel build configs/kernels/NAME.ini", NULL,
		     "build a kernel from a recipe (cached bzImage) for the qemu target",
		     "form" } } },
	{ "agent", cmd_agent, "run one cell of a config here (what runs inside a target)",
	  .doc = { { "agent [--quick] [--target NAME] CONFIG CELL DIR", NULL,
		     "run one cell here: what the qemu target starts inside the guest and the ssh "
		     "target on the lab machine" } } },
	{ NULL },
};

/* @s to @out with every '|' escaped, as a markdown table cell needs */
static void md_cell(FILE *out, const char *s)
{
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : (char[]){ *s, '\0' }, out);
}

void cb_commands_markdown(FILE *out)
{
	fprintf(out, "| command | what it does |\n| --- | --- |\n");
	for (const struct cb_command *c = cb_commands; c->name; c++) {
		for (int i = 0; i < CB_COMMAND_DOCS && c->doc[i].form; i++) {
			const struct cb_command_doc *d = &c->doc[i];

			fputs("| ", out);
			if (d->example)
				fprintf(out, "<!-- example: %s -->", d->example);
			fputs("`compactbench ", out);
			md_cell(out, d->form);
			fputs("`", out);
			if (d->also) {
				fputs(" / `compactbench ", out);
				md_cell(out, d->also);
				fputs("`", out);
			}
			fputs(" | ", out);
			md_cell(out, d->what);
			fputs(" |\n", out);
		}
	}
}

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
