// SPDX-License-Identifier: GPL-2.0-only
/*
 * demand_trace.c - read the demand-driven kcompactd's trace events (and kswapd's wake and
 * sleep) from a cell's trace.dat with libtracecmd, for test_qemu_demand's checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>
#include <event-parse.h>

#include "demand_trace.h"

static long field(struct tep_event *e, struct tep_record *r, const char *name)
{
	unsigned long long v = 0;

	assert_int_equal(tep_get_field_val(NULL, e, name, r, &v, 0), 0);
	return (long)v;
}

static struct ev *add_ev(struct demand_count *c, struct tep_record *r, enum ev_kind kind)
{
	struct ev *v;

	assert_true(c->nr < MAX_EVENTS);
	v = &c->ev[c->nr++];
	memset(v, 0, sizeof(*v));
	v->ts = r->ts;
	v->kind = kind;
	return v;
}

static void on_target(struct demand_count *c, struct tep_event *e, struct tep_record *r)
{
	struct ev *v = add_ev(c, r, EV_TARGET);

	v->pass = field(e, r, "pass");
	v->after = field(e, r, "after");
	v->order = field(e, r, "order");
	v->target = field(e, r, "target");
	v->nr_free = field(e, r, "nr_free");
	v->zone = field(e, r, "idx");
	if (v->after) {
		c->targets_after++;
		c->targets_met += field(e, r, "nr_free") >= field(e, r, "target");
	} else {
		c->targets_before++;
	}
}

static int on_event(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct demand_count *c = data;
	int id = tep_data_type(c->tep, r);
	struct tep_event *e = tep_find_event(c->tep, id);
	struct ev *v;
	long order;

	if (r->ts > c->last_ts)
		c->last_ts = r->ts;
	if (!e)
		return 0;
	if (id == c->id_kwake || id == c->id_ksleep) {
		add_ev(c, r, id == c->id_kwake ? EV_KSWAPD_WAKE : EV_KSWAPD_SLEEP);
		return 0;
	}
	if (id == c->id_target) {
		on_target(c, e, r);
		return 0;
	}
	if (id != c->id_demand)
		return 0;
	order = field(e, r, "order");
	if (order < 1 || order >= NR_ORDERS) {
		c->other_orders++;
		return 0;
	}
	c->demand[order]++;
	if (field(e, r, "demand") > c->max_demand[order])
		c->max_demand[order] = field(e, r, "demand");
	/* the target is the demand, capped */
	assert_true(field(e, r, "target") <= field(e, r, "demand"));
	v = add_ev(c, r, EV_DEMAND);
	v->order = order;
	v->may_wake = field(e, r, "may_wake");
	v->woke = field(e, r, "woke");
	v->interval_ms = field(e, r, "interval_ms");
	return 0;
}

static int ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int event_id(struct tep_handle *tep, const char *sys, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(tep, sys, name);

	assert_non_null(e);
	return e->id;
}

/* kswapd's awake spans, from its wake and sleep events (awake until the end if no sleep) */
static void kswapd_spans(struct demand_count *c)
{
	bool awake = false;

	c->awake = calloc(c->nr + 1, sizeof(*c->awake));
	assert_non_null(c->awake);
	for (size_t i = 0; i < c->nr; i++) {
		if (c->ev[i].kind == EV_KSWAPD_WAKE && !awake) {
			c->awake[c->nr_awake][0] = c->ev[i].ts;
			c->awake[c->nr_awake][1] = ~0ULL;
			awake = true;
		} else if (c->ev[i].kind == EV_KSWAPD_SLEEP && awake) {
			c->awake[c->nr_awake++][1] = c->ev[i].ts;
			awake = false;
		}
	}
	c->nr_awake += awake;
}

void count_cell(const char *cell, struct demand_count *c)
{
	char path[1400];
	struct tracecmd_input *h;

	snprintf(path, sizeof(path), "%s/trace.dat", cell);
	h = tracecmd_open(path, 0);
	assert_non_null(h);
	c->tep = tracecmd_get_tep(h);
	/* the collector enabled these events: their formats are in the file */
	c->id_demand = event_id(c->tep, "compaction", "mm_compaction_demand");
	c->id_target = event_id(c->tep, "compaction", "mm_compaction_demand_target");
	c->id_kwake = event_id(c->tep, "vmscan", "mm_vmscan_kswapd_wake");
	c->id_ksleep = event_id(c->tep, "vmscan", "mm_vmscan_kswapd_sleep");
	c->ev = calloc(MAX_EVENTS, sizeof(*c->ev));
	assert_non_null(c->ev);
	assert_int_equal(tracecmd_iterate_events(h, NULL, 0, on_event, c), 0);
	tracecmd_close(h);
	qsort(c->ev, c->nr, sizeof(*c->ev), ev_cmp);
	kswapd_spans(c);
}

void demand_count_free(struct demand_count *c)
{
	free(c->ev);
	free(c->awake);
	c->ev = NULL;
	c->awake = NULL;
}

unsigned long long kswapd_awake_ns(const struct demand_count *c, unsigned long long from,
				   unsigned long long to)
{
	unsigned long long sum = 0;

	for (size_t i = 0; i < c->nr_awake; i++) {
		unsigned long long a = c->awake[i][0] > from ? c->awake[i][0] : from,
				   b = c->awake[i][1] < to ? c->awake[i][1] : to;

		if (b > a)
			sum += b - a;
	}
	return sum;
}
