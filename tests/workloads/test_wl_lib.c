// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_wl_lib.c - the shared pieces of the workload programs with known values:
 * nearest-rank percentiles, log2 buckets, /proc/buddyinfo, /proc/vmstat and
 * /proc/pagetypeinfo parsing (fixture files), sysfs choice files, pagemap classification on
 * this process's own memory.
 *
 * Usage: test_wl_lib FIXTURES_DIR
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "util.h"
#include "wl_mm.h"
#include "wl_stats.h"

static const char *fixtures;

static void test_nearest_rank(void **state)
{
	/* the classic example: 15 20 35 40 50 */
	uint64_t v[] = { 15, 20, 35, 40, 50 };
	uint64_t hundred[100];
	size_t i;

	assert_int_equal(wl_nearest_rank(v, 5, 500), 15);  /* p5: rank ceil(0.25) = 1 */
	assert_int_equal(wl_nearest_rank(v, 5, 3000), 20); /* p30: rank ceil(1.5) = 2 */
	assert_int_equal(wl_nearest_rank(v, 5, 4000), 20); /* p40: rank 2 exactly */
	assert_int_equal(wl_nearest_rank(v, 5, 5000), 35); /* p50: rank ceil(2.5) = 3 */
	assert_int_equal(wl_nearest_rank(v, 5, 10000), 50);
	assert_int_equal(wl_nearest_rank(v, 5, 0), 15);
	assert_int_equal(wl_nearest_rank(v, 0, 5000), 0);
	for (i = 0; i < 100; i++)
		hundred[i] = i + 1;
	assert_int_equal(wl_nearest_rank(hundred, 100, 9900), 99); /* no float rounding */
	assert_int_equal(wl_nearest_rank(hundred, 100, 9000), 90);
	assert_int_equal(wl_nearest_rank(hundred, 100, 5000), 50);
	assert_int_equal(wl_nearest_rank(hundred, 99, 9900), 99);  /* ceil(98.01) = 99 */
}

static void test_summarize(void **state)
{
	uint64_t v[] = { 50, 15, 40, 20, 35 };
	struct wl_latency l;
	struct json_object *o;

	wl_latency_summarize(v, 5, &l);
	assert_int_equal(v[0], 15); /* sorted in place */
	assert_int_equal(l.n, 5);
	assert_int_equal(l.p50, 35);
	assert_int_equal(l.p90, 50);
	assert_int_equal(l.p99, 50);
	assert_int_equal(l.max, 50);
	assert_true(l.mean == 32.0);
	o = wl_latency_json(&l);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"p50\":35,\"p90\":50,\"p99\":50,\"max\":50,\"mean\":32.0}");
	json_object_put(o);
	wl_latency_summarize(v, 0, &l);
	assert_null(wl_latency_json(&l));
}

static void test_log2_bucket(void **state)
{
	assert_int_equal(wl_log2_bucket(0), 0);
	assert_int_equal(wl_log2_bucket(1), 0);
	assert_int_equal(wl_log2_bucket(2), 1);
	assert_int_equal(wl_log2_bucket(3), 1);
	assert_int_equal(wl_log2_bucket(1024), 10);
	assert_int_equal(wl_log2_bucket(2047), 10);
	assert_int_equal(wl_log2_bucket(UINT64_MAX), 63);
}

static void test_buddyinfo(void **state)
{
	struct wl_buddy_zone z[WL_BUDDY_MAX_ZONES];
	struct json_object *o;
	int n = wl_buddyinfo_read(fixtures, z, WL_BUDDY_MAX_ZONES);

	assert_int_equal(n, 4);
	assert_int_equal(z[0].node, 0);
	assert_string_equal(z[0].zone, "DMA");
	assert_int_equal(z[2].norders, 11);
	assert_string_equal(z[2].zone, "Normal");
	assert_int_equal(z[2].free[0], 395800);
	assert_int_equal(z[2].free[10], 3460);
	assert_int_equal(z[3].node, 1);
	/* order >= 9: 1+3 + 16+735 + 1+3460 + 7+2 */
	assert_int_equal(wl_buddyinfo_blocks_from(z, n, 9), 4225);
	assert_int_equal(wl_buddyinfo_blocks_from(z, n, 10), 3 + 735 + 3460 + 2);
	o = wl_buddyinfo_json("before", z, 1);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"type\":\"buddyinfo\",\"when\":\"before\",\"zones\":[{\"node\":0,"
			    "\"zone\":\"DMA\",\"free\":[0,0,0,0,0,0,0,0,1,1,3]}]}");
	json_object_put(o);
	assert_int_equal(wl_buddyinfo_parse("Node 0, zone Normal 1 2 x\n", z, 4), -1);
	assert_int_equal(wl_buddyinfo_parse("garbage\n", z, 4), -1);
	assert_int_equal(wl_buddyinfo_parse("", z, 4), 0);
	assert_int_equal(wl_buddyinfo_read("/nonexistent", z, 4), -1);
	/* the real one parses too */
	assert_true(wl_buddyinfo_read(NULL, z, WL_BUDDY_MAX_ZONES) > 0);
}

