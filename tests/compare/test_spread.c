// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_spread.c - `compare` states how far one repetition is from the next: each side's
 * coefficient of variation of stall time (sd / mean) under the text and markdown tables, the
 * warning above 25%, and cv_baseline / cv_candidate on every JSON row. A synthetic run of
 * known values: setting "steady", stall time 100, 110, 90, 105, 95 ms (mean 100, sample sd
 * sqrt(62.5) = 7.906: CV 7.9%), and setting "wide", 50, 100, 150, 200, 250 ms (mean 150,
 * sample sd sqrt(6250) = 79.06: CV 52.7%); stalls 10 in every cell (CV 0).
 *
 * With waves, the part of the CV their own spread gives: sqrt(mean(waves x sd^2)) / mean.
 * "wavy" is steady's stall time in 25 waves of sd 1 ms: sqrt(25) / 100 = 5%. "wide-rest" is
 * wide's in 25 waves of sd 12 ms: 60 / 150 = 40%, so the repetitions differ by
 * sqrt(0.27778 - 0.16) = 34% beyond their waves, over 25% whatever the waves. "wide-waves":
 * sd 15.5 ms, 77.5 / 150 = 51.67%; the rest is sqrt(0.27778 - 0.26694) = 10.4%, and
 * 25 x 0.26694 / (0.0625 - 0.010833) = 129.2, so 130 waves would bring the CV to 25%.
 * "wide-far": sd 13.920219 ms, 69.601 / 150 = 46.40%; the rest is sqrt(0.27778 - 0.21530)
 * = 24.995%, just under 25%, and 25 x 0.21530 / (0.0625 - 0.062475) = 215331 waves: more
 * than the 100000 compare works out, which is not "no number of waves would do".
 * "wide-near": sd 13.951573 ms, 46.505%, the rest 24.8% (printed so, not as "25%"), and
 * 25 x 0.216274 / (0.0625 - 0.061504) = 5428.6: 5429 waves.
 *
 * Paired over start states (summary.json start_state), whether the two sides share the
 * states' spread: steady (deviations 0, 10, -10, 5, -5 ms by state) against "shared", 104,
 * 106, 92, 98, 100 ms (deviations 4, 6, -8, -2, 0): Sxy = 130, Sxx = 250, Syy = 120, r =
 * 130 / sqrt(30000) = 0.7506, t = r sqrt(3 / (1 - r^2)) = 1.967 on 3 df, p = 0.1438 (the
 * closed form of test_stats.c), 95% CI by Fisher's z tanh(atanh(r) -/+ 1.959964 / sqrt(2)) =
 * -0.390 to 0.982; "line", 2 x steady - 100, has r = 1 and "mirror", 200 - steady, r = -1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "runfix.h"
#include "util.h"

static char tmp[] = "/tmp/cb-test-spread-XXXXXX";

#define REPS 5

