// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_plot_values.c - the charts carry the numbers: for a synthetic 2 kernels x 4 settings
 * x 4 workloads run with known values (plot_fixture.h), every bar of every small-multiple
 * chart, read back from the chart's data file, is the median the fixture defines (x its
 * unit), a group without values has no bar, the cost points are the differences against
 * the first setting, the CDF's p50/p99 marks are the fixture trace's quantiles, and the
 * same setting has the same colour in every chart's SVG.
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

#include "compare.h"
#include "plot.h"
#include "plot_fixture.h"
#include "stalls.h"
#include "util.h"

static char tmp[] = "/tmp/cb-test-plotv-XXXXXX";
static char run[900];

/* value of column @col (1-based) of the line of kernel @k in the block of workload @w */
static double bar_value(const char *file, int w, int k, int col)
{
	char path[1100], line[4096], head[200];
	FILE *f;
	int in = 0, row = 0;
	double v = NAN;

	snprintf(path, sizeof(path), "%s/charts/%s.dat", run, file);
	f = fopen(path, "r");
	assert_non_null(f);
	snprintf(head, sizeof(head), "# workload %s\n", fx_workload[w]);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			in = !strcmp(line, head);
			row = 0;
			continue;
		}
		if (!in || line[0] == '\n')
			continue;
		if (row++ == k) {
			char *p = strchr(line + 1, '"') + 1;

			for (int c = 2; c <= col; c++)
				v = strtod(p, &p);
			break;
		}
	}
	fclose(f);
	return v;
}

static void check_bars(const char *file, double (*fn)(int, int, int, int), double scale)
{
	for (int w = 0; w < FX_NW; w++)
		for (int k = 0; k < FX_NK; k++)
			for (int s = 0; s < FX_NS; s++) {
				double v = bar_value(file, w, k, 2 + 3 * s);

				if (fx_missing(w, k, s) || fx_absent(w, k)) {
					assert_true(isnan(v));
					continue;
				}
				/* the median of reps 0, 1, 2 of an increasing or decreasing fn */
				assert_float_equal(v, fn(w, k, s, 1) * scale, 1e-6 * fabs(v) + 1e-9);
				/* a CI that holds the median */
				assert_true(bar_value(file, w, k, 3 + 3 * s) <= v);
				assert_true(bar_value(file, w, k, 4 + 3 * s) >= v);
			}
}

static void test_bars(void **state)
{
	check_bars("stall-count", fx_stalls, 1);
	check_bars("stall-time", fx_stall_ns, 1e-6);
	check_bars("stall-p99", fx_p99_ns, 1e-3);
	check_bars("thp-success", fx_thp, 100);
}

/*
 * the cost points: (cpu - cpu of 'none', stall time of 'none' - stall time), in ms; the
 * first kernel's marker filled (an odd gnuplot point type), the second's open (even), the
 * third's open with a dot (point type 7) inside
 */
static void test_cost(void **state)
{
	char path[1100], line[512], wl[64], kern[64], set[64];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/charts/cost.dat", run);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		double cpu, avoided;
		int w, k, s, pt, inner;
		long rgb;

		if (line[0] == '#')
			continue;
		assert_int_equal(sscanf(line, "%63s %63s %63s %lf %lf %d %ld %d", wl, kern, set, &cpu,
					&avoided, &pt, &rgb, &inner), 8);
		for (w = 0; strcmp(fx_workload[w], wl); w++)
			;
		for (k = 0; strcmp(fx_kernel[k], kern); k++)
			;
		for (s = 0; strcmp(fx_setting[s], set); s++)
			;
		assert_true(s > 0);
		assert_false(fx_missing(w, k, s) || fx_absent(w, k));
		assert_float_equal(cpu, (fx_cpu_ns(w, k, s, 1) - fx_cpu_ns(w, k, 0, 1)) / 1e6, 1e-6);
		assert_float_equal(avoided, (fx_stall_ns(w, k, 0, 1) - fx_stall_ns(w, k, s, 1)) / 1e6,
				   1e-6);
		assert_int_equal(pt % 2, k == 0);
		assert_int_equal(inner, k == 2 ? 7 : 0);
		n++;
	}
	fclose(f);
	/* 3 candidates per (kernel, workload) run, one group missing */
	assert_int_equal(n, (FX_NK * FX_NW - 1) * (FX_NS - 1) - 1);
}

/*
 * the CDF marks of the traced workload: 336 stalls pooled x 3 repetitions of the same
 * trace, so p50/p99 are those of the trace itself, which `analyze` reads independently
 */
