// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_lines.c - the line-by-line helpers the snapshot parsers share (util.h): each line
 * and its number in turn, the last without a '\n', truncation to the buffer, comments and
 * blank lines, and the failure a parser reports.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "util.h"

/* every line in order with its number; the last one has no '\n' */
static void test_next_line(void **state)
{
	static const char *const want[] = { "# head", "ab c", "", "  \t\r", "last" };
	const char *text = "# head\nab c\n\n  \t\r\nlast", *p = text;
	char line[16];
	int ln = 0;

	for (int i = 0; i < 5; i++) {
		assert_int_equal(cb_next_line(&p, line, sizeof(line), &ln), 1);
		assert_string_equal(line, want[i]);
		assert_int_equal(ln, i + 1);
		if (i == 0)
			assert_ptr_equal(p, text + 7);	/* just past the '\n' */
	}
	assert_ptr_equal(p, text + strlen(text));
	/* the end: nothing taken, the count stays */
	assert_int_equal(cb_next_line(&p, line, sizeof(line), &ln), 0);
	assert_int_equal(ln, 5);
}

/* a line longer than the buffer is cut to fit, and the next line is still the next one */
static void test_next_line_truncates(void **state)
{
	const char *p = "0123456789\nxy\n";
	char line[5];
	int ln = 0;

	assert_int_equal(cb_next_line(&p, line, sizeof(line), &ln), 1);
	assert_string_equal(line, "0123");
	assert_int_equal(cb_next_line(&p, line, sizeof(line), &ln), 1);
	assert_string_equal(line, "xy");
	assert_int_equal(ln, 2);
	assert_int_equal(cb_next_line(&p, line, sizeof(line), &ln), 0);
}

/* no text (NULL) and an empty text have no lines */
static void test_next_line_empty(void **state)
{
	const char *p = NULL;
	char line[8] = "x";
	int ln = 0;

	assert_int_equal(cb_next_line(&p, line, sizeof(line), &ln), 0);
	p = "";
	assert_int_equal(cb_next_line(&p, line, sizeof(line), &ln), 0);
	assert_int_equal(ln, 0);
	assert_string_equal(line, "x");
}

static void test_line_skip(void **state)
{
	assert_true(cb_line_skip(""));
	assert_true(cb_line_skip(" \t\r"));
	assert_true(cb_line_skip("# compactbench cpu 1"));
	assert_false(cb_line_skip("38 kcompactd0 schedstat 1"));
	assert_false(cb_line_skip("  #x"));	/* a comment starts the line */
}

static void test_bad_line(void **state)
{
	int bad = 0;

	errno = 0;
	assert_int_equal(cb_bad_line(&bad, 7), -1);
	assert_int_equal(bad, 7);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(cb_bad_line(NULL, 3), -1);
	assert_int_equal(errno, EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_next_line),
		cmocka_unit_test(test_next_line_truncates),
		cmocka_unit_test(test_next_line_empty),
		cmocka_unit_test(test_line_skip),
		cmocka_unit_test(test_bad_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
