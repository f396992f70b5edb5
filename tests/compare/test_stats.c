// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stats.c - comparison statistics against values known independently: a textbook
 * Mann-Whitney example with its published exact p, hand-worked normal approximation and
 * regression slope, and bootstrap coverage on data of known truth; the
 * minimum detectable effect against R's power.t.test, an independent integration and
 * Monte Carlo simulations with stated seeds and errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_rng.h>

#include "stats.h"

/*
 * Hollander & Wolfe (1999), Table 4.1, p. 110: permeability of the human chorioamnion at
 * term (x) and at 12-26 weeks (y). R: wilcox.test(x, y, alternative = "greater") gives
 * W = 35, p-value = 0.1272; the exact two-sided p (coin::wilcox_test, p. 111) is 0.2544.
 */
static void test_mann_whitney_exact(void **state)
{
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	double u, p = cb_stats_mann_whitney(x, 10, y, 5, &u);

	assert_true(u == 35);
	assert_true(fabs(p - 0.2544) < 0.00005);
	/* symmetric: the other side's U is n1 n2 - U and the two-sided p is the same */
	p = cb_stats_mann_whitney(y, 5, x, 10, &u);
	assert_true(u == 15);
	assert_true(fabs(p - 0.2544) < 0.00005);
	/* 3 against 3, fully separated: the smallest two-sided p there is, 2/20 */
	p = cb_stats_mann_whitney((double[]){ 1, 2, 3 }, 3, (double[]){ 4, 5, 6 }, 3, &u);
	assert_true(u == 0);
	assert_true(fabs(p - 0.1) < 1e-12);
}

/*
 * With ties, the normal approximation, worked by hand: a = {1,2,2,3}, b = {2,3,3,4}.
 * U(a) = 1 (3 > 2) + 4 * 0.5 (ties 2=2, 2=2, 3=3, 3=3) = 3; mu = 8; tie groups of 3 at 2 and
 * at 3 give sum(t^3 - t) = 48; sigma^2 = 16/12 * (9 - 48/56) = 10.857143; z = (|3 - 8| - 0.5)
 * / 3.295018 = 1.365700; p = 2 * (1 - Phi(1.3657)) = 0.17203.
 */
static void test_mann_whitney_ties(void **state)
{
	double u, p = cb_stats_mann_whitney((double[]){ 1, 2, 2, 3 }, 4, (double[]){ 2, 3, 3, 4 }, 4,
					    &u);

	assert_true(u == 3);
	assert_true(fabs(p - 0.17203) < 0.0001);
}

/*
 * y = {1,3,2,5,4} against 1..5: Sxy = 8, Sxx = 10, slope 0.8; residual SS 3.6, s^2 = 1.2,
 * se = sqrt(0.12) = 0.34641, t = 2.3094 on 3 df: two-sided p = 0.1041 (t tables: 2.353
 * gives 0.10).
 */
static void test_trend(void **state)
{
	double slope, p;

	assert_int_equal(cb_stats_trend((double[]){ 1, 3, 2, 5, 4 }, 5, &slope, &p), 0);
	assert_true(fabs(slope - 0.8) < 1e-12);
	assert_true(fabs(p - 0.1041) < 0.001);
	assert_int_equal(cb_stats_trend((double[]){ 1, 2 }, 2, &slope, &p), -1);
}

/*
 * Anscombe (1973), set I: r = 0.81642; R's cor.test gives t = 4.2415 on 9 df, p-value =
 * 0.00217 and the 95% CI 0.4243912 to 0.9506933 (Fisher's z: tanh(atanh(r) -/+ 1.959964 /
 * sqrt(8))). By hand, 5 pairs with deviations x (0, 10, -10, 5, -5) and y (4, 6, -8, -2, 0):
 * Sxy = 130, Sxx = 250, Syy = 120, r = 130 / sqrt(30000) = 0.750555, t = r sqrt(3 / (1 -
 * r^2)) = 1.96729; on 3 df the t distribution has a closed form, P(|T| > t) = 1 - (2 / pi)
 * (a + sin a cos a) with a = atan(t / sqrt(3)): p = 0.14383.
 */
