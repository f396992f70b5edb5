// SPDX-License-Identifier: GPL-2.0-only
/*
 * metrics.c - the metric table and the code that walks it.
 */
#include "energy.h"
#include "metrics.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

const char *const cb_better_names[] = { "lower", "higher", "none" };
const char *const cb_source_names[] = { "trace", "vmstat", "workload", "agent" };
const char *const cb_agg_names[] = { "median" };

/* ---- getters: false means null ---- */

#define ST_GET(fn, expr)                                                      \
	static bool fn(const struct cb_metric_in *in, int arg, double *v)     \
	{                                                                     \
		const struct cb_stalls *s = in->st;                           \
		if (!s)                                                       \
			return false;                                         \
		*v = (double)(expr);                                          \
		return true;                                                  \
	}

ST_GET(g_stalls, s->stalls)
ST_GET(g_total, s->total_ns)
ST_GET(g_truncated, s->truncated)
ST_GET(g_attempts, s->attempts)
ST_GET(g_skipped, s->skipped)

/*
 * @arg 0: stalls that got a page, 1: those that did not. The stall's mm_page_alloc says
 * which; without that event every stall ends at its last compaction event, so both are
 * unknown (null), not 0 and all
 */
static bool g_outcome(const struct cb_metric_in *in, int arg, double *v)
{
	if (!in->st || !cb_stalls_recorded(in->st, "kmem:mm_page_alloc"))
		return false;
	*v = (double)(arg ? in->st->fail : in->st->success);
	return true;
}
ST_GET(g_no_run, s->no_run)
ST_GET(g_runs, s->direct_runs)
ST_GET(g_khugepaged, s->khugepaged)
ST_GET(g_bg, s->bg_runs[arg])
ST_GET(g_cut, s->cut_by_loss)
ST_GET(g_worked, s->stalls - s->no_run)

/* the percentile cb_pct_q[@arg] of every stall */
static bool g_pct(const struct cb_metric_in *in, int arg, double *v)
{
	return in->st && !cb_stalls_quantile(in->st, cb_pct_q[arg], v);
}

static bool g_max(const struct cb_metric_in *in, int arg, double *v)
{
	if (!in->st || !in->st->n)
		return false;
	*v = cb_stalls_max(in->st);
	return true;
}

static bool g_alloc_hi(const struct cb_metric_in *in, int arg, double *v)
{
	if (!in->st || !cb_stalls_recorded(in->st, "kmem:mm_page_alloc"))
		return false;
	*v = (double)in->st->alloc_hi;
	return true;
}

static bool g_alloc_hi_failed(const struct cb_metric_in *in, int arg, double *v)
{
	if (!in->st || !cb_stalls_recorded(in->st, "kmem:mm_page_alloc"))
		return false;
	*v = (double)in->st->alloc_hi_failed;
	return true;
}

/* stalls per 1000 mm_page_alloc events of order > 0 in the window */
static bool g_per_1k(const struct cb_metric_in *in, int arg, double *v)
{
	double n;

	if (!g_alloc_hi(in, 0, &n) || n == 0)
		return false;
	*v = (double)in->st->stalls * 1000.0 / n;
	return true;
}

/* arg = split value * 3 + what: 0 count, 1 total ns, 2 p99 ns (null without stalls) */
static bool split_get(const struct cb_metric_in *in, enum cb_split split, int arg, double *v)
{
	struct cb_dist d;

	if (!in->st || cb_stalls_dist(in->st, split, arg / 3, &d, NULL))
		return false;
	switch (arg % 3) {
	case 0:
		*v = (double)d.n;
		return true;
	case 1:
		*v = d.total;
		return true;
	default:
		*v = d.pct[CB_P99];
		return d.n > 0;
	}
}

static bool g_origin(const struct cb_metric_in *in, int arg, double *v)
{
	return split_get(in, CB_SPLIT_ORIGIN, arg, v);
}

static bool g_costly(const struct cb_metric_in *in, int arg, double *v)
{
	return split_get(in, CB_SPLIT_COSTLY, arg, v);
}

/* compaction work: arg = attribution * 8 + field */
enum { CW_RUNS, CW_RUN_NS, CW_MSCAN, CW_FSCAN, CW_ISOLATED, CW_SUCCESS, CW_FAIL };

static bool g_cw(const struct cb_metric_in *in, int arg, double *v)
{
	const struct cb_stalls *s = in->st;
	const struct cb_work *w;
	bool iso, end;

	if (!s)
		return false;
	w = &s->work[arg / 8];
	iso = cb_stalls_recorded(s, "compaction:mm_compaction_isolate_migratepages");
	end = cb_stalls_recorded(s, "compaction:mm_compaction_end");
	switch (arg % 8) {
	case CW_RUNS:
		*v = (double)w->runs;
		return true;
	case CW_RUN_NS:
		*v = (double)w->run_ns;
		return end;
	case CW_MSCAN:
		*v = (double)w->migrate_scanned;
		return iso;
	case CW_FSCAN:
		*v = (double)w->free_scanned;
		return cb_stalls_recorded(s, "compaction:mm_compaction_isolate_freepages");
	case CW_ISOLATED:
		*v = (double)(w->migrate_isolated + w->free_isolated);
		return iso;
	case CW_SUCCESS:
		*v = (double)w->end[CB_END_SUCCESS];
		return end;
	default:
		*v = (double)(w->end[CB_END_COMPLETE] + w->end[CB_END_PARTIAL]);
		return end;
	}
}

