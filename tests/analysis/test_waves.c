// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_waves.c - the wave cutter, readiness and the break-up estimate (analysis/core/waves.h)
 * against answers worked out by hand:
 *
 *  - a synthetic trace (synth_trace.h) with nine THP stalls at known times and durations, a
 *    cell around it with a THP and a kernel workload file of four waves (the kernel file
 *    stretches wave 1 over a stall the THP file leaves outside) and a samples.csv of two
 *    zones: stalls, stall time, THP success and p99 per wave, the mean/median/learning-curve
 *    metric rows, free blocks at each wave's start and the break-up estimate in summary.json;
 *  - the break-up estimate on a sample series alone (with allocations on the interval
 *    boundaries, an order-10 allocation, a rise of the free count);
 *  - bad wave lines refused with the file and the line.
 *
 *   test_waves   (environment: FIXTURES)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "metrics.h"
#include "report.h"
#include "stalls.h"
#include "summary.h"
#include "util.h"
#include "waves.h"

static const char *fixtures;
static char tmp[] = "/tmp/cb-test-waves-XXXXXX";

#include "synth_trace.h"

/* a THP stall of pid @pid from @t lasting @d ns: try, begin, end (success), alloc o9 */
static void thp_stall(struct synth *s, uint64_t t, int pid, uint64_t d)
{
	e_try(s, 0, T0 + t, pid, 9, GFP_TRANSHUGE);
	e_begin(s, 0, T0 + t + 1, pid);
	e_end(s, 0, T0 + t + 2, pid, 8);
	e_alloc(s, 0, T0 + t + d, pid, 9, true);
}

/*
 * Stalls (start, ns after T0; duration): 1000 100, 2000 300 | 7000 400 | 10000 200,
 * 15000 90 | 20000 80 | 30000 50, 31000 60, 32000 70. Each ends with an order-9 allocation
 * at start + duration: 1100 2300 7400 10200 15090 20080 30050 31060 32070.
 */
static void write_wave_trace(const char *path, uint64_t scale)
{
	static const uint64_t at[] = { 1000, 2000, 7000, 10000, 15000, 20000, 30000, 31000, 32000 };
	static const uint64_t dur[] = { 100, 300, 400, 200, 90, 80, 50, 60, 70 };
	static struct synth s;

	syn_init(&s, T0);
	for (size_t i = 0; i < CB_ARRAY_SIZE(at); i++)
		thp_stall(&s, at[i], 100 + (int)i, dur[i] * scale);
	syn_write(&s, path, fixtures, events, "100 app\n");
}

#define WAVES_LINE "{\"type\":\"waves\",\"arrival\":\"periodic\",\"period_s\":0.00001," \
	"\"count\":4,\"seed\":7,\"clock\":\"CLOCK_MONOTONIC\"}\n"

/* one THP wave line: [T0 + @a, T0 + @b), @f faults of which @h huge, p99 @p99 (<0: null) */
static void thp_line(char *buf, size_t size, int i, uint64_t a, uint64_t b, int f, int h,
		     int p99)
{
	char p[32];

	snprintf(p, sizeof(p), p99 < 0 ? "null" : "%d", p99);
	snprintf(buf + strlen(buf), size - strlen(buf),
		 "{\"type\":\"wave\",\"index\":%d,\"start_ns\":%llu,\"end_ns\":%llu,\"kind\":\"thp\","
		 "\"requested_bytes\":%d,\"faults\":%d,\"thp\":%d,\"fault_ns_p50\":%d,"
		 "\"fault_ns_p99\":%s,\"fault_ns_max\":%s}\n", i, T0 + a, T0 + b, f * 2097152, f, h,
		 p99 < 0 ? 0 : p99 / 2, p, p);
}

