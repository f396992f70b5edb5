// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cli.c - the workload programs as the harness sees them: --help exits 0 and lists
 * every option of the table, a bad argument exits 2 naming it, and a small run prints
 * JSON lines only, ending with a summary. Sizes stay tiny (tens of MiB).
 *
 * Usage: test_cli PATH/PROGRAM... (every program of wl_all, in any order)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "wl_info.h"
#include "wlt.h"

static const char *frag_anon, *thp_demand, *frag_pagecache, *frag_unmovable, *kernel_demand,
	*idle;
static int prog_argc;
static char **prog_argv;

static const char *path_of(const struct wl_info *wl)
{
	return wlt_path_of(prog_argc, prog_argv, wl->name);
}

static void run(const char *prog, const char *const *args, struct wlt_result *r)
{
	char *argv[32];
	int n = 0;

	argv[n++] = (char *)prog;
	while (*args)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	assert_int_equal(wlt_run(argv, NULL, r), 0);
}

static void test_help(void **state)
{
	const char *args[] = { "--help", NULL };
	const struct wl_option *o;
	size_t i;

	for (i = 0; wl_all[i]; i++) {
		struct wlt_result r;

		if (wl_all[i]->path)
			continue; /* an installed program (stress-ng): its help is its own */
		if (!path_of(wl_all[i]))
			fail_msg("no path given for %s", wl_all[i]->name);
		run(path_of(wl_all[i]), args, &r);
		assert_int_equal(r.status, 0);
		assert_non_null(strstr(r.out, "Usage: "));
		assert_non_null(strstr(r.out, wl_all[i]->name));
		for (o = wl_all[i]->options; o->name; o++) {
			char want[64];

			snprintf(want, sizeof(want), "--%s", o->name);
			assert_non_null(strstr(r.out, want));
		}
		assert_string_equal(r.err, "");
		wlt_free(&r);
	}
}

/* each case: arguments, and the text the message must contain */
static const struct bad_case {
	const char **prog;
	const char *args[5];
	const char *named;
} bad_cases[] = {
	{ &frag_anon, { "--size", "banana" }, "--size" },
	{ &frag_anon, { "--size", "1000T" }, "--size" }, /* bytes above 0.95 of MemAvailable */
	{ &frag_anon, { "--pattern", "zigzag" }, "--pattern" },
	{ &frag_anon, { "--keep-every", "1" }, "--keep-every" },
	{ &frag_anon, { "--hold", "forever" }, "--hold" },
	{ &frag_anon, { "--bogus" }, "--bogus" },
	{ &frag_anon, { "--size" }, "--size" },
	{ &frag_anon, { "leftover" }, "leftover" },
	{ &thp_demand, { "--rate", "-2" }, "--rate" },
	{ &thp_demand, { "--region", "3M" }, "--region" },
	{ &thp_demand, { "--mthp-size", "48k" }, "--mthp-size" },
	{ &thp_demand, { "--size", "4k" }, "--size" }, /* smaller than a region */
	{ &thp_demand, { "--duration", "1 min" }, "--duration" },
	{ &thp_demand, { "--release=yes" }, "--release" },
	{ &frag_pagecache, { "--size", "1M" }, "--dir" }, /* --dir is required */
	{ &frag_pagecache, { "--dir", "/nonexistent-wlt" }, "--dir" },
	{ &frag_pagecache, { "--dir", "/proc/self/status" }, "--dir" },
	{ &frag_pagecache, { "--dir", "/tmp", "--size", "100T" }, "--size" }, /* > free space */
	{ &frag_pagecache, { "--dir", "/tmp", "--files-per-chunk", "-1" }, "--files-per-chunk" },
	{ &frag_pagecache, { "--dir", "/tmp", "--write-size", "1G" }, "--write-size" },
	{ &frag_pagecache, { "--dir", "/tmp", "--chunk", "zero" }, "--chunk" },
	{ &frag_unmovable, { "--size", "1000T" }, "--size" }, /* bytes above 0.5 of MemAvailable */
	{ &frag_unmovable, { "--kinds", "pipe,rope" }, "--kinds" },
	{ &frag_unmovable, { "--kinds", "pipe,pipe" }, "--kinds" },
	{ &frag_unmovable, { "--kinds", "pipe," }, "--kinds" },
	{ &frag_unmovable, { "--size", "1M", "--filler", "1000T" }, "--filler" },
	{ &frag_unmovable, { "--hold", "-1" }, "--hold" },
	{ &kernel_demand, { "--paths", "tcp,udp" }, "--paths" },
	{ &kernel_demand, { "--paths", "" }, "--paths" },
	{ &kernel_demand, { "--size", "1000T" }, "--size" }, /* bytes above 0.25 of MemAvailable */
	{ &kernel_demand, { "--rate", "fast" }, "--rate" },
	{ &kernel_demand, { "--duration" }, "--duration" },
	{ &idle, { "--duration", "soon" }, "--duration" },
	{ &idle, { "--seed", "1" }, "--seed" },
};

