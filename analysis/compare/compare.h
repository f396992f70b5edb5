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

#define CB_BOOTSTRAP_ITERS 10000
#define CB_BOOTSTRAP_SEED 20171 /* fixed: the same runs always give the same intervals */

struct cb_cmp_row {
	int metric;
	size_t na, nb;		/* repetitions with a value */
	double ma, mb;		/* medians */
	double delta_pct;	/* (mb - ma) / |ma| * 100; NAN when ma == 0 */
	struct cb_ci diff;	/* CI of mb - ma */
	struct cb_ci rel;	/* CI of (mb - ma) / |ma|, NAN when undefined */
	double p;		/* Mann-Whitney, two-sided; NAN below 2 values a side */
	bool significant;	/* p < 1 - conf and the CI of the difference excludes 0 */
	bool worse;		/* the candidate moved in the metric's worse direction */
	long reps_needed;	/* when not significant: reps per side to see this change */
};

/*
 * cb_compare_metric - compare metric @m of @a (baseline) and @b at confidence @conf.
 * Returns 0, or -1 when a side has no value (the row is then only partly filled).
 */
int cb_compare_metric(const struct cb_group *a, const struct cb_group *b, int m, double conf,
		      struct cb_cmp_row *row);

/* cmd_compare - `compactbench compare DIR_A [DIR_B...] [--format text|md|json]` */
int cmd_compare(int argc, char **argv);

/* cmd_gate - `compactbench gate --baseline A --candidate B ...` (gate.c) */
int cmd_gate(int argc, char **argv);

/* cmd_plot - `compactbench plot DIR [DIR...]` (plot.c) */
int cmd_plot(int argc, char **argv);

#endif
