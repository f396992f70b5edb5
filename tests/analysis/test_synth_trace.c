// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_synth_trace.c - a trace.dat with known stalls, written by the collector's writer
 * (harness/collector/tracedat.h) with chosen timestamps against the 6.18 event formats in
 * tests/fixtures/analysis-tracing-6.18, must give back exactly those stalls, origins,
 * attributions, work and allocation counts; a cell made of it (with the sampler's files)
 * must give the same in summary.json, and each run by lane, times exact to the ns, in its
 * compaction_runs (the watermark policy's thread, cb-wmark, in lane policy); corrupt pages
 * must be refused with the file, offset and CPU named; a run with a bad cell exits 2 while
 * the good cell is still analyzed.
 * A second trace adds the demand-kcompactd series' mm_compaction_demand_target (format of
 * the patched 6.1) to those formats: its known demand passes must be attributed to demand,
 * the proactive passes (one right after a zone the demand pass skipped) to proactive.
 *
 *   test_synth_trace   (environment: FIXTURES, TRACE_CMD optional)
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
#include <sys/wait.h>
#include <unistd.h>

#include <dirent.h>
#include <json-c/json.h>

#include "analyze.h"
#include "metrics.h"
#include "report.h"
#include "stalls.h"
#include "summary.h"
#include "tracecheck.h"
#include "tracedat.h"
#include "util.h"

static const char *fixtures;
static char tmp[] = "/tmp/cb-test-synth-XXXXXX";

#include "synth_trace.h"

/* the message of the last failing call under test */
static char cberr[1024];


/*
 * The scenario (ns after T0), events of one pid spread over both CPUs:
 *   pid 100 app   THP     try 1000, begin 1100 (cpu1), iso 1200, migrate 1300, end 1500
 *                         (success), alloc o9 2000              -> stall 1000, thp_fault
 *   pid 101 app2  slab    try 1500 (o3), deferred 1510, failed alloc o3 1600
 *                                                               -> stall 100, slab, fail
 *   pid 102 net   network try 3000 (o3), begin 3010, end 3500 (complete), reclaim 3600
 *                                                               -> stall 500, network
 *   pid 40 khugepaged     try 4000, begin 4010, iso free 4020, end 4100, alloc o9 4200
 *                                                               -> stall 200, other
 *   pid 103 app3  skipped try 5000, suitable skipped 5001, alloc o9 5002
 *   pid 38 kcompactd0     sleep 6000, wake 7000, begin 7010, end 7110 (complete); sleep
 *                         7200, begin 8000 (proactive), iso 8050, end 9000 (success)
 *   pid 300 sh            begin 10000, end 10500 (complete)      -> manual
 *   pid 301 cb-wmark      begin 10600, end 10800 (complete)      -> manual, lane policy
 *   pid 500 gone          iso 11000 with no begin               -> unknown
 *   extfrag 12000 (0 from 1, o3), 12100 (0 from 1, o10, owner), 12200 (1 from 0, o2)
 *   pid 600 net2          4 order-1 allocations 13000.., one order-0 13500
 *   pid 104 app4          try 14000, begin 14010: still open at the end -> truncated
 * A cell of it with the window [500, 20000] lists every run but the unknown's in
 * summary.json's compaction_runs (the open one ends at the last event, its own begin).
 */
static int write_scenario(const char *path)
{
	static struct synth s;
	int i;

	syn_init(&s, T0);
	e_try(&s, 0, T0 + 1000, 100, 9, GFP_TRANSHUGE);
	e_begin(&s, 1, T0 + 1100, 100);
	e_work(&s, 1, T0 + 1200, ID_ISO_M, 100, 512, 32);
	e_work(&s, 0, T0 + 1300, ID_MIGRATE, 100, 30, 2);
	e_try(&s, 1, T0 + 1500, 101, 3, GFP_KERNEL | G_COMP);
	e_end(&s, 0, T0 + 1500, 100, 8);
	e_small(&s, 1, T0 + 1510, ID_DEFERRED, 101, 3, 0);
	e_alloc(&s, 1, T0 + 1600, 101, 3, false);
	e_alloc(&s, 0, T0 + 2000, 100, 9, true);
	e_try(&s, 0, T0 + 3000, 102, 3, GFP_KERNEL | G_COMP | G_NOMEMALLOC | G_NOWARN);
	e_begin(&s, 0, T0 + 3010, 102);
	e_end(&s, 0, T0 + 3500, 102, 5);
	e_reclaim(&s, 0, T0 + 3600, 102);
	e_try(&s, 1, T0 + 4000, 40, 9, GFP_TRANSHUGE);
	e_begin(&s, 1, T0 + 4010, 40);
	e_work(&s, 1, T0 + 4020, ID_ISO_F, 40, 100, 10);
	e_end(&s, 1, T0 + 4100, 40, 8);
	e_alloc(&s, 1, T0 + 4200, 40, 9, true);
	e_try(&s, 0, T0 + 5000, 103, 9, GFP_TRANSHUGE);
	e_small(&s, 0, T0 + 5001, ID_SUITABLE, 103, 9, 1);
	e_alloc(&s, 0, T0 + 5002, 103, 9, true);
	e_small(&s, 1, T0 + 6000, ID_KC_SLEEP, 38, 0, 0);
	e_small(&s, 1, T0 + 7000, ID_KC_WAKE, 38, 9, 0);
	e_begin(&s, 1, T0 + 7010, 38);
	e_end(&s, 1, T0 + 7110, 38, 5);
	e_small(&s, 0, T0 + 7200, ID_KC_SLEEP, 38, 0, 0);
	e_begin(&s, 0, T0 + 8000, 38);
	e_work(&s, 0, T0 + 8050, ID_ISO_M, 38, 1000, 100);
	e_end(&s, 1, T0 + 9000, 38, 8);
	e_begin(&s, 0, T0 + 10000, 300);
	e_end(&s, 0, T0 + 10500, 300, 5);
	e_begin(&s, 1, T0 + 10600, 301);
	e_end(&s, 1, T0 + 10800, 301, 5);
	e_work(&s, 1, T0 + 11000, ID_ISO_M, 500, 7, 1);
	e_extfrag(&s, 0, T0 + 12000, 100, 0, 1, 3, 0);
	e_extfrag(&s, 0, T0 + 12100, 100, 0, 1, 10, 1);
	e_extfrag(&s, 1, T0 + 12200, 100, 1, 0, 2, 0);
	for (i = 0; i < 4; i++)
		e_alloc(&s, i & 1, T0 + 13000 + i, 600, 1, true);
	e_alloc(&s, 0, T0 + 13500, 600, 0, true);
	e_try(&s, 1, T0 + 14000, 104, 3, GFP_KERNEL | G_COMP);
	e_begin(&s, 1, T0 + 14010, 104);
	return syn_write(&s, path, fixtures, events, "100 app\n101 app2\n102 net\n40 khugepaged\n"
			 "103 app3\n38 kcompactd0\n300 sh\n600 net2\n104 app4\n301 cb-wmark\n");
}

/*
 * lines of `$TRACE_CMD report @path` containing @what (NULL: the events, every line but the
 * cpus= header); -1 without trace-cmd
 */
static int report_count(const char *path, const char *what)
{
	const char *tc = getenv("TRACE_CMD");
	char cmd[PATH_MAX + 64], line[512];
	int n = 0;
	FILE *p;

	if (!tc || !*tc || access(tc, X_OK))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s report %s 2>/dev/null", tc, path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		n += what ? strstr(line, what) != NULL : strncmp(line, "cpus=", 5) != 0;
	assert_int_equal(pclose(p), 0);
	return n;
}

static void test_known_stalls(void **state)
{
	char path[PATH_MAX], err[512];
	struct cb_stalls st;
	struct cb_dist d;
	int n, lines;

	snprintf(path, sizeof(path), "%s/synth.dat", tmp);
	n = write_scenario(path);
	assert_int_equal(cb_stalls_from_trace(path, &st, err, sizeof(err)), 0);
	assert_int_equal(st.events, n);
	assert_true(st.gfp_from_trace);
	assert_int_equal(st.missing[0], '\0');
	assert_int_equal(st.stalls, 4);
	assert_int_equal(st.success, 2);
	assert_int_equal(st.fail, 2);
	assert_int_equal(st.skipped, 1);
	assert_int_equal(st.truncated, 1);
	assert_int_equal(st.total_ns, 1000 + 100 + 500 + 200);
	assert_true(st.ns[0] == 100 && st.ns[1] == 200 && st.ns[2] == 500 && st.ns[3] == 1000);
	assert_int_equal(st.by_origin[CB_ORIGIN_THP_FAULT], 1);
	assert_int_equal(st.by_origin[CB_ORIGIN_SLAB], 1);
	assert_int_equal(st.by_origin[CB_ORIGIN_NETWORK], 1);
	assert_int_equal(st.by_origin[CB_ORIGIN_OTHER], 1);
	assert_int_equal(st.khugepaged, 1);
	assert_int_equal(st.no_run, 1);
	assert_int_equal(cb_stalls_dist(&st, CB_SPLIT_ORIGIN, CB_ORIGIN_NETWORK, &d, NULL), 0);
	assert_true(d.n == 1 && d.max == 500);
	assert_int_equal(cb_stalls_dist(&st, CB_SPLIT_ORDER, 3, &d, NULL), 0);
	assert_true(d.n == 2 && d.total == 600);
	/* p50 of 100 200 500 1000: x[1.5] = 350 */
	assert_true(fabs(d.pct[CB_P50] - 300) < 1e-9);	/* of 100 and 500 */
	assert_int_equal(st.work[CB_ATTR_DIRECT].runs, 3);
	assert_int_equal(st.work[CB_ATTR_DIRECT].run_ns, 400 + 490);
	assert_int_equal(st.work[CB_ATTR_DIRECT].open, 1);
	assert_int_equal(st.work[CB_ATTR_DIRECT].migrate_scanned, 512);
	assert_int_equal(st.work[CB_ATTR_DIRECT].migrated, 30);
	assert_int_equal(st.work[CB_ATTR_DIRECT].end[CB_END_SUCCESS], 1);
	assert_int_equal(st.work[CB_ATTR_DIRECT].end[CB_END_COMPLETE], 1);
	assert_int_equal(st.work[CB_ATTR_KHUGEPAGED].runs, 1);
	assert_int_equal(st.work[CB_ATTR_KHUGEPAGED].free_scanned, 100);
	assert_int_equal(st.work[CB_ATTR_KCOMPACTD].runs, 1);
	assert_int_equal(st.work[CB_ATTR_KCOMPACTD].run_ns, 100);
	assert_int_equal(st.work[CB_ATTR_PROACTIVE].runs, 1);
	assert_int_equal(st.work[CB_ATTR_PROACTIVE].run_ns, 1000);
	assert_int_equal(st.work[CB_ATTR_PROACTIVE].migrate_scanned, 1000);
	assert_int_equal(st.work[CB_ATTR_MANUAL].runs, 2);	/* sh and the policy */
	assert_int_equal(st.work[CB_ATTR_MANUAL].run_ns, 500 + 200);
	assert_int_equal(st.work[CB_ATTR_UNKNOWN].migrate_scanned, 7);
	assert_int_equal(st.alloc_hi, 8);
	assert_int_equal(st.alloc_hi_failed, 1);
	assert_int_equal(st.extfrag_events, 3);
	assert_int_equal(st.extfrag[0][1].change_ownership, 1);
	assert_int_equal(st.extfrag[0][1].fragmenting, 1);
	/* the metric rows; a trace without mm_page_alloc cannot tell success from fail */
	{
		struct cb_metric_in in = { .st = &st };
		struct cb_values v;

		cb_metrics_compute(&in, &v);
		assert_true(v.set[CB_M_DC_SUCCESS] && v.v[CB_M_DC_SUCCESS] == 2);
		assert_true(v.set[CB_M_DC_FAIL] && v.v[CB_M_DC_FAIL] == 2);
		assert_true(v.set[CB_M_ALLOC_HI] && v.v[CB_M_ALLOC_HI] == 8);
		snprintf(st.missing, sizeof(st.missing), "kmem:mm_page_alloc");
		cb_metrics_compute(&in, &v);
		assert_false(v.set[CB_M_DC_SUCCESS] || v.set[CB_M_DC_FAIL] ||
			     v.set[CB_M_ALLOC_HI]);
		assert_true(v.set[CB_M_DC_STALLS] && v.v[CB_M_DC_STALLS] == 4);
	}
	cb_stalls_free(&st);

	/* the window [2500, 9500]: only what begins inside counts */
	assert_int_equal(cb_stalls_from_trace_window(path, T0 + 2500, T0 + 9500, &st, err,
						     sizeof(err)), 0);
	assert_int_equal(st.stalls, 2);		/* net, khugepaged */
	assert_int_equal(st.outside, 2);	/* app, app2 */
	assert_int_equal(st.alloc_hi, 2);	/* 4200, 5002 */
	assert_int_equal(st.work[CB_ATTR_MANUAL].runs, 0);
	assert_int_equal(st.extfrag_events, 0);
	cb_stalls_free(&st);

	/* trace-cmd's own reading of the file: as many events */
	lines = report_count(path, NULL);
	assert_true(lines == -1 || lines == n);
}

/* the offset of CPU @cpu's data in a v6 file we wrote (tracecheck found it too) */
static long cpu_data_offset(const char *path, int cpu)
{
	size_t len;
	char *d = cb_read_file(path, &len);
	long off;
	char *fly;

	assert_non_null(d);
	fly = memmem(d, len, "flyrecord", 10);
	assert_non_null(fly);
	memcpy(&off, fly + 10 + cpu * 16, 8);
	free(d);
	return off;
}

static void corrupt(const char *src, const char *dst, long off, const void *bytes, size_t n)
{
	size_t len;
	char *d = cb_read_file(src, &len);

	assert_non_null(d);
	memcpy(d + off, bytes, n);
	assert_int_equal(cb_write_file_atomic(dst, d, len), 0);
	free(d);
}

static void test_corrupt_pages(void **state)
{
	char good[PATH_MAX], bad[PATH_MAX], err[512];
	struct cb_tracecheck info;
	struct cb_stalls st;
	uint64_t commit = 5000, zero = 0;
	uint32_t hdr[2];
	long off;

	snprintf(good, sizeof(good), "%s/good.dat", tmp);
	snprintf(bad, sizeof(bad), "%s/bad.dat", tmp);
	write_scenario(good);
	assert_int_equal(cb_tracecheck_file(good, &info, err, sizeof(err)), 0);
	assert_true(info.checked && info.version == 6 && info.nr_cpus == 2);
	assert_int_equal(info.page_size, PAGE);
	off = cpu_data_offset(good, 1);

	/* a commit larger than the page: kbuffer would read past it */
	corrupt(good, bad, off + 8, &commit, 8);
	assert_int_equal(cb_stalls_from_trace(bad, &st, err, sizeof(err)), -1);
	printf("%s\n", err);
	assert_non_null(strstr(err, bad));
	assert_non_null(strstr(err, "CPU 1 page 0"));
	assert_non_null(strstr(err, "commit 5000 exceeds"));
	{
		char want[64];

		snprintf(want, sizeof(want), "offset %ld", off);
		assert_non_null(strstr(err, want));
	}
	/* the first event's header says type 0 with a length of 0: it cannot advance */
	hdr[0] = 0;
	hdr[1] = 0;
	corrupt(good, bad, off + 16, hdr, 8);
	assert_int_equal(cb_tracecheck_file(bad, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "has length"));
	/* a padding event of length -4 would loop in kbuffer */
	hdr[0] = 29;
	hdr[1] = (uint32_t)-4;
	corrupt(good, bad, off + 16, hdr, 8);
	assert_int_equal(cb_stalls_from_trace(bad, &st, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "does not advance"));
	/* an empty commit is fine: the page holds no events */
	corrupt(good, bad, off + 8, &zero, 8);
	assert_int_equal(cb_stalls_from_trace(bad, &st, err, sizeof(err)), 0);
	cb_stalls_free(&st);
	/* the CPU data running past the end of the file */
	{
		size_t len;
		char *d = cb_read_file(good, &len);

		assert_int_equal(cb_write_file_atomic(bad, d, len - PAGE / 2), 0);
		free(d);
		assert_int_equal(cb_tracecheck_file(bad, NULL, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "runs past the end of the file"));
	}
}

/* the trace make_cell() puts in a cell */
static int (*cell_trace)(const char *path) = write_scenario;

static void make_cell(const char *run, const char *id, bool with_after)
{
	char dir[PATH_MAX], meta[1024], trace[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/%s", run, id);
	assert_int_equal(cb_mkdir_p(dir), 0);
	snprintf(meta, sizeof(meta),
		 "{ \"schema\": 1, \"status\": \"complete\", \"cell\": { \"id\": \"%s\", "
		 "\"kernel\": \"host\", \"setting\": \"%s\", \"workload\": \"wl\", \"rep\": 1 }, "
		 "\"collector\": { \"lost\": 0, \"clock\": \"mono\" }, \"window\": { \"start_ns\": "
		 "%llu, \"end_ns\": %llu, \"clock\": \"CLOCK_MONOTONIC\" } }\n", id, id,
		 T0 + 500, T0 + 20000);
	put(dir, "meta.json", meta);
	put(dir, "vmstat.before", "compact_stall 10\ncompact_fail 5\ncompact_success 5\n"
	    "compact_migrate_scanned 100\ncompact_free_scanned 0\ncompact_isolated 0\n"
	    "pgscan_direct 7\npgscan_kswapd 0\npgsteal_direct 3\npgsteal_kswapd 0\n");
	if (with_after)
		put(dir, "vmstat.after", "compact_stall 14\ncompact_fail 7\ncompact_success 7\n"
		    "compact_migrate_scanned 1612\ncompact_free_scanned 100\ncompact_isolated 142\n"
		    "pgscan_direct 17\npgscan_kswapd 5\npgsteal_direct 8\npgsteal_kswapd 5\n");
	snprintf(trace, sizeof(trace), "%s/trace.dat", dir);
	cell_trace(trace);
	put(dir, "cpu.before", "38 kcompactd0 schedstat 1000\n40 khugepaged schedstat 0\n");
	put(dir, "cpu.after", "38 kcompactd0 schedstat 2001000\n40 khugepaged schedstat 500\n");
	put(dir, "energy.before", "# none\n");
	put(dir, "energy.after", "# none\n");
	put(dir, "samples.csv", "t_ns,node,zone,present,score,weighted,node_score,o0\n"
	    "1000000600,0,Normal,9000,40,30,30,1\n1000000600,0,DMA32,1000,90,5,30,1\n"
	    "1000001000,0,Normal,9000,60,50,52,1\n1000009000,0,Normal,9000,10,5,6,1\n");
}

/*
 * summary.json @path's compaction_runs lane @lane holds the @n runs @want ([start, end] in
 * ns after the window's start), none dropped, @open of them open
 */
static void runs_are(const char *path, const char *lane, size_t n, const uint64_t want[][2],
		     int open)
{
	struct json_object *root = json_object_from_file(path), *o;
	char key[128];

	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "compaction_runs", &o));
	assert_true(json_object_object_get_ex(o, "by_attribution", &o));
	snprintf(key, sizeof(key), "%s", lane);
	assert_true(json_object_object_get_ex(o, key, &o));
	assert_int_equal(json_object_get_int(json_object_object_get(o, "dropped")), 0);
	assert_int_equal(json_object_get_int(json_object_object_get(o, "open")), open);
	o = json_object_object_get(o, "runs");
	assert_int_equal(json_object_array_length(o), n);
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 2; k++) {
			double v = json_object_get_double(json_object_array_get_idx(
				json_object_array_get_idx(o, i), k));

			assert_int_equal(llround(v * 1e9), want[i][k]);
		}
	json_object_put(root);
}

