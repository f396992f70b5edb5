// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_waves_compare.c - the learning curve in `compare` and `plot` on a run of summaries
 * with known per-wave stall times:
 *
 *   setting none:   every wave of repetition r (1..5) stalls 5 ms + r x 0.1 ms: flat
 *   setting demand: waves 0-1 stall 10 ms + r x 0.1 ms, waves 2-7 stall 1 ms + r x 0.1 ms
 *
 * Eight waves: the first quarter is waves 0-1, the last half waves 4-7. For demand every
 * repetition's last-half value (1.1..1.5 ms) is below every first-quarter value (10.1..10.5
 * ms): the exact two-sided Mann-Whitney p is 2 / C(10, 5) = 2 / 252; medians 10.3 and 1.3 ms.
 * For none the two sets are the same values: no difference. The chart's medians per index:
 * demand 10.3 ms at 0-1 and 1.3 ms after, none 5.3 ms. A run without waves gets neither.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "runs.h"
#include "plot_fixture.h"
#include "util.h"

#define REPS 5
#define WAVES 8

static char tmp[] = "/tmp/cb-test-waves-cmp-XXXXXX";

static double wave_ns(int s, int r, int i)
{
	if (!s)
		return 5e6 + r * 1e5;
	return (i < 2 ? 10e6 : 1e6) + r * 1e5;
}

/* wave i from 0.2 i + 0.05 s after the first sample (no window: the timeline's zero) */
static double wave_start(int i)
{
	return 1e9 + i * 2e8 + 5e7;
}

static const char samples[] = "t_ns,node,zone,present,score,weighted,node_score,o9,o10\n"
	"1000000000,0,Normal,262144,0,0,0,50,0\n2000000000,0,Normal,262144,0,0,0,20,0\n";

/*
 * a run of settings none and demand, REPS cells each, summary.json and samples.csv; with
 * @short_rep > 0, that repetition of demand says only 5 of its 8 waves ran
 */
static void make_run(const char *d, bool waves, int short_rep)
{
	static const char *const set[2] = { "none", "demand" };
	char path[PATH_MAX], *text;
	FILE *f;

	assert_int_equal(cb_mkdir_p(d), 0);
	snprintf(path, sizeof(path), "%s/run.json", d);
	f = fopen(path, "w");
	fprintf(f, "{\"schema\":1,\"config_sha256\":\"x\",\"cells\":[");
	for (int s = 0; s < 2; s++)
		for (int r = 1; r <= REPS; r++)
			fprintf(f, "%s{\"id\":\"host.%s.w.r%d\",\"kernel\":\"host\",\"setting\":\"%s\","
				"\"workload\":\"w\",\"rep\":%d}", s + r > 1 ? "," : "", set[s], r,
				set[s], r);
	fprintf(f, "]}\n");
	fclose(f);
	for (int s = 0; s < 2; s++)
		for (int r = 1; r <= REPS; r++) {
			double first = (wave_ns(s, r, 0) + wave_ns(s, r, 1)) / 2, last = 0;
			size_t len = 0;

			for (int i = 4; i < WAVES; i++)
				last += wave_ns(s, r, i) / 4;
			snprintf(path, sizeof(path), "%s/host.%s.w.r%d", d, set[s], r);
			assert_int_equal(cb_mkdir_p(path), 0);
			f = open_memstream(&text, &len);
			fprintf(f, "{\"schema\":1,\"lost_events\":false,\"metrics\":{\"dc_stalls\":10,"
				"\"dc_stall_total_ns\":%.0f", 1e7 * (s + 1) + r);
			if (waves)
				fprintf(f, ",\"wave_stall_ns_first\":%.0f,\"wave_stall_ns_last\":%.0f",
					first, last);
			fprintf(f, "}");
			if (waves) {
				fprintf(f, ",\"waves\":{\"series\":[");
				for (int i = 0; i < WAVES; i++)
					fprintf(f, "%s{\"index\":%d,\"stall_ns\":%.0f,\"start_ns\":"
						"%.0f,\"end_ns\":%.0f}", i ? "," : "", i,
						wave_ns(s, r, i), wave_start(i), wave_start(i) + 1e8);
				fprintf(f, "],\"count\":%d,\"recorded\":%d}", WAVES,
					s == 1 && r == short_rep ? 5 : WAVES);
			}
			fprintf(f, "}\n");
			fclose(f);
			snprintf(path, sizeof(path), "%s/host.%s.w.r%d/summary.json", d, set[s], r);
			assert_int_equal(cb_write_file_atomic(path, text, len), 0);
			free(text);
			/* the timeline chart needs samples */
			snprintf(path, sizeof(path), "%s/host.%s.w.r%d/samples.csv", d, set[s], r);
			assert_int_equal(cb_write_file_atomic(path, samples, strlen(samples)), 0);
		}
}

