// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_qemu_icount.c - integration: a guest whose clock counts instructions ([kernel]
 * clock = icount, qemu_conf.h). Two cells of one 1-vCPU guest kernel:
 *
 * - quiet: the idle program sleeps 30 s. With -icount sleep=off QEMU skips idle time
 *   instead of waiting for it, so the host sees the whole guest, boot to poweroff, end in
 *   less than the 30 s the guest slept. With the host's clock that cannot be: the check
 *   fails if QEMU ran without -icount.
 * - burst: the smoke cell's fragmentation and THP burst, complete under this clock, its
 *   trace's stalls agreeing with vmstat's, and summary.json saying which clock timed them.
 *
 * meta.json names the clock, the shift and TCG (KVM cannot count instructions).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "itest.h"
#include "qemu_common.h"

static char dir[] = "/tmp/cb-test-qemu-icount-XXXXXX";

/* the number after "@key": in the text of @path, a JSON-lines file; -1 if none */
static double jsonl_num(const char *path, const char *key)
{
	char *text = cb_read_file(path, NULL), *at;
	double v = -1;

	assert_non_null(text);
	at = strstr(text, key);
	if (at)
		v = strtod(at + strlen(key), NULL);
	free(text);
	return v;
}

static void test_icount_guest(void **state)
{
	char cfg[1024], out[1024], log[1024], path[1400], v[128];
	char *args[] = { "run", cfg, "-o", out, NULL };
	double slept, guest_s;

	snprintf(cfg, sizeof(cfg), "%s/icount.ini", dir);
	snprintf(out, sizeof(out), "%s/run", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	qemu_matrix(cfg, "memory = 1G\ncpus = 1\nclock = icount\n",
		    "[setting pro0]\nvm.compaction_proactiveness = 0\nthp.enabled = madvise\n"
		    "thp.defrag = madvise\n"
		    "[workload quiet]\ndemand = idle\ndemand.duration = 30s\n"
		    "[workload burst]\nfragment = frag-anon\nfragment.size = 0.9\n"
		    "fragment.pattern = every-other\ndemand = thp-demand\ndemand.size = 0.3\n"
		    "demand.duration = 10s\ntimeout = 5m\nready_timeout = 5m\n");
	unsetenv("COMPACTBENCH_QEMU_APPEND");
	unsetenv("COMPACTBENCH_QEMU_ACCEL");
	assert_int_equal(qtest_run(log, args), 0);
	free(qtest_log(log));

	snprintf(path, sizeof(path), "%s/k61.pro0.quiet.r1/meta.json", out);
	assert_string_equal(itest_json(path, "status", v, sizeof(v)), "complete");
	assert_string_equal(itest_json(path, "qemu.clock", v, sizeof(v)), "icount");
	assert_string_equal(itest_json(path, "qemu.icount_shift", v, sizeof(v)), "1");
	assert_string_equal(itest_json(path, "qemu.accel", v, sizeof(v)), "tcg");
	assert_string_equal(itest_json(path, "qemu.cpus", v, sizeof(v)), "1");
	guest_s = itest_json_num(path, "qemu.guest_s");
	snprintf(path, sizeof(path), "%s/k61.pro0.quiet.r1/workload/2-demand-idle.jsonl", out);
	slept = jsonl_num(path, "\"slept_s\":");
	print_message("the guest slept %.1f s; the host saw it boot, sleep and power off in "
		      "%.1f s\n", slept, guest_s);
	assert_true(slept >= 30);
	assert_true(guest_s > 0 && guest_s < slept);

	snprintf(path, sizeof(path), "%s/k61.pro0.burst.r1/meta.json", out);
	assert_string_equal(itest_json(path, "status", v, sizeof(v)), "complete");
	assert_string_equal(itest_json(path, "qemu.clock", v, sizeof(v)), "icount");
	snprintf(path, sizeof(path), "%s/k61.pro0.burst.r1/summary.json", out);
	assert_string_equal(itest_json(path, "guest_clock", v, sizeof(v)), "icount");
	assert_string_equal(itest_json(path, "crosscheck.agree", v, sizeof(v)), "true");
	print_message("burst: %s stalls, ", itest_json(path, "crosscheck.trace_stalls", v,
							  sizeof(v)));
	print_message("%s ns in them (guest time)\n", itest_json(path, "metrics.dc_stall_total_ns",
								   v, sizeof(v)));
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
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_icount_guest) };

	qemu_require();
	return cmocka_run_group_tests(tests, setup, teardown);
}
