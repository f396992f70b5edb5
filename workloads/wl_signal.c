// SPDX-License-Identifier: GPL-2.0-only
/*
 * wl_signal.c - SIGINT/SIGTERM set a flag; loops poll it and sleeps are cut short.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "util.h"
#include "wl_args.h"
#include "wl_signal.h"

/*
 * A signal that comes between a wl_stopping() check and the sleep after it is only seen
 * when that sleep ends, so sleeps are taken in slices of at most this long.
 */
#define SLEEP_SLICE_NS 100000000ULL

volatile sig_atomic_t wl_stop_signal;

static void on_stop(int sig)
{
	wl_stop_signal = sig;
}

/* wl_signal_install - catch SIGINT and SIGTERM; returns 0 or -1 with errno set */
int wl_signal_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: blocking calls return EINTR */
	if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0)
		return -1;
	return 0;
}

/* wl_signal_name - "SIGINT", "SIGTERM", or NULL while no stop signal has come */
const char *wl_signal_name(void)
{
	switch (wl_stop_signal) {
	case 0:
		return NULL;
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	default:
		return "signal";
	}
}

/*
 * wl_sleep_until - sleep until CLOCK_MONOTONIC reaches @deadline_ns or a stop signal comes
 * Returns true if the deadline was reached, false if a stop signal cut the sleep short.
 */
bool wl_sleep_until(uint64_t deadline_ns)
{
	uint64_t now;

	while (!wl_stopping() && (now = cb_now_ns()) < deadline_ns) {
		uint64_t until = deadline_ns - now > SLEEP_SLICE_NS ? now + SLEEP_SLICE_NS
								    : deadline_ns;
		struct timespec ts = {
			.tv_sec = until / 1000000000ULL,
			.tv_nsec = until % 1000000000ULL,
		};

		/* EINTR: the loop condition looks at the flag */
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return !wl_stopping();
}

/* wl_signal_exit_code - 128 + the stop signal (130, 143), or 0 if none came */
int wl_signal_exit_code(void)
{
	return wl_stop_signal ? 128 + wl_stop_signal : 0;
}

/* wl_hold_resolve - fill @h from the options "hold" and "max-hold" of @a */
void wl_hold_resolve(struct wl_hold *h, const struct wl_args *a)
{
	double max_hold = wl_arg_duration(a, "max-hold");

	h->hold_s = wl_arg_duration(a, "hold");
	/* 0 means "until a signal": bounded all the same, so a lost harness leaves nothing */
	h->capped = h->hold_s == 0 || h->hold_s > max_hold;
	if (h->capped)
		h->hold_s = max_hold;
	h->held_s = 0;
	h->end = NULL;
}

/* wl_hold_run - sleep for h->hold_s or until a stop signal; sets h->held_s and h->end */
void wl_hold_run(struct wl_hold *h)
{
	uint64_t t0 = cb_now_ns();

	if (wl_sleep_until(t0 + (uint64_t)(h->hold_s * 1e9)))
		h->end = h->capped ? "max-hold" : "time";
	else
		h->end = "signal";
	h->held_s = (double)(cb_now_ns() - t0) / 1e9;
}
