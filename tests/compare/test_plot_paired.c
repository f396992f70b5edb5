// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_plot_paired.c - plot's chart of the comparison paired by saved state, on a run whose
 * values are known. Kernels k1 and k2, workloads w1 and w2, 6 repetitions:
 *
 *   w1: settings none, pol and pol2 started from the same 6 saved states s1..s6, each
 *     setting's repetitions naming them in another order (none rep r from NONE_ST[r],
 *     pol from POL_ST[r], pol2 from POL2_ST[r]: no two alike, none of them its own
 *     inverse), so only a pairing by name gives these differences: none at 100 x j ms
 *     (plus 1000 ms on k2) from state sj, pol at none's value plus -10, -20, -30, -40, +5,
 *     -60 ms, pol2 at none's plus j ms. Setting boot booted (no state): it pairs with
 *     nothing and gets no column.
 *   w2: no cell started from a saved state: no panel.
 *
 * So the chart has two panels (w1 on k1, w1 on k2), each with two columns: pol's six
 * differences, 5 of 6 states less, median -25 ms; pol2's +1..+6, 0 of 6 less, median
 * +3.5 ms. A run without saved states gets no chart, and loses the one drawn before; in
 * it setting boot has no value in w1 (its cells failed): the bar charts still draw, boot's
 * bars absent from that panel and its key entry kept (gnuplot refuses a histogram column
 * without a valid point: "No valid points in histogram").
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
static const double diff_ms[REPS] = { -10, -20, -30, -40, 5, -60 }; /* pol, by state */
static const int NONE_ST[REPS] = { 3, 1, 2, 6, 4, 5 }, POL_ST[REPS] = { 2, 5, 6, 1, 3, 4 },
		 POL2_ST[REPS] = { 6, 4, 5, 3, 1, 2 };
static const char *const state_name[REPS] = { "k.w1.r1/a1", "k.w1.r2/a2", "k.w1.r3/a3",
					      "k.w1.r4/a4", "k.w1.r5/a5", "k.w1.r6/a6" };

/* the known difference of setting @s (1: pol, 2: pol2) from none in state @j (1..6) */
static double known_diff(int s, int j)
{
	return s == 1 ? diff_ms[j - 1] : j;
}

/* a run of (k1, k2) x (none, pol, pol2, boot) x (w1, w2) x REPS; @saved: w1 from states */
static void make_run(const char *d, bool saved)
{
	const char *const kernels[] = { "k1", "k2", NULL };
	const char *const settings[] = { "none", "pol", "pol2", "boot", NULL };
	const char *const workloads[] = { "w1", "w2", NULL };
	struct runfix_cell cells[2 * 4 * 2 * REPS];
	struct runfix rf = { .head = "\"complete\":true,\"pending\":[]" };
	size_t n = runfix_grid(cells, 2 * 4 * 2 * REPS, kernels, settings, workloads, REPS);

	for (size_t i = 0; i < n; i++) {
		struct runfix_cell *c = &cells[i];
		int s = !strcmp(c->setting, "pol") ? 1 : !strcmp(c->setting, "pol2") ? 2 :
			!strcmp(c->setting, "none") ? 0 : 3;
		const int *st = s == 1 ? POL_ST : s == 2 ? POL2_ST : NONE_ST;
		int j = st[c->rep - 1]; /* the state it started from, 1..6 */
		double ms = 100.0 * j + (strcmp(c->kernel, "k2") ? 0 : 1000) +
			    (s == 1 || s == 2 ? known_diff(s, j) : 0);
		bool w1 = !strcmp(c->workload, "w1");

		if (saved && w1 && s < 3)
			c->start_state = state_name[j - 1];
		if (!saved && w1 && s == 3)
			continue;	/* no summary.json: the cell failed */
		snprintf(c->metrics, sizeof(c->metrics),
			 "\"dc_stall_total_ns\":%.0f,\"dc_stalls\":10", ms * 1e6);
	}
	assert_int_equal(runfix_write(d, &rf, cells, n), 0);
}

/* the next block of paired.dat (blocks end in two blank lines), comments skipped */
static char *next_block(char **at)
{
	char *b = *at, *end = strstr(b, "\n\n\n");

	assert_non_null(end);
	*end = '\0';
	*at = end + 3;
	while (*b == '#')
		b = strchr(b, '\n') + 1;
	return b;
}

