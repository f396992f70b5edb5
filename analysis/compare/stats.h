/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - the statistics of comparisons: repetitions are the unit (one value per
 * repetition and metric, never the events of a run as samples), medians, bootstrap
 * confidence intervals of the difference, Mann-Whitney U, repetitions needed, drift.
 * Numerics from GSL; nothing here prints.
 */
#ifndef CB_STATS_H
#define CB_STATS_H

#include <stddef.h>

struct cb_ci {
	double lo, hi;
};

/* cb_stats_median - median of @n values (n > 0; @x is not changed) */
double cb_stats_median(const double *x, size_t n);

/*
 * cb_stats_bootstrap - percentile bootstrap of median(b) - median(a) and of the relative
 * change (median(b) - median(a)) / |median(a)|: @iters resamples of each group with
 * replacement, drawn from GSL's mt19937 seeded with @seed, so the same input and seed give
 * the same interval. @rel is left {NAN, NAN} when median(a) is 0.
 * Returns 0, or -1 with errno EINVAL (an empty group, conf not in (0, 1)).
 */
int cb_stats_bootstrap(const double *a, size_t na, const double *b, size_t nb, double conf,
		       unsigned long seed, size_t iters, struct cb_ci *diff, struct cb_ci *rel);

/*
 * cb_stats_bootstrap_median - percentile bootstrap CI of the median of @x (seeded as above)
 * Returns 0, or -1 with errno EINVAL.
 */
int cb_stats_bootstrap_median(const double *x, size_t n, double conf, unsigned long seed,
			      size_t iters, struct cb_ci *ci);

/*
 * cb_stats_mann_whitney - two-sided Mann-Whitney U (Wilcoxon rank-sum) test of a vs b.
 * @u: U of @a (the number of pairs with a > b, ties counting one half), as R's W.
 * Exact p-value (the permutation distribution of U) when there are no ties and
 * na * nb <= 2500, as R's wilcox.test does below 50 per group; otherwise the normal
 * approximation with tie and continuity correction. Returns the p-value, or NAN.
 */
double cb_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u);

/*
 * cb_stats_reps_needed - repetitions per group for a two-sided test at @alpha to detect
 * the observed median difference with @power, from the pooled standard deviation (normal
 * approximation: n = 2 ((z(1-alpha/2) + z(power)) sd / delta)^2), at most
 * CB_STATS_REPS_MAX. Returns 0 when there is no difference to detect or no spread, -1 with
 * fewer than 2 values in a group or when n is undefined (a NaN or infinite value).
 */
#define CB_STATS_REPS_MAX 1000000000L

long cb_stats_reps_needed(const double *a, size_t na, const double *b, size_t nb, double alpha,
			  double power);

/*
 * cb_stats_trend - least-squares slope of @y against repetition order (1, 2, ... n) and the
 * two-sided p-value of the slope's t statistic (n - 2 degrees of freedom): drift from one
 * repetition to the next, which can masquerade as a difference between settings.
 * Returns 0, or -1 with errno EINVAL when n < 3.
 */
int cb_stats_trend(const double *y, size_t n, double *slope, double *p);

#endif
