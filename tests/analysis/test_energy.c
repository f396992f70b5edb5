// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_energy.c - measured energy on a fake sysfs root: powercap package and DRAM zones,
 * counter wrap-around between two readings and across the sampler's readings, the wrap
 * bound, a missing max_energy_range_uj, a machine without DRAM; perf's power PMU files
 * (type, event config, scale, unit, cpumask) and counts x scale; the agent's choice of
 * source and the analyzer's reading of it. Every expected figure is worked out by hand in
 * the comments. perf_event_open(2) itself runs only where the real power PMU exists.
 *
 * The fake root is a mkdtemp directory; CB_TEST_SYSFS_ROOT, if set, is used instead (it
 * must be an empty, writable directory).
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
#include <unistd.h>

#include <json-c/json.h>

#include "agentdata.h"
#include "energy.h"
#include "energy_rec.h"
#include "metrics.h"
#include "perf_power.h"
#include "summary_json.h"
#include "util.h"

static char tmpl[] = "/tmp/cb-test-energy-XXXXXX";
static char root[PATH_MAX];

#define PC "sys/class/powercap/"
#define PMU "sys/bus/event_source/devices/power/"
#define M262 "262143328850"	/* a common package max_energy_range_uj */

/* @root/@sub/@rel := @text */
static void put(const char *sub, const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;

	snprintf(path, sizeof(path), "%s/%s/%s", root, sub, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	assert_int_equal(cb_mkdir_p(dir), 0);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

static void zone(const char *sub, const char *z, const char *name, const char *uj, const char *max)
{
	char rel[256];

	snprintf(rel, sizeof(rel), PC "%s/name", z);
	put(sub, rel, name);
	snprintf(rel, sizeof(rel), PC "%s/energy_uj", z);
	put(sub, rel, uj);
	if (max) {
		snprintf(rel, sizeof(rel), PC "%s/max_energy_range_uj", z);
		put(sub, rel, max);
	}
}

static char *subroot(const char *sub)
{
	static char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s/%s", root, sub);
	return buf;
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

/*
 * Two packages, one with DRAM; core, psys and the mmio copy of the package are not read.
 *   package-0: 1000000 -> 3500000 uJ = 2.5 J; package-1: 0 -> 1000000 uJ = 1 J
 *   dram:      200000 -> 450000 uJ   = 0.25 J
 *   package 3.5 J, dram 0.25 J, total 3.75 J
 */
static void test_package_and_dram(void **state)
{
	struct cb_energy_snap s[2], p;
	struct cb_energy_sum sum;
	char err[512], *text;

	zone("a", "intel-rapl:0", "package-0\n", "1000000\n", M262 "\n");
	zone("a", "intel-rapl:0:0", "dram\n", "200000\n", "65712999613\n");
	zone("a", "intel-rapl:0:1", "core\n", "77\n", M262 "\n");
	zone("a", "intel-rapl:1", "package-1\n", "0\n", M262 "\n");
	zone("a", "intel-rapl:2", "psys\n", "5\n", M262 "\n");
	zone("a", "intel-rapl-mmio:0", "package-0\n", "9\n", M262 "\n");
	assert_int_equal(cb_energy_read(subroot("a"), &s[0], err, sizeof(err)), 3);
	assert_string_equal(s[0].z[0].zone, "intel-rapl:0");
	assert_string_equal(s[0].z[1].zone, "intel-rapl:0:0");
	assert_string_equal(s[0].z[1].name, "dram");
	assert_string_equal(s[0].z[2].name, "package-1");
	assert_true(s[0].t_ns > 0);
	zone("a", "intel-rapl:0", "package-0\n", "3500000\n", M262 "\n");
	zone("a", "intel-rapl:0:0", "dram\n", "450000\n", "65712999613\n");
	zone("a", "intel-rapl:1", "package-1\n", "1000000\n", M262 "\n");
	assert_int_equal(cb_energy_read(subroot("a"), &s[1], err, sizeof(err)), 3);
	assert_int_equal(cb_energy_chain(s, 2, &sum), 3);
	assert_true(near(sum.j[CB_ENERGY_PKG], 3.5));
	assert_true(near(sum.j[CB_ENERGY_DRAM], 0.25));
	assert_true(near(sum.total_j, 3.75));
	assert_int_equal(sum.nz[CB_ENERGY_PKG], 2);
	assert_int_equal(sum.nz[CB_ENERGY_DRAM], 1);
	assert_int_equal(sum.wraps, 0);
	/* 65712999613 uJ at 1000 W: 65.712999613 s, the shortest of the zones */
	assert_true(near(sum.wrap_s, 65.712999613));
	/* the file round trip */
	assert_int_equal(cb_energy_format(&s[1], &text), 0);
	assert_non_null(strstr(text, "intel-rapl:0:0 dram 450000 65712999613\n"));
	assert_int_equal(cb_energy_parse(text, &p, NULL), 0);
	free(text);
	assert_int_equal(p.n, 3);
	assert_true(p.t_ns == s[1].t_ns);
	assert_true(p.z[2].uj == 1000000);
}

/*
 * One wrap between start and end: max 1000000000 uJ, 999000000 -> 1000000:
 *   1000000 + 1000000000 + 1 - 999000000 = 2000001 uJ = 2.000001 J
 * and a machine without DRAM: one package zone, no DRAM figure (null, not 0).
 */
static void test_wrap_no_dram(void **state)
{
	struct cb_energy_snap s[2];
	struct cb_energy_sum sum;
	char err[512];

	assert_true(cb_energy_delta_uj(999000000, 1000000, 1000000000) == 2000001);
	assert_true(cb_energy_delta_uj(5, 9, 1000) == 4);
	assert_true(cb_energy_delta_uj(1000, 0, 1000) == 1);	/* the top value, then 0 */
	zone("b", "intel-rapl:0", "package-0\n", "999000000\n", "1000000000\n");
	assert_int_equal(cb_energy_read(subroot("b"), &s[0], err, sizeof(err)), 1);
	zone("b", "intel-rapl:0", "package-0\n", "1000000\n", "1000000000\n");
	assert_int_equal(cb_energy_read(subroot("b"), &s[1], err, sizeof(err)), 1);
	assert_int_equal(cb_energy_chain(s, 2, &sum), 1);
	assert_true(near(sum.total_j, 2.000001));
	assert_int_equal(sum.wraps, 1);
	assert_int_equal(sum.nz[CB_ENERGY_DRAM], 0);
	assert_true(sum.j[CB_ENERGY_DRAM] == 0);
}

/* a missing max_energy_range_uj, a non-number, a counter above its range: the file named */
static void test_bad_powercap(void **state)
{
	struct cb_energy_snap s;
	char err[512], *text = NULL;

	zone("c", "intel-rapl:0", "package-0\n", "5\n", NULL);
	assert_int_equal(cb_energy_read(subroot("c"), &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/c/sys/class/powercap/intel-rapl:0/max_energy_range_uj: "
				    "cannot read"));
	assert_int_equal(cb_energy_snapshot(subroot("c"), &text, err, sizeof(err)), -1);
	assert_null(text);
	zone("c", "intel-rapl:0", "package-0\n", "x5\n", "1000\n");
	assert_int_equal(cb_energy_read(subroot("c"), &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "intel-rapl:0/energy_uj: not a number"));
	zone("c", "intel-rapl:0", "package-0\n", "1001\n", "1000\n");
	assert_int_equal(cb_energy_read(subroot("c"), &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "intel-rapl:0/energy_uj: 1001 is above"));
	/* no powercap directory at all: no zones, no error */
	assert_int_equal(cb_energy_read(subroot("none"), &s, err, sizeof(err)), 0);
}

static void cell_put(const char *cell, const char *name, const char *text)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "%s", name);
	put(cell, rel, text);
}

/*
 * Several wraps across the sampler's readings, M = 262143328850 (period M + 1):
 *   t=1.00 s  262143000000   energy.before
 *   t=1.25 s     100000000   wrap:  100000000 + 328851       = 100328851
 *   t=1.50 s  262143328000          262143328000 - 100000000 = 262043328000
 *   t=1.75 s             5   wrap:  5 + 851                  = 856
 *   t=2.00 s          1000   energy.after                    = 995
 *   sum 262143658702 uJ = 262143.658702 J, 2 wraps, longest interval 0.25 s
 * (= 2 (M + 1) + 1000 - 262143000000; the two end readings alone would give one wrap:
 * 1000 + 328851 = 329851 uJ, the wrong figure.)
 */
static void test_wraps_across_samples(void **state)
{
	struct cb_agentdata ad;
	struct cb_metric_in in = { .agent = &ad };
	struct cb_values v;
	struct json_object *o, *x;
	char err[512], dir[PATH_MAX];

	cell_put("cell1", "energy.before", "# compactbench energy 2: zone name energy_uj "
		 "max_energy_range_uj\n# t_ns 1000000000\nintel-rapl:0 package-0 262143000000 "
		 M262 "\n");
	cell_put("cell1", "energy.csv", "t_ns,zone,name,energy_uj,max_energy_range_uj\n"
		 "1250000000,intel-rapl:0,package-0,100000000," M262 "\n"
		 "1500000000,intel-rapl:0,package-0,262143328000," M262 "\n"
		 "1750000000,intel-rapl:0,package-0,5," M262 "\n");
	cell_put("cell1", "energy.after", "# t_ns 2000000000\nintel-rapl:0 package-0 1000 "
		 M262 "\n");
	snprintf(dir, sizeof(dir), "%s/cell1", root);
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), 0);
	assert_true(ad.has_energy && ad.powercap_ok && ad.measured);
	assert_string_equal(ad.source, "powercap");
	assert_int_equal(ad.powercap_readings, 5);
	assert_int_equal(ad.powercap.wraps, 2);
	assert_true(near(ad.rapl_j, 262143.658702));
	assert_true(near(ad.powercap.max_gap_s, 0.25));
	cb_metrics_compute(&in, &v);
	assert_true(v.set[CB_M_ENERGY_RAPL_J] && near(v.v[CB_M_ENERGY_RAPL_J], 262143.658702));
	o = cb_summary_energy_json(&ad, NULL, 10);
	assert_true(json_object_object_get_ex(o, "source", &x));
	assert_string_equal(json_object_get_string(x), "powercap");
	assert_true(json_object_object_get_ex(o, "domains", &x));
	/* summary.json numbers have 10 significant digits (cb_json_num) */
	assert_string_equal(json_object_to_json_string_ext(x, JSON_C_TO_STRING_PLAIN),
			    "{\"package_j\":262143.6587,\"dram_j\":null}");
	assert_true(json_object_object_get_ex(o, "perf_power", &x) && !x);
	json_object_put(o);

	/* a reading out of time order, or with other zones, is bad input naming the file */
	cell_put("cell1", "energy.csv", "t_ns,zone,name,energy_uj,max_energy_range_uj\n"
		 "1250000000,intel-rapl:0,package-0,100000000," M262 "\n"
		 "1200000000,intel-rapl:0,package-0,100000001," M262 "\n");
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/cell1/energy.csv: line 3"));
	cell_put("cell1", "energy.csv", "t_ns,zone,name,energy_uj,max_energy_range_uj\n"
		 "1250000000,intel-rapl:1,package-1,100000000," M262 "\n");
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the RAPL zones differ"));

	/*
	 * No energy.csv and 399 s between the two readings: longer than the wrap period at
	 * 1000 W (262.14332885 s), a second wrap cannot be excluded: no figure, a note.
	 */
	snprintf(dir, sizeof(dir), "%s/cell1/energy.csv", root);
	unlink(dir);
	cell_put("cell1", "energy.after", "# t_ns 400000000000\nintel-rapl:0 package-0 1000 "
		 M262 "\n");
	snprintf(dir, sizeof(dir), "%s/cell1", root);
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), 0);
	assert_false(ad.powercap_ok || ad.measured);
	assert_string_equal(ad.source, "modeled");
	assert_non_null(strstr(ad.powercap_note, "399.0 s between two readings"));
	cb_metrics_compute(&in, &v);
	assert_false(v.set[CB_M_ENERGY_RAPL_J]);
	/* version 1 files (no times): the meta window bounds the interval, here 300 s */
	cell_put("cell1", "energy.before", "intel-rapl:0 package-0 262143000000 " M262 "\n");
	cell_put("cell1", "energy.after", "intel-rapl:0 package-0 1000 " M262 "\n");
	assert_int_equal(cb_agentdata_read(dir, 1, 300000000001ULL, &ad, err, sizeof(err)), 0);
	assert_false(ad.powercap_ok);
	assert_int_equal(cb_agentdata_read(dir, 1, 100000000001ULL, &ad, err, sizeof(err)), 0);
	assert_true(ad.powercap_ok && near(ad.rapl_j, 0.329851));
}