/* the runs of the scenario in the window [500, 20000], ns after 500 */
static void check_runs(const char *path)
{
	static const uint64_t direct[][2] = { { 600, 1000 }, { 2510, 3000 }, { 13510, 13510 } };
	static const uint64_t kc[][2] = { { 6510, 6610 } }, pro[][2] = { { 7500, 8500 } };
	static const uint64_t khp[][2] = { { 3510, 3600 } }, man[][2] = { { 9500, 10000 } };
	static const uint64_t pol[][2] = { { 10100, 10300 } };

	assert_string_equal(jget(path, "compaction_runs.window_start_ns"), "1000000500");
	assert_string_equal(jget(path, "compaction_runs.max_per_attribution"), "500");
	runs_are(path, "direct", 3, direct, 1);
	runs_are(path, "kcompactd", 1, kc, 0);
	runs_are(path, "proactive", 1, pro, 0);
	runs_are(path, "demand", 0, NULL, 0);
	runs_are(path, "khugepaged", 1, khp, 0);
	runs_are(path, "manual", 1, man, 0);
	runs_are(path, "policy", 1, pol, 0);
}

static void test_cell_summary(void **state)
{
	char run[PATH_MAX], path[PATH_MAX], *sum, *md;
	char *out = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	snprintf(run, sizeof(run), "%s/run", tmp);
	assert_int_equal(cb_mkdir_p(run), 0);
	put(run, "run.json", "{ \"cells\": [ { \"id\": \"good\", \"kernel\": \"host\", \"setting\": "
	    "\"good\", \"workload\": \"wl\", \"rep\": 1 }, { \"id\": \"bad\", \"kernel\": \"host\", "
	    "\"setting\": \"bad\", \"workload\": \"wl\", \"rep\": 1 } ] }\n");
	make_cell(run, "good", true);
	make_cell(run, "bad", false);	/* vmstat.after missing: bad input */
	f = open_memstream(&out, &len);
	rc = cb_report_run(run, f, path, sizeof(path));
	fclose(f);
	printf("%s", out);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "bad: bad/vmstat.after: cannot read"));
	free(out);

	snprintf(path, sizeof(path), "%s/good/summary.json", run);
	sum = cb_read_file(path, NULL);
	assert_non_null(sum);
	/* window [500, 20000]: the app stall at 1000 is inside, everything else as before */
	assert_non_null(strstr(sum, "\"dc_stalls\":4"));
	assert_non_null(strstr(sum, "\"dc_stall_total_ns\":1800"));
	assert_non_null(strstr(sum, "\"dc_stall_p50_ns\":350"));
	assert_non_null(strstr(sum, "\"dc_stalls_per_1k_alloc\":500"));
	assert_non_null(strstr(sum, "\"dc_stalls_network\":1"));
	assert_non_null(strstr(sum, "\"cw_runs_proactive\":1"));
	assert_non_null(strstr(sum, "\"cw_run_ns_manual\":700"));
	assert_non_null(strstr(sum, "\"vm_pgscan_direct\":10"));
	assert_non_null(strstr(sum, "\"cpu_kcompactd_ns\":2000000"));
	assert_non_null(strstr(sum, "\"cpu_background_ns\":2000500"));
	/* modeled: (2000500 + 1800) ns x 10 W = 0.020023 J */
	assert_non_null(strstr(sum, "\"energy_modeled_j\":0.020023"));
	assert_non_null(strstr(sum, "\"energy_rapl_j\":null"));
	assert_non_null(strstr(sum, "\"frag_score_start\":30"));
	assert_non_null(strstr(sum, "\"frag_score_end\":6"));
	assert_non_null(strstr(sum, "\"frag_score_max\":52"));
	assert_non_null(strstr(sum, "\"agree\":true"));
	free(sum);
	assert_string_equal(jget(path, "stalls.all.histogram.buckets"),
			    "[[100,200,1],[200,300,1],[500,600,1],[1000,2000,1]]");
	assert_string_equal(jget(path, "stalls.by_origin.network.max_ns"), "500");
	assert_string_equal(jget(path, "compaction.trace_vs_vmstat.migrate_scanned"),
			    "{\"trace\":1512,\"vmstat\":1512}");
	assert_string_equal(jget(path, "compaction.by_attribution.proactive.end.success"), "1");
	assert_string_equal(jget(path, "extfrag.fallbacks"),
			    "[{\"alloc\":\"Unmovable\",\"fallback\":\"Movable\",\"events\":2,"
			    "\"change_ownership\":1,\"fragmenting\":1},{\"alloc\":\"Movable\","
			    "\"fallback\":\"Unmovable\",\"events\":1,\"change_ownership\":0,"
			    "\"fragmenting\":1}]");
	assert_string_equal(jget(path, "allocations.stalls_per_1000"), "500");
	assert_string_equal(jget(path, "cpu.source"), "\"schedstat\"");
	assert_string_equal(jget(path, "method"), "\"tracepoint\"");	/* no probes in it */
	assert_string_equal(jget(path, "energy.rapl_zones"), "0");
	assert_string_equal(jget(path, "energy.source"), "\"modeled\"");	/* no RAPL files */
	check_runs(path);
	snprintf(path, sizeof(path), "%s/report.md", run);
	md = cb_read_file(path, NULL);
	assert_non_null(strstr(md, "`bad`: bad/vmstat.after"));
	assert_non_null(strstr(md, "Exchange rate"));
	assert_non_null(strstr(md, "`energy_rapl_J`; `modeled`: no RAPL, only "
				   "`energy_modeled_J`): `modeled` in 1 cell\n"));
	free(md);
}

