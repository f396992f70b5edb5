// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_qemu_jobs.c - integration: `run --jobs 2` with two one-vCPU guests at once.
 *   - --jobs larger than the CPUs allow is refused, exit 2, the numbers in the message;
 *   - the run has the cells --jobs 1 would have (the ids `config check` lists), each
 *     complete and analyzed, run.json complete with "jobs": 2;
 *   - the two guests ran at the same time (their host intervals overlap) on different host
 *     CPUs, one each;
 *   - each cell's breakdown (boot on the host's clock, the agent's parts on the guest's)
 *     sums to its wall time within 2%;
 *   - no progress or notice line of one cell is cut by another's;
 *   - --resume of the finished run has nothing left to run and keeps it complete;
 *   - SIGTERM to the run alone stops both guests (exit 130, incomplete), and --resume
 *     --jobs 2 completes it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <sched.h>

#include "itest.h"
#include "qemu_common.h"

static char dir[] = "/tmp/cb-test-qemu-jobs-XXXXXX";

static const char rest[] =
	"[setting s]\nvm.compaction_proactiveness = 0\nthp.enabled = madvise\n"
	"thp.defrag = madvise\n"
	"[workload w]\nfragment = frag-anon\nfragment.size = 0.6\nfragment.pattern = every-other\n"
	"settle = 1s\ndemand = thp-demand\ndemand.size = 0.15\ndemand.duration = 5s\n"
	"timeout = 5m\nready_timeout = 5m\n";

/* every line holds at most one "compactbench: " or "[i/n] ", and only at its start */
static void check_lines(const char *log)
{
	const char *line = log;

	while (*line) {
		const char *end = strchr(line, '\n'), *p;
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char *l = strndup(line, len);

		for (p = l + 1; *p; p++)
			if (!strncmp(p, "compactbench: ", 14) ||
			    (p[0] == '[' && p[1] >= '1' && p[1] <= '9' && strstr(p, "/2] ") == p + 2))
				fail_msg("a line cut by another: '%s'", l);
		free(l);
		line += len + (end ? 1 : 0);
	}
}

/* `run --jobs 2 --resume` of @out: exit 0, @says in its log, the run and both cells complete */
static void resume_to_complete(char *cfg, char *out, const char *log, const char *says)
{
	char *resume[] = { "run", cfg, "--reps", "2", "--jobs", "2", "-o", out, "--resume", NULL };
	char path[1400], v[64], *text;

	assert_int_equal(qtest_run(log, resume), 0);
	text = qtest_log(log);
	if (!strstr(text, says))
		fail_msg("no '%s'", says);
	free(text);
	snprintf(path, sizeof(path), "%s/run.json", out);
	assert_string_equal(itest_json(path, "complete", v, sizeof(v)), "true");
	for (int r = 1; r <= 2; r++) {
		snprintf(path, sizeof(path), "%s/k61.s.w.r%d/meta.json", out, r);
		assert_string_equal(itest_json(path, "status", v, sizeof(v)), "complete");
	}
}

static void test_refused_when_oversubscribed(void **state)
{
	char cfg[1024], log[1024], out[1024], jobs[16], want[128], *text;
	char *args[] = { "run", cfg, "--jobs", jobs, "-o", out, NULL };
	cpu_set_t set;
	int ncpu;

	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	ncpu = CPU_COUNT(&set);
	snprintf(cfg, sizeof(cfg), "%s/jobs.ini", dir);
	snprintf(jobs, sizeof(jobs), "%d", ncpu + 1);
	snprintf(log, sizeof(log), "%s/refused.log", dir);
	snprintf(out, sizeof(out), "%s/refused", dir);
	assert_int_equal(qtest_run(log, args), 2);
	text = qtest_log(log);
	snprintf(want, sizeof(want), "--jobs %d: %d guests x 1 vCPUs = %d host CPUs, but this "
		 "process may use %d", ncpu + 1, ncpu + 1, ncpu + 1, ncpu);
	if (!strstr(text, want))
		fail_msg("no '%s'", want);
	free(text);
}