/* a fake power PMU: Intel's files, with energy-ram's event term placed by format/event */
static void fake_pmu(const char *sub)
{
	put(sub, PMU "type", "9\n");
	put(sub, PMU "cpumask", "0,28\n");
	put(sub, PMU "format/event", "config:0-7\n");
	put(sub, PMU "events/energy-pkg", "event=0x02\n");
	put(sub, PMU "events/energy-pkg.scale", "2.3283064365386962890625e-10\n");
	put(sub, PMU "events/energy-pkg.unit", "Joules\n");
	put(sub, PMU "events/energy-ram", "event=0x03\n");
	put(sub, PMU "events/energy-ram.scale", "1.52587890625e-05\n");
	put(sub, PMU "events/energy-ram.unit", "Joules\n");
	put(sub, PMU "events/energy-cores", "event=0x01\n");	/* inside the package */
	put(sub, PMU "events/energy-cores.scale", "2.3283064365386962890625e-10\n");
	put(sub, PMU "events/energy-cores.unit", "Joules\n");
}

static void test_perf_power_files(void **state)
{
	struct cb_pp_pmu pmu;
	struct cb_pp_snap b, a;
	double j[CB_ENERGY_NR_DOMAINS] = { 0 }, scale;
	char err[512], dir[PATH_MAX], *text;
	uint64_t config;
	int cpus[8];

	/* scale: 2^-32 J exactly (Intel's 61 uJ unit is 2^-14 J, perf reports in 2^-32 J) */
	assert_int_equal(cb_pp_parse_scale("2.3283064365386962890625e-10\n", &scale), 0);
	assert_true(scale == ldexp(1, -32));
	assert_int_equal(cb_pp_parse_scale("0\n", &scale), -1);
	assert_int_equal(cb_pp_parse_scale("x", &scale), -1);
	/* 2^32 counts at 2^-32 J: 1 J; 4294967296000 counts: 1000 J */
	assert_true(cb_pp_joules(4294967296ULL, ldexp(1, -32)) == 1.0);
	assert_true(cb_pp_joules(4294967296000ULL, scale) == 1000.0);
	assert_int_equal(cb_pp_parse_cpumask("0,28\n", cpus, 8), 2);
	assert_true(cpus[0] == 0 && cpus[1] == 28);
	assert_int_equal(cb_pp_parse_cpumask("0-2,5", cpus, 8), 4);
	assert_true(cpus[2] == 2 && cpus[3] == 5);
	assert_int_equal(cb_pp_parse_cpumask("0-2,x", cpus, 8), -1);

	fake_pmu("p");
	snprintf(dir, sizeof(dir), "%s/p/" PMU, root);
	assert_int_equal(cb_pp_parse_event(dir, "event=0x02\n", &config, err, sizeof(err)), 0);
	assert_true(config == 2);
	assert_int_equal(cb_pp_parse_event(dir, "event=0x100", &config, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "does not fit config:0-7"));
	assert_int_equal(cb_pp_parse_event(dir, "umask=0x1", &config, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/format/umask: cannot read"));
	put("p", PMU "format/event", "config:8-15\n");
	assert_int_equal(cb_pp_parse_event(dir, "event=0x02", &config, err, sizeof(err)), 0);
	assert_true(config == 0x200);
	put("p", PMU "format/event", "config:0-7\n");

	assert_int_equal(cb_pp_probe(subroot("p"), &pmu, err, sizeof(err)), 1);
	assert_int_equal(pmu.type, 9);
	assert_int_equal(pmu.nev, 2);
	assert_string_equal(pmu.ev[0].name, "energy-pkg");
	assert_true(pmu.ev[0].config == 2 && pmu.ev[0].domain == CB_ENERGY_PKG);
	assert_true(pmu.ev[1].config == 3 && pmu.ev[1].domain == CB_ENERGY_DRAM);
	assert_true(pmu.ev[1].scale == ldexp(1, -16));
	assert_int_equal(pmu.ncpu, 2);
	assert_int_equal(pmu.cpu[1], 28);
	/* no PMU: 0; a missing scale or a unit not in joules: -1 naming the file */
	assert_int_equal(cb_pp_probe(subroot("none"), &pmu, err, sizeof(err)), 0);
	put("p", PMU "events/energy-ram.unit", "mJ\n");
	assert_int_equal(cb_pp_probe(subroot("p"), &pmu, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/events/energy-ram.unit: 'mJ': not Joules"));
	put("p", PMU "events/energy-ram.unit", "Joules\n");
	snprintf(dir, sizeof(dir), "%s/p/" PMU "events/energy-pkg.scale", root);
	unlink(dir);
	assert_int_equal(cb_pp_probe(subroot("p"), &pmu, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/events/energy-pkg.scale: cannot read"));

	/*
	 * The perf-power.* files: package on two sockets and DRAM on one.
	 *   pkg cpu 0:  1000 -> 1000 + 3 * 2^32 counts at 2^-32 J = 3 J
	 *   pkg cpu 28: 0 -> 2^31 counts                            = 0.5 J
	 *   ram cpu 0:  65536 -> 65536 * 3 counts at 2^-16 J        = 2 J
	 */
	assert_int_equal(cb_pp_parse("# compactbench perf-power 1: event cpu count scale unit\n"
		"energy-pkg 0 1000 2.3283064365386962890625e-10 Joules\n"
		"energy-pkg 28 0 2.3283064365386962890625e-10 Joules\n"
		"energy-ram 0 65536 1.52587890625e-05 Joules\n", &b, NULL), 0);
	assert_int_equal(cb_pp_parse("energy-pkg 0 12884902888 2.3283064365386962890625e-10 Joules\n"
		"energy-pkg 28 2147483648 2.3283064365386962890625e-10 Joules\n"
		"energy-ram 0 196608 1.52587890625e-05 Joules\n", &a, NULL), 0);
	assert_int_equal(cb_pp_delta(&b, &a, j, err, sizeof(err)), 3);
	assert_true(near(j[CB_ENERGY_PKG], 3.5) && near(j[CB_ENERGY_DRAM], 2.0));
	assert_int_equal(cb_pp_format(&a, &text), 0);
	assert_non_null(strstr(text, "energy-pkg 28 2147483648 2.3283064365386962890625e-10 "
				     "Joules\n"));
	free(text);
	/* a count that went down is an error, not a negative energy */
	a.c[2].count = 65535;
	assert_int_equal(cb_pp_delta(&b, &a, j, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "energy-ram cpu 0: the count went down from 65536 to 65535"));
	assert_int_equal(cb_pp_parse("energy-pkg 0 5 2e-10 mJ\n", &b, NULL), -1);
}

/* the analyzer: perf-power alone is the source; with powercap both are shown */
static void test_perf_power_cell(void **state)
{
	struct cb_agentdata ad;
	struct json_object *o, *x;
	char err[512], dir[PATH_MAX];

	/* pkg 1000 -> 1000 + 2^33 counts at 2^-32 J = 2 J */
	cell_put("cell2", "perf-power.before", "energy-pkg 0 1000 "
		 "2.3283064365386962890625e-10 Joules\n");
	cell_put("cell2", "perf-power.after", "energy-pkg 0 8589935592 "
		 "2.3283064365386962890625e-10 Joules\n");
	snprintf(dir, sizeof(dir), "%s/cell2", root);
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), 0);
	assert_string_equal(ad.source, "perf-power");
	assert_true(ad.measured && near(ad.rapl_j, 2.0));
	o = cb_summary_energy_json(&ad, NULL, 10);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
		"{\"source\":\"perf-power\",\"rapl_j\":2,\"domains\":{\"package_j\":2,"
		"\"dram_j\":null},\"rapl_zones\":0,\"powercap\":null,\"perf_power\":{\"j\":2,"
		"\"domains\":{\"package_j\":2,\"dram_j\":null},\"counters\":1},\"modeled_j\":null,"
		"\"model\":\"modeled: (kcompactd + khugepaged + wmark policy CPU ns + direct "
		"compaction stall ns) x watts_per_busy_core\",\"watts_per_busy_core\":10}");
	json_object_put(o);
	/* both: powercap (0.5 J) is the figure, perf-power (2 J) recorded beside it */
	cell_put("cell2", "energy.before", "# t_ns 1000\nintel-rapl:0 package-0 500000 " M262 "\n");
	cell_put("cell2", "energy.after", "# t_ns 2000\nintel-rapl:0 package-0 1000000 " M262 "\n");
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), 0);
	assert_string_equal(ad.source, "powercap");
	assert_true(near(ad.rapl_j, 0.5) && near(ad.perf_total_j, 2.0));
	o = cb_summary_energy_json(&ad, NULL, 10);
	assert_true(json_object_object_get_ex(o, "perf_power", &x) && x);
	assert_true(json_object_object_get_ex(o, "powercap", &x) && x);
	assert_true(json_object_object_get_ex(x, "j", &x) && near(json_object_get_double(x), 0.5));
	json_object_put(o);
	/* a count that went down: bad input naming the file */
	cell_put("cell2", "perf-power.after", "energy-pkg 0 999 "
		 "2.3283064365386962890625e-10 Joules\n");
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/cell2/perf-power.after: energy-pkg cpu 0: the count went "
				    "down"));
	/* half a pair */
	snprintf(dir, sizeof(dir), "%s/cell2/perf-power.after", root);
	unlink(dir);
	snprintf(dir, sizeof(dir), "%s/cell2", root);
	assert_int_equal(cb_agentdata_read(dir, 0, 0, &ad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "perf-power.after: missing"));
}