/*
 * samples.csv: per sample, zone Normal (o9, o10) and DMA32 (o9 only); F = o9 + 2 o10:
 *   t     600: Normal 4,6 + DMA32 4 = 20     (Normal also has o0..o8 = 1 each)
 *        4000: 5,4 + 2 = 15   allocs (600, 4000]: 1100 2300 = 2   -> 20-15-2 = 3
 *        9000: 6,3 + 2 = 14   allocs 7400 = 1                     -> 0
 *       12000: 8,2 + 2 = 14   allocs 10200 = 1                    -> 0 (-1)
 *       18000: 4,2 + 2 = 10   allocs 15090 = 1                    -> 3
 *       26000: 6,2 + 2 = 12   allocs 20080 = 1                    -> 0 (a rise)
 *       34000: 1,1 + 2 = 5    allocs 30050 31060 32070 = 3        -> 4
 * estimate 3 + 3 + 4 = 10 blocks; interval lengths 3400 5000 3000 6000 8000 8000: median 5500
 */
static void write_samples(const char *dir)
{
	static const int t[] = { 600, 4000, 9000, 12000, 18000, 26000, 34000 };
	static const int n9[] = { 4, 5, 6, 8, 4, 6, 1 }, n10[] = { 6, 4, 3, 2, 2, 2, 1 };
	static const int d9[] = { 4, 2, 2, 2, 2, 2, 2 };
	char text[4096] = "t_ns,node,zone,present,score,weighted,node_score,o0,o1,o2,o3,o4,o5,o6,"
			  "o7,o8,o9,o10\n";

	for (size_t i = 0; i < CB_ARRAY_SIZE(t); i++) {
		size_t len = strlen(text);

		snprintf(text + len, sizeof(text) - len,
			 "%llu,0,DMA32,4000,10,1,20,0,0,0,0,0,0,0,0,0,%d,0\n"
			 "%llu,0,Normal,9000,20,10,20,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d\n",
			 T0 + t[i], d9[i], T0 + t[i], !i, !i, !i, !i, !i, !i, !i, !i, !i, n9[i],
			 n10[i]);
	}
	put(dir, "samples.csv", text);
}

/*
 * THP waves [1000, 5000) [10000, 15000) [20000, 25000) [30000, 35000); the kernel file's
 * wave 1 is [10000, 15500): merged, wave 1 holds the stall at 15000 too. Stalls per wave:
 * 2 (400 ns), 2 (290), 1 (80), 3 (180); outside: 1 (7000, 400 ns).
 */
/* a cell "@id", repetition @rep, whose stalls last @scale times the durations above */
static void make_cell_as(const char *dir, bool with_waves, const char *id, int rep,
			 uint64_t scale)
{
	char meta[1024], path[PATH_MAX], thp[4096] = WAVES_LINE, kern[4096] = WAVES_LINE;
	static const uint64_t ks[] = { 1000, 10000, 20000, 30000 }, ke[] = { 5000, 15500, 25000,
									35000 };

	snprintf(path, sizeof(path), "%s/workload", dir);
	assert_int_equal(cb_mkdir_p(path), 0);
	snprintf(meta, sizeof(meta),
		 "{ \"schema\": 1, \"status\": \"complete\", \"cell\": { \"id\": \"%s\", "
		 "\"kernel\": \"host\", \"setting\": \"s\", \"workload\": \"wl\", \"rep\": %d }, "
		 "\"collector\": "
		 "{ \"lost\": 0, \"clock\": \"mono\" }, \"window\": { \"start_ns\": %llu, \"end_ns\": "
		 "%llu, \"clock\": \"CLOCK_MONOTONIC\" } }\n", id, rep, T0 + 500, T0 + 40000);
	put(dir, "meta.json", meta);
	put(dir, "vmstat.before", "compact_stall 0\n");
	put(dir, "vmstat.after", "compact_stall 9\n");
	snprintf(path, sizeof(path), "%s/trace.dat", dir);
	write_wave_trace(path, scale);
	write_samples(dir);
	if (!with_waves) {
		put(dir, "workload/2-demand-thp-demand.jsonl", "{\"type\":\"summary\",\"huge\":1}\n");
		return;
	}
	thp_line(thp, sizeof(thp), 0, 1000, 5000, 10, 5, 1000);
	thp_line(thp, sizeof(thp), 1, 10000, 15000, 10, 8, 3000);
	thp_line(thp, sizeof(thp), 2, 20000, 25000, 10, 10, 2000);
	thp_line(thp, sizeof(thp), 3, 30000, 35000, 0, 0, -1);
	put(dir, "workload/2-demand-thp-demand.jsonl", thp);
	for (int i = 0; i < 4; i++)
		snprintf(kern + strlen(kern), sizeof(kern) - strlen(kern),
			 "{\"type\":\"wave\",\"index\":%d,\"start_ns\":%llu,\"end_ns\":%llu,"
			 "\"kind\":\"kernel\",\"requested_bytes\":65536,\"allocs\":16,\"failed\":%d,"
			 "\"fault_ns_p50\":10,\"fault_ns_p99\":20,\"fault_ns_max\":30}\n", i,
			 T0 + ks[i], T0 + ke[i], i);
	put(dir, "workload/3-demand-kernel-demand.jsonl", kern);
}

