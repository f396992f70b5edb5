// SPDX-License-Identifier: GPL-2.0-only
/*
 * metrics.c - the metric table and the code that walks it.
 */
#include "metrics.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

const char *const cb_better_names[] = { "lower", "higher", "none" };
const char *const cb_source_names[] = { "trace", "vmstat", "workload" };
const char *const cb_agg_names[] = { "median" };

/* ---- getters: one line each; false means null ---- */

#define ST_GET(fn, expr)                                              \
	static bool fn(const struct cb_metric_in *in, double *v)      \
	{                                                             \
		const struct cb_stalls *s = in->st;                   \
		if (!s)                                               \
			return false;                                 \
		*v = (double)(expr);                                  \
		return true;                                          \
	}

ST_GET(g_stalls, s->stalls)
ST_GET(g_total, s->total_ns)
ST_GET(g_truncated, s->truncated)
ST_GET(g_attempts, s->attempts)
ST_GET(g_skipped, s->skipped)
ST_GET(g_success, s->success)
ST_GET(g_fail, s->fail)
ST_GET(g_no_run, s->no_run)
ST_GET(g_runs, s->direct_runs)
ST_GET(g_khugepaged, s->khugepaged)
ST_GET(g_bg_kcompactd, s->bg_runs[CB_BG_KCOMPACTD])
ST_GET(g_bg_khugepaged, s->bg_runs[CB_BG_KHUGEPAGED])
ST_GET(g_bg_other, s->bg_runs[CB_BG_OTHER])

static bool g_p50(const struct cb_metric_in *in, double *v)
{
	return in->st && !cb_stalls_quantile(in->st, 0.50, v);
}

static bool g_p99(const struct cb_metric_in *in, double *v)
{
	return in->st && !cb_stalls_quantile(in->st, 0.99, v);
}

static bool g_max(const struct cb_metric_in *in, double *v)
{
	if (!in->st || !in->st->n)
		return false;
	*v = cb_stalls_max(in->st);
	return true;
}

/* thp_fault_alloc / (thp_fault_alloc + thp_fault_fallback); null when both are 0 */
static bool g_thp_rate_vm(const struct cb_metric_in *in, double *v)
{
	long long a, f;

	if (!in->before || !in->after ||
	    cb_vmstat_delta(in->before, in->after, "thp_fault_alloc", &a) ||
	    cb_vmstat_delta(in->before, in->after, "thp_fault_fallback", &f) || a + f == 0)
		return false;
	*v = (double)a / (double)(a + f);
	return true;
}

#define WL_GET(fn, idx, field)                                        \
	static bool fn(const struct cb_metric_in *in, double *v)      \
	{                                                             \
		if (!in->wl || !in->wl->present || !in->wl->has[idx]) \
			return false;                                 \
		*v = in->wl->field;                                   \
		return true;                                          \
	}

WL_GET(g_wl_huge, 0, huge)
WL_GET(g_wl_base, 1, base)
WL_GET(g_wl_rate, 2, rate)
WL_GET(g_wl_p50, 3, p50)
WL_GET(g_wl_p99, 4, p99)