/* extfrag: arg 0 events, 1 changed owner, 2 fragmenting, 3 unmovable/reclaimable in movable */
static bool g_extfrag(const struct cb_metric_in *in, int arg, double *v)
{
	const struct cb_stalls *s = in->st;
	uint64_t n = 0;
	int a, f;

	if (!s || !cb_stalls_recorded(s, "kmem:mm_page_alloc_extfrag"))
		return false;
	for (a = 0; a < CB_MT_NR; a++)
		for (f = 0; f < CB_MT_NR; f++) {
			const struct cb_extfrag *x = &s->extfrag[a][f];

			if (arg == 0)
				n += x->events;
			else if (arg == 1)
				n += x->change_ownership;
			else if (arg == 2)
				n += x->fragmenting;
			else if ((a == 0 || a == 2) && f == 1)	/* MIGRATE_UNMOVABLE/RECLAIMABLE */
				n += x->events;
		}
	*v = (double)n;
	return true;
}

/* thp_fault_alloc / (thp_fault_alloc + thp_fault_fallback); null when both are 0 */
static bool g_thp_rate_vm(const struct cb_metric_in *in, int arg, double *v)
{
	long long a, f;

	if (!in->before || !in->after ||
	    cb_vmstat_delta(in->before, in->after, "thp_fault_alloc", &a) ||
	    cb_vmstat_delta(in->before, in->after, "thp_fault_fallback", &f) || a + f == 0)
		return false;
	*v = (double)a / (double)(a + f);
	return true;
}

/* the background CPU: arg 0 kcompactd, 1 khugepaged, 2 both + the wmark policy's thread */
static bool g_cpu(const struct cb_metric_in *in, int arg, double *v)
{
	const struct cb_agentdata *a = in->agent;

	if (!a || !a->has_cpu)
		return false;
	*v = arg == 0 ? (double)a->cpu.kcompactd_ns : arg == 1 ? (double)a->cpu.khugepaged_ns :
	     (double)(a->cpu.kcompactd_ns + a->cpu.khugepaged_ns + a->policy_cpu_ns);
	return true;
}

/* the wmark policy's thread (wmark.json); 0, not null, for a cell that ran no policy */
static bool g_policy(const struct cb_metric_in *in, int arg, double *v)
{
	if (!in->agent)
		return false;
	*v = (double)in->agent->policy_cpu_ns;
	return true;
}

/* the worst node's fragmentation score: arg 0 first sample, 1 last, 2 largest */
static bool g_frag(const struct cb_metric_in *in, int arg, double *v)
{
	const struct cb_agentdata *a = in->agent;

	if (!a || !a->has_samples)
		return false;
	*v = arg == 0 ? a->score_start : arg == 1 ? a->score_end : a->score_max;
	return true;
}

/* modeled: (background CPU, policy included, + direct compaction stall time) x W per busy core */
static bool g_energy_modeled(const struct cb_metric_in *in, int arg, double *v)
{
	double cpu, w = in->watts_per_core > 0 ? in->watts_per_core : CB_WATTS_PER_CORE_DEFAULT;

	if (!g_cpu(in, 2, &cpu) || !in->st)
		return false;
	*v = cb_energy_modeled(cpu + (double)in->st->total_ns, w);
	return true;
}

static bool g_energy_rapl(const struct cb_metric_in *in, int arg, double *v)
{
	if (!in->agent || !in->agent->measured)
		return false;
	*v = in->agent->rapl_j;
	return true;
}

/* over every wave (cb_waves_stat): arg = what * 2 + (1: the median, 0: the mean) */
static bool g_wave(const struct cb_metric_in *in, int arg, double *v)
{
	const struct cb_waves *w = in->waves;

	return w && w->present &&
	       !cb_waves_stat(w, 0, w->n, arg / 2, arg % 2 ? CB_WAVE_MEDIAN : CB_WAVE_MEAN, v);
}

/* the sd over every wave of value arg (cb_waves_stat's what) */
static bool g_wave_sd(const struct cb_metric_in *in, int arg, double *v)
{
	const struct cb_waves *w = in->waves;

	return w && w->present && !cb_waves_stat(w, 0, w->n, arg, CB_WAVE_SD, v);
}

/* arg 0: waves recorded; 1: stalls in no wave */
static bool g_wave_n(const struct cb_metric_in *in, int arg, double *v)
{
	if (!in->waves || !in->waves->present)
		return false;
	*v = arg ? (double)in->waves->outside : (double)in->waves->n;
	return true;
}