/* mm_compaction_demand_target: the patched 6.1's format (fixture), an id 6.18's set lacks */
#define ID_DEMAND_TARGET 700

static void e_demand_target(struct synth *s, int cpu, uint64_t ts, int pid, int zone,
			    int order, int after)
{
	unsigned char r[44] = { 0 };

	p32(r, 12, zone);
	p32(r, 16, order);
	p64(r, 24, 8);
	p64(r, 32, 3);
	p32(r, 40, after);
	add(s, cpu, ts, ID_DEMAND_TARGET, pid, r, sizeof(r));
}

/* @dst/@name -> @src/@name for every entry of @src (a tracing tree made of the fixture's) */
static void link_all(const char *src, const char *dst)
{
	char from[PATH_MAX], to[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(src);

	assert_non_null(d);
	assert_int_equal(cb_mkdir_p(dst), 0);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "events"))
			continue;
		snprintf(from, sizeof(from), "%s/%s", src, e->d_name);
		snprintf(to, sizeof(to), "%s/%s", dst, e->d_name);
		assert_int_equal(symlink(from, to), 0);
	}
	closedir(d);
}

/* the 6.18 fixture's formats plus mm_compaction_demand_target, in @dir */
static void demand_tracing_dir(char *dir, size_t size)
{
	char src[PATH_MAX], sub[PATH_MAX], ev[PATH_MAX + 32];

	snprintf(dir, size, "%s/tracing-demand", tmp);
	snprintf(src, sizeof(src), "%s/analysis-tracing-6.18", fixtures);
	link_all(src, dir);
	snprintf(src, sizeof(src), "%s/analysis-tracing-6.18/events", fixtures);
	snprintf(sub, sizeof(sub), "%s/events", dir);
	link_all(src, sub);
	assert_int_equal(unlink(strcat(sub, "/compaction")), 0);
	snprintf(src, sizeof(src), "%s/analysis-tracing-6.18/events/compaction", fixtures);
	link_all(src, sub);
	snprintf(ev, sizeof(ev), "%s/mm_compaction_demand_target", sub);
	assert_int_equal(cb_mkdir_p(ev), 0);
	snprintf(src, sizeof(src), "%s/analysis-demand-target.format", fixtures);
	strcat(ev, "/format");
	assert_int_equal(symlink(src, ev), 0);
}

