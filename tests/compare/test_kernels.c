// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kernels.c - two kernels in one run directory (the A/B of `run --resume` across a
 * reboot, or a matrix of two kernels): `compare DIR --kernels A,B` and `gate DIR:A/ DIR:B/`
 * pair the same setting and workload across the kernels, on a synthetic run whose numbers
 * give known results; the default pairing of one run (settings within a kernel) stays; a
 * kernel not booted yet (run.json "pending") is pending, not a failure, and a gate whose
 * candidate is all pending is inconclusive (3).
 *
 * The run: kernels A and B, settings s and s2, workload w, 5 repetitions. dc_stall_p99_ns
 * is 100, 110, 120, 130, 140 in every group but B/s, where it is 200 ... 240. So B/s against
 * A/s: medians 120 and 220 (+83.3%), the samples do not overlap, and the exact two-sided
 * Mann-Whitney p is 2 / C(10, 5) = 2 / 252 = 0.0079365 (the smallest p of 5 against 5).
 * dc_stall_total_ns is 1000 in every cell: never a change.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "runfix.h"
#include "util.h"

static char tmp[] = "/tmp/cb-test-kernels-XXXXXX";

#define REPS 5

/* the run; with @b_pending, kernel B's cells are listed but wait for B to be booted */
static const char *make_run(const char *name, bool b_pending)
{
	static char d[700];
	static const char *const kernels[] = { "A", "B", NULL }, *const settings[] = { "s", "s2",
										    NULL };
	static const char *const workloads[] = { "w", NULL };
	struct runfix_cell cells[2 * 2 * REPS];
	struct runfix rf = { .head = b_pending ? "\"complete\":false,\"pending\":[{\"kernel\":"
				     "\"B\",\"release\":\"6.1.0-b\",\"booted\":\"6.1.0-a\","
				     "\"cells\":10}]" : "\"complete\":true,\"pending\":[]" };
	size_t n = runfix_grid(cells, 2 * 2 * REPS, kernels, settings, workloads, REPS);

	for (size_t i = 0; i < n; i++) {
		bool b = !strcmp(cells[i].kernel, "B");

		cells[i].no_dir = b && b_pending; /* never ran */
		snprintf(cells[i].metrics, sizeof(cells[i].metrics), "\"dc_stall_p99_ns\":%d,"
			 "\"dc_stall_total_ns\":1000,\"dc_stalls\":10",
			 (b && !strcmp(cells[i].setting, "s") ? 200 : 100) + 10 * (cells[i].rep - 1));
	}
	snprintf(d, sizeof(d), "%s/%s", tmp, name);
	assert_int_equal(runfix_write(d, &rf, cells, n), 0);
	return d;
}

/* run @fn(argc, argv) with stdout and stderr into strings; returns the exit code */
static int capture(int (*fn)(int, char **), char **argv, char **out, char **err)
{
	int rc = runfix_capture(fn, argv, tmp, out, err);

	assert_non_null(*out);
	assert_non_null(*err);
	return rc;
}

static struct json_object *metric(struct json_object *pair, const char *name)
{
	struct json_object *m, *x;

	assert_true(json_object_object_get_ex(pair, "metrics", &m));
	assert_true(json_object_object_get_ex(m, name, &x));
	return x;
}

static double num(struct json_object *o, const char *key)
{
	struct json_object *x;

	assert_true(json_object_object_get_ex(o, key, &x));
	return json_object_get_double(x);
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *x;

	assert_true(json_object_object_get_ex(o, key, &x));
	return json_object_get_string(x);
}

