// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_timing_host.c - integration: where a host cell's time goes. One small cell (a
 * 256 MiB every-other fragmenter, 2 s settle, 3 s idle demand; no memory window, no start
 * state, so the machine is barely touched) run twice:
 *   - meta.json "timing": the parts sum to the cell's wall time within 2%; the settle part
 *     is the configured 2 s and the demand part the idle program's 3 s (within the agent's
 *     100 ms pump and start-up), boot is 0 on the host; run.json sums the one cell;
 *   - the run's start line gives the number of cells and an estimate from the config, and
 *     the second run's estimate is the first run's measured wall time (same config, found
 *     in the config's output directory), named as such.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>

#include "itest.h"

static char dir[] = "/tmp/cb-test-timing-host-XXXXXX";

#define SETTLE_S 2.0
#define IDLE_S 3.0

static double num(const char *path, const char *key)
{
	char v[64];

	itest_json(path, key, v, sizeof(v));
	if (!strcmp(v, "(missing)"))
		fail_msg("%s: no %s", path, key);
	return strtod(v, NULL);
}

static char *run_once(const char *cfg, const char *out)
{
	char log_path[700];
	char *args[] = { "run", (char *)cfg, "-o", (char *)out, NULL };
	char *log;

	snprintf(log_path, sizeof(log_path), "%s.log", out);
	assert_int_equal(itest_wait(itest_spawn(log_path, args)), 0);
	log = cb_read_file(log_path, NULL);
	assert_non_null(log);
	return log;
}

/* the breakdown of the cell in @out, checked; returns its wall time */
static double check_cell(const char *out)
{
	char path[1000];
	double wall, sum = 0, p;
	static const char *const parts[] = { "boot", "setup", "start_state", "fragment", "settle",
					     "demand", "stop", "shutdown", "fetch", "analysis" };

	snprintf(path, sizeof(path), "%s/host.s.w.r1/meta.json", out);
	wall = num(path, "timing.wall_s");
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		char key[64];

		snprintf(key, sizeof(key), "timing.parts.%s", parts[i]);
		p = num(path, key);
		assert_true(p >= 0);
		sum += p;
		print_message("%s %.3f s, ", parts[i], p);
	}
	print_message("wall %.3f s\n", wall);
	assert_true(fabs(sum - num(path, "timing.sum_s")) < 1e-6);
	assert_true(fabs(wall - sum) <= 0.02 * wall);
	assert_true(fabs(num(path, "timing.unaccounted_fraction")) <= 0.02);
	/* the parts against what the config asked for */
	p = num(path, "timing.parts.settle");
	assert_true(p >= SETTLE_S && p < SETTLE_S + 0.5);
	p = num(path, "timing.parts.demand");
	assert_true(p >= IDLE_S && p < IDLE_S + 1.5);
	assert_true(num(path, "timing.parts.fragment") > 0);
	assert_true(num(path, "timing.parts.analysis") > 0);
	assert_true(num(path, "timing.parts.boot") == 0);
	/* the host's clock at both ends, apart from the laps */
	assert_true(fabs((num(path, "timing.host_end_ns") - num(path, "timing.host_start_ns")) / 1e9 -
			 wall) < 0.001);
	/* run.json: the one cell summed */
	snprintf(path, sizeof(path), "%s/run.json", out);
	assert_int_equal((int)num(path, "timing.cells"), 1);
	assert_true(fabs(num(path, "timing.cell_wall_s") - wall) < 1e-6);
	assert_true(num(path, "timing.parts.settle") >= SETTLE_S);
	assert_int_equal((int)num(path, "jobs"), 1);
	return wall;
}

static void test_host_cell_breakdown(void **state)
{
	char cfg[700], out1[700], out2[700], text[1024], want[128];
	char *log;
	double wall;

	snprintf(cfg, sizeof(cfg), "%s/t.ini", dir);
	snprintf(out1, sizeof(out1), "%s/run1", dir);
	snprintf(out2, sizeof(out2), "%s/run2", dir);
	snprintf(text, sizeof(text),
		 "[global]\nreps = 1\nstart_state = none\noutput = %s\n[kernel host]\n"
		 "[setting s]\nvm.compaction_proactiveness = 20\n"
		 "[workload w]\nfragment = frag-anon\nfragment.size = 256M\n"
		 "fragment.pattern = every-other\nsettle = 2s\ndemand = idle\n"
		 "demand.duration = 3s\n", dir);
	assert_int_equal(cb_write_file_atomic(cfg, text, strlen(text)), 0);

	log = run_once(cfg, out1);
	if (!strstr(log, "compactbench: 1 cells to run: about ") ||
	    !strstr(log, "(estimated from the config: settle + demand duration"))
		fail_msg("no estimate line from the config in:\n%s", log);
	free(log);
	wall = check_cell(out1);

	log = run_once(cfg, out2);
	snprintf(want, sizeof(want), "1 cells to run: about %.0f s (estimated 1 of the cells from "
		 "the measured time of their kernel and workload in %s)", wall, out1);
	if (!strstr(log, want))
		fail_msg("no '%s' in:\n%s", want, log);
	free(log);
	check_cell(out2);
}

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	return cb_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_host_cell_breakdown) };

	testenv_require_cb();
	if (geteuid() != 0 || !itest_can_trace()) {
		fprintf(stderr, "skipped: needs root and tracefs\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
