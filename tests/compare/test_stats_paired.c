// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stats_paired.c - the signed-rank test on paired repetitions and its power
 * (stats_paired.h), against values known independently: a textbook sample, a hand
 * computation of the normal approximation, and another simulation of the test's power.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats.h"
#include "stats_paired.h"

/*
 * Hollander & Wolfe (1973), p. 29: Hamilton depression scale before (x) and after (y) a
 * tranquilizer, 9 patients; the example of R's ?wilcox.test. wilcox.test(x, y, paired =
 * TRUE, alternative = "greater") gives V = 40, p-value = 0.01953 (= 10 / 512: the sign
 * patterns with V >= 40 are those whose negative ranks sum to 5 or less); two-sided, twice
 * that, 0.0390625. The other way round, V = 5 and the same p.
 */
static void test_signed_rank_textbook(void **state)
{
	const double x[] = { 1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30 };
	const double y[] = { 0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29 };
	double d[10], v;

	for (int i = 0; i < 9; i++)
		d[i] = x[i] - y[i];
	assert_true(fabs(cb_stats_signed_rank(d, 9, &v) - 0.0390625) < 1e-12);
	assert_true(v == 40);
	for (int i = 0; i < 9; i++)
		d[i] = y[i] - x[i];
	assert_true(fabs(cb_stats_signed_rank(d, 9, &v) - 0.0390625) < 1e-12);
	assert_true(v == 5);
	/* a zero difference is dropped: the same answer with a tenth pair that did not move */
	d[9] = 0;
	assert_true(fabs(cb_stats_signed_rank(d, 10, &v) - 0.0390625) < 1e-12);
	/* all positive, 6 pairs: the one most extreme pattern of 64 each way, p = 2 / 64 */
	assert_true(fabs(cb_stats_signed_rank((const double[]){ 1, 2, 3, 4, 5, 6 }, 6, &v) -
			 2.0 / 64) < 1e-12);
	assert_true(v == 21);
	assert_true(isnan(cb_stats_signed_rank((const double[]){ 0, 0 }, 2, &v)));
}

/*
 * Ties: d = 1, 1, 2, 2, 3, -1. |d| ranks: the three 1s share (1 + 2 + 3) / 3 = 2, the 2s
 * (4 + 5) / 2 = 4.5, the 3 is 6; V = 2 + 2 + 4.5 + 4.5 + 6 = 19. By hand from the normal
 * approximation: mean 6 * 7 / 4 = 10.5, variance 6 * 7 * 13 / 24 - ((27 - 3) + (8 - 2)) / 48
 * = 22.125, z = (19 - 10.5 - 0.5) / sqrt(22.125) = 1.70077, p = 2 Q(z) = 0.088983.
 */
static void test_signed_rank_ties(void **state)
{
	const double d[] = { 1, 1, 2, 2, 3, -1 };
	double v, p = cb_stats_signed_rank(d, 6, &v);

	assert_true(v == 19);
	print_message("tied signed-rank p %.6f (by hand 0.088983)\n", p);
	assert_true(fabs(p - 0.088983) < 1e-5);
}

/*
 * The MDE (simulated with seed 20171 from Walsh averages) checked by another simulation:
 * other draws (seed 7), the test itself (cb_stats_signed_rank's exact p), 20000 samples of
 * n normal differences shifted by it: power 0.80 within 0.015. It exceeds the z test's
 * (z(0.975) + z(0.8)) / sqrt(n), which knows the variance and no test can beat; it is
 * infinite at 5 pairs (smallest p 2 / 32 = 0.0625); above 50 pairs it is the z test's with
 * the pairs scaled by 3 / pi, which the simulation approaches (within 4% at 50).
 */
static void test_mde_paired(void **state)
{
	static const size_t ns[] = { 6, 8, 12 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	const double zz = 1.959964 + 0.841621;

	gsl_rng_set(r, 7);
	for (size_t c = 0; c < 3; c++) {
		size_t n = ns[c];
		double d = cb_stats_mde_paired(n, 0.05, 0.8), x[12], power;
		int rej = 0, iters = 20000;

		assert_true(d > zz / sqrt((double)n));
		for (int i = 0; i < iters; i++) {
			for (size_t k = 0; k < n; k++)
				x[k] = gsl_ran_gaussian(r, 1) + d;
			rej += cb_stats_signed_rank(x, n, NULL) < 0.05;
		}
		power = (double)rej / iters;
		print_message("signed-rank power at its MDE %.4f (%zu pairs): %.4f\n", d, n, power);
		assert_true(fabs(power - 0.8) < 0.015);
	}
	gsl_rng_free(r);
	assert_true(fabs(cb_stats_min_p_paired(5) - 0.0625) < 1e-12);
	assert_true(isinf(cb_stats_mde_paired(5, 0.05, 0.8)));
	assert_true(isnan(cb_stats_mde_paired(1, 0.05, 0.8)));
	assert_true(fabs(cb_stats_mde_paired(51, 0.05, 0.8) - zz / sqrt(51 * 3 / M_PI)) < 1e-4);
	assert_true(fabs(cb_stats_mde_paired(50, 0.05, 0.8) / (zz / sqrt(50 * 3 / M_PI)) - 1) <
		    0.04);
}

/* pairs for a shift of one sd: the MDE at the answer is enough and one fewer is not */
static void test_reps_for_paired(void **state)
{
	long n = cb_stats_reps_for_paired(1, 1, 0.05, 0.8, 1000);

	print_message("pairs for a shift of one sd: %ld\n", n);
	assert_true(n > 6);
	assert_true(cb_stats_mde_paired((size_t)n, 0.05, 0.8) <= 1);
	assert_true(cb_stats_mde_paired((size_t)n - 1, 0.05, 0.8) > 1);
	assert_int_equal(cb_stats_reps_for_paired(1, 0, 0.05, 0.8, 1000), 6);
	assert_int_equal(cb_stats_reps_for_paired(0, 1, 0.05, 0.8, 1000), -1);
	assert_int_equal(cb_stats_reps_for_paired(0.01, 1, 0.05, 0.8, 1000), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signed_rank_textbook),
		cmocka_unit_test(test_signed_rank_ties),
		cmocka_unit_test(test_mde_paired),
		cmocka_unit_test(test_reps_for_paired),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
