// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_analysis_rules.c - the analyzer's rules on synthetic events, against values worked
 * out by hand: percentiles p50/p90/p99/p99.9 (and GSL on the same list), log-linear
 * histogram buckets, the origin table, the attribution of compaction runs and the work
 * counted for each, high-order allocations and extfrag fallbacks, the window, the list of
 * runs by lane (the watermark policy's apart) and its bound.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "hist.h"
#include "metrics.h"
#include "origin.h"
#include "stalls.h"

/* the abstract gfp masks of the kernel's allocation sites (origin.c explains them) */
#define GFP_KERNEL_ (CB_GFP_DIRECT_RECLAIM)
#define TRANSHUGE (CB_GFP_MOVABLE | CB_GFP_COMP | CB_GFP_NOMEMALLOC | CB_GFP_HARDWALL | \
		   CB_GFP_DIRECT_RECLAIM)
#define SLAB (GFP_KERNEL_ | CB_GFP_COMP)
#define NET (GFP_KERNEL_ | CB_GFP_COMP | CB_GFP_NOMEMALLOC)
#define HUGETLB (CB_GFP_MOVABLE | CB_GFP_COMP | CB_GFP_HARDWALL | CB_GFP_DIRECT_RECLAIM)

static void ev(struct cb_stalls *s, enum cb_sev_kind kind, uint64_t ts, int pid, int order,
	       const char *comm)
{
	struct cb_sev e = { .kind = kind, .ts = ts, .pid = pid, .order = order, .comm = comm,
			    .ok = true };

	assert_int_equal(cb_stalls_feed(s, &e), 0);
}

static void try(struct cb_stalls *s, uint64_t ts, int pid, int order, unsigned int gfp,
		const char *comm)
{
	struct cb_sev e = { .kind = CB_SEV_TRY, .ts = ts, .pid = pid, .order = order,
			    .gfp = gfp, .comm = comm };

	assert_int_equal(cb_stalls_feed(s, &e), 0);
}

static void end(struct cb_stalls *s, uint64_t ts, int pid, enum cb_end how)
{
	struct cb_sev e = { .kind = CB_SEV_END, .ts = ts, .pid = pid, .end = how };

	assert_int_equal(cb_stalls_feed(s, &e), 0);
}

static void work(struct cb_stalls *s, enum cb_sev_kind kind, uint64_t ts, int pid, uint64_t a,
		 uint64_t b)
{
	struct cb_sev e = { .kind = kind, .ts = ts, .pid = pid, .a = a, .b = b };

	assert_int_equal(cb_stalls_feed(s, &e), 0);
}

static void alloc(struct cb_stalls *s, uint64_t ts, int pid, int order, bool ok)
{
	struct cb_sev e = { .kind = CB_SEV_PAGE_ALLOC, .ts = ts, .pid = pid, .order = order,
			    .ok = ok };

	assert_int_equal(cb_stalls_feed(s, &e), 0);
}

/*
 * 1 2 3 4 5 6 7 8 9 100 (n = 10), GSL: x[(n-1)q] interpolated linearly
 *   p90:   9 * 0.9   = 8.1   -> x[8] + 0.1   * (x[9] - x[8]) = 9 + 0.1   * 91 = 18.1
 *   p99.9: 9 * 0.999 = 8.991 -> x[8] + 0.991 * (x[9] - x[8]) = 9 + 0.991 * 91 = 99.181
 */
static void test_percentile_set(void **state)
{
	static const double d[] = { 7, 100, 1, 9, 3, 5, 2, 8, 4, 6 };
	double sorted[10];
	struct cb_dist dist;
	int k;

	memcpy(sorted, d, sizeof(sorted));
	gsl_sort(sorted, 1, 10);
	cb_dist_from_sorted(sorted, 10, &dist);
	assert_true(fabs(dist.pct[CB_P50] - 5.5) < 1e-9);
	assert_true(fabs(dist.pct[CB_P90] - 18.1) < 1e-9);
	assert_true(fabs(dist.pct[CB_P99] - 91.81) < 1e-9);
	assert_true(fabs(dist.pct[CB_P999] - 99.181) < 1e-9);
	assert_true(dist.max == 100 && dist.total == 145 && dist.n == 10);
	for (k = 0; k < CB_PCT_NR; k++)
		assert_true(dist.pct[k] ==
			    gsl_stats_quantile_from_sorted_data(sorted, 1, 10, cb_pct_q[k]));
	cb_dist_from_sorted(NULL, 0, &dist);
	assert_int_equal(dist.n, 0);
	/* a single value: every percentile is it */
	sorted[0] = 42;
	cb_dist_from_sorted(sorted, 1, &dist);
	for (k = 0; k < CB_PCT_NR; k++)
		assert_true(dist.pct[k] == 42);
}

