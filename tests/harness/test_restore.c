// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_restore.c - integration: a run changes vm.compaction_proactiveness on this machine;
 * SIGINT mid-run restores it (and leaves no tracefs instance); a journal left by SIGKILL is
 * restored by `compactbench restore` and by the next run's start.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "itest.h"

static char dir[] = "/tmp/cb-test-restore-XXXXXX";
static char cfg[600], log_path[600];
static long original, changed;

/* a cell that runs ~30 s: 60 THP regions at 2 per second, no fragmenter */
static const char cfg_fmt[] = "[global]\n"
			      "reps = 1\n"
			      "start_state = none\n"
			      "[setting s]\n"
			      "vm.compaction_proactiveness = %ld\n"
			      "[workload slow]\n"
			      "demand = thp-demand\n"
			      "demand.size = 120M\n"
			      "demand.rate = 2\n"
			      "demand.duration = 60s\n"
			      "quick.demand.size = 4M\n";

static pid_t start_run(const char *out)
{
	char *args[] = { "run", cfg, "-o", (char *)out, NULL };

	return itest_spawn(log_path, args);
}

static void test_sigint_restores(void **state)
{
	char out[700], meta[800], v[64];
	pid_t pid;

	snprintf(out, sizeof(out), "%s/sigint", dir);
	pid = start_run(out);
	assert_true(itest_wait_value(PROACTIVENESS, changed, 60));
	sleep(2); /* well inside the cell: collector on, workload running */
	assert_true(itest_instance_of(pid));
	kill(pid, SIGINT);
	assert_int_equal(itest_wait(pid), 130);
	assert_int_equal(itest_read_long(PROACTIVENESS), original);
	assert_false(itest_instance_of(pid));
	snprintf(meta, sizeof(meta), "%s/host.s.slow.r1/meta.json", out);
	assert_string_equal(itest_json(meta, "status", v, sizeof(v)), "incomplete");
	snprintf(meta, sizeof(meta), "%s/run.json", out);
	assert_string_equal(itest_json(meta, "complete", v, sizeof(v)), "false");
}

/* a run SIGKILLed mid-cell; returns its pid (its instance and journal are left behind) */
static pid_t killed_run(const char *name)
{
	char out[700];
	pid_t pid;

	snprintf(out, sizeof(out), "%s/%s", dir, name);
	pid = start_run(out);
	assert_true(itest_wait_value(PROACTIVENESS, changed, 60));
	sleep(2);
	kill(pid, SIGKILL);
	assert_int_equal(itest_wait(pid), 128 + SIGKILL);
	/* nothing could restore it: the knob is still changed, the journal holds the old value */
	assert_int_equal(itest_read_long(PROACTIVENESS), changed);
	assert_true(itest_instance_of(pid));
	/* its workload got SIGTERM from PR_SET_PDEATHSIG; give it a moment to go */
	sleep(1);
	return pid;
}

static void test_sigkill_then_restore_command(void **state)
{
	char *args[] = { "restore", NULL }, *text;
	pid_t killed = killed_run("sigkill1");

	assert_int_equal(itest_wait(itest_spawn(log_path, args)), 0);
	assert_int_equal(itest_read_long(PROACTIVENESS), original);
	assert_false(itest_instance_of(killed));
	text = cb_read_file(log_path, NULL);
	assert_non_null(strstr(text, "restored /proc/sys/vm/compaction_proactiveness"));
	free(text);
}

static void test_sigkill_then_next_start(void **state)
{
	char out[700], *text;
	char *args[] = { "run", cfg, "-o", out, "--quick", NULL };
	pid_t killed = killed_run("sigkill2");

	snprintf(out, sizeof(out), "%s/next", dir);
	assert_int_equal(itest_wait(itest_spawn(log_path, args)), 0);
	text = cb_read_file(log_path, NULL);
	assert_non_null(strstr(text, "a previous run did not restore its knobs"));
	assert_non_null(strstr(text, "removed stale"));
	free(text);
	assert_int_equal(itest_read_long(PROACTIVENESS), original);
	assert_false(itest_instance_of(killed));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigint_restores),
		cmocka_unit_test(test_sigkill_then_restore_command),
		cmocka_unit_test(test_sigkill_then_next_start),
	};
	char text[sizeof(cfg_fmt) + 32];
	int rc;

	testenv_require_cb();
	if (!itest_can_trace()) {
		fprintf(stderr, "skip: needs root, tracefs and a writable %s\n", PROACTIVENESS);
		return 77;
	}
	if (!mkdtemp(dir))
		return 1;
	original = itest_read_long(PROACTIVENESS);
	changed = original == 37 ? 38 : 37;
	snprintf(cfg, sizeof(cfg), "%s/restore.ini", dir);
	snprintf(log_path, sizeof(log_path), "%s/log", dir);
	snprintf(text, sizeof(text), cfg_fmt, changed);
	if (cb_write_file_atomic(cfg, text, strlen(text)) < 0)
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (rc == 0)
		cb_rm_rf(dir);
	else
		fprintf(stderr, "kept %s for a look\n", dir);
	return rc;
}