/* a panel's points: each column's six differences, by state name */
static void check_points(char *b)
{
	int seen[3][REPS] = { { 0 } }, points = 0, si;
	char *ln, *save;

	for (ln = strtok_r(b, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
		char name[64];
		unsigned long rgb;
		double x, d;

		assert_int_equal(sscanf(ln, "%lf %lf %d %lu \"%63[^\"]\"", &x, &d, &si, &rgb, name),
				 5);
		assert_true(si == 1 || si == 2);	/* pol and pol2; boot does not pair */
		assert_true(fabs(x - si) < 0.2);	/* its column, spread within it */
		for (int j = 1; j <= REPS; j++)
			if (!strcmp(name, state_name[j - 1])) {
				assert_true(fabs(d - known_diff(si, j)) < 1e-6);
				seen[si][j - 1]++;
			}
		points++;
	}
	assert_int_equal(points, 2 * REPS);
	for (int s = 1; s <= 2; s++)
		for (int j = 0; j < REPS; j++)
			assert_int_equal(seen[s][j], 1);
}

/* a panel's medians: pol -25 ms at x 1, pol2 +3.5 ms at x 2 */
static void check_medians(const char *b)
{
	double x1, m1, x2, m2;
	int s1, s2;

	assert_int_equal(sscanf(b, "%lf %lf %d %*u %lf %lf %d", &x1, &m1, &s1, &x2, &m2, &s2), 6);
	assert_true(x1 == 1 && s1 == 1 && fabs(m1 - -25) < 1e-9);
	assert_true(x2 == 2 && s2 == 2 && fabs(m2 - 3.5) < 1e-9);
}

/* `compactbench plot DIR` (@charts NULL), or `plot DIR -o CHARTS` */
static int plot(char *dir, const char *charts)
{
	char *dirs[] = { dir };
	struct cb_plot_opts o = { .dirs = dirs, .nr_dirs = 1, .output = charts };
	FILE *null = fopen("/dev/null", "w");
	int rc = cb_plot(&o, null);

	fclose(null);
	return rc;
}

static void test_paired_chart(void **state)
{
	char dir[600], path[700], charts[600], *dat, *at;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/saved", tmp);
	make_run(dir, true);
	assert_int_equal(plot(dir, NULL), 0);
	snprintf(path, sizeof(path), "%s/charts/paired.dat", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	/* two panels, w1 on k1 and on k2, against none; w2 has none */
	assert_non_null(strstr(dat, "# w1 k1 none\n"));
	assert_non_null(strstr(dat, "# w1 k2 none\n"));
	assert_null(strstr(dat, "# w2"));
	at = dat;
	for (int p = 0; p < 2; p++) {
		check_points(next_block(&at));
		check_medians(next_block(&at));
	}
	assert_string_equal(at, "");
	free(dat);

	snprintf(path, sizeof(path), "%s/charts/plot.gp", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	assert_non_null(strstr(dat, "set label 1 \"5 of 6 less\" at 1, graph 0.95"));
	assert_non_null(strstr(dat, "set label 2 \"0 of 6 less\" at 2, graph 0.95"));
	assert_non_null(strstr(dat, "set xtics (\"pol\" 1, \"pol2\" 2)"));
	/* the second panel's points and medians are the data file's third and fourth blocks */
	assert_non_null(strstr(dat, "plot 'paired.dat' index 2 using 1:2:4"));
	assert_non_null(strstr(dat, "'' index 3 using ($1-0.25):2:(0.5):(0):4"));
	free(dat);
	snprintf(path, sizeof(path), "%s/charts/paired.png", dir);
	assert_int_equal(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/report.md", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	assert_non_null(strstr(dat, "charts/paired.png"));
	free(dat);

	/* nothing saved: no chart, and none left from before in the charts directory */
	snprintf(charts, sizeof(charts), "%s/charts", tmp);
	assert_int_equal(plot(dir, charts), 0);
	snprintf(path, sizeof(path), "%s/paired.png", charts);
	assert_int_equal(access(path, R_OK), 0);
	snprintf(dir, sizeof(dir), "%s/booted", tmp);
	make_run(dir, false);
	assert_int_equal(plot(dir, charts), 0);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/paired.dat", charts);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(plot(dir, NULL), 0);
	snprintf(path, sizeof(path), "%s/charts/plot.gp", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	assert_non_null(strstr(dat, "keyentry with boxes lc rgb '#CC79A7' title \"boot\""));
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