/*
 * kcompactd0 (pid 38), ns after T0; before/after: demand_target after=0/1 (zone, order):
 *   a  sleep 1000; pending demand pass: before(1,4) 1100, before(1,9) 1101, suitable(-1)
 *      1110, begin 1120, iso 200 @1150, end 1300 success, after(1,4) 1310, after(1,9) 1311
 *                                                   -> demand, 180 ns, 200 scanned
 *   b  sleep 2000; wake 3000 (demand trigger, max_order 3): begin 3010, end 3100 complete
 *                                                   -> kcompactd, 90 ns
 *      then the pass: before(1,4) 3200, begin 3210, end 3500 complete, after(1,4) 3510
 *                                                   -> demand, 290 ns
 *   c  sleep 4000; pending pass skips zone 1 (balanced): before(1,4) 5000; the proactive
 *      pass follows with no sleep: suitable(-1) 5100, begin 5110, iso 300 @5150, end 5600
 *      success                                      -> proactive, 490 ns, 300 scanned
 *   d  sleep 6000; begin 7000, end 7100 complete    -> proactive, 100 ns
 *   e  sleep 8000; pass over zones 0 and 1: before(0,2) 8100, begin 8110, end 8200 partial,
 *      after(0,2) 8210; before(1,2) 8300, begin 8310, end 8400 partial, after(1,2) 8410
 *                                                   -> demand x2, 90 + 90 ns
 *   f  sleep 9000; before(1,4) 9500, begin 9510: open at the end of the trace
 *                                                   -> proactive (never confirmed), open
 */