static void test_vmstat(void **state)
{
	const char *const keys[] = { "thp_fault_alloc", "compact_stall", "missing",
				     "thp_fault", NULL };
	long long v[4];

	assert_int_equal(wl_vmstat_read(fixtures, keys, v), 0);
	assert_int_equal(v[0], 11686);
	assert_int_equal(v[1], 2344);
	assert_int_equal(v[2], -1);
	assert_int_equal(v[3], -1); /* a prefix is not a match */
	assert_int_equal(wl_vmstat_read("/nonexistent", keys, v), -1);
}

/* the "Number of blocks type" table, summed over nodes and zones; CMA is a column too */
static void test_pageblocks(void **state)
{
	struct wl_pageblocks pb;
	struct json_object *o;

	assert_int_equal(wl_pageblocks_read(fixtures, &pb), 0);
	assert_int_equal(pb.ntypes, 6);
	assert_string_equal(pb.type[0], "Unmovable");
	assert_string_equal(pb.type[5], "Isolate");
	assert_int_equal(pb.count[0], 1 + 8 + 83 + 100);
	assert_int_equal(pb.count[1], 7 + 1519 + 10662 + 4000);
	assert_int_equal(pb.count[2], 0 + 1 + 7 + 12);
	assert_int_equal(pb.count[4], 2);
	o = wl_pageblocks_json("after", &pb);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"type\":\"pageblocks\",\"when\":\"after\",\"Unmovable\":192,"
			    "\"Movable\":16188,\"Reclaimable\":20,\"HighAtomic\":1,\"CMA\":2,"
			    "\"Isolate\":0}");
	json_object_put(o);
	assert_int_equal(wl_pageblocks_parse("no table here\n", &pb), -1);
	assert_int_equal(wl_pageblocks_parse("Number of blocks type  Unmovable\n"
					     "Node 0, zone Normal x\n", &pb), -1);
	assert_int_equal(wl_pageblocks_read("/nonexistent", &pb), -1);
	/* the real one parses too, where it can be read (root only) */
	if (geteuid() == 0)
		assert_int_equal(wl_pageblocks_read(NULL, &pb), 0);
}

static void test_sysfs_choice(void **state)
{
	char path[512], buf[32];

	snprintf(path, sizeof(path), "%s/sys/enabled", fixtures);
	assert_int_equal(cb_read_choice(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "madvise");
	snprintf(path, sizeof(path), "%s/sys/plain", fixtures);
	assert_int_equal(cb_read_choice(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2097152");
	assert_int_equal(cb_read_choice("/nonexistent", buf, sizeof(buf)), -1);
}

/* base pages of our own are never "huge"; needs root for PFNs, skipped otherwise */
static void test_region_base(void **state)
{
	struct wl_pagemap pm;
	size_t len = 64 * 4096;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t pfn;
	int r;

	assert_true(p != MAP_FAILED);
	madvise(p, len, MADV_NOHUGEPAGE);
	assert_int_equal(wl_pagemap_open(&pm), 0);
	assert_int_equal(wl_pagemap_pfn(&pm, p, &pfn), 0); /* not touched: not present */
	p[0] = 1;
	assert_int_equal(wl_pagemap_pfn(&pm, p, &pfn), 1);
	r = wl_region_huge(&pm, p, len);
	if (r < 0 && geteuid() != 0) {
		wl_pagemap_close(&pm);
		munmap(p, len);
		skip();
	}
	assert_int_equal(r, 0); /* the last page was never touched */
	memset(p, 1, len);
	assert_int_equal(wl_region_huge(&pm, p, len), 0); /* present, but not a THP */
	wl_pagemap_close(&pm);
	munmap(p, len);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nearest_rank),
		cmocka_unit_test(test_summarize),
		cmocka_unit_test(test_log2_bucket),
		cmocka_unit_test(test_buddyinfo),
		cmocka_unit_test(test_vmstat),
		cmocka_unit_test(test_pageblocks),
		cmocka_unit_test(test_sysfs_choice),
		cmocka_unit_test(test_region_base),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	fixtures = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
