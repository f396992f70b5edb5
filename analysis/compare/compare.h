/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h - one metric, baseline group against candidate group: medians over
 * repetitions, delta, bootstrap CI, Mann-Whitney p, repetitions needed. compare, gate and
 * plot all use it, so the three never disagree about a number.
 */
#ifndef CB_COMPARE_H
#define CB_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "runs.h"
#include "stats.h"
#include "verdict.h"

#define CB_BOOTSTRAP_ITERS 10000
#define CB_BOOTSTRAP_SEED 20171 /* fixed: the same runs always give the same intervals */

struct cb_cmp_row {
	int metric;
	struct cb_judgement j;	/* medians, CI, p, significance, detectable change (verdict.h) */
};

/*
 * cb_compare_metric - compare metric @m of @a (baseline) and @b at confidence @conf (cb_judge
 * on the repetitions' non-null values). Returns 0, or -1 when a side has no value (then
 * row->j.state is CB_J_NO_VALUE and j.na, j.nb say which side has values).
 */
int cb_compare_metric(const struct cb_group *a, const struct cb_group *b, int m, double conf,
		      struct cb_cmp_row *row);

enum cb_compare_format { CB_COMPARE_TEXT, CB_COMPARE_MD, CB_COMPARE_JSON };

#define CB_COMPARE_MAX_RUNS 16

/* what `compactbench compare` was asked (cmd_compare fills it from argv, `run` by hand) */
struct cb_compare_opts {
	char *const *dirs;		/* the run directories: DIR_A, then the candidates */
	int nr_dirs;			/* 1 .. CB_COMPARE_MAX_RUNS */
	enum cb_compare_format format;	/* CB_COMPARE_TEXT: the 80-column table */
	double conf;			/* confidence, in (0.5, 1): 0.95 */
	bool all;			/* every metric, not only the key ones */
	const char *kernels;		/* "BASE,CAND" within the one run dirs[0], or NULL */
};

/*
 * cb_compare - the comparison `compactbench compare` prints: with one run, every setting
 * against its first; with more, dirs[0] against each other run; with @o->kernels, kernel
 * BASE against kernel CAND of the one run. The tables (or the JSON array) go to @out; the
 * runs' problems (cells left out, pending kernels, different configs, nothing to compare)
 * go to stderr, each line prefixed "compactbench compare: ". Returns the exit code of the
 * command: 0 compared (or the other side is only pending), 2 bad input.
 */
int cb_compare(const struct cb_compare_opts *o, FILE *out);

/*
 * cmd_compare - `compactbench compare DIR_A [DIR_B...] [--all] [--format text|markdown|json]`:
 * argv into cb_compare
 */
int cmd_compare(int argc, char **argv);

/* cmd_gate - `compactbench gate --baseline A --candidate B ...` (gate.c): argv into cb_gate */
int cmd_gate(int argc, char **argv);

/* cmd_plot - `compactbench plot DIR [DIR...]` (plot.c): argv into cb_plot */
int cmd_plot(int argc, char **argv);

#endif
