// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_unmovable.c - frag-unmovable holds what it says and frees it: at "ready" the test
 * counts the program's descriptors in /proc/PID/fd itself (one per pipe and socket pair
 * held), sends SIGINT or SIGTERM, and checks that the program closed them all before its
 * summary and is gone. Page tables are checked against VmPTE. Sizes stay small (16-64 MiB).
 *
 * Usage: test_unmovable PATH/PROGRAM... (frag-unmovable among them)
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "wl_res.h"
#include "wlt.h"

static const char *prog;

struct seen {
	pid_t pid;
	int fds; /* in /proc/PID/fd at the cue */
};

static void count_fds(pid_t pid, void *arg)
{
	struct seen *s = arg;

	s->pid = pid;
	s->fds = wl_fd_count(pid);
}

/* every line JSON, the summary last, everything it opened closed again before it */
static struct json_object *check_run(const struct wlt_result *r)
{
	struct json_object *sum;

	assert_true(r->json_ok);
	assert_true(r->nlines >= 2);
	assert_false(r->killed);
	sum = r->lines[r->nlines - 1];
	assert_string_equal(wlt_get_str(sum, "type"), "summary");
	assert_string_equal(wlt_get_str(sum, "workload"), "frag-unmovable");
	assert_true(wlt_get_int(sum, "fds_at_start") >= 3);
	assert_int_equal(wlt_get_int(sum, "fds_open_at_end"), wlt_get_int(sum, "fds_at_start"));
	assert_null(wlt_get_str(sum, "error"));
	assert_true(wlt_stderr_clean(r, "frag-unmovable"));
	return sum;
}

static void test_lines(void **state)
{
	char *argv[] = { (char *)prog, (char *)"--size", (char *)"24M", (char *)"--hold",
			 (char *)"10ms", NULL };
	struct json_object *ready, *sum;
	struct wlt_result r;
	long long held;

	assert_int_equal(wlt_run(argv, NULL, &r), 0);
	assert_int_equal(r.status, 0);
	sum = check_run(&r);
	assert_true(wlt_get_bool(sum, "ready"));
	assert_string_equal(wlt_get_str(sum, "hold_end"), "time");
	assert_non_null(wlt_find(&r, "phase", "start"));
	assert_non_null(wlt_find(&r, "buddyinfo", NULL));
	if (geteuid() == 0)
		assert_non_null(wlt_find(&r, "pageblocks", NULL));
	ready = wlt_find(&r, "phase", "ready");
	assert_non_null(ready);
	held = wlt_get_int(ready, "held_bytes");
	/* each kind its third, to a page */
	assert_true(held > (24 << 20) - 3 * 4096 && held <= 24 << 20);
	assert_true(wlt_get_int(ready, "pipes") > 0);
	assert_true(wlt_get_int(ready, "sockets") > 0);
	assert_int_equal(wlt_get_int(ready, "fds"),
			 wlt_get_int(ready, "pipes") + wlt_get_int(ready, "sockets"));
	assert_false(wlt_get_bool(ready, "fd_limited"));
	wlt_free(&r);
}

/* page tables only: the kernel's VmPTE grows by what the program says it made */
static void test_pagetables(void **state)
{
	char *argv[] = { (char *)prog, (char *)"--size", (char *)"16M", (char *)"--kinds",
			 (char *)"pagetable", (char *)"--hold", (char *)"10ms", NULL };
	struct json_object *ready;
	long long made_kb, pte_kb;
	struct wlt_result r;

	assert_int_equal(wlt_run(argv, NULL, &r), 0);
	assert_int_equal(r.status, 0);
	check_run(&r);
	ready = wlt_find(&r, "phase", "ready");
	made_kb = wlt_get_int(ready, "pagetable_bytes") / 1024;
	pte_kb = wlt_get_int(ready, "vmpte_kb_delta");
	printf("# page tables: %lld kB made, VmPTE +%lld kB\n", made_kb, pte_kb);
	assert_int_equal(made_kb, 16 << 10);
	/* PMD pages add 1/512; nothing is shared, so no less */
	assert_true(pte_kb >= made_kb && pte_kb <= made_kb + made_kb / 256 + 64);
	assert_int_equal(wlt_get_int(ready, "fds"), 0);
	assert_int_equal(wlt_get_int(ready, "locked_kb"), 0); /* nothing locked without it */
	wlt_free(&r);
}

