/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * demand_passes.h - test_qemu_demand's back-off half: the demand-driven kcompactd's passes
 * as their target events show them, and the interval rule the series applies after each
 * (see demand_passes.c).
 */
#ifndef CB_DEMAND_PASSES_H
#define CB_DEMAND_PASSES_H

#include <stdbool.h>
#include <stddef.h>

#include "demand_trace.h"

/* a demand pass as its target events show it */
struct pass_info {
	unsigned long long start, end;
	long nr;		/* the node's pass number */
	long interval_ms;	/* the interval it set, as later demand events report it */
	bool progress;		/* a zone it compacted got closer to its targets */
	bool met;		/* every zone's targets met at its end, as the trace shows */
	/* if it got closer: the zone, an order that did, its free pages and its target */
	long zone, order, free_before, free_after, target;
};

/*
 * demand_passes - @c's passes into @p (at most @max), in time order: when each ran, the
 * interval the first demand event after it reports, whether it got closer to its targets
 * or met them. Returns how many. cmocka assertions on events out of range.
 */
size_t demand_passes(const struct demand_count *c, struct pass_info *p, size_t max);

/*
 * demand_passes_progressed - print the passes of @p[0..@n) that met their targets or got
 * closer, with their figures; returns the index of the first pass after the last of them
 * (0 if none), from which the interval only doubles.
 */
size_t demand_passes_progressed(const struct pass_info *p, size_t n);

/*
 * demand_pass_rule_holds - whether the interval after @pi follows the series' back-off rule,
 * @prev being the interval before it.
 */
bool demand_pass_rule_holds(const struct pass_info *pi, long prev);

#endif
