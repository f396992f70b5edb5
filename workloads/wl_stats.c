// SPDX-License-Identifier: GPL-2.0-only
/*
 * wl_stats.c - nearest-rank percentiles and log2 buckets.
 */
#include <stdlib.h>

#include "wl_json.h"
#include "wl_stats.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * wl_nearest_rank - the @per10k/10000 percentile of the @n sorted values @v, nearest-rank:
 * the value of rank ceil(per10k * n / 10000) (1-based; at least 1). Integer arithmetic, so
 * p99 of 100 values is exactly the 99th. Returns 0 if @n is 0.
 */
uint64_t wl_nearest_rank(const uint64_t *v, size_t n, unsigned int per10k)
{
	uint64_t rank;

	if (!n)
		return 0;
	if (per10k > 10000)
		per10k = 10000;
	rank = ((uint64_t)per10k * n + 9999) / 10000;
	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

/* wl_latency_summarize - sort @v (@n values) in place and fill @out */
void wl_latency_summarize(uint64_t *v, size_t n, struct wl_latency *out)
{
	long double sum = 0;
	size_t i;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++)
		sum += v[i];
	out->n = n;
	out->p50 = wl_nearest_rank(v, n, 5000);
	out->p90 = wl_nearest_rank(v, n, 9000);
	out->p99 = wl_nearest_rank(v, n, 9900);
	out->max = n ? v[n - 1] : 0;
	out->mean = n ? (double)(sum / n) : 0.0;
}

/* wl_latency_json - {"p50","p90","p99","max","mean"} of @l, or a JSON null if it has none */
struct json_object *wl_latency_json(const struct wl_latency *l)
{
	struct json_object *o;

	if (!l->n)
		return NULL;
	o = json_object_new_object();
	wl_json_int(o, "p50", (int64_t)l->p50);
	wl_json_int(o, "p90", (int64_t)l->p90);
	wl_json_int(o, "p99", (int64_t)l->p99);
	wl_json_int(o, "max", (int64_t)l->max);
	wl_json_real(o, "mean", l->mean);
	return o;
}

/* wl_log2_bucket - the log2 bucket of @v: floor(log2(v)), 0 for 0 and 1 */
unsigned int wl_log2_bucket(uint64_t v)
{
	return v < 2 ? 0 : 63 - (unsigned int)__builtin_clzll(v);
}