static void test_compare_kernels(void **state)
{
	const char *d = make_run("ab", false);
	char *argv[] = { "compare", (char *)d, "--kernels", "A,B", "--format", "json", NULL };
	char *out, *err, want[900];
	struct json_object *all, *pair, *x;

	assert_int_equal(capture(cmd_compare, argv, &out, &err), 0);
	all = json_tokener_parse(out);
	assert_non_null(all);
	/* one pair per setting, never s against s2 */
	assert_int_equal(json_object_array_length(all), 2);
	pair = json_object_array_get_idx(all, 0);
	snprintf(want, sizeof(want), "%s:A/s", d);
	assert_string_equal(str(pair, "baseline"), want);
	snprintf(want, sizeof(want), "%s:B/s", d);
	assert_string_equal(str(pair, "candidate"), want);
	x = metric(pair, "dc_stall_p99_ns");
	assert_true(num(x, "baseline") == 120);
	assert_true(num(x, "candidate") == 220);
	assert_true(fabs(num(x, "delta_pct") - 100.0 * 100 / 120) < 1e-9);
	assert_true(fabs(num(x, "p") - 2.0 / 252) < 1e-9);
	assert_true(json_object_get_boolean(json_object_object_get(x, "significant")));
	assert_true(json_object_get_boolean(json_object_object_get(x, "worse")));
	x = metric(pair, "dc_stall_total_ns");
	assert_false(json_object_get_boolean(json_object_object_get(x, "significant")));
	pair = json_object_array_get_idx(all, 1);
	snprintf(want, sizeof(want), "%s:A/s2", d);
	assert_string_equal(str(pair, "baseline"), want);
	snprintf(want, sizeof(want), "%s:B/s2", d);
	assert_string_equal(str(pair, "candidate"), want);
	x = metric(pair, "dc_stall_p99_ns");
	assert_true(num(x, "baseline") == 120 && num(x, "candidate") == 120);
	assert_false(json_object_get_boolean(json_object_object_get(x, "significant")));
	json_object_put(all);
	free(out);
	free(err);

	/* the default with one run stays: each kernel's s2 against its s (getopt permutes argv) */
	assert_int_equal(capture(cmd_compare, (char *[]){ "compare", (char *)d, "--format", "json",
							  NULL }, &out, &err), 0);
	all = json_tokener_parse(out);
	assert_int_equal(json_object_array_length(all), 2);
	snprintf(want, sizeof(want), "%s:A/s2", d);
	assert_string_equal(str(json_object_array_get_idx(all, 0), "candidate"), want);
	snprintf(want, sizeof(want), "%s:B/s", d);
	assert_string_equal(str(json_object_array_get_idx(all, 1), "baseline"), want);
	/* B/s2 against B/s: 220 -> 120, the same p */
	x = metric(json_object_array_get_idx(all, 1), "dc_stall_p99_ns");
	assert_true(fabs(num(x, "p") - 2.0 / 252) < 1e-9);
	assert_false(json_object_get_boolean(json_object_object_get(x, "worse")));
	json_object_put(all);
	free(out);
	free(err);

	/* the text table says the same */
	assert_int_equal(capture(cmd_compare, (char *[]){ "compare", (char *)d, "--kernels", "A,B",
							  NULL }, &out, &err), 0);
	assert_non_null(strstr(out, "+83.3%"));
	assert_non_null(strstr(out, "0.008 worse"));
	free(out);
	free(err);

	/* bad --kernels: one name, an unknown kernel, two runs */
	assert_int_equal(capture(cmd_compare, (char *[]){ "compare", (char *)d, "--kernels", "A",
							  NULL }, &out, &err), 2);
	free(out);
	free(err);
	assert_int_equal(capture(cmd_compare, (char *[]){ "compare", (char *)d, "--kernels", "A,C",
							  NULL }, &out, &err), 2);
	assert_non_null(strstr(err, "no kernel 'C' in this run (it has: A B)"));
	free(out);
	free(err);
	{
		char *two[] = { "compare", (char *)d, (char *)d, "--kernels", "A,B", NULL };

		assert_int_equal(capture(cmd_compare, two, &out, &err), 2);
		free(out);
		free(err);
	}
}

static int gate(const char *base, const char *cand, const char *extra, char **out)
{
	char b[900], c[900], *err;
	/*
	 * p99 spreads over 100..140 in a group: 5 reps a side could have seen a change of 31%
	 * (80% power), so these gates, about pairing and not power, allow --max-mde 50%
	 */
	char *argv[] = { "gate", "--baseline", b, "--candidate", c, "--max-mde=50%",
			 (char *)extra, NULL };
	int rc;

	snprintf(b, sizeof(b), "%s", base);
	snprintf(c, sizeof(c), "%s", cand);
	rc = capture(cmd_gate, argv, out, &err);
	free(err);
	return rc;
}