/* the learning curve's ends: mean stall time per wave, arg 0 first quarter, 1 last half */
static bool g_wave_curve(const struct cb_metric_in *in, int arg, double *v)
{
	size_t first_end, last_from;

	if (!in->waves || cb_waves_first_last(in->waves, &first_end, &last_from))
		return false;
	return !cb_waves_stat(in->waves, arg ? last_from : 0, arg ? in->waves->n : first_end, 1,
			      CB_WAVE_MEAN, v);
}

static bool g_breakup(const struct cb_metric_in *in, int arg, double *v)
{
	if (!in->waves || !in->waves->has_breakup)
		return false;
	*v = in->waves->breakup;
	return true;
}

/* a row; the trailing arguments are its views (IN, COL, BARS), its flags and wl_path */
#define ROWK(k, n, u, b, src, g, a, h, ...)                                             \
	{ .name = n, .unit = u, .better = CB_BETTER_##b, .source = src, .get = g, .arg = a,   \
	  .help = h, .key = k, __VA_ARGS__ }
#define ROW(n, u, b, src, g, a, h, ...) ROWK(0, n, u, b, src, g, a, h, __VA_ARGS__)
#define TK(k, n, u, b, g, a, h, ...) ROWK(k, n, u, b, CB_SRC_TRACE, g, a, h, __VA_ARGS__)
#define T(n, u, b, g, h, ...) ROW(n, u, b, CB_SRC_TRACE, g, 0, h, __VA_ARGS__)
#define TA(n, u, b, g, a, h, ...) ROW(n, u, b, CB_SRC_TRACE, g, a, h, __VA_ARGS__)
#define V(n, u, b, key, h, ...)                                                        \
	{ .name = n, .unit = u, .better = CB_BETTER_##b, .source = CB_SRC_VMSTAT,      \
	  .vmstat = key, .help = h, __VA_ARGS__ }
#define W(n, u, b, g, h, ...) ROW(n, u, b, CB_SRC_WORKLOAD, g, 0, h, __VA_ARGS__)
#define A(n, u, b, g, a, h, ...) ROW(n, u, b, CB_SRC_AGENT, g, a, h, __VA_ARGS__)
#define AK(k, n, u, b, g, a, h, ...) ROWK(k, n, u, b, CB_SRC_AGENT, g, a, h, __VA_ARGS__)

/* the row's place @p in view CB_VIEW_@v */
#define IN(v, p) .place[CB_VIEW_##v] = p
/* a column of a report table: place, heading, scale, decimals, width */
#define COL(v, p, head, scale, dec, width) IN(v, p), .col = { head, scale, dec, width }
/* a bar chart: place, file, title, y label, scale, fixed top */
#define BARS(p, f, t, y, scale, ymax) IN(PLOT_BARS, p), .plot = { f, t, y, scale, ymax }

#define ORIGIN_ROWS(O, o, i)                                                                    \
	[CB_M_DC_STALLS_##O] = TA("dc_stalls_" o, "count", LOWER, g_origin, (i) * 3,           \
		"stalls of origin " o " (analysis/README.md: origins)"),                        \
	[CB_M_DC_TOTAL_NS_##O] = TA("dc_stall_total_ns_" o, "ns", LOWER, g_origin, (i) * 3 + 1, \
		"stall time of origin " o),                                                     \
	[CB_M_DC_P99_NS_##O] = TA("dc_stall_p99_ns_" o, "ns", LOWER, g_origin, (i) * 3 + 2,     \
		"99th percentile stall of origin " o)

#define CW_ROWS(A_, a, i)                                                                       \
	[CB_M_CW_RUNS_##A_] = TA("cw_runs_" a, "count", NONE, g_cw, (i) * 8 + CW_RUNS,          \
		"compaction runs (mm_compaction_begin) attributed to " a),                      \
	[CB_M_CW_RUN_NS_##A_] = TA("cw_run_ns_" a, "ns", NONE, g_cw, (i) * 8 + CW_RUN_NS,       \
		"time inside " a " compaction runs (begin to end)"),                            \
	[CB_M_CW_MIGRATE_SCANNED_##A_] = TA("cw_migrate_scanned_" a, "pages", NONE, g_cw,       \
		(i) * 8 + CW_MSCAN, "pages the migrate scanner of " a " runs scanned"),          \
	[CB_M_CW_FREE_SCANNED_##A_] = TA("cw_free_scanned_" a, "pages", NONE, g_cw,             \
		(i) * 8 + CW_FSCAN, "pages the free scanner of " a " runs scanned"),             \
	[CB_M_CW_ISOLATED_##A_] = TA("cw_isolated_" a, "pages", NONE, g_cw,                     \
		(i) * 8 + CW_ISOLATED, "pages " a " runs isolated (migrate + free)"),            \
	[CB_M_CW_SUCCESS_##A_] = TA("cw_success_" a, "count", NONE, g_cw, (i) * 8 + CW_SUCCESS, \
		a " runs that ended COMPACT_SUCCESS"),                                          \
	[CB_M_CW_FAIL_##A_] = TA("cw_fail_" a, "count", NONE, g_cw, (i) * 8 + CW_FAIL,          \
		a " runs whose scanners met (COMPACT_COMPLETE or PARTIAL_SKIPPED)")

