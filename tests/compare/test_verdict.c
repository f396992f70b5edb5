// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_verdict.c - the verdict's words on repetitions whose truth is known (the judgement
 * and the phrase report.md, run's verdict, compare and gate share):
 *   a clear difference: 5 reps each of 100 +- 2 against 50 +- 2: every value of one side
 *     below every value of the other, so the exact p is 2 / C(10, 5) = 0.00794; it says
 *     "fewer", with p and the CI;
 *   a null with 5 reps: no detectable difference, and the change it could have seen, which
 *     is the rank test's MDE for 5 a side times the pooled sd computed here by hand;
 *   a p under the level whose CI includes 0: no difference, and the phrase says why;
 *   a null with 2 reps: it cannot judge, and says how many reps a 10% change would need;
 *   paired by start state: 8 states far apart, the candidate 5% below the baseline in each,
 *     so the sides overlap (Mann-Whitney p = 0.72) but every pair moved one way: the
 *     signed-rank p is 2 / 2^8 = 0.0078 and the CI of the median difference is the one
 *     difference there is; pairs are found by name in any order, and any state missing,
 *     doubled or unmatched leaves the comparison unpaired.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verdict.h"

static void phrase(const double *a, size_t na, const double *b, size_t nb, char *buf,
		   size_t len, struct cb_judgement *j)
{
	cb_judge(a, na, b, nb, CB_BETTER_LOWER, 0.95, j);
	cb_verdict_phrase(buf, len, j, "stalls that did compaction work", "count", true, 0.95);
	print_message("%s\n", buf);
}

static void test_clear_difference(void **state)
{
	const double a[] = { 100, 102, 98, 101, 99 }, b[] = { 50, 52, 48, 51, 49 };
	struct cb_judgement j;
	char buf[640];

	phrase(a, 5, b, 5, buf, sizeof(buf), &j);
	assert_int_equal(j.state, CB_J_SIGNIFICANT);
	assert_true(fabs(j.p - 2.0 / 252) < 1e-12);
	assert_non_null(strstr(buf, "fewer stalls that did compaction work: 50 vs 100 (-50.0%, "
				    "p = 0.00794, 95% CI of the change "));
	/* the CI of the relative change is within the data's range: -52% .. -48% */
	assert_true(j.rel.lo >= -0.53 && j.rel.hi <= -0.47 && j.rel.hi < 0);
	/* and the other way round: more */
	cb_judge(b, 5, a, 5, CB_BETTER_LOWER, 0.95, &j);
	cb_verdict_phrase(buf, sizeof(buf), &j, "stall time", "ns", false, 0.95);
	assert_non_null(strstr(buf, "more stall time: 100 ns vs 50 ns (+100.0%, p = 0.00794"));
	assert_true(j.worse);
}

static void test_null_five_reps(void **state)
{
	const double a[] = { 100, 110, 90, 105, 95 }, b[] = { 102, 92, 108, 97, 101 };
	struct cb_judgement j;
	char buf[640], want[128];
	double ma = 100, var_a = 0, var_b = 0, mb = 0, sd;

	phrase(a, 5, b, 5, buf, sizeof(buf), &j);
	assert_int_equal(j.state, CB_J_NOT_SIGNIFICANT);
	/* the pooled sd by hand: a's mean 100, b's mean 100 */
	for (int i = 0; i < 5; i++)
		mb += b[i] / 5;
	for (int i = 0; i < 5; i++) {
		var_a += (a[i] - ma) * (a[i] - ma) / 4;
		var_b += (b[i] - mb) * (b[i] - mb) / 4;
	}
	sd = sqrt((var_a + var_b) / 2);
	assert_true(fabs(j.sd - sd) < 1e-9);
	/* each side's spread: sd / mean, a's sqrt(62.5) / 100 */
	assert_true(fabs(j.cv_a - sqrt(62.5) / 100) < 1e-12);
	assert_true(fabs(j.cv_b - sqrt(var_b) / mb) < 1e-12);
	assert_true(fabs(j.mde - cb_stats_mde_mw(5, 5, 0.05, 0.8) * sd) < 1e-9);
	/* median 100 on both sides: the change it could have seen, as % of 100 */
	snprintf(want, sizeof(want), "(p = %.2g; could have seen a change of %.0f%% or more)", j.p,
		 cb_stats_mde_mw(5, 5, 0.05, 0.8) * sd);
	assert_non_null(strstr(buf, "no detectable difference in stalls that did compaction work: "
				    "101 vs 100 "));
	assert_non_null(strstr(buf, want));
	assert_null(strstr(buf, "fewer"));
}

/*
 * A p under the level with a CI of the change that includes 0 (the rank test and the
 * bootstrap of the medians can disagree: the learning curve of a 2026-12-07 run had p =
 * 0.023 and no difference) is no difference, and the phrase says why; at or above the level
 * it says nothing of the CI (test_null_five_reps)
 */