static void make_cell(const char *dir, bool with_waves)
{
	make_cell_as(dir, with_waves, "c", 1, 1);
}

static void test_cell_waves(void **state)
{
	struct cb_cell_summary cs;
	char dir[PATH_MAX], path[PATH_MAX], err[1024];

	snprintf(dir, sizeof(dir), "%s/cell", tmp);
	make_cell(dir, true);
	if (cb_summarize_cell(dir, &cs, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(cs.val.v[CB_M_DC_STALLS] == 9);
	assert_true(cs.val.v[CB_M_WAVE_COUNT] == 4);
	/* stalls per wave 2 2 1 3: mean 2, median 2; ns 400 290 80 180: mean 237.5, median 235 */
	assert_true(cs.val.v[CB_M_WAVE_STALLS_MEAN] == 2);
	assert_true(cs.val.v[CB_M_WAVE_STALLS_MEDIAN] == 2);
	assert_true(cs.val.v[CB_M_WAVE_STALL_NS_MEAN] == 238);	/* whole ns, rounded */
	assert_true(cs.val.v[CB_M_WAVE_STALL_NS_MEDIAN] == 235);
	/* deviations 162.5 52.5 -157.5 -57.5: sqrt(57275 / 3) = 138.17 */
	assert_true(cs.val.v[CB_M_WAVE_STALL_NS_SD] == 138);
	/* first quarter: wave 0 = 400; last half: waves 2, 3 = (80 + 180) / 2 */
	assert_true(cs.val.v[CB_M_WAVE_STALL_NS_FIRST] == 400);
	assert_true(cs.val.v[CB_M_WAVE_STALL_NS_LAST] == 130);
	assert_true(cs.val.v[CB_M_WAVE_STALLS_OUTSIDE] == 1);
	/* THP success 5/10, 8/10, 10/10 (wave 3 had no faults); p99 1000, 3000, 2000 */
	assert_true(fabs(cs.val.v[CB_M_WAVE_THP_SUCCESS_MEAN] - 2.3 / 3) < 1e-12);
	assert_true(cs.val.v[CB_M_WAVE_FAULT_P99_NS_MEDIAN] == 2000);
	/* free order>=9 blocks before each wave: samples at 600, 9000, 18000, 26000 */
	assert_true(cs.val.v[CB_M_WAVE_READY_O9_MEAN] == (20 + 14 + 10 + 12) / 4.0);
	assert_true(cs.val.v[CB_M_BREAKUP_O9_EST] == 10);

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	assert_string_equal(jget(path, "waves.recorded"), "4");
	assert_string_equal(jget(path, "waves.arrival"), "\"periodic\"");
	assert_string_equal(jget(path, "waves.first_quarter"), "[0,1]");
	assert_string_equal(jget(path, "waves.last_half"), "[2,4]");
	assert_string_equal(jget(path, "waves.stall_ns_outside"), "400");
	assert_string_equal(jget(path, "waves.series.[1].stalls"), "2");
	assert_string_equal(jget(path, "waves.series.[1].stall_ns"), "290");
	assert_string_equal(jget(path, "waves.series.[1].end_ns"), "1000015500");
	assert_string_equal(jget(path, "waves.series.[1].kinds"), "[\"thp\",\"kernel\"]");
	assert_string_equal(jget(path, "waves.series.[1].kernel.failed"), "1");
	assert_string_equal(jget(path, "waves.series.[1].thp.success"), "0.8");
	assert_string_equal(jget(path, "waves.series.[3].thp.success"), "null");
	assert_string_equal(jget(path, "waves.series.[1].requested_bytes"),
			    "21037056");	/* 10 x 2 MiB + 64 KiB */
	/* wave 0's readiness: Normal o0..o8 = 1, o9 = 4 + 4, o10 = 6 */
	assert_string_equal(jget(path, "waves.series.[0].ready.t_ns"), "1000000600");
	assert_string_equal(jget(path, "waves.series.[0].ready.free"),
			    "[1,1,1,1,1,1,1,1,1,8,6]");
	assert_string_equal(jget(path, "waves.series.[0].ready.o9_units"), "20");
	/* order 4: 1 + 2 + 4 + 8 + 16 (o4..o8) + 8 x 32 + 6 x 64 */
	assert_string_equal(jget(path, "waves.series.[0].ready.capacity.4"), "671");
	/* break-up per wave: 3 during wave 0; 3 before wave 2 (interval ending 18000); 4 during 3 */
	assert_string_equal(jget(path, "waves.series.[0].breakup_o9_est"),
			    "{\"before\":0,\"during\":3}");
	assert_string_equal(jget(path, "waves.series.[1].breakup_o9_est"),
			    "{\"before\":0,\"during\":0}");
	assert_string_equal(jget(path, "waves.series.[2].breakup_o9_est"),
			    "{\"before\":3,\"during\":0}");
	assert_string_equal(jget(path, "waves.series.[3].breakup_o9_est"),
			    "{\"before\":0,\"during\":4}");
	assert_string_equal(jget(path, "breakup.blocks_o9"), "10");
	assert_string_equal(jget(path, "breakup.intervals"), "6");
	assert_string_equal(jget(path, "breakup.interval_ns_median"), "5500");
	assert_string_equal(jget(path, "breakup.allocs_o9_units"), "9");
}

/* the report of @run: its text tables into *@out (echoed for the log), report.md into *@md */
static void report(const char *run, char **out, char **md)
{
	char path[PATH_MAX];
	size_t len = 0;
	FILE *f = open_memstream(out, &len);

	assert_int_equal(cb_report_run(run, f, path, sizeof(path)), 0);
	fclose(f);
	printf("%s", *out);
	snprintf(path, sizeof(path), "%s/report.md", run);
	*md = cb_read_file(path, NULL);
	assert_non_null(*md);
}

/* report.md's waves table: the medians of the rows above (one repetition: its values) */
static void test_report_table(void **state)
{
	char run[PATH_MAX], dir[PATH_MAX], *md, *out = NULL;

	snprintf(run, sizeof(run), "%s/run", tmp);
	snprintf(dir, sizeof(dir), "%s/c", run);
	make_cell(dir, true);
	put(run, "run.json", "{ \"cells\": [ { \"id\": \"c\", \"kernel\": \"host\", \"setting\": "
	    "\"s\", \"workload\": \"wl\", \"rep\": 1 } ] }\n");
	report(run, &out, &md);
	free(out);
	/* waves 4, stalls/wave 2, ms/wave 237.5 ns, first 400 ns, last 130 ns, outside 1,
	 * THP 76.7%, ready 14, break-up 10 */
	assert_non_null(strstr(md, "| s | 1 | 4 | 2.0 | 0.00 | 0.00 | 0.00 | 1 | 76.7 | 14.0 | 10 |"));
	free(md);
}

/*
 * report.md's note on a wide group says how much of its CV the waves give: two repetitions,
 * the second's stalls twice as long: stall time 1350 and 2700 ns (mean 2025, sd 954.6: CV
 * 47%); per-wave sd 138 and 276 ns over 4 waves: sqrt((4 x 138^2 + 4 x 276^2) / 2) / 2025
 * = 436.4 / 2025 = 22%
 */
static void test_report_cv_waves(void **state)
{
	char run[PATH_MAX], dir[PATH_MAX], *md, *out = NULL;

	snprintf(run, sizeof(run), "%s/run2", tmp);
	snprintf(dir, sizeof(dir), "%s/c1", run);
	make_cell_as(dir, true, "c1", 1, 1);
	snprintf(dir, sizeof(dir), "%s/c2", run);
	make_cell_as(dir, true, "c2", 2, 2);
	put(run, "run.json", "{ \"cells\": [ { \"id\": \"c1\", \"kernel\": \"host\", \"setting\": "
	    "\"s\", \"workload\": \"wl\", \"rep\": 1 }, { \"id\": \"c2\", \"kernel\": \"host\", "
	    "\"setting\": \"s\", \"workload\": \"wl\", \"rep\": 2 } ] }\n");
	report(run, &out, &md);
	assert_non_null(strstr(out, "stall time CV 47% (waves alone 22%)"));
	free(out);
	assert_non_null(strstr(md, "stall time CV 47% (waves alone 22%)"));
	free(md);
}

/* a cell without wave lines: every wave metric null, no waves section */
static void test_cell_no_waves(void **state)
{
	struct cb_cell_summary cs;
	char dir[PATH_MAX], path[PATH_MAX], err[1024], *sum;

	snprintf(dir, sizeof(dir), "%s/plain", tmp);
	make_cell(dir, false);
	if (cb_summarize_cell(dir, &cs, err, sizeof(err)))
		fail_msg("%s", err);
	for (int m = CB_M_WAVE_COUNT; m <= CB_M_WAVE_READY_O9_MEAN; m++)
		assert_false(cs.val.set[m]);
	assert_true(cs.val.set[CB_M_BREAKUP_O9_EST]);	/* the samples and the trace are there */
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	sum = cb_read_file(path, NULL);
	assert_null(strstr(sum, "\"waves\":"));
	assert_non_null(strstr(sum, "\"wave_count\":null"));
	free(sum);
}

/*
 * The estimate alone: F = 14 12 10 8 2 6 at t = 100 .. 600 (two zones); allocations: o9 at
 * 50 (before the first sample: in no interval), o9 at 200 (on the boundary: in (100, 200]),
 * o10 at 250, o9 at 480, o9 at 550 and 600, o9 at 700 (after the last sample).
 *   (100,200]: 14-12-1 = 1   (200,300]: 2-2 = 0   (300,400]: 2-0 = 2   (400,500]: 6-1 = 5
 *   (500,600]: -4-2 -> 0                                               total 8
 * waves [150, 350) and [450, 650): wave 0 during 1 (interval ending 200); wave 1 before 2
 * (ending 400), during 5 (ending 500). Readiness: wave 0 from t = 100 (14), wave 1 from 400 (8).
 */
static void test_breakup_series(void **state)
{
	static const char csv[] = "t_ns,node,zone,o9,o10\n"
		"100,0,DMA32,2,0\n100,0,Normal,8,2\n200,0,DMA32,2,0\n200,0,Normal,6,2\n"
		"300,0,DMA32,2,0\n300,0,Normal,6,1\n400,0,DMA32,0,0\n400,0,Normal,6,1\n"
		"500,0,DMA32,0,0\n500,0,Normal,2,0\n600,0,DMA32,0,0\n600,0,Normal,6,0\n";
	struct cb_big_alloc big[] = { { 50, 9 }, { 200, 9 }, { 250, 10 }, { 480, 9 }, { 550, 9 },
				      { 600, 9 }, { 700, 9 } };
	struct cb_wave w[2] = { { .index = 0, .start = 150, .end = 350 },
				{ .index = 1, .start = 450, .end = 650 } };
	struct cb_waves ws = { .present = true, .w = w, .n = 2 };
	struct cb_stalls st = { .big = big, .nbig = CB_ARRAY_SIZE(big) };
	struct cb_sample_free *s;
	int bad = 0;
	long n;

	n = cb_samples_free_parse(csv, 0, 0, &s, &bad);
	assert_int_equal(n, 6);
	assert_true(s[0].free[9] == 10 && s[0].free[10] == 2 && s[0].free[0] == 0);
	assert_true(cb_free_units9(s[0].free) == 14);
	assert_int_equal(cb_waves_breakup(&ws, s, (size_t)n, &st), 0);
	assert_true(ws.has_breakup);
	assert_true(ws.breakup == 8);
	assert_int_equal(ws.intervals, 5);
	assert_int_equal(ws.big_allocs, 1 + 2 + 1 + 2);
	assert_true(ws.interval_ns_median == 100);
	assert_true(w[0].breakup_before == 0 && w[0].breakup_during == 1);
	assert_true(w[1].breakup_before == 2 && w[1].breakup_during == 5);
	assert_true(w[0].has_ready && w[0].ready_t == 100 && cb_free_units9(w[0].free) == 14);
	assert_true(w[1].has_ready && w[1].ready_t == 400 && cb_free_units9(w[1].free) == 8);
	free(s);

	/* the window [200, 500]: samples 200..500 only, F 12 10 8 2: 0 + 2 + 5 = 7 */
	n = cb_samples_free_parse(csv, 200, 500, &s, &bad);
	assert_int_equal(n, 4);
	assert_int_equal(cb_waves_breakup(&ws, s, (size_t)n, &st), 0);
	assert_true(ws.breakup == 7);
	free(s);

	/*
	 * no trace allocations, the THP counter instead (st NULL): thp_alloc rising by the
	 * trace's A_k of each interval (1, 2, 0, 1, 2) gives the same 8 blocks
	 */
	{
		static const char thp_csv[] = "t_ns,node,zone,o9,o10,thp_alloc\n"
			"100,0,DMA32,2,0,5\n100,0,Normal,8,2,5\n200,0,DMA32,2,0,6\n"
			"200,0,Normal,6,2,6\n300,0,DMA32,2,0,8\n300,0,Normal,6,1,8\n"
			"400,0,DMA32,0,0,8\n400,0,Normal,6,1,8\n500,0,DMA32,0,0,9\n"
			"500,0,Normal,2,0,9\n600,0,DMA32,0,0,11\n600,0,Normal,6,0,11\n";

		n = cb_samples_free_parse(thp_csv, 0, 0, &s, &bad);
		assert_int_equal(n, 6);
		assert_true(s[0].has_thp && s[0].thp == 5 && s[5].thp == 11);
		assert_int_equal(cb_waves_breakup(&ws, s, (size_t)n, NULL), 0);
		assert_true(ws.breakup == 8 && ws.big_allocs == 6 && ws.big_allocs_vmstat);
		assert_true(w[0].breakup_during == 1 && w[1].breakup_before == 2 &&
			    w[1].breakup_during == 5);
		free(s);
		/* without the column a sample says so */
		n = cb_samples_free_parse(csv, 0, 0, &s, &bad);
		assert_false(s[0].has_thp);
		free(s);
		/* a THP counter that goes down is bad input, at its line */
		assert_int_equal(cb_samples_free_parse("t_ns,o9,thp_alloc\n5,1,7\n6,1,6\n", 0, 0,
						       &s, &bad), -1);
		assert_int_equal(bad, 3);
	}

	/* time going back, and a count that is not a number: the line is named */
	assert_int_equal(cb_samples_free_parse("t_ns,o9\n5,1\n4,1\n", 0, 0, &s, &bad), -1);
	assert_int_equal(bad, 3);
	assert_int_equal(cb_samples_free_parse("t_ns,o9\n5,x\n", 0, 0, &s, &bad), -1);
	assert_int_equal(bad, 2);
}

/* @text as the cell's only workload file must be refused with "FILE: line @line: @why" */
static void refused(const char *text, int line, const char *why)
{
	char dir[PATH_MAX], want[PATH_MAX + 64], err[1024];
	struct cb_waves ws;

	snprintf(dir, sizeof(dir), "%s/bad", tmp);
	cb_rm_rf(dir);
	snprintf(want, sizeof(want), "%s/workload", dir);
	assert_int_equal(cb_mkdir_p(want), 0);
	put(dir, "workload/2-demand-thp-demand.jsonl", text);
	err[0] = 0;
	assert_int_equal(cb_waves_read(dir, &ws, err, sizeof(err)), -1);
	printf("%s\n", err);
	snprintf(want, sizeof(want), "%s/workload/2-demand-thp-demand.jsonl: line %d: ", dir, line);
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, why));
	assert_null(ws.w);
}

