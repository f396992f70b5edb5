/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hist.h - latency distributions: the percentile set every stall split reports and the
 * log-linear histogram (DTrace llquantize with factor 10, 9 linear steps per decade).
 *
 * Buckets: [0, 1) ns is bucket 0; then for every decade 10^e (e = 0..CB_HIST_DECADES-1)
 * nine buckets [k * 10^e, (k + 1) * 10^e), k = 1..9. 1-2 ns, 2-3 ns, ..., 9-10 ns,
 * 10-20 ns, ..., 90-100 ns, 100-200 ns, ... up to 10^13 ns; longer values land in the last
 * bucket. Bucket bounds are exact integers, so a value's bucket does not depend on floating
 * point rounding.
 */
#ifndef CB_HIST_H
#define CB_HIST_H

#include <stddef.h>
#include <stdint.h>

#define CB_HIST_DECADES 13
#define CB_HIST_BUCKETS (1 + 9 * CB_HIST_DECADES)

struct cb_hist {
	uint64_t count[CB_HIST_BUCKETS];
};

/* cb_hist_bucket - the bucket of @ns */
int cb_hist_bucket(uint64_t ns);

/* cb_hist_bounds - the [@lo, @hi) bounds in ns of bucket @b (the last one's @hi is its own) */
void cb_hist_bounds(int b, uint64_t *lo, uint64_t *hi);

/* cb_hist_add - count @ns in @h */
void cb_hist_add(struct cb_hist *h, uint64_t ns);

/* the percentiles every stall distribution reports, by GSL (linear interpolation) */
enum cb_pct { CB_P50, CB_P90, CB_P99, CB_P999, CB_PCT_NR };

extern const double cb_pct_q[CB_PCT_NR];
extern const char *const cb_pct_names[CB_PCT_NR];

/* a distribution's summary: count, total, percentiles, max; all 0 when n == 0 */
struct cb_dist {
	uint64_t n;
	double total, max;
	double pct[CB_PCT_NR];
};

/*
 * cb_dist_from_sorted - the summary of @n values sorted ascending
 * (gsl_stats_quantile_from_sorted_data at each cb_pct_q; max is the last value)
 */
void cb_dist_from_sorted(const double *sorted, size_t n, struct cb_dist *d);

#endif