static void test_gate_kernels(void **state)
{
	const char *d = make_run("ab", false);
	char a[800], b[800], *out;

	snprintf(a, sizeof(a), "%s:A/", d);
	snprintf(b, sizeof(b), "%s:B/", d);
	assert_int_equal(gate(a, b, NULL, &out), 1);
	assert_non_null(strstr(out, "REGRESSION: B vs A: s/w dc_stall_p99_ns: 120 ns -> 220 ns (+83.3%"));
	assert_non_null(strstr(out, "p = 0.008"));
	assert_non_null(strstr(out, "pass: B vs A: s2/w dc_stall_p99_ns: 120 ns -> 120 ns"));
	free(out);
	assert_int_equal(gate(a, b, "--max-regress=90%", &out), 0);
	free(out);
	assert_int_equal(gate(b, a, NULL, &out), 0); /* an improvement */
	free(out);
	/* one setting of each kernel */
	snprintf(a, sizeof(a), "%s:A/s2", d);
	snprintf(b, sizeof(b), "%s:B/s2", d);
	assert_int_equal(gate(a, b, NULL, &out), 0);
	free(out);
	/* DIR:SETTING with two kernels: each kernel's s2 against its own s (B: 220 -> 120) */
	snprintf(a, sizeof(a), "%s:s", d);
	snprintf(b, sizeof(b), "%s:s2", d);
	assert_int_equal(gate(a, b, NULL, &out), 0);
	assert_non_null(strstr(out, "pass: A: s2 vs s/w dc_stall_p99_ns: 120 ns -> 120 ns"));
	assert_non_null(strstr(out, "pass: B: s2 vs s/w dc_stall_p99_ns: 220 ns -> 120 ns"));
	assert_null(strstr(out, "120 ns -> 220 ns"));
	free(out);
	/* names the run does not have, and selectors that are not one */
	snprintf(a, sizeof(a), "%s:C/", d);
	assert_int_equal(gate(a, b, NULL, &out), 2);
	free(out);
	snprintf(a, sizeof(a), "%s:A/nosuch", d);
	assert_int_equal(gate(a, b, NULL, &out), 2);
	free(out);
	snprintf(a, sizeof(a), "%s:/s", d);
	assert_int_equal(gate(a, b, NULL, &out), 2);
	free(out);
}

/* the pairs themselves: DIR:s against DIR:s2 never crosses kernels */
static void test_pairs(void **state)
{
	const char *d = make_run("ab", false);
	const struct cb_group *base[8], *cand[8];
	struct cb_run_data rd;
	struct cb_side a, b;
	char err[1024], dir[800], spec[800];

	assert_int_equal(cb_run_load(d, &rd, err, sizeof(err)), 0);
	snprintf(spec, sizeof(spec), "%s:s", d);
	assert_int_equal(cb_side_spec(spec, dir, sizeof(dir), &a, err, sizeof(err)), 0);
	assert_string_equal(dir, d);
	assert_string_equal(a.kernel, "");
	assert_string_equal(a.setting, "s");
	snprintf(spec, sizeof(spec), "%s:s2", d);
	assert_int_equal(cb_side_spec(spec, dir, sizeof(dir), &b, err, sizeof(err)), 0);
	a.rd = b.rd = &rd;
	assert_int_equal(cb_sides_pair(&a, &b, base, cand, 8), 2);
	for (int i = 0; i < 2; i++) {
		assert_string_equal(base[i]->kernel, cand[i]->kernel);
		assert_string_equal(base[i]->setting, "s");
		assert_string_equal(cand[i]->setting, "s2");
	}
	snprintf(spec, sizeof(spec), "%s:B/s2", d);
	assert_int_equal(cb_side_spec(spec, dir, sizeof(dir), &b, err, sizeof(err)), 0);
	assert_string_equal(b.kernel, "B");
	assert_string_equal(b.setting, "s2");
	cb_run_free(&rd);
}

static void test_pending(void **state)
{
	const char *d = make_run("pending", true);
	char *argv[] = { "compare", (char *)d, "--kernels", "A,B", NULL };
	char a[800], b[800], want[900], msg[1024], *out, *err;
	struct cb_run_data rd;
	size_t n = 0;

	assert_int_equal(cb_run_load(d, &rd, msg, sizeof(msg)), 0);
	assert_int_equal(rd.failed, 0);
	assert_int_equal(rd.ng, 2);
	assert_int_equal(rd.npending, 2);
	for (size_t i = 0; i < rd.npending; i++)
		n += rd.pending[i].n;
	assert_int_equal(n, 10);
	assert_string_equal(rd.pending[0].why, "pending (kernel B not booted yet)");
	cb_run_free(&rd);

	/* compare: nothing to pair yet, B's groups listed as pending; no cell "left out" */
	assert_int_equal(capture(cmd_compare, argv, &out, &err), 0);
	snprintf(want, sizeof(want), "pending: %s:B/s workload w: 5 cell(s) pending (kernel B "
		 "not booted yet)", d);
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof(want), "%s: 10 cell(s) of kernel B pending (kernel B not booted "
		 "yet)", d);
	assert_non_null(strstr(err, want));
	assert_null(strstr(err, "left out"));
	assert_null(strstr(err, "cannot read"));
	free(out);
	free(err);
	/* the default comparison of the run: A's settings, B pending */
	assert_int_equal(capture(cmd_compare, (char *[]){ "compare", (char *)d, NULL }, &out, &err),
			 0);
	snprintf(want, sizeof(want), "  baseline  %s:A/s (5 reps)\n  candidate %s:A/s2", d, d);
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, "pending (kernel B not booted yet)"));
	free(out);
	free(err);

	/* gate: the candidate kernel is all pending: not enough data, 3, and no failure */
	snprintf(a, sizeof(a), "%s:A/", d);
	snprintf(b, sizeof(b), "%s:B/", d);
	assert_int_equal(gate(a, b, NULL, &out), 3);
	assert_non_null(strstr(out, "inconclusive: not enough data: the candidate has no complete "
				    "cell yet (its cells are pending)"));
	snprintf(want, sizeof(want), "pending, not gated: candidate %s:B/s2 workload w: 5 cell(s) "
		 "pending (kernel B not booted yet)", d);
	assert_non_null(strstr(out, want));
	assert_null(strstr(out, "failed"));
	free(out);
	/* settings of the run: A's are gated, B's pending are listed, the verdict is A's */
	snprintf(a, sizeof(a), "%s:s", d);
	snprintf(b, sizeof(b), "%s:s2", d);
	assert_int_equal(gate(a, b, NULL, &out), 0);
	assert_non_null(strstr(out, "pass: A: s2 vs s/w dc_stall_p99_ns: 120 ns -> 120 ns"));
	assert_non_null(strstr(out, "gate: pass (2 group(s) pending, not gated"));
	free(out);
	/* a named kernel that is all pending is still a kernel of the run, not bad input */
	snprintf(a, sizeof(a), "%s:B/s", d);
	assert_int_equal(gate(a, a, NULL, &out), 3);
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