static void test_correlation(void **state)
{
	const double ax[] = { 10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5 };
	const double ay[] = { 8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68 };
	const double x[] = { 100, 110, 90, 105, 95 }, y[] = { 104, 106, 92, 98, 100 };
	const double flat[] = { 7, 7, 7, 7, 7 }, twice[] = { 200, 220, 180, 210, 190 };
	struct cb_ci ci;
	double r, p, t, a;

	r = cb_stats_correlation(ax, ay, 11, &p);
	assert_true(fabs(r - 0.81642) < 1e-5);
	assert_true(fabs(p - 0.00217) < 0.000005);
	assert_int_equal(cb_stats_correlation_ci(r, 11, 0.95, &ci), 0);
	assert_true(fabs(ci.lo - 0.4243912) < 1e-6 && fabs(ci.hi - 0.9506933) < 1e-6);
	assert_int_equal(cb_stats_correlation_ci(r, 3, 0.95, &ci), -1);
	assert_int_equal(cb_stats_correlation_ci(NAN, 11, 0.95, &ci), -1);
	r = cb_stats_correlation(x, y, 5, &p);
	assert_true(fabs(r - 130 / sqrt(30000)) < 1e-12);
	t = r * sqrt(3 / (1 - r * r));
	a = atan(t / sqrt(3));
	assert_true(fabs(p - (1 - 2 / M_PI * (a + sin(a) * cos(a)))) < 1e-9);
	assert_true(fabs(p - 0.14383) < 0.00001);
	/* the same pairs the other way round */
	assert_true(fabs(cb_stats_correlation(y, x, 5, NULL) - r) < 1e-12);
	/* a perfect line: r 1, p 0; a side without spread or too few pairs: NAN */
	assert_true(cb_stats_correlation(x, twice, 5, &p) == 1 && p == 0);
	assert_true(isnan(cb_stats_correlation(x, flat, 5, &p)) && isnan(p));
	assert_true(isnan(cb_stats_correlation(x, y, 2, &p)) && isnan(p));
}

static void test_bootstrap_exact_cases(void **state)
{
	struct cb_ci d, r, d2, r2;
	const double a[] = { 10, 10, 10, 10 }, b[] = { 12, 12, 12 };
	const double x[] = { 3, 9, 4, 7, 1 }, y[] = { 5, 8, 2, 6, 9, 11 };

	/* no spread: every resample has the same medians */
	assert_int_equal(cb_stats_bootstrap(a, 4, b, 3, 0.95, 1, 1000, &d, &r), 0);
	assert_true(d.lo == 2 && d.hi == 2);
	assert_true(fabs(r.lo - 0.2) < 1e-12 && fabs(r.hi - 0.2) < 1e-12);
	/* seeded: the same call gives the same interval */
	cb_stats_bootstrap(x, 5, y, 6, 0.95, 7, 2000, &d, &r);
	cb_stats_bootstrap(x, 5, y, 6, 0.95, 7, 2000, &d2, &r2);
	assert_true(d.lo == d2.lo && d.hi == d2.hi && r.lo == r2.lo);
	assert_true(d.lo <= d.hi);
	assert_int_equal(cb_stats_bootstrap(x, 0, y, 6, 0.95, 7, 2000, &d, &r), -1);
}

/*
 * Coverage on data of known truth: groups of 15 from N(0,1) and N(1,1), the true difference
 * of medians is 1. A 95% percentile-bootstrap interval should hold it in about 95% of
 * repetitions of the experiment; the percentile method is known to under-cover somewhat at
 * this size, so the test accepts 85%..99% over 200 experiments.
 */
static void test_bootstrap_coverage(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double a[15], b[15];
	struct cb_ci d, rel;
	int covered = 0;

	gsl_rng_set(r, 42);
	for (int t = 0; t < 200; t++) {
		for (int i = 0; i < 15; i++) {
			a[i] = gsl_ran_gaussian(r, 1);
			b[i] = 1 + gsl_ran_gaussian(r, 1);
		}
		cb_stats_bootstrap(a, 15, b, 15, 0.95, (unsigned long)t + 1, 2000, &d, &rel);
		covered += d.lo <= 1 && 1 <= d.hi;
	}
	gsl_rng_free(r);
	print_message("bootstrap 95%% CI covered the true difference in %d of 200\n", covered);
	assert_true(covered >= 170 && covered <= 198);
}