/* the agent's choice of source, and meta.json's "energy" */
static void test_energy_rec(void **state)
{
	struct cb_energy_rec *r;
	char err[512], cell[PATH_MAX], path[PATH_MAX];
	struct json_object *meta = NULL;
	const char *m;

	snprintf(cell, sizeof(cell), "%s/reccell", root);
	assert_int_equal(cb_mkdir_p(cell), 0);
	/* neither: modeled */
	r = cb_energy_rec_start(cell, subroot("none"), err, sizeof(err));
	assert_non_null(r);
	assert_string_equal(cb_energy_rec_source(r), "modeled");
	assert_int_equal(cb_energy_rec_stop(r, cell, err, sizeof(err)), 0);
	json_object_put(meta);
	meta = cb_energy_rec_meta(r);
	m = json_object_to_json_string_ext(meta, JSON_C_TO_STRING_PLAIN);
	assert_string_equal(m, "{\"source\":\"modeled\",\"powercap\":[],\"perf_power\":[],"
			    "\"perf_power_error\":null}");
	cb_energy_rec_free(r);
	/* powercap (tree "a"): package-0, dram, package-1 */
	r = cb_energy_rec_start(cell, subroot("a"), err, sizeof(err));
	assert_non_null(r);
	assert_string_equal(cb_energy_rec_source(r), "powercap");
	json_object_put(meta);
	meta = cb_energy_rec_meta(r);
	m = json_object_to_json_string_ext(meta, JSON_C_TO_STRING_PLAIN);
	assert_non_null(strstr(m, "\"powercap\":[\"package-0\",\"dram\",\"package-1\"]"));
	cb_energy_rec_free(r);
	/* a powercap zone that cannot be read fails the cell, naming the file */
	assert_null(cb_energy_rec_start(cell, subroot("c"), err, sizeof(err)));
	assert_non_null(strstr(err, "intel-rapl:0/energy_uj"));
	/*
	 * A PMU whose event the kernel does not know (a fake type): opening fails, which is no
	 * error; the source stays modeled and meta.json says why.
	 */
	fake_pmu("q");
	put("q", PMU "type", "2147483000\n");
	r = cb_energy_rec_start(cell, subroot("q"), err, sizeof(err));
	assert_non_null(r);
	assert_string_equal(cb_energy_rec_source(r), "modeled");
	json_object_put(meta);
	meta = cb_energy_rec_meta(r);
	m = json_object_to_json_string_ext(meta, JSON_C_TO_STRING_PLAIN);
	assert_non_null(strstr(m, "\"perf_power_error\":\"perf_event_open(type 2147483000, "
				  "config 0x2 = energy-pkg, cpu 0): "));
	cb_energy_rec_free(r);
	json_object_put(meta);
	snprintf(path, sizeof(path), "%s/perf-power.before", cell);
	assert_int_equal(access(path, F_OK), -1);
}