static int write_demand_scenario(const char *path)
{
	static struct synth s;
	static const char *ev_demand[CB_ARRAY_SIZE(events) + 1];
	struct cb_tracedat_cpu cpus[2] = {
		{ .data = s.data[0] }, { .data = s.data[1] },
	};
	struct cb_tracedat_src src = {
		.events = ev_demand, .nr_cpus = 2, .cpu = cpus, .trace_clock = "mono",
		.extra_cmdlines = "38 kcompactd0\n", .uname = "Linux synth 6.1 #1 SMP x86_64",
	};
	char dir[PATH_MAX];
	size_t i;

	for (i = 0; events[i]; i++)
		ev_demand[i] = events[i];
	ev_demand[i] = "compaction:mm_compaction_demand_target";
	demand_tracing_dir(dir, sizeof(dir));
	src.tracing_dir = dir;
	syn_init(&s, T0);
	e_small(&s, 0, T0 + 1000, ID_KC_SLEEP, 38, 0, 0);
	e_demand_target(&s, 0, T0 + 1100, 38, 1, 4, 0);
	e_demand_target(&s, 0, T0 + 1101, 38, 1, 9, 0);
	e_small(&s, 0, T0 + 1110, ID_SUITABLE, 38, -1, 3);
	e_begin(&s, 0, T0 + 1120, 38);
	e_work(&s, 0, T0 + 1150, ID_ISO_M, 38, 200, 20);
	e_end(&s, 1, T0 + 1300, 38, 8);
	e_demand_target(&s, 1, T0 + 1310, 38, 1, 4, 1);
	e_demand_target(&s, 1, T0 + 1311, 38, 1, 9, 1);
	e_small(&s, 1, T0 + 2000, ID_KC_SLEEP, 38, 0, 0);
	e_small(&s, 1, T0 + 3000, ID_KC_WAKE, 38, 3, 0);
	e_begin(&s, 1, T0 + 3010, 38);
	e_end(&s, 1, T0 + 3100, 38, 5);
	e_demand_target(&s, 0, T0 + 3200, 38, 1, 4, 0);
	e_begin(&s, 0, T0 + 3210, 38);
	e_end(&s, 0, T0 + 3500, 38, 5);
	e_demand_target(&s, 0, T0 + 3510, 38, 1, 4, 1);
	e_small(&s, 0, T0 + 4000, ID_KC_SLEEP, 38, 0, 0);
	e_demand_target(&s, 0, T0 + 5000, 38, 1, 4, 0);
	e_small(&s, 1, T0 + 5100, ID_SUITABLE, 38, -1, 3);
	e_begin(&s, 1, T0 + 5110, 38);
	e_work(&s, 1, T0 + 5150, ID_ISO_M, 38, 300, 30);
	e_end(&s, 1, T0 + 5600, 38, 8);
	e_small(&s, 1, T0 + 6000, ID_KC_SLEEP, 38, 0, 0);
	e_begin(&s, 1, T0 + 7000, 38);
	e_end(&s, 1, T0 + 7100, 38, 5);
	e_small(&s, 0, T0 + 8000, ID_KC_SLEEP, 38, 0, 0);
	e_demand_target(&s, 0, T0 + 8100, 38, 0, 2, 0);
	e_begin(&s, 0, T0 + 8110, 38);
	e_end(&s, 0, T0 + 8200, 38, 6);
	e_demand_target(&s, 0, T0 + 8210, 38, 0, 2, 1);
	e_demand_target(&s, 0, T0 + 8300, 38, 1, 2, 0);
	e_begin(&s, 0, T0 + 8310, 38);
	e_end(&s, 0, T0 + 8400, 38, 6);
	e_demand_target(&s, 0, T0 + 8410, 38, 1, 2, 1);
	e_small(&s, 0, T0 + 9000, ID_KC_SLEEP, 38, 0, 0);
	e_demand_target(&s, 0, T0 + 9500, 38, 1, 4, 0);
	e_begin(&s, 0, T0 + 9510, 38);
	cpus[0].size = (s.page[0] + 1) * PAGE;
	cpus[1].size = (s.page[1] + 1) * PAGE;
	assert_true(cb_tracedat_write(path, &src, NULL, cberr, sizeof(cberr)) > 0);
	return s.events;
}

