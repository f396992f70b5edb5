// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_demand.c - kernel-demand and idle as programs: JSON lines, one "path" line per path
 * whose counts add up to the summary's, --rate and --duration bound the run, SIGINT and
 * SIGTERM stop it with 128+sig and a summary. (That the kernel really allocates orders
 * 1-4 is test_kd_trace's job, in the integration suite.) Sizes stay small (8 MiB queued).
 *
 * Usage: test_demand PATH/PROGRAM... (kernel-demand and idle among them)
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "wlt.h"

static const char *kernel_demand, *idle;

static const char *const all_paths[] = { "unix-stream", "unix-dgram", "tcp", "cmsg",
					 "pipe-resize", NULL };

static struct json_object *summary_of(const struct wlt_result *r, const char *workload)
{
	struct json_object *sum;

	assert_true(r->json_ok);
	assert_true(r->nlines >= 2);
	assert_false(r->killed);
	sum = r->lines[r->nlines - 1];
	assert_string_equal(wlt_get_str(sum, "type"), "summary");
	assert_string_equal(wlt_get_str(sum, "workload"), workload);
	assert_non_null(wlt_find(r, "phase", "start"));
	assert_true(wlt_stderr_clean(r, workload));
	return sum;
}

/* the "path" line of @name */
static struct json_object *path_line(const struct wlt_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nlines; i++) {
		const char *t = wlt_get_str(r->lines[i], "type");
		const char *p = wlt_get_str(r->lines[i], "path");

		if (t && p && !strcmp(t, "path") && !strcmp(p, name))
			return r->lines[i];
	}
	return NULL;
}

static void test_kd_lines(void **state)
{
	char *argv[] = { (char *)kernel_demand, (char *)"--size", (char *)"8M",
			 (char *)"--duration", (char *)"500ms", NULL };
	long long ops = 0, bytes = 0;
	struct json_object *sum, *orders;
	struct wlt_result r;
	size_t i;

	assert_int_equal(wlt_run(argv, NULL, &r), 0);
	assert_int_equal(r.status, 0);
	sum = summary_of(&r, "kernel-demand");
	assert_string_equal(wlt_get_str(sum, "stopped"), "duration");
	assert_false(wlt_get_bool(sum, "interrupted"));
	assert_int_equal(wlt_get_int(sum, "errors"), 0);
	assert_true(wlt_get_int(sum, "rounds") > 0);
	for (i = 0; all_paths[i]; i++) {
		struct json_object *p = path_line(&r, all_paths[i]);

		assert_non_null(p);
		assert_true(wlt_get_int(p, "ops") > 0);
		assert_int_equal(wlt_get_int(p, "errors"), 0);
		assert_true(json_object_object_get_ex(p, "orders", &orders));
		assert_true(json_object_array_length(orders) > 0);
		assert_non_null(wlt_get_str(p, "mechanism"));
		ops += wlt_get_int(p, "ops");
		bytes += wlt_get_int(p, "bytes");
	}
	assert_int_equal(ops, wlt_get_int(sum, "ops"));
	assert_int_equal(bytes, wlt_get_int(sum, "bytes"));
	wlt_free(&r);
}

/*
 * unix-dgram-big, named alone (it is not a default path): 100 KiB datagrams, claiming
 * orders 3 and 4 only (their heads and frags, kd_sock.c), and moving whole datagrams
 */
static void test_kd_dgram_big(void **state)
{
	char *argv[] = { (char *)kernel_demand, (char *)"--paths", (char *)"unix-dgram-big",
			 (char *)"--size", (char *)"2M", (char *)"--duration", (char *)"300ms", NULL };
	struct json_object *p, *orders, *sizes;
	struct wlt_result r;

	assert_int_equal(wlt_run(argv, NULL, &r), 0);
	assert_int_equal(r.status, 0);
	summary_of(&r, "kernel-demand");
	p = path_line(&r, "unix-dgram-big");
	assert_non_null(p);
	assert_null(path_line(&r, "unix-dgram"));
	assert_true(wlt_get_int(p, "ops") > 0);
	assert_int_equal(wlt_get_int(p, "errors"), 0);
	assert_int_equal(wlt_get_int(p, "bytes"), wlt_get_int(p, "ops") * 102400);
	assert_true(json_object_object_get_ex(p, "orders", &orders));
	assert_int_equal(json_object_array_length(orders), 2);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(orders, 0)), 3);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(orders, 1)), 4);
	assert_true(json_object_object_get_ex(p, "sizes", &sizes));
	assert_int_equal(json_object_array_length(sizes), 1);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(sizes, 0)), 102400);
	wlt_free(&r);
}

