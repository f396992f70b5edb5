// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_plot_paired.c - plot's chart of the comparison paired by saved state, on a run whose
 * values are known:
 *
 *   workload w1: settings none and pol started from the same 6 saved states s1..s6, none
 *     at 100 x j ms from state sj, pol at none's value plus -10, -20, -30, -40, +5, -60 ms;
 *     pol's repetitions name the states in reverse order (rep r from s(7-r)), so only a
 *     pairing by name gives these differences. Setting boot booted (no state): it pairs
 *     with nothing and gets no column.
 *   workload w2: no cell started from a saved state: no panel.
 *
 * So the chart has one panel (w1 on k) with one column (pol): the six differences, 5 of 6
 * states less, median -25 ms. A run without saved states gets no chart and no data file;
 * in it setting boot has no value in w1 (its cells failed): the bar charts still draw,
 * boot's bars absent from that panel and its key entry kept (gnuplot refuses a histogram
 * column without a valid point: "No valid points in histogram").
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

#include "plot.h"
#include "runfix.h"
#include "util.h"

#define REPS 6

static char tmp[] = "/tmp/cb-test-plot-paired-XXXXXX";
static const double diff_ms[REPS] = { -10, -20, -30, -40, 5, -60 }; /* by state s1..s6 */
static const char *const state_name[REPS] = { "k.w1.r1/a1", "k.w1.r2/a2", "k.w1.r3/a3",
					      "k.w1.r4/a4", "k.w1.r5/a5", "k.w1.r6/a6" };

/* a run of k x (none, pol, boot) x (w1, w2) x REPS; @saved: w1's none and pol from states */
static void make_run(const char *d, bool saved)
{
	const char *const kernels[] = { "k", NULL }, *const settings[] = { "none", "pol", "boot",
									   NULL };
	const char *const workloads[] = { "w1", "w2", NULL };
	struct runfix_cell cells[3 * 2 * REPS];
	struct runfix rf = { .head = "\"complete\":true,\"pending\":[]" };
	size_t n = runfix_grid(cells, 3 * 2 * REPS, kernels, settings, workloads, REPS);

	for (size_t i = 0; i < n; i++) {
		struct runfix_cell *c = &cells[i];
		bool none = !strcmp(c->setting, "none"), pol = !strcmp(c->setting, "pol");
		int j = pol ? REPS + 1 - c->rep : c->rep; /* the state it started from, 1..6 */
		double ms = 100.0 * j + (pol ? diff_ms[j - 1] : 0);

		if (saved && !strcmp(c->workload, "w1") && (none || pol))
			c->start_state = state_name[j - 1];
		if (!saved && !strcmp(c->workload, "w1") && !none && !pol)
			continue;	/* no summary.json: the cell failed */
		snprintf(c->metrics, sizeof(c->metrics),
			 "\"dc_stall_total_ns\":%.0f,\"dc_stalls\":10", ms * 1e6);
	}
	assert_int_equal(runfix_write(d, &rf, cells, n), 0);
}

static int plot(char *dir)
{
	char *dirs[] = { dir };
	struct cb_plot_opts o = { .dirs = dirs, .nr_dirs = 1 };
	FILE *null = fopen("/dev/null", "w");
	int rc = cb_plot(&o, null);

	fclose(null);
	return rc;
}

static void test_paired_chart(void **state)
{
	char dir[600], path[700], *dat, *b, *ln, *save;
	int points = 0, seen[REPS] = { 0 };
	double med, xs;
	int si;
	unsigned long rgb;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/saved", tmp);
	make_run(dir, true);
	assert_int_equal(plot(dir), 0);
	snprintf(path, sizeof(path), "%s/charts/paired.dat", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	/* one panel: w1 on k against none; w2 has none */
	b = strstr(dat, "# w1 k none\n");
	assert_non_null(b);
	assert_null(strstr(dat, "# w2"));
	assert_null(strstr(b + 1, "\n# "));
	b += strlen("# w1 k none\n");
	char *medians = strstr(b, "\n\n\n");

	assert_non_null(medians);
	*medians = '\0';
	for (ln = strtok_r(b, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
		char name[64];
		double x, d;

		assert_int_equal(sscanf(ln, "%lf %lf %d %lu \"%63[^\"]\"", &x, &d, &si, &rgb, name),
				 5);
		assert_int_equal(si, 1);	/* pol, the second setting */
		assert_true(x > 0.8 && x < 1.2);
		for (int j = 0; j < REPS; j++)
			if (!strcmp(name, state_name[j])) {
				assert_true(fabs(d - diff_ms[j]) < 1e-6);
				seen[j]++;
			}
		points++;
	}
	assert_int_equal(points, REPS);
	for (int j = 0; j < REPS; j++)
		assert_int_equal(seen[j], 1);
	assert_int_equal(sscanf(medians + 3, "%lf %lf %d", &xs, &med, &si), 3);
	assert_true(fabs(xs - 1) < 1e-9 && si == 1);
	assert_true(fabs(med - -25) < 1e-6);
	free(dat);

	snprintf(path, sizeof(path), "%s/charts/plot.gp", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	assert_non_null(strstr(dat, "\"5 of 6 less\""));
	assert_non_null(strstr(dat, "set xtics (\"pol\" 1)"));
	free(dat);
	snprintf(path, sizeof(path), "%s/charts/paired.png", dir);
	assert_int_equal(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/report.md", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	assert_non_null(strstr(dat, "charts/paired.png"));
	free(dat);

	/* nothing saved: no chart, no data file */
	snprintf(dir, sizeof(dir), "%s/booted", tmp);
	make_run(dir, false);
	assert_int_equal(plot(dir), 0);
	snprintf(path, sizeof(path), "%s/charts/paired.dat", dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/charts/plot.gp", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	assert_non_null(strstr(dat, "keyentry with boxes lc rgb '#009E73' title \"boot\""));
	free(dat);
	snprintf(path, sizeof(path), "%s/charts/stall-time.png", dir);
	assert_int_equal(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/report.md", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	assert_null(strstr(dat, "paired.png"));
	free(dat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paired_chart),
	};
	int ret;

	if (!mkdtemp(tmp))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	cb_rm_rf(tmp);
	return ret;
}
