// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_integration.c - the workload programs against the kernel's own counters, on this
 * machine as it is (the test sets nothing):
 *  - thp-demand's huge/base counts match the /proc/vmstat thp_fault_alloc /
 *    thp_fault_fallback deltas over its run, within 2 + 1% for other processes' faults;
 *  - frag-anon leaves fewer free order>=9 blocks (in pageblock units) than it found.
 * Reads system-wide counters: run alone (is_parallel: false), as root.
 *
 * Usage: test_integration PATH/PROGRAM... (frag-anon and thp-demand among them)
 */
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "util.h"
#include "wl_mm.h"
#include "wlt.h"

static const char *frag_anon, *thp_demand;

static const char *const vm_keys[] = { "thp_fault_alloc", "thp_fault_fallback", NULL };

/* |ours - kernel's| <= 2 + 1% of the regions: other processes may fault THPs meanwhile */
static void assert_close(const char *what, long long ours, long long kernel, long long regions)
{
	long long diff = llabs(ours - kernel);

	printf("# %s: thp-demand %lld, /proc/vmstat delta %lld (of %lld regions)\n", what, ours,
	       kernel, regions);
	if (diff > 2 + regions / 100)
		fail_msg("%s: thp-demand says %lld, the kernel counted %lld", what, ours, kernel);
}

static void thp_vs_vmstat(char **argv, bool check_fallback)
{
	long long before[2], after[2], regions, huge;
	struct json_object *sum;
	struct wlt_result r;

	assert_int_equal(wl_vmstat_read(NULL, vm_keys, before), 0);
	if (before[0] < 0)
		skip(); /* no THP counters in this kernel */
	assert_int_equal(wlt_run(argv, NULL, &r), 0);
	assert_int_equal(wl_vmstat_read(NULL, vm_keys, after), 0);
	assert_int_equal(r.status, 0);
	assert_true(r.json_ok);
	sum = r.lines[r.nlines - 1];
	assert_string_equal(wlt_get_str(sum, "type"), "summary");
	assert_string_equal(wlt_get_str(sum, "method"), "pagemap+kpageflags");
	regions = wlt_get_int(sum, "regions");
	huge = wlt_get_int(sum, "huge");
	assert_true(regions > 0);
	assert_close("huge vs thp_fault_alloc", huge, after[0] - before[0], regions);
	if (check_fallback)
		assert_close("base vs thp_fault_fallback", wlt_get_int(sum, "base"),
			     after[1] - before[1], regions);
	wlt_free(&r);
}

static void test_thp_counts(void **state)
{
	char *argv[] = { (char *)thp_demand, (char *)"--size", (char *)"256M", NULL };
	char enabled[32] = "";

	if (cb_read_choice("/sys/kernel/mm/transparent_hugepage/enabled", enabled,
			    sizeof(enabled)) < 0)
		skip();
	/* with THP off, no fault even tries a huge page: no fallback is counted */
	thp_vs_vmstat(argv, strcmp(enabled, "never") != 0);
}

/* sum of the per-size anon_fault_alloc counters of the mTHP sizes >= @min_kb; -1 if none */
static long long mthp_allocs_from(unsigned long min_kb)
{
	static const char *thp = "/sys/kernel/mm/transparent_hugepage";
	struct dirent *de;
	DIR *dir = opendir(thp);
	long long sum = -1;
	unsigned long kb;

	while (dir && (de = readdir(dir))) {
		char path[512], *text;

		if (sscanf(de->d_name, "hugepages-%lukB", &kb) != 1 || kb < min_kb)
			continue;
		snprintf(path, sizeof(path), "%s/%s/stats/anon_fault_alloc", thp, de->d_name);
		text = cb_read_file(path, NULL);
		if (!text)
			continue;
		sum = (sum < 0 ? 0 : sum) + atoll(text);
		free(text);
	}
	if (dir)
		closedir(dir);
	return sum;
}

/*
 * 64 KiB regions with the mTHP settings as they are: a region is huge when one fault mapped
 * all of it with a large folio of 64 KiB or more, so thp-demand's huge count must match the
 * per-size anon_fault_alloc counters of the sizes >= 64 KiB (all 0 when they are "never";
 * a PMD fault maps 32 regions at once, the other 31 are "prefaulted").
 */
