// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_shquote.c - the quoting of the remote command: each word, run through a real
 * /bin/sh (`printf %s WORD`), comes back byte for byte; and the exact text of a few.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shquote.h"
#include "util.h"

/* what /bin/sh prints for `printf %s QUOTED` (and `printf %s QUOTED QUOTED`: word count) */
static char *through_sh(const char *script)
{
	static char out[4096];
	int fds[2], st;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		execl("/bin/sh", "sh", "-c", script, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return out;
}

static const char *const words[] = {
	"plain",
	"",
	"with space",
	"  leading and trailing  ",
	"it's",
	"'",
	"''",
	"\"double\"",
	"$HOME",
	"${PATH}",
	"$(touch /tmp/cb-shquote-pwned)",
	"`touch /tmp/cb-shquote-pwned`",
	"back\\slash\\",
	"a;b&&c||d|e>f<g",
	"*",
	"?[a-z]~",
	"tab\there",
	"new\nline",
	"!history #comment",
	"-n",
	"'$(x)'\"`y`\"",
};

static void test_round_trip(void **state)
{
	unlink("/tmp/cb-shquote-pwned");
	for (size_t i = 0; i < CB_ARRAY_SIZE(words); i++) {
		char *q = cb_sh_quoted(words[i]), *script, *want;

		/* a marker word first: printf would take a word like -n for an option */
		assert_true(asprintf(&script, "printf '%%s|' x %s", q) > 0);
		assert_true(asprintf(&want, "x|%s|", words[i]) > 0);
		if (strcmp(through_sh(script), want))
			fail_msg("word %zu: '%s' quoted as %s came back as '%s'", i, words[i], q,
				 through_sh(script));
		free(want);
		free(script);
		free(q);
	}
	/* nothing was expanded or run */
	assert_int_equal(access("/tmp/cb-shquote-pwned", F_OK), -1);
}

/* one word each: "a b" must not split, "" must not vanish */
static void test_word_count(void **state)
{
	char *a = cb_sh_quoted("a b"), *b = cb_sh_quoted(""), *c = cb_sh_quoted("*"), *script;

	assert_true(asprintf(&script, "set -- %s %s %s; echo $#", a, b, c) > 0);
	assert_string_equal(through_sh(script), "3\n");
	free(script);
	free(a);
	free(b);
	free(c);
}

static void test_exact_text(void **state)
{
	static const char *const cases[][2] = {
		{ "abc", "'abc'" },
		{ "", "''" },
		{ "it's", "'it'\\''s'" },
		{ "$x `y`", "'$x `y`'" },
	};

	for (size_t i = 0; i < CB_ARRAY_SIZE(cases); i++) {
		char *q = cb_sh_quoted(cases[i][0]);

		assert_string_equal(q, cases[i][1]);
		free(q);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_word_count),
		cmocka_unit_test(test_exact_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