/*
 * a trace recorded without kmem:mm_page_alloc (an events list that leaves it out): a THP
 * stall of pid 100, try_to_compact_pages at 1000 to its zone's mm_compaction_end at 1500,
 * which nothing but the end of the trace closes (counted: its run ended), and one of pid
 * 101 whose run begun at 2100 is still open there (truncated)
 */
static int write_no_alloc(const char *path)
{
	static const char *const no_alloc[] = {
		"compaction:mm_compaction_try_to_compact_pages", "compaction:mm_compaction_begin",
		"compaction:mm_compaction_end", NULL,
	};
	static struct synth s;

	syn_init(&s, T0);
	e_try(&s, 0, T0 + 1000, 100, 9, GFP_TRANSHUGE);
	e_begin(&s, 0, T0 + 1100, 100);
	e_end(&s, 0, T0 + 1500, 100, 8);
	e_try(&s, 1, T0 + 2000, 101, 9, GFP_TRANSHUGE);
	e_begin(&s, 1, T0 + 2100, 101);
	return syn_write(&s, path, fixtures, no_alloc, "100 app\n101 app2\n");
}

/* without mm_page_alloc: the stall ends at its last event, its outcome is null, and said */
static void test_no_alloc_event(void **state)
{
	char run[PATH_MAX], path[PATH_MAX], *sum;
	FILE *f = fopen("/dev/null", "w");

	snprintf(run, sizeof(run), "%s/noalloc", tmp);
	assert_int_equal(cb_mkdir_p(run), 0);
	put(run, "run.json", "{ \"cells\": [ { \"id\": \"c\", \"kernel\": \"host\", "
	    "\"setting\": \"c\", \"workload\": \"wl\", \"rep\": 1 } ] }\n");
	cell_trace = write_no_alloc;
	make_cell(run, "c", true);
	cell_trace = write_scenario;
	assert_int_equal(cb_report_run(run, f, path, sizeof(path)), 0);
	fclose(f);
	snprintf(path, sizeof(path), "%s/c/summary.json", run);
	assert_string_equal(jget(path, "metrics.dc_stalls"), "1");
	assert_string_equal(jget(path, "metrics.dc_stall_total_ns"), "500");
	assert_string_equal(jget(path, "metrics.dc_truncated"), "1");
	assert_string_equal(jget(path, "trace.stall_end_by_last_event"), "1");
	assert_string_equal(jget(path, "metrics.dc_success"), "null");
	assert_string_equal(jget(path, "metrics.dc_fail"), "null");
	assert_string_equal(jget(path, "crosscheck.trace_success"), "null");
	assert_string_equal(jget(path, "metrics.alloc_high_order"), "null");
	assert_non_null(strstr(jget(path, "warnings"), "the trace has no kmem:mm_page_alloc: each "
			       "stall ends at its last compaction event"));
	/* samples.csv without thp_alloc: nothing explains a drop of free blocks, no estimate */
	sum = cb_read_file(path, NULL);
	assert_non_null(sum);
	assert_null(strstr(sum, "\"breakup\""));
	free(sum);

	/*
	 * with the sampler's THP counter: free order-9 blocks 10, 7, 8 at 1000, 2000, 3000 and
	 * one huge page allocated in the first interval: 10 - 7 - 1 = 2 blocks broken up
	 */
	snprintf(path, sizeof(path), "%s/c", run);
	put(path, "samples.csv", "t_ns,node,zone,present,score,weighted,node_score,o9,thp_alloc\n"
	    "1000001000,0,Normal,9000,40,30,30,10,4\n1000002000,0,Normal,9000,40,30,30,7,5\n"
	    "1000003000,0,Normal,9000,40,30,30,8,5\n");
	f = fopen("/dev/null", "w");
	assert_int_equal(cb_report_run(run, f, path, sizeof(path)), 0);
	fclose(f);
	snprintf(path, sizeof(path), "%s/c/summary.json", run);
	assert_string_equal(jget(path, "breakup.blocks_o9"), "2");
	assert_string_equal(jget(path, "breakup.allocs_o9_units"), "1");
	assert_non_null(strstr(jget(path, "breakup.allocs_from"), "samples.csv thp_alloc"));
}

