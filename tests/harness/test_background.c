// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_background.c - integration: a cell with stress-ng as background load runs, keeps
 * stress-ng's output, and leaves no stress-ng process and none of its scratch files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>

#include "itest.h"

static char dir[] = "/tmp/cb-test-bg-XXXXXX";

static const char cfg_text[] = "[global]\n"
			       "reps = 1\n"
			       "start_state = none\n"
			       "[setting s]\n"
			       "thp.defrag = madvise\n"
			       "[workload loaded]\n"
			       "background = stress-ng\n"
			       "background.cpu = 1\n"
			       "background.cpu-load = 30\n"
			       "background.vm = 1\n"
			       "background.vm-bytes = 32M\n"
			       "demand = thp-demand\n"
			       "demand.size = 64M\n"
			       "demand.rate = 20\n";

/* how many processes are called stress-ng (ours or anyone's) */
static int stress_ng_running(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[300], comm[64];
	int n = 0;

	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
		    cb_read_trimmed(path, comm, sizeof(comm)) == 0 && !strncmp(comm, "stress-ng", 9))
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

static void test_background_load(void **state)
{
	char cfg[700], out[700], log_path[700], cell[900], meta[1000], v[64];
	char *args[] = { "run", cfg, "-o", out, NULL };
	int before = stress_ng_running();
	struct dirent *e;
	DIR *d;
	int files = 0;

	snprintf(cfg, sizeof(cfg), "%s/bg.ini", dir);
	snprintf(out, sizeof(out), "%s/run", dir);
	snprintf(log_path, sizeof(log_path), "%s/log", dir);
	assert_int_equal(cb_write_file_atomic(cfg, cfg_text, strlen(cfg_text)), 0);
	assert_int_equal(itest_wait(itest_spawn(log_path, args)), 0);
	snprintf(cell, sizeof(cell), "%s/host.s.loaded.r1", out);
	snprintf(meta, sizeof(meta), "%s/meta.json", cell);
	assert_string_equal(itest_json(meta, "status", v, sizeof(v)), "complete");
	/* stress-ng is gone, and its workload/ holds only the four output files */
	assert_int_equal(stress_ng_running(), before);
	snprintf(meta, sizeof(meta), "%s/workload", cell);
	d = opendir(meta);
	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			print_message("%s\n", e->d_name);
			files++;
		}
	closedir(d);
	assert_int_equal(files, 4);
	snprintf(meta, sizeof(meta), "%s/workload/3-background-stress-ng.log", cell);
	assert_int_equal(access(meta, R_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_background_load) };
	int rc;

	testenv_require_cb();
	if (!itest_can_trace() || access("/usr/bin/stress-ng", X_OK) < 0) {
		fprintf(stderr, "skip: needs root, tracefs and /usr/bin/stress-ng\n");
		return 77;
	}
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (rc == 0)
		cb_rm_rf(dir);
	return rc;
}
