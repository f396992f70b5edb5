/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exchange.h - the exchange rate: background CPU spent per unit of direct-compaction stall
 * time avoided, a candidate against a baseline. One definition for the run report, compare
 * and the cost plot.
 */
#ifndef CB_EXCHANGE_H
#define CB_EXCHANGE_H

struct cb_exchange {
	double cpu_more;	/* candidate - baseline background CPU (cpu_background_ns) */
	double stall_avoided;	/* baseline - candidate stall time (dc_stall_total_ns) */
	double rate;		/* cpu_more / stall_avoided; NAN when undefined */
};

/*
 * cb_exchange_rate - the exchange rate of a candidate against a baseline, from the two
 * sides' background CPU (@cpu_base, @cpu_cand) and stall time (@stall_base, @stall_cand),
 * all in the same unit (the medians over repetitions, in ns). Fills @out; returns 0, or -1
 * with errno EDOM when no stall time was avoided (stall_avoided <= 0): then only @out->rate
 * is NAN, the two differences are still filled in. A NAN input gives NAN values and 0.
 */
int cb_exchange_rate(double cpu_base, double cpu_cand, double stall_base, double stall_cand,
		     struct cb_exchange *out);

#endif
