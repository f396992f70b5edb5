// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_window.c - a fraction means one thing for every workload (issue 20): a share of the
 * cell's window, $COMPACTBENCH_WINDOW when set, else MemTotal less hugetlb; capped by what
 * is available at the start, a fraction lowered to the cap with a note, bytes refused.
 * wl_mem_read on a fake /proc/meminfo; wl_arg_size_fit against known numbers (the user's
 * host config of issue 20: a 3 GiB window, demand.size 0.2, 1.7 GB available); and the
 * programs' start lines under a 1 GiB window. Memory stays small (at most 64 MiB).
 *
 * Usage: test_window PATH/PROGRAM... (frag-anon, thp-demand, kernel-demand among them)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "util.h"
#include "wl_args.h"
#include "wl_mm.h"
#include "wlt.h"

#define GIB (1ULL << 30)
#define MIB (1ULL << 20)

static const char *frag_anon, *thp_demand, *kernel_demand;
static char root[] = "/tmp/cb-test-window-XXXXXX";

static void meminfo(const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/proc", root);
	assert_int_equal(cb_mkdir_p(path), 0);
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

static void test_window_default(void **state)
{
	struct wl_mem m;
	char err[256];

	unsetenv(WL_WINDOW_ENV);
	/* 4 GiB, 1 GiB of it hugetlb pages: a 3 GiB window */
	meminfo("MemTotal:        4194304 kB\nMemFree:  100 kB\nMemAvailable:    1048576 kB\n"
		"HugePages_Total:     512\nHugepagesize:       2048 kB\nHugetlb:         1048576 kB\n");
	assert_int_equal(wl_mem_read(root, &m, err, sizeof(err)), 0);
	assert_int_equal(m.window, 3 * GIB);
	assert_int_equal(m.avail, 1 * GIB);
	assert_string_equal(m.from, "MemTotal-Hugetlb");
	/* an older kernel without the Hugetlb line: the default size's pages */
	meminfo("MemTotal:        4194304 kB\nMemAvailable:    1048576 kB\n"
		"HugePages_Total:     256\nHugepagesize:       2048 kB\n");
	assert_int_equal(wl_mem_read(root, &m, err, sizeof(err)), 0);
	assert_int_equal(m.window, 3 * GIB + 512 * MIB);
	/* no hugetlb: MemTotal (a guest's memory) */
	meminfo("MemTotal:        1048576 kB\nMemAvailable:     900000 kB\n");
	assert_int_equal(wl_mem_read(root, &m, err, sizeof(err)), 0);
	assert_int_equal(m.window, 1 * GIB);
}

static void test_window_env(void **state)
{
	static const char *const bad[] = { "abc", "0", "-5", "1e9", "3G", "1048575", "" };
	struct wl_mem m;
	char err[256];

	meminfo("MemTotal:        4194304 kB\nMemAvailable:    1048576 kB\nHugetlb: 0 kB\n");
	setenv(WL_WINDOW_ENV, "3221225472", 1);
	assert_int_equal(wl_mem_read(root, &m, err, sizeof(err)), 0);
	assert_int_equal(m.window, 3 * GIB);
	assert_string_equal(m.from, WL_WINDOW_ENV);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv(WL_WINDOW_ENV, bad[i], 1);
		assert_int_equal(wl_mem_read(root, &m, err, sizeof(err)), -1);
		assert_non_null(strstr(err, WL_WINDOW_ENV "='"));
	}
	unsetenv(WL_WINDOW_ENV);
}

static const struct wl_option t_options[] = {
	{ .name = "size", .type = WL_OPT_SIZE, .def = "0.5", .help = "how much memory" },
	{ 0 }
};

static const struct wl_info t_info = {
	.name = "t-prog", .phase = WL_PHASE_DEMAND, .summary = "a test program",
	.options = t_options,
};

/* wl_arg_size_fit of --size @v against @m and @share */
static int fit(const char *v, const struct wl_mem *m, double share, uint64_t *out, bool *clamped)
{
	char *argv[] = { (char *)"t-prog", (char *)"--size", (char *)v, NULL };
	struct wl_args a;

	assert_int_equal(wl_args_parse(&a, &t_info, 3, argv), WL_ARGS_OK);
	return wl_arg_size_fit(&a, "size", m, share, out, clamped);
}

