// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_xalloc.c - the out-of-memory policy (harness/lib/xalloc.h): an allocation that
 * cannot be met ends the program with SIGABRT and "PROGRAM: out of memory" on stderr; one
 * that can returns usable memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "xalloc.h"

/* run @fn in a child whose stderr is captured into @err; returns its wait status */
static int in_child(void (*fn)(void), char *err, size_t size)
{
	int fds[2], st;
	ssize_t n;
	size_t len = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sigaction sa = { .sa_handler = SIG_DFL };

		sigaction(SIGABRT, &sa, NULL);
		dup2(fds[1], 2);
		close(fds[0]);
		fn();
		_exit(0);
	}
	close(fds[1]);
	while (len < size - 1 && (n = read(fds[0], err + len, size - 1 - len)) > 0)
		len += (size_t)n;
	err[len] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static void huge_malloc(void)
{
	volatile char *p = cb_xmalloc(SIZE_MAX - 4096);

	p[0] = 1;
}

static void huge_calloc(void)
{
	volatile char *p = cb_xcalloc(SIZE_MAX / 2, 4); /* overflows: calloc refuses */

	p[0] = 1;
}

static void huge_realloc(void)
{
	char *p = cb_xmalloc(16);

	p = cb_xrealloc(p, SIZE_MAX - 4096);
	p[0] = 1;
}

static void test_oom_aborts_with_message(void **state)
{
	void (*fns[])(void) = { huge_malloc, huge_calloc, huge_realloc };
	char err[256];

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		int st = in_child(fns[i], err, sizeof(err));

		assert_true(WIFSIGNALED(st));
		assert_int_equal(WTERMSIG(st), SIGABRT);
		assert_string_equal(err, "test_xalloc: out of memory\n");
	}
}

/* cb_xgrow: @first when empty, twice the capacity when full, nothing in between */
static void test_grow_doubles_when_full(void **state)
{
	size_t cap = 0, n = 0;
	int *v = NULL;

	v = cb_xgrow(v, &cap, n, sizeof(*v), 4);
	assert_int_equal(cap, 4);
	for (n = 0; n < 9; n++) {
		v = cb_xgrow(v, &cap, n, sizeof(*v), 4);
		v[n] = (int)n * 3;
	}
	assert_int_equal(cap, 16);
	for (n = 0; n < 9; n++)
		assert_int_equal(v[n], (int)n * 3);
	assert_ptr_equal(cb_xgrow(v, &cap, 15, sizeof(*v), 4), v);
	assert_int_equal(cap, 16);
	free(v);
}

/* cb_fail, cb_set_err: the line into the buffer (cut to fit), errno set, -1; no buffer: errno only */
static void test_fail_writes_the_line(void **state)
{
	char err[16];

	errno = 0;
	assert_int_equal(cb_fail(err, sizeof(err), ENOENT, "no %s in %d", "file", 42), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, "no file in 42");
	assert_int_equal(cb_fail(err, sizeof(err), EINVAL, "%s", "0123456789abcdefXYZ"), -1);
	assert_string_equal(err, "0123456789abcde");
	assert_int_equal(errno, EINVAL);
	memcpy(err, "kept", 5);
	assert_int_equal(cb_fail(NULL, 0, EIO, "not written"), -1);
	assert_int_equal(cb_fail(err, 0, EIO, "not written"), -1);
	assert_int_equal(errno, EIO);
	assert_string_equal(err, "kept");
	/* cb_set_err: the same line, errno left as it was */
	errno = EACCES;
	cb_set_err(err, sizeof(err), "%s: %d", "x", 7);
	assert_string_equal(err, "x: 7");
	assert_int_equal(errno, EACCES);
}

static void test_allocations_that_fit(void **state)
{
	char *s = cb_xstrdup("compaction");
	char *f = cb_xasprintf("%s order %d", s, 9);
	int *z = cb_xcalloc(8, sizeof(int));
	char *r = cb_xrealloc(NULL, 0); /* 0 bytes: still a pointer to free */

	assert_string_equal(s, "compaction");
	assert_string_equal(f, "compaction order 9");
	for (int i = 0; i < 8; i++)
		assert_int_equal(z[i], 0);
	assert_non_null(r);
	free(s);
	free(f);
	free(z);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oom_aborts_with_message),
		cmocka_unit_test(test_allocations_that_fit),
		cmocka_unit_test(test_fail_writes_the_line),
		cmocka_unit_test(test_grow_doubles_when_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