static void test_histogram(void **state)
{
	static const struct {
		uint64_t ns;
		int bucket;
		uint64_t lo, hi;
	} c[] = {
		{ 0, 0, 0, 1 },	{ 1, 1, 1, 2 },	{ 9, 9, 9, 10 }, { 10, 10, 10, 20 },
		{ 19, 10, 10, 20 }, { 20, 11, 20, 30 }, { 99, 18, 90, 100 }, { 100, 19, 100, 200 },
		{ 1234567, 1 + 9 * 6 + 0, 1000000, 2000000 },		/* 1.2 ms */
		{ 999999999, 1 + 9 * 8 + 8, 900000000, 1000000000 },	/* just under 1 s */
	};
	struct cb_hist h = { 0 };
	uint64_t lo, hi;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_int_equal(cb_hist_bucket(c[i].ns), c[i].bucket);
		cb_hist_bounds(c[i].bucket, &lo, &hi);
		assert_true(lo == c[i].lo && hi == c[i].hi);
		assert_true(c[i].ns >= lo && c[i].ns < hi);
		cb_hist_add(&h, c[i].ns);
	}
	assert_int_equal(h.count[10], 2);
	/* beyond the last decade: the last bucket */
	assert_int_equal(cb_hist_bucket(UINT64_MAX), CB_HIST_BUCKETS - 1);
	/* every bucket's bounds are contiguous */
	for (i = 1; i + 1 < CB_HIST_BUCKETS; i++) {
		uint64_t lo2, hi2;

		cb_hist_bounds(i, &lo, &hi);
		cb_hist_bounds(i + 1, &lo2, &hi2);
		assert_true(hi == lo2);
		assert_int_equal(cb_hist_bucket(lo), (int)i);
		assert_int_equal(cb_hist_bucket(hi - 1), (int)i);
	}
}

static void test_origin_rules(void **state)
{
	struct cb_gfp_map m;

	assert_int_equal(cb_origin_classify(TRANSHUGE, 9, "app"), CB_ORIGIN_THP_FAULT);
	assert_int_equal(cb_origin_classify(TRANSHUGE & ~CB_GFP_DIRECT_RECLAIM, 4, NULL),
			 CB_ORIGIN_THP_FAULT);		/* mTHP, GFP_TRANSHUGE_LIGHT */
	assert_int_equal(cb_origin_classify(TRANSHUGE, 9, "khugepaged"), CB_ORIGIN_OTHER);
	assert_int_equal(cb_origin_classify(SLAB, 3, "app"), CB_ORIGIN_SLAB);
	assert_int_equal(cb_origin_classify(SLAB | CB_GFP_HARDWALL, 1, "app"), CB_ORIGIN_SLAB);
	assert_int_equal(cb_origin_classify(NET, 3, "iperf"), CB_ORIGIN_NETWORK);
	/* SLUB's own high-order try adds NOMEMALLOC but drops reclaim: not network */
	assert_int_equal(cb_origin_classify(NET & ~CB_GFP_DIRECT_RECLAIM, 3, NULL),
			 CB_ORIGIN_SLAB);
	assert_int_equal(cb_origin_classify(HUGETLB, 9, "app"), CB_ORIGIN_OTHER);
	assert_int_equal(cb_origin_classify(GFP_KERNEL_, 2, "app"), CB_ORIGIN_OTHER);
	assert_int_equal(cb_origin_classify(CB_GFP_MOVABLE | CB_GFP_COMP, 4, NULL),
			 CB_ORIGIN_OTHER);		/* a large page-cache folio */

	/* raw masks: the 6.x bit positions (gfp_types.h) map to the abstract bits */
	cb_gfp_map_default(&m);
	assert_int_equal(cb_gfp_abstract(&m, 0x8 | 0x40000 | 0x80000 | 0x100000 | 0x400 | 0xc0),
			 TRANSHUGE);
	assert_int_equal(cb_gfp_abstract(&m, 0xcc0 | 0x40000), SLAB);	/* GFP_KERNEL|__GFP_COMP */
	assert_int_equal(cb_gfp_abstract(&m, 0), 0);
}

