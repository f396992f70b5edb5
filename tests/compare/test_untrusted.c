// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_untrusted.c - run.json and summary.json as hostile input to compare, gate and analyze
 * (issue 20, finding 6; issue 22): ids that climb out of the run directory, cells listed
 * twice, mistyped and infinite values, oversized files are refused with exit 2 and a
 * message naming the file and field; a rejected cell's old summary.json is not used; runs
 * of different configs are named by compare as by gate; a gate on a (kernel, setting) the
 * run has no cell of is bad input (2), not inconclusive; a malformed compaction_runs
 * (issue 19) is refused naming its field.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analyze.h"
#include "compare.h"
#include "report.h"
#include "runfix.h"
#include "runjson.h"
#include "util.h"

static char tmp[] = "/tmp/cb-test-untrusted-XXXXXX";

static void put(const char *dir, const char *rel, const char *text)
{
	char path[1200];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

/* one cell's run.json entry */
static void cell_json(char *buf, size_t len, const char *id, const char *k, const char *s,
		      int rep)
{
	snprintf(buf, len, "{\"id\":\"%s\",\"kernel\":\"%s\",\"setting\":\"%s\",\"workload\":\"w\","
		 "\"rep\":%d}", id, k, s, rep);
}

/*
 * a run @name of config @sha: @reps cells host.s.w.rN of setting s, each with a summary.json
 * of dc_stall_p99_ns 100 + 10 N; @extra (may be NULL) is appended to the cells array as is
 */
static const char *make_run(const char *name, const char *sha, int reps, const char *extra)
{
	static char dirs[4][700];
	static int next;
	static const char *const k[] = { "host", NULL }, *const s[] = { "s", NULL };
	static const char *const w[] = { "w", NULL };
	char *d = dirs[next++ % 4];
	struct runfix_cell cells[64];
	struct runfix rf = { .sha = sha, .extra_cells = extra };
	size_t n = runfix_grid(cells, 64, k, s, w, reps);

	for (size_t i = 0; i < n; i++)
		snprintf(cells[i].metrics, sizeof(cells[i].metrics), "\"dc_stall_p99_ns\":%d,"
			 "\"dc_stall_total_ns\":1000,\"dc_stalls\":10", 100 + 10 * cells[i].rep);
	snprintf(d, 700, "%s/%s", tmp, name);
	assert_int_equal(runfix_write(d, &rf, cells, n), 0);
	return d;
}

static int gate(const char *a, const char *b)
{
	char *argv[] = { "gate", "--baseline", (char *)a, "--candidate", (char *)b, NULL };
	int rc;

	fflush(stdout);
	rc = cmd_gate(5, argv);
	fflush(stdout);
	return rc;
}

/* cmd_compare on @a (and @b) with stderr into @err; returns the exit code */
static int compare(const char *a, const char *b, char **err)
{
	char *argv[] = { "compare", (char *)a, (char *)b, NULL };
	char pe[900];
	int se, fe, rc;

	snprintf(pe, sizeof(pe), "%s/err", tmp);
	fflush(stdout);
	fflush(stderr);
	se = dup(2);
	fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(se >= 0 && fe >= 0);
	dup2(fe, 2);
	rc = cmd_compare(b ? 3 : 2, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(se, 2);
	close(se);
	close(fe);
	*err = cb_read_file(pe, NULL);
	assert_non_null(*err);
	fprintf(stderr, "%s", *err);
	return rc;
}

/*
 * cb_run_load of @dir fails with @want in its message; compare and gate exit 2, and for a
 * bad run.json (@analyze) analyze too (it recomputes summaries, never reads them)
 */
static void expect_refused_by(const char *dir, const char *want, bool analyze)
{
	struct cb_run_data rd;
	char err[2048], *text;
	int rc;

	rc = cb_run_load(dir, &rd, err, sizeof(err));
	if (rc == 0)
		cb_run_free(&rd);
	if (rc == 0 || !strstr(err, want))
		fail_msg("%s: want a refusal naming \"%s\", got %d \"%s\"", dir, want, rc,
			 rc ? err : "");
	assert_int_equal(gate(dir, dir), 2);
	assert_int_equal(compare(dir, NULL, &text), 2);
	assert_non_null(strstr(text, want));
	free(text);
	/* analyze DIR: cb_report_run refuses the whole run (the CLI maps -1 to exit 2) */
	if (!analyze)
		return;
	assert_int_equal(cb_report_run(dir, stdout, err, sizeof(err)), -1);
	assert_non_null(strstr(err, want));
}

static void expect_refused(const char *dir, const char *want)
{
	expect_refused_by(dir, want, true);
}

static void test_ids_stay_inside(void **state)
{
	static const char *const bad[] = { "../outside", "a/b", ".hidden", ".", "..", "",
					   "x\\ny", "host/../../etc" };
	char cell[600], long_id[300], path[900];
	const char *d;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cell_json(cell, sizeof(cell), bad[i], "host", "s", 9);
		d = make_run("ids", "c", 5, cell);
		expect_refused(d, "run.json: field \"cells\"[5].id is");
	}
	memset(long_id, 'a', 256);
	long_id[256] = '\0';
	cell_json(cell, sizeof(cell), long_id, "host", "s", 9);
	expect_refused(make_run("ids", "c", 5, cell), "cells\"[5].id");
	expect_refused(make_run("ids", "c", 5, "{\"id\":5,\"kernel\":\"host\",\"setting\":\"s\","
				"\"workload\":\"w\",\"rep\":9}"), "cells\"[5].id is 5");
	/* a kernel, setting or workload name goes into paths and selectors too */
	cell_json(cell, sizeof(cell), "ok", "host", "../s", 9);
	expect_refused(make_run("ids", "c", 5, cell), "cells\"[5].setting is \"../s\"");
	/* the cell the id pointed at, with no summary: nothing was written there */
	snprintf(path, sizeof(path), "%s/outside/summary.json", tmp);
	assert_int_equal(access(path, F_OK), -1);
}

static void test_no_cell_twice(void **state)
{
	char cells[600], a[200], b[200];

	/* host.s.w.r1 listed three times: 5 cells must not count as 7 repetitions */
	cell_json(a, sizeof(a), "host.s.w.r1", "host", "s", 1);
	snprintf(cells, sizeof(cells), "%s,%s", a, a);
	expect_refused(make_run("dup", "c", 5, cells),
		       "field \"cells\"[5].id \"host.s.w.r1\" is listed twice (also \"cells\"[0])");
	/* two ids for one (kernel, setting, workload, rep) */
	cell_json(b, sizeof(b), "other", "host", "s", 3);
	expect_refused(make_run("dup", "c", 5, b), "\"cells\"[5] (kernel host, setting s, "
		       "workload w, rep 3) is the same cell as \"cells\"[2]");
}

static void test_types_checked(void **state)
{
	expect_refused(make_run("ty", "c", 2, "{\"id\":\"x\",\"kernel\":\"host\",\"setting\":\"s\","
				"\"workload\":\"w\",\"rep\":\"abc\"}"),
		       "field \"cells\"[2].rep is \"abc\": not an integer in [0, 1000000]");
	expect_refused(make_run("ty", "c", 2, "{\"id\":\"x\",\"kernel\":\"host\",\"setting\":\"s\","
				"\"workload\":\"w\",\"rep\":2.5}"), "cells\"[2].rep is 2.5");
	expect_refused(make_run("ty", "c", 2, "{\"id\":\"x\",\"kernel\":\"host\",\"setting\":\"s\","
				"\"workload\":\"w\",\"rep\":1e309}"), "cells\"[2].rep is");
	expect_refused(make_run("ty", "c", 2, "{\"id\":\"x\",\"kernel\":[],\"setting\":\"s\","
				"\"workload\":\"w\",\"rep\":3}"), "cells\"[2].kernel is []");
	expect_refused(make_run("ty", "c", 2, "7"), "field \"cells\"[2] is not an object");
	expect_refused(make_run("ty", "c", 2, "{\"id\":\"x\",\"kernel\":\"host\",\"setting\":\"s\","
				"\"workload\":\"w\",\"rep\":3,\"index\":-1}"), "cells\"[2].index");
}

static void test_sizes_bounded(void **state)
{
	char path[900], cell[200];
	const char *d = make_run("big", "c", 0, NULL);
	FILE *f;

	/* one cell more than CB_RUN_MAX_CELLS */
	snprintf(path, sizeof(path), "%s/run.json", d);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"schema\":1,\"config_sha256\":\"c\",\"cells\":[");
	for (int i = 0; i <= CB_RUN_MAX_CELLS; i++) {
		snprintf(path, sizeof(path), "c%d", i);
		cell_json(cell, sizeof(cell), path, "host", "s", i);
		fprintf(f, "%s%s", i ? "," : "", cell);
	}
	fprintf(f, "]}\n");
	fclose(f);
	expect_refused(d, "run.json: field \"cells\" lists 20001 cells, more than the 20000");
	/* a run.json over CB_RUNJSON_MAX_BYTES (valid JSON, padded with spaces) */
	snprintf(path, sizeof(path), "%s/run.json", d);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"schema\":1,\"cells\":[]}");
	for (unsigned i = 0; i <= CB_RUNJSON_MAX_BYTES / 64; i++)
		fprintf(f, "%64s", "");
	fclose(f);
	expect_refused(d, "run.json: too large (at most 16777216 bytes)");
	/* trailing bytes after the object */
	put(d, "run.json", "{\"schema\":1,\"cells\":[]} {\"cells\":[]}");
	expect_refused(d, "run.json: bytes after the JSON object");
}