/*
 * nothing to compare is bad input (2) with what would compare something (issue 22): kernels
 * that share no (setting, workload), and one run of one setting per kernel, whose hint is
 * --kernels; not when the other side is only pending (a kernel not booted yet: exit 0)
 */
static void test_nothing_to_compare(void **state)
{
	static const char *const k[] = { "host", "linux61", NULL }, *const s[] = { "s", "s2", NULL };
	static const char *const w[] = { "w", NULL };
	struct runfix_cell cells[4 * REPS];
	struct runfix rf = { 0 };
	size_t n = runfix_grid(cells, 4 * REPS, k, s, w, REPS), m = 0;
	char d[700], *out, *err;

	/* host: s and s2; linux61: t only, so the two kernels share no setting */
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(cells[i].kernel, "linux61") && !strcmp(cells[i].setting, "s2"))
			continue;
		cells[m] = cells[i];
		if (!strcmp(cells[m].kernel, "linux61"))
			cells[m].setting = "t";
		snprintf(cells[m++].metrics, sizeof(cells[0].metrics), "\"dc_stall_p99_ns\":100");
	}
	snprintf(d, sizeof(d), "%s/disjoint", tmp);
	assert_int_equal(runfix_write(d, &rf, cells, m), 0);
	assert_int_equal(capture(cmd_compare, (char *[]){ "compare", d, "--kernels", "host,linux61",
							   NULL }, &out, &err), 2);
	assert_non_null(strstr(err, "kernels host and linux61 share no complete (setting, "
				    "workload) to compare (kernels: host, linux61; settings: s, s2, t)"));
	free(out);
	free(err);
	/* one setting per kernel: compare DIR has nothing to set against, --kernels would */
	n = runfix_grid(cells, 4 * REPS, k, (const char *const[]){ "s", NULL }, w, REPS);
	for (size_t i = 0; i < n; i++)
		snprintf(cells[i].metrics, sizeof(cells[i].metrics), "\"dc_stall_p99_ns\":100");
	snprintf(d, sizeof(d), "%s/one-setting", tmp);
	assert_int_equal(runfix_write(d, &rf, cells, n), 0);
	assert_int_equal(capture(cmd_compare, (char *[]){ "compare", d, NULL }, &out, &err), 2);
	assert_non_null(strstr(err, "nothing to compare: no (kernel, workload) ran under two "
				    "settings (settings: s); `compare"));
	assert_non_null(strstr(err, "--kernels A,B` sets one kernel against another (kernels: "
				    "host, linux61)"));
	free(out);
	free(err);
	assert_int_equal(capture(cmd_compare, (char *[]){ "compare", d, "--kernels", "host,linux61",
							   NULL }, &out, &err), 0);
	free(out);
	free(err);
	/* pending is not bad input: listed, exit 0 */
	assert_int_equal(capture(cmd_compare, (char *[]){ "compare", (char *)make_run("pend", true),
							   "--kernels", "A,B", NULL }, &out, &err), 0);
	assert_non_null(strstr(out, "pending"));
	free(out);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_kernels),
		cmocka_unit_test(test_gate_kernels),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_pending),
		cmocka_unit_test(test_nothing_to_compare),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
