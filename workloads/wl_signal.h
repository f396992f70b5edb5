/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wl_signal.h - SIGINT/SIGTERM handling for the workload programs.
 *
 * The handler only records the signal; the programs check wl_stopping() in their loops,
 * then free what they hold and print their summary. The handler is installed without
 * SA_RESTART, so a sleep returns early when a signal arrives.
 */
#ifndef CB_WL_SIGNAL_H
#define CB_WL_SIGNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/* the stop signal received (SIGINT or SIGTERM), 0 while none has come */
extern volatile sig_atomic_t wl_stop_signal;

/* wl_signal_install - catch SIGINT and SIGTERM; returns 0 or -1 with errno set */
int wl_signal_install(void);

/* wl_stopping - whether a stop signal has arrived */
static inline bool wl_stopping(void)
{
	return wl_stop_signal != 0;
}

/* wl_signal_name - "SIGINT", "SIGTERM", or NULL while no stop signal has come */
const char *wl_signal_name(void);

/*
 * wl_sleep_until - sleep until CLOCK_MONOTONIC reaches @deadline_ns or a stop signal comes
 * Returns true if the deadline was reached, false if a stop signal cut the sleep short.
 */
bool wl_sleep_until(uint64_t deadline_ns);

struct wl_args;

/* how long a fragmenter holds its state after "ready" (its --hold and --max-hold options) */
struct wl_hold {
	double hold_s;	  /* the time to hold, --max-hold when --hold is 0 or above it */
	bool capped;	  /* hold_s came from --max-hold */
	double held_s;	  /* how long it held */
	const char *end;  /* "time", "max-hold" or "signal"; NULL before wl_hold_run */
};

/* wl_hold_resolve - fill @h from the options "hold" and "max-hold" of @a */
void wl_hold_resolve(struct wl_hold *h, const struct wl_args *a);

/* wl_hold_run - sleep for h->hold_s or until a stop signal; sets h->held_s and h->end */
void wl_hold_run(struct wl_hold *h);

/* wl_signal_exit_code - 128 + the stop signal (130, 143), or 0 if none came */
int wl_signal_exit_code(void);

#endif