/*
 * The real power PMU, where it exists: energy-pkg/energy-ram if it has them, else any
 * energy-* event it has (a guest may have energy-psys only, reading 0), opened system-wide
 * on its first CPU and read twice; the count must not go down.
 */
static void test_real_pmu(void **state)
{
	static const char dir[] = "/sys/bus/event_source/devices/power";
	struct cb_pp_pmu pmu;
	struct cb_pp_snap s1, s2;
	double j[CB_ENERGY_NR_DOMAINS] = { 0 };
	struct cb_pp *pp;
	char err[512], buf[256];
	int ret;

	if (access(dir, F_OK)) {
		printf("skip: %s does not exist (no power PMU on this machine)\n", dir);
		skip();
	}
	ret = cb_pp_probe("", &pmu, err, sizeof(err));
	assert_int_not_equal(ret, -1);
	if (ret == 0) {
		/* no energy-pkg/energy-ram: build the PMU from energy-psys by hand */
		printf("note: %s\n", err);
		memset(&pmu, 0, sizeof(pmu));
		if (cb_read_trimmed("/sys/bus/event_source/devices/power/events/energy-psys", buf,
				    sizeof(buf)) < 0) {
			printf("skip: the power PMU has no energy-pkg, energy-ram or energy-psys\n");
			skip();
		}
		assert_int_equal(cb_read_trimmed("/sys/bus/event_source/devices/power/type", err,
						 sizeof(err)), 0);
		pmu.type = atoi(err);
		assert_int_equal(cb_pp_parse_event(dir, buf, &pmu.ev[0].config, err, sizeof(err)),
				 0);
		snprintf(pmu.ev[0].name, sizeof(pmu.ev[0].name), "energy-psys");
		pmu.ev[0].domain = -1;
		assert_int_equal(cb_read_trimmed("/sys/bus/event_source/devices/power/events/"
						 "energy-psys.scale", pmu.ev[0].scale_text,
						 sizeof(pmu.ev[0].scale_text)), 0);
		assert_int_equal(cb_pp_parse_scale(pmu.ev[0].scale_text, &pmu.ev[0].scale), 0);
		snprintf(pmu.ev[0].unit, sizeof(pmu.ev[0].unit), "Joules");
		pmu.nev = 1;
		assert_int_equal(cb_read_trimmed("/sys/bus/event_source/devices/power/cpumask",
						 buf, sizeof(buf)), 0);
		pmu.ncpu = cb_pp_parse_cpumask(buf, pmu.cpu, CB_PP_MAX_CPUS);
		assert_true(pmu.ncpu > 0);
	}
	pp = cb_pp_open(&pmu, err, sizeof(err));
	if (!pp) {
		printf("skip: %s\n", err);
		skip();
	}
	assert_int_equal(cb_pp_read(pp, &s1, err, sizeof(err)), 0);
	usleep(100000);
	assert_int_equal(cb_pp_read(pp, &s2, err, sizeof(err)), 0);
	cb_pp_close(pp);
	printf("%s cpu %d: %llu -> %llu counts\n", s1.c[0].event, s1.c[0].cpu,
	       (unsigned long long)s1.c[0].count, (unsigned long long)s2.c[0].count);
	assert_int_equal(cb_pp_delta(&s1, &s2, j, err, sizeof(err)), s1.n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_package_and_dram),
		cmocka_unit_test(test_wrap_no_dram),
		cmocka_unit_test(test_bad_powercap),
		cmocka_unit_test(test_wraps_across_samples),
		cmocka_unit_test(test_perf_power_files),
		cmocka_unit_test(test_perf_power_cell),
		cmocka_unit_test(test_energy_rec),
		cmocka_unit_test(test_real_pmu),
	};
	const char *env = getenv("CB_TEST_SYSFS_ROOT");
	int ret;

	if (env && *env) {
		snprintf(root, sizeof(root), "%s", env);
	} else {
		if (!mkdtemp(tmpl)) {
			perror("mkdtemp");
			return 1;
		}
		snprintf(root, sizeof(root), "%s", tmpl);
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	if (!(env && *env))
		cb_rm_rf(root);
	return ret;
}