/* a cell's window for the charts: read bounded, a reversed or oversized one is no window */
static void test_meta_window(void **state)
{
	char dir[] = "/tmp/cb-test-window-XXXXXX", path[200];
	uint64_t s, e;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	put(dir, "meta.json", "{\"window\":{\"start_ns\":1000,\"end_ns\":5000000}}");
	assert_int_equal(cb_meta_window(dir, &s, &e), 0);
	assert_int_equal(s, 1000);
	assert_int_equal(e, 5000000);
	put(dir, "meta.json", "{\"window\":{\"start_ns\":5000,\"end_ns\":1000}}");
	assert_int_equal(cb_meta_window(dir, &s, &e), -1);
	assert_int_equal(s, 0);
	assert_int_equal(e, 0);
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"window\":{\"start_ns\":1,\"end_ns\":2}}");
	for (unsigned i = 0; i <= CB_META_MAX_BYTES / 64; i++)
		fprintf(f, "%64s", "");
	fclose(f);
	assert_int_equal(cb_meta_window(dir, &s, &e), -1);
	assert_int_equal(cb_rm_rf(dir), 0);
	assert_int_equal(cb_meta_window(dir, &s, &e), -1); /* no file */
}

static void test_summary_values(void **state)
{
	static const char *const bad[] = { "\"abc\"", "Infinity", "-Infinity", "NaN", "1e309",
					   "-1e400", "true", "[1]", "{}" };
	char text[300], want[100];
	const char *d;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		d = make_run("sv", "c", 5, NULL);
		snprintf(text, sizeof(text), "{\"schema\":1,\"lost_events\":false,\"metrics\":{"
			 "\"dc_stall_p99_ns\":%s,\"dc_stall_total_ns\":1000}}\n", bad[i]);
		put(d, "host.s.w.r3/summary.json", text);
		snprintf(want, sizeof(want), "host.s.w.r3/summary.json: field \"metrics\"."
			 "dc_stall_p99_ns is");
		expect_refused_by(d, want, false);
	}
	d = make_run("sv", "c", 5, NULL);
	put(d, "host.s.w.r2/summary.json", "{\"schema\":1,\"lost_events\":\"yes\",\"metrics\":{}}");
	expect_refused_by(d, "host.s.w.r2/summary.json: field \"lost_events\" is \"yes\"", false);
	put(d, "host.s.w.r2/summary.json", "{\"schema\":\"1\",\"metrics\":{}}");
	expect_refused_by(d, "host.s.w.r2/summary.json: field \"schema\" is \"1\"", false);
	put(d, "host.s.w.r2/summary.json", "{\"schema\":1,\"metrics\":3}");
	expect_refused_by(d, "host.s.w.r2/summary.json: field \"metrics\" is 3", false);
	/* null and integers are values as they always were */
	put(d, "host.s.w.r2/summary.json", "{\"schema\":1,\"metrics\":{\"dc_stall_p99_ns\":null,"
	    "\"dc_stall_total_ns\":1000}}");
	{
		struct cb_run_data rd;
		char err[2048];

		assert_int_equal(cb_run_load(d, &rd, err, sizeof(err)), 0);
		assert_int_equal(rd.groups[0].n, 5);
		assert_true(isnan(rd.groups[0].val[cb_metric_find("dc_stall_p99_ns")][1]));
		assert_true(rd.groups[0].val[cb_metric_find("dc_stall_total_ns")][1] == 1000);
		cb_run_free(&rd);
	}
}

