// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_analyze_text.c - `analyze FILE.dat` for a person, on the real exhaust trace
 * (tests/fixtures/analysis-README.md): the log2 histograms together hold every stall,
 * 4681, the compact_stall delta /proc/vmstat counted around the recording (not the
 * analyzer); one histogram per (order, origin) because that trace has two origins; figures
 * in human units; no null and no zero row in the text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "metrics.h"
#include "stalls.h"

static char *text_of(const char *trace, bool all)
{
	struct cb_stalls st;
	struct cb_values val;
	struct cb_metric_in in = { .st = &st };
	char path[1024], err[1024], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	snprintf(path, sizeof(path), "%s/%s", getenv("FIXTURES"), trace);
	assert_int_equal(cb_stalls_from_trace(path, &st, err, sizeof(err)), 0);
	cb_metrics_compute(&in, &val);
	cb_analyze_print_trace(f, path, &st, &val, all);
	fclose(f);
	cb_stalls_free(&st);
	return buf;
}

/* the counts of every histogram row ("lo -> hi : count |...|") summed */
static unsigned long long hist_total(const char *text, int *sections)
{
	unsigned long long total = 0, lo, hi, n;
	const char *p = text;

	*sections = 0;
	for (; (p = strstr(p, "\n")); p++) {
		if (!strncmp(p + 1, "stall latency, ", 15))
			(*sections)++;
		if (sscanf(p + 1, " %llu -> %llu : %llu |", &lo, &hi, &n) == 3)
			total += n;
	}
	return total;
}

static void test_exhaust(void **state)
{
	char *t = text_of("analysis-thp-exhaust.v7.dat", false);
	int sections;

	/* vmstat's compact_stall delta of the recording */
	assert_int_equal(hist_total(t, &sections), 4681);
	/* order 9 of thp_fault and of other: two histograms, not one */
	assert_int_equal(sections, 2);
	assert_non_null(strstr(t, "order 9, origin thp_fault"));
	assert_non_null(strstr(t, "stalls that did work"));
	assert_non_null(strstr(t, " ms\n"));
	assert_null(strstr(t, "null"));
	assert_null(strstr(t, "_ns"));
	free(t);
}

static void test_all(void **state)
{
	char *t = text_of("analysis-thp-exhaust.v7.dat", true);

	assert_non_null(strstr(t, "dc_stalls "));
	assert_non_null(strstr(t, " 4681 count"));
	assert_null(strstr(t, "null"));
	/* dc_stalls_slab is 0 in this trace: left out */
	assert_null(strstr(t, "dc_stalls_slab"));
	free(t);
}

static void test_quiet(void **state)
{
	char *t = text_of("analysis-quiet.v7.dat", false);
	int sections;

	assert_int_equal(hist_total(t, &sections), 0);
	assert_int_equal(sections, 0);
	assert_non_null(strstr(t, "no direct-compaction stall"));
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exhaust),
		cmocka_unit_test(test_all),
		cmocka_unit_test(test_quiet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
