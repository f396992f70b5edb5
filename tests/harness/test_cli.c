// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cli.c - the `compactbench` command line: every command's --help, the usage and
 * exit 2 for an unknown command or option. The commands are the rows of the table the
 * binary dispatches on (cb_commands[], harness/cmd.c, linked in), so a new command is
 * tested without an edit, and `compactbench --help` must list exactly them.
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

#include "cmd.h"
#include "testenv.h"
#include "util.h"

static char out_path[] = "/tmp/cb-test-cli-XXXXXX";

/* run compactbench with @args; returns the exit status, its stdout+stderr in *@text */
static int run(char *const args[], char **text)
{
	const char *cb = getenv("COMPACTBENCH");
	char *argv[8];
	int n = 0, st, fd;
	pid_t pid;

	argv[n++] = (char *)cb;
	for (; args[n - 1] && n < 7; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	pid = fork();
	if (pid == 0) {
		fd = open(out_path, O_WRONLY | O_TRUNC);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(cb, argv);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	*text = cb_read_file(out_path, NULL);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void expect(char *const args[], int status, const char *needle)
{
	char *text = NULL;
	int rc = run(args, &text);

	if (rc != status || !text || !strstr(text, needle))
		fail_msg("compactbench %s %s: want exit %d and \"%s\", got exit %d and:\n%s", args[0],
			 args[1] ? args[1] : "", status, needle, rc, text ? text : "");
	free(text);
}

/* the command names `compactbench --help` lists: lines "  NAME  summary" after "Commands:" */
static int listed_commands(char names[][32], int max)
{
	char *text = NULL, *p, *line;
	int n = 0;

	assert_int_equal(run((char *[]){ "--help", NULL }, &text), 0);
	assert_non_null(text);
	p = strstr(text, "Commands:");
	assert_non_null(p);
	for (line = strchr(p, '\n'); line && n < max; line = strchr(line + 1, '\n')) {
		if (strncmp(line + 1, "  ", 2) || line[3] == ' ')
			continue;
		if (sscanf(line + 3, "%31[a-z-]", names[n]) == 1)
			n++;
	}
	free(text);
	return n;
}

/* every row of the table: --help exits 0 with its usage, an unknown option exits 2 naming it */
static void test_every_command(void **state)
{
	int n = 0;

	for (const struct cb_command *c = cb_commands; c->name; c++, n++) {
		char want[64];

		snprintf(want, sizeof(want), "usage: compactbench %s", c->name);
		expect((char *[]){ (char *)c->name, "--help", NULL }, 0, want);
		expect((char *[]){ (char *)c->name, "-h", NULL }, 0, want);
		expect((char *[]){ "help", (char *)c->name, NULL }, 0, want);
		/* README: "2 bad input (usage, ...)"; the message names the option */
		expect((char *[]){ (char *)c->name, "--no-such-option", NULL }, 2,
		       "--no-such-option");
	}
	/* the commands the README documents must be among them: a lost row is a failure */
	assert_true(n >= 11);
	expect((char *[]){ "--version", NULL }, 0, "compactbench ");
}

/* `compactbench --help` lists the rows of the table, in order, and nothing else */
static void test_listed_commands(void **state)
{
	const char *const documented[] = { "run",     "analyze", "merge", "restore", "config", "record",
					   "compare", "gate",    "plot",  "kernel",  "agent" };
	char names[32][32];
	int n = listed_commands(names, 32), i = 0;

	for (const struct cb_command *c = cb_commands; c->name; c++, i++) {
		if (i >= n || strcmp(names[i], c->name))
			fail_msg("`compactbench --help` line %d: '%s', the table has '%s'", i + 1,
				 i < n ? names[i] : "(none)", c->name);
		assert_ptr_equal(cb_command_find(c->name), c);
	}
	assert_int_equal(i, n);
	for (size_t k = 0; k < CB_ARRAY_SIZE(documented); k++)
		if (!cb_command_find(documented[k]))
			fail_msg("the table of commands has no '%s'", documented[k]);
}

/*
 * README's command table (cb_commands_markdown, kept equal to README.md by the test
 * readme-commands) names only options the command has: every --option of a row's forms is
 * in the command's --help, which its option rows make
 */
static void test_doc_forms(void **state)
{
	for (const struct cb_command *c = cb_commands; c->name; c++) {
		char *help = NULL;

		assert_int_equal(run((char *[]){ (char *)c->name, "--help", NULL }, &help), 0);
		assert_non_null(help);
		assert_non_null(c->doc[0].form);
		for (int i = 0; i < CB_COMMAND_DOCS && c->doc[i].form; i++) {
			const char *forms[] = { c->doc[i].form, c->doc[i].also };

			assert_int_equal(strncmp(forms[0], c->name, strlen(c->name)), 0);
			for (int f = 0; f < 2 && forms[f]; f++) {
				for (const char *o = strstr(forms[f], "--"); o; o = strstr(o + 2, "--")) {
					char opt[64];

					if (sscanf(o, "%63[a-z-]", opt) != 1 || !strcmp(opt, "--"))
						continue;
					if (!strstr(help, opt))
						fail_msg("README's form '%s' names %s, which `compactbench "
							 "%s --help` does not", forms[f], opt, c->name);
				}
			}
		}
		free(help);
	}
}

static int never_run(int argc, char **argv)
{
	fail_msg("a command its row's check refused ran");
	return 0;
}

/* the one check before dispatch: a row's flags refuse it where the machine lacks them */
static void test_command_flags(void **state)
{
	const struct cb_command root = { "needs-root", never_run, "", CB_CMD_ROOT };
	char why[256] = "";

	for (const struct cb_command *c = cb_commands; c->name; c++)
		if (!c->flags)
			assert_int_equal(cb_command_check(c, why, sizeof(why)), 0);
	if (geteuid() == 0) {
		assert_int_equal(cb_command_check(&root, why, sizeof(why)), 0);
		return;
	}
	assert_int_equal(cb_command_check(&root, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "compactbench needs-root: "));
	assert_int_equal(cb_command_run(&root, 1, (char *[]){ "needs-root", NULL }), 1);
}

static void test_bad_command_line(void **state)
{
	expect((char *[]){ NULL }, 2, "usage: compactbench");
	expect((char *[]){ "frobnicate", NULL }, 2, "'frobnicate' is not a command");
	expect((char *[]){ "run", "--bogus", "x.ini", NULL }, 2, "usage: compactbench run");
	expect((char *[]){ "run", NULL }, 2, "usage: compactbench run");
	expect((char *[]){ "run", "a.ini", "--reps", "0", NULL }, 2, "--reps '0'");
	expect((char *[]){ "analyze", "--bogus", NULL }, 2, "usage: compactbench analyze");
	expect((char *[]){ "restore", "extra", NULL }, 2, "usage: compactbench restore");
	expect((char *[]){ "config", "frob", NULL }, 2, "usage: compactbench config");
	expect((char *[]){ "run", "/nonexistent.ini", NULL }, 2, "/nonexistent.ini: cannot read");
	expect((char *[]){ "analyze", "/nonexistent-run", NULL }, 2, "/nonexistent-run");
	expect((char *[]){ "compare", "--format", "xml", "x", NULL }, 2, "--format 'xml'");
	expect((char *[]){ "compare", "/nonexistent-run", NULL }, 2, "/nonexistent-run/run.json");
	expect((char *[]){ "gate", "--baseline", "x", NULL }, 2, "usage: compactbench gate");
	expect((char *[]){ "plot", NULL }, 2, "usage: compactbench plot");
	expect((char *[]){ "kernel", NULL }, 2, "usage: compactbench kernel build");
	/* a recipe that does not load is bad input, not a failed build (issue 22) */
	expect((char *[]){ "kernel", "build", "/nonexistent/recipe.ini", NULL }, 2,
	       "/nonexistent/recipe.ini: cannot read");
	expect((char *[]){ "agent", "x.ini", NULL }, 2, "usage: compactbench agent");
	/* --target takes a name: the qemu and ssh targets pass theirs for meta.json */
	expect((char *[]){ "agent", "--target", NULL }, 2, "usage: compactbench agent");
	expect((char *[]){ "agent", "--target", "qemu", "/nonexistent/x.ini", "c.s.w.r1", "/tmp",
			   NULL }, 2, "/nonexistent/x.ini: cannot read");
	/* and only a target's: meta.json's "target" is read back */
	expect((char *[]){ "agent", "--target", "bogus", "x.ini", "c.s.w.r1", "/tmp", NULL }, 2,
	       "--target bogus: not a target");
	/* a malformed event is a bad command line (2), not a failed recording (125) */
	expect((char *[]){ "record", "-e", "compaction", "--", "true", NULL }, 2,
	       "bad event \"compaction\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_command),
		cmocka_unit_test(test_bad_command_line),
		cmocka_unit_test(test_listed_commands),
		cmocka_unit_test(test_doc_forms),
		cmocka_unit_test(test_command_flags),
	};
	int fd, rc;

	testenv_require_cb();
	fd = mkstemp(out_path);
	if (fd < 0)
		return 1;
	close(fd);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(out_path);
	return rc;
}