static void test_fit(void **state)
{
	/* issue 20's host config: memory_limit = 3G, 1739776000 bytes available */
	struct wl_mem m = { .window = 3 * GIB, .from = WL_WINDOW_ENV, .avail = 1739776000 };
	uint64_t out;
	bool clamped;

	/* demand.size = 0.2: 0.2 of 3 GiB = 644245094 bytes, under 0.95 of what is available */
	assert_int_equal(fit("0.2", &m, 0.95, &out, &clamped), WL_ARGS_OK);
	assert_int_equal(out, 644245094);
	assert_false(clamped);
	/* fragment.size = 0.9: 2899102924 bytes, above 0.95 x 1739776000 = 1652787200: lowered */
	assert_int_equal(fit("0.9", &m, 0.95, &out, &clamped), WL_ARGS_OK);
	assert_int_equal(out, 1652787200);
	assert_true(clamped);
	/* bytes above the cap are what the user asked for: refused, not changed */
	assert_int_equal(fit("2G", &m, 0.95, &out, &clamped), WL_ARGS_ERROR);
	assert_int_equal(fit("1G", &m, 0.95, &out, &clamped), WL_ARGS_OK);
	assert_int_equal(out, GIB);
	/* no cap (thp-demand --release) */
	assert_int_equal(fit("0.9", &m, 0, &out, &clamped), WL_ARGS_OK);
	assert_int_equal(out, 2899102924ULL);
	assert_false(clamped);
}

/* the start line of @argv run under a 1 GiB window */
static struct json_object *start_line(char **argv, struct wlt_result *r)
{
	struct json_object *start;

	setenv(WL_WINDOW_ENV, "1073741824", 1);
	assert_int_equal(wlt_run(argv, NULL, r), 0);
	unsetenv(WL_WINDOW_ENV);
	if (r->status != 0)
		fail_msg("%s exited %d: %s", argv[0], r->status, r->err);
	start = wlt_find(r, "phase", "start");
	assert_non_null(start);
	assert_int_equal(wlt_get_int(start, "window_bytes"), GIB);
	assert_string_equal(wlt_get_str(start, "window_from"), WL_WINDOW_ENV);
	assert_false(wlt_get_bool(start, "clamped"));
	return start;
}

static void test_programs_use_the_window(void **state)
{
	char *fa[] = { (char *)frag_anon, (char *)"--size", (char *)"0.05", (char *)"--hold",
		       (char *)"10ms", NULL };
	char *td[] = { (char *)thp_demand, (char *)"--size", (char *)"0.0625", (char *)"--duration",
		       (char *)"5s", NULL };
	char *kd[] = { (char *)kernel_demand, (char *)"--size", (char *)"0.0078125",
		       (char *)"--paths", (char *)"pipe-resize", (char *)"--duration",
		       (char *)"200ms", NULL };
	long page = sysconf(_SC_PAGESIZE);
	struct wlt_result r;

	/* 0.05 of 1 GiB = 53687091 bytes, whole pages */
	assert_int_equal(wlt_get_int(start_line(fa, &r), "size_bytes"), 53687091 / page * page);
	wlt_free(&r);
	/* 0.0625 of 1 GiB = 64 MiB, whole regions: of the window, not of MemTotal (24 GiB) */
	assert_int_equal(wlt_get_int(start_line(td, &r), "size_bytes"), 64 * MIB);
	wlt_free(&r);
	/* 1/128 of 1 GiB = 8 MiB: of the window, not of MemAvailable */
	assert_int_equal(wlt_get_int(start_line(kd, &r), "size_bytes"), 8 * MIB);
	wlt_free(&r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_default),
		cmocka_unit_test(test_window_env),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_programs_use_the_window),
	};
	int rc;

	frag_anon = wlt_path_of(argc, argv, "frag-anon");
	thp_demand = wlt_path_of(argc, argv, "thp-demand");
	kernel_demand = wlt_path_of(argc, argv, "kernel-demand");
	if (!frag_anon || !thp_demand || !kernel_demand || !mkdtemp(root))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	cb_rm_rf(root);
	return rc;
}
