// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkrun - the synthetic run directories the README's examples run on (test_readme.py),
 * made with tests/compare/runfix: every cell has a summary.json of known values, so compare
 * and gate have a spread to judge, and the cells of the shards and the A/B (the runs the
 * README analyzes) also a real trace (the analysis-thp-compact fixture, with its vmstat
 * files and a meta.json of status complete), so `analyze` can summarize them again.
 *
 *   mkrun FIXTURES DIR default [I/N]  the shape of configs/default.ini: linux61 with none,
 *                                     proactive-20 and wmark, linux61-demand with none and
 *                                     demand, workload thp-recur, 8 reps, run order
 *                                     repetition by repetition; with I/N only shard I of N
 *   mkrun FIXTURES DIR ab [pending]   the README's A/B: kernels base and patched, settings
 *                                     none and proactive-20, 12 reps; with pending, patched
 *                                     is not booted yet (listed, never ran)
 *   mkrun FIXTURES DIR golden base|cand|trace
 *                                     the fixed runs of the byte-equal test (tests/golden):
 *                                     base and cand, kernel linux61, settings none and
 *                                     proactive-20, workloads thp-frag and slab-frag, 6 reps,
 *                                     summaries only (golden_values: cand better, worse, the
 *                                     same and only-present per metric); trace, settings none
 *                                     and proactive-20 of thp-frag, 3 reps, each cell a real
 *                                     trace (the three analysis-* fixtures in turn), no
 *                                     summary.json (analyze makes them)
 *
 * The values: dc_stall_p99_ns of repetition r of group g is 8 ms times the (r + 5g)-th of
 * REPS fixed factors (0.7 ... 1.4): every group draws the same values in another order (an
 * A/A: nothing significant), their spread lets 8 reps (the default's) and 12 (the A/B's) see
 * a doubling but not 10%.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runfix.h"
#include "util.h"

#define REPS 12		/* the A/B's */
#define DEFAULT_REPS 8	/* configs/default.ini's */
#define MAX_CELLS 128

static const double factor[REPS] = { 0.7, 0.8, 0.85, 0.9, 0.95, 1.0, 1.0, 1.05, 1.1, 1.2, 1.3,
				     1.4 };
static const double default_factor[DEFAULT_REPS] = { 0.7, 0.8, 0.9, 0.95, 1.05, 1.1, 1.2, 1.4 };

static void values(struct runfix_cell *c, int group, bool trace, int reps)
{
	double f = reps == DEFAULT_REPS ? default_factor[(c->rep - 1 + 5 * group) % reps]
					: factor[(c->rep - 1 + 5 * group) % reps];

	snprintf(c->metrics, sizeof(c->metrics), "\"dc_stall_p99_ns\":%.0f,\"dc_stall_total_ns\":%.0f,"
		 "\"dc_stalls\":%.0f,\"dc_stalls_worked\":%.0f,\"wl_thp_success_rate\":0.5",
		 8e6 * f, 2e8 * f, 150 * f, 100 * f);
	c->trace = trace ? "analysis-thp-compact" : NULL;
}

/* configs/default.ini's groups, repetition by repetition; shard @si of @sn (0: all) */
static size_t default_cells(struct runfix_cell *cells, int si, int sn)
{
	static const char *const groups[][2] = {
		{ "linux61", "none" }, { "linux61", "proactive-20" }, { "linux61", "wmark" },
		{ "linux61-demand", "none" }, { "linux61-demand", "demand" },
	};
	size_t n = 0;
	int index = 0;

	for (int r = 1; r <= DEFAULT_REPS; r++) {
		for (int g = 0; g < 5; g++, index++) {
			if (sn && index % sn != si - 1)
				continue;
			cells[n] = (struct runfix_cell){ .kernel = groups[g][0], .setting = groups[g][1],
							 .workload = "thp-recur", .rep = r,
							 .index = index };
			values(&cells[n++], g, sn > 0, DEFAULT_REPS);
		}
	}
	return n;
}

/*
 * the golden runs' values: per metric the baseline's median and the candidate's, both times
 * the same six factors in another order per group; 0 for a side leaves the metric out of
 * its summary.json (a value only in the candidate), a NAN metric is null on both sides
 */
#define GOLDEN_REPS 6
static const double golden_factor[GOLDEN_REPS] = { 0.8, 0.9, 0.95, 1.0, 1.1, 1.25 };
static const struct {
	const char *name;
	double base, cand;
} golden_metric[] = {
	{ "dc_stall_total_ns", 2e8, 1e8 },	/* better by half: significant */
	{ "dc_stall_p99_ns", 8e6, 1.6e7 },	/* worse, doubled: a regression */
	{ "dc_stall_p50_ns", 1e6, 1.03e6 },	/* 3%: not significant, the mde line */
	{ "dc_stalls", 150, 150 },		/* the same values */
	{ "dc_stalls_worked", 100, 80 },
	{ "cpu_background_ns", 5e8, 9e8 },	/* the cost of the stall time avoided */
	{ "energy_modeled_j", 3, 4 },
	{ "wl_thp_success_rate", 0.5, 0.8 },	/* higher is better */
	{ "thp_success_rate_vmstat", 0.6, 0.6 },
	{ "energy_rapl_j", 0, 7 },		/* only in the candidate */
	{ "dc_stall_p99_ns_slab", NAN, NAN },	/* null on both sides */
};

