/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd.h - the commands of `compactbench`: one table (cmd.c) with a row per command, what
 * each row needs checked in one place before dispatch (as git's run_builtin does), and the
 * prototypes of the commands: those of harness/cmd/ here, those of the analysis layer
 * (analyze, compare, gate, plot) in analysis/core/analyze.h and analysis/compare/compare.h,
 * which this header includes, since the layer below cannot see this one. A command is a
 * thin wrapper: argv into an options struct, then the library under it (cb_compare,
 * cb_gate, cb_plot, cb_analyze_run, ...).
 *
 * Every command takes argv[0] as its own name, prints its usage on stdout and returns 0
 * for -h/--help, and returns 2 with its usage (or a line naming the bad option) on stderr
 * for a bad command line; otherwise it returns its exit code (README: exit codes).
 */
#ifndef CB_CMD_H
#define CB_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "analyze.h"	/* cmd_analyze: the analysis layer's commands are declared there */
#include "compare.h"	/* cmd_compare, cmd_gate, cmd_plot */

/* what a command needs of the machine; cb_command_check refuses it when missing */
enum cb_command_flags {
	CB_CMD_ROOT = 1 << 0,	 /* runs as root (it changes sysctls) */
	CB_CMD_TRACEFS = 1 << 1, /* tracefs is mounted (it traces the kernel) */
};

/* one row of README's command table: a form of the command and what it does (markdown) */
struct cb_command_doc {
	const char *form;	/* "run CONFIG [-o DIR]": the words after "compactbench " */
	const char *also;	/* NULL, or a second form shown in the same row */
	const char *what;	/* what it does, markdown; '|' is escaped when printed */
	const char *example;	/* NULL, or the readme-examples marker the form needs ("form") */
};

#define CB_COMMAND_DOCS 2	/* README rows of one command */

struct cb_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;	/* one line for `compactbench --help` */
	unsigned int flags;	/* enum cb_command_flags */
	struct cb_command_doc doc[CB_COMMAND_DOCS]; /* README's rows; a row with no form ends */
};

/* the commands in the order `compactbench --help` lists them; a row with no name ends it */
extern const struct cb_command cb_commands[];

/*
 * cb_commands_markdown - README's command table to @out (`compactbench help --markdown`):
 * a header, then the doc rows of every command in table order, each form a code span
 * "compactbench FORM", '|' escaped in both cells. A test keeps README.md equal to it.
 */
void cb_commands_markdown(FILE *out);

/* cb_command_find - the row of command @name, or NULL */
const struct cb_command *cb_command_find(const char *name);

/*
 * cb_command_check - whether the machine has what @c's flags say it needs. Returns 0, or -1
 * with why not in @why ("compactbench NAME: ..."), for its caller to print and exit 1.
 */
int cb_command_check(const struct cb_command *c, char *why, size_t len);

/*
 * cb_command_run - run command @c on @argc, @argv (argv[0] its name) after
 * cb_command_check; returns the exit code (1 when the check refused it)
 */
int cb_command_run(const struct cb_command *c, int argc, char **argv);

/*
 * cmd_run - `compactbench run CONFIG [-o DIR] [--resume] [--shard I/N] [--reps N] [--quick]`
 * (run.c)
 */
int cmd_run(int argc, char **argv);

/* cmd_merge - `compactbench merge OUT DIR...`: join shard run directories into one run */
int cmd_merge(int argc, char **argv);

/* cmd_restore - `compactbench restore`: put back knobs a killed run left changed (run.c) */
int cmd_restore(int argc, char **argv);

/* cmd_config - `compactbench config check CONFIG [--quick]` or `config doc` (cmd_config.c) */
int cmd_config(int argc, char **argv);

/*
 * cmd_record - compactbench record [-o FILE] [-e EVENT]... [--no-probes] [--buffer-kb N]
 * [--tracing-dir DIR] -- CMD [ARGS]: runs CMD (execvp, no shell) while the collector
 * records, stops on CMD's exit (SIGINT, SIGTERM and SIGHUP are passed on to CMD), writes
 * the trace and prints a one-line summary on stderr. Returns CMD's exit status (128 + the
 * signal if a signal ended it), 2 for a bad command line, 125 when recording failed, 126
 * or 127 when CMD could not be run.
 */
int cmd_record(int argc, char **argv);

/* cmd_kernel - `compactbench kernel build RECIPE` (cmd_kernel.c) */
int cmd_kernel(int argc, char **argv);

/* cmd_agent - `compactbench agent [--quick] CONFIG CELL_ID OUTDIR`: one cell here (cmd_agent.c) */
int cmd_agent(int argc, char **argv);

#endif
