// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ldd.c - the libraries ldd lists (ldd.h): a captured ldd output gives exactly its
 * library files in order, the vdso and a missing library left out; a stop from the callback
 * ends the walk; this test program's own libraries (cmocka, libc) are found and exist; a file
 * that is not a program has none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ldd.h"

struct seen {
	char path[16][256];
	int n;
	int stop_at;	/* return -1 for this call (1-based; 0: never) */
};

static int collect(const char *path, void *arg)
{
	struct seen *s = arg;

	assert_true(s->n < 16);
	snprintf(s->path[s->n++], sizeof(s->path[0]), "%s", path);
	return s->n == s->stop_at ? -1 : 0;
}

/*
 * `ldd build/compactbench` on Debian 12, shortened, with a library ldd could not find and an
 * empty line added
 */
static const char captured[] =
	"\tlinux-vdso.so.1 (0x00007fa166572000)\n"
	"\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x00007fa166395000)\n"
	"\tlibtracefs.so.1 => /lib/x86_64-linux-gnu/libtracefs.so.1 (0x00007fa166373000)\n"
	"\tlibgone.so.2 => not found\n"
	"\n"
	"\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007fa165e6f000)\n"
	"\t/lib64/ld-linux-x86-64.so.2 (0x00007fa166574000)\n";

static void test_parse_captured(void **state)
{
	static const char *const want[] = {
		"/lib/x86_64-linux-gnu/libm.so.6",
		"/lib/x86_64-linux-gnu/libtracefs.so.1",
		"/lib/x86_64-linux-gnu/libc.so.6",
		"/lib64/ld-linux-x86-64.so.2",
	};
	struct seen s = { .n = 0 };
	char text[sizeof(captured)];

	memcpy(text, captured, sizeof(captured));
	assert_int_equal(cb_ldd_parse(text, collect, &s), 0);
	assert_int_equal(s.n, 4);
	for (int i = 0; i < 4; i++)
		assert_string_equal(s.path[i], want[i]);
}

/* a negative return from the callback stops the walk and is returned */
static void test_parse_stop(void **state)
{
	struct seen s = { .stop_at = 2 };
	char text[sizeof(captured)];

	memcpy(text, captured, sizeof(captured));
	assert_int_equal(cb_ldd_parse(text, collect, &s), -1);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.path[1], "/lib/x86_64-linux-gnu/libtracefs.so.1");
}

/* ldd's static-program answer and an empty text: no libraries */
static void test_parse_none(void **state)
{
	char text[] = "\tnot a dynamic executable\n", empty[] = "";
	struct seen s = { .n = 0 };

	assert_int_equal(cb_ldd_parse(text, collect, &s), 0);
	assert_int_equal(cb_ldd_parse(empty, collect, &s), 0);
	assert_int_equal(s.n, 0);
}

/* this program links cmocka and libc: both listed, and every file listed exists */
static void test_libs_of_self(void **state)
{
	struct seen s = { .n = 0 };
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	bool cmocka = false, libc = false;

	assert_true(n > 0);
	self[n] = '\0';
	assert_int_equal(cb_ldd_libs(self, collect, &s), 0);
	for (int i = 0; i < s.n; i++) {
		const char *base = strrchr(s.path[i], '/') + 1;

		assert_int_equal(access(s.path[i], R_OK), 0);
		cmocka |= !strncmp(base, "libcmocka.so", 12);
		libc |= !strcmp(base, "libc.so.6");
	}
	assert_true(cmocka);
	assert_true(libc);
}

/* a file that is not a program: ldd fails, no libraries, no error */
static void test_libs_not_a_program(void **state)
{
	char path[] = "/tmp/cb-test-ldd-XXXXXX";
	struct seen s = { .n = 0 };
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
	assert_int_equal(cb_ldd_libs(path, collect, &s), 0);
	unlink(path);
	assert_int_equal(s.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_captured),
		cmocka_unit_test(test_parse_stop),
		cmocka_unit_test(test_parse_none),
		cmocka_unit_test(test_libs_of_self),
		cmocka_unit_test(test_libs_not_a_program),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