/* 5 rounds a second for 1 s: at most 6 rounds (one may start at the deadline), one path */
static void test_kd_rate(void **state)
{
	char *argv[] = { (char *)kernel_demand, (char *)"--paths", (char *)"tcp", (char *)"--size",
			 (char *)"1M", (char *)"--rate", (char *)"5", (char *)"--duration",
			 (char *)"1s", NULL };
	struct json_object *sum;
	struct wlt_result r;
	long long rounds;

	assert_int_equal(wlt_run(argv, NULL, &r), 0);
	assert_int_equal(r.status, 0);
	sum = summary_of(&r, "kernel-demand");
	rounds = wlt_get_int(sum, "rounds");
	assert_true(rounds >= 4 && rounds <= 6);
	assert_int_equal(wlt_get_int(sum, "paths"), 1);
	assert_non_null(path_line(&r, "tcp"));
	assert_null(path_line(&r, "unix-stream"));
	wlt_free(&r);
}

static void kd_signal(int sig)
{
	char *argv[] = { (char *)kernel_demand, (char *)"--size", (char *)"8M",
			 (char *)"--duration", (char *)"60s", NULL };
	struct wlt_trigger t = { .text = "\"phase\":\"start\"", .on_stdout = true, .sig = sig };
	struct json_object *sum;
	struct wlt_result r;

	assert_int_equal(wlt_run(argv, &t, &r), 0);
	assert_true(r.sent);
	assert_int_equal(r.status, 128 + sig);
	sum = summary_of(&r, "kernel-demand");
	assert_string_equal(wlt_get_str(sum, "stopped"), "signal");
	assert_true(wlt_get_bool(sum, "interrupted"));
	assert_string_equal(wlt_get_str(sum, "signal"), sig == SIGINT ? "SIGINT" : "SIGTERM");
	assert_non_null(path_line(&r, "tcp")); /* the report comes all the same */
	wlt_free(&r);
}

static void test_kd_sigint(void **state)
{
	kd_signal(SIGINT);
}

static void test_kd_sigterm(void **state)
{
	kd_signal(SIGTERM);
}

static void test_idle_lines(void **state)
{
	char *argv[] = { (char *)idle, (char *)"--duration", (char *)"200ms", NULL };
	struct json_object *sum, *delta;
	struct wlt_result r;

	assert_int_equal(wlt_run(argv, NULL, &r), 0);
	assert_int_equal(r.status, 0);
	sum = summary_of(&r, "idle");
	assert_false(wlt_get_bool(sum, "interrupted"));
	assert_true(json_object_get_double(json_object_object_get(sum, "slept_s")) >= 0.2);
	assert_true(json_object_object_get_ex(sum, "vmstat_delta", &delta));
	assert_true(json_object_object_get_ex(delta, "compact_stall", NULL));
	assert_non_null(wlt_find(&r, "buddyinfo", NULL));
	wlt_free(&r);
}

static void test_idle_sigint(void **state)
{
	char *argv[] = { (char *)idle, (char *)"--duration", (char *)"10m", NULL };
	struct wlt_trigger t = { .text = "\"when\":\"before\"", .on_stdout = true, .sig = SIGINT };
	struct json_object *sum;
	struct wlt_result r;

	assert_int_equal(wlt_run(argv, &t, &r), 0);
	assert_int_equal(r.status, 130);
	sum = summary_of(&r, "idle");
	assert_true(wlt_get_bool(sum, "interrupted"));
	assert_true(json_object_get_double(json_object_object_get(sum, "slept_s")) < 60);
	wlt_free(&r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kd_lines),
		cmocka_unit_test(test_kd_dgram_big),
		cmocka_unit_test(test_kd_rate),
		cmocka_unit_test(test_kd_sigint),
		cmocka_unit_test(test_kd_sigterm),
		cmocka_unit_test(test_idle_lines),
		cmocka_unit_test(test_idle_sigint),
	};

	kernel_demand = wlt_path_of(argc, argv, "kernel-demand");
	idle = wlt_path_of(argc, argv, "idle");
	if (!kernel_demand || !idle) {
		fprintf(stderr, "usage: %s PATH/PROGRAM... (kernel-demand and idle among them)\n",
			argv[0]);
		return 2;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
