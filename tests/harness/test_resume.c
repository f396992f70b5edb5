// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_resume.c - integration (root): runs of idle cells on this machine.
 *  - a run interrupted (SIGINT) after its first complete cell continues with --resume and
 *    ends with the same cells as an uninterrupted run; the cells complete before the
 *    interrupt are not run again (their files keep inode and mtime);
 *  - cells of a host kernel whose release is not the booted kernel are pending, not run,
 *    and a release given as `uname -rv` matches only the booted build;
 *  - a config none of whose kernels is the booted one (a typo in `release`) runs nothing,
 *    says so and exits 2 without a run directory, unless --resume was asked for;
 *  - shards 1/3, 2/3, 3/3 merged hold the unsharded run's cells in its order, analyze
 *    accepts the merged run, and a shard of another config is refused (exit 2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <sys/stat.h>
#include <sys/utsname.h>

#include "itest.h"

#define NCELLS 4

static char dir[] = "/tmp/cb-test-resume-XXXXXX";
static char cfg[600], cfg2[600], log_path[600];
static long original;

/* 2 settings x 1 workload x 2 reps = 4 cells of ~2 s each, on the booted kernel */
static const char cfg_text[] = "[global]\n"
			       "reps = 2\n"
			       "start_state = none\n"
			       "[setting a]\n"
			       "vm.compaction_proactiveness = 11\n"
			       "[setting b]\n"
			       "vm.compaction_proactiveness = 12\n"
			       "[workload w]\n"
			       "demand = idle\n"
			       "demand.duration = 2s\n";

/* the unsharded, uninterrupted run's cell ids in run order (from its run.json) */
static char ids[NCELLS][128];

/* @dir/@name, in one of four rotating buffers: for short-lived use only */
static char *path_of(const char *name)
{
	static char buf[4][800];
	static int next;
	char *p = buf[next++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", dir, name);
	return p;
}

static int run_cb(char *const args[])
{
	return itest_wait(itest_spawn(log_path, args));
}

static void expect_log(const char *needle)
{
	char *text = cb_read_file(log_path, NULL);

	if (!text || !strstr(text, needle))
		fail_msg("the log lacks \"%s\":\n%s", needle, text ? text : "");
	free(text);
}

/* whether @run/@id/meta.json says complete */
static bool complete(const char *run, const char *id)
{
	char path[900], v[64];

	snprintf(path, sizeof(path), "%s/%s/meta.json", run, id);
	return !strcmp(itest_json(path, "status", v, sizeof(v)), "complete");
}

/* the ids of @run/run.json's cells, in order, into @out; returns how many */
static int run_ids(const char *run, char out[][128], int max)
{
	struct json_object *o, *cells;
	char path[900];
	int n = 0;

	snprintf(path, sizeof(path), "%s/run.json", run);
	o = json_object_from_file(path);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "cells", &cells));
	for (size_t i = 0; i < json_object_array_length(cells) && n < max; i++)
		snprintf(out[n++], 128, "%s", json_object_get_string(json_object_object_get(
						      json_object_array_get_idx(cells, i), "id")));
	json_object_put(o);
	return n;
}

/* the cell directories in @run (entries holding a meta.json) */
static int cell_dirs(const char *run)
{
	DIR *d = opendir(run);
	struct dirent *e;
	char path[900];
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s/meta.json", run, e->d_name);
		n += e->d_name[0] != '.' && access(path, F_OK) == 0;
	}
	closedir(d);
	return n;
}

static void test_uninterrupted(void **state)
{
	char *args[] = { "run", cfg, "-o", path_of("full"), NULL };

	assert_int_equal(run_cb(args), 0);
	assert_int_equal(run_ids(path_of("full"), ids, NCELLS), NCELLS);
	for (int i = 0; i < NCELLS; i++)
		assert_true(complete(path_of("full"), ids[i]));
	assert_int_equal(cell_dirs(path_of("full")), NCELLS);
	/* the matrix order (matrix.h): rep 1 a, b; rep 2 rotated: b, a */
	assert_string_equal(ids[0], "host.a.w.r1");
	assert_string_equal(ids[1], "host.b.w.r1");
	assert_string_equal(ids[2], "host.b.w.r2");
	assert_string_equal(ids[3], "host.a.w.r2");
	assert_int_equal(itest_read_long(PROACTIVENESS), original);
}

struct fstamp {
	ino_t ino;
	struct timespec mtime;
};

static struct fstamp stamp(const char *run, const char *id, const char *file)
{
	char path[900];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s/%s", run, id, file);
	assert_int_equal(stat(path, &st), 0);
	return (struct fstamp){ st.st_ino, st.st_mtim };
}

