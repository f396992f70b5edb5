// SPDX-License-Identifier: GPL-2.0-only
/*
 * hist.c - log-linear histogram buckets and percentile summaries.
 */
#include "hist.h"

#include <string.h>

#include <gsl/gsl_statistics_double.h>

const double cb_pct_q[CB_PCT_NR] = { 0.50, 0.90, 0.99, 0.999 };
const char *const cb_pct_names[CB_PCT_NR] = { "p50", "p90", "p99", "p99.9" };

int cb_hist_bucket(uint64_t ns)
{
	uint64_t p = 1;
	int e;

	if (ns < 1)
		return 0;
	for (e = 0; e < CB_HIST_DECADES; e++, p *= 10) {
		if (ns < p * 10)
			return 1 + 9 * e + (int)(ns / p) - 1;
	}
	return CB_HIST_BUCKETS - 1;
}

void cb_hist_bounds(int b, uint64_t *lo, uint64_t *hi)
{
	uint64_t p = 1;
	int e, k;

	if (b <= 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	if (b >= CB_HIST_BUCKETS)
		b = CB_HIST_BUCKETS - 1;
	e = (b - 1) / 9;
	k = (b - 1) % 9 + 1;
	while (e--)
		p *= 10;
	*lo = k * p;
	*hi = (k + 1) * p;
}

void cb_hist_add(struct cb_hist *h, uint64_t ns)
{
	h->count[cb_hist_bucket(ns)]++;
}

void cb_dist_from_sorted(const double *sorted, size_t n, struct cb_dist *d)
{
	size_t i;
	int k;

	memset(d, 0, sizeof(*d));
	d->n = n;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		d->total += sorted[i];
	d->max = sorted[n - 1];
	for (k = 0; k < CB_PCT_NR; k++)
		d->pct[k] = gsl_stats_quantile_from_sorted_data(sorted, 1, n, cb_pct_q[k]);
}
