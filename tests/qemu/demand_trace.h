/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * demand_trace.h - test_qemu_demand's trace half: the demand-driven kcompactd's events, and
 * kswapd's, read from a cell's trace.dat into one time-ordered list (see demand_trace.c).
 */
#ifndef CB_DEMAND_TRACE_H
#define CB_DEMAND_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#define NR_ORDERS 11 /* orders 0-10 on x86, 6.1 and 6.12 alike */
#define THP_ORDER 9
#define MAX_EVENTS 200000

struct tep_handle;

enum ev_kind { EV_DEMAND, EV_TARGET, EV_KSWAPD_WAKE, EV_KSWAPD_SLEEP };

struct ev {
	unsigned long long ts;
	enum ev_kind kind;
	long order, may_wake, woke, interval_ms, pass, after, target, nr_free, zone;
};

struct demand_count {
	struct tep_handle *tep;
	int id_demand, id_target, id_kwake, id_ksleep;
	long demand[NR_ORDERS], max_demand[NR_ORDERS], other_orders;
	long targets_before, targets_after, targets_met;
	struct ev *ev;
	size_t nr;
	unsigned long long last_ts;	/* the trace's last event, of any kind */
	unsigned long long (*awake)[2];
	size_t nr_awake;
};

/*
 * count_cell - read @cell/trace.dat: mm_compaction_demand (orders 1..NR_ORDERS-1; others are
 * counted in other_orders), mm_compaction_demand_target and kswapd's wake and sleep events
 * into @c->ev in time order, and kswapd's awake spans into @c->awake. cmocka assertions
 * (the file opens, the events are in it); free with demand_count_free().
 */
void count_cell(const char *cell, struct demand_count *c);

/* demand_count_free - what count_cell() allocated */
void demand_count_free(struct demand_count *c);

/*
 * kswapd_awake_ns - how long kswapd was awake between @from and @to (ns of trace time), by
 * @c's spans (one still awake at the trace's end counts to @to)
 */
unsigned long long kswapd_awake_ns(const struct demand_count *c, unsigned long long from,
				   unsigned long long to);

#endif
