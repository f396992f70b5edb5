/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * summary.h - one cell: meta.json, vmstat.before/after, trace.dat and the workload's own
 * summary in; metrics (metrics.h) and summary.json (schema in analysis/README.md) out.
 */
#ifndef CB_SUMMARY_H
#define CB_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics.h"
#include "stalls.h"

#define CB_SUMMARY_SCHEMA 1

struct json_object;

struct cb_cell_summary {
	char id[256], kernel[128], setting[128], workload[128];
	int rep;
	struct cb_values val;
	bool lost;	  /* the collector or the trace reported lost events */
	bool has_xcheck;  /* both a trace and a vmstat compact_stall delta */
	bool agree;	  /* the cross-check held */
	char energy_source[16];	/* "powercap", "perf-power" or "modeled" (energy_rapl_j's) */
	char warning[400];	/* what makes the cell's numbers doubtful (headroom.h), or "" */
	double host_other_share; /* of a guest's host's CPU time, what other work took; NAN */
	char guest_clock[8];	 /* a guest's clock (meta.json qemu.clock): "host", "icount", "" */
	/* the saved guest it started from (meta.json saved_state): "NAME/ID", "" if it booted */
	char start_state[160];
};

/*
 * A guest cell whose host gave more than this share of its CPU time to work other than the
 * guest gets a warning: the guest's clock is the host's, so its times stretch. It is not a
 * fine measure: /proc/stat samples clock ticks while QEMU's time is the scheduler's exact
 * sum, and the host's own work for the guest (interrupts, writeback) counts as other. An
 * otherwise idle 2-core host with one 2-vCPU TCG guest showed 0-10.5% in 29 of 30 cells and
 * 19% in one; a build beside it or a busy loop on one core, 37-56%.
 */
#define CB_HOST_OTHER_WARN 0.20

/*
 * cb_summary_stretched - whether a cell's summary.json @sum warns that its guest's times are
 * stretched: the host's other work over CB_HOST_OTHER_WARN on a guest with the host's clock
 * (a clock that counts instructions, qemu_conf.h, does not stretch)
 */
bool cb_summary_stretched(struct json_object *sum, double *share);

/*
 * cb_crosscheck_tolerance - how far dc_stalls may be from the compact_stall delta and still
 * agree: max(2, ceil(1% of the delta)). The trace window holds the vmstat window plus the
 * collector's start and stop, where other tasks may stall.
 */
long long cb_crosscheck_tolerance(long long vmstat_compact_stall);

/* cb_wl_find_jsonl - the last (by name) *@what*.jsonl in @dir (malloc'ed), or NULL */
char *cb_wl_find_jsonl(const char *dir, const char *what);

/*
 * cb_wl_read_summary - the last {"type":"summary"} line of the last (by name)
 * @cell_dir/workload/ *thp-demand*.jsonl. No such file is not an error (@out->present is
 * false). Returns 0, or -1 with a message naming the file in @err (unreadable directory).
 */
int cb_wl_read_summary(const char *cell_dir, struct cb_wl_summary *out, char *err, size_t errlen);

/*
 * cb_summary_trace_json - the trace part of a summary: {"file","events","missed_events",
 * "missing_events","duration_ns","stalls_by_order"} for @st, labelled @file
 */
struct json_object *cb_summary_trace_json(const char *file, const struct cb_stalls *st);

/*
 * cb_summary_metrics_json - {"name": value|null, ...} in table order; with @only_trace,
 * the metrics whose source is the trace only
 */
struct json_object *cb_summary_metrics_json(const struct cb_values *val, bool only_trace);

/*
 * cb_summary_set_watts_per_core - the watts per busy core of the modeled energy
 * (energy_modeled_j); 0 or less restores CB_WATTS_PER_CORE_DEFAULT
 */
void cb_summary_set_watts_per_core(double watts);

/* cb_summary_watts_per_core - the value in use */
double cb_summary_watts_per_core(void);

/*
 * cb_summarize_cell - analyze @cell_dir and write @cell_dir/summary.json atomically; @out
 * (may be NULL) receives the cell's identity and metrics for the run report.
 * Returns 0; -2 when meta.json's status is not "complete" (the cell is refused, not bad);
 * or -1 for bad input: a missing, unreadable or corrupt file. Both with a message naming
 * the file (and field, line or offset) in @err, and both remove an older summary.json.
 */
int cb_summarize_cell(const char *cell_dir, struct cb_cell_summary *out, char *err, size_t errlen);

#endif
