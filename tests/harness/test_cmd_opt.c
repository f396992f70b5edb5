// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cmd_opt.c - the commands' option tables (harness/cmd_opt.h): getopt's tables and the
 * usage's option lines come from the same rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_opt.h"
#include "util.h"

static const struct cb_opt opts[] = {
	{ "output", 'o', "FILE", "where to write" },
	{ "quiet", 256, NULL, "say less\nand more on a second line" },
	{ "secret", 257, "N", NULL },
	{ "help", 'h', NULL, "this text" },
};

static char *usage_style_of(const struct cb_opt *o, size_t n, int width, unsigned int flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	cb_opt_usage_style(f, o, n, width, flags);
	fclose(f);
	return buf;
}

static char *usage_of(const struct cb_opt *o, size_t n, int width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	cb_opt_usage(f, o, n, width);
	fclose(f);
	return buf;
}

static void test_parser_tables(void **state)
{
	struct cb_opt_parser p;
	char *argv[] = { "x", "-o", "f", "--quiet", "--secret", "3", "--sec=4", "-h", "--bogus",
			 "rest", NULL };
	int want[] = { 'o', 256, 257, 257, 'h', '?' }, c, i = 0;

	optind = 5;
	opterr = 1;
	assert_int_equal(cb_opt_parser_init(&p, opts, CB_ARRAY_SIZE(opts), 0), 0);
	/* set up for a parse from argv[1], the bad options left to the caller */
	assert_int_equal(optind, 1);
	assert_int_equal(opterr, 0);
	assert_string_equal(p.shortopts, "o:h");
	assert_int_equal(p.longopts[2].has_arg, required_argument);
	assert_int_equal(p.longopts[1].has_arg, no_argument);
	assert_null(p.longopts[CB_ARRAY_SIZE(opts)].name);
	assert_int_equal(cb_opt_parser_init(&p, opts, CB_ARRAY_SIZE(opts), CB_OPT_GETOPT_SAYS), 0);
	assert_int_equal(opterr, 1);
	assert_int_equal(cb_opt_parser_init(&p, opts, CB_ARRAY_SIZE(opts), CB_OPT_STOP), 0);
	assert_string_equal(p.shortopts, "+o:h");
	assert_int_equal(opterr, 0);
	while ((c = cb_opt_next(&p, 10, argv)) != -1) {
		assert_true(i < (int)CB_ARRAY_SIZE(want));
		assert_int_equal(c, want[i++]);
	}
	assert_int_equal(i, CB_ARRAY_SIZE(want));
	assert_string_equal(argv[optind], "rest");
}

static void test_usage_lines(void **state)
{
	char *u = usage_of(opts, CB_ARRAY_SIZE(opts), 22);

	/* a short option somewhere: the long-only rows are indented to line up */
	assert_string_equal(u, "  -o, --output FILE      where to write\n"
			       "      --quiet            say less\n"
			       "                         and more on a second line\n"
			       "  -h, --help             this text\n");
	free(u);
	/* long options only (the short ones unlisted): no room kept for them */
	u = usage_of(opts + 1, 2, 10);
	assert_string_equal(u, "  --quiet    say less\n"
			       "             and more on a second line\n");
	free(u);
}

/* the layouts run and analyze print: long-only rows flush left, or no short options at all */
static void test_usage_styles(void **state)
{
	char *u = usage_style_of(opts, CB_ARRAY_SIZE(opts), 15, CB_OPT_USAGE_FLUSH);

	assert_string_equal(u, "  -o, --output FILE where to write\n"
			       "  --quiet         say less\n"
			       "                  and more on a second line\n"
			       "  -h, --help      this text\n");
	free(u);
	u = usage_style_of(opts, CB_ARRAY_SIZE(opts), 13, CB_OPT_USAGE_LONG);
	assert_string_equal(u, "  --output FILE where to write\n"
			       "  --quiet       say less\n"
			       "                and more on a second line\n"
			       "  --help        this text\n");
	free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parser_tables),
		cmocka_unit_test(test_usage_lines),
		cmocka_unit_test(test_usage_styles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
