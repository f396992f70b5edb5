/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metrics.h - the one table of per-cell metrics (DESIGN.md: tables, not switch statements).
 *
 * Each row says what a metric is called, its unit, which direction is better, where it
 * comes from and how repetitions aggregate; the same rows drive summary.json, the lone-trace
 * output, the run report and `compactbench analyze --metrics`. A new metric is one row
 * (plus, for trace and workload metrics, a one-line getter).
 */
#ifndef CB_METRICS_H
#define CB_METRICS_H

#include <stdbool.h>
#include <stdio.h>

#include "agentdata.h"
#include "stalls.h"
#include "vmstat.h"
#include "waves.h"

enum cb_better { CB_BETTER_LOWER, CB_BETTER_HIGHER, CB_BETTER_NONE };
enum cb_source { CB_SRC_TRACE, CB_SRC_VMSTAT, CB_SRC_WORKLOAD, CB_SRC_AGENT };

/* the metrics of compaction work of one attribution (cw_<what>_<attribution>) */
#define CB_M_CW(A)                                                                      \
	CB_M_CW_RUNS_##A, CB_M_CW_RUN_NS_##A, CB_M_CW_MIGRATE_SCANNED_##A,              \
	CB_M_CW_FREE_SCANNED_##A, CB_M_CW_ISOLATED_##A, CB_M_CW_SUCCESS_##A, CB_M_CW_FAIL_##A

/* the metrics of the stalls of one origin */
#define CB_M_ORIGIN(O) CB_M_DC_STALLS_##O, CB_M_DC_TOTAL_NS_##O, CB_M_DC_P99_NS_##O
enum cb_agg { CB_AGG_MEDIAN };

