// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_gate.c - `compactbench gate` on synthetic runs whose truth is known: A/A passes, a
 * +30% stall p99 fails with exit 1, too few reps or lost events give 3, a corrupt summary
 * gives 2, and over 100 A/A pairs drawn from one distribution the false-alarm rate is at
 * most 5%.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "compare.h"
#include "util.h"

static char tmp[] = "/tmp/cb-test-gate-XXXXXX";
static gsl_rng *rng;

struct spec {
	int reps;
	double p99, total, noise; /* medians of the metrics and the lognormal sigma */
	bool lost;
	const char *sha;
};

/* a run directory of @s->reps cells of one setting, with summary.json only */
static const char *make_run(const char *name, const struct spec *s)
{
	static char dir[16][700]; /* a ring: callers hold a few at once */
	static int next;
	char *d = dir[next++ % 16], path[900], text[2048];
	FILE *f;

	snprintf(d, 700, "%s/%s", tmp, name);
	cb_rm_rf(d);
	assert_int_equal(cb_mkdir_p(d), 0);
	snprintf(path, sizeof(path), "%s/run.json", d);
	f = fopen(path, "w");
	fprintf(f, "{\"schema\":1,\"config_sha256\":\"%s\",\"cells\":[", s->sha ? s->sha : "same");
	for (int r = 1; r <= s->reps; r++)
		fprintf(f, "%s{\"id\":\"host.s.w.r%d\",\"kernel\":\"host\",\"setting\":\"s\","
			   "\"workload\":\"w\",\"rep\":%d}", r > 1 ? "," : "", r, r);
	fprintf(f, "]}\n");
	fclose(f);
	for (int r = 1; r <= s->reps; r++) {
		snprintf(path, sizeof(path), "%s/host.s.w.r%d", d, r);
		cb_mkdir_p(path);
		snprintf(text, sizeof(text), "{\"schema\":1,\"lost_events\":%s,\"metrics\":{"
			 "\"dc_stall_p99_ns\":%.0f,\"dc_stall_total_ns\":%.0f,\"dc_stalls\":100}}\n",
			 s->lost ? "true" : "false",
			 s->p99 * exp(gsl_ran_gaussian(rng, s->noise)),
			 s->total * exp(gsl_ran_gaussian(rng, s->noise)));
		snprintf(path, sizeof(path), "%s/host.s.w.r%d/summary.json", d, r);
		assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
	}
	return d;
}

static int gate(const char *a, const char *b, const char *extra)
{
	char *argv[] = { "gate", "--baseline", (char *)a, "--candidate", (char *)b,
			 (char *)extra, NULL };
	int argc = extra ? 6 : 5, rc;

	fflush(stdout);
	rc = cmd_gate(argc, argv);
	fflush(stdout);
	return rc;
}

static const struct spec base = { .reps = 5, .p99 = 2e6, .total = 3e8, .noise = 0.02 };

static void test_aa_passes(void **state)
{
	const char *a = make_run("a", &base), *b = make_run("b", &base);
	char sa[800], sb[800];

	assert_int_equal(gate(a, b, NULL), 0);
	/* the same through DIR:SETTING */
	snprintf(sa, sizeof(sa), "%s:s", a);
	snprintf(sb, sizeof(sb), "%s:s", b);
	assert_int_equal(gate(sa, sb, NULL), 0);
}

static void test_regression_fails(void **state)
{
	struct spec worse = base;
	const char *a = make_run("a", &base), *b;

	worse.p99 *= 1.3;
	b = make_run("b", &worse);
	assert_int_equal(gate(a, b, NULL), 1);
	/* the same change allowed by a larger threshold passes */
	assert_int_equal(gate(a, b, "--max-regress=50%"), 0);
	/* and a 30% improvement is no regression */
	assert_int_equal(gate(b, a, NULL), 0);
}

static void test_inconclusive(void **state)
{
	struct spec few = base, lost = base, other = base;
	const char *a = make_run("a", &base);

	few.reps = 3;
	assert_int_equal(gate(a, make_run("b", &few), NULL), 3);
	lost.lost = true;
	assert_int_equal(gate(a, make_run("b", &lost), NULL), 3);
	assert_int_equal(gate(a, make_run("b", &lost), "--allow-lost"), 0);
	other.sha = "another";
	assert_int_equal(gate(a, make_run("b", &other), NULL), 3);
}

static void test_bad_input(void **state)
{
	const char *a = make_run("a", &base), *b = make_run("b", &base);
	char path[900];

	snprintf(path, sizeof(path), "%s/host.s.w.r2/summary.json", b);
	assert_int_equal(cb_write_file_atomic(path, "{\"schema\": 1, \"metr", 19), 0);
	assert_int_equal(gate(a, b, NULL), 2);
	assert_int_equal(cb_write_file_atomic(path, "{\"schema\": 99}", 14), 0);
	assert_int_equal(gate(a, b, NULL), 2);
	assert_int_equal(gate(a, "/nonexistent-run", NULL), 2);
	assert_int_equal(gate(a, a, "--metric=nosuch"), 2);
	assert_int_equal(gate(a, a, "--max-regress=lots"), 2);
	/* DIR:SETTING names a setting of a run; one that is not there is bad input */
	snprintf(path, sizeof(path), "%s:nosuch", a);
	assert_int_equal(gate(path, b, NULL), 2);
}

/* 100 A/A pairs from one distribution with a lot of noise: at most 5 false alarms */
static void test_false_alarm_rate(void **state)
{
	struct spec noisy = base;
	int alarms = 0;
	FILE *saved = stdout;

	noisy.noise = 0.3;
	stdout = fopen("/dev/null", "w");
	for (int i = 0; i < 100; i++)
		alarms += gate(make_run("a", &noisy), make_run("b", &noisy), NULL) == 1;
	fclose(stdout);
	stdout = saved;
	print_message("false alarms in 100 A/A pairs: %d\n", alarms);
	assert_true(alarms <= 5);
}

static int setup(void **state)
{
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 1);
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	gsl_rng_free(rng);
	return cb_rm_rf(tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aa_passes),     cmocka_unit_test(test_regression_fails),
		cmocka_unit_test(test_inconclusive),  cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_false_alarm_rate),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