/* --filler-lock: smaps_rollup's Locked is the filler's kept half; without --filler, exit 2 */
static void test_filler_lock(void **state)
{
	char *argv[] = { (char *)prog, (char *)"--size", (char *)"4M", (char *)"--kinds",
			 (char *)"pagetable", (char *)"--filler", (char *)"32M", (char *)"--filler-lock",
			 (char *)"--hold", (char *)"10ms", NULL };
	char *bad[] = { (char *)prog, (char *)"--size", (char *)"4M", (char *)"--filler-lock",
			NULL };
	struct json_object *ready;
	long long locked_kb;
	struct wlt_result r;

	assert_int_equal(wlt_run(argv, NULL, &r), 0);
	assert_int_equal(r.status, 0);
	check_run(&r);
	assert_true(wlt_get_bool(wlt_find(&r, "phase", "start"), "filler_lock"));
	ready = wlt_find(&r, "phase", "ready");
	locked_kb = wlt_get_int(ready, "locked_kb");
	printf("# filler 32 MiB, every other page freed: Locked %lld kB\n", locked_kb);
	/* the half that stays, 16 MiB: the freed holes are not locked back in */
	assert_true(locked_kb >= 16384 - 64 && locked_kb <= 16384 + 64);
	wlt_free(&r);

	assert_int_equal(wlt_run(bad, NULL, &r), 0);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--filler-lock"));
	wlt_free(&r);
}

static void at_ready(int sig)
{
	char *argv[] = { (char *)prog, (char *)"--size", (char *)"48M", (char *)"--hold",
			 (char *)"0", NULL };
	struct seen seen = { 0 };
	struct wlt_trigger t = { .text = "\"phase\":\"ready\"", .on_stdout = true, .sig = sig,
				 .on_cue = count_fds, .arg = &seen };
	struct json_object *ready, *sum;
	struct wlt_result r;
	long long held_fds;

	assert_int_equal(wlt_run(argv, &t, &r), 0);
	assert_true(r.sent);
	assert_int_equal(r.status, 0);
	sum = check_run(&r);
	assert_true(wlt_get_bool(sum, "interrupted"));
	assert_string_equal(wlt_get_str(sum, "hold_end"), "signal");
	ready = wlt_find(&r, "phase", "ready");
	held_fds = wlt_get_int(ready, "fds");
	printf("# at ready: %d fds in /proc/%d/fd, %lld held; at the end %lld open\n", seen.fds,
	       (int)seen.pid, held_fds, wlt_get_int(sum, "fds_open_at_end"));
	assert_true(held_fds >= 32); /* 16 pipes and 16 pairs of 1 MiB */
	assert_true(seen.fds >= held_fds + wlt_get_int(sum, "fds_at_start"));
	/* reaped by wlt_run: the process, and with it every kernel object, is gone */
	assert_int_equal(kill(seen.pid, 0), -1);
	assert_int_equal(errno, ESRCH);
	wlt_free(&r);
}

static void test_sigint_ready(void **state)
{
	at_ready(SIGINT);
}

static void test_sigterm_ready(void **state)
{
	at_ready(SIGTERM);
}

/* the cue is the start line: the signal comes while it faults its filler or allocates */
static void test_sigint_allocating(void **state)
{
	char *argv[] = { (char *)prog, (char *)"--size", (char *)"64M", (char *)"--filler",
			 (char *)"256M", (char *)"--hold", (char *)"0", NULL };
	struct wlt_trigger t = { .text = "\"phase\":\"start\"", .on_stdout = true, .sig = SIGINT };
	struct json_object *sum;
	struct wlt_result r;

	assert_int_equal(wlt_run(argv, &t, &r), 0);
	assert_true(r.sent);
	sum = check_run(&r);
	assert_true(wlt_get_bool(sum, "interrupted"));
	if (wlt_get_bool(sum, "ready")) {
		printf("# the signal came after \"ready\"\n");
		assert_int_equal(r.status, 0); /* it was done first: a hold then */
	} else {
		printf("# the signal came while allocating\n");
		assert_int_equal(r.status, 130);
	}
	wlt_free(&r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_pagetables),
		cmocka_unit_test(test_filler_lock),
		cmocka_unit_test(test_sigint_ready),
		cmocka_unit_test(test_sigterm_ready),
		cmocka_unit_test(test_sigint_allocating),
	};

	prog = wlt_path_of(argc, argv, "frag-unmovable");
	if (!prog) {
		fprintf(stderr, "usage: %s PATH/PROGRAM... (frag-unmovable among them)\n",
			argv[0]);
		return 2;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