enum cb_metric_id {
	CB_M_DC_STALLS,
	CB_M_DC_STALL_TOTAL_NS,
	CB_M_DC_STALL_P50_NS,
	CB_M_DC_STALL_P99_NS,
	CB_M_DC_STALL_MAX_NS,
	CB_M_DC_TRUNCATED,
	CB_M_DC_ATTEMPTS,
	CB_M_DC_SKIPPED,
	CB_M_DC_SUCCESS,
	CB_M_DC_FAIL,
	CB_M_DC_NO_RUN,
	CB_M_DC_RUNS,
	CB_M_DC_KHUGEPAGED,
	CB_M_BG_KCOMPACTD,
	CB_M_BG_KHUGEPAGED,
	CB_M_BG_OTHER,
	CB_M_DC_CUT_BY_LOSS,
	CB_M_ALLOC_HI,
	CB_M_ALLOC_HI_FAILED,
	CB_M_DC_PER_1K_ALLOC,
	CB_M_DC_STALL_P90_NS,
	CB_M_DC_STALL_P999_NS,
	CB_M_ORIGIN(THP_FAULT),
	CB_M_ORIGIN(SLAB),
	CB_M_ORIGIN(NETWORK),
	CB_M_ORIGIN(OTHER),
	CB_M_DC_STALLS_CHEAP,
	CB_M_DC_P99_NS_CHEAP,
	CB_M_DC_STALLS_COSTLY,
	CB_M_DC_P99_NS_COSTLY,
	CB_M_CW(DIRECT),
	CB_M_CW(KCOMPACTD),
	CB_M_CW(PROACTIVE),
	CB_M_CW(DEMAND),
	CB_M_CW(KHUGEPAGED),
	CB_M_CW(MANUAL),
	CB_M_EXTFRAG_EVENTS,
	CB_M_EXTFRAG_CHANGE_OWNER,
	CB_M_EXTFRAG_FRAGMENTING,
	CB_M_EXTFRAG_UNMOVABLE_IN_MOVABLE,
	CB_M_VM_COMPACT_STALL,
	CB_M_VM_COMPACT_FAIL,
	CB_M_VM_COMPACT_SUCCESS,
	CB_M_VM_COMPACT_MIGRATE_SCANNED,
	CB_M_VM_COMPACT_FREE_SCANNED,
	CB_M_VM_COMPACT_DAEMON_WAKE,
	CB_M_VM_THP_FAULT_ALLOC,
	CB_M_VM_THP_FAULT_FALLBACK,
	CB_M_VM_ALLOCSTALL,
	CB_M_VM_PGSCAN_DIRECT,
	CB_M_VM_PGSCAN_KSWAPD,
	CB_M_VM_PGSTEAL_DIRECT,
	CB_M_VM_PGSTEAL_KSWAPD,
	CB_M_VM_COMPACT_ISOLATED,
	CB_M_VM_COMPACT_DAEMON_MIGRATE_SCANNED,
	CB_M_VM_COMPACT_DAEMON_FREE_SCANNED,
	CB_M_THP_SUCCESS_RATE_VMSTAT,
	CB_M_WL_THP_HUGE,
	CB_M_WL_THP_BASE,
	CB_M_WL_THP_SUCCESS_RATE,
	CB_M_WL_FAULT_P50_NS,
	CB_M_WL_FAULT_P99_NS,
	CB_M_CPU_KCOMPACTD_NS,
	CB_M_CPU_KHUGEPAGED_NS,
	CB_M_CPU_BACKGROUND_NS,
	CB_M_CPU_POLICY_NS,
	CB_M_FRAG_SCORE_START,
	CB_M_FRAG_SCORE_END,
	CB_M_FRAG_SCORE_MAX,
	CB_M_ENERGY_MODELED_J,
	CB_M_ENERGY_RAPL_J,
	CB_M_DC_STALLS_WORKED,
	CB_M_WAVE_COUNT,
	CB_M_WAVE_STALLS_MEAN,
	CB_M_WAVE_STALLS_MEDIAN,
	CB_M_WAVE_STALL_NS_MEAN,
	CB_M_WAVE_STALL_NS_MEDIAN,
	CB_M_WAVE_STALL_NS_SD,
	CB_M_WAVE_STALL_NS_FIRST,
	CB_M_WAVE_STALL_NS_LAST,
	CB_M_WAVE_STALLS_OUTSIDE,
	CB_M_WAVE_THP_SUCCESS_MEAN,
	CB_M_WAVE_FAULT_P99_NS_MEDIAN,
	CB_M_WAVE_READY_O9_MEAN,
	CB_M_BREAKUP_O9_EST,
	CB_M_NR
};

#define CB_WATTS_PER_CORE_DEFAULT 10.0

/* the workload's own view: the last {"type":"summary"} of workload/ *thp-demand*.jsonl */
struct cb_wl_summary {
	bool present;
	char file[256];	/* relative to the cell directory */
	/* per metric id: the value at the row's wl_path (struct cb_metric), and whether there is one */
	double v[CB_M_NR];
	bool has[CB_M_NR];
};

/* everything a cell's metrics are computed from; NULL members are absent inputs */
struct cb_metric_in {
	const struct cb_stalls *st;
	const struct cb_vmstat *before, *after;
	const struct cb_wl_summary *wl;
	const struct cb_agentdata *agent;
	const struct cb_waves *waves;	/* the waves and the break-up estimate (waves.h) */
	double watts_per_core;	/* for energy_modeled_j; 0: CB_WATTS_PER_CORE_DEFAULT */
};

struct cb_values {
	double v[CB_M_NR];
	bool set[CB_M_NR]; /* false: null (no input, or undefined such as a rate of 0/0) */
};

/*
 * The views of the table: each is a column of the rows, a row's place in it (from 1; 0: not
 * shown). A view lists its rows by place (cb_metrics_view), so a new metric joins a view in
 * its row, and a view cannot name a metric that does not exist.
 */