static void test_demand_passes(void **state)
{
	struct cb_metric_in in = { 0 };
	char path[PATH_MAX], err[512];
	const struct cb_work *w;
	struct cb_values v;
	struct cb_stalls st;
	int n;

	snprintf(path, sizeof(path), "%s/demand.dat", tmp);
	n = write_demand_scenario(path);
	assert_int_equal(cb_stalls_from_trace(path, &st, err, sizeof(err)), 0);
	assert_int_equal(st.events, n);
	assert_null(strstr(st.missing, "demand"));
	w = &st.work[CB_ATTR_DEMAND];
	assert_int_equal(w->runs, 4);
	assert_int_equal(w->run_ns, 180 + 290 + 90 + 90);
	assert_int_equal(w->migrate_scanned, 200);
	assert_int_equal(w->migrate_isolated, 20);
	assert_int_equal(w->end[CB_END_SUCCESS], 1);
	assert_int_equal(w->end[CB_END_COMPLETE], 1);
	assert_int_equal(w->end[CB_END_PARTIAL], 2);
	assert_int_equal(w->open, 0);
	w = &st.work[CB_ATTR_PROACTIVE];
	assert_int_equal(w->runs, 3);
	assert_int_equal(w->run_ns, 490 + 100);
	assert_int_equal(w->migrate_scanned, 300);
	assert_int_equal(w->open, 1);
	w = &st.work[CB_ATTR_KCOMPACTD];
	assert_int_equal(w->runs, 1);
	assert_int_equal(w->run_ns, 90);
	assert_int_equal(st.bg_runs[CB_BG_KCOMPACTD], 8);
	/* the metric rows */
	in.st = &st;
	cb_metrics_compute(&in, &v);
	assert_true(v.v[CB_M_CW_RUNS_DEMAND] == 4 && v.v[CB_M_CW_RUN_NS_DEMAND] == 650);
	assert_true(v.v[CB_M_CW_SUCCESS_DEMAND] == 1 && v.v[CB_M_CW_FAIL_DEMAND] == 3);
	assert_true(v.v[CB_M_CW_RUNS_PROACTIVE] == 3);
	assert_string_equal(cb_metrics[CB_M_CW_RUNS_DEMAND].name, "cw_runs_demand");
	/* the run list: demand's in the order they were confirmed, the open one at 9510 */
	{
		static const uint64_t dem[] = { 1120, 1300, 3210, 3500, 8110, 8200, 8310, 8400 };
		static const uint64_t pro[] = { 5110, 5600, 7000, 7100, 9510, 9510 };
		const struct cb_crun_lane *l = &st.cruns->lane[CB_LANE_DEMAND];

		assert_int_equal(l->n, 4);
		for (int i = 0; i < 4; i++)
			assert_true(l->run[i].start == T0 + dem[2 * i] &&
				    l->run[i].end == T0 + dem[2 * i + 1] && !l->run[i].open);
		l = &st.cruns->lane[CB_LANE_PROACTIVE];
		assert_int_equal(l->n, 3);
		for (int i = 0; i < 3; i++)
			assert_true(l->run[i].start == T0 + pro[2 * i] &&
				    l->run[i].end == T0 + pro[2 * i + 1] &&
				    l->run[i].open == (i == 2));
		assert_int_equal(st.cruns->lane[CB_LANE_KCOMPACTD].n, 1);
		assert_int_equal(st.cruns->lane[CB_LANE_KCOMPACTD].run[0].start, T0 + 3010);
	}
	cb_stalls_free(&st);
	/* trace-cmd's reading of the same file: 12 demand_target lines, 5 of them "after" */
	n = report_count(path, "mm_compaction_demand_target:");
	if (n >= 0) {
		assert_int_equal(n, 12);
		assert_int_equal(report_count(path, " after"), 5);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_stalls),
		cmocka_unit_test(test_corrupt_pages),
		cmocka_unit_test(test_cell_summary),
		cmocka_unit_test(test_demand_passes),
		cmocka_unit_test(test_no_alloc_event),
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
