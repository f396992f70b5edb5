// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_qemu_wmark.c - integration: the wmark policy (the user-space emulation of the
 * compact_wmark proposal) inside a QEMU guest. The guest's agent reads the run's
 * config.ini, so the setting's wmark.* keys reach it like its knobs; with a watermark no
 * guest can meet (100000 free order-10 blocks) every period must compact, here through
 * /proc/sys/vm/compact_memory (the 6.1 guest has no NUMA sysfs). Checked: wmark.json came
 * back through 9p with a check per period and a trigger per check, the guest kernel's trace
 * holds that many manual compaction runs or more, and summary.json's cpu_policy_ns is the
 * file's cpu_ns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "itest.h"
#include "qemu_common.h"

static char dir[] = "/tmp/cb-test-qemu-wmark-XXXXXX";

static long num(const char *path, const char *key)
{
	char v[64];

	itest_json(path, key, v, sizeof(v));
	if (!strcmp(v, "(missing)"))
		fail_msg("%s: no %s", path, key);
	return strtol(v, NULL, 10);
}

static void test_wmark_in_guest(void **state)
{
	char cfg[1024], out[1024], log[1024], path[1400], v[128];
	char *args[] = { "run", cfg, "-o", out, NULL };
	long checks, missed, triggers, cpu_ns, wall_ns;

	snprintf(cfg, sizeof(cfg), "%s/wm.ini", dir);
	snprintf(out, sizeof(out), "%s/run", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	qemu_matrix(cfg, "memory = 768M\n",
		    "[setting wm]\nwmark.period = 200ms\nwmark.order = 10\nwmark.count = 100000\n"
		    "[workload quiet]\ndemand = idle\ndemand.duration = 3s\n");
	unsetenv("COMPACTBENCH_QEMU_APPEND");
	assert_int_equal(qtest_run(log, args), 0);
	free(qtest_log(log));

	snprintf(path, sizeof(path), "%s/k61.wm.quiet.r1/meta.json", out);
	assert_string_equal(itest_json(path, "status", v, sizeof(v)), "complete");
	assert_string_equal(itest_json(path, "target", v, sizeof(v)), "qemu");
	snprintf(path, sizeof(path), "%s/k61.wm.quiet.r1/wmark.json", out);
	checks = num(path, "checks");
	missed = num(path, "missed_periods");
	triggers = num(path, "triggers");
	cpu_ns = num(path, "cpu_ns");
	wall_ns = num(path, "wall_ns");
	print_message("guest wmark: %ld checks, %ld missed, %ld triggers via %s, %ld ns CPU in "
		      "%ld ns\n", checks, missed, triggers, itest_json(path, "via", v, sizeof(v)),
		      cpu_ns, wall_ns);
	assert_string_equal(itest_json(path, "error", v, sizeof(v)), "(missing)");
	assert_true(wall_ns >= 3000000000L && wall_ns < 5000000000L);
	assert_true(labs(checks + missed - wall_ns / 200000000L - 1) <= 1);
	assert_true(checks >= 3);
	/* one node or the global file: a trigger per check either way */
	assert_int_equal(triggers, checks);
	assert_true(cpu_ns > 0 && cpu_ns <= wall_ns);

	snprintf(path, sizeof(path), "%s/k61.wm.quiet.r1/summary.json", out);
	assert_int_equal(num(path, "metrics.cpu_policy_ns"), cpu_ns);
	assert_true(num(path, "metrics.cw_runs_manual") >= triggers);
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
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_wmark_in_guest) };

	qemu_require();
	return cmocka_run_group_tests(tests, setup, teardown);
}
