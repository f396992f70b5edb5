/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * summary_json.h - the sections of summary.json beyond the metric table (schema in
 * analysis/README.md): stall distributions and histograms by order and origin, high-order
 * allocations, compaction work by attribution, extfrag fallbacks, fragmentation, CPU and
 * energy. Each builder returns a new json-c object (NULL is JSON null).
 */
#ifndef CB_SUMMARY_JSON_H
#define CB_SUMMARY_JSON_H

#include "agentdata.h"
#include "hist.h"
#include "stalls.h"
#include "vmstat.h"

struct json_object;

/* cb_json_num - whole numbers as JSON integers, others as doubles with 10 significant digits */
struct json_object *cb_json_num(double v);

/* cb_summary_dist_json - {"count","total_ns","p50_ns",...,"max_ns","histogram"} */
struct json_object *cb_summary_dist_json(const struct cb_dist *d, const struct cb_hist *h);

/* cb_summary_stalls_json - {"all", "by_order", "by_origin", "gfp_bits"} of @st */
struct json_object *cb_summary_stalls_json(const struct cb_stalls *st);

/* cb_summary_alloc_json - {"high_order", "failed", "by_order", "stalls_per_1000"} or null */
struct json_object *cb_summary_alloc_json(const struct cb_stalls *st);

/*
 * cb_summary_work_json - {"by_attribution": {...}, "trace_vs_vmstat": {...}}: compaction
 * runs and work per attribution; @before/@after (may be NULL) for the comparison with
 * /proc/vmstat's compact_migrate_scanned, compact_free_scanned and compact_isolated
 */
struct json_object *cb_summary_work_json(const struct cb_stalls *st,
					 const struct cb_vmstat *before,
					 const struct cb_vmstat *after);

/* cb_summary_extfrag_json - {"events", "pageblock_order", "fallbacks": [...]} or null */
struct json_object *cb_summary_extfrag_json(const struct cb_stalls *st);

/* cb_summary_frag_json - {"file","samples","score_start","score_end","score_max"} or null */
struct json_object *cb_summary_frag_json(const struct cb_agentdata *a);

/* cb_summary_cpu_json - {"source","kcompactd_ns","khugepaged_ns","direct_compaction_ns"} or null */
struct json_object *cb_summary_cpu_json(const struct cb_agentdata *a, const struct cb_stalls *st);

/*
 * cb_summary_energy_json - {"source" ("powercap", "perf-power" or "modeled"), "rapl_j" and
 * "domains" (the measured figure of source, null when modeled), "rapl_zones", "powercap"
 * and "perf_power" (each source's own figure where recorded, both where both exist),
 * "modeled_j", "model", "watts_per_busy_core"}
 */
struct json_object *cb_summary_energy_json(const struct cb_agentdata *a, const struct cb_stalls *st,
					   double watts);

/* cb_stalls_method - "probe" when the trace had the collector's probe pair, else "tracepoint" */
const char *cb_stalls_method(const struct cb_stalls *st);

/*
 * cb_summary_probe_json - the probe method's section: calls, stalls, truncated,
 * cut_by_loss, time in direct compaction and reclaim, the distribution of all stalls and by
 * order; NULL (JSON null) when the trace has no probes
 */
struct json_object *cb_summary_probe_json(const struct cb_stalls *st);

/*
 * cb_method_comparison - the distributions the comparison puts side by side: the probe
 * stalls with direct compaction time > 0 into @probe, the tracepoint stalls into @tp.
 * Returns 0, or -1 with errno ENODATA (no probes) or ENOMEM.
 */
int cb_method_comparison(const struct cb_stalls *st, struct cb_dist *probe, struct cb_dist *tp);

/*
 * cb_summary_method_comparison_json - {"reference": "probe", "count", "p50_ns", "p99_ns"},
 * each {"probe", "tracepoint", "diff" (tracepoint - probe)}; NULL when there are no probes
 */
struct json_object *cb_summary_method_comparison_json(const struct cb_stalls *st);

/* the name of migratetype @mt as /proc/pagetypeinfo prints the first four */
const char *cb_migratetype_name(int mt, char *buf, size_t len);

#endif
