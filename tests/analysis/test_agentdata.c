// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_agentdata.c - the agent's sampler (harness/agent/sampler.c) on a fake /proc and /sys tree
 * and the analyzer's reading of what it wrote, against values worked out by hand: the
 * kernel's fragmentation score, kcompactd/khugepaged CPU time (schedstat and the stat
 * fallback), RAPL energy across a counter wrap, the modeled energy.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agentdata.h"
#include "cpustat.h"
#include "energy.h"
#include "frag.h"
#include "metrics.h"
#include "sampler.h"
#include "waves.h"
#include "util.h"

static char root[] = "/tmp/cb-test-agent-XXXXXX";
static char cell[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	assert_int_equal(cb_mkdir_p(dir), 0);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

/*
 * Normal: 100 of order 0, 50 of order 1, 1 of order 9, 2 of order 10
 *   free_pages = 100 + 50*2 + 512 + 2*1024 = 2760
 *   suitable (order 9) = 1 + 2 << 1 = 5 blocks of 512 = 2560
 *   extfrag = (2760 - 2560) * 100 / 2760 = 20000 / 2760 = 7 (integer division)
 * DMA32: 10 of order 0: free 10, none suitable: 100. DMA: no free pages: 0.
 * zoneinfo present: DMA 3998, DMA32 1000, Normal 9000, Movable 0 -> node 13998
 *   weighted DMA32  = 1000 * 100 / 13999 = 7
 *   weighted Normal = 9000 * 7 / 13999   = 4
 *   weighted DMA    = 0;  node score = 11
 */
static const char buddy1[] =
	"Node 0, zone      DMA      0      0      0      0      0      0      0      0      0      0      0 \n"
	"Node 0, zone    DMA32     10      0      0      0      0      0      0      0      0      0      0 \n"
	"Node 0, zone   Normal    100     50      0      0      0      0      0      0      0      1      2 \n";
/* later: Normal has only order-10 blocks (extfrag 0); node score 7 (DMA32 alone) */
static const char buddy2[] =
	"Node 0, zone      DMA      0      0      0      0      0      0      0      0      0      0      0 \n"
	"Node 0, zone    DMA32     10      0      0      0      0      0      0      0      0      0      0 \n"
	"Node 0, zone   Normal      0      0      0      0      0      0      0      0      0      0      3 \n";
static const char zoneinfo[] =
	"Node 0, zone      DMA\n  per-node stats\n      nr_inactive_anon 11819\n"
	"  pages free     3840\n        boost    0\n        min      10\n"
	"        spanned  4095\n        present  3998\n        managed  3840\n"
	"        protection: (0, 1, 2, 3)\n"
	"Node 0, zone    DMA32\n  pages free     10\n        spanned  1000\n"
	"        present  1000\n        managed  990\n"
	"Node 0, zone   Normal\n  pages free     2760\n        present  9000\n"
	"        managed  8900\n"
	"Node 0, zone  Movable\n  pages free     0\n        present  0\n        managed  0\n";

static void test_frag_score(void **state)
{
	struct cb_zone_free bz[8];
	struct cb_zone_info zi[8];
	struct cb_frag_zone_score sc[8];
	int nb, nz, bad = 0;

	nb = cb_buddyinfo_parse(buddy1, bz, 8, NULL);
	assert_int_equal(nb, 3);
	assert_string_equal(bz[2].zone, "Normal");
	assert_int_equal(bz[2].norders, 11);
	nz = cb_zoneinfo_parse(zoneinfo, zi, 8, NULL);
	assert_int_equal(nz, 4);
	assert_int_equal(zi[0].present, 3998);
	assert_int_equal(zi[0].free, 3840);
	assert_int_equal(zi[2].managed, 8900);
	assert_int_equal(cb_extfrag_for_order(bz[2].nr_free, 11, 9), 7);
	assert_int_equal(cb_extfrag_for_order(bz[1].nr_free, 11, 9), 100);
	assert_int_equal(cb_extfrag_for_order(bz[0].nr_free, 11, 9), 0);
	assert_int_equal(cb_frag_scores(bz, nb, zi, nz, 9, sc), 3);
	assert_int_equal(sc[1].weighted, 7);
	assert_int_equal(sc[2].weighted, 4);
	assert_int_equal(sc[2].node_score, 11);
	assert_int_equal(cb_buddyinfo_parse("Node 0, zone DMA 1 x\n", bz, 8, &bad), -1);
	assert_int_equal(bad, 1);
	assert_int_equal(cb_buddyinfo_parse("\nNode 0 zone\n", bz, 8, &bad), -1);
	assert_int_equal(bad, 2);
}

static void test_cpu_and_energy_parsers(void **state)
{
	struct cb_cpu_snap b, a;
	struct cb_cpu_delta d;
	struct cb_energy_snap eb, ea;
	double j;
	int bad = 0;

	assert_int_equal(cb_cpu_parse("# x\n38 kcompactd0 schedstat 1000\n40 khugepaged stat 10\n",
				      &b, NULL), 0);
	assert_int_equal(cb_cpu_parse("38 kcompactd0 schedstat 5000\n40 khugepaged stat 30\n"
				      "41 kcompactd1 schedstat 7\n", &a, NULL), 0);
	cb_cpu_delta(&b, &a, &d);
	assert_int_equal(d.kcompactd_ns, 4000);	/* kcompactd1 is not in before: left out */
	assert_int_equal(d.khugepaged_ns, 20);
	assert_int_equal(d.tasks, 2);
	assert_string_equal(d.source, "mixed");
	assert_int_equal(cb_cpu_parse("38 kcompactd0 1000\n", &b, &bad), -1);
	assert_int_equal(bad, 1);

	/* a wrap: 999 J before, 1 J after, range 1000 J: 2 J */
	/* the counter counts 0..max: a wrap adds max + 1 - before (harness/lib/energy.h) */
	assert_int_equal(cb_energy_delta_uj(999000000, 1000000, 1000000000), 2000001);
	assert_int_equal(cb_energy_delta_uj(5, 9, 1000), 4);
	assert_int_equal(cb_energy_parse("intel-rapl:0 package-0 999000000 1000000000\n"
					 "intel-rapl:1 package-1 10 1000000000\n", &eb, NULL), 0);
	assert_int_equal(cb_energy_parse("intel-rapl:0 package-0 1000000 1000000000\n"
					 "intel-rapl:1 package-1 1000010 1000000000\n", &ea, NULL), 0);
	assert_int_equal(cb_energy_delta(&eb, &ea, &j), 2);
	assert_true(fabs(j - 3.000001) < 1e-9);	/* 2.000001 J (a wrap) + 1 J */
	assert_int_equal(cb_energy_parse("intel-rapl:0 package-0 5 0\n", &eb, &bad), -1);
	assert_true(fabs(cb_energy_modeled(2.5e9, 10) - 25.0) < 1e-9);
}

static void fake_tree(void)
{
	put("proc/buddyinfo", buddy1);
	put("proc/vmstat", "nr_free_pages 5\nthp_fault_alloc 7\nthp_collapse_alloc 2\n");
	put("proc/zoneinfo", zoneinfo);
	put("proc/pagetypeinfo", "Page block order: 9\nPages per block:  512\n");
	put("proc/38/comm", "kcompactd0\n");
	put("proc/38/schedstat", "1000 2 3\n");
	put("proc/40/comm", "khugepaged\n");
	/* no schedstat: the stat fallback; comm with a space and a parenthesis */
	put("proc/40/stat", "40 (khuge paged)) S 2 0 0 0 -1 2129984 0 0 0 0 10 5 0 0 39 19 1 0 "
	    "40 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 1 0 0 0 0 0\n");
	put("proc/1/comm", "systemd\n");
	put("proc/self/comm", "x\n");
	put("sys/class/powercap/intel-rapl:0/name", "package-0\n");
	put("sys/class/powercap/intel-rapl:0/energy_uj", "999000000\n");
	put("sys/class/powercap/intel-rapl:0/max_energy_range_uj", "1000000000\n");
	put("sys/class/powercap/intel-rapl:0:0/name", "core\n");	/* a subzone: not summed */
	put("sys/class/powercap/intel-rapl:0:0/energy_uj", "5\n");
	put("sys/class/powercap/intel-rapl:0:0/max_energy_range_uj", "1000000000\n");
	put("sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "2097152\n");
}

static char *cell_file(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", cell, name);
	return cb_read_file(path, NULL);
}

static void test_sampler(void **state)
{
	struct timespec ms60 = { 0, 60 * 1000000L };
	struct cb_agentdata ad;
	struct cb_metric_in in = { .agent = &ad, .watts_per_core = 10 };
	struct cb_values v;
	struct cb_sampler *s;
	unsigned int a, b, c;
	char err[512], *text;
	long hz = sysconf(_SC_CLK_TCK);
	int n;

	fake_tree();
	assert_int_equal(cb_hpage_order(root), 9);
	snprintf(cell, sizeof(cell), "%s/cell", root);
	assert_int_equal(cb_mkdir_p(cell), 0);
	assert_int_equal(cb_snapshot_extra(cell, root, "before", err, sizeof(err)), 0);
	s = cb_sampler_start(cell, root, 10, err, sizeof(err));
	assert_non_null(s);
	nanosleep(&ms60, NULL);
	put("proc/buddyinfo", buddy2);
	put("proc/vmstat", "nr_free_pages 5\nthp_fault_alloc 10\nthp_collapse_alloc 2\n");
	nanosleep(&ms60, NULL);
	n = cb_sampler_stop(s, err, sizeof(err));
	assert_true(n >= 3);
	put("proc/38/schedstat", "5000 2 3\n");
	put("proc/40/stat", "40 (khuge paged)) S 2 0 0 0 -1 2129984 0 0 0 0 20 10 0 0 39 19 1 0 "
	    "40 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 1 0 0 0 0 0\n");
	put("sys/class/powercap/intel-rapl:0/energy_uj", "1000000\n");
	assert_int_equal(cb_snapshot_extra(cell, root, "after", err, sizeof(err)), 0);

	text = cell_file("samples.csv");
	assert_non_null(text);
	assert_non_null(strstr(text, "t_ns,node,zone,present,score,weighted,node_score,o0,"));
	assert_non_null(strstr(text, ",0,Normal,9000,7,4,11,100,50,"));
	assert_non_null(strstr(text, ",0,DMA32,1000,100,7,11,10,"));
	assert_non_null(strstr(text, ",0,Normal,9000,0,0,7,0,"));
	assert_int_equal(cb_samples_parse(text, 0, 0, &a, &b, &c, NULL), n);
	assert_true(a == 11 && b == 7 && c == 11);
	/* /proc/vmstat's THP counters summed, each sample's in every zone's row: 7 + 2, 10 + 2 */
	assert_non_null(strstr(text, ",o10,thp_alloc\n"));
	assert_non_null(strstr(text, ",9\n"));
	assert_non_null(strstr(text, ",12\n"));
	{
		struct cb_sample_free *sf;
		int bad = 0;
		long ns = cb_samples_free_parse(text, 0, 0, &sf, &bad);

		assert_int_equal(ns, n);
		assert_true(sf[0].has_thp && sf[0].thp == 9 && sf[ns - 1].thp == 12);
		free(sf);
	}
	free(text);
	text = cell_file("cpu.before");
	assert_non_null(strstr(text, "38 kcompactd0 schedstat 1000\n40 khugepaged stat "));
	free(text);
	text = cell_file("energy.after");
	assert_non_null(strstr(text, "intel-rapl:0 package-0 1000000 1000000000\n"));
	assert_null(strstr(text, "intel-rapl:0:0"));
	free(text);
	text = cell_file("zoneinfo.before");
	assert_string_equal(text, zoneinfo);
	free(text);
	text = cell_file("pagetypeinfo.after");
	assert_non_null(text);
	free(text);

	/* the sampler's energy readings: one per sample, all at 999000000 uJ */
	text = cell_file("energy.csv");
	assert_non_null(text);
	assert_non_null(strstr(text, "t_ns,zone,name,energy_uj,max_energy_range_uj\n"));
	assert_non_null(strstr(text, ",intel-rapl:0,package-0,999000000,1000000000\n"));
	free(text);

	/*
	 * the analyzer's reading: hand-computed CPU, score and energy (one wrap, between the
	 * last sample and energy.after: 1000000 + 1000000000 + 1 - 999000000 uJ = 2.000001 J)
	 */
	assert_int_equal(cb_agentdata_read(cell, 0, 0, &ad, err, sizeof(err)), 0);
	assert_true(ad.has_cpu && ad.has_samples && ad.has_energy);
	assert_int_equal(ad.cpu.kcompactd_ns, 4000);
	assert_int_equal(ad.cpu.khugepaged_ns, 15 * (1000000000ULL / (hz > 0 ? hz : 100)));
	assert_int_equal(ad.rapl_zones, 1);
	assert_int_equal(ad.powercap_readings, n + 2);
	assert_string_equal(ad.source, "powercap");
	assert_true(fabs(ad.rapl_j - 2.000001) < 1e-9);
	cb_metrics_compute(&in, &v);
	assert_true(v.v[CB_M_FRAG_SCORE_START] == 11 && v.v[CB_M_FRAG_SCORE_END] == 7);
	assert_true(v.v[CB_M_FRAG_SCORE_MAX] == 11);
	assert_true(fabs(v.v[CB_M_ENERGY_RAPL_J] - 2.000001) < 1e-9);
	assert_false(v.set[CB_M_ENERGY_MODELED_J]);	/* it needs the trace's stall time */
	assert_true(v.v[CB_M_CPU_BACKGROUND_NS] == ad.cpu.kcompactd_ns + ad.cpu.khugepaged_ns);
	/* no wmark.json: no policy ran, and its cost is 0, not null */
	assert_false(ad.has_policy);
	assert_true(v.set[CB_M_CPU_POLICY_NS] && v.v[CB_M_CPU_POLICY_NS] == 0);
}

/* wmark.json's cpu_ns is cpu_policy_ns, part of the background cost and the modeled energy */
static void test_policy_cost(void **state)
{
	static const char wm[] = "{ \"policy\": \"x\", \"checks\": 50, \"triggers\": 48, "
				 "\"cpu_ns\": 123456789 }\n";
	char dir[PATH_MAX], path[PATH_MAX], err[512];
	struct cb_stalls st = { .total_ns = 1000000000ULL };
	struct cb_agentdata ad;
	struct cb_metric_in in = { .agent = &ad, .st = &st, .watts_per_core = 10 };
	struct cb_values v;

	snprintf(dir, sizeof(dir), "%s/policy", root);
	assert_int_equal(cb_mkdir_p(dir), 0);
	snprintf(path, sizeof(path), "%s/wmark.json", dir);
	assert_int_equal(cb_write_file_atomic(path, wm, strlen(wm)), 0);
	snprintf(path, sizeof(path), "%s/cpu.before", dir);
	assert_int_equal(cb_write_file_atomic(path, "38 kcompactd0 schedstat 1000\n", 29), 0);
	snprintf(path, sizeof(path), "%s/cpu.after", dir);
	assert_int_equal(cb_write_file_atomic(path, "38 kcompactd0 schedstat 5000\n", 29), 0);
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), 0);
	assert_true(ad.has_policy);
	assert_int_equal(ad.policy_cpu_ns, 123456789);
	assert_int_equal(ad.policy_checks, 50);
	assert_int_equal(ad.policy_triggers, 48);
	cb_metrics_compute(&in, &v);
	assert_true(v.v[CB_M_CPU_POLICY_NS] == 123456789);
	assert_true(v.v[CB_M_CPU_BACKGROUND_NS] == 4000 + 123456789);
	/* (4000 + 123456789 + 1e9) ns x 10 W = 11.23460789 J */
	assert_true(fabs(v.v[CB_M_ENERGY_MODELED_J] - 11.23460789) < 1e-9);
	/* a file that is not the policy's: an error naming it and the key */
	snprintf(path, sizeof(path), "%s/wmark.json", dir);
	assert_int_equal(cb_write_file_atomic(path, "{ \"cpu_ns\": -1 }", 16), 0);
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/policy/wmark.json: key 'cpu_ns'"));
	assert_int_equal(cb_write_file_atomic(path, "[1", 2), 0);
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/policy/wmark.json: not a JSON object"));
}