static void test_mthp_counts(void **state)
{
	char *argv[] = { (char *)thp_demand, (char *)"--size", (char *)"64M", (char *)"--mthp-size",
			 (char *)"64k", NULL };
	long long before = mthp_allocs_from(64), after;
	struct json_object *sum;
	struct wlt_result r;

	if (before < 0 || access("/sys/kernel/mm/transparent_hugepage/hugepages-64kB", F_OK))
		skip(); /* no per-size counters, or no 64 KiB size */
	assert_int_equal(wlt_run(argv, NULL, &r), 0);
	after = mthp_allocs_from(64);
	assert_int_equal(r.status, 0);
	assert_true(r.json_ok);
	sum = r.lines[r.nlines - 1];
	assert_int_equal(wlt_get_int(sum, "regions") + wlt_get_int(sum, "prefaulted"), 1024);
	assert_close("64k huge vs anon_fault_alloc of sizes >= 64k", wlt_get_int(sum, "huge"),
		     after - before, wlt_get_int(sum, "regions"));
	wlt_free(&r);
}

/* free blocks of order >= 9 in units of order-9 blocks, from a buddyinfo line */
static long long high_blocks(struct json_object *line)
{
	struct json_object *zones, *z, *free_arr;
	long long sum = 0;
	size_t i, o;

	assert_true(json_object_object_get_ex(line, "zones", &zones));
	for (i = 0; i < json_object_array_length(zones); i++) {
		z = json_object_array_get_idx(zones, i);
		assert_true(json_object_object_get_ex(z, "free", &free_arr));
		for (o = 9; o < json_object_array_length(free_arr); o++)
			sum += json_object_get_int64(json_object_array_get_idx(free_arr, o))
			       << (o - 9);
	}
	return sum;
}

/*
 * How much to fill: the allocator hands out its small free blocks first, so the fill must
 * be larger than all free memory in blocks below order 9 to reach the 2 MiB blocks; @margin
 * more than that, within a quarter of MemAvailable. 0 if that is not possible here.
 */
static unsigned long long frag_size(unsigned long long margin)
{
	struct wl_buddy_zone z[WL_BUDDY_MAX_ZONES];
	long long avail_kb = cb_meminfo_kb(NULL, "MemAvailable");
	unsigned long long small = 0, want;
	int n = wl_buddyinfo_read(NULL, z, WL_BUDDY_MAX_ZONES), i, o;

	if (n <= 0 || avail_kb <= 0)
		return 0;
	for (i = 0; i < n; i++)
		for (o = 0; o < 9 && o < z[i].norders; o++)
			small += (z[i].free[o] << o) * 4096ULL;
	want = small + margin;
	return want <= (unsigned long long)avail_kb * 1024 / 4 ? want : 0;
}

/*
 * One fill; returns whether the free 2 MiB blocks went down. Pages on the per-CPU lists and
 * pages the free page reporting of this VM holds isolated are in no buddyinfo column, so a
 * fill can be served from memory buddyinfo did not count: the caller retries larger.
 */
static bool frag_once(unsigned long long size)
{
	char size_arg[32];
	char *argv[] = { (char *)frag_anon, (char *)"--size", size_arg, (char *)"--hold",
			 (char *)"0", NULL };
	struct wlt_trigger t = { .text = "\"phase\":\"ready\"", .on_stdout = true,
				 .sig = SIGTERM };
	struct json_object *before = NULL, *after = NULL;
	struct wlt_result r;
	long long b, a;
	size_t i;

	snprintf(size_arg, sizeof(size_arg), "%llu", size);
	assert_int_equal(wlt_run(argv, &t, &r), 0);
	assert_int_equal(r.status, 0);
	assert_true(r.json_ok);
	for (i = 0; i < r.nlines; i++) {
		const char *when = wlt_get_str(r.lines[i], "when");

		if (when && !strcmp(when, "before"))
			before = r.lines[i];
		if (when && !strcmp(when, "after"))
			after = r.lines[i];
	}
	assert_non_null(before);
	assert_non_null(after);
	b = high_blocks(before);
	a = high_blocks(after);
	printf("# filled %llu MiB: free 2 MiB blocks %lld before, %lld after\n", size >> 20, b, a);
	wlt_free(&r);
	return a < b;
}

static void test_frag_buddyinfo(void **state)
{
	unsigned long long margin = 512ULL << 20, size;
	int tries;

	for (tries = 0; tries < 3; tries++, margin *= 2) {
		size = frag_size(margin);
		if (!size)
			break;
		if (frag_once(size))
			return;
	}
	if (!tries)
		skip(); /* too much free memory in small blocks to reach 2 MiB ones */
	fail_msg("the free 2 MiB blocks did not go down in %d fills", tries);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thp_counts),
		cmocka_unit_test(test_mthp_counts),
		cmocka_unit_test(test_frag_buddyinfo),
	};

	frag_anon = wlt_path_of(argc, argv, "frag-anon");
	thp_demand = wlt_path_of(argc, argv, "thp-demand");
	if (!frag_anon || !thp_demand) {
		fprintf(stderr, "usage: %s PATH/PROGRAM... (frag-anon and thp-demand among "
			"them)\n", argv[0]);
		return 2;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