static void test_cdf_marks(void **state)
{
	char path[1100], line[512], wl[64], kern[64], set[64];
	double p50, p99, q50 = 0, q99 = 0;
	struct cb_stalls st;
	char err[1024];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/analysis-thp-compact.v6.dat", getenv("FIXTURES"));
	assert_int_equal(cb_stalls_from_trace(path, &st, err, sizeof(err)), 0);
	cb_stalls_quantile(&st, 0.5, &q50);
	cb_stalls_quantile(&st, 0.99, &q99);
	assert_true(st.n > 100);
	cb_stalls_free(&st);
	snprintf(path, sizeof(path), "%s/charts/stall-cdf-marks.dat", run);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		assert_int_equal(sscanf(line, "%63s %63s %63s %lf %lf", wl, kern, set, &p50, &p99),
				 5);
		assert_string_equal(wl, fx_workload[0]);
		/* tripled samples: the same quantiles up to interpolation between equal values */
		assert_float_equal(p50, q50 / 1e3, q50 / 1e3 * 0.05);
		assert_float_equal(p99, q99 / 1e3, q99 / 1e3 * 0.05);
		n++;
	}
	fclose(f);
	/* every group with stalls, the failed one has none to mark */
	assert_int_equal(n, FX_NK * FX_NS - 1);
}

/* each setting's key entry has the setting's palette colour in every chart's SVG */
static void test_palette(void **state)
{
	static const char *const charts[] = { "stall-count", "stall-time", "stall-p99",
					      "thp-success", "stall-per-1k", "stall-cdf",
					      "stall-hist", "cost" };

	for (size_t i = 0; i < CB_ARRAY_SIZE(charts); i++) {
		char path[1100], *svg;

		snprintf(path, sizeof(path), "%s/charts/%s.svg", run, charts[i]);
		svg = cb_read_file(path, NULL);
		assert_non_null(svg);
		/* the cost chart has no point of the baseline (the first setting) */
		for (int s = strcmp(charts[i], "cost") ? 0 : 1; s < FX_NS; s++) {
			char want[64], text[128];
			const char *at, *col;
			unsigned int r, g, b, pr, pg, pb;

			snprintf(text, sizeof(text), "<text>%s</text>", fx_setting[s]);
			at = strstr(svg, text);
			assert_non_null(at);
			/* gnuplot writes the key sample's colour as rgb(R, G, B) */
			col = strstr(at, "rgb(");
			assert_non_null(col);
			assert_int_equal(sscanf(col, "rgb( %u, %u, %u)", &r, &g, &b), 3);
			assert_int_equal(sscanf(pl_palette[s], "#%2x%2x%2x", &pr, &pg, &pb), 3);
			snprintf(want, sizeof(want), "%s %s", charts[i], fx_setting[s]);
			if (r != pr || g != pg || b != pb)
				fail_msg("%s: rgb(%u, %u, %u), want %s", want, r, g, b, pl_palette[s]);
		}
		free(svg);
	}
}

/* the runs of plot_fixture.h's FX_CRUNS, lane by lane in cruns.h's order */
static const struct {
	const char *lane;
	double start, end;
} fx_runs[] = {
	{ "direct", 0.25, 0.5 }, { "direct", 1, 1.125 }, { "kcompactd", 0.75, 0.875 },
	{ "policy", 1.5, 2 },
};

/*
 * the timeline of the first group (thp-burst, first kernel, 'none'): the free 2 MiB blocks
 * and the MiB free at orders 1-4 the fixture's samples.csv holds (o1..o4 = 64, 32, 16, 8
 * pages: 2 MiB, then half of it twice), and one tick per stall of its median repetition:
 * the 336 of the fixture trace; no wave block (the cells have no waves); the compaction
 * runs of its summary.json (FX_CRUNS), one lane per attribution that has runs
 */