static void test_interrupted_then_resumed(void **state)
{
	char intr[800];
	char *args[] = { "run", cfg, "-o", intr, NULL };
	char *resume[] = { "run", cfg, "-o", intr, "--resume", NULL };
	struct fstamp meta[NCELLS], trace[NCELLS];
	bool was[NCELLS] = { false };
	uint64_t end = cb_now_ns() + 120ULL * 1000000000ULL;
	char want[128], got[NCELLS][128];
	int k = 0, i;
	pid_t pid;

	snprintf(intr, sizeof(intr), "%s/intr", dir);
	pid = itest_spawn(log_path, args);
	while (!complete(path_of("intr"), ids[0]) && cb_now_ns() < end)
		usleep(20000);
	kill(pid, SIGINT);
	assert_int_equal(itest_wait(pid), 130);
	assert_int_equal(itest_read_long(PROACTIVENESS), original);
	expect_log("--resume");
	for (i = 0; i < NCELLS; i++) {
		was[i] = complete(path_of("intr"), ids[i]);
		if (!was[i])
			continue;
		k++;
		meta[i] = stamp(path_of("intr"), ids[i], "meta.json");
		trace[i] = stamp(path_of("intr"), ids[i], "trace.dat");
	}
	assert_true(was[0]);
	assert_true(k >= 1 && k < NCELLS);

	assert_int_equal(run_cb(resume), 0);
	snprintf(want, sizeof(want), "resume: %d of %d cells complete, %d to run now, 0 pending", k,
		 NCELLS, NCELLS - k);
	expect_log(want);
	assert_int_equal(itest_read_long(PROACTIVENESS), original);
	/* the same cells as the uninterrupted run, all complete, nothing else */
	assert_int_equal(run_ids(path_of("intr"), got, NCELLS), NCELLS);
	for (i = 0; i < NCELLS; i++) {
		assert_string_equal(got[i], ids[i]);
		assert_true(complete(path_of("intr"), ids[i]));
	}
	assert_int_equal(cell_dirs(path_of("intr")), NCELLS);
	/* the cells complete before the interrupt were not run again */
	for (i = 0; i < NCELLS; i++) {
		struct fstamp m, t;

		if (!was[i])
			continue;
		m = stamp(path_of("intr"), ids[i], "meta.json");
		t = stamp(path_of("intr"), ids[i], "trace.dat");
		assert_int_equal(m.ino, meta[i].ino);
		assert_int_equal(m.mtime.tv_sec, meta[i].mtime.tv_sec);
		assert_int_equal(m.mtime.tv_nsec, meta[i].mtime.tv_nsec);
		assert_int_equal(t.ino, trace[i].ino);
		assert_int_equal(t.mtime.tv_nsec, trace[i].mtime.tv_nsec);
	}
	{
		char path[900], v[64];

		snprintf(path, sizeof(path), "%s/run.json", path_of("intr"));
		assert_string_equal(itest_json(path, "complete", v, sizeof(v)), "true");
	}
}

/*
 * four host kernels: the booted release, the booted release and build (uname -rv), the
 * booted release with another build, and another release; the last two are pending
 */
static void test_other_kernels_pending(void **state)
{
	char ab[800], path[900], v[128], want[300];
	char *args[] = { "run", cfg2, "-o", ab, "--resume", NULL };
	struct fstamp before, after;
	struct utsname u;

	snprintf(ab, sizeof(ab), "%s/ab", dir);
	assert_int_equal(run_cb(args), 0);
	assert_int_equal(uname(&u), 0);
	expect_log("pending: [kernel otherbuild] 1 cell(s)");
	expect_log("pending: [kernel other] 1 cell(s): wants release '0.0.0-not-booted'");
	snprintf(want, sizeof(want), "booted is '%s'", u.release);
	expect_log(want);
	expect_log("still to run: 2 cell(s) of other kernels");
	assert_true(complete(path_of("ab"), "cur.s.w.r1"));
	assert_true(complete(path_of("ab"), "curbuild.s.w.r1"));
	assert_int_equal(access(path_of("ab/other.s.w.r1"), F_OK), -1);
	assert_int_equal(access(path_of("ab/otherbuild.s.w.r1"), F_OK), -1);
	snprintf(path, sizeof(path), "%s/run.json", path_of("ab"));
	assert_string_equal(itest_json(path, "complete", v, sizeof(v)), "false");
	assert_string_equal(itest_json(path, "total_cells", v, sizeof(v)), "4");
	{
		struct json_object *o = json_object_from_file(path), *p, *e;

		assert_true(json_object_object_get_ex(o, "pending", &p));
		assert_int_equal(json_object_array_length(p), 2);
		e = json_object_array_get_idx(p, 0);
		assert_string_equal(json_object_get_string(json_object_object_get(e, "kernel")),
				    "otherbuild");
		e = json_object_array_get_idx(p, 1);
		assert_string_equal(json_object_get_string(json_object_object_get(e, "kernel")),
				    "other");
		assert_int_equal(json_object_get_int(json_object_object_get(e, "cells")), 1);
		json_object_put(o);
	}

	/* the same command again (still not rebooted): nothing runs, the same two pending */
	before = stamp(path_of("ab"), "cur.s.w.r1", "meta.json");
	assert_int_equal(run_cb(args), 0);
	expect_log("resume: 2 of 4 cells complete, 0 to run now, 2 pending");
	after = stamp(path_of("ab"), "cur.s.w.r1", "meta.json");
	assert_int_equal(after.ino, before.ino);
	assert_int_equal(after.mtime.tv_nsec, before.mtime.tv_nsec);
}

