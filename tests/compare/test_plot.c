// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_plot.c - `compactbench plot` draws every chart whatever the data: a run with no
 * stalls at all (an idle workload: every count 0, no latency, no THP figure, no trace, no
 * free 2 MiB block) gets each chart, empty or flat with a note, and exits 0, where gnuplot
 * used to stop at "x range is invalid"; a run with stalls gets the charts without notes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "analyze.h"
#include "compare.h"
#include "plot_fixture.h"
#include "util.h"

static char tmp[] = "/tmp/cb-test-plot-XXXXXX";

static const char *const files[] = { "stall-cdf", "stall-p99", "stall-count", "stall-time",
				     "thp-success", "stall-per-1k", "stall-hist", "cost",
				     "timeline-0", "timeline-1" };

/*
 * a run of settings a and b, 3 repetitions each, of workload idle; @stalls 0 writes the
 * summary of a cell without any stall, else one with @stalls stalls of known latency.
 * Each cell has a samples.csv whose free memory is all in orders 0..8 (no 2 MiB block).
 */
static const char *make_run(const char *name, int stalls)
{
	static char d[700];
	char path[900], text[2048];
	FILE *f;

	snprintf(d, sizeof(d), "%s/%s", tmp, name);
	cb_rm_rf(d);
	assert_int_equal(cb_mkdir_p(d), 0);
	snprintf(path, sizeof(path), "%s/run.json", d);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"schema\":1,\"config_sha256\":\"x\",\"cells\":[");
	for (int i = 0; i < 6; i++)
		fprintf(f, "%s{\"id\":\"host.%c.idle.r%d\",\"kernel\":\"host\",\"setting\":\"%c\","
			   "\"workload\":\"idle\",\"rep\":%d}", i ? "," : "", 'a' + i / 3, i % 3 + 1,
			'a' + i / 3, i % 3 + 1);
	fprintf(f, "]}\n");
	fclose(f);
	for (int i = 0; i < 6; i++) {
		snprintf(path, sizeof(path), "%s/host.%c.idle.r%d", d, 'a' + i / 3, i % 3 + 1);
		assert_int_equal(cb_mkdir_p(path), 0);
		if (stalls)
			snprintf(text, sizeof(text), "{\"schema\":1,\"lost_events\":false,\"metrics\":{"
				 "\"dc_stalls\":%d,\"dc_stall_total_ns\":%d,\"dc_stall_p50_ns\":20000,"
				 "\"dc_stall_p99_ns\":90000,\"dc_stalls_per_1k_alloc\":2.5,"
				 "\"wl_thp_success_rate\":0.75,\"cpu_background_ns\":%d}}\n",
				 stalls + i, (stalls + i) * 30000, 1000000 * (i / 3 + 1));
		else
			snprintf(text, sizeof(text), "{\"schema\":1,\"lost_events\":false,\"metrics\":{"
				 "\"dc_stalls\":0,\"dc_stall_total_ns\":0,\"dc_stall_p50_ns\":null,"
				 "\"dc_stall_p99_ns\":null,\"dc_stalls_per_1k_alloc\":0,"
				 "\"wl_thp_success_rate\":null,\"cpu_background_ns\":0}}\n");
		snprintf(path, sizeof(path), "%s/host.%c.idle.r%d/summary.json", d, 'a' + i / 3,
			 i % 3 + 1);
		assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
		/* two samples of one zone: 100 free pages of order 0, 10 of order 8, none above */
		snprintf(text, sizeof(text), "t_ns,node,zone,present,score,weighted,node_score,"
			 "o0,o1,o2,o3,o4,o5,o6,o7,o8,o9,o10\n"
			 "1000000000,0,Normal,262144,0,0,0,100,0,0,0,0,0,0,0,10,0,0\n"
			 "2000000000,0,Normal,262144,0,0,0,100,0,0,0,0,0,0,0,10,0,0\n");
		snprintf(path, sizeof(path), "%s/host.%c.idle.r%d/samples.csv", d, 'a' + i / 3,
			 i % 3 + 1);
		assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
	}
	return d;
}

static int plot(const char *dir)
{
	char *argv[] = { "plot", (char *)dir, NULL };

	return fx_quiet(cmd_plot, 2, argv, NULL);
}

