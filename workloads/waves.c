// SPDX-License-Identifier: GPL-2.0-only
/*
 * waves.c - arrivals of recurring demand and the lines that record its waves (waves.h).
 * GSL draws the exponential gaps, so a test can recompute them from the seed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "util.h"
#include "waves.h"
#include "wl_args.h"
#include "wl_json.h"
#include "wl_signal.h"
#include "wl_stats.h"

static const char *const arrival_names[] = { "periodic", "poisson" };

/*
 * waves_resolve - @w from the options "waves", "arrival", "period", "seed" and "wave-hold"
 * of @a. Returns 0, or -1 with errno set (ENOMEM: no generator).
 */
int waves_resolve(struct waves *w, const struct wl_args *a)
{
	const char *arr = wl_arg_str(a, "arrival");

	memset(w, 0, sizeof(*w));
	w->count = (uint64_t)wl_arg_long(a, "waves");
	w->arrival = arr && !strcmp(arr, "poisson") ? WAVE_POISSON : WAVE_PERIODIC;
	w->period_s = wl_arg_duration(a, "period");
	w->seed = (uint64_t)wl_arg_long(a, "seed");
	w->hold_s = wl_find_option(a->wl, "wave-hold") ? wl_arg_duration(a, "wave-hold") : 0;
	if (w->count && w->arrival == WAVE_POISSON) {
		w->rng = gsl_rng_alloc(gsl_rng_mt19937);
		if (!w->rng) {
			errno = ENOMEM;
			return -1;
		}
		gsl_rng_set(w->rng, (unsigned long)w->seed);
	}
	return 0;
}

/* waves_free - free what waves_resolve allocated */
void waves_free(struct waves *w)
{
	if (w->rng)
		gsl_rng_free(w->rng);
	w->rng = NULL;
}

/* waves_gap_ns - the gap before the next wave's arrival (the next draw for poisson) */
uint64_t waves_gap_ns(struct waves *w)
{
	double s = w->period_s;

	if (w->arrival == WAVE_POISSON && w->rng)
		s = gsl_ran_exponential(w->rng, w->period_s);
	return (uint64_t)llround(s * 1e9);
}

/* waves_emit_header - print the "waves" line */
void waves_emit_header(const struct waves *w)
{
	struct json_object *o = wl_json_new("waves");

	wl_json_str(o, "arrival", arrival_names[w->arrival]);
	wl_json_real(o, "period_s", w->period_s);
	wl_json_int(o, "count", (int64_t)w->count);
	wl_json_int(o, "seed", (int64_t)w->seed);
	wl_json_str(o, "clock", "CLOCK_MONOTONIC");
	wl_json_real(o, "hold_s", w->hold_s);
	wl_json_str(o, "rng", w->arrival == WAVE_POISSON ? "gsl_rng_mt19937+gsl_ran_exponential"
							 : NULL);
	wl_json_emit(o);
}

/* wave_line - a new "wave" line with the members of @r; the caller adds its own, then emits */
struct json_object *wave_line(const struct wave_rec *r)
{
	struct json_object *o = wl_json_new("wave");

	wl_json_int(o, "index", (int64_t)r->index);
	wl_json_int(o, "start_ns", (int64_t)r->start_ns);
	wl_json_int(o, "end_ns", (int64_t)r->end_ns);
	wl_json_str(o, "kind", r->kind);
	wl_json_int(o, "requested_bytes", (int64_t)r->requested_bytes);
	wl_json_int(o, "arrival_ns", (int64_t)r->arrival_ns);
	return o;
}

/*
 * wave_latency_add - "<prefix>_p50", "<prefix>_p99", "<prefix>_max" (ns, nearest rank; null
 * when @n is 0) and "<prefix>_sum" (0 when @n is 0) of the @n latencies @lat into @o.
 * @lat is not changed.
 */
void wave_latency_add(struct json_object *o, const char *prefix, const uint64_t *lat, uint64_t n)
{
	uint64_t *v = n ? malloc(n * sizeof(*v)) : NULL;
	struct wl_latency l = { 0 };
	uint64_t sum = 0, i;
	char key[64];

	if (v) {
		memcpy(v, lat, n * sizeof(*v));
		wl_latency_summarize(v, n, &l);
	}
	snprintf(key, sizeof(key), "%s_p50", prefix);
	json_object_object_add(o, key, v ? json_object_new_int64((int64_t)l.p50) : NULL);
	snprintf(key, sizeof(key), "%s_p99", prefix);
	json_object_object_add(o, key, v ? json_object_new_int64((int64_t)l.p99) : NULL);
	snprintf(key, sizeof(key), "%s_max", prefix);
	json_object_object_add(o, key, v ? json_object_new_int64((int64_t)l.max) : NULL);
	snprintf(key, sizeof(key), "%s_sum", prefix);
	for (i = 0; i < n; i++)
		sum += lat[i];
	wl_json_int(o, key, (int64_t)sum);
	free(v);
}

/*
 * waves_run - the waves of @w within @limit_s: wait for each arrival, then call
 * @fn(@arg, rec, end) with rec's index, kind, requested_bytes (@kind, @requested) and
 * arrival filled in. Returns "done" (every wave ran), "duration", "signal", or NULL when
 * @fn returned non-zero (it says why itself). Bounded by @w->count waves and @limit_s.
 */
const char *waves_run(struct waves *w, double limit_s, const char *kind, uint64_t requested,
		      waves_fn fn, void *arg)
{
	uint64_t t0 = cb_now_ns(), end = t0 + (uint64_t)(limit_s * 1e9), arrival = t0;
	struct wave_rec r = { .kind = kind, .requested_bytes = requested };

	waves_emit_header(w);
	for (r.index = 0; r.index < w->count; r.index++) {
		if (r.index)
			arrival += waves_gap_ns(w);
		if (arrival >= end)
			return "duration";
		/* the arrivals keep their schedule: a wave after a late one starts at once */
		if (!wl_sleep_until(arrival))
			return "signal";
		r.arrival_ns = arrival;
		if (fn(arg, &r, end))
			return NULL;
	}
	return "done";
}