static const char *make_run_at(const char *first, const char *second, bool states)
{
	static char d[700];
	static const long steady[REPS] = { 100, 110, 90, 105, 95 }, wide[REPS] = { 150, 50, 250,
										  100, 200 };
	static const long shared[REPS] = { 104, 106, 92, 98, 100 };
	static const char *const state_name[REPS] = { "k.w.r1/s1", "k.w.r2/s2", "k.w.r3/s3",
						      "k.w.r4/s4", "k.w.r5/s5" };
	const char *const kernels[] = { "k", NULL }, *const settings[] = { first, second, NULL };
	static const char *const workloads[] = { "w", NULL };
	struct runfix_cell cells[2 * REPS];
	struct runfix rf = { .head = "\"complete\":true,\"pending\":[]" };
	size_t n = runfix_grid(cells, 2 * REPS, kernels, settings, workloads, REPS);

	for (size_t i = 0; i < n; i++) {
		const char *s = cells[i].setting;
		const long *ms = !strncmp(s, "wide", 4) ? wide : !strcmp(s, "shared") ? shared :
				 steady;
		long v = ms[cells[i].rep - 1];
		long stall_ms = !strcmp(s, "line") ? 2 * v - 100 : !strcmp(s, "mirror") ? 200 - v : v;
		double sd = !strcmp(s, "wavy") ? 1e6 : !strcmp(s, "wide-rest") ? 12e6 :
			    !strcmp(s, "wide-waves") ? 15.5e6 :
			    !strcmp(s, "wide-far") ? 13920219 :
			    !strcmp(s, "wide-near") ? 13951573 : 0;
		int len = snprintf(cells[i].metrics, sizeof(cells[i].metrics),
				   "\"dc_stall_total_ns\":%ld,\"dc_stalls\":10",
				   stall_ms * 1000000);

		if (states)
			cells[i].start_state = state_name[cells[i].rep - 1];
		if (sd > 0)
			snprintf(cells[i].metrics + len, sizeof(cells[i].metrics) - len,
				 ",\"wave_count\":25,\"wave_stall_ns_sd\":%.0f", sd);
	}
	snprintf(d, sizeof(d), "%s/%s-%s%s", tmp, first, second, states ? "-states" : "");
	assert_int_equal(runfix_write(d, &rf, cells, n), 0);
	return d;
}

static const char *make_run(const char *first, const char *second)
{
	return make_run_at(first, second, false);
}

static char *compare(const char *d, const char *format)
{
	char *argv[] = { "compare", (char *)d, "--format", (char *)format, "--all", NULL };
	char *out, *err;

	assert_int_equal(runfix_capture(cmd_compare, argv, tmp, &out, &err), 0);
	assert_non_null(out);
	free(err);
	return out;
}

static void test_spread_text(void **state)
{
	char *out = compare(make_run("steady", "wide"), "text");

	assert_non_null(strstr(out, "CV of stall time per repetition (sd / mean): "
				    "baseline 8%, candidate 53%.\nOver 25%, one repetition says "
				    "little"));
	free(out);
	/* both sides narrow: the figures, no warning */
	out = compare(make_run("steady", "steady2"), "text");
	assert_non_null(strstr(out, "baseline 8%, candidate 8%.\n"));
	assert_null(strstr(out, "Over 25%"));
	free(out);
	out = compare(make_run("wide", "steady"), "markdown");
	assert_non_null(strstr(out, "\nCV of stall time per repetition (sd / mean): "
				    "baseline 53%, candidate 8%. Over 25%, one repetition says "
				    "little"));
	free(out);
}

/* with waves: how much of the CV they give, and what more waves would do */
static void test_spread_waves(void **state)
{
	char *out = compare(make_run("wavy", "wide-rest"), "text");

	assert_non_null(strstr(out, "baseline 8%, candidate 53%; the spread of their own waves "
				    "alone would give 5% and 40%.\nOver 25%, one repetition says "
				    "little. The candidate's repetitions differ by 34% beyond what "
				    "their waves give (40%): more waves would not bring it to 25%, "
				    "more repetitions narrow the CI."));
	free(out);
	out = compare(make_run("wavy", "wide-waves"), "text");
	assert_non_null(strstr(out, "The candidate's waves alone would give 52% (its CV: 53%, "
				    "the rest: 10%): about 130 waves a repetition (not 25) would "
				    "bring it to 25%, if the rest held."));
	free(out);
	out = compare(make_run("wavy", "wide-far"), "text");
	assert_non_null(strstr(out, "The candidate's waves alone would give 46% (its CV: 53%), "
				    "the rest 25.0%, just under 25%: more than 100000 waves a "
				    "repetition would be needed to bring it there; more repetitions "
				    "narrow the CI."));
	assert_null(strstr(out, "would not bring"));
	free(out);
	out = compare(make_run("wavy", "wide-near"), "text");
	assert_non_null(strstr(out, "(its CV: 53%, the rest: 24.8%): about 5429 waves a "
				    "repetition (not 25) would bring it to 25%, if the rest held."));
	free(out);
	/* without waves on one side: no part, the old advice */
	out = compare(make_run("wavy", "wide"), "text");
	assert_null(strstr(out, "own waves"));
	assert_non_null(strstr(out, "more waves or repetitions narrow it."));
	free(out);
}

