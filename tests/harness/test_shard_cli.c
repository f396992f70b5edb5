// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_shard_cli.c - `run --resume/--shard` and `merge` on the command line, without root:
 * the refusals (exit 2, naming the directory and the field), a shard with no cells, and
 * merges of hand-made shard directories (run.json + cell meta.json) of a real config.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "itest.h"

static char dir[] = "/tmp/cb-test-shard-cli-XXXXXX";
static char cfg[600], log_path[600];

/* two cells, host.a.w.r1 (position 0) and host.b.w.r1 (position 1) */
static const char cfg_text[] = "[global]\n"
			       "reps = 1\n"
			       "start_state = none\n"
			       "[setting a]\n"
			       "vm.compaction_proactiveness = 20\n"
			       "[setting b]\n"
			       "vm.compaction_proactiveness = 21\n"
			       "[workload w]\n"
			       "demand = idle\n"
			       "demand.duration = 1s\n";
/* sha256sum of cfg_text, computed outside this test */
#define CFG_SHA "5af62542cc30b19c7f20144489ba42d039b0717ea555852182853043dbee46e6"
/* the same length, another config */
#define SHA_00 "00f62542cc30b19c7f20144489ba42d039b0717ea555852182853043dbee46e6"
#define SHA_FF "fff62542cc30b19c7f20144489ba42d039b0717ea555852182853043dbee46e6"

static char version[64];

static void expect(char *const args[], int status, const char *n1, const char *n2)
{
	int rc = itest_wait(itest_spawn(log_path, args));
	char *text = cb_read_file(log_path, NULL);

	if (rc != status || !text || !strstr(text, n1) || (n2 && !strstr(text, n2)))
		fail_msg("compactbench %s %s %s: want exit %d, \"%s\" and \"%s\"; got exit %d and:\n%s",
			 args[0], args[1] ? args[1] : "", args[1] && args[2] ? args[2] : "", status, n1,
			 n2 ? n2 : "", rc, text ? text : "");
	free(text);
}

