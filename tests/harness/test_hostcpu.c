// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_hostcpu.c - the host's side of a guest's CPU (cpustat.h): the busy time of the whole
 * machine from a /proc/stat whose sums are known, a process's time from a /proc/<pid>/stat
 * whose comm holds spaces and parentheses, the errors on a malformed file; and on the real
 * /proc, that a process's time counts all its threads (a second thread's busy loop of
 * 0.3 s shows in it, as QEMU's vCPU threads must) and that the host's busy time grows by at
 * least as much.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpustat.h"
#include "util.h"

static char root[] = "/tmp/cb-test-hostcpu-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

static uint64_t tick_ns(void)
{
	return 1000000000ULL / (uint64_t)sysconf(_SC_CLK_TCK);
}

static void test_host_busy_fixture(void **state)
{
	uint64_t busy;
	long n;

	/* user nice system idle iowait irq softirq steal guest guest_nice */
	put("proc/stat", "cpu  100 5 50 1000 20 3 2 7 40 0\n"
			 "cpu0 50 2 25 500 10 1 1 3 20 0\ncpu1 50 3 25 500 10 2 1 4 20 0\n"
			 "intr 12345 0 0\nctxt 99\nbtime 1\n");
	assert_int_equal(cb_cpu_host_busy_ns(root, &busy, &n), 0);
	/* 100 + 5 + 50 + 3 + 2 + 7: idle and iowait are not busy, guest is part of user */
	assert_int_equal(busy, 167 * tick_ns());
	assert_int_equal(n, 2);
	put("proc/stat", "cpu  1 2 3\n");
	assert_int_equal(cb_cpu_host_busy_ns(root, &busy, &n), -1);
	assert_int_equal(errno, EINVAL);
	put("proc/stat", "intr 1\n");
	assert_int_equal(cb_cpu_host_busy_ns(root, &busy, NULL), -1);
	assert_int_equal(errno, EINVAL);
}

static void test_process_fixture(void **state)
{
	uint64_t ns;

	/* fields 14 and 15 after the comm: utime 300, stime 100 */
	put("proc/42/stat", "42 (q e (mu)) S 1 42 42 0 -1 4194560 100 0 0 0 300 100 0 0 20 0 "
			    "5 0 100 2000000 1000 18446744073709551615\n");
	assert_int_equal(cb_cpu_process_ns(root, 42, &ns), 0);
	assert_int_equal(ns, 400 * tick_ns());
	put("proc/43/stat", "43 (x) S 1 2\n");
	assert_int_equal(cb_cpu_process_ns(root, 43, &ns), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(cb_cpu_process_ns(root, 44, &ns), -1);
	assert_int_equal(errno, ENOENT);
}

static void *burn(void *arg)
{
	struct timespec t0, t;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			x += i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1e9 + (t.tv_nsec - t0.tv_nsec) < 0.3e9);
	return NULL;
}

static void test_real_threads(void **state)
{
	uint64_t p0, p1, h0, h1;
	pthread_t th;

	assert_int_equal(cb_cpu_process_ns(NULL, getpid(), &p0), 0);
	assert_int_equal(cb_cpu_host_busy_ns(NULL, &h0, NULL), 0);
	assert_int_equal(pthread_create(&th, NULL, burn, NULL), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(cb_cpu_process_ns(NULL, getpid(), &p1), 0);
	assert_int_equal(cb_cpu_host_busy_ns(NULL, &h1, NULL), 0);
	print_message("process +%.3f s, host busy +%.3f s\n", (p1 - p0) / 1e9, (h1 - h0) / 1e9);
	/* the thread's 0.3 s, less a tick or two of the clock-tick accounting */
	assert_true(p1 - p0 >= 300000000ULL - 3 * tick_ns());
	assert_true(h1 - h0 >= p1 - p0 - 3 * tick_ns());
}

static int setup(void **state)
{
	char path[300];

	if (!mkdtemp(root))
		return -1;
	snprintf(path, sizeof(path), "%s/proc/42", root);
	if (cb_mkdir_p(path) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/proc/43", root);
	return cb_mkdir_p(path);
}

static int teardown(void **state)
{
	return cb_rm_rf(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_busy_fixture),
		cmocka_unit_test(test_process_fixture),
		cmocka_unit_test(test_real_threads),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