static void test_timeline(void **state)
{
	static const double blocks[3] = { 50, 20, 5 }, mib[3] = { 2, 1, 0.5 };
	char path[1100], line[256], lane[64], prev = '\n', *gp;
	int block = 0, samples = 0, ticks = 0, waves = 0, runs = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/charts/timeline-0.dat", run);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		double a, b, m;

		if (line[0] == '#')
			continue;
		if (line[0] == '\n') {
			block += prev != '\n';	/* two blank lines end a gnuplot index block */
			prev = '\n';
			continue;
		}
		prev = line[0];
		if (block == 3) {	/* the compaction runs */
			assert_int_equal(sscanf(line, "%63s %lf %lf", lane, &a, &b), 3);
			assert_true(runs < (int)(sizeof(fx_runs) / sizeof(fx_runs[0])));
			assert_string_equal(lane, fx_runs[runs].lane);
			assert_float_equal(a, fx_runs[runs].start, 1e-9);
			assert_float_equal(b, fx_runs[runs].end, 1e-9);
			runs++;
		} else if (block == 2) {	/* the waves: none in this run */
			assert_string_equal(line, "NaN NaN\n");
			waves++;
		} else if (block == 0) {
			assert_int_equal(sscanf(line, "%lf %lf %lf", &a, &b, &m), 3);
			assert_float_equal(a, samples, 1e-9);
			assert_float_equal(b, blocks[samples], 1e-9);
			assert_float_equal(m, mib[samples], 1e-9);
			samples++;
		} else {
			assert_int_equal(sscanf(line, "%lf %lf", &a, &b), 2);
			assert_true(b > 0);
			ticks++;
		}
	}
	fclose(f);
	assert_int_equal(samples, 3);
	assert_int_equal(ticks, 336);
	assert_int_equal(waves, 1);
	assert_int_equal(runs, 4);
	/* three lanes, top to bottom; kcompactd was thinned, and the title says so */
	snprintf(path, sizeof(path), "%s/charts/plot.gp", run);
	gp = cb_read_file(path, NULL);
	assert_non_null(gp);
	assert_non_null(strstr(gp, "set ytics ('direct' 2, 'kcompactd' 1, 'policy' 0)"));
	assert_non_null(strstr(gp, "of a run); shown, evenly spread: kcompactd 1 of 4'"));
	free(gp);
}

/*
 * the order/origin histogram folds what does not fit a panel: 8 classes of known counts
 * (class i has i + 1 stalls over 2 repetitions) give the 5 most frequent in ascending
 * order and "the rest" with the stalls of the other 3
 */
static void test_hist_rest(void **state)
{
	struct pl_ctx *c = calloc(1, sizeof(*c));
	struct pl_stall rec[36];
	struct cb_group g = { .n = 2 };
	struct pl_chart ch;
	char dir[1000], path[1100], line[256], name[64];
	size_t n = 0;
	double per_rep[8];
	int rows = 0;
	FILE *gp, *f;

	snprintf(dir, sizeof(dir), "%s/hist", tmp);
	assert_int_equal(cb_mkdir_p(dir), 0);
	c->dir = dir;
	c->nw = c->nk = c->ns = 1;
	strcpy(c->workload[0], "w");
	strcpy(c->kernel[0], "k");
	strcpy(c->setting[0], "s");
	c->grid[0][0][0] = &g;
	/* class i: order 1 + i / 4, origin i % 4 (0 thp_fault .. 3 other), i + 1 stalls */
	for (int i = 0; i < 8; i++)
		for (int j = 0; j <= i; j++)
			rec[n++] = (struct pl_stall){ .ns = 1000, .order = (int16_t)(1 + i / 4),
						      .origin = (uint8_t)(i % 4) };
	c->stalls[0][0][0] = (struct pl_stalls){ .n = n, .rec = rec, .read = true };
	gp = fopen("/dev/null", "w");
	assert_int_equal(pl_hist(c, gp, &ch, 1), 1);
	fclose(gp);
	snprintf(path, sizeof(path), "%s/stall-hist.dat", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		assert_int_equal(sscanf(line, "\"%63[^\"]\" %lf", name, &per_rep[rows]), 2);
		rows++;
	}
	fclose(f);
	assert_int_equal(rows, 6);
	/* classes 3..7 (4..8 stalls) kept: order 1 other, order 2 thp_fault..other */
	assert_float_equal(per_rep[0], 4 / 2.0, 1e-9);
	assert_float_equal(per_rep[4], 8 / 2.0, 1e-9);
	/* the rest: classes 0..2, 1 + 2 + 3 stalls */
	assert_string_equal(name, "the rest");
	assert_float_equal(per_rep[5], 6 / 2.0, 1e-9);
	free(c);
}

static int setup(void **state)
{
	char *argv[] = { "plot", run, NULL };

	if (!mkdtemp(tmp))
		return -1;
	snprintf(run, sizeof(run), "%s/run", tmp);
	if (cb_mkdir_p(run) < 0 || fx_make_run(run, getenv("FIXTURES")) < 0)
		return -1;
	return fx_quiet(cmd_plot, 2, argv, NULL);
}

static int teardown(void **state)
{
	if (getenv("CB_KEEP")) {
		fprintf(stderr, "kept %s\n", run);
		return 0;
	}
	return cb_rm_rf(tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_cost),
		cmocka_unit_test(test_cdf_marks),
		cmocka_unit_test(test_palette),
		cmocka_unit_test(test_hist_rest),
		cmocka_unit_test(test_timeline),
	};

	if (!getenv("FIXTURES")) {
		fprintf(stderr, "FIXTURES (tests/fixtures) is not set\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