const struct cb_metric cb_metrics[CB_M_NR] = {
	[CB_M_DC_STALLS] = T("dc_stalls", "count", LOWER, g_stalls,
		"direct compaction stalls: attempts that count as a compact_stall",
		COL(REPORT, 1, "dc_stalls", 1, -1, 10), IN(AVOIDED, 3), IN(DRIFT, 3), IN(PROGRESS, 1),
		BARS(1, "stall-count", "Direct-compaction stalls per repetition",
		     "stalls (median, 95% CI)", 1, 0)),
	[CB_M_DC_STALL_TOTAL_NS] = TK(1, "dc_stall_total_ns", "ns", LOWER, g_total, 0,
		"sum of stall durations (direct compaction time summed over tasks)",
		COL(REPORT, 2, "stall_ms", 1e-6, 1, 10), IN(AVOIDED, 1), IN(DRIFT, 1), IN(GATE, 2),
		BARS(2, "stall-time", "Time spent in direct-compaction stalls per repetition",
		     "stall time (ms)", 1e-6, 0)),
	[CB_M_DC_STALL_P50_NS] = TK(3, "dc_stall_p50_ns", "ns", LOWER, g_pct, CB_P50,
		"median stall duration (GSL quantile, linear interpolation)",
		COL(REPORT, 3, "p50_us", 1e-3, 1, 9)),
	[CB_M_DC_STALL_P99_NS] = TK(4, "dc_stall_p99_ns", "ns", LOWER, g_pct, CB_P99,
		"99th percentile stall duration (GSL quantile, linear interpolation)",
		COL(REPORT, 4, "p99_us", 1e-3, 1, 9), IN(GATE, 1),
		BARS(3, "stall-p99", "Direct-compaction stall latency, p99 of each repetition",
		     "p99 stall latency (us)", 1e-3, 0)),
	[CB_M_DC_STALL_MAX_NS] = T("dc_stall_max_ns", "ns", LOWER, g_max,
		"longest stall"),
	[CB_M_DC_TRUNCATED] = T("dc_truncated", "count", NONE, g_truncated,
		"attempts cut by the end of the trace (not in dc_stalls)"),
	[CB_M_DC_ATTEMPTS] = T("dc_try_to_compact_pages", "count", LOWER, g_attempts,
		"try_to_compact_pages events: direct compaction attempts"),
	[CB_M_DC_SKIPPED] = T("dc_skipped", "count", NONE, g_skipped,
		"attempts where every zone was skipped (COMPACT_SKIPPED: no compact_stall)"),
	[CB_M_DC_SUCCESS] = TA("dc_success", "count", HIGHER, g_outcome, 0,
		"stalls that ended in a page of their order (cf. compact_success); null without "
		"mm_page_alloc"),
	[CB_M_DC_FAIL] = TA("dc_fail", "count", LOWER, g_outcome, 1,
		"stalls that did not (cf. compact_fail); null without mm_page_alloc"),
	[CB_M_DC_NO_RUN] = T("dc_stalls_deferred_only", "count", NONE, g_no_run,
		"stalls in which every zone was deferred: counted by compact_stall, ~1 us each"),
	[CB_M_DC_RUNS] = T("dc_compaction_runs", "count", LOWER, g_runs,
		"zone compaction runs (mm_compaction_begin) inside stalls"),
	[CB_M_DC_KHUGEPAGED] = T("dc_stalls_khugepaged", "count", NONE, g_khugepaged,
		"stalls of khugepaged's own allocations (part of dc_stalls)"),
	[CB_M_BG_KCOMPACTD] = TA("bg_runs_kcompactd", "count", NONE, g_bg, CB_BG_KCOMPACTD,
		"compaction runs outside any direct attempt, by kcompactd (whole trace)"),
	[CB_M_BG_KHUGEPAGED] = TA("bg_runs_khugepaged", "count", NONE, g_bg, CB_BG_KHUGEPAGED,
		"compaction runs outside any direct attempt, by khugepaged (whole trace)"),
	[CB_M_BG_OTHER] = TA("bg_runs_other", "count", NONE, g_bg, CB_BG_OTHER,
		"compaction runs outside any direct attempt, by anyone else (compact_memory)"),
	[CB_M_DC_CUT_BY_LOSS] = T("dc_cut_by_loss", "count", NONE, g_cut,
		"attempts open when the ring buffer lost events: counted apart, not in dc_stalls"),
	[CB_M_ALLOC_HI] = T("alloc_high_order", "count", NONE, g_alloc_hi,
		"kmem:mm_page_alloc events of order > 0 the trace holds in the window (failed ones "
		"included; with the collector's filter, those that may direct-reclaim and all of order "
		">= 9; null without the event, which the default events leave out)"),
	[CB_M_ALLOC_HI_FAILED] = TK(7, "alloc_high_order_failed", "count", LOWER,
		g_alloc_hi_failed, 0,
		"of those, the failed ones (no page): the caller fell back to smaller pages, e.g. "
		"network buffers tried without direct reclaim, so no stall shows the shortage"),
	[CB_M_DC_PER_1K_ALLOC] = T("dc_stalls_per_1k_alloc", "ratio", LOWER, g_per_1k,
		"dc_stalls per 1000 alloc_high_order; null without mm_page_alloc",
		COL(REPORT_COST, 1, "stalls/1k_alloc", 1, 2, 16), IN(AVOIDED, 4),
		BARS(5, "stall-per-1k", "Direct-compaction stalls per 1000 high-order allocations",
		     "stalls per 1000 order>0 allocations", 1, 0)),
	[CB_M_DC_STALL_P90_NS] = TA("dc_stall_p90_ns", "ns", LOWER, g_pct, CB_P90,
		"90th percentile stall duration"),
	[CB_M_DC_STALL_P999_NS] = TA("dc_stall_p999_ns", "ns", LOWER, g_pct, CB_P999,
		"99.9th percentile stall duration",
		COL(REPORT_COST, 2, "p99.9_us", 1e-3, 1, 10)),
	ORIGIN_ROWS(THP_FAULT, "thp_fault", CB_ORIGIN_THP_FAULT),
	ORIGIN_ROWS(SLAB, "slab", CB_ORIGIN_SLAB),
	ORIGIN_ROWS(NETWORK, "network", CB_ORIGIN_NETWORK),
	ORIGIN_ROWS(OTHER, "other", CB_ORIGIN_OTHER),
	[CB_M_DC_STALLS_CHEAP] = TA("dc_stalls_order_1_3", "count", LOWER, g_costly, 0,
		"stalls of orders 1-3 (up to PAGE_ALLOC_COSTLY_ORDER)"),
	[CB_M_DC_P99_NS_CHEAP] = TA("dc_stall_p99_ns_order_1_3", "ns", LOWER, g_costly, 2,
		"99th percentile stall of orders 1-3"),
	[CB_M_DC_STALLS_COSTLY] = TA("dc_stalls_order_4_up", "count", LOWER, g_costly, 3,
		"stalls of costly orders (> PAGE_ALLOC_COSTLY_ORDER: THP, order-4+ slabs)"),
	[CB_M_DC_P99_NS_COSTLY] = TA("dc_stall_p99_ns_order_4_up", "ns", LOWER, g_costly, 5,
		"99th percentile stall of costly orders"),
	CW_ROWS(DIRECT, "direct", CB_ATTR_DIRECT),
	CW_ROWS(KCOMPACTD, "kcompactd", CB_ATTR_KCOMPACTD),
	CW_ROWS(PROACTIVE, "proactive", CB_ATTR_PROACTIVE),
	CW_ROWS(DEMAND, "demand", CB_ATTR_DEMAND),
	CW_ROWS(KHUGEPAGED, "khugepaged", CB_ATTR_KHUGEPAGED),
	CW_ROWS(MANUAL, "manual", CB_ATTR_MANUAL),
	[CB_M_EXTFRAG_EVENTS] = TA("extfrag_fallbacks", "count", LOWER, g_extfrag, 0,
		"kmem:mm_page_alloc_extfrag events: allocations that fell back to another "
		"migratetype"),
	[CB_M_EXTFRAG_CHANGE_OWNER] = TA("extfrag_change_ownership", "count", NONE, g_extfrag, 1,
		"fallbacks that took the whole pageblock over (change_ownership)"),
	[CB_M_EXTFRAG_FRAGMENTING] = TA("extfrag_fragmenting", "count", LOWER, g_extfrag, 2,
		"fallbacks from a block smaller than a pageblock (fallback_order < pageblock_order)"),
	[CB_M_EXTFRAG_UNMOVABLE_IN_MOVABLE] = TA("extfrag_unmovable_in_movable", "count", LOWER,
		g_extfrag, 3, "unmovable or reclaimable allocations that fell back to movable blocks"),
	[CB_M_VM_COMPACT_STALL] = V("vm_compact_stall", "count", LOWER, "compact_stall",
		"/proc/vmstat compact_stall delta",
		COL(REPORT, 5, "compact_stall", 1, -1, 14), IN(PROGRESS, 2)),
	[CB_M_VM_COMPACT_FAIL] = V("vm_compact_fail", "count", LOWER, "compact_fail",
		"/proc/vmstat compact_fail delta",
		COL(REPORT, 6, "compact_fail", 1, -1, 13)),
	[CB_M_VM_COMPACT_SUCCESS] = V("vm_compact_success", "count", HIGHER, "compact_success",
		"/proc/vmstat compact_success delta",
		COL(REPORT, 7, "compact_success", 1, -1, 16)),
	[CB_M_VM_COMPACT_MIGRATE_SCANNED] = V("vm_compact_migrate_scanned", "pages", LOWER,
		"compact_migrate_scanned", "/proc/vmstat compact_migrate_scanned delta"),
	[CB_M_VM_COMPACT_FREE_SCANNED] = V("vm_compact_free_scanned", "pages", LOWER,
		"compact_free_scanned", "/proc/vmstat compact_free_scanned delta"),
	[CB_M_VM_COMPACT_DAEMON_WAKE] = V("vm_compact_daemon_wake", "count", NONE,
		"compact_daemon_wake", "/proc/vmstat compact_daemon_wake delta"),
	[CB_M_VM_THP_FAULT_ALLOC] = V("vm_thp_fault_alloc", "count", HIGHER, "thp_fault_alloc",
		"/proc/vmstat thp_fault_alloc delta"),
	[CB_M_VM_THP_FAULT_FALLBACK] = V("vm_thp_fault_fallback", "count", LOWER,
		"thp_fault_fallback", "/proc/vmstat thp_fault_fallback delta"),
	[CB_M_VM_ALLOCSTALL] = V("vm_allocstall", "count", LOWER, "allocstall_",
		"/proc/vmstat allocstall_* deltas summed (direct reclaim entries)"),
	[CB_M_VM_PGSCAN_DIRECT] = V("vm_pgscan_direct", "pages", LOWER, "pgscan_direct",
		"/proc/vmstat pgscan_direct delta (pages scanned by direct reclaim)"),
	[CB_M_VM_PGSCAN_KSWAPD] = V("vm_pgscan_kswapd", "pages", NONE, "pgscan_kswapd",
		"/proc/vmstat pgscan_kswapd delta"),
	[CB_M_VM_PGSTEAL_DIRECT] = V("vm_pgsteal_direct", "pages", LOWER, "pgsteal_direct",
		"/proc/vmstat pgsteal_direct delta (pages reclaimed by direct reclaim)"),
	[CB_M_VM_PGSTEAL_KSWAPD] = V("vm_pgsteal_kswapd", "pages", NONE, "pgsteal_kswapd",
		"/proc/vmstat pgsteal_kswapd delta"),
	[CB_M_VM_COMPACT_ISOLATED] = V("vm_compact_isolated", "pages", NONE, "compact_isolated",
		"/proc/vmstat compact_isolated delta (migrate and free isolation)"),
	[CB_M_VM_COMPACT_DAEMON_MIGRATE_SCANNED] = V("vm_compact_daemon_migrate_scanned", "pages",
		NONE, "compact_daemon_migrate_scanned",
		"/proc/vmstat compact_daemon_migrate_scanned delta (kcompactd, proactive too)"),
	[CB_M_VM_COMPACT_DAEMON_FREE_SCANNED] = V("vm_compact_daemon_free_scanned", "pages", NONE,
		"compact_daemon_free_scanned", "/proc/vmstat compact_daemon_free_scanned delta"),
	[CB_M_THP_SUCCESS_RATE_VMSTAT] = ROWK(6, "thp_success_rate_vmstat", "ratio", HIGHER,
		CB_SRC_VMSTAT, g_thp_rate_vm, 0,
		"thp_fault_alloc / (thp_fault_alloc + thp_fault_fallback); null if both 0",
		COL(REPORT, 8, "thp_ok_vmstat%", 100, 1, 15)),
	[CB_M_WL_THP_HUGE] = W("wl_thp_huge", "count", HIGHER, NULL,
		"regions the THP workload found huge (its summary line)", .wl_path = "huge"),
	[CB_M_WL_THP_BASE] = W("wl_thp_base", "count", LOWER, NULL,
		"regions it found backed by base pages", .wl_path = "base"),
	[CB_M_WL_THP_SUCCESS_RATE] = ROWK(5, "wl_thp_success_rate", "ratio", HIGHER,
		CB_SRC_WORKLOAD, NULL, 0,
		"the workload's own THP success rate", .wl_path = "thp_success_rate",
		COL(REPORT, 9, "thp_ok_wl%", 100, 1, 11), IN(DRIFT, 4), IN(PROGRESS, 3),
		BARS(4, "thp-success", "THP success rate (the workload's own count)",
		     "regions backed by a huge page (%)", 100, 100)),
	[CB_M_WL_FAULT_P50_NS] = W("wl_fault_p50_ns", "ns", LOWER, NULL,
		"median first-touch time of a huge-page-sized region, as the workload timed it",
		.wl_path = "fault_ns.p50"),
	[CB_M_WL_FAULT_P99_NS] = W("wl_fault_p99_ns", "ns", LOWER, NULL,
		"99th percentile first-touch time, as the workload timed it",
		.wl_path = "fault_ns.p99"),
	[CB_M_CPU_KCOMPACTD_NS] = A("cpu_kcompactd_ns", "ns", LOWER, g_cpu, 0,
		"CPU time of kcompactd* threads (cpu.after - cpu.before; schedstat, else stat)",
		COL(REPORT_COST, 3, "kcompactd_ms", 1e-6, 1, 13)),
	[CB_M_CPU_KHUGEPAGED_NS] = A("cpu_khugepaged_ns", "ns", LOWER, g_cpu, 1,
		"CPU time of khugepaged",
		COL(REPORT_COST, 4, "khugepaged_ms", 1e-6, 1, 14)),
	[CB_M_CPU_BACKGROUND_NS] = AK(8, "cpu_background_ns", "ns", LOWER, g_cpu, 2,
		"cpu_kcompactd_ns + cpu_khugepaged_ns + cpu_policy_ns: the background cost",
		IN(COST, 1)),
	[CB_M_CPU_POLICY_NS] = A("cpu_policy_ns", "ns", LOWER, g_policy, 0,
		"CPU time (user + system, its compaction writes included) of the user-space "
		"emulation of the compact_wmark proposal (wmark.json; 0 for a setting without it)",
		COL(REPORT_COST, 5, "policy_ms", 1e-6, 1, 10), IN(COST, 2)),
	[CB_M_FRAG_SCORE_START] = A("frag_score_start", "score", LOWER, g_frag, 0,
		"fragmentation score (fragmentation_score_node, worst node) at the first sample"),
	[CB_M_FRAG_SCORE_END] = A("frag_score_end", "score", LOWER, g_frag, 1,
		"fragmentation score at the last sample",
		COL(REPORT_COST, 6, "frag_end", 1, -1, 9)),
	[CB_M_FRAG_SCORE_MAX] = A("frag_score_max", "score", LOWER, g_frag, 2,
		"largest fragmentation score over the samples"),
	[CB_M_ENERGY_MODELED_J] = AK(9, "energy_modeled_j", "J", LOWER, g_energy_modeled, 0,
		"modeled: (cpu_background_ns + dc_stall_total_ns) x watts per busy core",
		COL(REPORT_COST, 7, "energy_modeled_J", 1, 2, 17), IN(COST, 4), .modeled = true),
	[CB_M_ENERGY_RAPL_J] = AK(10, "energy_rapl_j", "J", LOWER, g_energy_rapl, 0,
		"measured RAPL energy over the cell, package + DRAM: powercap (wrap-around "
		"handled), else perf's power PMU; null without either (summary energy.source)",
		COL(REPORT_COST, 8, "energy_rapl_J", 1, 2, 14), IN(COST, 3)),
	[CB_M_DC_STALLS_WORKED] = TK(2, "dc_stalls_worked", "count", LOWER, g_worked, 0,
		"stalls that did compaction work: dc_stalls less dc_stalls_deferred_only (a "
		"stall in which every zone was deferred costs ~1 us and moves no page; "
		"compact_stall counts those too). The verdict's count",
		IN(AVOIDED, 2), IN(DRIFT, 2)),
	[CB_M_WAVE_COUNT] = W("wave_count", "count", NONE, g_wave_n,
		"waves of recurring demand the workload recorded (its wave lines; README: Waves)",
		COL(REPORT_WAVES, 1, "waves", 1, -1, 6)),
	[CB_M_WAVE_STALLS_MEAN] = ROW("wave_stalls_mean", "count", LOWER, CB_SRC_WORKLOAD, g_wave,
		0, "mean over the waves of the stalls that began in a wave",
		COL(REPORT_WAVES, 2, "stalls/wave", 1, 1, 12)),
	[CB_M_WAVE_STALLS_MEDIAN] = ROW("wave_stalls_median", "count", LOWER, CB_SRC_WORKLOAD,
		g_wave, 1, "median over the waves of the stalls per wave"),
	[CB_M_WAVE_STALL_NS_MEAN] = ROW("wave_stall_ns_mean", "ns", LOWER, CB_SRC_WORKLOAD, g_wave,
		2, "mean over the waves of the stall time per wave",
		COL(REPORT_WAVES, 3, "ms/wave", 1e-6, 2, 8)),
	[CB_M_WAVE_STALL_NS_MEDIAN] = ROW("wave_stall_ns_median", "ns", LOWER, CB_SRC_WORKLOAD,
		g_wave, 3, "median over the waves of the stall time per wave"),
	[CB_M_WAVE_STALL_NS_SD] = ROW("wave_stall_ns_sd", "ns", NONE, CB_SRC_WORKLOAD, g_wave_sd,
		1, "sample standard deviation over the waves of the stall time per wave (null "
		"below 2 waves): with wave_count, the spread of stall time per repetition that "
		"wave-to-wave variation alone gives (compare: CV; analysis/README.md)"),
	[CB_M_WAVE_STALL_NS_FIRST] = ROW("wave_stall_ns_first", "ns", LOWER, CB_SRC_WORKLOAD,
		g_wave_curve, 0, "the learning curve's start: mean stall time per wave over the "
		"first quarter of the waves (ceil(n/4)); null below 4 waves",
		COL(REPORT_WAVES, 4, "first_ms", 1e-6, 2, 9)),
	[CB_M_WAVE_STALL_NS_LAST] = ROW("wave_stall_ns_last", "ns", LOWER, CB_SRC_WORKLOAD,
		g_wave_curve, 1, "its end: mean stall time per wave over the last half of the "
		"waves (from wave floor(n/2)); null below 4 waves",
		COL(REPORT_WAVES, 5, "last_ms", 1e-6, 2, 8)),
	[CB_M_WAVE_STALLS_OUTSIDE] = ROW("wave_stalls_outside", "count", NONE, CB_SRC_WORKLOAD,
		g_wave_n, 1, "stalls that began between the waves (in no wave's [start, end))",
		COL(REPORT_WAVES, 6, "outside", 1, -1, 8)),
	[CB_M_WAVE_THP_SUCCESS_MEAN] = ROW("wave_thp_success_mean", "ratio", HIGHER,
		CB_SRC_WORKLOAD, g_wave, 4, "mean over the waves with THP faults of thp / faults "
		"(each wave line's own count)",
		COL(REPORT_WAVES, 7, "thp_ok%", 100, 1, 8)),
	[CB_M_WAVE_FAULT_P99_NS_MEDIAN] = ROW("wave_fault_p99_ns_median", "ns", LOWER,
		CB_SRC_WORKLOAD, g_wave, 7, "median over the waves of the THP fault p99 each wave "
		"line gives"),
	[CB_M_WAVE_READY_O9_MEAN] = ROW("wave_ready_o9_mean", "blocks", HIGHER, CB_SRC_WORKLOAD,
		g_wave, 8, "readiness: mean over the waves of the free order >= 9 blocks (order-9 "
		"units, all zones) at the last samples.csv sample at or before the wave's start",
		COL(REPORT_WAVES, 8, "ready_o9", 1, 1, 9)),
	[CB_M_BREAKUP_O9_EST] = A("breakup_o9_est", "blocks", LOWER, g_breakup, 0,
		"waste, an estimate: a lower bound on free order >= 9 blocks (order-9 units) broken "
		"up in the window: drops of the free count between samples not explained by the "
		"order >= 9 allocations the trace (else the THP counters) saw (README: break-up "
		"estimate)",
		COL(REPORT_WAVES, 9, "breakup_o9", 1, -1, 11)),
};

