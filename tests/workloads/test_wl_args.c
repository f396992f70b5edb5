// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_wl_args.c - the table-driven argument parser: defaults, every type, the harness's
 * `--OPTION VALUE` form, errors naming the argument, and --help made from the table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "wl_args.h"

static const char *const modes[] = { "fast", "slow", NULL };

static const struct wl_option t_options[] = {
	{ .name = "size", .type = WL_OPT_SIZE, .def = "0.25", .help = "how much memory" },
	{ .name = "wait", .type = WL_OPT_DURATION, .def = "2m", .help = "how long to wait" },
	{ .name = "count", .type = WL_OPT_INT, .def = "3", .min = 1, .max = 100,
	  .help = "how many times" },
	{ .name = "ratio", .type = WL_OPT_REAL, .def = "0.5", .min = 0, .max = 1,
	  .help = "what share" },
	{ .name = "mode", .type = WL_OPT_ENUM, .def = "fast", .choices = modes,
	  .help = "which way" },
	{ .name = "verbose", .type = WL_OPT_BOOL, .def = "false", .help = "say more" },
	{ .name = "path", .type = WL_OPT_STRING, .help = "where, no default" },
	{ .name = "keep", .type = WL_OPT_INT, .def = "1", .min = 0, .max = 9,
	  .help = "a prefix of keep-all" },
	{ .name = "keep-all", .type = WL_OPT_BOOL, .help = "longer name sharing a prefix" },
	{ 0 }
};

static const struct wl_info t_info = {
	.name = "t-prog", .phase = WL_PHASE_DEMAND, .summary = "a test program",
	.options = t_options, .details = "DETAILS-TEXT\n",
};

/* run wl_args_parse on a NULL-terminated list, capturing what it prints on @fd */
static int parse_capture(struct wl_args *a, const char *const *args, int fd, char *buf, size_t size)
{
	char *argv[32];
	FILE *tmp = tmpfile();
	int argc = 0, saved, ret;
	size_t n;

	argv[argc++] = (char *)"t-prog";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	fflush(fd == 1 ? stdout : stderr);
	saved = dup(fd);
	dup2(fileno(tmp), fd);
	ret = wl_args_parse(a, &t_info, argc, argv);
	fflush(fd == 1 ? stdout : stderr);
	dup2(saved, fd);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, size - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	return ret;
}

static int parse_err(struct wl_args *a, const char *const *args, char *err, size_t size)
{
	return parse_capture(a, args, 2, err, size);
}

static void test_defaults(void **state)
{
	const char *args[] = { NULL };
	struct wl_args a;
	char err[1024];
	uint64_t bytes;

	assert_int_equal(parse_err(&a, args, err, sizeof(err)), WL_ARGS_OK);
	assert_string_equal(err, "");
	assert_int_equal(wl_arg_size(&a, "size", 4096, &bytes), 0);
	assert_int_equal(bytes, 1024);
	assert_true(wl_arg_duration(&a, "wait") == 120.0);
	assert_int_equal(wl_arg_long(&a, "count"), 3);
	assert_true(wl_arg_real(&a, "ratio") == 0.5);
	assert_string_equal(wl_arg_str(&a, "mode"), "fast");
	assert_false(wl_arg_bool(&a, "verbose"));
	assert_null(wl_arg_str(&a, "path"));
	assert_false(wl_arg_given(&a, "size"));
}

/* exactly what the harness builds: --OPTION VALUE, and a bare --OPTION for a true flag */
static void test_harness_form(void **state)
{
	const char *args[] = { "--size", "64k", "--wait", "500ms", "--count", "100", "--ratio",
			       "1", "--mode", "slow", "--verbose", "--path", "/x y", "--keep", "0",
			       "--keep-all", NULL };
	struct wl_args a;
	char err[1024];
	uint64_t bytes;

	assert_int_equal(parse_err(&a, args, err, sizeof(err)), WL_ARGS_OK);
	assert_int_equal(wl_arg_size(&a, "size", 4096, &bytes), 0);
	assert_int_equal(bytes, 65536);
	assert_true(wl_arg_duration(&a, "wait") == 0.5);
	assert_int_equal(wl_arg_long(&a, "count"), 100);
	assert_true(wl_arg_real(&a, "ratio") == 1.0);
	assert_string_equal(wl_arg_str(&a, "mode"), "slow");
	assert_true(wl_arg_bool(&a, "verbose"));
	assert_string_equal(wl_arg_str(&a, "path"), "/x y");
	assert_int_equal(wl_arg_long(&a, "keep"), 0);
	assert_true(wl_arg_bool(&a, "keep-all"));
	assert_true(wl_arg_given(&a, "size"));
}

