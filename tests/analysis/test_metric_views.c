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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exchange_basic),
		cmocka_unit_test(exchange_negative),
		cmocka_unit_test(exchange_none_avoided),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