enum cb_view {
	CB_VIEW_KEY,		/* compare's default view, a cover letter's rows (the row's key) */
	CB_VIEW_REPORT,		/* the run report's main table */
	CB_VIEW_REPORT_COST,	/* the run report's cost table */
	CB_VIEW_REPORT_WAVES,	/* the run report's waves table */
	CB_VIEW_AVOIDED,	/* compare: direct compaction avoided */
	CB_VIEW_COST,		/* compare: what it cost */
	CB_VIEW_DRIFT,		/* compare: drift across repetitions is watched in these */
	CB_VIEW_GATE,		/* gate's default metrics (no --metric) */
	CB_VIEW_PLOT_BARS,	/* plot: a bar chart each (struct cb_plot_use) */
	CB_VIEW_PROGRESS,	/* run's progress line after a cell: stalls, compact_stall, THP */
	CB_VIEW_NR
};

/* how a row shows as a report column (CB_VIEW_REPORT*) */
struct cb_report_col {
	const char *head;
	double scale;
	int decimals;	/* -1: whole numbers as such, halves (medians of two) with one decimal */
	int width;
};

/* how a row shows as a bar chart (CB_VIEW_PLOT_BARS) */
struct cb_plot_use {
	const char *file, *title, *ylabel;
	double scale;	/* bars start at 0 on a linear axis: a bar's length is its value */
	double ymax;	/* > 0: a fixed top (percentages) */
};

struct cb_metric {
	const char *name;
	const char *unit;
	enum cb_better better;
	enum cb_source source;
	enum cb_agg agg;
	const char *vmstat; /* VMSTAT rows: the /proc/vmstat key; "x_" sums every "x_*" key */
	/* the other rows: a getter, called with the row's @arg; false means null */
	bool (*get)(const struct cb_metric_in *in, int arg, double *v);
	int arg;
	const char *help;
	/* a key metric (compare's default view, a cover letter's rows): its place, from 1; 0: not */
	int key;
	/* its place in each other view (enum cb_view; CB_VIEW_KEY's is @key), 0: not in it */
	unsigned char place[CB_VIEW_NR];
	bool modeled;	/* a model's figure, not a measurement: shown with "(modeled)" */
	struct cb_report_col col;	/* with a place in a CB_VIEW_REPORT* view */
	struct cb_plot_use plot;	/* with a place in CB_VIEW_PLOT_BARS */
	/* CB_SRC_WORKLOAD rows read from the workload's summary line: the JSON path, dotted */
	const char *wl_path;
};

extern const struct cb_metric cb_metrics[CB_M_NR];

extern const char *const cb_better_names[];
extern const char *const cb_source_names[];
extern const char *const cb_agg_names[];

/* cb_metric_find - the id of the metric called @name, or -1 */
int cb_metric_find(const char *name);

/*
 * cb_metrics_view - the ids of the rows shown in @view, in their place order, into @ids (room
 * for @max). Returns how many (at most @max).
 */
int cb_metrics_view(enum cb_view view, int *ids, int max);

/* cb_metric_place - the place of metric @id in @view, from 1; 0: not shown there */
int cb_metric_place(int id, enum cb_view view);

/*
 * cb_metric_find_or_list - cb_metric_find(), and on no such name a message naming @what and
 * listing every valid name on @err. Returns the id, or -1 with errno ENOENT.
 */
int cb_metric_find_or_list(const char *name, const char *what, FILE *err);

/* cb_metrics_compute - every metric of one cell from @in into @out (unset = null) */
void cb_metrics_compute(const struct cb_metric_in *in, struct cb_values *out);

/*
 * cb_metrics_aggregate - aggregate @n repetitions' values of metric @id as its row says
 * (the median, by GSL on the sorted values; null values are left out). Returns 0 and the
 * value in @out, or -1 with errno ENODATA when no repetition has a value.
 */
int cb_metrics_aggregate(enum cb_metric_id id, const struct cb_values *const *cells, int n,
			 double *out);

/* cb_metrics_print_table - the metric table as markdown (for the README and --metrics) */
void cb_metrics_print_table(FILE *out);

#endif
