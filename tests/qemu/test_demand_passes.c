// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_demand_passes.c - unit: the reader of the demand-driven kcompactd's passes
 * (demand_passes.c), which test_qemu_demand's back-off check runs on a guest's trace, on
 * synthetic event lists whose answer is known from the series' kcompactd_demand_backoff()
 * and kcompactd_count_demand(). No guest, no root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "demand_passes.h"

/* a target event of @pass for @zone, order 9 or 1, into @c */
static void synth_target(struct demand_count *c, unsigned long long ts, long pass, long zone,
			 long order, long target, long nr_free, long after)
{
	c->ev[c->nr++] = (struct ev){ .ts = ts, .kind = EV_TARGET, .pass = pass, .zone = zone,
				      .order = order, .target = target, .nr_free = nr_free,
				      .after = after };
}

/* a THP demand event into @c: whether it woke kcompactd, the interval it read */
static void synth_demand(struct demand_count *c, unsigned long long ts, long woke,
			 long interval_ms)
{
	c->ev[c->nr++] = (struct ev){ .ts = ts, .kind = EV_DEMAND, .order = THP_ORDER,
				      .may_wake = 1, .woke = woke, .interval_ms = interval_ms };
}

/*
 * The pass reader and the back-off rule on a synthetic event list whose answer is known
 * from kcompactd_demand_backoff(): a pass that does nothing (1), one that gets closer (2),
 * one that finds its zone balanced (3), one that skips an unbalanced zone (4), one that
 * leaves one zone of two short (5); the interval each demand event after it reports. A
 * demand event traced between a pass's last targets and its back-off reports the interval
 * before it (after passes 1 and 5, as CI's run of 2026-12-06 may have seen), and one
 * during a pass the interval the pass before set.
 */
static void test_passes_synthetic(void **state)
{
	struct ev ev[32];
	struct demand_count c = { .ev = ev };
	struct pass_info p[8], bad;
	static const bool progress[] = { false, true, false, false, false };
	static const bool met[] = { false, false, true, false, false };
	static const long interval[] = { 1000, 500, 500, 1000, 2000 };

	synth_target(&c, 10, 1, 1, 9, 2, 0, 0);
	synth_target(&c, 11, 1, 1, 1, 1, 0, 0);
	synth_target(&c, 12, 1, 1, 9, 2, 0, 1);
	synth_target(&c, 13, 1, 1, 1, 1, 0, 1);
	synth_demand(&c, 14, 0, 500);	/* before the pass set its interval: not its own */
	synth_demand(&c, 20, 0, 1000);
	synth_target(&c, 30, 2, 1, 9, 2, 0, 0);
	synth_target(&c, 31, 2, 1, 9, 2, 1, 1);
	synth_demand(&c, 40, 0, 500);
	synth_target(&c, 50, 3, 1, 9, 2, 2, 0);
	synth_demand(&c, 60, 0, 500);
	synth_target(&c, 70, 4, 1, 9, 2, 0, 0);
	synth_demand(&c, 80, 0, 1000);
	synth_target(&c, 90, 5, 0, 9, 1, 1, 0);
	synth_target(&c, 92, 5, 1, 9, 2, 0, 0);
	synth_demand(&c, 93, 0, 1000);	/* during pass 5: pass 4's interval still */
	synth_target(&c, 94, 5, 1, 9, 2, 0, 1);
	synth_demand(&c, 95, 0, 1000);	/* before pass 5 set its interval */
	synth_demand(&c, 100, 0, 2000);

	assert_int_equal(demand_passes(&c, p, 8), 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(p[i].nr, i + 1);
		assert_int_equal(p[i].progress, progress[i]);
		assert_int_equal(p[i].met, met[i]);
		assert_int_equal(p[i].interval_ms, interval[i]);
		if (i)
			assert_true(demand_pass_rule_holds(&p[i], interval[i - 1]));
	}
	assert_int_equal(p[1].order, 9);
	assert_int_equal(p[1].free_before, 0);
	assert_int_equal(p[1].free_after, 1);
	assert_int_equal(demand_passes_progressed(p, 5), 3);
	/* the rule refuses what the series never does */
	bad = p[1];
	bad.interval_ms = 2000;		/* doubled after a pass that got closer */
	assert_false(demand_pass_rule_holds(&bad, 1000));
	bad = p[4];
	bad.interval_ms = 64000;	/* past the 32 s cap */
	assert_false(demand_pass_rule_holds(&bad, 32000));
	bad.interval_ms = 32000;
	assert_true(demand_pass_rule_holds(&bad, 32000));
	bad = p[3];
	bad.interval_ms = 500;		/* reset by a pass that met nothing */
	assert_false(demand_pass_rule_holds(&bad, 500));
}

/*
 * A demand event that woke a pass but was traced after that pass had ended (seen on a real
 * run, 2026-12-06): kcompactd_count_demand() reads the interval for the event after the
 * wake-up, just before tracing it, so the event reports the interval the pass it woke set,
 * and lands in that pass's span. That pass gets its own interval; the pass before it, whose
 * span holds no event, gets none (0: not checked), never a wrong one.
 */
static void test_passes_late_waking_event(void **state)
{
	struct ev ev[16];
	struct demand_count c = { .ev = ev };
	struct pass_info p[4];

	synth_demand(&c, 5, 1, 500);		/* wakes pass 1 */
	synth_target(&c, 10, 1, 1, 9, 2, 0, 0);
	synth_target(&c, 11, 1, 1, 9, 2, 0, 1);	/* pass 1 sets 1000 */
	synth_target(&c, 30, 2, 1, 9, 2, 0, 0);	/* pass 2, woken by the event at 40 */
	synth_target(&c, 31, 2, 1, 9, 2, 0, 1);	/* pass 2 sets 2000 */
	synth_demand(&c, 40, 1, 2000);		/* the late waking event */
	synth_demand(&c, 60, 0, 2000);
	synth_target(&c, 70, 3, 1, 9, 2, 0, 0);
	synth_target(&c, 71, 3, 1, 9, 2, 0, 1);	/* pass 3 sets 4000 */
	synth_demand(&c, 80, 1, 4000);

	assert_int_equal(demand_passes(&c, p, 4), 3);
	assert_int_equal(p[0].interval_ms, 0);
	assert_int_equal(p[1].interval_ms, 2000);
	assert_int_equal(p[2].interval_ms, 4000);
	assert_true(demand_pass_rule_holds(&p[2], p[1].interval_ms));
	assert_int_equal(demand_passes_progressed(p, 3), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_passes_synthetic),
		cmocka_unit_test(test_passes_late_waking_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