/* `compare @dir --format @fmt` into a string */
static char *compare(const char *dir, const char *fmt)
{
	char out[PATH_MAX], *argv[] = { "compare", (char *)dir, "--format", (char *)fmt, NULL };
	char *text;

	snprintf(out, sizeof(out), "%s/compare.out", tmp);
	assert_int_equal(fx_quiet(cmd_compare, 4, argv, out), 0);
	text = cb_read_file(out, NULL);
	assert_non_null(text);
	return text;
}

static double num(struct json_object *o, const char *a, const char *b)
{
	struct json_object *x, *y;

	assert_true(json_object_object_get_ex(o, a, &x));
	assert_true(json_object_object_get_ex(x, b, &y));
	return json_object_get_double(y);
}

static void test_compare_learning(void **state)
{
	char dir[PATH_MAX], *text;
	struct json_object *all, *pair, *lc, *x;

	snprintf(dir, sizeof(dir), "%s/waves", tmp);
	make_run(dir, true, 0);
	text = compare(dir, "text");
	printf("%s", text);
	assert_non_null(strstr(text, "Learning curve"));
	assert_non_null(strstr(text, ":host/demand: less stall time per wave (last half of the waves vs the first quarter): 1.3 ms vs 10.3 ms"));
	assert_non_null(strstr(text, ":host/none: no detectable difference in stall time per "
				     "wave"));
	free(text);

	text = compare(dir, "json");
	all = json_tokener_parse(text);
	assert_non_null(all);
	pair = json_object_array_get_idx(all, 0);
	assert_true(json_object_object_get_ex(pair, "learning_curve", &lc));
	assert_true(fabs(num(lc, "candidate", "p") - 2.0 / 252) < 1e-9);
	assert_true(num(lc, "candidate", "first_quarter_ns") == 10.3e6);
	assert_true(num(lc, "candidate", "last_half_ns") == 1.3e6);
	assert_true(json_object_object_get_ex(json_object_object_get(lc, "candidate"),
					      "later_better", &x) && json_object_get_boolean(x));
	assert_true(num(lc, "baseline", "first_quarter_ns") == 5.3e6);
	assert_true(num(lc, "baseline", "last_half_ns") == 5.3e6);
	assert_true(json_object_object_get_ex(json_object_object_get(lc, "baseline"),
					      "significant", &x) && !json_object_get_boolean(x));
	json_object_put(all);
	free(text);

	/* a run without waves: no learning curve at all, in either format */
	snprintf(dir, sizeof(dir), "%s/plain", tmp);
	make_run(dir, false, 0);
	text = compare(dir, "text");
	assert_null(strstr(text, "Learning curve"));
	free(text);
	text = compare(dir, "json");
	assert_null(strstr(text, "learning_curve"));
	free(text);
}

/*
 * a repetition whose waves did not all run is left out of its group, with a note naming it:
 * demand keeps 4 of its 5 repetitions, none all 5
 */
