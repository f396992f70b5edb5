/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wl_stats.h - latency statistics of the workload programs: nearest-rank percentiles and
 * log2 histograms.
 */
#ifndef CB_WL_STATS_H
#define CB_WL_STATS_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define WL_LOG2_BUCKETS 64 /* bucket k holds values in [2^k, 2^(k+1)); 0 goes to bucket 0 */

struct wl_latency {
	size_t n;
	uint64_t p50, p90, p99, max;
	double mean;
};

/*
 * wl_nearest_rank - the @per10k/10000 percentile of the @n sorted values @v, nearest-rank:
 * the value of rank ceil(per10k * n / 10000) (1-based; at least 1). Integer arithmetic, so
 * p99 of 100 values is exactly the 99th. Returns 0 if @n is 0.
 */
uint64_t wl_nearest_rank(const uint64_t *v, size_t n, unsigned int per10k);

/* wl_latency_summarize - sort @v (@n values) in place and fill @out */
void wl_latency_summarize(uint64_t *v, size_t n, struct wl_latency *out);

/* wl_latency_json - {"p50","p90","p99","max","mean"} of @l, or a JSON null if it has none */
struct json_object *wl_latency_json(const struct wl_latency *l);

/* wl_log2_bucket - the log2 bucket of @v: floor(log2(v)), 0 for 0 and 1 */
unsigned int wl_log2_bucket(uint64_t v);

#endif