int cb_metric_find(const char *name)
{
	int i;

	for (i = 0; i < CB_M_NR; i++)
		if (!strcmp(cb_metrics[i].name, name))
			return i;
	return -1;
}

int cb_metric_place(int id, enum cb_view view)
{
	if (id < 0 || id >= CB_M_NR || view < 0 || view >= CB_VIEW_NR)
		return 0;
	return view == CB_VIEW_KEY ? cb_metrics[id].key : cb_metrics[id].place[view];
}

int cb_metrics_view(enum cb_view view, int *ids, int max)
{
	int n = 0;

	/* places are small: walk them in order, each row once per place */
	for (int p = 1; p <= CB_M_NR && n < max; p++)
		for (int m = 0; m < CB_M_NR && n < max; m++)
			if (cb_metric_place(m, view) == p)
				ids[n++] = m;
	return n;
}

int cb_metric_find_or_list(const char *name, const char *what, FILE *err)
{
	int m = cb_metric_find(name), i;

	if (m >= 0)
		return m;
	fprintf(err, "%s '%s': no such metric; the metrics are:\n", what, name);
	for (i = 0; i < CB_M_NR; i++)
		fprintf(err, "  %s\n", cb_metrics[i].name);
	errno = ENOENT;
	return -1;
}

void cb_metrics_compute(const struct cb_metric_in *in, struct cb_values *out)
{
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < CB_M_NR; i++) {
		const struct cb_metric *m = &cb_metrics[i];
		long long d;

		if (m->get || m->wl_path) {
			if (m->get)
				out->set[i] = m->get(in, m->arg, &out->v[i]);
			else if (in->wl && in->wl->present && in->wl->has[i]) {
				out->v[i] = in->wl->v[i];
				out->set[i] = true;
			}
			/* interpolated percentiles: whole nanoseconds are precise enough */
			if (out->set[i] && !strcmp(m->unit, "ns"))
				out->v[i] = round(out->v[i]);
		} else if (m->vmstat && in->before && in->after &&
			   !cb_vmstat_delta(in->before, in->after, m->vmstat, &d)) {
			out->v[i] = (double)d;
			out->set[i] = true;
		}
	}
}