/* every chart's PNG and SVG must be there: @dir/charts/@file.png and .svg, drawn */
static void chart_drawn(const char *dir, const char *file)
{
	char path[900], *data;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/charts/%s.png", dir, file);
	data = cb_read_file(path, &len);
	assert_non_null(data);
	assert_true(len > 1000);
	free(data);
	snprintf(path, sizeof(path), "%s/charts/%s.svg", dir, file);
	data = cb_read_file(path, &len);
	assert_non_null(data);
	assert_non_null(strstr(data, "</svg>"));
	free(data);
}

/* whether @dir/charts/@file.svg says @text (chart_drawn first) */
static bool chart_says(const char *dir, const char *file, const char *text)
{
	char path[900], *svg;
	bool says;

	chart_drawn(dir, file);
	snprintf(path, sizeof(path), "%s/charts/%s.svg", dir, file);
	svg = cb_read_file(path, NULL);
	assert_non_null(svg);
	says = strstr(svg, text) != NULL;
	free(svg);
	return says;
}

/*
 * the values @dir/charts/@file.dat plots, the chart's data: its lines that are neither
 * comments nor empty, each ended by a newline, asserted equal to @want
 */
static void chart_plots(const char *dir, const char *file, const char *want)
{
	char path[900], *dat, *line, *save = NULL, got[4096] = "";
	size_t at = 0;

	snprintf(path, sizeof(path), "%s/charts/%s.dat", dir, file);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	for (line = strtok_r(dat, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (line[0] != '#')
			at += snprintf(got + at, sizeof(got) - at, "%s\n", line);
	assert_true(at < sizeof(got));
	free(dat);
	assert_string_equal(got, want);
}

static bool have_gnuplot(void)
{
	char *path = getenv("PATH"), *copy, *dir, *save = NULL, exe[PATH_MAX];
	bool found = false;

	copy = strdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		snprintf(exe, sizeof(exe), "%s/gnuplot", dir);
		found = access(exe, X_OK) == 0;
	}
	free(copy);
	return found;
}

static void test_no_stalls(void **state)
{
	const char *d;

	if (!have_gnuplot())
		skip();
	d = make_run("idle", 0);
	assert_int_equal(plot(d), 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		chart_drawn(d, files[i]);
	/*
	 * what is plotted: per setting a and b the median and its CI of every cell's 0 (null:
	 * nan, which gnuplot leaves out), no stall for the CDF, its marks and the histogram,
	 * no CPU and no stall time for b's cost point (then its point type and colour), and
	 * at both samples (0 s and 1 s) no free order-9 block and no free MiB at orders 1-4
	 */
	chart_plots(d, "stall-count", "\"host\" 0 0 0 0 0 0\n");
	chart_plots(d, "stall-time", "\"host\" 0 0 0 0 0 0\n");
	chart_plots(d, "stall-per-1k", "\"host\" 0 0 0 0 0 0\n");
	chart_plots(d, "stall-p99", "\"host\" nan nan nan nan nan nan\n");
	chart_plots(d, "thp-success", "\"host\" nan nan nan nan nan nan\n");
	chart_plots(d, "stall-cdf", "");
	chart_plots(d, "stall-cdf-marks", "");
	chart_plots(d, "stall-hist", "");
	chart_plots(d, "cost", "idle host b 0 0 7 15113984 0\n");
	chart_plots(d, "timeline-0", "0.000 0 0\n1.000 0 0\nNaN NaN\nNaN NaN\nnone NaN NaN\n");
	chart_plots(d, "timeline-1", "0.000 0 0\n1.000 0 0\nNaN NaN\nNaN NaN\nnone NaN NaN\n");
	assert_true(chart_says(d, "stall-cdf", "no stalls"));
	assert_true(chart_says(d, "stall-p99", "no value in these runs"));
	assert_true(chart_says(d, "stall-count", "all 0"));
	assert_true(chart_says(d, "stall-per-1k", "all 0"));
	assert_true(chart_says(d, "thp-success", "no value in these runs"));
	assert_true(chart_says(d, "stall-hist", "no stalls in these runs"));
	assert_true(chart_says(d, "cost", "no stalls avoided, no CPU spent"));
	assert_true(chart_says(d, "timeline-0", "no direct-compaction stall"));
	/* order 0 and 8 have free memory, none of order 9: the timeline's lines are at 0 */
	assert_true(chart_says(d, "timeline-0", "free memory"));
}

static void test_with_stalls(void **state)
{
	const char *d;

	if (!have_gnuplot())
		skip();
	d = make_run("busy", 10);
	assert_int_equal(plot(d), 0);
	assert_false(chart_says(d, "stall-p99", "no value"));
	assert_false(chart_says(d, "stall-count", "all 0"));
	assert_false(chart_says(d, "stall-per-1k", "all 0"));
	assert_false(chart_says(d, "thp-success", "no value"));
	assert_false(chart_says(d, "cost", "no stalls avoided"));
	/*
	 * the plotted values: setting a's cells have 10, 11, 12 stalls, b's 13, 14, 15 (median,
	 * CI low, CI high), 30 us each; p99 90 us, 2.5 per 1000 allocations, THP 75%; b's cost
	 * point: 1 ms more CPU (2 ms against 1 ms) for -0.09 ms of stall time avoided
	 */
	chart_plots(d, "stall-count", "\"host\" 11 10 12 14 13 15\n");
	chart_plots(d, "stall-time", "\"host\" 0.33 0.3 0.36 0.42 0.39 0.45\n");
	chart_plots(d, "stall-p99", "\"host\" 90 90 90 90 90 90\n");
	chart_plots(d, "stall-per-1k", "\"host\" 2.5 2.5 2.5 2.5 2.5 2.5\n");
	chart_plots(d, "thp-success", "\"host\" 75 75 75 75 75 75\n");
	chart_plots(d, "cost", "idle host b 1 -0.09 7 15113984 0\n");
	/* no trace.dat in these cells: the CDF has no stall to draw and says so */
	assert_true(chart_says(d, "stall-cdf", "no stalls"));
}

/* stdout of `analyze` @dir (with @json: --format json) into a malloc'ed string */
static char *analyze_out(const char *dir, bool json)
{
	char *argv[] = { "analyze", (char *)dir, "--format", json ? "json" : "text", NULL };
	char path[900];

	snprintf(path, sizeof(path), "%s/analyze.out", tmp);
	/* the cells have no meta.json: left out, exit 1, report.md still written */
	assert_int_equal(fx_quiet(cmd_analyze, 4, argv, path), 1);
	return cb_read_file(path, NULL);
}

/* issue 22: `analyze DIR` keeps the Charts section plot added; --format json is JSON */
static void test_analyze_keeps_charts(void **state)
{
	char path[900], *md, *out;
	struct json_object *o, *cells;
	const char *d;

	if (!have_gnuplot())
		skip();
	d = make_run("keep", 10);
	assert_int_equal(plot(d), 0);
	free(analyze_out(d, false));
	snprintf(path, sizeof(path), "%s/report.md", d);
	md = cb_read_file(path, NULL);
	assert_non_null(md);
	assert_non_null(strstr(md, "\n## Charts\n"));
	assert_non_null(strstr(md, "charts/stall-count.png"));
	/* once, not twice */
	assert_null(strstr(strstr(md, "\n## Charts\n") + 1, "\n## Charts\n"));
	free(md);
	out = analyze_out(d, true);
	o = json_tokener_parse(out);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "cells", &cells));
	assert_int_equal(json_object_array_length(cells), 6);
	json_object_put(o);
	free(out);
}