static void test_short_waves_left_out(void **state)
{
	struct cb_run_data rd;
	char dir[PATH_MAX], err[1024];

	snprintf(dir, sizeof(dir), "%s/short", tmp);
	make_run(dir, true, 3);
	assert_int_equal(cb_run_load(dir, &rd, err, sizeof(err)), 0);
	assert_int_equal(rd.failed, 0);
	assert_int_equal(rd.short_waves, 1);
	assert_string_equal(rd.short_why, "host.demand.w.r3: 5 of 8 waves ran");
	assert_int_equal(rd.ng, 2);
	for (size_t i = 0; i < rd.ng; i++) {
		const struct cb_group *g = &rd.groups[i];

		if (!strcmp(g->setting, "demand")) {
			assert_int_equal(g->n, 4);
			for (size_t k = 0; k < g->n; k++)
				assert_true(g->rep[k] != 3);
		} else {
			assert_int_equal(g->n, REPS);
		}
	}
	cb_run_free(&rd);
}

/* the medians per wave index in charts/waves.dat */
static void test_plot_waves(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX], *dat, line[256];
	char *argv[] = { "plot", dir, NULL };
	int idx, rows = 0;
	double none, demand;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/waves", tmp);
	assert_int_equal(fx_quiet(cmd_plot, 2, argv, NULL), 0);
	snprintf(path, sizeof(path), "%s/charts/waves.dat", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %lf %lf", &idx, &none, &demand) != 3)
			continue;
		assert_int_equal(idx, rows);
		assert_true(fabs(none - 5.3) < 1e-9);
		assert_true(fabs(demand - (idx < 2 ? 10.3 : 1.3)) < 1e-9);
		rows++;
	}
	fclose(f);
	assert_int_equal(rows, WAVES);
	snprintf(path, sizeof(path), "%s/charts/waves.png", dir);
	assert_int_equal(access(path, F_OK), 0);
	/* the timeline's third block: each wave in seconds since the first sample */
	snprintf(path, sizeof(path), "%s/charts/timeline-0.dat", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	{
		char *b = strstr(dat, "\n\n\n"), *save = NULL, *ln;
		int n = 0;

		assert_non_null(b);
		b = strstr(b + 3, "\n\n\n");
		assert_non_null(b);
		*strstr(b + 3, "\n\n\n") = '\0';	/* block 3, the compaction runs, follows */
		for (ln = strtok_r(b + 3, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save), n++) {
			double a, e;

			assert_int_equal(sscanf(ln, "%lf %lf", &a, &e), 2);
			assert_true(fabs(a - (0.2 * n + 0.05)) < 1e-6);
			assert_true(fabs(e - (0.2 * n + 0.15)) < 1e-6);
		}
		assert_int_equal(n, WAVES);
	}
	free(dat);
	snprintf(path, sizeof(path), "%s/charts/plot.gp", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	assert_non_null(strstr(dat, "set object 8 rect from 1.45, graph 0 to 1.55, graph 1"));
	assert_non_null(strstr(dat, "title 'demand waves'"));
	free(dat);
	snprintf(path, sizeof(path), "%s/report.md", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	assert_non_null(strstr(dat, "charts/waves.png"));
	free(dat);

	/* no waves: no chart, no data file */
	snprintf(dir, sizeof(dir), "%s/plain", tmp);
	assert_int_equal(fx_quiet(cmd_plot, 2, argv, NULL), 0);
	snprintf(path, sizeof(path), "%s/charts/waves.dat", dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/report.md", dir);
	dat = cb_read_file(path, NULL);
	assert_non_null(dat);
	assert_null(strstr(dat, "waves.png"));
	free(dat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_learning),
		cmocka_unit_test(test_plot_waves),
		cmocka_unit_test(test_short_waves_left_out),
	};
	int ret;

	if (!mkdtemp(tmp))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	cb_rm_rf(tmp);
	return ret;
}
