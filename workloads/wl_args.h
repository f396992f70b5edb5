/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wl_args.h - command-line parsing for the workload programs, driven by their wl_info table.
 *
 * Every option is `--name VALUE` (or `--name=VALUE`), flags are `--name`; values are checked
 * with wl_check_value, the same check the harness applies to config keys, so what the
 * harness accepts the program accepts. --help text is made from the table.
 */
#ifndef CB_WL_ARGS_H
#define CB_WL_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "wl_info.h"

#define WL_ARGS_MAX 32 /* options per program */

struct wl_args {
	const struct wl_info *wl;
	const char *prog;		/* name used in messages */
	const char *val[WL_ARGS_MAX];	/* value text, the default if not given, NULL if none */
	bool given[WL_ARGS_MAX];	/* set on the command line */
};

/* what wl_args_parse found */
enum {
	WL_ARGS_OK = 0,
	WL_ARGS_HELP = 1,  /* --help was printed: exit 0 */
	WL_ARGS_ERROR = 2, /* a message naming the argument was printed: exit 2 */
};

/*
 * wl_args_parse - parse @argv against @wl's options into @a (defaults filled in)
 *
 * Prints --help to stdout, or an error naming the bad argument to stderr.
 * Returns WL_ARGS_OK, WL_ARGS_HELP or WL_ARGS_ERROR (which is also the exit status to use).
 */
int wl_args_parse(struct wl_args *a, const struct wl_info *wl, int argc, char **argv);

/* wl_args_usage - write the --help text of @wl to @f */
void wl_args_usage(const struct wl_info *wl, FILE *f);

/*
 * wl_args_error - print "PROG: --NAME VALUE: MESSAGE" to stderr (an argument that passed
 * the table's checks but that the program cannot use). Returns WL_ARGS_ERROR.
 */
int wl_args_error(const struct wl_args *a, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* wl_arg_str - the value text of option @name (NULL if it has none); aborts on unknown names */
const char *wl_arg_str(const struct wl_args *a, const char *name);

/* wl_arg_given - whether option @name was on the command line */
bool wl_arg_given(const struct wl_args *a, const char *name);

/* wl_arg_long - value of an INT option; wl_arg_real - of a REAL one */
long long wl_arg_long(const struct wl_args *a, const char *name);
double wl_arg_real(const struct wl_args *a, const char *name);

/* wl_arg_duration - value of a DURATION option in seconds */
double wl_arg_duration(const struct wl_args *a, const char *name);

/* wl_arg_bool - value of a BOOL option */
bool wl_arg_bool(const struct wl_args *a, const char *name);

/*
 * wl_arg_size - value of a SIZE option in bytes, a fraction being one of @total
 * Returns 0, or -1 if the option has no value.
 */
int wl_arg_size(const struct wl_args *a, const char *name, uint64_t total, uint64_t *out);

struct wl_mem;

/*
 * wl_arg_size_fit - value of the SIZE option @name in bytes, a fraction being one of the
 * window @m->window, and at most @share of @m->avail (MemAvailable now; @share 0: no cap).
 * A fraction above the cap is lowered to it, with a note on stderr and *@clamped set; bytes
 * above it are refused. Returns WL_ARGS_OK, or WL_ARGS_ERROR (message printed).
 */
int wl_arg_size_fit(const struct wl_args *a, const char *name, const struct wl_mem *m,
		    double share, uint64_t *out, bool *clamped);

#endif
