// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_wmark_run.c - integration: a run with the wmark policy (the user-space emulation of
 * the compact_wmark proposal) on the host. Its watermark (100000 free order-10 blocks, 400
 * GiB) is above what any node here has, so every period must compact every node: the
 * cell's wmark.json has a check per period, a trigger per check and node, the kernel's
 * trace shows the compaction runs, its CPU time is in summary.json as cpu_policy_ns (and
 * inside cpu_background_ns), and the setting without the keys has cpu_policy_ns 0 and no
 * wmark.json. A second [kernel] that no setting runs on checks the run's skipped-cells line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "itest.h"

static char dir[] = "/tmp/cb-test-wmark-run-XXXXXX";

#define PERIOD_S 0.2
#define IDLE_S 2.0

static const char cfg_text[] = "[global]\n"
			       "reps = 1\n"
			       "start_state = none\n"
			       "[kernel host]\n"
			       "[kernel spare]\n"
			       "[setting none]\n"
			       "kernels = host\n"
			       "[setting wm]\n"
			       "kernels = host\n"
			       "wmark.period = 200ms\n"
			       "wmark.order = 10\n"
			       "wmark.count = 100000\n"
			       "[workload quiet]\n"
			       "demand = idle\n"
			       "demand.duration = 2s\n";

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *x = NULL;

	if (!o || !json_object_object_get_ex(o, key, &x))
		fail_msg("no key '%s'", key);
	return x;
}

static int64_t get_i(struct json_object *o, const char *key)
{
	struct json_object *x = get(o, key);

	if (!json_object_is_type(x, json_type_int))
		fail_msg("key '%s' is not an integer", key);
	return json_object_get_int64(x);
}

static void test_wmark_run(void **state)
{
	char cfg[700], out[700], log_path[700], path[1000], v[64], *log;
	char *args[] = { "run", cfg, "-o", out, NULL };
	struct json_object *wm, *sum, *m, *cpu, *nodes;
	char *bi, *line, *save = NULL;
	int64_t checks, missed, triggers, cpu_ns, wall_ns, nnodes = 0;

	snprintf(cfg, sizeof(cfg), "%s/wm.ini", dir);
	snprintf(out, sizeof(out), "%s/run", dir);
	snprintf(log_path, sizeof(log_path), "%s/log", dir);
	assert_int_equal(cb_write_file_atomic(cfg, cfg_text, strlen(cfg_text)), 0);
	assert_int_equal(itest_wait(itest_spawn(log_path, args)), 0);
	log = cb_read_file(log_path, NULL);
	assert_non_null(log);
	if (!strstr(log, ": 2 cells (2 kernels x 2 settings x 1 workloads x 1 reps, 2 skipped: "
		    "setting 'none' runs only on kernel host (1 cell); setting 'wm' runs only on "
		    "kernel host (1 cell)) into "))
		fail_msg("no skipped-cells line in:\n%s", log);
	free(log);

	/* the policy's own account */
	snprintf(path, sizeof(path), "%s/host.wm.quiet.r1/meta.json", out);
	assert_string_equal(itest_json(path, "status", v, sizeof(v)), "complete");
	assert_string_equal(itest_json(path, "wmark.order", v, sizeof(v)), "10");
	snprintf(path, sizeof(path), "%s/host.wm.quiet.r1/wmark.json", out);
	wm = json_object_from_file(path);
	assert_non_null(wm);
	assert_string_equal(json_object_get_string(get(wm, "policy")),
			    "user-space emulation of the compact_wmark proposal");
	assert_int_equal(get_i(wm, "order"), 10);
	assert_int_equal(get_i(wm, "count"), 100000);
	assert_null(get(wm, "error"));
	checks = get_i(wm, "checks");
	missed = get_i(wm, "missed_periods");
	triggers = get_i(wm, "triggers");
	cpu_ns = get_i(wm, "cpu_ns");
	wall_ns = get_i(wm, "wall_ns");
	print_message("wmark: %ld checks, %ld missed, %ld triggers, %ld ns CPU in %ld ns\n",
		      (long)checks, (long)missed, (long)triggers, (long)cpu_ns, (long)wall_ns);
	/* it ran over the demand (2 s idle; the agent sees the end within its 100 ms pump) */
	assert_true(wall_ns >= (int64_t)(IDLE_S * 1e9) && wall_ns < (int64_t)((IDLE_S + 1) * 1e9));
	/* a step on every grid point of the wall time: run or skipped because one outlasted it */
	if (llabs(checks + missed - (int64_t)(wall_ns / (PERIOD_S * 1e9)) - 1) > 1)
		fail_msg("%ld checks + %ld missed in %ld ns of %.1f s periods", (long)checks,
			 (long)missed, (long)wall_ns, PERIOD_S);
	assert_true(checks >= 3);
	/* no node has 400 GiB free: every check compacts every node (per-node files here) */
	bi = cb_read_file("/proc/buddyinfo", NULL);
	assert_non_null(bi);
	for (line = strtok_r(bi, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int node;

		if (sscanf(line, "Node %d,", &node) == 1 && node + 1 > nnodes)
			nnodes = node + 1;
	}
	free(bi);
	assert_true(nnodes > 0);
	nodes = get(wm, "node_triggers");
	assert_int_equal(json_object_array_length(nodes), nnodes);
	for (int64_t n = 0; n < nnodes; n++)
		assert_int_equal(json_object_get_int64(json_object_array_get_idx(nodes, n)), checks);
	if (access("/sys/devices/system/node/node0/compact", W_OK) == 0)
		assert_int_equal(triggers, checks * nnodes);
	else
		assert_int_equal(triggers, checks);
	assert_true(cpu_ns > 0);
	/* CPU time of one thread cannot exceed its wall time */
	assert_true(cpu_ns <= wall_ns);

	/* the analyzer: cpu_policy_ns is the file's figure, and part of cpu_background_ns */
	snprintf(path, sizeof(path), "%s/host.wm.quiet.r1/summary.json", out);
	sum = json_object_from_file(path);
	assert_non_null(sum);
	m = get(sum, "metrics");
	assert_int_equal(get_i(m, "cpu_policy_ns"), cpu_ns);
	cpu = get(sum, "cpu");
	assert_int_equal(get_i(m, "cpu_background_ns"),
			 get_i(cpu, "kcompactd_ns") + get_i(cpu, "khugepaged_ns") + cpu_ns);
	/* the kernel's own record: each write compacted at least one zone (others may add) */
	assert_true(get_i(m, "cw_runs_manual") >= triggers);
	json_object_put(sum);
	json_object_put(wm);

	/* the setting without the keys: no wmark.json, and a cost of 0, not null */
	snprintf(path, sizeof(path), "%s/host.none.quiet.r1/wmark.json", out);
	assert_int_not_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/host.none.quiet.r1/summary.json", out);
	sum = json_object_from_file(path);
	assert_non_null(sum);
	m = get(sum, "metrics");
	assert_int_equal(get_i(m, "cpu_policy_ns"), 0);
	json_object_put(sum);
	/* the report's cost table carries it */
	snprintf(path, sizeof(path), "%s/report.md", out);
	log = cb_read_file(path, NULL);
	assert_non_null(log);
	assert_non_null(strstr(log, "policy_ms"));
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_wmark_run) };
	int rc;

	testenv_require_cb();
	if (!itest_can_trace()) {
		fprintf(stderr, "skip: needs root and tracefs\n");
		return 77;
	}
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (rc == 0)
		cb_rm_rf(dir);
	return rc;
}
