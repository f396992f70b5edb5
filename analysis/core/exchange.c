// SPDX-License-Identifier: GPL-2.0-only
/*
 * exchange.c - the exchange rate (exchange.h).
 */
#include "exchange.h"

#include <errno.h>
#include <math.h>

int cb_exchange_rate(double cpu_base, double cpu_cand, double stall_base, double stall_cand,
		     struct cb_exchange *out)
{
	out->cpu_more = cpu_cand - cpu_base;
	out->stall_avoided = stall_base - stall_cand;
	out->rate = NAN;
	if (out->stall_avoided <= 0) {
		errno = EDOM;
		return -1;
	}
	out->rate = out->cpu_more / out->stall_avoided;
	return 0;
}
