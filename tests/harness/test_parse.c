// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_parse.c - the size and duration syntax of config values and workload options
 * (harness/lib/util.c: cb_parse_size, cb_parse_duration): each unit by its definition,
 * fractions of a total, and every refusal with its errno.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>

#include "util.h"

static void test_sizes(void **state)
{
	static const struct {
		const char *s;
		uint64_t want;
	} ok[] = {
		{ "1", 1 },			/* bytes */
		{ "4k", 4096 },			/* KiB */
		{ "4K", 4096 },
		{ "2M", 2ULL << 20 },		/* MiB */
		{ "2MiB", 2ULL << 20 },
		{ "1.5G", 3ULL << 29 },		/* 1.5 GiB */
		{ "0.25", 250 },		/* a fraction of the total (1000) */
		{ "1.0", 1000 },
	};
	static const char *const bad[] = { "", " 1", "-1", "0", "1.5", "2x", "1k5", "nan", "inf" };
	uint64_t v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(cb_parse_size(ok[i].s, 1000, &v), 0);
		assert_true(v == ok[i].want);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_int_equal(cb_parse_size(bad[i], 1000, &v), -1);
		assert_int_equal(errno, EINVAL);
	}
	errno = 0;
	assert_int_equal(cb_parse_size("1e30G", 1000, &v), -1); /* past UINT64_MAX */
	assert_int_equal(errno, ERANGE);
}

static void test_durations(void **state)
{
	static const struct {
		const char *s;
		double want;
	} ok[] = {
		{ "5", 5 }, { "5s", 5 }, { "10ms", 0.01 }, { "2m", 120 }, { "2min", 120 },
		{ "1h", 3600 }, { "0", 0 }, { "0.5s", 0.5 },
	};
	static const char *const bad[] = { "", " 5", "-5", "5x", "5 s", "nan", "ms" };
	double v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(cb_parse_duration(ok[i].s, &v), 0);
		assert_float_equal(v, ok[i].want, 1e-12);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_int_equal(cb_parse_duration(bad[i], &v), -1);
		assert_int_equal(errno, EINVAL);
	}
	errno = 0;
	assert_int_equal(cb_parse_duration("1e300h", &v), -1);
	assert_int_equal(errno, ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_durations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