#define T(n, u, b, g, h) \
	{ .name = n, .unit = u, .better = CB_BETTER_##b, .source = CB_SRC_TRACE, .get = g, .help = h }
#define V(n, u, b, key, h)                                                             \
	{ .name = n, .unit = u, .better = CB_BETTER_##b, .source = CB_SRC_VMSTAT,      \
	  .vmstat = key, .help = h }
#define W(n, u, b, g, h)                                                               \
	{ .name = n, .unit = u, .better = CB_BETTER_##b, .source = CB_SRC_WORKLOAD,    \
	  .get = g, .help = h }

const struct cb_metric cb_metrics[CB_M_NR] = {
	[CB_M_DC_STALLS] = T("dc_stalls", "count", LOWER, g_stalls,
		"direct compaction stalls: attempts that count as a compact_stall"),
	[CB_M_DC_STALL_TOTAL_NS] = T("dc_stall_total_ns", "ns", LOWER, g_total,
		"sum of stall durations"),
	[CB_M_DC_STALL_P50_NS] = T("dc_stall_p50_ns", "ns", LOWER, g_p50,
		"median stall duration (GSL quantile, linear interpolation)"),
	[CB_M_DC_STALL_P99_NS] = T("dc_stall_p99_ns", "ns", LOWER, g_p99,
		"99th percentile stall duration (GSL quantile, linear interpolation)"),
	[CB_M_DC_STALL_MAX_NS] = T("dc_stall_max_ns", "ns", LOWER, g_max,
		"longest stall"),
	[CB_M_DC_TRUNCATED] = T("dc_truncated", "count", NONE, g_truncated,
		"attempts cut by the end of the trace (not in dc_stalls)"),
	[CB_M_DC_ATTEMPTS] = T("dc_try_to_compact_pages", "count", LOWER, g_attempts,
		"try_to_compact_pages events: direct compaction attempts"),
	[CB_M_DC_SKIPPED] = T("dc_skipped", "count", NONE, g_skipped,
		"attempts where every zone was skipped (COMPACT_SKIPPED: no compact_stall)"),
	[CB_M_DC_SUCCESS] = T("dc_success", "count", HIGHER, g_success,
		"stalls that ended in a page of their order (cf. compact_success)"),
	[CB_M_DC_FAIL] = T("dc_fail", "count", LOWER, g_fail,
		"stalls that did not (cf. compact_fail)"),
	[CB_M_DC_NO_RUN] = T("dc_stalls_deferred_only", "count", NONE, g_no_run,
		"stalls in which every zone was deferred: counted by compact_stall, ~1 us each"),
	[CB_M_DC_RUNS] = T("dc_compaction_runs", "count", LOWER, g_runs,
		"zone compaction runs (mm_compaction_begin) inside stalls"),
	[CB_M_DC_KHUGEPAGED] = T("dc_stalls_khugepaged", "count", NONE, g_khugepaged,
		"stalls of khugepaged's own allocations (part of dc_stalls)"),
	[CB_M_BG_KCOMPACTD] = T("bg_runs_kcompactd", "count", NONE, g_bg_kcompactd,
		"compaction runs outside any direct attempt, by kcompactd"),
	[CB_M_BG_KHUGEPAGED] = T("bg_runs_khugepaged", "count", NONE, g_bg_khugepaged,
		"compaction runs outside any direct attempt, by khugepaged"),
	[CB_M_BG_OTHER] = T("bg_runs_other", "count", NONE, g_bg_other,
		"compaction runs outside any direct attempt, by anyone else (compact_memory)"),
	[CB_M_VM_COMPACT_STALL] = V("vm_compact_stall", "count", LOWER, "compact_stall",
		"/proc/vmstat compact_stall delta"),
	[CB_M_VM_COMPACT_FAIL] = V("vm_compact_fail", "count", LOWER, "compact_fail",
		"/proc/vmstat compact_fail delta"),
	[CB_M_VM_COMPACT_SUCCESS] = V("vm_compact_success", "count", HIGHER, "compact_success",
		"/proc/vmstat compact_success delta"),
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
	[CB_M_THP_SUCCESS_RATE_VMSTAT] = {
		.name = "thp_success_rate_vmstat", .unit = "ratio", .better = CB_BETTER_HIGHER,
		.source = CB_SRC_VMSTAT, .get = g_thp_rate_vm,
		.help = "thp_fault_alloc / (thp_fault_alloc + thp_fault_fallback); null if both 0" },
	[CB_M_WL_THP_HUGE] = W("wl_thp_huge", "count", HIGHER, g_wl_huge,
		"regions the THP workload found huge (its summary line)"),
	[CB_M_WL_THP_BASE] = W("wl_thp_base", "count", LOWER, g_wl_base,
		"regions it found backed by base pages"),
	[CB_M_WL_THP_SUCCESS_RATE] = W("wl_thp_success_rate", "ratio", HIGHER, g_wl_rate,
		"the workload's own THP success rate"),
	[CB_M_WL_FAULT_P50_NS] = W("wl_fault_p50_ns", "ns", LOWER, g_wl_p50,
		"median first-touch time of a huge-page-sized region, as the workload timed it"),
	[CB_M_WL_FAULT_P99_NS] = W("wl_fault_p99_ns", "ns", LOWER, g_wl_p99,
		"99th percentile first-touch time, as the workload timed it"),
};

int cb_metric_find(const char *name)
{
	int i;

	for (i = 0; i < CB_M_NR; i++)
		if (!strcmp(cb_metrics[i].name, name))
			return i;
	return -1;
}

void cb_metrics_compute(const struct cb_metric_in *in, struct cb_values *out)
{
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < CB_M_NR; i++) {
		const struct cb_metric *m = &cb_metrics[i];
		long long d;

		if (m->get) {
			out->set[i] = m->get(in, &out->v[i]);
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

	fprintf(out, "| metric | unit | better | source | reps aggregate by | meaning |\n");
	fprintf(out, "| --- | --- | --- | --- | --- | --- |\n");
	for (i = 0; i < CB_M_NR; i++) {
		const struct cb_metric *m = &cb_metrics[i];

		fprintf(out, "| `%s` | %s | %s | %s | %s | %s |\n", m->name, m->unit,
			cb_better_names[m->better], cb_source_names[m->source],
			cb_agg_names[m->agg], m->help);
	}
}
