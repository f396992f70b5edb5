// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_qemu_timeout.c - integration: a guest whose init never starts the agent (rdinit
 * pointed at `busybox sleep`) is killed at the boot timeout; the cell fails with the
 * console's tail in the error, the run goes on, and no QEMU is left running.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "qemu_common.h"

static char dir[] = "/tmp/cb-test-qemu-timeout-XXXXXX";

static void test_killed_at_boot_timeout(void **state)
{
	char cfg[1024], out[1024], log[1024], console[1200], *text;
	char *args[] = { "run", cfg, "-o", out, NULL };
	uint64_t t0;
	int rc;

	snprintf(cfg, sizeof(cfg), "%s/hang.ini", dir);
	snprintf(out, sizeof(out), "%s/run", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	qemu_matrix(cfg, "memory = 512M\nboot_timeout = 20\n",
		    "[setting none]\n\n[workload idle]\ndemand = idle\ndemand.duration = 1s\n");
	/* the kernel hands "sleep 100000" to busybox as init: the agent never starts */
	setenv("COMPACTBENCH_QEMU_APPEND", "rdinit=/bin/busybox -- sleep 100000", 1);
	t0 = cb_now_ns();
	rc = qtest_run(log, args);
	text = qtest_log(log);
	print_message("run took %.0f s\n", (cb_now_ns() - t0) / 1e9);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(text, "FAILED"));
	assert_non_null(strstr(text, "the agent never started"));
	assert_non_null(strstr(text, "console tail"));
	/* the tail is the guest's own output: the kernel's boot messages */
	assert_non_null(strstr(text, "Run /bin/busybox as init process"));
	snprintf(console, sizeof(console), "%s/k61.none.idle.r1/console.log", out);
	assert_int_equal(access(console, R_OK), 0);
	assert_int_equal(qemu_processes_with(out), 0);
	free(text);
}

static int setup(void **state)
{
	qemu_require();
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	return cb_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_killed_at_boot_timeout) };

	qemu_require();
	return cmocka_run_group_tests(tests, setup, teardown);
}
