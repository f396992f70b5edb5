/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd_opt.h - one table per command's options: a row per option drives getopt_long's
 * tables and the option lines of the command's usage (--help), so the two cannot drift.
 * In the bottom layer (harness/lib, libcbutil): the commands under analysis/ use it too.
 */
#ifndef CB_CMD_OPT_H
#define CB_CMD_OPT_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CB_OPT_MAX 32	/* options of one command */

/*
 * One option. Its default is said in @help and set by the command's options initializer
 * (e.g. CB_GATE_OPTS_INIT), where the usage and the code already keep it.
 */
struct cb_opt {
	const char *name;	/* the long option, without "--" */
	int key;		/* what getopt_long returns for it; also its short option if < 128 */
	const char *arg;	/* its value's name in the usage ("FILE"); NULL: a flag */
	const char *help;	/* its line in the usage, '\n' between lines; NULL: not listed */
};

/* getopt_long's two tables, made from rows */
struct cb_opt_parser {
	struct option longopts[CB_OPT_MAX + 1];
	char shortopts[3 * CB_OPT_MAX + 2];
};

/* how a parse goes (cb_opt_parser_init's @flags) */
enum cb_opt_parser_flags {
	/* stop at the first non-option (getopt's "+": what follows is another command's) */
	CB_OPT_STOP = 1 << 0,
	/*
	 * getopt names a bad option itself on stderr ("unrecognized option"); without it the
	 * command names it, with cb_opt_bad()
	 */
	CB_OPT_GETOPT_SAYS = 1 << 1,
};

/*
 * cb_opt_parser_init - fill @p from the @n rows of @opts: a long option per row, a short
 * one per row whose key is below 128 (with ':' when it takes a value); and set getopt up
 * for a parse from argv[1] (optind 1, opterr as @flags say: enum cb_opt_parser_flags), so
 * a command calls it right before its cb_opt_next() loop. Returns 0, or -1 with EINVAL for
 * more than CB_OPT_MAX rows.
 */
int cb_opt_parser_init(struct cb_opt_parser *p, const struct cb_opt *opts, size_t n,
		       unsigned int flags);

/* cb_opt_next - getopt_long(@argc, @argv) over @p's tables: the key of the next option */
int cb_opt_next(const struct cb_opt_parser *p, int argc, char **argv);

/*
 * cb_opt_usage - the option lines of the usage to @out, one row each in table order, rows
 * with no help left out: "  LEFT HELP", LEFT padded to @width, where LEFT is "-o, --output
 * FILE" (or "    --name ARG" for a long-only row) when some listed row has a short option,
 * else "--name ARG"; each further line of the help is indented under the first.
 */
void cb_opt_usage(FILE *out, const struct cb_opt *opts, size_t n, int width);

/* how cb_opt_usage_style lays out the left column */
enum cb_opt_usage_flags {
	CB_OPT_USAGE_LONG = 1 << 0,  /* long options only, even for rows with a short one */
	CB_OPT_USAGE_FLUSH = 1 << 1, /* a long-only row starts where "-o, " does, not under "--" */
};

/*
 * cb_opt_usage_style - cb_opt_usage with the left column laid out as @flags (enum
 * cb_opt_usage_flags) say; flags 0 is cb_opt_usage.
 */
void cb_opt_usage_style(FILE *out, const struct cb_opt *opts, size_t n, int width,
			unsigned int flags);

/* a command's whole usage: the text before the option lines, the lines, the text after */
struct cb_opt_page {
	const char *head;		/* "usage: compactbench CMD ...\n\n..." */
	const struct cb_opt *opts;	/* the rows whose help becomes the option lines */
	size_t n;
	int width;			/* of the option lines' left column */
	unsigned int style;		/* enum cb_opt_usage_flags; 0: cb_opt_usage's layout */
	const char *tail;		/* after the option lines; NULL: nothing */
};

/* cb_opt_page_print - @pg's head, option lines (cb_opt_usage_style) and tail to @out */
void cb_opt_page_print(FILE *out, const struct cb_opt_page *pg);

/*
 * cb_opt_bad - after cb_opt_next returned '?' for @argv: name on stderr the option that was
 * not one of the @n @opts ("compactbench @cmd: unknown option 'X'") or that lacks its value
 * ("compactbench @cmd: option 'X' needs a value ARG"). Returns 2, the exit code of a bad
 * command line; the caller prints its usage after it.
 */
int cb_opt_bad(const char *cmd, const struct cb_opt *opts, size_t n, char **argv);

/*
 * cb_opt_help_only - parse @argv of command @cmd, whose only option is --help (-h): with it,
 * print @usage on stdout and return 0; with any other option, name it (cb_opt_bad), print
 * @usage on stderr and return 2. Returns -1 when there is no option: optind is then the
 * first operand.
 */
int cb_opt_help_only(const char *cmd, const char *usage, int argc, char **argv);

#endif