/* every attribution, the work counted for it, the allocation and fallback counts */
static void test_attribution(void **state)
{
	struct cb_sev x = { .kind = CB_SEV_EXTFRAG, .pid = 1 };
	struct cb_metric_in in;
	struct cb_values v;
	struct cb_stalls s;
	struct cb_dist d;

	cb_stalls_init(&s, 8);
	/* direct: a THP fault whose run isolates and migrates */
	try(&s, 1000, 100, 9, TRANSHUGE, "app");
	ev(&s, CB_SEV_BEGIN, 1100, 100, -1, "app");
	work(&s, CB_SEV_ISOLATE_MIGRATE, 1200, 100, 512, 32);
	work(&s, CB_SEV_ISOLATE_FREE, 1250, 100, 64, 32);
	work(&s, CB_SEV_MIGRATE, 1300, 100, 30, 2);
	end(&s, 1500, 100, CB_END_SUCCESS);
	alloc(&s, 2000, 100, 9, true);
	/* khugepaged's own allocation compacts: attributed khugepaged, origin other */
	try(&s, 3000, 40, 9, TRANSHUGE, "khugepaged");
	ev(&s, CB_SEV_BEGIN, 3010, 40, -1, "khugepaged");
	end(&s, 3110, 40, CB_END_COMPLETE);
	alloc(&s, 3200, 40, 9, false);
	/* kcompactd: sleep, wake (kcompactd_do_work), a run */
	ev(&s, CB_SEV_KCOMPACTD_SLEEP, 4000, 38, -1, NULL);
	ev(&s, CB_SEV_KCOMPACTD, 5000, 38, -1, NULL);
	ev(&s, CB_SEV_BEGIN, 5010, 38, -1, "kcompactd0");
	work(&s, CB_SEV_ISOLATE_MIGRATE, 5020, 38, 100, 10);
	end(&s, 5110, 38, CB_END_PARTIAL);
	/* proactive: sleep, then a run with no wake in between (timeout or trigger) */
	ev(&s, CB_SEV_KCOMPACTD_SLEEP, 6000, 38, -1, NULL);
	ev(&s, CB_SEV_BEGIN, 7000, 38, -1, "kcompactd0");
	work(&s, CB_SEV_ISOLATE_MIGRATE, 7100, 38, 1000, 100);
	end(&s, 8000, 38, CB_END_SUCCESS);
	/* 6.1: a kcompactd whose sleep the trace missed, compaction_suitable(order -1) first */
	{
		struct cb_sev su = { .kind = CB_SEV_SUITABLE, .ts = 8500, .pid = 39, .order = -1,
				     .ret = 4 };

		assert_int_equal(cb_stalls_feed(&s, &su), 0);
	}
	ev(&s, CB_SEV_BEGIN, 8510, 39, -1, "kcompactd1");
	end(&s, 8600, 39, CB_END_CONTENDED);
	/* a kcompactd run with nothing known about its wake: kcompactd */
	ev(&s, CB_SEV_BEGIN, 8700, 37, -1, "kcompactd2");
	end(&s, 8750, 37, CB_END_SUCCESS);
	/* manual: a writer of compact_memory, no attempt */
	ev(&s, CB_SEV_BEGIN, 9000, 300, -1, "sh");
	end(&s, 9500, 300, CB_END_COMPLETE);
	/* work without its begin (the run began before the trace): unknown */
	work(&s, CB_SEV_ISOLATE_MIGRATE, 9600, 301, 7, 1);
	/* a direct run open at the end of the trace */
	try(&s, 9700, 101, 3, SLAB, "app2");
	ev(&s, CB_SEV_BEGIN, 9710, 101, -1, "app2");
	/* allocations of order > 0 (order 0 is not counted) and fallbacks */
	alloc(&s, 9800, 7, 1, true);
	alloc(&s, 9801, 7, 0, true);
	x.ts = 9900, x.a = 0, x.b = 1, x.order = 3, x.ok = false;
	assert_int_equal(cb_stalls_feed(&s, &x), 0);
	x.ts = 9901, x.a = 0, x.b = 1, x.order = 10, x.ok = true;
	assert_int_equal(cb_stalls_feed(&s, &x), 0);
	x.ts = 9902, x.a = 1, x.b = 0, x.order = 2, x.ok = false;
	assert_int_equal(cb_stalls_feed(&s, &x), 0);
	x.ts = 9903, x.a = 9, x.b = 1, x.order = 2, x.ok = false;	/* folded into the last */
	assert_int_equal(cb_stalls_feed(&s, &x), 0);
	assert_int_equal(cb_stalls_finish(&s), 0);

	assert_int_equal(s.stalls, 2);
	assert_int_equal(s.khugepaged, 1);
	assert_int_equal(s.truncated, 1);
	assert_int_equal(s.by_origin[CB_ORIGIN_THP_FAULT], 1);
	assert_int_equal(s.by_origin[CB_ORIGIN_OTHER], 1);
	assert_int_equal(s.work[CB_ATTR_DIRECT].runs, 2);
	assert_int_equal(s.work[CB_ATTR_DIRECT].run_ns, 400);
	assert_int_equal(s.work[CB_ATTR_DIRECT].open, 1);
	assert_int_equal(s.work[CB_ATTR_DIRECT].migrate_scanned, 512);
	assert_int_equal(s.work[CB_ATTR_DIRECT].migrate_isolated, 32);
	assert_int_equal(s.work[CB_ATTR_DIRECT].free_scanned, 64);
	assert_int_equal(s.work[CB_ATTR_DIRECT].free_isolated, 32);
	assert_int_equal(s.work[CB_ATTR_DIRECT].migrated, 30);
	assert_int_equal(s.work[CB_ATTR_DIRECT].migrate_failed, 2);
	assert_int_equal(s.work[CB_ATTR_DIRECT].end[CB_END_SUCCESS], 1);
	assert_int_equal(s.work[CB_ATTR_KHUGEPAGED].runs, 1);
	assert_int_equal(s.work[CB_ATTR_KHUGEPAGED].end[CB_END_COMPLETE], 1);
	assert_int_equal(s.work[CB_ATTR_KCOMPACTD].runs, 2);
	assert_int_equal(s.work[CB_ATTR_KCOMPACTD].run_ns, 100 + 50);
	assert_int_equal(s.work[CB_ATTR_KCOMPACTD].migrate_scanned, 100);
	assert_int_equal(s.work[CB_ATTR_KCOMPACTD].end[CB_END_PARTIAL], 1);
	assert_int_equal(s.work[CB_ATTR_PROACTIVE].runs, 2);
	assert_int_equal(s.work[CB_ATTR_PROACTIVE].run_ns, 1000 + 90);
	assert_int_equal(s.work[CB_ATTR_PROACTIVE].migrate_scanned, 1000);
	assert_int_equal(s.work[CB_ATTR_PROACTIVE].end[CB_END_CONTENDED], 1);
	assert_int_equal(s.work[CB_ATTR_MANUAL].runs, 1);
	assert_int_equal(s.work[CB_ATTR_MANUAL].run_ns, 500);
	assert_int_equal(s.work[CB_ATTR_UNKNOWN].migrate_scanned, 7);
	assert_int_equal(s.bg_runs[CB_BG_KCOMPACTD], 4);
	assert_int_equal(s.bg_runs[CB_BG_OTHER], 1);
	assert_int_equal(s.alloc_hi, 3);		/* 9 @2000, 9 @3200, 1 @9800 */
	assert_int_equal(s.alloc_hi_failed, 1);
	assert_int_equal(s.alloc_by_order[9], 2);
	assert_int_equal(s.extfrag_events, 4);
	assert_int_equal(s.extfrag[0][1].events, 2);
	assert_int_equal(s.extfrag[0][1].change_ownership, 1);
	assert_int_equal(s.extfrag[0][1].fragmenting, 1);	/* order 3 < pageblock 9 */
	assert_int_equal(s.extfrag[CB_MT_NR - 1][1].events, 1);

	/* the metric rows that read them */
	memset(&in, 0, sizeof(in));
	in.st = &s;
	cb_metrics_compute(&in, &v);
	assert_true(v.v[CB_M_CW_RUNS_PROACTIVE] == 2);
	assert_true(v.v[CB_M_CW_ISOLATED_DIRECT] == 64);
	assert_true(v.v[CB_M_CW_SUCCESS_DIRECT] == 1);
	assert_true(v.v[CB_M_CW_FAIL_KCOMPACTD] == 1);
	assert_true(v.v[CB_M_ALLOC_HI] == 3);
	assert_true(fabs(v.v[CB_M_DC_PER_1K_ALLOC] - 2000.0 / 3) < 1e-9);
	assert_true(v.v[CB_M_DC_STALLS_THP_FAULT] == 1 && v.v[CB_M_DC_STALLS_SLAB] == 0);
	assert_false(v.set[CB_M_DC_P99_NS_SLAB]);	/* no slab stalls: null */
	assert_true(v.v[CB_M_EXTFRAG_UNMOVABLE_IN_MOVABLE] == 2);
	assert_true(v.v[CB_M_EXTFRAG_CHANGE_OWNER] == 1);
	assert_false(v.set[CB_M_CPU_KCOMPACTD_NS]);	/* no agent data */
	assert_int_equal(cb_stalls_dist(&s, CB_SPLIT_COSTLY, 1, &d, NULL), 0);
	assert_int_equal(d.n, 2);
	cb_stalls_free(&s);
}