#define W(i, a, b) "{\"type\":\"wave\",\"index\":" #i ",\"start_ns\":" #a ",\"end_ns\":" #b \
	",\"kind\":\"thp\",\"requested_bytes\":0,\"faults\":1,\"thp\":1}\n"

static void test_bad_lines(void **state)
{
	char dir[PATH_MAX], err[1024];
	struct cb_waves ws;

	/* more waves than a summary.json can hold: wave 2000 (line 2002) */
	{
		size_t cap = 2100 * 160, len;
		char *many = malloc(cap);

		assert_non_null(many);
		len = (size_t)snprintf(many, cap, "%s", WAVES_LINE);
		for (int i = 0; i <= CB_WAVES_MAX; i++)
			len += (size_t)snprintf(many + len, cap - len, "{\"type\":\"wave\",\"index\":%d,"
						"\"start_ns\":%d,\"end_ns\":%d,\"kind\":\"thp\","
						"\"requested_bytes\":0,\"faults\":1,\"thp\":1}\n",
						i, 10 * i, 10 * i + 5);
		refused(many, CB_WAVES_MAX + 2, "\"index\" is 2000: not an integer in [0, 1999]");
		free(many);
	}
	refused(WAVES_LINE "{\"type\":\"wave\",\"index\":0,\"start_ns\":5,\"kind\":\"thp\","
		"\"requested_bytes\":0,\"faults\":1,\"thp\":1}\n", 2, "\"end_ns\" is missing");
	refused(WAVES_LINE W(0, 10, 20) W(1, 50, 40), 3, "\"end_ns\" 40 is before \"start_ns\" 50");
	refused(WAVES_LINE W(0, 10, 20) W(1, 15, 40), 3, "overlapping waves");
	refused(WAVES_LINE W(0, 1e300, 2e300), 2, "\"start_ns\" is 1e300: not an integer");
	refused(WAVES_LINE W(0, 99999999999999999999, 99999999999999999999), 2,
		"\"start_ns\" is 18446744073709551615: not an integer in [0, 4611686018427387904]");
	refused(WAVES_LINE W(0, 10, 20) W(2, 30, 40), 3, "\"index\" is 2: expected 1");
	refused(W(0, 10, 20), 1, "before the file's \"waves\" line");
	refused(WAVES_LINE WAVES_LINE, 2, "a second \"waves\" line");
	refused("{\"type\":\"waves\",\"arrival\":\"periodic\",\"period_s\":1,\"count\":4,"
		"\"seed\":7,\"clock\":\"CLOCK_REALTIME\"}\n", 1, "must be CLOCK_MONOTONIC");
	refused(WAVES_LINE "{\"type\":\"wave\",\"index\":0,\"start_ns\":1,\"end_ns\":2,"
		"\"kind\":\"thp\",\"requested_bytes\":0,\"faults\":1,\"thp\":2}\n", 2,
		"\"thp\" 2 is more than \"faults\" 1");
	refused(WAVES_LINE "{\"type\":\"wave\",\"index\":0,\"start_ns\":1,\"end_ns\":2,"
		"\"kind\":\"thp\",\"requested_bytes\":0,\"faults\":1,\"thp\":1,"
		"\"fault_ns_p99\":-3}\n", 2, "\"fault_ns_p99\" is -3");
	refused(WAVES_LINE "{\"type\":\"wave\",\"index\":0,\"start_", 2, "not one JSON object");

	/* across files: the kernel file's wave 0 overlaps the THP file's wave 1 */
	snprintf(dir, sizeof(dir), "%s/bad2", tmp);
	snprintf(err, sizeof(err), "%s/workload", dir);
	assert_int_equal(cb_mkdir_p(err), 0);
	put(dir, "workload/2-demand-thp-demand.jsonl", WAVES_LINE W(0, 10, 20) W(1, 30, 40));
	put(dir, "workload/3-demand-kernel-demand.jsonl", WAVES_LINE
	    "{\"type\":\"wave\",\"index\":0,\"start_ns\":10,\"end_ns\":35,\"kind\":\"kernel\","
	    "\"requested_bytes\":0,\"allocs\":1,\"failed\":0}\n");
	assert_int_equal(cb_waves_read(dir, &ws, err, sizeof(err)), -1);
	printf("%s\n", err);
	assert_non_null(strstr(err, "workload/2-demand-thp-demand.jsonl: line 3: wave 1 starts at "
				    "30, before wave 0 ended (35): overlapping waves"));
	/* the same index in two files, at different times: not one wave */
	put(dir, "workload/3-demand-kernel-demand.jsonl", WAVES_LINE
	    "{\"type\":\"wave\",\"index\":0,\"start_ns\":20,\"end_ns\":25,\"kind\":\"kernel\","
	    "\"requested_bytes\":0,\"allocs\":1,\"failed\":0}\n");
	assert_int_equal(cb_waves_read(dir, &ws, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "3-demand-kernel-demand.jsonl: line 2: wave 0 [20, 25) does not "
				    "overlap wave 0 of another file [10, 20)"));
	/* the same index and kind in two files */
	put(dir, "workload/3-demand-kernel-demand.jsonl", WAVES_LINE W(0, 10, 20));
	assert_int_equal(cb_waves_read(dir, &ws, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "3-demand-kernel-demand.jsonl: line 2: wave 0 of kind thp "
				    "given twice"));
	/* lines that are not wave lines are left alone; no wave line at all: no waves */
	put(dir, "workload/2-demand-thp-demand.jsonl", "not json\n{\"type\":\"summary\"}\n");
	put(dir, "workload/3-demand-kernel-demand.jsonl", "{\"type\":\"start\"}\n");
	assert_int_equal(cb_waves_read(dir, &ws, err, sizeof(err)), 0);
	assert_false(ws.present);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cell_waves),
		cmocka_unit_test(test_cell_no_waves),
		cmocka_unit_test(test_report_table),
		cmocka_unit_test(test_report_cv_waves),
		cmocka_unit_test(test_breakup_series),
		cmocka_unit_test(test_bad_lines),
	};
	int ret;

	fixtures = getenv("FIXTURES");
	if (!fixtures || !mkdtemp(tmp)) {
		fprintf(stderr, "FIXTURES is not set, or no temporary directory\n");
		return 1;
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	cb_rm_rf(tmp);
	return ret;
}
