// SPDX-License-Identifier: GPL-2.0-only
/*
 * demand_passes.c - the demand-driven kcompactd's passes, read from the target events of
 * a cell's trace (demand_trace.c), and the back-off rule of the series
 * (kcompactd_demand_backoff()), for test_qemu_demand's back-off check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "demand_passes.h"

#define NR_ZONES_SEEN 8

/*
 * a pass's target events per zone: traced before and after, kcompactd_zone_met() before
 * and after, the free pages of each order before, and the orders short of their target
 */
struct pass_zones {
	bool seen[NR_ZONES_SEEN], seen_after[NR_ZONES_SEEN];
	long met_before[NR_ZONES_SEEN], met_after[NR_ZONES_SEEN];
	long free_before[NR_ZONES_SEEN][NR_ORDERS];
	int short_before[NR_ZONES_SEEN], short_after[NR_ZONES_SEEN];
};

/*
 * kcompactd_zone_balanced() for every zone of the pass, at its end: a zone the pass
 * compacted by its after events, one it skipped (already balanced, or too low on free
 * memory to compact) by its before events
 */
static bool pass_met(const struct pass_zones *z)
{
	for (int i = 0; i < NR_ZONES_SEEN; i++)
		if (z->seen[i] && (z->seen_after[i] ? z->short_after[i] : z->short_before[i]))
			return false;
	return true;
}

/*
 * The interval each pass of @p[0..@n) set: the one the last demand event after its end
 * and up to the next pass's end reports (after the last pass: the last one at all), 0 if
 * none. Not the first event after it: the series traces a pass's last targets before it
 * sets the interval (kcompactd_demand_backoff()), so a demand event on the other vCPU in
 * between reports the interval before the pass; events during the next pass still report
 * this one, since that pass sets its own only at its end.
 */
static void passes_intervals(const struct demand_count *c, struct pass_info *p, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < c->nr && k < n; i++) {
		const struct ev *v = &c->ev[i];

		while (k + 1 < n && v->ts > p[k + 1].end)
			k++;
		if (v->kind == EV_DEMAND && v->ts > p[k].end)
			p[k].interval_ms = v->interval_ms;
	}
}

/* @c's passes into @p (at most @max), in time order; how many */
size_t demand_passes(const struct demand_count *c, struct pass_info *p, size_t max)
{
	struct pass_zones z = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < c->nr; i++) {
		const struct ev *v = &c->ev[i];
		struct pass_info *cur = n ? &p[n - 1] : NULL;

		if (v->kind != EV_TARGET)
			continue;
		assert_true(v->zone >= 0 && v->zone < NR_ZONES_SEEN);
		assert_true(v->order > 0 && v->order < NR_ORDERS);
		if (!cur || v->pass != cur->nr) {
			assert_true(n < max);
			if (cur)
				cur->met = pass_met(&z);
			memset(&z, 0, sizeof(z));
			cur = &p[n++];
			memset(cur, 0, sizeof(*cur));
			cur->start = v->ts;
			cur->nr = v->pass;
		}
		cur->end = v->ts;
		z.seen[v->zone] = true;
		/* kcompactd_zone_met(): the free pages of each order, capped by its target */
		if (!v->after) {
			z.met_before[v->zone] += v->nr_free < v->target ? v->nr_free : v->target;
			z.free_before[v->zone][v->order] = v->nr_free;
			z.short_before[v->zone] += v->nr_free < v->target;
			continue;
		}
		z.seen_after[v->zone] = true;
		z.short_after[v->zone] += v->nr_free < v->target;
		z.met_after[v->zone] += v->nr_free < v->target ? v->nr_free : v->target;
		if (!cur->progress && v->nr_free > z.free_before[v->zone][v->order] &&
		    z.free_before[v->zone][v->order] < v->target) {
			/* what to say: an order that got closer (one must, if the sum did) */
			cur->zone = v->zone;
			cur->order = v->order;
			cur->free_before = z.free_before[v->zone][v->order];
			cur->free_after = v->nr_free;
			cur->target = v->target;
		}
		if (z.met_after[v->zone] > z.met_before[v->zone])
			cur->progress = true;
	}
	if (n)
		p[n - 1].met = pass_met(&z);
	passes_intervals(c, p, n);
	return n;
}

/*
 * The passes that met their targets or brought them closer, as the trace shows, said with
 * their figures; the index of the first pass after the last of them (0 if none did). Such a
 * pass resets or halves the interval, as the series says; the doubling is what follows the
 * last of them.
 */
size_t demand_passes_progressed(const struct pass_info *p, size_t n)
{
	size_t from = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i].met)
			print_message("  pass %ld (of %zu) found or left every target met\n",
				      p[i].nr, n);
		else if (p[i].progress)
			print_message("  pass %ld (of %zu) brought zone %ld closer to its targets: "
				      "order %ld, %ld free pages before, %ld after, target %ld\n",
				      p[i].nr, n, p[i].zone, p[i].order, p[i].free_before,
				      p[i].free_after, p[i].target);
		if (p[i].met || p[i].progress)
			from = i + 1;
	}
	return from;
}

/*
 * The interval the series sets after a pass (kcompactd_demand_backoff()), @prev before it:
 * 500 ms if it met the demand, halved (down to 500) if it got closer, doubled (up to 32 s)
 * if not. The trace cannot show demand the node's caps cut, which the series counts as not
 * met: a pass the trace sees meet its targets may also have the other rule applied.
 */
bool demand_pass_rule_holds(const struct pass_info *pi, long prev)
{
	long closer = prev / 2 < 500 ? 500 : prev / 2, none = prev * 2 > 32000 ? 32000 : prev * 2;

	if (pi->met && pi->interval_ms == 500)
		return true;
	return pi->interval_ms == (pi->progress ? closer : none);
}