/* the window holds back everything that begins outside it */
static void test_window(void **state)
{
	struct cb_sev x = { .kind = CB_SEV_EXTFRAG, .pid = 1, .a = 0, .b = 1, .order = 3 };
	struct cb_stalls s;

	cb_stalls_init(&s, 8);
	cb_stalls_set_window(&s, 2000, 5000);
	try(&s, 1000, 1, 9, TRANSHUGE, "a");		/* before: outside */
	ev(&s, CB_SEV_BEGIN, 1001, 1, -1, "a");
	alloc(&s, 1100, 1, 9, true);
	try(&s, 3000, 1, 9, TRANSHUGE, "a");		/* inside */
	ev(&s, CB_SEV_BEGIN, 3001, 1, -1, "a");
	end(&s, 3100, 1, CB_END_SUCCESS);
	alloc(&s, 3200, 1, 9, true);
	ev(&s, CB_SEV_BEGIN, 6000, 300, -1, "sh");	/* after: not counted */
	work(&s, CB_SEV_ISOLATE_MIGRATE, 6100, 300, 5, 5);
	x.ts = 1500;
	assert_int_equal(cb_stalls_feed(&s, &x), 0);
	x.ts = 4500;
	assert_int_equal(cb_stalls_feed(&s, &x), 0);
	assert_int_equal(cb_stalls_finish(&s), 0);
	assert_int_equal(s.stalls, 1);
	assert_int_equal(s.outside, 1);
	assert_int_equal(s.alloc_hi, 1);
	assert_int_equal(s.work[CB_ATTR_DIRECT].runs, 1);
	assert_int_equal(s.work[CB_ATTR_MANUAL].runs, 0);
	assert_int_equal(s.work[CB_ATTR_MANUAL].migrate_scanned, 0);
	assert_int_equal(s.work[CB_ATTR_MANUAL].open, 0);
	assert_int_equal(s.extfrag_events, 1);
	/* the run list: the direct run begun inside, nothing else */
	assert_non_null(s.cruns);
	assert_int_equal(s.cruns->lane[CB_LANE_DIRECT].n, 1);
	assert_int_equal(s.cruns->lane[CB_LANE_DIRECT].run[0].start, 3001);
	assert_int_equal(s.cruns->lane[CB_LANE_DIRECT].run[0].end, 3100);
	assert_int_equal(s.cruns->lane[CB_LANE_DIRECT].seen, 1);
	assert_int_equal(s.cruns->lane[CB_LANE_MANUAL].seen, 0);
	cb_stalls_free(&s);
}

