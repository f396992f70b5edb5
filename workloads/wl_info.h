/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wl_info.h - the table that describes each workload program: its name, what it is for,
 * which phase it belongs to and every option it takes (fio's option table, in small).
 *
 * One table drives the program's own argument parsing and --help (wl_args.c), the
 * harness's validation of `[workload]` keys (with FILE:LINE errors, before anything runs)
 * and the workload part of configs/README.md. A new option is one row.
 */
#ifndef CB_WL_INFO_H
#define CB_WL_INFO_H

#include <stdbool.h>
#include <stddef.h>

enum wl_opt_type {
	WL_OPT_SIZE,	 /* fraction of the cell's window ("0.5"; WL_WINDOW_HELP in wl_mm.h) or
			  * bytes with suffix ("4G"); cb_parse_size. */
	WL_OPT_DURATION, /* "30", "30s", "500ms", "2m"; cb_parse_duration */
	WL_OPT_INT,	 /* whole number in [min, max] */
	WL_OPT_REAL,	 /* real number in [min, max] */
	WL_OPT_ENUM,	 /* one of choices (a NULL-terminated list) */
	WL_OPT_BOOL,	 /* a flag: "--name" on the command line, 0/1/true/false in a config.
			  * Its default must be false (or NULL): the harness can only add the
			  * flag, never remove it. */
	WL_OPT_STRING,	 /* any text (a path) */
};

/* where a workload belongs in a cell: fragmenters run first and hold their state */
enum wl_phase {
	WL_PHASE_FRAGMENT, /* prints {"phase":"ready"} when its state is made, then holds it */
	WL_PHASE_DEMAND,   /* runs to completion */
	WL_PHASE_BACKGROUND, /* load beside the others, from before the fragmenter to the end */
};

struct wl_option {
	const char *name;	    /* long option name, also the config key after "PHASE." */
	enum wl_opt_type type;
	const char *def;	    /* default as text, NULL if none */
	double min, max;	    /* for INT and REAL */
	const char *const *choices; /* for ENUM */
	const char *help;
};

struct wl_info {
	const char *name;    /* program name in workloads/ (also the binary's name) */
	enum wl_phase phase;
	const char *summary; /* one line */
	const struct wl_option *options; /* terminated by an entry with name == NULL */
	const char *details; /* more --help text (output lines, exit codes); may be NULL */
	const char *path;    /* an installed program (absolute path), not one of workloads/ */
};

/* one table per program, each in its own workloads/<program>_info.c */
extern const struct wl_info wl_frag_anon;
extern const struct wl_info wl_thp_demand;
extern const struct wl_info wl_frag_pagecache;
extern const struct wl_info wl_frag_unmovable;
extern const struct wl_info wl_kernel_demand;
extern const struct wl_info wl_idle;
extern const struct wl_info wl_stress_ng;

/* every workload, terminated by NULL */
extern const struct wl_info *const wl_all[];

/* wl_find - the workload called @name, or NULL */
const struct wl_info *wl_find(const char *name);

/* wl_find_option - the option @name of @wl, or NULL */
const struct wl_option *wl_find_option(const struct wl_info *wl, const char *name);

/*
 * wl_check_value - check @value against @opt's type and range.
 * Returns 0, or -1 with a message saying what is wrong in @err (size @errlen).
 */
int wl_check_value(const struct wl_option *opt, const char *value, char *err, size_t errlen);

#endif