/*
 * summary.json's compaction_runs (the timeline's runs, issue 19) as hostile input: each
 * malformed field refused naming it; 501 runs in a lane refused (the writer keeps 500);
 * null, a valid section and an unknown lane read
 */
static void test_compaction_runs(void **state)
{
	static const struct {
		const char *section, *want;
	} bad[] = {
		{ "3", "field \"compaction_runs\" is 3: not an object" },
		{ "{\"window_start_ns\":-1,\"by_attribution\":{}}",
		  "field \"compaction_runs\".window_start_ns is -1" },
		{ "{\"window_start_ns\":1.5,\"by_attribution\":{}}",
		  "field \"compaction_runs\".window_start_ns is 1.5" },
		{ "{\"window_start_ns\":1}", "field \"compaction_runs\".by_attribution is missing" },
		{ "{\"window_start_ns\":1,\"by_attribution\":{\"direct\":[]}}",
		  "field \"compaction_runs\".by_attribution.direct is []: not an object" },
		{ "{\"window_start_ns\":1,\"by_attribution\":{\"direct\":{\"runs\":{}}}}",
		  "field \"compaction_runs\".by_attribution.direct.runs is {}" },
		{ "{\"window_start_ns\":1,\"by_attribution\":{\"kcompactd\":{\"runs\":"
		  "[[0,1],[2,1]]}}}",
		  "field \"compaction_runs\".by_attribution.kcompactd.runs[1] is [2,1]" },
		{ "{\"window_start_ns\":1,\"by_attribution\":{\"policy\":{\"runs\":[[0,\"x\"]]}}}",
		  "field \"compaction_runs\".by_attribution.policy.runs[0] is [0,\"x\"]" },
		{ "{\"window_start_ns\":1,\"by_attribution\":{\"demand\":{\"runs\":[[-1,1]]}}}",
		  "field \"compaction_runs\".by_attribution.demand.runs[0] is [-1,1]: not "
		  "[start_s, end_s]" },
		{ "{\"window_start_ns\":1,\"by_attribution\":{\"direct\":{\"runs\":[[0,1,2]]}}}",
		  "field \"compaction_runs\".by_attribution.direct.runs[0] is [0,1,2]" },
		{ "{\"window_start_ns\":1,\"by_attribution\":{\"direct\":{\"runs\":[[0,1e999]]}}}",
		  "field \"compaction_runs\".by_attribution.direct.runs[0] is" },
		{ "{\"window_start_ns\":1,\"by_attribution\":{\"manual\":{\"runs\":[],"
		  "\"dropped\":-3}}}",
		  "field \"compaction_runs\".by_attribution.manual.dropped is -3" },
		{ "{\"window_start_ns\":1,\"by_attribution\":{\"manual\":{\"runs\":[],"
		  "\"open\":\"1\"}}}",
		  "field \"compaction_runs\".by_attribution.manual.open is \"1\"" },
	};
	char text[1024], want[300], *big;
	const char *d;
	size_t at;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		d = make_run("cr", "c", 3, NULL);
		snprintf(text, sizeof(text), "{\"schema\":1,\"metrics\":{\"dc_stall_total_ns\":1},"
			 "\"compaction_runs\":%s}\n", bad[i].section);
		put(d, "host.s.w.r2/summary.json", text);
		snprintf(want, sizeof(want), "host.s.w.r2/summary.json: %s", bad[i].want);
		expect_refused_by(d, want, false);
	}
	/* 501 runs in one lane */
	big = malloc(501 * 16 + 256);
	assert_non_null(big);
	at = (size_t)sprintf(big, "{\"schema\":1,\"metrics\":{},\"compaction_runs\":{"
			     "\"window_start_ns\":0,\"by_attribution\":{\"direct\":{\"runs\":[");
	for (int i = 0; i < 501; i++)
		at += (size_t)sprintf(big + at, "%s[%d,%d]", i ? "," : "", i, i + 1);
	sprintf(big + at, "]}}}}\n");
	d = make_run("cr", "c", 3, NULL);
	put(d, "host.s.w.r1/summary.json", big);
	free(big);
	expect_refused_by(d, "host.s.w.r1/summary.json: field \"compaction_runs\".by_attribution."
			  "direct.runs has 501 runs: more than 500", false);
	/* null, a good section, a lane this tool does not know: read */
	d = make_run("cr", "c", 3, NULL);
	put(d, "host.s.w.r1/summary.json", "{\"schema\":1,\"metrics\":{},\"compaction_runs\":null}");
	put(d, "host.s.w.r2/summary.json", "{\"schema\":1,\"metrics\":{},\"compaction_runs\":{"
	    "\"window_start_ns\":5,\"by_attribution\":{\"direct\":{\"runs\":[[0,0.5],[1,1]],"
	    "\"dropped\":0,\"open\":1},\"someday\":7}}}");
	{
		struct cb_run_data rd;
		char err[2048];

		assert_int_equal(cb_run_load(d, &rd, err, sizeof(err)), 0);
		assert_int_equal(rd.groups[0].n, 3);
		cb_run_free(&rd);
	}
}

