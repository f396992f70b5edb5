/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * waves.h - recurring demand: when the waves of a demand program arrive, and the JSON lines
 * that record them (the interface the analyzer cuts its per-wave metrics by).
 *
 * Wave 0 arrives when the waves begin; wave i > 0 arrives a gap after wave i-1's arrival:
 * the period P ("periodic"), or a draw of an exponential distribution of mean P
 * ("poisson": GSL's gsl_ran_exponential on a gsl_rng_mt19937 seeded with the seed, one draw
 * per gap, in seconds, rounded to the nearest ns). A wave starts at its arrival, or when
 * the wave before it ended if that is later: waves never overlap.
 *
 * Lines (CLOCK_MONOTONIC ns, the trace's "mono" clock):
 *   {"type":"waves","arrival":"periodic"|"poisson","period_s":P,"count":N,"seed":S,
 *    "clock":"CLOCK_MONOTONIC","hold_s":H}                      once, before the first wave
 *   {"type":"wave","index":I,"start_ns":T0,"end_ns":T1,"kind":"thp"|"kernel",
 *    "requested_bytes":B,"arrival_ns":A,...}                    when wave I ends
 * A kind adds its own keys (wave_latency_add gives the latency ones).
 */
#ifndef CB_WAVES_H
#define CB_WAVES_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>
#include <json-c/json.h>

struct wl_args;

enum wave_arrival { WAVE_PERIODIC, WAVE_POISSON };

struct waves {
	uint64_t count;		/* waves asked for; 0: no waves (one burst) */
	enum wave_arrival arrival;
	double period_s;	/* the period, or the mean gap */
	uint64_t seed;
	double hold_s;		/* a wave's memory is kept this long after its last operation */
	gsl_rng *rng;		/* for poisson */
};

/* one wave, as its line reports it */
struct wave_rec {
	uint64_t index, arrival_ns, start_ns, end_ns, requested_bytes;
	const char *kind;	/* "thp" or "kernel" */
};

/*
 * waves_resolve - @w from the options "waves", "arrival", "period", "seed" and (if the program
 * has it) "wave-hold" of @a. Returns 0, or -1 with errno set (ENOMEM: no generator).
 */
int waves_resolve(struct waves *w, const struct wl_args *a);

/* waves_free - free what waves_resolve allocated */
void waves_free(struct waves *w);

/* waves_gap_ns - the gap before the next wave's arrival (the next draw for poisson) */
uint64_t waves_gap_ns(struct waves *w);

/* waves_emit_header - print the "waves" line */
void waves_emit_header(const struct waves *w);

/* wave_line - a new "wave" line with the members of @r; the caller adds its own, then emits */
struct json_object *wave_line(const struct wave_rec *r);

/*
 * wave_latency_add - "<prefix>_p50", "<prefix>_p99", "<prefix>_max" (ns, nearest rank; null
 * when @n is 0) and "<prefix>_sum" (0 when @n is 0) of the @n latencies @lat into @o.
 * @lat is not changed.
 */
void wave_latency_add(struct json_object *o, const char *prefix, const uint64_t *lat, uint64_t n);

/* one wave: fill in @r's start_ns and end_ns, print its line; non-zero to stop the waves */
typedef int (*waves_fn)(void *arg, struct wave_rec *r, uint64_t end_ns);

/*
 * waves_run - the waves of @w within @limit_s: wait for each arrival, then call
 * @fn(@arg, rec, end) with rec's index, kind, requested_bytes (@kind, @requested) and
 * arrival filled in. Returns "done" (every wave ran), "duration", "signal", or NULL when
 * @fn returned non-zero (it says why itself). Bounded by @w->count waves and @limit_s.
 */
const char *waves_run(struct waves *w, double limit_s, const char *kind, uint64_t requested,
		      waves_fn fn, void *arg);

#endif
