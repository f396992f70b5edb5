/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - the statistics of comparisons: repetitions are the unit (one value per
 * repetition and metric, never the events of a run as samples), medians, bootstrap
 * confidence intervals of the difference, Mann-Whitney U, repetitions needed, drift.
 * Numerics from GSL; nothing here prints.
 */
#ifndef CB_STATS_H
#define CB_STATS_H

#include <math.h>
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
 * cb_stats_trend - least-squares slope of @y against repetition order (1, 2, ... n) and the
 * two-sided p-value of the slope's t statistic (n - 2 degrees of freedom): drift from one
 * repetition to the next, which can masquerade as a difference between settings.
 * Returns 0, or -1 with errno EINVAL when n < 3.
 */
int cb_stats_trend(const double *y, size_t n, double *slope, double *p);

/*
 * cb_stats_correlation - Pearson's r of the @n pairs (@x[i], @y[i]) and, in @p if not NULL,
 * the two-sided p of the textbook test of r = 0: t = r sqrt((n - 2) / (1 - r^2)) on n - 2
 * degrees of freedom (R's cor.test; the same p as the slope's in cb_stats_trend). Over the
 * start states of paired repetitions it says whether the two sides share the states' spread.
 * Returns r, or NAN (p NAN) below 3 pairs or when a side has no spread; p is 0 when |r| is 1.
 */
double cb_stats_correlation(const double *x, const double *y, size_t n, double *p);

/*
 * cb_stats_correlation_ci - the @conf confidence interval of a Pearson r from @n pairs by
 * Fisher's z: tanh(atanh(r) -/+ z(1 - (1 - conf) / 2) / sqrt(n - 3)), as R's cor.test.
 * Returns 0, or -1 with errno EINVAL below 4 pairs or when @r is NAN.
 */
int cb_stats_correlation_ci(double r, size_t n, double conf, struct cb_ci *ci);

/*
 * cb_stats_power_t - power of the two-sided two-sample t test at @alpha with @na and @nb
 * values (non-integer counts allowed) against a true difference of @d standard deviations:
 * P(T' > t(1 - alpha/2, df)) for the noncentral t T' (df = na + nb - 2, ncp =
 * d / sqrt(1/na + 1/nb)), the far tail left out as R's power.t.test does by default. The
 * noncentral t is integrated over its chi-square mixing variable with GSL's QAGS (GSL has
 * no noncentral t). Returns the power, or NAN.
 */
double cb_stats_power_t(double d, double na, double nb, double alpha);

/*
 * cb_stats_mde_t - the smallest difference, in standard deviations, that the two-sided t
 * test detects with @power at @alpha with @na and @nb values (Brent's root of
 * cb_stats_power_t). power.t.test(n = 5, sd = 1, power = 0.8)$delta is the same number.
 * Returns NAN with fewer than 2 values a side.
 */
double cb_stats_mde_t(double na, double nb, double alpha, double power);

/* the asymptotic relative efficiency of Mann-Whitney to the t test on normal data, 3/pi */
#define CB_STATS_ARE_MW (3.0 / M_PI)

#define CB_STATS_MDE_SEED 20171	/* the rank test's power simulation: fixed, reproducible */
#define CB_STATS_MDE_ITERS 20000
#define CB_STATS_MDE_SIM_MAX 100	/* na * nb above this: the ARE approximation (within ~3%) */

/*
 * cb_stats_mde_mw - the same for the exact Mann-Whitney test compare uses, by simulation:
 * the shift of normal data (in standard deviations) at which the exact two-sided rank test
 * at @alpha rejects in a fraction @power of CB_STATS_MDE_ITERS simulated pairs of samples
 * (mt19937, seed CB_STATS_MDE_SEED; Monte Carlo standard error of the power about 0.003),
 * found by bisection. Above CB_STATS_MDE_SIM_MAX pairs of values (10 a side), the t test's
 * MDE with the repetitions scaled by the ARE (Noether), which the simulation approaches
 * from above as n grows (3% apart at 10 a side). Infinite when the exact test cannot reach
 * @alpha at all with these repetitions (cb_stats_min_p). NAN below 2 a side.
 */
double cb_stats_mde_mw(size_t na, size_t nb, double alpha, double power);

/*
 * cb_stats_bisect_power - the smallest shift d at which @power_at(@sim, d), a simulated
 * power that grows with d, reaches @power: doubling from 1, then 40 bisections; INFINITY
 * when not below 1000. The search the rank tests' MDEs share (this file, stats_paired.c).
 */
double cb_stats_bisect_power(double (*power_at)(const void *sim, double d), const void *sim,
			     double power);

/* cb_stats_min_p - the smallest two-sided p the exact rank test can give: 2 / C(na+nb, na) */
double cb_stats_min_p(size_t na, size_t nb);

/*
 * cb_stats_reps_for - repetitions per side (equal sides) at which the rank test detects a
 * difference of @delta with standard deviation @sd at @alpha with @power
 * (cb_stats_mde_mw), at least enough for the exact test to reach @alpha. Returns the count,
 * 0 when @sd is 0 (any difference shows once the test can reach alpha: then the minimum),
 * or -1 when more than @max would be needed or @delta is not positive.
 */
long cb_stats_reps_for(double delta, double sd, double alpha, double power, long max);

/* cb_stats_pooled_sd - the pooled standard deviation of two groups (NAN below 2 a side) */
double cb_stats_pooled_sd(const double *a, size_t na, const double *b, size_t nb);

/*
 * cb_stats_cv - the coefficient of variation of @n values: their sample standard deviation
 * (n - 1) over the absolute value of their mean. NAN below 2 values or with a mean of 0.
 * How far one repetition can be from the next, in the unit of the figure itself.
 */
double cb_stats_cv(const double *x, size_t n);

/* a CV above which one repetition says little: compare and report.md warn past it */
#define CB_STATS_CV_WIDE 0.25

/*
 * cb_stats_cv_waves - the CV of @n per-repetition totals that the spread of their waves alone
 * would give: repetition i's total @total[i] holds @waves[i] waves whose values have sample
 * sd @sd[i]; were the waves independent and the repetitions alike but for them, a total's
 * variance would be waves[i] sd[i]^2, so sqrt(mean(waves sd^2)) / |mean(total)|. The rest
 * of the CV, sqrt(cv^2 - this^2), is what differs from one repetition to the next (its
 * start state, its run). NAN below 2 repetitions, with a NAN value or a mean total of 0.
 */
double cb_stats_cv_waves(const double *total, const double *waves, const double *sd, size_t n);

/*
 * cb_stats_cv_rest - the rest of a CV @cv beyond its waves' part @cv_waves
 * (cb_stats_cv_waves): sqrt(cv^2 - cv_waves^2), 0 where the part exceeds the CV (few
 * repetitions); what differs from one repetition to the next, which more waves leave
 */
double cb_stats_cv_rest(double cv, double cv_waves);

/*
 * cb_stats_waves_for - the waves a repetition would need for a CV of @target, from a CV of
 * @cv measured with @waves waves of which @cv_waves is the waves' own (cb_stats_cv_waves):
 * more waves shrink that part as 1 / sqrt(waves) and leave the rest. Returns the count
 * (at most @waves when the CV is already at or under @target), or -1 when the rest alone is
 * @target or more (no number of waves would do), more than @max would be needed, or a
 * value is NAN.
 */
long cb_stats_waves_for(double cv, double cv_waves, double waves, double target, long max);

#endif