static void test_equals_and_repeat(void **state)
{
	const char *args[] = { "--count=7", "--count", "9", "--mode=slow", NULL };
	struct wl_args a;
	char err[1024];

	assert_int_equal(parse_err(&a, args, err, sizeof(err)), WL_ARGS_OK);
	assert_int_equal(wl_arg_long(&a, "count"), 9); /* the last one wins */
	assert_string_equal(wl_arg_str(&a, "mode"), "slow");
}

/* every bad argument: WL_ARGS_ERROR (exit 2) and a message naming it */
static void test_errors(void **state)
{
	static const struct {
		const char *args[4];
		const char *named;
	} cases[] = {
		{ { "--size", "banana" }, "--size" },
		{ { "--size", "1.5" }, "--size" },
		{ { "--wait", "-3" }, "--wait" },
		{ { "--count", "0" }, "--count" },
		{ { "--count", "abc" }, "--count" },
		{ { "--ratio", "2" }, "--ratio" },
		{ { "--mode", "medium" }, "--mode" },
		{ { "--verbose=1" }, "--verbose" },
		{ { "--bogus", "1" }, "--bogus" },
		{ { "--count" }, "--count" },
		{ { "stray" }, "stray" },
		{ { "--count", "2", "extra" }, "extra" },
		{ { "-x" }, "-x" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct wl_args a;
		char err[1024];

		assert_int_equal(parse_err(&a, cases[i].args, err, sizeof(err)), WL_ARGS_ERROR);
		if (!strstr(err, cases[i].named) || strncmp(err, "t-prog: ", 8))
			fail_msg("case %zu: '%s' does not name %s", i, err, cases[i].named);
	}
}

static void test_help(void **state)
{
	const char *args[] = { "--count", "5", "--help", NULL };
	const struct wl_option *o;
	struct wl_args a;
	char out[8192];

	assert_int_equal(parse_capture(&a, args, 1, out, sizeof(out)), WL_ARGS_HELP);
	assert_non_null(strstr(out, "Usage: t-prog"));
	assert_non_null(strstr(out, "a test program"));
	assert_non_null(strstr(out, "DETAILS-TEXT"));
	assert_non_null(strstr(out, "--mode fast|slow"));
	assert_non_null(strstr(out, "(default: 2m)"));
	assert_non_null(strstr(out, "--help"));
	for (o = t_options; o->name; o++) {
		char want[64];

		snprintf(want, sizeof(want), "  --%s", o->name);
		assert_non_null(strstr(out, want));
		assert_non_null(strstr(out, o->help));
	}
	/* a flag shows no value and no "(default: false)" */
	assert_null(strstr(out, "(default: false)"));
}

/* a program's own complaint about a value that passed the table's checks */
static void test_args_error(void **state)
{
	const char *args[] = { "--count", "5", NULL };
	struct wl_args a;
	char err[1024];
	FILE *tmp;
	int saved;
	size_t n;

	assert_int_equal(parse_err(&a, args, err, sizeof(err)), WL_ARGS_OK);
	tmp = tmpfile();
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	assert_int_equal(wl_args_error(&a, "count", "too %s", "odd"), WL_ARGS_ERROR);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(err, 1, sizeof(err) - 1, tmp);
	err[n] = '\0';
	fclose(tmp);
	assert_string_equal(err, "t-prog: --count 5: too odd\n");
}

/* the real tables go through the parser with their defaults */
static void test_real_tables(void **state)
{
	char *argv[] = { (char *)"x", NULL };
	struct wl_args a;
	size_t i;

	for (i = 0; wl_all[i]; i++)
		assert_int_equal(wl_args_parse(&a, wl_all[i], 1, argv), WL_ARGS_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_harness_form),
		cmocka_unit_test(test_equals_and_repeat),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_args_error),
		cmocka_unit_test(test_real_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