/*
 * The t test's MDE. power.t.test(n = 5, sd = 1, power = 0.8)$delta is given as 2.0236 and
 * n = 10 as 1.3249 (R finds the root with uniroot's tolerance, eps^0.25 = 1.2e-4, so its
 * last digits are loose; no R here to rerun). Independently, a midpoint integration of the
 * noncentral t over its chi-square variable in plain Python (math.erfc and lgamma only,
 * 200000 steps) gives power 0.799679 at d = 2.0236 and 0.800000 at d = 2.02444 for n = 5:
 * the root is 2.0244 to 4 digits. We ask for 2.0244 +- 2e-4 and 1.3249 +- 2e-4.
 */
static void test_mde_t_reference(void **state)
{
	assert_true(fabs(cb_stats_mde_t(5, 5, 0.05, 0.8) - 2.0244) < 2e-4);
	assert_true(fabs(cb_stats_mde_t(10, 10, 0.05, 0.8) - 1.3249) < 2e-4);
	/* power of the two-sided t test at that d is 0.80, and alpha / 2 at d = 0 */
	assert_true(fabs(cb_stats_power_t(cb_stats_mde_t(8, 8, 0.05, 0.8), 8, 8, 0.05) - 0.8) < 1e-6);
	assert_true(fabs(cb_stats_power_t(0, 6, 6, 0.05) - 0.025) < 1e-6);
	/* large samples: the normal approximation, d = (1.959964 + 0.841621) sqrt(2 / n) */
	assert_true(fabs(cb_stats_mde_t(2000, 2000, 0.05, 0.8) - 2.801585 * sqrt(2.0 / 2000)) <
		    2e-4);
	assert_true(isnan(cb_stats_mde_t(1, 5, 0.05, 0.8)));
}

/*
 * Monte Carlo of the t test itself at the MDE: 100000 pairs of normal samples of 5 (seed 1),
 * the second shifted by mde_t(5, 5); the two-sided t test at 0.05 must reject in 80% of
 * them, within 3 standard errors (sqrt(0.8 * 0.2 / 100000) = 0.00126).
 */
static void test_mde_t_monte_carlo(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double d = cb_stats_mde_t(5, 5, 0.05, 0.8), tc = gsl_cdf_tdist_Qinv(0.025, 8), power;
	int rej = 0, iters = 100000;

	gsl_rng_set(r, 1);
	for (int i = 0; i < iters; i++) {
		double a[5], b[5], sp, t;

		for (int k = 0; k < 5; k++) {
			a[k] = gsl_ran_gaussian(r, 1);
			b[k] = gsl_ran_gaussian(r, 1) + d;
		}
		sp = sqrt((gsl_stats_variance(a, 1, 5) + gsl_stats_variance(b, 1, 5)) / 2);
		t = (gsl_stats_mean(b, 1, 5) - gsl_stats_mean(a, 1, 5)) / (sp * sqrt(2.0 / 5));
		rej += fabs(t) > tc;
	}
	gsl_rng_free(r);
	power = (double)rej / iters;
	print_message("t test power at its MDE %.4f (n = 5): %.4f\n", d, power);
	assert_true(fabs(power - 0.8) < 3 * 0.00126);
}

/*
 * The rank test's MDE (simulated with seed 20171) checked by another simulation: other draws
 * (seed 7), the test compare runs (cb_stats_mann_whitney's exact p), 20000 pairs: power 0.80
 * within 0.015 (3 standard errors of this check, 0.0085, plus the first simulation's own).
 * It is larger than the t test's (the rank test is less efficient, and at small n more so
 * than the ARE 3/pi says); it is infinite where the exact test cannot reach 0.05 (3 a side:
 * smallest p 2 / C(6, 3) = 0.1); and at 30 a side it is within 3% of the ARE approximation.
 */