static void test_low_p_ci_includes_zero(void **state)
{
	const double a[] = { 100, 110, 90, 105, 95 }, b[] = { 102, 92, 108, 97, 101 };
	struct cb_judgement j;
	char buf[640], want[160];

	cb_judge(a, 5, b, 5, CB_BETTER_LOWER, 0.95, &j);
	assert_int_equal(j.state, CB_J_NOT_SIGNIFICANT);
	j.p = 0.023;
	cb_verdict_phrase(buf, sizeof(buf), &j, "stall time", "ns", false, 0.95);
	snprintf(want, sizeof(want), "(p = 0.023; the CI of the change includes 0; could have "
		 "seen a change of %.0f%% or more)", cb_stats_mde_mw(5, 5, 0.05, 0.8) * j.sd);
	assert_non_null(strstr(buf, want));
	/* at a level of 0.99 the same p is above it: no word on the CI */
	cb_verdict_phrase(buf, sizeof(buf), &j, "stall time", "ns", false, 0.99);
	assert_null(strstr(buf, "includes 0"));
}

static void test_null_two_reps(void **state)
{
	const double a[] = { 100, 110 }, b[] = { 105, 95 };
	struct cb_judgement j;
	char buf[640], want[160];
	long n;

	phrase(a, 2, b, 2, buf, sizeof(buf), &j);
	assert_int_equal(j.state, CB_J_CANNOT_JUDGE);
	/* target: 10% of the median 105 = 10.5; sd: both groups' variance is 50, so sqrt(50) */
	assert_true(fabs(j.sd - sqrt(50)) < 1e-9);
	n = cb_stats_reps_for(10.5, sqrt(50), 0.05, 0.8, 1000);
	assert_true(n >= 4);
	assert_int_equal(j.reps_needed, n);
	snprintf(want, sizeof(want), "cannot judge stalls that did compaction work: 100 vs 105 "
		 "with 2 and 2 reps; needs %ld reps each to see a change of 10%% (80%% power)", n);
	assert_string_equal(buf, want);
	/* even a large difference is not claimed with 2 reps: p can be no lower than 1/3 */
	phrase((double[]){ 100, 101 }, 2, (double[]){ 10, 11 }, 2, buf, sizeof(buf), &j);
	assert_int_equal(j.state, CB_J_CANNOT_JUDGE);
	assert_null(strstr(buf, "fewer"));
}

static void test_no_value(void **state)
{
	struct cb_judgement j;
	char buf[256];

	assert_int_equal(cb_judge(NULL, 0, NULL, 0, CB_BETTER_LOWER, 0.95, &j), -1);
	cb_verdict_phrase(buf, sizeof(buf), &j, "p99 stall", "ns", false, 0.95);
	assert_string_equal(buf, "p99 stall: no value on either side");
	/* all zero on both sides with no spread: none, not "no detectable difference" */
	phrase((double[]){ 0, 0, 0, 0, 0 }, 5, (double[]){ 0, 0, 0, 0, 0 }, 5, buf, sizeof(buf), &j);
	assert_string_equal(buf, "no stalls that did compaction work on either side");
}

/* the formats every view shares: human units, relative change only off a near-zero base */
static void test_formats(void **state)
{
	char buf[64];

	cb_fmt_value(buf, sizeof(buf), 69.2e6, "ns");
	assert_string_equal(buf, "69.2 ms");
	cb_fmt_value(buf, sizeof(buf), 0.459, "ratio");
	assert_string_equal(buf, "45.9%");
	cb_fmt_change(buf, sizeof(buf), 69.2e6, 41.4e6, "ns");
	assert_string_equal(buf, "-40.2%");
	/* 1 us -> 929 us: not "+92800%" but the absolute change */
	cb_fmt_change(buf, sizeof(buf), 1e3, 929e3, "ns");
	assert_string_equal(buf, "+928 us");
	cb_fmt_change(buf, sizeof(buf), 0, 5, "count");
	assert_string_equal(buf, "+5");
}

/*
 * paired, the direction is the differences', not the medians': from 8 states the candidate
 * has more in 7 (by 5..100) and less in 1 (by 10), so its median is below the baseline's
 * (447.5 vs 450) while the median difference is +65; the signed-rank test (W- = 2: p = 2 x
 * 3 / 256) finds it, and the judgement must call it worse and the phrase say "more"
 */
static void test_paired_direction(void **state)
{
	const double a[] = { 100, 200, 300, 400, 500, 600, 700, 800 };
	const double b[] = { 150, 260, 370, 390, 505, 680, 790, 900 };
	const char *st[] = { "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8" };
	struct cb_judgement j;
	char buf[640];

	cb_judge_states(a, st, 8, b, st, 8, CB_BETTER_LOWER, 0.95, &j);
	cb_verdict_phrase(buf, sizeof(buf), &j, "stall time", "ns", false, 0.95);
	print_message("%s\n", buf);
	assert_true(j.paired);
	assert_true(j.mb < j.ma);
	assert_true(j.dmed == 65 && j.worse && j.delta_pct > 0);
	assert_true(fabs(j.p - 6.0 / 256) < 1e-12);
	assert_true(cb_judge_to(&j) == 515);
	assert_true(j.significant);
	assert_true(j.diff.lo > 0);
	assert_non_null(strstr(buf, "more stall time: 448 ns vs 450 ns (+14.4%, p = 0.0234"));
}