/* set the times of @dir/@cell/@file to @ago seconds ago */
static void age(const char *dir, const char *cell, const char *file, int ago)
{
	struct timespec ts[2];
	char path[1000];

	clock_gettime(CLOCK_REALTIME, &ts[0]);
	ts[0].tv_sec -= ago;
	ts[1] = ts[0];
	snprintf(path, sizeof(path), "%s/%s/%s", dir, cell, file);
	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* the analyzed repetitions of the one group of run @d, and its left-out cells */
static size_t reps_of(const char *d, size_t *failed)
{
	struct cb_run_data rd;
	char err[2048];
	size_t n;

	assert_int_equal(cb_run_load(d, &rd, err, sizeof(err)), 0);
	n = rd.ng ? rd.groups[0].n : 0;
	*failed = rd.failed;
	cb_run_free(&rd);
	return n;
}

/*
 * issue 22: cells whose raw files were damaged after their summary.json was written are left
 * out (and keep no summary.json), not read from the old summary
 */
static void test_stale_summary(void **state)
{
	static const char *const inputs[] = { "meta.json", "vmstat.before", "vmstat.after",
					       "trace.dat" };
	const char *d = make_run("stale", "c", 5, NULL);
	char cell[64], path[1000];
	size_t failed;

	for (int r = 1; r <= 5; r++) {
		snprintf(cell, sizeof(cell), "host.s.w.r%d", r);
		for (size_t i = 0; i < 4; i++) {
			snprintf(path, sizeof(path), "%s/%s", cell, inputs[i]);
			put(d, path, "not a real input\n");
			age(d, cell, inputs[i], 100);
		}
		age(d, cell, "summary.json", 50);
	}
	assert_int_equal(reps_of(d, &failed), 5);
	assert_int_equal(failed, 0);
	/* vmstat.after deleted: the cell is left out and its summary goes */
	snprintf(path, sizeof(path), "%s/host.s.w.r2/vmstat.after", d);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(reps_of(d, &failed), 4);
	assert_int_equal(failed, 1);
	snprintf(path, sizeof(path), "%s/host.s.w.r2/summary.json", d);
	assert_int_equal(access(path, F_OK), -1);
	/* a trace cut short (rewritten after the summary): the same */
	put(d, "host.s.w.r4/trace.dat", "cut");
	assert_int_equal(reps_of(d, &failed), 3);
	assert_int_equal(failed, 2);
	assert_int_equal(gate(d, d), 3);
	/* analyze DIR rejects every cell here (no real trace): none keeps its summary.json */
	put(d, "host.s.w.r1/trace.dat", "cut");
	age(d, "host.s.w.r1", "trace.dat", 100);
	snprintf(path, sizeof(path), "%s/host.s.w.r1/summary.json", d);
	assert_int_equal(access(path, F_OK), 0);
	assert_true(cb_report_run(d, stdout, path, sizeof(path)) > 0);
	for (int r = 1; r <= 5; r++) {
		snprintf(path, sizeof(path), "%s/host.s.w.r%d/summary.json", d, r);
		assert_int_equal(access(path, F_OK), -1);
	}
}

/* issue 22: compare names runs of different configs, as gate does */
static void test_compare_configs(void **state)
{
	const char *a = make_run("ca", "aaaaaaaaaaaaaaaa", 5, NULL);
	const char *b = make_run("cb", "bbbbbbbbbbbbbbbb", 5, NULL);
	char *err;

	assert_int_equal(compare(a, b, &err), 0);
	assert_non_null(strstr(err, "the runs used different configs (sha256 aaaaaaaaaaaa vs "
				    "bbbbbbbbbbbb)"));
	free(err);
	assert_int_equal(gate(a, b), 3);
	b = make_run("cb", "aaaaaaaaaaaaaaaa", 5, NULL);
	assert_int_equal(compare(a, b, &err), 0);
	assert_null(strstr(err, "different configs"));
	free(err);
}

/* issue 22: a (kernel, setting) the run has no cell of is bad input, not "not enough data" */
static void test_gate_no_such_group(void **state)
{
	char cells[600], c1[200], c2[200], sa[800], sb[800];
	const char *d;

	/* kernel A has setting s, kernel B setting s2: no A/s2 */
	cell_json(c1, sizeof(c1), "B.s2.w.r1", "B", "s2", 1);
	cell_json(c2, sizeof(c2), "B.s2.w.r2", "B", "s2", 2);
	snprintf(cells, sizeof(cells), "%s,%s", c1, c2);
	d = make_run("grp", "c", 5, cells);
	snprintf(sa, sizeof(sa), "%s:host/s", d);
	snprintf(sb, sizeof(sb), "%s:host/s2", d);
	assert_int_equal(gate(sa, sb), 2);
	/* a kernel named where a setting goes: bad input, with the hint */
	snprintf(sb, sizeof(sb), "%s:B", d);
	assert_int_equal(gate(sa, sb), 2);
	{
		struct cb_run_data rd;
		struct cb_side s = { .rd = &rd };
		char err[2048];

		assert_int_equal(cb_run_load(d, &rd, err, sizeof(err)), 0);
		snprintf(s.setting, sizeof(s.setting), "B");
		assert_int_equal(cb_side_check(&s, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "DIR:B/ selects a kernel"));
		snprintf(s.kernel, sizeof(s.kernel), "host");
		snprintf(s.setting, sizeof(s.setting), "s2");
		assert_int_equal(cb_side_check(&s, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "no cell of kernel 'host' with setting 's2'"));
		cb_run_free(&rd);
	}
}

/*
 * a merge with shards missing: run.json lists 5 of its total_cells 8; analyze says 3 never
 * ran and exits 1 (issue 22: it said "5 cells, 5 analyzed, 0 left out" and exit 0). A shard
 * lists a part of the matrix by design: not flagged.
 */
static void test_never_ran(void **state)
{
	static const char *const k[] = { "host", NULL }, *const s[] = { "s", NULL };
	static const char *const w[] = { "w", NULL };
	struct runfix_cell cells[5];
	struct runfix rf = { .head = "\"total_cells\":8", .fixtures = getenv("FIXTURES") };
	size_t n = runfix_grid(cells, 5, k, s, w, 5);
	char d[700], *out, *err;

	if (!rf.fixtures)
		skip();
	for (size_t i = 0; i < n; i++)
		cells[i].trace = "analysis-thp-compact";
	snprintf(d, sizeof(d), "%s/merged", tmp);
	assert_int_equal(runfix_write(d, &rf, cells, n), 0);
	assert_int_equal(runfix_capture(cmd_analyze, (char *[]){ "analyze", d, NULL }, tmp, &out,
					&err), 1);
	assert_non_null(strstr(out, "5 cells, 5 analyzed, 0 left out"));
	assert_non_null(strstr(out, "never ran: 3 of the matrix's 8 cells are in no directory"));
	free(out);
	free(err);
	/* the JSON carries it too */
	assert_int_equal(runfix_capture(cmd_analyze, (char *[]){ "analyze", d, "--format", "json",
							NULL }, tmp, &out, &err), 1);
	assert_non_null(strstr(out, "\"never_ran\":3"));
	free(out);
	free(err);
	rf.head = "\"total_cells\":8,\"shard\":{\"index\":1,\"count\":2}";
	assert_int_equal(runfix_write(d, &rf, cells, n), 0);
	assert_int_equal(runfix_capture(cmd_analyze, (char *[]){ "analyze", d, NULL }, tmp, &out,
					&err), 0);
	assert_null(strstr(out, "never ran"));
	free(out);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_stay_inside),
		cmocka_unit_test(test_no_cell_twice),
		cmocka_unit_test(test_types_checked),
		cmocka_unit_test(test_sizes_bounded),
		cmocka_unit_test(test_meta_window),
		cmocka_unit_test(test_summary_values),
		cmocka_unit_test(test_compaction_runs),
		cmocka_unit_test(test_stale_summary),
		cmocka_unit_test(test_compare_configs),
		cmocka_unit_test(test_gate_no_such_group),
		cmocka_unit_test(test_never_ran),
	};
	int rc;

	if (!mkdtemp(tmp))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (rc == 0)
		cb_rm_rf(tmp);
	return rc;
}
