// SPDX-License-Identifier: GPL-2.0-only
/*
 * waves_json.c - summary.json's "waves" section (the per-wave series: the learning curve,
 * readiness, waste) and "breakup" section; the schema is in analysis/README.md.
 */
#include "summary_json.h"
#include "waves.h"
#include "waves_json.h"

#include <json-c/json.h>
#include <stdio.h>

/* blocks of order @k the free lists could give: sum over j >= k of free[j] * 2^(j-k) */
static double capacity(const uint64_t *free, int k)
{
	double c = 0;

	for (int j = k; j <= CB_WAVES_MAX_ORDER; j++)
		c += (double)free[j] * (double)(1ULL << (j - k));
	return c;
}

static struct json_object *ready_json(const struct cb_wave *w)
{
	static const int orders[] = { 1, 2, 3, 4, 9 };
	struct json_object *r, *f, *cap;
	char k[8];

	if (!w->has_ready)
		return NULL;
	r = json_object_new_object();
	f = json_object_new_array();
	cap = json_object_new_object();
	for (int o = 0; o <= CB_WAVES_MAX_ORDER; o++)
		json_object_array_add(f, json_object_new_int64((int64_t)w->free[o]));
	for (size_t i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		snprintf(k, sizeof(k), "%d", orders[i]);
		json_object_object_add(cap, k, cb_json_num(capacity(w->free, orders[i])));
	}
	json_object_object_add(r, "t_ns", json_object_new_int64((int64_t)w->ready_t));
	json_object_object_add(r, "free", f);
	json_object_object_add(r, "o9_units", cb_json_num(cb_free_units9(w->free)));
	json_object_object_add(r, "capacity", cap);
	return r;
}

/* the latency keys of kind @k as the wave line gave them (absent ones null) */
static void lat_json(struct json_object *o, const struct cb_wave *w, int k)
{
	static const char *const names[3] = { "fault_ns_p50", "fault_ns_p99", "fault_ns_max" };

	for (int i = 0; i < 3; i++)
		json_object_object_add(o, names[i], w->has_lat[k][i] ? cb_json_num(w->lat[k][i]) :
				       NULL);
}

static struct json_object *wave_json(const struct cb_wave *w)
{
	struct json_object *o = json_object_new_object(), *kinds = json_object_new_array(), *x;

	json_object_object_add(o, "index", json_object_new_int64(w->index));
	json_object_object_add(o, "start_ns", json_object_new_int64((int64_t)w->start));
	json_object_object_add(o, "end_ns", json_object_new_int64((int64_t)w->end));
	if (w->kinds & CB_WAVE_THP)
		json_object_array_add(kinds, json_object_new_string("thp"));
	if (w->kinds & CB_WAVE_KERNEL)
		json_object_array_add(kinds, json_object_new_string("kernel"));
	json_object_object_add(o, "kinds", kinds);
	json_object_object_add(o, "requested_bytes", cb_json_num(w->requested_bytes));
	json_object_object_add(o, "stalls", json_object_new_int64((int64_t)w->stalls));
	json_object_object_add(o, "stall_ns", cb_json_num(w->stall_ns));
	if (w->kinds & CB_WAVE_THP) {
		x = json_object_new_object();
		json_object_object_add(x, "faults", json_object_new_int64((int64_t)w->faults));
		json_object_object_add(x, "thp", json_object_new_int64((int64_t)w->thp));
		json_object_object_add(x, "success", w->faults ? cb_json_num((double)w->thp /
				       (double)w->faults) : NULL);
		lat_json(x, w, 0);
		json_object_object_add(o, "thp", x);
	}
	if (w->kinds & CB_WAVE_KERNEL) {
		x = json_object_new_object();
		json_object_object_add(x, "allocs", json_object_new_int64((int64_t)w->allocs));
		json_object_object_add(x, "failed", json_object_new_int64((int64_t)w->failed));
		lat_json(x, w, 1);
		json_object_object_add(o, "kernel", x);
	}
	json_object_object_add(o, "ready", ready_json(w));
	x = NULL;
	if (w->has_breakup) {
		x = json_object_new_object();
		json_object_object_add(x, "before", cb_json_num(w->breakup_before));
		json_object_object_add(x, "during", cb_json_num(w->breakup_during));
	}
	json_object_object_add(o, "breakup_o9_est", x);
	return o;
}

/* [from, to) of the waves as a JSON pair */
static struct json_object *range_json(size_t from, size_t to)
{
	struct json_object *a = json_object_new_array();

	json_object_array_add(a, json_object_new_int64((int64_t)from));
	json_object_array_add(a, json_object_new_int64((int64_t)to));
	return a;
}

struct json_object *cb_waves_json(const struct cb_waves *ws)
{
	struct json_object *o, *series;
	size_t fe, lf;
	bool curve;

	if (!ws->present)
		return NULL;
	o = json_object_new_object();
	series = json_object_new_array();
	curve = !cb_waves_first_last(ws, &fe, &lf);
	json_object_object_add(o, "file", json_object_new_string(ws->file));
	json_object_object_add(o, "arrival", json_object_new_string(ws->arrival));
	json_object_object_add(o, "period_s", cb_json_num(ws->period_s));
	json_object_object_add(o, "count", json_object_new_int64(ws->count));
	json_object_object_add(o, "seed", json_object_new_int64(ws->seed));
	json_object_object_add(o, "recorded", json_object_new_int64((int64_t)ws->n));
	json_object_object_add(o, "stalls_outside", json_object_new_int64((int64_t)ws->outside));
	json_object_object_add(o, "stall_ns_outside", cb_json_num(ws->outside_ns));
	json_object_object_add(o, "first_quarter", curve ? range_json(0, fe) : NULL);
	json_object_object_add(o, "last_half", curve ? range_json(lf, ws->n) : NULL);
	for (size_t i = 0; i < ws->n; i++)
		json_object_array_add(series, wave_json(&ws->w[i]));
	json_object_object_add(o, "series", series);
	return o;
}

struct json_object *cb_breakup_json(const struct cb_waves *ws)
{
	struct json_object *o;

	if (!ws->has_breakup)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "estimate", json_object_new_string(
		"lower bound: sum over sample intervals of max(0, drop of free order>=9 blocks - "
		"order>=9 allocations in the interval), in order-9 blocks"));
	json_object_object_add(o, "blocks_o9", cb_json_num(ws->breakup));
	json_object_object_add(o, "intervals", json_object_new_int64((int64_t)ws->intervals));
	json_object_object_add(o, "interval_ns_median", cb_json_num(ws->interval_ns_median));
	json_object_object_add(o, "allocs_o9_units", json_object_new_int64((int64_t)ws->big_allocs));
	json_object_object_add(o, "allocs_from", json_object_new_string(ws->big_allocs_vmstat ?
		"samples.csv thp_alloc (THP only: other order>=9 allocations count as break-ups)" :
		"trace kmem:mm_page_alloc"));
	return o;
}
