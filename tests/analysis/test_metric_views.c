// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_metric_views.c - cb_exchange_rate() on hand-computed figures, and the views of the
 * metric table (cb_metrics_view): which rows each view shows, in which order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exchange.h"
#include "metrics.h"

/* 3 ms more background CPU (5 - 2) buys 12 ms of stall avoided (20 - 8): 0.25 */
static void exchange_basic(void **state)
{
	struct cb_exchange x;

	assert_int_equal(cb_exchange_rate(2e6, 5e6, 20e6, 8e6, &x), 0);
	assert_true(x.cpu_more == 3e6);
	assert_true(x.stall_avoided == 12e6);
	assert_true(x.rate == 0.25);
}

/* less CPU and less stall: a negative rate, (1 - 4) / (10 - 4) = -0.5 */
static void exchange_negative(void **state)
{
	struct cb_exchange x;

	assert_int_equal(cb_exchange_rate(4, 1, 10, 4, &x), 0);
	assert_true(x.rate == -0.5);
}

/* no stall time avoided (equal, or more): EDOM, rate NAN, differences still given */
static void exchange_none_avoided(void **state)
{
	struct cb_exchange x;

	errno = 0;
	assert_int_equal(cb_exchange_rate(1, 7, 5, 5, &x), -1);
	assert_int_equal(errno, EDOM);
	assert_true(isnan(x.rate));
	assert_true(x.cpu_more == 6 && x.stall_avoided == 0);
	assert_int_equal(cb_exchange_rate(1, 7, 5, 9, &x), -1);
	assert_true(x.stall_avoided == -4 && isnan(x.rate));
}

/* the gate's default view: p99 first, then total stall time, nothing else */
static void view_gate(void **state)
{
	int ids[CB_M_NR];

	assert_int_equal(cb_metrics_view(CB_VIEW_GATE, ids, CB_M_NR), 2);
	assert_int_equal(ids[0], CB_M_DC_STALL_P99_NS);
	assert_int_equal(ids[1], CB_M_DC_STALL_TOTAL_NS);
}

/* compare's key view follows the rows' key places (1 = total stall time, 2 = worked stalls) */
static void view_key(void **state)
{
	int ids[CB_M_NR], n = cb_metrics_view(CB_VIEW_KEY, ids, CB_M_NR);

	assert_int_equal(n, 10);
	assert_int_equal(ids[0], CB_M_DC_STALL_TOTAL_NS);
	assert_int_equal(ids[1], CB_M_DC_STALLS_WORKED);
	assert_int_equal(ids[9], CB_M_ENERGY_RAPL_J);
	assert_int_equal(cb_metric_place(CB_M_DC_STALL_P50_NS, CB_VIEW_KEY), 3);
	assert_int_equal(cb_metric_place(CB_M_DC_STALLS, CB_VIEW_KEY), 0);
}

/* the report's main table: nine columns, headings and scales from the rows */
static void view_report(void **state)
{
	int ids[CB_M_NR], n = cb_metrics_view(CB_VIEW_REPORT, ids, CB_M_NR);

	assert_int_equal(n, 9);
	assert_int_equal(ids[0], CB_M_DC_STALLS);
	assert_string_equal(cb_metrics[ids[1]].col.head, "stall_ms");
	assert_true(cb_metrics[ids[1]].col.scale == 1e-6);
	assert_int_equal(ids[8], CB_M_WL_THP_SUCCESS_RATE);
	assert_int_equal(cb_metrics[ids[8]].col.width, 11);
	/* room for fewer: the first by place */
	assert_int_equal(cb_metrics_view(CB_VIEW_REPORT, ids, 2), 2);
	assert_int_equal(ids[1], CB_M_DC_STALL_TOTAL_NS);
}

/* compare's avoided/cost groups; only energy_modeled_j is modeled */
static void view_compare_groups(void **state)
{
	int ids[CB_M_NR], i, modeled = 0;

	assert_int_equal(cb_metrics_view(CB_VIEW_AVOIDED, ids, CB_M_NR), 4);
	assert_int_equal(ids[2], CB_M_DC_STALLS);
	assert_int_equal(cb_metrics_view(CB_VIEW_COST, ids, CB_M_NR), 4);
	assert_int_equal(ids[0], CB_M_CPU_BACKGROUND_NS);
	assert_int_equal(ids[3], CB_M_ENERGY_MODELED_J);
	for (i = 0; i < CB_M_NR; i++)
		modeled += cb_metrics[i].modeled;
	assert_int_equal(modeled, 1);
	assert_true(cb_metrics[CB_M_ENERGY_MODELED_J].modeled);
	assert_int_equal(cb_metric_place(CB_M_NR, CB_VIEW_COST), 0);
}

/* run's progress line: stalls, compact_stall, the workload's THP success, in that order */
static void view_progress(void **state)
{
	int ids[CB_M_NR];

	assert_int_equal(cb_metrics_view(CB_VIEW_PROGRESS, ids, CB_M_NR), 3);
	assert_string_equal(cb_metrics[ids[0]].name, "dc_stalls");
	assert_string_equal(cb_metrics[ids[1]].name, "vm_compact_stall");
	assert_string_equal(cb_metrics[ids[2]].name, "wl_thp_success_rate");
}

/* an unknown name: -1, ENOENT, and every valid name listed */
static void find_or_list(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(cb_metric_find_or_list("dc_stall_p99_ns", "--metric", f),
			 CB_M_DC_STALL_P99_NS);
	errno = 0;
	assert_int_equal(cb_metric_find_or_list("dc_stal_p99_ns", "--metric", f), -1);
	assert_int_equal(errno, ENOENT);
	fclose(f);
	assert_non_null(strstr(buf, "--metric 'dc_stal_p99_ns': no such metric"));
	assert_non_null(strstr(buf, "\n  dc_stall_p99_ns\n"));
	assert_non_null(strstr(buf, "\n  breakup_o9_est\n"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exchange_basic),
		cmocka_unit_test(exchange_negative),
		cmocka_unit_test(exchange_none_avoided),
		cmocka_unit_test(view_gate),
		cmocka_unit_test(view_key),
		cmocka_unit_test(view_report),
		cmocka_unit_test(view_compare_groups),
		cmocka_unit_test(view_progress),
		cmocka_unit_test(find_or_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