/* half a pair and a corrupt file are errors naming the file; no files at all is fine */
static void test_bad_agent_files(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX], err[512];
	struct cb_agentdata ad;

	snprintf(dir, sizeof(dir), "%s/bad", root);
	assert_int_equal(cb_mkdir_p(dir), 0);
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), 0);
	assert_false(ad.has_cpu || ad.has_samples || ad.has_energy);
	snprintf(path, sizeof(path), "%s/cpu.before", dir);
	assert_int_equal(cb_write_file_atomic(path, "38 kcompactd0 schedstat 1\n", 26), 0);
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/bad/cpu.after"));
	snprintf(path, sizeof(path), "%s/cpu.after", dir);
	assert_int_equal(cb_write_file_atomic(path, "38 kcompactd0 schedstat x\n", 26), 0);
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/bad/cpu.after: line 1: not \"pid comm source ns\""));
	unlink(path);
	snprintf(path, sizeof(path), "%s/cpu.before", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	assert_int_equal(cb_write_file_atomic(path, "t_ns,node_score\n1,2\nx,3\n", 23), 0);
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/bad/samples.csv: line 3"));
	/* a sampler on a tree without buddyinfo fails at start, naming the file */
	snprintf(path, sizeof(path), "%s/proc/buddyinfo", root);
	unlink(path);
	assert_null(cb_sampler_start(dir, root, 10, err, sizeof(err)));
	assert_non_null(strstr(err, "/proc/buddyinfo"));
	/* the extra snapshots go on past a missing file and report the first one, with errno */
	snprintf(path, sizeof(path), "%s/proc/zoneinfo", root);
	unlink(path);
	err[0] = '\0';
	assert_int_equal(cb_snapshot_extra(dir, root, "x", err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "/proc/zoneinfo: cannot read"));
	snprintf(path, sizeof(path), "%s/pagetypeinfo.x", dir);
	assert_int_equal(access(path, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frag_score),
		cmocka_unit_test(test_cpu_and_energy_parsers),
		cmocka_unit_test(test_sampler),
		cmocka_unit_test(test_bad_agent_files),
		cmocka_unit_test(test_policy_cost),
	};
	int ret;

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	cb_rm_rf(root);
	return ret;
}