static void test_two_guests_at_once(void **state)
{
	char cfg[1024], out[1024], log[1024], path[1400], v[64], cpus[2][64], *text;
	char *args[] = { "run", cfg, "--reps", "2", "--jobs", "2", "-o", out, NULL };
	static const char *const ids[] = { "k61.s.w.r1", "k61.s.w.r2" };
	double start[2], end[2];
	struct json_object *run, *cells;

	snprintf(cfg, sizeof(cfg), "%s/jobs.ini", dir);
	snprintf(out, sizeof(out), "%s/run", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	assert_int_equal(qtest_run(log, args), 0);
	text = qtest_log(log);
	check_lines(text);
	assert_non_null(strstr(text, "2 cells to run, up to 2 QEMU cells at once (1 host CPUs each)"));
	free(text);

	snprintf(path, sizeof(path), "%s/run.json", out);
	run = json_object_from_file(path);
	assert_non_null(run);
	assert_true(json_object_get_boolean(json_object_object_get(run, "complete")));
	assert_int_equal(json_object_get_int(json_object_object_get(run, "jobs")), 2);
	cells = json_object_object_get(run, "cells");
	assert_int_equal(json_object_array_length(cells), 2);
	for (int i = 0; i < 2; i++) {
		const char *id = json_object_get_string(
			json_object_object_get(json_object_array_get_idx(cells, i), "id"));

		assert_string_equal(id, ids[i]);
		snprintf(path, sizeof(path), "%s/%s/meta.json", out, id);
		assert_string_equal(itest_json(path, "status", v, sizeof(v)), "complete");
		itest_json(path, "timing.pinned_cpus", cpus[i], sizeof(cpus[i]));
		assert_null(strpbrk(cpus[i], ",-")); /* one CPU */
		start[i] = itest_json_num(path, "timing.host_start_ns");
		end[i] = itest_json_num(path, "timing.host_end_ns");
		print_message("%s: CPU %s, wall %.1f s, boot %.1f s, guest agent %.1f s (its parts: "
			      "fragment %.1f, demand %.1f), unaccounted %.2f%%\n", id, cpus[i],
			      itest_json_num(path, "timing.wall_s"),
			      itest_json_num(path, "timing.parts.boot"),
			      itest_json_num(path, "timing.remote_agent_s"),
			      itest_json_num(path, "timing.parts.fragment"),
			      itest_json_num(path, "timing.parts.demand"),
			      100 * itest_json_num(path, "timing.unaccounted_fraction"));
		assert_true(itest_json_num(path, "timing.parts.boot") > 0);
		assert_true(itest_json_num(path, "timing.parts.demand") > 0);
		assert_true(fabs(itest_json_num(path, "timing.unaccounted_fraction")) <= 0.02);
		snprintf(path, sizeof(path), "%s/%s/summary.json", out, id);
		assert_int_equal(access(path, R_OK), 0);
	}
	assert_string_not_equal(cpus[0], cpus[1]);
	assert_true(start[0] < end[1] && start[1] < end[0]); /* at the same time */
	snprintf(path, sizeof(path), "%s/run.json", out);
	assert_int_equal((int)itest_json_num(path, "timing.cells"), 2);
	json_object_put(run);

	resume_to_complete(cfg, out, log, "resume: 2 of 2 cells complete, 0 to run now, 0 pending");
}

/* both guests up: their consoles say the agent started */
static bool both_agents_started(const char *out)
{
	char path[1200], *text;
	int n = 0;

	for (int r = 1; r <= 2; r++) {
		snprintf(path, sizeof(path), "%s/k61.s.w.r%d/console.log", out, r);
		text = cb_read_file(path, NULL);
		n += text && strstr(text, "cb-init: agent start");
		free(text);
	}
	return n == 2;
}

/*
 * SIGTERM to the run alone (not its process group) while two guests run: it passes the
 * signal on, both guests are killed, it exits 130 with the run incomplete, and --resume
 * --jobs 2 runs both cells again to complete
 */
static void test_interrupted_then_resumed(void **state)
{
	char cfg[1024], out[1024], log[1024], path[1400], v[64], *text;
	char *args[] = { "run", cfg, "--reps", "2", "--jobs", "2", "-o", out, NULL };
	pid_t pid;
	int i;

	snprintf(cfg, sizeof(cfg), "%s/jobs.ini", dir);
	snprintf(out, sizeof(out), "%s/int", dir);
	snprintf(log, sizeof(log), "%s/int.log", dir);
	pid = itest_spawn(log, args);
	for (i = 0; i < 1200 && !both_agents_started(out); i++)
		usleep(100000);
	assert_true(both_agents_started(out));
	kill(pid, SIGTERM);
	assert_int_equal(itest_wait(pid), 130);
	text = qtest_log(log);
	check_lines(text);
	free(text);
	assert_int_equal(qemu_processes_with(out), 0);
	snprintf(path, sizeof(path), "%s/run.json", out);
	assert_string_equal(itest_json(path, "complete", v, sizeof(v)), "false");
	for (int r = 1; r <= 2; r++) {
		snprintf(path, sizeof(path), "%s/k61.s.w.r%d/meta.json", out, r);
		assert_string_not_equal(itest_json(path, "status", v, sizeof(v)), "complete");
	}

	resume_to_complete(cfg, out, log, "resume: 0 of 2 cells complete, 2 to run now, 0 pending");
}

static int setup(void **state)
{
	char path[1024];

	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/jobs.ini", dir);
	qemu_matrix(path, "memory = 1G\ncpus = 1\nboot_timeout = 120\n", rest);
	return 0;
}

static int teardown(void **state)
{
	return cb_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_refused_when_oversubscribed),
					    cmocka_unit_test(test_two_guests_at_once),
					    cmocka_unit_test(test_interrupted_then_resumed) };

	cpu_set_t set;

	qemu_require();
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) < 2) {
		fprintf(stderr, "skipped: two one-vCPU guests need 2 host CPUs\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