int cb_metrics_aggregate(enum cb_metric_id id, const struct cb_values *const *cells, int n,
			 double *out)
{
	double *x = malloc((n > 0 ? n : 1) * sizeof(*x));
	size_t k = 0;
	int i;

	if (!x)
		return -1;
	for (i = 0; i < n; i++)
		if (cells[i]->set[id])
			x[k++] = cells[i]->v[id];
	if (!k) {
		free(x);
		errno = ENODATA;
		return -1;
	}
	gsl_sort(x, 1, k);
	switch (cb_metrics[id].agg) {
	case CB_AGG_MEDIAN:
		*out = gsl_stats_median_from_sorted_data(x, 1, k);
		break;
	}
	free(x);
	return 0;
}

void cb_metrics_print_table(FILE *out)
{
	int i;

	fprintf(out, "| metric | unit | better | source | reps aggregate by | key | meaning |\n");
	fprintf(out, "| --- | --- | --- | --- | --- | ---: | --- |\n");
	for (i = 0; i < CB_M_NR; i++) {
		const struct cb_metric *m = &cb_metrics[i];

		char key[8] = "";

		if (m->key)
			snprintf(key, sizeof(key), "%d", m->key);
		fprintf(out, "| `%s` | %s | %s | %s | %s | %s | %s |\n", m->name, m->unit,
			cb_better_names[m->better], cb_source_names[m->source],
			cb_agg_names[m->agg], key, m->help);
	}
}
