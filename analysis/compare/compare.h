/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h - one metric, baseline group against candidate group: medians over
 * repetitions, delta, bootstrap CI, Mann-Whitney p, repetitions needed. compare, gate and
 * plot all use it, so the three never disagree about a number.
 */
#ifndef CB_COMPARE_H
#define CB_COMPARE_H

#include <stdbool.h>

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

/* cmd_compare - `compactbench compare DIR_A [DIR_B...] [--all] [--format text|markdown|json]` */
int cmd_compare(int argc, char **argv);

/* cmd_gate - `compactbench gate --baseline A --candidate B ...` (gate.c) */
int cmd_gate(int argc, char **argv);

/* cmd_plot - `compactbench plot DIR [DIR...]` (plot.c) */
int cmd_plot(int argc, char **argv);

#endif
