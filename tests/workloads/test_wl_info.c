// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_wl_info.c - the workload tables and wl_check_value: lookups, every type's checks
 * with known good and bad values, and the rules every table must keep.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "wl_info.h"

static const char *const colors[] = { "red", "green", NULL };
static const struct wl_option o_size = { .name = "size", .type = WL_OPT_SIZE };
static const struct wl_option o_dur = { .name = "d", .type = WL_OPT_DURATION };
static const struct wl_option o_int = { .name = "n", .type = WL_OPT_INT, .min = 2, .max = 10 };
static const struct wl_option o_real = { .name = "r", .type = WL_OPT_REAL, .min = 0, .max = 1.5 };
static const struct wl_option o_enum = { .name = "c", .type = WL_OPT_ENUM, .choices = colors };
static const struct wl_option o_bool = { .name = "b", .type = WL_OPT_BOOL };
static const struct wl_option o_str = { .name = "s", .type = WL_OPT_STRING };

static int check(const struct wl_option *o, const char *v)
{
	char err[256] = "";
	int ret = wl_check_value(o, v, err, sizeof(err));

	/* a refusal always says why, naming the value */
	if (ret < 0)
		assert_non_null(strstr(err, v));
	return ret;
}

static void test_find(void **state)
{
	size_t i;

	assert_ptr_equal(wl_find("frag-anon"), &wl_frag_anon);
	assert_ptr_equal(wl_find("thp-demand"), &wl_thp_demand);
	assert_ptr_equal(wl_find("frag-pagecache"), &wl_frag_pagecache);
	assert_ptr_equal(wl_find("frag-unmovable"), &wl_frag_unmovable);
	assert_ptr_equal(wl_find("kernel-demand"), &wl_kernel_demand);
	assert_ptr_equal(wl_find("idle"), &wl_idle);
	assert_ptr_equal(wl_find("stress-ng"), &wl_stress_ng);
	assert_null(wl_find("nope"));
	assert_null(wl_find(NULL));
	for (i = 0; wl_all[i]; i++)
		assert_ptr_equal(wl_find(wl_all[i]->name), wl_all[i]);
	assert_int_equal(i, 7); /* six programs of ours and stress-ng */
	assert_string_equal(wl_find_option(&wl_frag_anon, "keep-every")->name, "keep-every");
	assert_null(wl_find_option(&wl_frag_anon, "keep"));
	assert_null(wl_find_option(NULL, "size"));
}

static void test_size(void **state)
{
	const char *good[] = { "0.5", "1.0", "0.001", "1", "4096", "64k", "64K", "512M", "4G",
			       "1T", "2GiB", NULL };
	const char *bad[] = { "", "0", "0.0", "-1", "1.5", "banana", "4X", " 4G", "4G ", NULL };
	size_t i;

	for (i = 0; good[i]; i++)
		assert_int_equal(check(&o_size, good[i]), 0);
	for (i = 0; bad[i]; i++) {
		if (bad[i][0])
			assert_int_equal(check(&o_size, bad[i]), -1);
		else
			assert_int_equal(wl_check_value(&o_size, bad[i], NULL, 0), -1);
	}
}

static void test_duration(void **state)
{
	assert_int_equal(check(&o_dur, "0"), 0);
	assert_int_equal(check(&o_dur, "30"), 0);
	assert_int_equal(check(&o_dur, "30s"), 0);
	assert_int_equal(check(&o_dur, "500ms"), 0);
	assert_int_equal(check(&o_dur, "2m"), 0);
	assert_int_equal(check(&o_dur, "1h"), 0);
	assert_int_equal(check(&o_dur, "0.1"), 0);
	assert_int_equal(check(&o_dur, "-1"), -1);
	assert_int_equal(check(&o_dur, "1d"), -1);
	assert_int_equal(check(&o_dur, "soon"), -1);
}

