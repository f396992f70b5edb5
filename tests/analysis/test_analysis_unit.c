// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_analysis_unit.c - the analyzer's arithmetic against values worked out by hand:
 * percentiles, vmstat deltas, the stall rule on synthetic event sequences, the median of
 * repetitions, the workload summary reader.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "metrics.h"
#include "stalls.h"
#include "summary.h"
#include "util.h"
#include "vmstat.h"

static void feed(struct cb_stalls *s, enum cb_sev_kind kind, uint64_t ts, int pid, int order,
		 long long ret, bool ok, const char *comm)
{
	struct cb_sev ev = { .kind = kind, .ts = ts, .pid = pid, .order = order, .ret = ret,
			     .ok = ok, .comm = comm };

	assert_int_equal(cb_stalls_feed(s, &ev), 0);
}

/* one stall of @dur ns for @pid: try, begin, end, mm_page_alloc */
static void one_stall(struct cb_stalls *s, uint64_t t, int pid, uint64_t dur)
{
	feed(s, CB_SEV_TRY, t, pid, 9, 0, false, "app");
	feed(s, CB_SEV_BEGIN, t + 1, pid, -1, 0, false, "app");
	feed(s, CB_SEV_END, t + dur / 2, pid, -1, 0, false, NULL);
	feed(s, CB_SEV_PAGE_ALLOC, t + dur, pid, 9, 0, true, NULL);
}

/*
 * Durations 7 100 1 9 3 5 2 8 4 6 (ns). Sorted: 1 2 3 4 5 6 7 8 9 100, n = 10.
 * GSL's quantile is x[(n-1)q] with linear interpolation:
 *   p50: (n-1)*0.50 = 4.5  -> x[4] + 0.5  * (x[5] - x[4]) = 5 + 0.5 * 1   = 5.5
 *   p99: (n-1)*0.99 = 8.91 -> x[8] + 0.91 * (x[9] - x[8]) = 9 + 0.91 * 91 = 91.81
 *   max: 100; total: 145
 */
static void test_percentiles(void **state)
{
	static const double d[] = { 7, 100, 1, 9, 3, 5, 2, 8, 4, 6 };
	double sorted[10], v;
	struct cb_stalls s;
	size_t i;

	cb_stalls_init(&s, 8);
	for (i = 0; i < 10; i++)
		one_stall(&s, 1000 * (i + 1), 42, (uint64_t)d[i]);
	cb_stalls_finish(&s);
	assert_int_equal(s.stalls, 10);
	assert_int_equal(s.total_ns, 145);
	assert_int_equal(cb_stalls_quantile(&s, 0.5, &v), 0);
	assert_true(fabs(v - 5.5) < 1e-9);
	assert_int_equal(cb_stalls_quantile(&s, 0.99, &v), 0);
	assert_true(fabs(v - 91.81) < 1e-9);
	assert_true(cb_stalls_max(&s) == 100);

	/* and GSL on the same list, sorted here independently */
	memcpy(sorted, d, sizeof(sorted));
	gsl_sort(sorted, 1, 10);
	cb_stalls_quantile(&s, 0.5, &v);
	assert_true(v == gsl_stats_quantile_from_sorted_data(sorted, 1, 10, 0.5));
	cb_stalls_quantile(&s, 0.99, &v);
	assert_true(v == gsl_stats_quantile_from_sorted_data(sorted, 1, 10, 0.99));
	cb_stalls_free(&s);

	cb_stalls_init(&s, 8);
	cb_stalls_finish(&s);
	assert_int_equal(cb_stalls_quantile(&s, 0.5, &v), -1);
	assert_int_equal(errno, ENODATA);
	cb_stalls_free(&s);
}

static const char vm_before[] =
	"nr_free_pages 100\ncompact_stall 5\ncompact_fail 1\nallocstall_dma 0\n"
	"allocstall_normal 3\nallocstall_movable 4\nthp_fault_alloc 10\nthp_fault_fallback 0\n";
static const char vm_after[] =
	"nr_free_pages 90\ncompact_stall 12\ncompact_fail 4\nallocstall_dma 0\n"
	"allocstall_normal 10\nallocstall_movable 4\nthp_fault_alloc 13\nthp_fault_fallback 1\n";