static void test_paired_by_state(void **state)
{
	const double a[] = { 100, 200, 300, 400, 500, 600, 700, 800 };
	const char *sa[] = { "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8" };
	/*
	 * the same states listed in another order (a rotation: pairing by position, or by
	 * the inverse of the mapping, would give other differences), each 5% below its baseline
	 */
	const char *sb[] = { "s3", "s4", "s5", "s6", "s7", "s8", "s1", "s2" };
	const char *dup[] = { "s1", "s1", "s3", "s4", "s5", "s6", "s7", "s8" };
	const char *other[] = { "s1", "s2", "s3", "s4", "s5", "s6", "s7", "x" };
	const char *none[] = { "s1", "s2", "s3", "s4", NULL, "s6", "s7", "s8" };
	double b[8];
	struct cb_judgement j;
	char buf[640];

	for (int i = 0; i < 8; i++)
		b[i] = a[(i + 2) % 8] * 0.95;
	cb_judge(a, 8, b, 8, CB_BETTER_LOWER, 0.95, &j);
	assert_false(j.paired);
	assert_false(j.significant);
	print_message("unpaired: p = %.3f\n", j.p);
	assert_true(j.p > 0.5);
	cb_judge_states(a, sa, 8, b, sb, 8, CB_BETTER_LOWER, 0.95, &j);
	cb_verdict_phrase(buf, sizeof(buf), &j, "stall time", "ns", false, 0.95);
	print_message("%s\n", buf);
	assert_true(j.paired);
	assert_int_equal(j.state, CB_J_SIGNIFICANT);
	assert_true(fabs(j.p - 2.0 / 256) < 1e-12);
	/* differences -5 .. -40: the median difference's CI lies among them */
	assert_true(j.diff.lo >= -40 && j.diff.hi <= -5);
	assert_non_null(strstr(buf, "less stall time: "));
	assert_non_null(strstr(buf, "p = 0.00781, paired over 8 saved states"));
	/*
	 * the estimate is the median of the differences, which the CI is of, not the
	 * difference of the medians: states 0, 10, 100 against 50, 11, 101 differ by 50, 1, 1
	 * (median 1) where the medians differ by 50 - 10 = 40
	 */
	{
		const double x[] = { 0, 10, 100 }, y[] = { 50, 11, 101 };
		const char *s3[] = { "s1", "s2", "s3" };

		cb_judge_states(x, s3, 3, y, s3, 3, CB_BETTER_LOWER, 0.95, &j);
		assert_true(j.paired);
		assert_true(j.dmed == 1 && j.mb - j.ma == 40);
		cb_judge(x, 3, y, 3, CB_BETTER_LOWER, 0.95, &j);
		assert_true(j.dmed == 40);
	}
	/* not one-to-one: unpaired */
	cb_judge_states(a, sa, 8, b, dup, 8, CB_BETTER_LOWER, 0.95, &j);
	assert_false(j.paired);
	cb_judge_states(a, sa, 8, b, other, 8, CB_BETTER_LOWER, 0.95, &j);
	assert_false(j.paired);
	cb_judge_states(a, none, 8, b, sb, 8, CB_BETTER_LOWER, 0.95, &j);
	assert_false(j.paired);
	cb_judge_states(a, sa, 8, b, sb, 7, CB_BETTER_LOWER, 0.95, &j);
	assert_false(j.paired);
	/* 5 states cannot reach p < 0.05 paired (2 / 32): it says how many states it needs */
	cb_judge_states(a + 2, sa + 2, 5, b, sb, 5, CB_BETTER_LOWER, 0.95, &j);
	cb_verdict_phrase(buf, sizeof(buf), &j, "stall time", "ns", false, 0.95);
	print_message("%s\n", buf);
	assert_true(j.paired);
	assert_int_equal(j.state, CB_J_CANNOT_JUDGE);
	assert_non_null(strstr(buf, "with 5 saved states; paired, needs "));
	/* one state: no spread to go by, and it says states, not reps */
	cb_judge_states(a, sa, 1, b + 6, sb + 6, 1, CB_BETTER_LOWER, 0.95, &j);
	cb_verdict_phrase(buf, sizeof(buf), &j, "stall time", "ns", false, 0.95);
	print_message("%s\n", buf);
	assert_true(j.paired);
	assert_non_null(strstr(buf, "with 1 saved state; the signed-rank test needs at least 6 "
				    "states to reach p < 0.05"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clear_difference),
		cmocka_unit_test(test_null_five_reps),
		cmocka_unit_test(test_low_p_ci_includes_zero),
		cmocka_unit_test(test_null_two_reps),
		cmocka_unit_test(test_no_value),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_paired_by_state),
		cmocka_unit_test(test_paired_direction),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