/* @s's lane @l holds exactly the @n runs @want (start, end, open) */
static void lane_is(const struct cb_stalls *s, enum cb_lane l, size_t n, const uint64_t want[][3])
{
	const struct cb_crun_lane *ln = &s->cruns->lane[l];

	assert_int_equal(ln->n, n);
	assert_int_equal(ln->seen, n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(ln->run[i].start, want[i][0]);
		assert_int_equal(ln->run[i].end, want[i][1]);
		assert_int_equal(ln->run[i].open, want[i][2]);
	}
}

/*
 * the runs by lane, in the order they were committed: the watermark policy's thread
 * (cb-wmark) has its own lane while its work stays manual; a begin with no end ends at the
 * next begin of its pid, a run open at the end of the trace at the last event
 */
static void test_run_list(void **state)
{
	static const uint64_t policy[][3] = { { 100, 300, 0 } }, manual[][3] = { { 400, 500, 0 } };
	static const uint64_t kc[][3] = { { 1010, 1200, 1 }, { 1200, 1300, 0 } };
	static const uint64_t direct[][3] = { { 2010, 2500, 1 } };
	struct cb_stalls s;

	cb_stalls_init(&s, 8);
	ev(&s, CB_SEV_BEGIN, 100, 700, -1, "cb-wmark");
	end(&s, 300, 700, CB_END_COMPLETE);
	ev(&s, CB_SEV_BEGIN, 400, 300, -1, "sh");
	end(&s, 500, 300, CB_END_COMPLETE);
	ev(&s, CB_SEV_KCOMPACTD, 1000, 38, 9, "kcompactd0");
	ev(&s, CB_SEV_BEGIN, 1010, 38, -1, "kcompactd0");	/* its end was lost */
	ev(&s, CB_SEV_BEGIN, 1200, 38, -1, "kcompactd0");
	end(&s, 1300, 38, CB_END_SUCCESS);
	try(&s, 2000, 101, 9, TRANSHUGE, "app");
	ev(&s, CB_SEV_BEGIN, 2010, 101, -1, "app");		/* open at the end */
	alloc(&s, 2500, 7, 1, true);
	assert_int_equal(cb_stalls_finish(&s), 0);
	assert_int_equal(s.work[CB_ATTR_MANUAL].runs, 2);
	assert_int_equal(s.work[CB_ATTR_MANUAL].run_ns, 300);
	lane_is(&s, CB_LANE_POLICY, 1, policy);
	lane_is(&s, CB_LANE_MANUAL, 1, manual);
	lane_is(&s, CB_LANE_KCOMPACTD, 2, kc);
	lane_is(&s, CB_LANE_DIRECT, 1, direct);
	lane_is(&s, CB_LANE_PROACTIVE, 0, NULL);
	cb_stalls_free(&s);
}