static void test_bad_arguments(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct wlt_result r;

		run(*c->prog, c->args, &r);
		if (r.status != 2 || !strstr(r.err, c->named) || r.nlines)
			fail_msg("case %zu (%s): status %d, stderr '%s', %zu stdout lines", i,
				 c->named, r.status, r.err, r.nlines);
		wlt_free(&r);
	}
}

/* every line is a JSON object with a type, the last one the summary */
static void check_lines(const struct wlt_result *r, const char *workload)
{
	struct json_object *last;

	assert_true(r->json_ok);
	assert_true(r->nlines >= 2);
	last = r->lines[r->nlines - 1];
	assert_string_equal(wlt_get_str(last, "type"), "summary");
	assert_string_equal(wlt_get_str(last, "workload"), workload);
	assert_false(wlt_get_bool(last, "interrupted"));
	assert_non_null(wlt_find(r, "phase", "start"));
	assert_true(wlt_stderr_clean(r, workload));
}

static void test_frag_anon_lines(void **state)
{
	const char *patterns[] = { "every-other", "1-in-N", "random", NULL };
	size_t i;

	for (i = 0; patterns[i]; i++) {
		const char *args[] = { "--size", "32M", "--pattern", patterns[i], "--keep-every",
				       "4", "--hold", "10ms", NULL };
		struct json_object *ready, *sum;
		long long held, freed;
		struct wlt_result r;

		run(frag_anon, args, &r);
		assert_int_equal(r.status, 0);
		check_lines(&r, "frag-anon");
		ready = wlt_find(&r, "phase", "ready");
		assert_non_null(ready);
		assert_non_null(wlt_find(&r, "buddyinfo", NULL));
		held = wlt_get_int(ready, "held_bytes");
		freed = wlt_get_int(ready, "freed_bytes");
		assert_int_equal(held + freed, 32 << 20);
		if (i == 0)
			assert_int_equal(freed, 16 << 20);
		else if (i == 1) /* keeps 1 page in 4 */
			assert_int_equal(freed, 24 << 20);
		else /* random, 1 in 4 kept: well inside 60%..90% freed */
			assert_true(freed > (32 << 20) * 6 / 10 && freed < (32 << 20) * 9 / 10);
		sum = r.lines[r.nlines - 1];
		assert_true(wlt_get_bool(sum, "ready"));
		assert_string_equal(wlt_get_str(sum, "hold_end"), "time");
		wlt_free(&r);
	}
}

static void test_thp_demand_lines(void **state)
{
	const char *args[] = { "--size", "16M", "--rate", "1000", NULL };
	struct json_object *sum, *lat;
	struct wlt_result r;

	run(thp_demand, args, &r);
	assert_int_equal(r.status, 0);
	check_lines(&r, "thp-demand");
	assert_non_null(wlt_find(&r, "histogram", NULL));
	sum = r.lines[r.nlines - 1];
	assert_int_equal(wlt_get_int(sum, "regions") + wlt_get_int(sum, "prefaulted"),
			 (16 << 20) / wlt_get_int(sum, "region_bytes"));
	assert_int_equal(wlt_get_int(sum, "huge") + wlt_get_int(sum, "base"),
			 wlt_get_int(sum, "regions"));
	assert_string_equal(wlt_get_str(sum, "stopped"), "done");
	assert_true(json_object_object_get_ex(sum, "fault_ns", &lat));
	assert_true(wlt_get_int(lat, "p50") <= wlt_get_int(lat, "p99"));
	assert_true(wlt_get_int(lat, "p99") <= wlt_get_int(lat, "max"));
	wlt_free(&r);
}

/* --release and base-page regions: the program still ends cleanly */
static void test_thp_demand_release(void **state)
{
	const char *args[] = { "--size", "8M", "--region", "64k", "--release", NULL };
	struct wlt_result r;

	run(thp_demand, args, &r);
	assert_int_equal(r.status, 0);
	check_lines(&r, "thp-demand");
	assert_int_equal(wlt_get_int(r.lines[r.nlines - 1], "faulted_bytes"), 8 << 20);
	wlt_free(&r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_frag_anon_lines),
		cmocka_unit_test(test_thp_demand_lines),
		cmocka_unit_test(test_thp_demand_release),
	};

	prog_argc = argc;
	prog_argv = argv;
	frag_anon = wlt_path_of(argc, argv, "frag-anon");
	thp_demand = wlt_path_of(argc, argv, "thp-demand");
	frag_pagecache = wlt_path_of(argc, argv, "frag-pagecache");
	frag_unmovable = wlt_path_of(argc, argv, "frag-unmovable");
	kernel_demand = wlt_path_of(argc, argv, "kernel-demand");
	idle = wlt_path_of(argc, argv, "idle");
	if (!frag_anon || !thp_demand || !frag_pagecache || !frag_unmovable || !kernel_demand ||
	    !idle) {
		fprintf(stderr, "usage: %s PATH/PROGRAM... (all the workload programs)\n",
			argv[0]);
		return 2;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