static void test_no_kernel_booted(void **state)
{
	char typo[800], out[800], text[512];
	struct utsname u;

	assert_int_equal(uname(&u), 0);
	snprintf(typo, sizeof(typo), "%s/typo.ini", dir);
	snprintf(out, sizeof(out), "%s/typo-run", dir);
	snprintf(text, sizeof(text),
		 "[global]\nreps = 2\nstart_state = none\n"
		 "[kernel mine]\nrelease = %sx\n"
		 "[setting s]\nvm.compaction_proactiveness = 13\n"
		 "[workload w]\ndemand = idle\ndemand.duration = 1s\n", u.release);
	assert_int_equal(cb_write_file_atomic(typo, text, strlen(text)), 0);
	assert_int_equal(run_cb((char *[]){ "run", typo, "-o", out, NULL }), 2);
	expect_log("nothing to run: every one of the 2 cells belongs to a kernel that is not the "
		   "booted one");
	expect_log("pending: [kernel mine] 2 cell(s): wants release");
	assert_int_equal(access(out, F_OK), -1);
}

static void test_shards_merged(void **state)
{
	char shard[3][800], spec[3][8], got[NCELLS][128], path[900], v[64];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(shard[i], sizeof(shard[i]), "%s/shard%d", dir, i + 1);
		snprintf(spec[i], sizeof(spec[i]), "%d/3", i + 1);
		assert_int_equal(run_cb((char *[]){ "run", cfg, "--shard", spec[i], "-o", shard[i],
						    NULL }), 0);
	}
	/* shard 1/3 holds positions 0 and 3 of the run order, 2/3 position 1, 3/3 position 2 */
	assert_int_equal(run_ids(shard[0], got, NCELLS), 2);
	assert_string_equal(got[0], ids[0]);
	assert_string_equal(got[1], ids[3]);
	assert_int_equal(run_ids(shard[1], got, NCELLS), 1);
	assert_string_equal(got[0], ids[1]);
	snprintf(path, sizeof(path), "%s/run.json", shard[1]);
	assert_string_equal(itest_json(path, "shard.index", v, sizeof(v)), "2");
	assert_string_equal(itest_json(path, "total_cells", v, sizeof(v)), "4");

	assert_int_equal(run_cb((char *[]){ "merge", path_of("merged"), shard[2], shard[0],
					    shard[1], NULL }), 0);
	assert_int_equal(run_ids(path_of("merged"), got, NCELLS), NCELLS);
	for (i = 0; i < NCELLS; i++) {
		assert_string_equal(got[i], ids[i]);
		assert_true(complete(path_of("merged"), ids[i]));
	}
	assert_int_equal(cell_dirs(path_of("merged")), NCELLS);
	assert_int_equal(run_cb((char *[]){ "analyze", path_of("merged"), NULL }), 0);
	expect_log("4 cells, 4 analyzed, 0 left out");

	/* a shard of another config */
	assert_int_equal(run_cb((char *[]){ "merge", path_of("mixed"), shard[0], path_of("ab"),
					    NULL }), 2);
	expect_log("ab/run.json: field \"config_sha256\"");
	assert_int_equal(access(path_of("mixed"), F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uninterrupted),
		cmocka_unit_test(test_interrupted_then_resumed),
		cmocka_unit_test(test_other_kernels_pending),
		cmocka_unit_test(test_no_kernel_booted),
		cmocka_unit_test(test_shards_merged),
	};
	char text[2048];
	struct utsname u;
	int rc;

	testenv_require_cb();
	if (!itest_can_trace()) {
		fprintf(stderr, "skip: needs root, tracefs and a writable %s\n", PROACTIVENESS);
		return 77;
	}
	if (!mkdtemp(dir) || uname(&u) < 0)
		return 1;
	original = itest_read_long(PROACTIVENESS);
	snprintf(cfg, sizeof(cfg), "%s/resume.ini", dir);
	snprintf(cfg2, sizeof(cfg2), "%s/ab.ini", dir);
	snprintf(log_path, sizeof(log_path), "%s/log", dir);
	if (cb_write_file_atomic(cfg, cfg_text, strlen(cfg_text)) < 0)
		return 1;
	snprintf(text, sizeof(text),
		 "[global]\nreps = 1\nstart_state = none\n"
		 "[kernel cur]\nrelease = %s\n"
		 "[kernel curbuild]\nrelease = %s %s\n"
		 "[kernel otherbuild]\nrelease = %s #999 another build\n"
		 "[kernel other]\nrelease = 0.0.0-not-booted\n"
		 "[setting s]\nvm.compaction_proactiveness = 13\n"
		 "[workload w]\ndemand = idle\ndemand.duration = 1s\n",
		 u.release, u.release, u.version, u.release);
	if (cb_write_file_atomic(cfg2, text, strlen(text)) < 0)
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (rc == 0)
		cb_rm_rf(dir);
	else
		fprintf(stderr, "kept %s for a look\n", dir);
	return rc;
}