/*
 * the bound: 500 runs are all kept; the 501st halves the lane (runs 0, 2, .. 498) and is
 * kept (500 is even); after 1200 runs every 4th is kept: 0, 4, .. 1196, 300 of them
 */
static void test_run_bound(void **state)
{
	struct cb_cruns *c = calloc(1, sizeof(*c));
	struct cb_crun_lane *l = &c->lane[CB_LANE_DIRECT];
	uint64_t i;

	assert_non_null(c);
	for (i = 0; i < 500; i++)
		cb_cruns_add(c, CB_LANE_DIRECT, 10 * i, 10 * i + 5, false);
	assert_int_equal(l->n, 500);
	assert_int_equal(cb_cruns_dropped(c, CB_LANE_DIRECT), 0);
	cb_cruns_add(c, CB_LANE_DIRECT, 5000, 5005, false);
	assert_int_equal(l->n, 251);
	assert_int_equal(l->run[249].start, 4980);
	assert_int_equal(l->run[250].start, 5000);
	assert_int_equal(cb_cruns_dropped(c, CB_LANE_DIRECT), 250);
	for (i = 501; i < 1200; i++)
		cb_cruns_add(c, CB_LANE_DIRECT, 10 * i, 10 * i + 5, i == 1196);
	assert_int_equal(l->n, 300);
	assert_int_equal(cb_cruns_dropped(c, CB_LANE_DIRECT), 900);
	for (i = 0; i < 300; i++) {
		assert_int_equal(l->run[i].start, 40 * i);
		assert_int_equal(l->run[i].end, 40 * i + 5);
	}
	assert_true(l->run[299].open && !l->run[298].open);
	assert_int_equal(c->lane[CB_LANE_POLICY].n, 0);
	free(c);
}

/* an attempt open when events were lost is counted apart: neither stall nor truncated */
static void test_loss(void **state)
{
	struct cb_stalls s;

	cb_stalls_init(&s, 8);
	try(&s, 1000, 1, 9, TRANSHUGE, "a");
	ev(&s, CB_SEV_BEGIN, 1001, 1, -1, "a");
	try(&s, 1002, 2, 9, TRANSHUGE, "b");
	ev(&s, CB_SEV_LOSS, 1500, 0, -1, NULL);
	alloc(&s, 2000, 1, 9, true);		/* closes a cut attempt */
	try(&s, 3000, 3, 9, TRANSHUGE, "c");	/* after the loss: a normal stall */
	ev(&s, CB_SEV_BEGIN, 3001, 3, -1, "c");
	alloc(&s, 3100, 3, 9, true);
	assert_int_equal(cb_stalls_finish(&s), 0);	/* pid 2: cut, still open */
	assert_int_equal(s.cut_by_loss, 2);
	assert_int_equal(s.stalls, 1);
	assert_int_equal(s.truncated, 0);
	assert_int_equal(s.skipped, 0);
	cb_stalls_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentile_set),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_origin_rules),
		cmocka_unit_test(test_attribution),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_run_list),
		cmocka_unit_test(test_run_bound),
		cmocka_unit_test(test_loss),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