static char *path_of(const char *name)
{
	static char buf[4][800];
	static int next;
	char *p = buf[next++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", dir, name);
	return p;
}

static void put(const char *rel, const char *text)
{
	char path[900], *slash;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	assert_int_equal(cb_mkdir_p(path), 0);
	*slash = '/';
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

/* a shard directory @name holding cell @id (position @index) as complete */
static void make_shard(const char *name, const char *sha, const char *tool, const char *id,
		       int index)
{
	char rel[300], text[2048];

	snprintf(text, sizeof(text),
		 "{ \"schema\": 1, \"config\": \"c.ini\", \"config_sha256\": \"%s\", \"name\": \"c\", "
		 "\"tool_version\": \"%s\", \"quick\": false, \"reps\": 1, \"total_cells\": 2, "
		 "\"shard\": { \"index\": %d, \"count\": 2 }, \"started\": \"2024-01-0%dT00:00:00Z\", "
		 "\"finished\": \"2024-01-0%dT01:00:00Z\", \"complete\": true, \"cells\": [ { \"id\": "
		 "\"%s\", \"kernel\": \"host\", \"setting\": \"%c\", \"workload\": \"w\", \"rep\": 1, "
		 "\"index\": %d } ] }\n", sha, tool, index + 1, index + 1, index + 1, id, id[5], index);
	snprintf(rel, sizeof(rel), "%s/run.json", name);
	put(rel, text);
	snprintf(rel, sizeof(rel), "%s/config.ini", name);
	put(rel, cfg_text);
	snprintf(rel, sizeof(rel), "%s/%s/meta.json", name, id);
	put(rel, "{ \"schema\": 1, \"status\": \"complete\" }\n");
}

static void test_run_refusals(void **state)
{
	put("full/somefile", "x\n");
	expect((char *[]){ "run", cfg, "--resume", NULL }, 2, "--resume needs -o DIR", NULL);
	expect((char *[]){ "run", cfg, "--shard", "3/2", NULL }, 2, "--shard '3/2'",
	       "I must be a number in 1..2");
	expect((char *[]){ "run", cfg, "--shard", "x", NULL }, 2, "--shard 'x'", NULL);
	expect((char *[]){ "run", cfg, "-o", path_of("full"), NULL }, 2, "full: not empty",
	       "--resume");
	expect((char *[]){ "run", cfg, "-o", path_of("full"), "--resume", NULL }, 2,
	       "no run.json: not a run to resume", NULL);
	/* a run of another config in the directory */
	make_shard("other", SHA_00, version, "host.a.w.r1", 0);
	expect((char *[]){ "run", cfg, "-o", path_of("other"), "--resume", NULL }, 2,
	       "other/run.json: field \"config_sha256\" is 00", NULL);
	/* the same config, but a shard of it: --shard must match too */
	make_shard("sh", CFG_SHA, version, "host.a.w.r1", 0);
	expect((char *[]){ "run", cfg, "-o", path_of("sh"), "--resume", NULL }, 2,
	       "sh/run.json: field \"shard\" is 1/2, but this command's is none", NULL);
	expect((char *[]){ "run", cfg, "-o", path_of("sh"), "--resume", "--reps", "2", "--shard",
			   "1/2", NULL }, 2, "field \"reps\" is 1, but this command's is 2", NULL);
}

/* shard 3/3 of a 2-cell matrix: nothing to run (no root needed), run.json says so */
static void test_empty_shard(void **state)
{
	char path[900], v[128];

	expect((char *[]){ "run", cfg, "-o", path_of("empty"), "--shard", "3/3", NULL }, 0,
	       "shard 3/3 has no cells (the matrix has 2)", NULL);
	snprintf(path, sizeof(path), "%s/empty/run.json", dir);
	assert_string_equal(itest_json(path, "shard.index", v, sizeof(v)), "3");
	assert_string_equal(itest_json(path, "shard.count", v, sizeof(v)), "3");
	assert_string_equal(itest_json(path, "total_cells", v, sizeof(v)), "2");
	assert_string_equal(itest_json(path, "reps", v, sizeof(v)), "1");
	assert_string_equal(itest_json(path, "config_sha256", v, sizeof(v)), CFG_SHA);
	assert_string_equal(itest_json(path, "tool_version", v, sizeof(v)), version);
	assert_string_equal(itest_json(path, "cells", v, sizeof(v)), "[ ]");
	assert_string_equal(itest_json(path, "complete", v, sizeof(v)), "true");
	snprintf(path, sizeof(path), "%s/empty/config.ini", dir);
	assert_int_equal(access(path, R_OK), 0);
}

static void test_merge(void **state)
{
	struct json_object *run, *cells;
	char path[900], v[128];

	make_shard("s1", CFG_SHA, version, "host.a.w.r1", 0);
	make_shard("s2", CFG_SHA, version, "host.b.w.r1", 1);
	/* given in reverse: the merged cells are still in run order */
	expect((char *[]){ "merge", path_of("m"), path_of("s2"), path_of("s1"), NULL }, 0,
	       "merged 2 run directories, 2 cells", NULL);
	snprintf(path, sizeof(path), "%s/m/run.json", dir);
	run = json_object_from_file(path);
	assert_non_null(run);
	assert_true(json_object_object_get_ex(run, "cells", &cells));
	assert_int_equal(json_object_array_length(cells), 2);
	assert_string_equal(itest_json(path, "config_sha256", v, sizeof(v)), CFG_SHA);
	assert_string_equal(itest_json(path, "started", v, sizeof(v)), "2024-01-01T00:00:00Z");
	assert_string_equal(itest_json(path, "finished", v, sizeof(v)), "2024-01-02T01:00:00Z");
	assert_string_equal(itest_json(path, "complete", v, sizeof(v)), "true");
	assert_string_equal(json_object_get_string(json_object_object_get(
				    json_object_array_get_idx(cells, 0), "id")), "host.a.w.r1");
	assert_string_equal(json_object_get_string(json_object_object_get(
				    json_object_array_get_idx(cells, 1), "id")), "host.b.w.r1");
	json_object_put(run);
	snprintf(path, sizeof(path), "%s/m/host.b.w.r1/meta.json", dir);
	assert_string_equal(itest_json(path, "status", v, sizeof(v)), "complete");
	snprintf(path, sizeof(path), "%s/m/config.ini", dir);
	assert_int_equal(access(path, R_OK), 0);
	/* one shard of two: merged, but the cell it lacks is named, exit 1 */
	expect((char *[]){ "merge", path_of("half"), path_of("s1"), NULL }, 1,
	       "missing: host.b.w.r1", "1 of the 2 cells of the matrix missing");
}

static void test_merge_refusals(void **state)
{
	static const char *const outs[] = { "r1", "r2", "r3", "r4", "r5", "r6", "r7" };

	make_shard("s1", CFG_SHA, version, "host.a.w.r1", 0);
	make_shard("vb", CFG_SHA, "0.0-other", "host.b.w.r1", 1);
	make_shard("cb", SHA_FF, version, "host.b.w.r1", 1);
	make_shard("tr", CFG_SHA, version, "host.b.w.r1", 1);
	put("tr/run.json", "{ \"schema\": 1, \"config_sha256\": \"5af6");
	put("nj/host.b.w.r1/meta.json", "{}\n");
	expect((char *[]){ "merge", path_of("r1"), path_of("s1"), path_of("vb"), NULL }, 2,
	       "vb/run.json: field \"tool_version\" is \"0.0-other\"", "s1/run.json has");
	expect((char *[]){ "merge", path_of("r2"), path_of("s1"), path_of("cb"), NULL }, 2,
	       "cb/run.json: field \"config_sha256\" is \"ff", NULL);
	expect((char *[]){ "merge", path_of("r3"), path_of("s1"), path_of("tr"), NULL }, 2,
	       "tr/run.json: not a JSON object (cut short", NULL);
	expect((char *[]){ "merge", path_of("r4"), path_of("s1"), path_of("nj"), NULL }, 2,
	       "nj/run.json: cannot read", NULL);
	expect((char *[]){ "merge", path_of("r5"), path_of("s1"), path_of("s1"), NULL }, 2,
	       "cell host.a.w.r1 is in", NULL);
	/* a cell id that climbs out of the shard, and one cell listed twice in one shard */
	make_shard("up", CFG_SHA, version, "host.b.w.r1/../../outside", 1);
	expect((char *[]){ "merge", path_of("r6"), path_of("s1"), path_of("up"), NULL }, 2,
	       "up/run.json: field \"cells\"[0].id is \"host.b.w.r1/../../outside\": not a "
	       "plain name", NULL);
	make_shard("tw", CFG_SHA, version, "host.b.w.r1", 1);
	put("tw/run.json", "{ \"schema\": 1, \"config_sha256\": \"" CFG_SHA "\", \"tool_version\": "
	    "\"v\", \"cells\": [ { \"id\": \"host.b.w.r1\", \"kernel\": \"host\", \"setting\": "
	    "\"b\", \"workload\": \"w\", \"rep\": 1 }, { \"id\": \"host.b.w.r1\", \"kernel\": "
	    "\"host\", \"setting\": \"b\", \"workload\": \"w\", \"rep\": 2 } ] }\n");
	expect((char *[]){ "merge", path_of("r7"), path_of("tw"), NULL }, 2,
	       "tw/run.json: field \"cells\"[1].id \"host.b.w.r1\" is listed twice", NULL);
	expect((char *[]){ "merge", path_of("s1"), path_of("cb"), NULL }, 2, "s1: not empty", NULL);
	expect((char *[]){ "merge", path_of("r5"), NULL }, 2, "usage: compactbench merge", NULL);
	expect((char *[]){ "merge", "--bogus", "a", "b", NULL }, 2, "usage: compactbench merge",
	       NULL);
	/* nothing was made for a refused merge */
	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++)
		assert_int_equal(access(path_of(outs[i]), F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_refusals),
		cmocka_unit_test(test_empty_shard),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_merge_refusals),
	};
	char *text;
	int rc;

	testenv_require_cb();
	if (!mkdtemp(dir))
		return 1;
	snprintf(cfg, sizeof(cfg), "%s/c.ini", dir);
	snprintf(log_path, sizeof(log_path), "%s/log", dir);
	if (cb_write_file_atomic(cfg, cfg_text, strlen(cfg_text)) < 0)
		return 1;
	/* the tool version as the binary says it: "compactbench VERSION" */
	if (itest_wait(itest_spawn(log_path, (char *[]){ "--version", NULL })) != 0)
		return 1;
	text = cb_read_file(log_path, NULL);
	if (!text || sscanf(text, "compactbench %63s", version) != 1)
		return 1;
	free(text);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (rc == 0)
		cb_rm_rf(dir);
	else
		fprintf(stderr, "kept %s for a look\n", dir);
	return rc;
}