static void test_mde_mw(void **state)
{
	static const size_t ns[] = { 5, 8 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(r, 7);
	for (size_t c = 0; c < 2; c++) {
		size_t n = ns[c];
		double d = cb_stats_mde_mw(n, n, 0.05, 0.8), power;
		int rej = 0, iters = 20000;

		assert_true(d > cb_stats_mde_t(n, n, 0.05, 0.8));
		for (int i = 0; i < iters; i++) {
			double a[8], b[8];

			for (size_t k = 0; k < n; k++) {
				a[k] = gsl_ran_gaussian(r, 1);
				b[k] = gsl_ran_gaussian(r, 1) + d;
			}
			rej += cb_stats_mann_whitney(a, n, b, n, NULL) < 0.05;
		}
		power = (double)rej / iters;
		print_message("rank test power at its MDE %.4f (n = %zu): %.4f\n", d, n, power);
		assert_true(fabs(power - 0.8) < 0.015);
	}
	gsl_rng_free(r);
	assert_true(isinf(cb_stats_mde_mw(3, 3, 0.05, 0.8)));
	assert_true(fabs(cb_stats_min_p(5, 5) - 2.0 / 252) < 1e-12);
	assert_true(fabs(cb_stats_mde_mw(30, 30, 0.05, 0.8) /
			 cb_stats_mde_t(30 * 3 / M_PI, 30 * 3 / M_PI, 0.05, 0.8) - 1) < 0.03);
}

/*
 * Repetitions for a change of one standard deviation: power.t.test(delta = 1, power = 0.8)
 * gives n = 16.71, so 17 for the t test; the rank test needs about 17 / (3 / pi) = 17.8:
 * 18. Without spread, the fewest that can reach 0.05 (4); nothing to detect: -1.
 */
/*
 * The textbook sample of the standard deviation (Wikipedia, "Standard deviation", basic
 * example): 2, 4, 4, 4, 5, 5, 7, 9 has mean 5 and population sd 2; the sample sd is
 * sqrt(32 / 7) = 2.13809, so the CV is 0.427618. The same data negated has the same CV.
 */
static void test_cv(void **state)
{
	double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 }, neg[8], zero[] = { -1, 1 };

	assert_true(fabs(cb_stats_cv(x, 8) - 0.427618) < 1e-6);
	for (int i = 0; i < 8; i++)
		neg[i] = -x[i];
	assert_true(fabs(cb_stats_cv(neg, 8) - 0.427618) < 1e-6);
	assert_true(isnan(cb_stats_cv(x, 1)));
	assert_true(isnan(cb_stats_cv(zero, 2)));
	assert_true(cb_stats_cv(x + 1, 3) == 0);	/* 4, 4, 4: no spread */
}

static void test_reps_for(void **state)
{
	long n = cb_stats_reps_for(1, 1, 0.05, 0.8, 1000);

	assert_true(n >= 17 && n <= 19);
	assert_true(fabs(cb_stats_mde_t(16.71477, 16.71477, 0.05, 0.8) - 1) < 1e-3);
	assert_int_equal(cb_stats_reps_for(1, 0, 0.05, 0.8, 1000), 4);
	assert_int_equal(cb_stats_reps_for(0, 1, 0.05, 0.8, 1000), -1);
	assert_int_equal(cb_stats_reps_for(0.01, 1, 0.05, 0.8, 1000), -1); /* > 1000 */
	/* the MDE at the answer is small enough, and one fewer is not */
	assert_true(cb_stats_mde_mw(n, n, 0.05, 0.8) <= 1);
	assert_true(cb_stats_mde_mw(n - 1, n - 1, 0.05, 0.8) > 1);
}

/*
 * The waves' part of the CV against a simulation of known truth: 4000 repetitions of 40
 * independent lognormal waves (sigma 0.8: one wave's CV is sqrt(exp(0.64) - 1) = 0.94683,
 * so a total's is 0.94683 / sqrt(40) = 0.14971). Without a repetition effect the waves'
 * part, from each repetition's own sd, is that value, and so is the CV of the totals. With
 * every repetition's waves scaled by its own lognormal factor (sigma 0.3: CV
 * sqrt(exp(0.09) - 1) = 0.30688), the rest, sqrt(cv^2 - part^2), is that factor's CV:
 * Var(T) = Var(F) (n mu)^2 + E[F^2] n sigma^2 and the part estimates the second term. The
 * sampling error of 4000 repetitions is under 2% here (the totals' kurtosis is about 3.8);
 * we allow 6%. By hand: totals 100,
 * 100 of 25 waves with sd 4: sqrt(25 x 16) / 100 = 0.2.
 */
#define SIM_REPS 4000
#define SIM_WAVES 40