/* paired over start states: whether the two sides share the states' spread */
static void test_spread_states(void **state)
{
	char *out = compare(make_run_at("steady", "shared", true), "text");

	assert_non_null(strstr(out, "their sd is "));
	assert_non_null(strstr(out, "\nOver the states the two sides' stall times correlate with "
				    "r = 0.75 (95% CI -0.39 to 0.98, p = 0.14): no effect of the "
				    "states that both sides share was shown."));
	free(out);
	/* r = +-1 exactly or within rounding: p is 0 or tiny, so only r and the reading */
	out = compare(make_run_at("steady", "line", true), "markdown");
	assert_non_null(strstr(out, " Over the states the two sides' stall times correlate with "
				    "r = 1.00 (95% CI 1.00 to 1.00, p = "));
	assert_non_null(strstr(out, "): a state that stalls more under one side stalls more under "
				    "the other, and pairing takes that out."));
	free(out);
	out = compare(make_run_at("steady", "mirror", true), "text");
	assert_non_null(strstr(out, "r = -1.00 (95% CI -1.00 to -1.00, p = "));
	assert_non_null(strstr(out, "): a state that stalls more under one side stalls less under "
				    "the other, and pairing widens the differences."));
	free(out);
	/* not paired: no such line */
	out = compare(make_run("steady", "shared"), "text");
	assert_null(strstr(out, "correlate"));
	free(out);
}

static double row_num(struct json_object *all, const char *metric, const char *key)
{
	struct json_object *pair = json_object_array_get_idx(all, 0), *m, *row, *x;

	assert_true(json_object_object_get_ex(pair, "metrics", &m));
	assert_true(json_object_object_get_ex(m, metric, &row));
	assert_true(json_object_object_get_ex(row, key, &x));
	return json_object_get_double(x);
}

static void test_spread_json(void **state)
{
	char *out = compare(make_run("steady", "wide"), "json");
	struct json_object *all = json_tokener_parse(out);

	assert_non_null(all);
	assert_true(fabs(row_num(all, "dc_stall_total_ns", "cv_baseline") - sqrt(62.5) / 100) <
		    1e-12);
	assert_true(fabs(row_num(all, "dc_stall_total_ns", "cv_candidate") - sqrt(6250) / 150) <
		    1e-12);
	assert_true(row_num(all, "dc_stalls", "cv_baseline") == 0);
	json_object_put(all);
	free(out);
	out = compare(make_run("wavy", "wide-waves"), "json");
	all = json_tokener_parse(out);
	assert_non_null(all);
	assert_true(fabs(row_num(all, "dc_stall_total_ns", "cv_waves_baseline") - 0.05) < 1e-12);
	assert_true(fabs(row_num(all, "dc_stall_total_ns", "cv_waves_candidate") - 77.5 / 150) <
		    1e-12);
	json_object_put(all);
	free(out);
	out = compare(make_run_at("steady", "shared", true), "json");
	all = json_tokener_parse(out);
	assert_non_null(all);
	assert_true(fabs(row_num(all, "dc_stall_total_ns", "state_r") - 130 / sqrt(30000)) < 1e-12);
	assert_true(fabs(row_num(all, "dc_stall_total_ns", "state_r_p") - 0.14383) < 0.00001);
	assert_true(fabs(row_num(all, "dc_stall_total_ns", "state_r_lo") + 0.38990) < 0.00001);
	assert_true(fabs(row_num(all, "dc_stall_total_ns", "state_r_hi") - 0.98233) < 0.00001);
	json_object_put(all);
	free(out);
}

static int setup(void **state)
{
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	return cb_rm_rf(tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread_text),
		cmocka_unit_test(test_spread_json),
		cmocka_unit_test(test_spread_waves),
		cmocka_unit_test(test_spread_states),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