static void golden_values(struct runfix_cell *c, int group, bool cand)
{
	double f = golden_factor[(c->rep - 1 + group) % GOLDEN_REPS];
	size_t at = 0;

	c->metrics[0] = '\0';
	for (size_t i = 0; i < sizeof(golden_metric) / sizeof(golden_metric[0]); i++) {
		double v = cand ? golden_metric[i].cand : golden_metric[i].base;
		const char *sep = at ? "," : "";

		if (isnan(v))
			at += snprintf(c->metrics + at, sizeof(c->metrics) - at, "%s\"%s\":null", sep,
				       golden_metric[i].name);
		else if (v != 0)
			at += snprintf(c->metrics + at, sizeof(c->metrics) - at, "%s\"%s\":%.6g", sep,
				       golden_metric[i].name, v * f);
	}
}

static size_t golden_cells(struct runfix_cell *cells, const char *which)
{
	static const char *const traces[] = { "analysis-thp-compact", "analysis-thp-exhaust",
					      "analysis-quiet" };
	static const char *const k[] = { "linux61", NULL }, *const s[] = { "none", "proactive-20",
									    NULL };
	static const char *const w[] = { "thp-frag", "slab-frag", NULL }, *const wt[] = {
		"thp-frag", NULL };
	bool trace = !strcmp(which, "trace");
	int reps = trace ? 3 : GOLDEN_REPS;
	size_t n = runfix_grid(cells, MAX_CELLS, k, s, trace ? wt : w, reps);

	for (size_t i = 0; i < n; i++) {
		if (trace)
			cells[i].trace = traces[i % 3];
		else
			golden_values(&cells[i], (int)(i / reps), !strcmp(which, "cand"));
	}
	return n;
}

static size_t ab_cells(struct runfix_cell *cells, bool pending)
{
	static const char *const k[] = { "base", "patched", NULL };
	static const char *const s[] = { "none", "proactive-20", NULL }, *const w[] = { "thp-frag",
											  NULL };
	size_t n = runfix_grid(cells, MAX_CELLS, k, s, w, REPS);

	for (size_t i = 0; i < n; i++) {
		values(&cells[i], (int)(i / REPS), true, REPS);
		cells[i].no_dir = pending && !strcmp(cells[i].kernel, "patched");
	}
	return n;
}

int main(int argc, char **argv)
{
	struct runfix_cell cells[MAX_CELLS];
	struct runfix rf = { .sha = "readme", .config = "; a synthetic run (tests/readme/mkrun)\n" };
	char head[512];
	size_t n;
	int si = 0, sn = 0;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: mkrun FIXTURES DIR default [I/N] | ab [pending] | "
			"golden base|cand|trace\n");
		return 2;
	}
	rf.fixtures = argv[1];
	if (!strcmp(argv[3], "default")) {
		if (argc == 5 && (sscanf(argv[4], "%d/%d", &si, &sn) != 2 || si < 1 || si > sn))
			return 2;
		n = default_cells(cells, si, sn);
		if (sn)
			snprintf(head, sizeof(head), "\"reps\":%d,\"quick\":false,\"total_cells\":%d,"
				 "\"complete\":true,\"shard\":{\"index\":%d,\"count\":%d}", DEFAULT_REPS,
				 5 * DEFAULT_REPS, si, sn);
		else
			snprintf(head, sizeof(head), "\"reps\":%d,\"quick\":false,\"total_cells\":%d,"
				 "\"complete\":true", DEFAULT_REPS, 5 * DEFAULT_REPS);
		rf.head = head;
	} else if (!strcmp(argv[3], "ab")) {
		bool pending = argc == 5 && !strcmp(argv[4], "pending");

		n = ab_cells(cells, pending);
		rf.head = pending ? "\"complete\":false,\"pending\":[{\"kernel\":\"patched\","
				    "\"release\":\"6.1.0-18-amd64-cpolicy\",\"booted\":"
				    "\"6.1.0-18-amd64\",\"cells\":24}]" : "\"complete\":true";
	} else if (!strcmp(argv[3], "golden") && argc == 5 && (!strcmp(argv[4], "base") ||
			   !strcmp(argv[4], "cand") || !strcmp(argv[4], "trace"))) {
		n = golden_cells(cells, argv[4]);
		rf.sha = "golden";
		rf.config = "; a synthetic run (tests/readme/mkrun golden)\n";
		rf.head = strcmp(argv[4], "trace") ? "\"reps\":6,\"quick\":false,\"complete\":true" :
			  "\"reps\":3,\"quick\":false,\"complete\":true";
	} else {
		fprintf(stderr, "mkrun: unknown shape '%s'\n", argv[3]);
		return 2;
	}
	if (runfix_write(argv[2], &rf, cells, n) < 0) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