static void simulate(gsl_rng *r, double rep_sigma, double *cv, double *part)
{
	static double tot[SIM_REPS], n[SIM_REPS], sd[SIM_REPS];
	double w[SIM_WAVES];

	for (int i = 0; i < SIM_REPS; i++) {
		double f = exp(gsl_ran_gaussian(r, rep_sigma));

		tot[i] = 0;
		for (int k = 0; k < SIM_WAVES; k++)
			tot[i] += w[k] = f * gsl_ran_lognormal(r, 0, 0.8);
		n[i] = SIM_WAVES;
		sd[i] = gsl_stats_sd(w, 1, SIM_WAVES);
	}
	*cv = cb_stats_cv(tot, SIM_REPS);
	*part = cb_stats_cv_waves(tot, n, sd, SIM_REPS);
}

static void test_cv_waves(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	const double wave_cv = sqrt(exp(0.64) - 1) / sqrt(SIM_WAVES), rep_cv = sqrt(exp(0.09) - 1);
	double cv, part;

	gsl_rng_set(r, 7);
	simulate(r, 0, &cv, &part);
	print_message("waves alone: CV %.4f, waves' part %.4f (truth %.4f)\n", cv, part, wave_cv);
	assert_true(fabs(part / wave_cv - 1) < 0.06);
	assert_true(fabs(cv / wave_cv - 1) < 0.06);
	simulate(r, 0.3, &cv, &part);
	print_message("with a repetition effect: rest %.4f (truth %.4f)\n",
		      sqrt(cv * cv - part * part), rep_cv);
	assert_true(fabs(sqrt(cv * cv - part * part) / rep_cv - 1) < 0.06);
	gsl_rng_free(r);
	assert_true(fabs(cb_stats_cv_waves((double[]){ 100, 100 }, (double[]){ 25, 25 },
					   (double[]){ 4, 4 }, 2) - 0.2) < 1e-12);
	assert_true(isnan(cb_stats_cv_waves((double[]){ 100 }, (double[]){ 25 }, (double[]){ 4 },
					    1)));
	assert_true(isnan(cb_stats_cv_waves((double[]){ 100, 100 }, (double[]){ 25, NAN },
					    (double[]){ 4, 4 }, 2)));
}

/*
 * The waves a repetition needs: CV 0.5 at 40 waves, 0.48 of it the waves': the rest is
 * sqrt(0.25 - 0.2304) = 0.14, so 40 x 0.2304 / (0.0625 - 0.0196) = 214.8, 215 waves; the
 * CV they give, sqrt(0.0196 + 0.2304 x 40 / N), is at most 0.25 at 215 and over it at 214.
 * A rest of 0.3 (0.5, 0.4) is over 0.25 whatever the waves; a CV under the target needs no
 * more.
 */
static void test_waves_for(void **state)
{
	long n = cb_stats_waves_for(0.5, 0.48, 40, 0.25, 100000);

	assert_int_equal(n, 215);
	assert_true(sqrt(0.0196 + 0.2304 * 40 / n) <= 0.25);
	assert_true(sqrt(0.0196 + 0.2304 * 40 / (n - 1)) > 0.25);
	assert_int_equal(cb_stats_waves_for(0.5, 0.4, 40, 0.25, 100000), -1);
	assert_int_equal(cb_stats_waves_for(0.2, 0.1, 40, 0.25, 100000), 40);
	assert_int_equal(cb_stats_waves_for(0.5, 0.48, 40, 0.25, 200), -1);
	assert_int_equal(cb_stats_waves_for(NAN, 0.48, 40, 0.25, 100000), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mann_whitney_exact), cmocka_unit_test(test_mann_whitney_ties),
		cmocka_unit_test(test_trend), cmocka_unit_test(test_correlation),
		cmocka_unit_test(test_bootstrap_exact_cases),
		cmocka_unit_test(test_bootstrap_coverage),
		cmocka_unit_test(test_mde_t_reference),	   cmocka_unit_test(test_mde_t_monte_carlo),
		cmocka_unit_test(test_mde_mw),		   cmocka_unit_test(test_reps_for),
		cmocka_unit_test(test_cv), cmocka_unit_test(test_cv_waves),
		cmocka_unit_test(test_waves_for),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