/*
 * bad setup: gnuplot there but not rsvg-convert (PATH holds a link to gnuplot only): plot
 * fails with 1, and the log it names says which program could not be run
 */
static void test_rasterizer_missing(void **state)
{
	char bin[800], link[900], path[900], *old = getenv("PATH"), *saved, *log;
	const char *d;

	if (!have_gnuplot())
		skip();
	saved = strdup(old ? old : "/usr/bin:/bin");
	assert_non_null(saved);
	snprintf(bin, sizeof(bin), "%s/only-gnuplot", tmp);
	snprintf(link, sizeof(link), "%s/gnuplot", bin);
	assert_int_equal(cb_mkdir_p(bin), 0);
	assert_int_equal(symlink("/usr/bin/gnuplot", link), 0);
	d = make_run("norsvg", 0);
	setenv("PATH", bin, 1);
	assert_int_equal(plot(d), 1);
	setenv("PATH", saved, 1);
	free(saved);
	snprintf(path, sizeof(path), "%s/charts/rsvg-convert.log", d);
	log = cb_read_file(path, NULL);
	assert_non_null(log);
	assert_non_null(strstr(log, "cannot run rsvg-convert"));
	free(log);
}

static int setup(void **state)
{
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	return getenv("CB_KEEP") ? 0 : cb_rm_rf(tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_stalls),
		cmocka_unit_test(test_with_stalls),
		cmocka_unit_test(test_analyze_keeps_charts),
		cmocka_unit_test(test_rasterizer_missing),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
