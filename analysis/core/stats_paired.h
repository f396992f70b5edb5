/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats_paired.h - statistics on paired repetitions: two settings run on the same start
 * state (the qemu target's guest_state = saved), compared by their differences state by
 * state, so the spread between states leaves the comparison. GSL has no signed-rank test,
 * hence this file; the rest is stats.h's.
 */
#ifndef CB_STATS_PAIRED_H
#define CB_STATS_PAIRED_H

#include <stddef.h>

/* above this many nonzero differences, the normal approximation (as R's wilcox.test) */
#define CB_STATS_SR_EXACT_MAX 50

/*
 * cb_stats_signed_rank - two-sided Wilcoxon signed-rank test of the paired differences @d
 * (zeros dropped, as Wilcoxon's method and R's wilcox.test(paired = TRUE) do). @v, if not
 * NULL: V, the sum of the ranks of |d| over the positive differences (R's V). Exact p (all
 * 2^n sign patterns equally likely) without ties in |d| and with at most
 * CB_STATS_SR_EXACT_MAX differences; otherwise the normal approximation with tie and
 * continuity correction. Returns the p-value, or NAN when no difference is nonzero.
 */
double cb_stats_signed_rank(const double *d, size_t n, double *v);

/* cb_stats_min_p_paired - the smallest two-sided p the exact test gives with @n pairs: 2/2^n */
double cb_stats_min_p_paired(size_t n);

/*
 * cb_stats_mde_paired - the smallest shift of normal differences, in their standard
 * deviation, that the exact two-sided signed-rank test at @alpha detects with @power with
 * @n pairs: simulated as cb_stats_mde_mw is (CB_STATS_MDE_ITERS samples, mt19937 seeded
 * with CB_STATS_MDE_SEED, bisection); above CB_STATS_SR_EXACT_MAX pairs, the z test's with
 * the pairs scaled by the asymptotic relative efficiency 3/pi. INFINITY when the test cannot
 * reach @alpha at all (5 pairs or fewer at 0.05); NAN below 2 pairs.
 */
double cb_stats_mde_paired(size_t n, double alpha, double power);

/*
 * cb_stats_reps_for_paired - the fewest pairs at which the test detects a shift @delta of
 * differences with standard deviation @sd at @alpha with @power (at least enough to reach
 * @alpha); -1 when more than @max would be needed or @delta is not positive.
 */
long cb_stats_reps_for_paired(double delta, double sd, double alpha, double power, long max);

#endif