static void test_int_real(void **state)
{
	assert_int_equal(check(&o_int, "2"), 0);
	assert_int_equal(check(&o_int, "10"), 0);
	assert_int_equal(check(&o_int, "1"), -1);
	assert_int_equal(check(&o_int, "11"), -1);
	assert_int_equal(check(&o_int, "2.5"), -1);
	assert_int_equal(check(&o_int, "3x"), -1);
	assert_int_equal(check(&o_real, "0"), 0);
	assert_int_equal(check(&o_real, "1.5"), 0);
	assert_int_equal(check(&o_real, "0.25"), 0);
	assert_int_equal(check(&o_real, "1.6"), -1);
	assert_int_equal(check(&o_real, "-0.1"), -1);
	assert_int_equal(check(&o_real, "nan"), -1);
	assert_int_equal(check(&o_real, "1e"), -1);
}

static void test_enum_bool_string(void **state)
{
	char err[256];

	assert_int_equal(check(&o_enum, "red"), 0);
	assert_int_equal(check(&o_enum, "green"), 0);
	assert_int_equal(wl_check_value(&o_enum, "blue", err, sizeof(err)), -1);
	/* the message lists the choices */
	assert_non_null(strstr(err, "red"));
	assert_non_null(strstr(err, "green"));
	assert_int_equal(check(&o_enum, "Red"), -1);
	assert_int_equal(check(&o_bool, "1"), 0);
	assert_int_equal(check(&o_bool, "0"), 0);
	assert_int_equal(check(&o_bool, "true"), 0);
	assert_int_equal(check(&o_bool, "false"), 0);
	assert_int_equal(check(&o_bool, "yes please"), -1);
	assert_int_equal(check(&o_str, "/any/path"), 0);
	assert_int_equal(wl_check_value(NULL, "1", err, sizeof(err)), -1);
	assert_int_equal(wl_check_value(&o_str, NULL, err, sizeof(err)), -1);
}

/* a small error buffer is never overrun and stays a string */
static void test_short_err(void **state)
{
	char err[8];

	memset(err, 'x', sizeof(err));
	assert_int_equal(wl_check_value(&o_enum, "blue", err, sizeof(err)), -1);
	assert_int_equal(strlen(err), sizeof(err) - 1);
}

/* the rules the harness relies on, for every option of every program */
static void check_option(const struct wl_info *wl, const struct wl_option *o)
{
	char err[256];

	assert_non_null(o->help);
	assert_true(strlen(o->help) > 10);
	assert_null(strchr(o->name, '='));
	assert_null(strchr(o->name, '.'));
	/* another option of the same name would be unreachable */
	assert_ptr_equal(wl_find_option(wl, o->name), o);
	if (o->def && wl_check_value(o, o->def, err, sizeof(err)) < 0)
		fail_msg("%s --%s: default %s: %s", wl->name, o->name, o->def, err);
	if (o->type == WL_OPT_INT || o->type == WL_OPT_REAL)
		assert_true(o->min <= o->max);
	if (o->type == WL_OPT_ENUM)
		assert_non_null(o->choices && o->choices[0] ? o->choices[0] : NULL);
	/* the harness can only add a flag, never take one away */
	if (o->type == WL_OPT_BOOL && o->def)
		assert_true(!strcmp(o->def, "false") || !strcmp(o->def, "0"));
}

static void test_tables(void **state)
{
	const struct wl_option *o;
	size_t i;

	for (i = 0; wl_all[i]; i++) {
		assert_non_null(wl_all[i]->summary);
		assert_non_null(wl_all[i]->options);
		for (o = wl_all[i]->options; o->name; o++)
			check_option(wl_all[i], o);
	}
	assert_int_equal(wl_frag_anon.phase, WL_PHASE_FRAGMENT);
	assert_int_equal(wl_thp_demand.phase, WL_PHASE_DEMAND);
	assert_int_equal(wl_frag_pagecache.phase, WL_PHASE_FRAGMENT);
	assert_int_equal(wl_frag_unmovable.phase, WL_PHASE_FRAGMENT);
	assert_int_equal(wl_kernel_demand.phase, WL_PHASE_DEMAND);
	assert_int_equal(wl_idle.phase, WL_PHASE_DEMAND);
	assert_int_equal(wl_stress_ng.phase, WL_PHASE_BACKGROUND);
	assert_non_null(wl_stress_ng.path);
	/* frag-pagecache has no usable default for --dir: the harness must pass one */
	assert_null(wl_find_option(&wl_frag_pagecache, "dir")->def);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_int_real),
		cmocka_unit_test(test_enum_bool_string),
		cmocka_unit_test(test_short_err),
		cmocka_unit_test(test_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
