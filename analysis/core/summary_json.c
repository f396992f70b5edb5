// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary_json.c - the summary.json sections beyond the metric table.
 */
#include "summary_json.h"
#include "energy.h"
#include "metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

struct json_object *cb_json_num(double v)
{
	char buf[32];

	if (!isfinite(v))
		return NULL;
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_object_new_int64((int64_t)v);
	snprintf(buf, sizeof(buf), "%.10g", v);
	return json_object_new_double_s(v, buf);
}

static struct json_object *u64(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *hist_json(const struct cb_hist *h)
{
	struct json_object *o = json_object_new_object(), *b = json_object_new_array();
	int i;

	add(o, "scheme", json_object_new_string(
		"log-linear: 9 linear buckets per decade (DTrace llquantize, factor 10); "
		"[lo_ns, hi_ns, count]"));
	for (i = 0; i < CB_HIST_BUCKETS; i++) {
		struct json_object *row;
		uint64_t lo, hi;

		if (!h->count[i])
			continue;
		cb_hist_bounds(i, &lo, &hi);
		row = json_object_new_array();
		json_object_array_add(row, u64(lo));
		json_object_array_add(row, u64(hi));
		json_object_array_add(row, u64(h->count[i]));
		json_object_array_add(b, row);
	}
	add(o, "buckets", b);
	return o;
}

struct json_object *cb_summary_dist_json(const struct cb_dist *d, const struct cb_hist *h)
{
	static const char *const keys[CB_PCT_NR] = { "p50_ns", "p90_ns", "p99_ns", "p99_9_ns" };
	struct json_object *o = json_object_new_object();
	int k;

	add(o, "count", u64(d->n));
	add(o, "total_ns", cb_json_num(round(d->total)));
	for (k = 0; k < CB_PCT_NR; k++)
		add(o, keys[k], d->n ? cb_json_num(round(d->pct[k])) : NULL);
	add(o, "max_ns", d->n ? cb_json_num(d->max) : NULL);
	if (h)
		add(o, "histogram", hist_json(h));
	return o;
}

/* one split's distribution, or NULL on allocation failure */
static struct json_object *split_json(const struct cb_stalls *st, enum cb_split split, int value)
{
	struct cb_dist d;
	struct cb_hist h;

	if (cb_stalls_dist(st, split, value, &d, &h))
		return NULL;
	return cb_summary_dist_json(&d, &h);
}

struct json_object *cb_summary_stalls_json(const struct cb_stalls *st)
{
	struct json_object *o = json_object_new_object(), *ord = json_object_new_object();
	struct json_object *orig = json_object_new_object();
	char k[8];
	int i;

	add(o, "all", split_json(st, CB_SPLIT_ALL, 0));
	for (i = 0; i <= CB_STALLS_MAX_ORDER; i++) {
		if (!st->by_order[i])
			continue;
		snprintf(k, sizeof(k), "%d", i);
		add(ord, k, split_json(st, CB_SPLIT_ORDER, i));
	}
	add(o, "by_order", ord);
	for (i = 0; i < CB_ORIGIN_NR; i++)
		add(orig, cb_origin_names[i], split_json(st, CB_SPLIT_ORIGIN, i));
	add(o, "by_origin", orig);
	add(o, "gfp_bits", json_object_new_string(st->gfp_from_trace ? "trace" : "default"));
	return o;
}

struct json_object *cb_summary_alloc_json(const struct cb_stalls *st)
{
	struct json_object *o, *ord;
	char k[8];
	int i;

	if (!cb_stalls_recorded(st, "kmem:mm_page_alloc"))
		return NULL;
	o = json_object_new_object();
	ord = json_object_new_object();
	add(o, "high_order", u64(st->alloc_hi));
	add(o, "failed", u64(st->alloc_hi_failed));
	for (i = 1; i <= CB_STALLS_MAX_ORDER; i++) {
		if (!st->alloc_by_order[i])
			continue;
		snprintf(k, sizeof(k), "%d", i);
		add(ord, k, u64(st->alloc_by_order[i]));
	}
	add(o, "by_order", ord);
	add(o, "stalls_per_1000", st->alloc_hi ? cb_json_num((double)st->stalls * 1000.0 /
							       (double)st->alloc_hi) : NULL);
	return o;
}

static struct json_object *work_json(const struct cb_work *w)
{
	struct json_object *o = json_object_new_object(), *end = json_object_new_object();
	int i;

	add(o, "runs", u64(w->runs));
	add(o, "run_ns", u64(w->run_ns));
	add(o, "open_at_end", u64(w->open));
	add(o, "migrate_scanned", u64(w->migrate_scanned));
	add(o, "migrate_isolated", u64(w->migrate_isolated));
	add(o, "free_scanned", u64(w->free_scanned));
	add(o, "free_isolated", u64(w->free_isolated));
	add(o, "migrated", u64(w->migrated));
	add(o, "migrate_failed", u64(w->migrate_failed));
	for (i = 0; i < CB_END_NR; i++)
		add(end, cb_end_names[i], u64(w->end[i]));
	add(o, "end", end);
	return o;
}

/* trace sum over the attributed runs vs the vmstat counter the kernel bumps at run end */
static void versus(struct json_object *x, const char *name, uint64_t trace,
		   const struct cb_vmstat *b, const struct cb_vmstat *a, const char *key)
{
	struct json_object *o = json_object_new_object();
	long long d;

	add(o, "trace", u64(trace));
	add(o, "vmstat", b && a && !cb_vmstat_delta(b, a, key, &d) ? json_object_new_int64(d) :
	    NULL);
	add(x, name, o);
}

struct json_object *cb_summary_work_json(const struct cb_stalls *st,
					 const struct cb_vmstat *before,
					 const struct cb_vmstat *after)
{
	struct json_object *o = json_object_new_object(), *by = json_object_new_object(), *x;
	uint64_t ms = 0, fs = 0, iso = 0;
	int i;

	for (i = 0; i < CB_ATTR_NR; i++) {
		add(by, cb_attr_names[i], work_json(&st->work[i]));
		if (i == CB_ATTR_UNKNOWN)
			continue;
		ms += st->work[i].migrate_scanned;
		fs += st->work[i].free_scanned;
		iso += st->work[i].migrate_isolated + st->work[i].free_isolated;
	}
	add(o, "by_attribution", by);
	if (!cb_stalls_recorded(st, "compaction:mm_compaction_isolate_migratepages")) {
		add(o, "trace_vs_vmstat", NULL);
		return o;
	}
	x = json_object_new_object();
	versus(x, "migrate_scanned", ms, before, after, "compact_migrate_scanned");
	versus(x, "free_scanned", fs, before, after, "compact_free_scanned");
	versus(x, "isolated", iso, before, after, "compact_isolated");
	add(x, "note", json_object_new_string("vmstat counts a run's scanning when it ends; runs "
					      "open at the window's edges make the two differ"));
	add(o, "trace_vs_vmstat", x);
	return o;
}

const char *cb_migratetype_name(int mt, char *buf, size_t len)
{
	static const char *const names[] = { "Unmovable", "Movable", "Reclaimable", "HighAtomic" };

	if (mt >= 0 && mt < 4)
		return names[mt];
	snprintf(buf, len, "%s%d", mt == CB_MT_NR - 1 ? ">=" : "", mt);
	return buf;
}

struct json_object *cb_summary_extfrag_json(const struct cb_stalls *st)
{
	struct json_object *o, *arr;
	char b1[16], b2[16];
	int a, f;

	if (!cb_stalls_recorded(st, "kmem:mm_page_alloc_extfrag"))
		return NULL;
	o = json_object_new_object();
	arr = json_object_new_array();
	add(o, "events", u64(st->extfrag_events));
	add(o, "pageblock_order", json_object_new_int(st->pageblock_order));
	for (a = 0; a < CB_MT_NR; a++)
		for (f = 0; f < CB_MT_NR; f++) {
			const struct cb_extfrag *x = &st->extfrag[a][f];
			struct json_object *r;

			if (!x->events)
				continue;
			r = json_object_new_object();
			add(r, "alloc",
			    json_object_new_string(cb_migratetype_name(a, b1, sizeof(b1))));
			add(r, "fallback",
			    json_object_new_string(cb_migratetype_name(f, b2, sizeof(b2))));
			add(r, "events", u64(x->events));
			add(r, "change_ownership", u64(x->change_ownership));
			add(r, "fragmenting", u64(x->fragmenting));
			json_object_array_add(arr, r);
		}
	add(o, "fallbacks", arr);
	return o;
}

struct json_object *cb_summary_frag_json(const struct cb_agentdata *a)
{
	struct json_object *o;

	if (!a || !a->has_samples)
		return NULL;
	o = json_object_new_object();
	add(o, "file", json_object_new_string("samples.csv"));
	add(o, "samples", json_object_new_int(a->samples));
	add(o, "score", json_object_new_string("fragmentation_score_node() of the worst node"));
	add(o, "score_start", u64(a->score_start));
	add(o, "score_end", u64(a->score_end));
	add(o, "score_max", u64(a->score_max));
	return o;
}

struct json_object *cb_summary_cpu_json(const struct cb_agentdata *a, const struct cb_stalls *st)
{
	struct json_object *o;

	if (!a || !a->has_cpu)
		return NULL;
	o = json_object_new_object();
	add(o, "source", json_object_new_string(a->cpu.source[0] ? a->cpu.source : "none"));
	add(o, "threads", json_object_new_int(a->cpu.tasks));
	add(o, "kcompactd_ns", u64(a->cpu.kcompactd_ns));
	add(o, "khugepaged_ns", u64(a->cpu.khugepaged_ns));
	add(o, "policy_ns", u64(a->policy_cpu_ns));
	add(o, "policy", a->has_policy ? json_object_new_string("wmark.json") : NULL);
	add(o, "direct_compaction_ns", st ? u64(st->total_ns) : NULL);
	return o;
}

/* {"package_j","dram_j"}; null for a domain the machine has no zone or counter of */
static struct json_object *domains_json(const double *j, const int *n)
{
	struct json_object *o = json_object_new_object();
	char key[32];

	for (int d = 0; d < CB_ENERGY_NR_DOMAINS; d++) {
		snprintf(key, sizeof(key), "%s_j", cb_energy_domain_name(d));
		add(o, key, n[d] ? cb_json_num(j[d]) : NULL);
	}
	return o;
}

struct json_object *cb_summary_energy_json(const struct cb_agentdata *a, const struct cb_stalls *st,
					   double watts)
{
	struct json_object *o = json_object_new_object(), *p;
	bool modeled = a && a->has_cpu && st;

	add(o, "source", json_object_new_string(a && a->source ? a->source : "modeled"));
	add(o, "rapl_j", a && a->measured ? cb_json_num(a->rapl_j) : NULL);
	add(o, "domains", a && a->measured ? domains_json(a->rapl_domain_j, a->rapl_domain_n) : NULL);
	add(o, "rapl_zones", json_object_new_int(a && a->has_energy ? a->rapl_zones : 0));
	p = NULL;
	if (a && a->rapl_zones) {
		const struct cb_energy_sum *s = &a->powercap;

		p = json_object_new_object();
		add(p, "j", a->powercap_ok ? cb_json_num(s->total_j) : NULL);
		add(p, "domains", a->powercap_ok ? domains_json(s->j, s->nz) : NULL);
		add(p, "zones", json_object_new_int(s->zones));
		add(p, "readings", json_object_new_int(a->powercap_readings));
		add(p, "wraps", json_object_new_int(s->wraps));
		add(p, "max_interval_s", s->max_gap_s >= 0 ? cb_json_num(s->max_gap_s) : NULL);
		add(p, "wrap_period_s", cb_json_num(s->wrap_s));
		add(p, "note", a->powercap_note[0] ? json_object_new_string(a->powercap_note) : NULL);
	}
	add(o, "powercap", p);
	p = NULL;
	if (a && a->has_perf) {
		p = json_object_new_object();
		add(p, "j", cb_json_num(a->perf_total_j));
		add(p, "domains", domains_json(a->perf_j, a->perf_n));
		add(p, "counters", json_object_new_int(a->perf_counters));
	}
	add(o, "perf_power", p);
	add(o, "modeled_j", modeled ? cb_json_num(cb_energy_modeled(
		(double)(a->cpu.kcompactd_ns + a->cpu.khugepaged_ns + a->policy_cpu_ns +
			 st->total_ns), watts)) : NULL);
	add(o, "model", json_object_new_string("modeled: (kcompactd + khugepaged + wmark policy CPU "
					       "ns + direct compaction stall ns) x watts_per_busy_core"));
	add(o, "watts_per_busy_core", cb_json_num(watts));
	return o;
}