static void test_vmstat(void **state)
{
	struct cb_vmstat b, a, bad;
	long long d;
	int line = 0;

	assert_int_equal(cb_vmstat_parse(vm_before, &b, NULL), 0);
	assert_int_equal(cb_vmstat_parse(vm_after, &a, NULL), 0);
	assert_int_equal(b.n, 8);
	assert_int_equal(cb_vmstat_delta(&b, &a, "compact_stall", &d), 0);
	assert_int_equal(d, 7);		/* 12 - 5 */
	assert_int_equal(cb_vmstat_delta(&b, &a, "compact_fail", &d), 0);
	assert_int_equal(d, 3);		/* 4 - 1 */
	assert_int_equal(cb_vmstat_delta(&b, &a, "allocstall_", &d), 0);
	assert_int_equal(d, 7);		/* (0-0) + (10-3) + (4-4) */
	assert_int_equal(cb_vmstat_delta(&b, &a, "compact_success", &d), -1);
	assert_int_equal(errno, ENOENT);
	/* a gauge that went down is not a counter: refused */
	assert_int_equal(cb_vmstat_delta(&b, &a, "nr_free_pages", &d), -1);
	assert_int_equal(errno, ERANGE);

	assert_int_equal(cb_vmstat_parse("a 1\nb two\n", &bad, &line), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(line, 2);
	assert_int_equal(cb_vmstat_parse("a 1\n\nb 2", &bad, NULL), 0);
	assert_int_equal(bad.n, 2);
	cb_vmstat_free(&bad);
	cb_vmstat_free(&a);
	cb_vmstat_free(&b);
}

/* the rule, case by case (analysis/README.md) */
static void test_stall_rule(void **state)
{
	struct cb_stalls s;
	double v;

	cb_stalls_init(&s, 8);
	/* every zone skipped (suitable ret=skipped), no begin, no deferred: COMPACT_SKIPPED */
	feed(&s, CB_SEV_TRY, 1000, 1, 9, 0, false, "app");
	feed(&s, CB_SEV_SUITABLE, 1001, 1, 9, 1, false, NULL);
	feed(&s, CB_SEV_PAGE_ALLOC, 1100, 1, 9, 0, false, NULL);
	assert_int_equal(s.stalls, 0);
	assert_int_equal(s.skipped, 1);
	/* every zone deferred: a stall (COMPACT_DEFERRED > SKIPPED), no compaction run */
	feed(&s, CB_SEV_TRY, 2000, 1, 9, 0, false, "app");
	feed(&s, CB_SEV_DEFERRED, 2001, 1, 9, 0, false, NULL);
	feed(&s, CB_SEV_PAGE_ALLOC, 2002, 1, 9, 0, false, NULL);
	assert_int_equal(s.stalls, 1);
	assert_int_equal(s.no_run, 1);
	assert_int_equal(s.fail, 1);
	/* a run then direct reclaim: timed to the last compaction event (end at 3500) */
	feed(&s, CB_SEV_TRY, 3000, 1, 9, 0, false, "app");
	feed(&s, CB_SEV_BEGIN, 3001, 1, -1, 0, false, "app");
	feed(&s, CB_SEV_END, 3500, 1, -1, 0, false, NULL);
	feed(&s, CB_SEV_RECLAIM_BEGIN, 3600, 1, -1, 0, false, NULL);
	assert_int_equal(s.stalls, 2);
	assert_int_equal(s.end_last, 1);
	/* a run then a page: an order-0 allocation in between does not end it */
	feed(&s, CB_SEV_TRY, 4000, 1, 9, 0, false, "app");
	feed(&s, CB_SEV_BEGIN, 4001, 1, -1, 0, false, "app");
	feed(&s, CB_SEV_PAGE_ALLOC, 4500, 1, 0, 0, true, NULL);
	feed(&s, CB_SEV_END, 4800, 1, -1, 0, false, NULL);
	feed(&s, CB_SEV_PAGE_ALLOC, 4900, 1, 9, 0, true, NULL);
	assert_int_equal(s.stalls, 3);
	assert_int_equal(s.success, 1);
	/* 6.1: watermark already fine, suitable ret=success(8) and no begin: a stall */
	feed(&s, CB_SEV_TRY, 5000, 2, 4, 0, false, "app");
	feed(&s, CB_SEV_SUITABLE, 5001, 2, 4, 8, false, NULL);
	feed(&s, CB_SEV_PAGE_ALLOC, 5002, 2, 4, 0, true, NULL);
	assert_int_equal(s.stalls, 4);
	assert_int_equal(s.by_order[4], 1);
	/* suitable events outside an attempt (reclaim calls compaction_suitable): nothing */
	feed(&s, CB_SEV_SUITABLE, 5100, 2, 4, 8, false, NULL);
	/* two pids interleaved: each its own attempt */
	feed(&s, CB_SEV_TRY, 6000, 4, 9, 0, false, "a");
	feed(&s, CB_SEV_TRY, 6001, 5, 9, 0, false, "b");
	feed(&s, CB_SEV_BEGIN, 6002, 4, -1, 0, false, "a");
	feed(&s, CB_SEV_PAGE_ALLOC, 6003, 5, 9, 0, true, NULL);
	feed(&s, CB_SEV_PAGE_ALLOC, 6100, 4, 9, 0, true, NULL);
	assert_int_equal(s.stalls, 5);
	assert_int_equal(s.skipped, 2);
	/* a try that follows a try: the first ends at its last event (begin at 7001) */
	feed(&s, CB_SEV_TRY, 7000, 6, 9, 0, false, "c");
	feed(&s, CB_SEV_BEGIN, 7001, 6, -1, 0, false, "c");
	feed(&s, CB_SEV_TRY, 7050, 6, 9, 0, false, "c");
	assert_int_equal(s.stalls, 6);
	/* background runs: by comm, or by a pid seen in kcompactd_wake/sleep */
	feed(&s, CB_SEV_BEGIN, 8000, 38, -1, 0, false, "kcompactd0");
	feed(&s, CB_SEV_KCOMPACTD, 8001, 77, -1, 0, false, NULL);
	feed(&s, CB_SEV_BEGIN, 8002, 77, -1, 0, false, NULL);
	feed(&s, CB_SEV_BEGIN, 8003, 99, -1, 0, false, "khugepaged");
	feed(&s, CB_SEV_BEGIN, 8004, 100, -1, 0, false, "bash");
	feed(&s, CB_SEV_BEGIN, 8005, 101, -1, 0, false, NULL);
	assert_int_equal(s.bg_runs[CB_BG_KCOMPACTD], 2);
	assert_int_equal(s.bg_runs[CB_BG_KHUGEPAGED], 1);
	assert_int_equal(s.bg_runs[CB_BG_OTHER], 2);
	/* the attempt of pid 6 at 7050 never ends: truncated, not a stall; nor is pid 7's */
	feed(&s, CB_SEV_BEGIN, 7060, 6, -1, 0, false, "c");
	feed(&s, CB_SEV_TRY, 9000, 7, 9, 0, false, "d");
	cb_stalls_finish(&s);
	assert_int_equal(s.stalls, 6);
	assert_int_equal(s.truncated, 2);
	assert_int_equal(s.truncated_stalls, 1);
	assert_int_equal(s.attempts, 10);
	/* the durations: 2, 500, 900, 2, 100, 1; total 1505 */
	assert_int_equal(s.total_ns, 1505);
	assert_true(cb_stalls_max(&s) == 900);
	cb_stalls_quantile(&s, 0.5, &v);
	assert_true(fabs(v - 51) < 1e-9);	/* sorted 1 2 2 100 500 900: x[2.5] = 2 + 98/2 */
	cb_stalls_free(&s);

	/* a trace whose suitable enum is unknown: ret=8 is not taken for success */
	cb_stalls_init(&s, -1);
	feed(&s, CB_SEV_TRY, 1, 1, 9, 0, false, "x");
	feed(&s, CB_SEV_SUITABLE, 2, 1, 9, 8, false, NULL);
	feed(&s, CB_SEV_PAGE_ALLOC, 3, 1, 9, 0, true, NULL);
	cb_stalls_finish(&s);
	assert_int_equal(s.stalls, 0);
	cb_stalls_free(&s);
}

/* memory does not grow with events that are not stalls: 1M skipped attempts, one pid */
static void test_stream_bounded(void **state)
{
	struct cb_stalls s;
	uint64_t i;

	cb_stalls_init(&s, 8);
	for (i = 0; i < 1000000; i++) {
		feed(&s, CB_SEV_TRY, 10 * i, 1234, 9, 0, false, "app");
		feed(&s, CB_SEV_PAGE_ALLOC, 10 * i + 5, 1234, 9, 0, false, NULL);
	}
	cb_stalls_finish(&s);
	assert_int_equal(s.skipped, 1000000);
	assert_int_equal(s.cap, 0);	/* no durations stored */
	assert_int_equal(s.npids, 1);
	cb_stalls_free(&s);
}

static void test_metrics(void **state)
{
	struct cb_vmstat b, a;
	struct cb_values v[3];
	const struct cb_values *p[3] = { &v[0], &v[1], &v[2] };
	struct cb_metric_in in = { .before = &b, .after = &a };
	double m;
	int i;

	/* names are unique and every row has what its source needs */
	for (i = 0; i < CB_M_NR; i++) {
		assert_non_null(cb_metrics[i].name);
		assert_int_equal(cb_metric_find(cb_metrics[i].name), i);
		assert_true(cb_metrics[i].get || cb_metrics[i].vmstat || cb_metrics[i].wl_path);
		/* a JSON path is the workload's own summary line: workload rows only */
		assert_true(!cb_metrics[i].wl_path || cb_metrics[i].source == CB_SRC_WORKLOAD);
	}
	cb_vmstat_parse(vm_before, &b, NULL);
	cb_vmstat_parse(vm_after, &a, NULL);
	cb_metrics_compute(&in, &v[0]);
	assert_false(v[0].set[CB_M_DC_STALLS]);	/* no trace: null */
	assert_true(v[0].set[CB_M_VM_COMPACT_STALL]);
	assert_true(v[0].v[CB_M_VM_COMPACT_STALL] == 7);
	assert_true(v[0].v[CB_M_VM_ALLOCSTALL] == 7);
	assert_true(fabs(v[0].v[CB_M_THP_SUCCESS_RATE_VMSTAT] - 0.75) < 1e-12); /* 3 / (3 + 1) */
	assert_false(v[0].set[CB_M_VM_COMPACT_SUCCESS]);	/* not in these snapshots */
	cb_vmstat_free(&a);
	cb_vmstat_free(&b);

	/* the median of repetitions leaves nulls out: {4, null, 10} -> 7; {4, 9, 10} -> 9 */
	memset(v, 0, sizeof(v));
	v[0].v[CB_M_DC_STALLS] = 4;
	v[0].set[CB_M_DC_STALLS] = true;
	v[2].v[CB_M_DC_STALLS] = 10;
	v[2].set[CB_M_DC_STALLS] = true;
	assert_int_equal(cb_metrics_aggregate(CB_M_DC_STALLS, p, 3, &m), 0);
	assert_true(m == 7);
	v[1].v[CB_M_DC_STALLS] = 9;
	v[1].set[CB_M_DC_STALLS] = true;
	cb_metrics_aggregate(CB_M_DC_STALLS, p, 3, &m);
	assert_true(m == 9);
	assert_int_equal(cb_metrics_aggregate(CB_M_DC_FAIL, p, 3, &m), -1);

	/* cross-check tolerance: max(2, ceil(1%)) */
	assert_int_equal(cb_crosscheck_tolerance(0), 2);
	assert_int_equal(cb_crosscheck_tolerance(250), 3);
	assert_int_equal(cb_crosscheck_tolerance(4681), 47);
}

static void test_workload_summary(void **state)
{
	char dir[] = "/tmp/cb-test-wl-XXXXXX", path[512], err[256];
	static const char jsonl[] =
		"{\"type\":\"start\"}\n"
		"{\"type\":\"summary\",\"huge\":1,\"base\":1,\"thp_success_rate\":0.5}\n"
		"{\"type\":\"progress\",\"note\":\"summary\"}\n"
		"{\"type\":\"summary\",\"huge\":3,\"base\":1,\"thp_success_rate\":0.75,"
		"\"fault_ns\":{\"p50\":1000,\"p99\":5000}}\n";
	static const char other[] = "{\"type\":\"summary\",\"huge\":99}\n";
	struct cb_wl_summary wl;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(cb_wl_read_summary(dir, &wl, err, sizeof(err)), 0);
	assert_false(wl.present);	/* no workload/ at all */
	snprintf(path, sizeof(path), "%s/workload", dir);
	assert_int_equal(cb_mkdir_p(path), 0);
	snprintf(path, sizeof(path), "%s/workload/2-demand-thp-demand.jsonl", dir);
	assert_int_equal(cb_write_file_atomic(path, jsonl, strlen(jsonl)), 0);
	snprintf(path, sizeof(path), "%s/workload/1-fragment-frag-anon.jsonl", dir);
	assert_int_equal(cb_write_file_atomic(path, other, strlen(other)), 0);
	assert_int_equal(cb_wl_read_summary(dir, &wl, err, sizeof(err)), 0);
	assert_true(wl.present);
	assert_string_equal(wl.file, "workload/2-demand-thp-demand.jsonl");
	assert_true(wl.v[CB_M_WL_THP_HUGE] == 3 && wl.v[CB_M_WL_THP_BASE] == 1 &&
		    wl.v[CB_M_WL_THP_SUCCESS_RATE] == 0.75);
	assert_true(wl.has[CB_M_WL_FAULT_P50_NS] && wl.v[CB_M_WL_FAULT_P50_NS] == 1000 &&
		    wl.has[CB_M_WL_FAULT_P99_NS] && wl.v[CB_M_WL_FAULT_P99_NS] == 5000);
	assert_int_equal(cb_rm_rf(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_vmstat),
		cmocka_unit_test(test_stall_rule),
		cmocka_unit_test(test_stream_bounded),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_workload_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
