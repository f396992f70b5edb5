// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary_probe.c - the probe method's sections of summary.json and of `analyze FILE.dat`:
 * "probe" (the slow-path calls and their stalls) and "method_comparison" (how far the
 * tracepoint method is from the probe method). analysis/README.md has the schema.
 */
#include "summary_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_sort.h>
#include <json-c/json.h>

const char *cb_stalls_method(const struct cb_stalls *st)
{
	return st->probe.present ? "probe" : "tracepoint";
}

static struct json_object *u64j(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

/*
 * the sorted durations of the probe stalls that spent time in direct compaction (the
 * ones the tracepoint method can see), and the summary of all of them or of one order
 * (@order < 0: all); @dc_only: only those with dc_ns > 0
 */
static int probe_dist(const struct cb_pstalls *p, int order, bool dc_only, struct cb_dist *d,
		      struct cb_hist *h)
{
	double *v = malloc((p->n ? p->n : 1) * sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return -1;
	for (i = 0; i < p->n; i++) {
		if ((order >= 0 && p->rec[i].order != order) || (dc_only && !p->rec[i].dc_ns))
			continue;
		v[n++] = (double)p->rec[i].ns;
		if (h)
			cb_hist_add(h, p->rec[i].ns);
	}
	gsl_sort(v, 1, n);
	cb_dist_from_sorted(v, n, d);
	free(v);
	return 0;
}

struct json_object *cb_summary_probe_json(const struct cb_stalls *st)
{
	const struct cb_pstalls *p = &st->probe;
	struct json_object *o, *ord;
	struct cb_hist h = { { 0 } };
	struct cb_dist d;
	bool seen[CB_STALLS_MAX_ORDER + 2] = { false };
	size_t i;
	int k;

	if (!p->present)
		return NULL;
	o = json_object_new_object();
	ord = json_object_new_object();
	json_object_object_add(o, "system", json_object_new_string(p->system));
	json_object_object_add(o, "calls", u64j(p->calls));
	json_object_object_add(o, "stalls", u64j(p->stalls));
	json_object_object_add(o, "truncated", u64j(p->truncated));
	json_object_object_add(o, "cut_by_loss", u64j(p->cut_by_loss));
	json_object_object_add(o, "unmatched_returns", u64j(p->unmatched));
	json_object_object_add(o, "lost_returns", u64j(p->lost_ret));
	json_object_object_add(o, "outside_window", u64j(p->outside));
	json_object_object_add(o, "direct_compact_calls", u64j(p->dc_calls));
	json_object_object_add(o, "direct_reclaims", u64j(p->reclaims));
	json_object_object_add(o, "total_ns", u64j(p->total_ns));
	json_object_object_add(o, "direct_compact_ns", u64j(p->dc_ns));
	json_object_object_add(o, "direct_reclaim_ns", u64j(p->reclaim_ns));
	if (!probe_dist(p, -1, false, &d, &h))
		json_object_object_add(o, "all", cb_summary_dist_json(&d, &h));
	for (i = 0; i < p->n; i++) {
		k = p->rec[i].order;
		if (k >= 0 && k <= CB_STALLS_MAX_ORDER)
			seen[k] = true;
	}
	for (k = 0; k <= CB_STALLS_MAX_ORDER; k++) {
		char key[8];

		if (!seen[k] || probe_dist(p, k, false, &d, NULL))
			continue;
		snprintf(key, sizeof(key), "%d", k);
		json_object_object_add(ord, key, cb_summary_dist_json(&d, NULL));
	}
	json_object_object_add(o, "by_order", ord);
	return o;
}

/* {"probe": a, "tracepoint": b, "diff": b - a} */
static struct json_object *pair(double a, double b, bool have)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "probe", have ? cb_json_num(a) : NULL);
	json_object_object_add(o, "tracepoint", have ? cb_json_num(b) : NULL);
	json_object_object_add(o, "diff", have ? cb_json_num(b - a) : NULL);
	return o;
}

int cb_method_comparison(const struct cb_stalls *st, struct cb_dist *probe, struct cb_dist *tp)
{
	if (!st->probe.present) {
		errno = ENODATA;
		return -1;
	}
	cb_dist_from_sorted(st->ns, st->n, tp);
	return probe_dist(&st->probe, -1, true, probe, NULL);
}

struct json_object *cb_summary_method_comparison_json(const struct cb_stalls *st)
{
	struct cb_dist p, t;
	struct json_object *o;
	bool both;

	if (cb_method_comparison(st, &p, &t))
		return NULL;
	both = p.n && t.n;
	o = json_object_new_object();
	json_object_object_add(o, "reference", json_object_new_string("probe"));
	json_object_object_add(o, "probe_set", json_object_new_string(
		"slow-path calls with direct compaction time > 0 (entry to return)"));
	json_object_object_add(o, "tracepoint_set", json_object_new_string(
		"dc_stalls (try_to_compact_pages to the attempt's end)"));
	json_object_object_add(o, "count", pair((double)p.n, (double)t.n, true));
	json_object_object_add(o, "p50_ns", pair(p.pct[CB_P50], t.pct[CB_P50], both));
	json_object_object_add(o, "p99_ns", pair(p.pct[CB_P99], t.pct[CB_P99], both));
	return o;
}
