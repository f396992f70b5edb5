// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_signals.c - SIGINT/SIGTERM stop the workload programs cleanly: during frag-anon's
 * fill (exit 128+sig, no "ready"), during its hold (exit 0), during thp-demand's faulting
 * (exit 128+sig). Each time stdout is JSON lines ending with a summary saying
 * "interrupted":true, and stderr holds only the program's own lines. The signal is sent
 * on a text cue the program prints, never after a delay.
 *
 * Usage: test_signals PATH/PROGRAM... (frag-anon and thp-demand among them)
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util.h"
#include "wlt.h"

static const char *frag_anon, *thp_demand;

static void check_interrupted(const struct wlt_result *r, const char *workload, int sig)
{
	struct json_object *sum;

	assert_true(r->sent);
	assert_false(r->killed); /* it handled the signal: exited on its own */
	assert_true(r->json_ok);
	assert_true(r->nlines >= 2);
	sum = r->lines[r->nlines - 1];
	assert_string_equal(wlt_get_str(sum, "type"), "summary");
	assert_string_equal(wlt_get_str(sum, "workload"), workload);
	assert_true(wlt_get_bool(sum, "interrupted"));
	assert_string_equal(wlt_get_str(sum, "signal"), sig == SIGINT ? "SIGINT" : "SIGTERM");
	assert_true(wlt_stderr_clean(r, workload));
}

/*
 * The cue is the first progress line, printed after 1 GiB: the fill must be well over that
 * for the signal to land in it. 0.2 of MemAvailable keeps to the test size rule.
 */
static void frag_during_fill(int sig)
{
	char *argv[] = { (char *)frag_anon, (char *)"--size", (char *)"0.2", NULL };
	struct wlt_trigger t = { .text = "frag-anon: filled", .sig = sig };
	long long avail_kb = cb_meminfo_kb(NULL, "MemAvailable");
	struct wlt_result r;

	if (avail_kb < 0 || avail_kb / 5 < 3LL << 20) /* less than 3 GiB to fill */
		skip();
	assert_int_equal(wlt_run(argv, &t, &r), 0);
	check_interrupted(&r, "frag-anon", sig);
	assert_int_equal(r.status, 128 + sig);
	assert_null(wlt_find(&r, "phase", "ready"));
	assert_false(wlt_get_bool(r.lines[r.nlines - 1], "ready"));
	assert_true(wlt_get_int(r.lines[r.nlines - 1], "filled_bytes") <
		    wlt_get_int(r.lines[r.nlines - 1], "size_bytes"));
	wlt_free(&r);
}

static void test_frag_sigint_fill(void **state)
{
	frag_during_fill(SIGINT);
}

static void test_frag_sigterm_fill(void **state)
{
	frag_during_fill(SIGTERM);
}

/* --hold 0 means until a signal; it is the normal end of the hold: exit 0 */
static void frag_during_hold(int sig)
{
	char *argv[] = { (char *)frag_anon, (char *)"--size", (char *)"64M", (char *)"--hold",
			 (char *)"0", NULL };
	struct wlt_trigger t = { .text = "\"phase\":\"ready\"", .on_stdout = true, .sig = sig };
	struct wlt_result r;

	assert_int_equal(wlt_run(argv, &t, &r), 0);
	check_interrupted(&r, "frag-anon", sig);
	assert_int_equal(r.status, 0);
	assert_true(wlt_get_bool(r.lines[r.nlines - 1], "ready"));
	assert_string_equal(wlt_get_str(r.lines[r.nlines - 1], "hold_end"), "signal");
	wlt_free(&r);
}

static void test_frag_sigint_hold(void **state)
{
	frag_during_hold(SIGINT);
}

static void test_frag_sigterm_hold(void **state)
{
	frag_during_hold(SIGTERM);
}

/* 32 regions at 2 per second take 16 s; the signal comes as soon as it has started */
static void thp_during_faults(int sig)
{
	char *argv[] = { (char *)thp_demand, (char *)"--size", (char *)"64M", (char *)"--rate",
			 (char *)"2", NULL };
	struct wlt_trigger t = { .text = "\"phase\":\"start\"", .on_stdout = true, .sig = sig };
	struct json_object *sum;
	struct wlt_result r;

	assert_int_equal(wlt_run(argv, &t, &r), 0);
	check_interrupted(&r, "thp-demand", sig);
	assert_int_equal(r.status, 128 + sig);
	sum = r.lines[r.nlines - 1];
	assert_string_equal(wlt_get_str(sum, "stopped"), "signal");
	assert_true(wlt_get_int(sum, "regions") < 32);
	wlt_free(&r);
}

static void test_thp_sigint(void **state)
{
	thp_during_faults(SIGINT);
}

static void test_thp_sigterm(void **state)
{
	thp_during_faults(SIGTERM);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frag_sigint_fill),
		cmocka_unit_test(test_frag_sigterm_fill),
		cmocka_unit_test(test_frag_sigint_hold),
		cmocka_unit_test(test_frag_sigterm_hold),
		cmocka_unit_test(test_thp_sigint),
		cmocka_unit_test(test_thp_sigterm),
	};

	frag_anon = wlt_path_of(argc, argv, "frag-anon");
	thp_demand = wlt_path_of(argc, argv, "thp-demand");
	if (!frag_anon || !thp_demand) {
		fprintf(stderr, "usage: %s PATH/PROGRAM... (frag-anon and thp-demand among "
			"them)\n", argv[0]);
		return 2;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
