// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_journal.c - the restore journal and the knob table against a fake sysfs/procfs root:
 * unit tests never touch the real machine's knobs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "journal.h"
#include "knobs.h"
#include "util.h"

static char root[] = "/tmp/cb-test-journal-XXXXXX";
static char state[600];

static void fake(const char *rel, const char *text)
{
	char path[1024], dir[1024], *slash;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	assert_int_equal(cb_mkdir_p(dir), 0);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

static const char *knob_path(const char *key)
{
	static char path[1024];
	char arg[32];
	const struct cb_knob *k = cb_knob_find(key, arg, sizeof(arg));

	assert_non_null(k);
	assert_int_equal(cb_knob_path(k, arg, root, path, sizeof(path)), 0);
	return path;
}

static void read_knob(const char *key, char *buf, size_t size)
{
	assert_int_equal(cb_read_choice(knob_path(key), buf, size), 0);
}

static int setup(void **s)
{
	if (!mkdtemp(root))
		return -1;
	snprintf(state, sizeof(state), "%s/state", root);
	return 0;
}

static int teardown(void **s)
{
	return cb_rm_rf(root);
}

static int reset(void **s)
{
	fake("/proc/sys/vm/compaction_proactiveness", "20\n");
	fake("/sys/kernel/mm/transparent_hugepage/defrag",
	     "always defer defer+madvise [madvise] never\n");
	fake("/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled",
	     "always [inherit] madvise never\n");
	unlink(strcat(strcpy((char[700]){ 0 }, state), "/restore.journal"));
	return 0;
}

static void test_knob_table(void **s)
{
	char arg[32], err[256];
	const struct cb_knob *k;

	k = cb_knob_find("mthp.2048kB.enabled", arg, sizeof(arg));
	assert_non_null(k);
	assert_string_equal(arg, "2048kB");
	assert_null(cb_knob_find("mthp.kB.enabled", arg, sizeof(arg)));
	assert_null(cb_knob_find("mthp.064kB.enabled", arg, sizeof(arg)));
	assert_null(cb_knob_find("vm.compaction_proactiveness.x", arg, sizeof(arg)));
	k = cb_knob_find("vm.compaction_proactiveness", arg, sizeof(arg));
	assert_int_equal(cb_knob_check(k, "100", err, sizeof(err)), 0);
	assert_int_equal(cb_knob_check(k, "-1", err, sizeof(err)), -1);
	assert_int_equal(cb_knob_check(k, "20x", err, sizeof(err)), -1);
	k = cb_knob_find("thp.defrag", arg, sizeof(arg));
	assert_int_equal(cb_knob_check(k, "defer+madvise", err, sizeof(err)), 0);
	assert_int_equal(cb_knob_check(k, "madvise ", err, sizeof(err)), -1);
}

static void test_set_and_restore(void **s)
{
	struct cb_journal j;
	char rb[64], err[512], v[64];

	assert_int_equal(cb_journal_open(&j, state), 0);
	assert_false(cb_journal_pending(&j));
	assert_int_equal(cb_journal_set(&j, knob_path("vm.compaction_proactiveness"), "0", rb,
					sizeof(rb), err, sizeof(err)), 0);
	assert_string_equal(rb, "0");
	/* a second change of the same file keeps the first (original) value in the journal */
	assert_int_equal(cb_journal_set(&j, knob_path("vm.compaction_proactiveness"), "55", rb,
					sizeof(rb), err, sizeof(err)), 0);
	/* the fake file is plain text: an enum file reads back the bracketed word */
	assert_int_equal(cb_journal_set(&j, knob_path("thp.defrag"), "never", rb, sizeof(rb), err,
					sizeof(err)), 0);
	assert_true(cb_journal_pending(&j));
	read_knob("vm.compaction_proactiveness", v, sizeof(v));
	assert_string_equal(v, "55");
	assert_int_equal(cb_journal_restore(&j, NULL, err, sizeof(err)), 2);
	read_knob("vm.compaction_proactiveness", v, sizeof(v));
	assert_string_equal(v, "20");
	read_knob("thp.defrag", v, sizeof(v));
	assert_string_equal(v, "madvise");
	read_knob("mthp.64kB.enabled", v, sizeof(v));
	assert_string_equal(v, "inherit");
	assert_false(cb_journal_pending(&j));
	/* nothing to restore is not an error */
	assert_int_equal(cb_journal_restore(&j, NULL, err, sizeof(err)), 0);
}

/* a journal left by a killed run (written by another process) is replayed by the next one */
static void test_left_by_killed_run(void **s)
{
	struct cb_journal j;
	char rb[64], err[512], v[64];
	pid_t pid;
	int st;

	assert_int_equal(cb_journal_open(&j, state), 0);
	pid = fork();
	if (pid == 0) {
		cb_journal_set(&j, knob_path("vm.compaction_proactiveness"), "7", rb, sizeof(rb), err,
			       sizeof(err));
		_exit(9); /* as if SIGKILLed: no restore */
	}
	waitpid(pid, &st, 0);
	read_knob("vm.compaction_proactiveness", v, sizeof(v));
	assert_string_equal(v, "7");
	assert_true(cb_journal_pending(&j));
	assert_int_equal(cb_journal_restore(&j, NULL, err, sizeof(err)), 1);
	read_knob("vm.compaction_proactiveness", v, sizeof(v));
	assert_string_equal(v, "20");
}

/* a torn last line (the write of the knob never happened) is ignored */
static void test_torn_journal(void **s)
{
	struct cb_journal j;
	char line[2048], err[512], v[64];

	assert_int_equal(cb_journal_open(&j, state), 0);
	snprintf(line, sizeof(line), "%s\t33\n%s\tnev", knob_path("vm.compaction_proactiveness"),
		 knob_path("thp.defrag"));
	fake("/state/restore.journal", line);
	fake("/proc/sys/vm/compaction_proactiveness", "1\n");
	assert_int_equal(cb_journal_restore(&j, NULL, err, sizeof(err)), 1);
	read_knob("vm.compaction_proactiveness", v, sizeof(v));
	assert_string_equal(v, "33");
	read_knob("thp.defrag", v, sizeof(v));
	assert_string_equal(v, "madvise");
}

/* a knob that cannot be written back stays in the journal, the others are restored */
static void test_failed_restore_kept(void **s)
{
	struct cb_journal j;
	char rb[64], err[512], v[64], gone[1024];

	assert_int_equal(cb_journal_open(&j, state), 0);
	assert_int_equal(cb_journal_set(&j, knob_path("vm.compaction_proactiveness"), "0", rb,
					sizeof(rb), err, sizeof(err)), 0);
	snprintf(gone, sizeof(gone), "%s", knob_path("mthp.64kB.enabled"));
	assert_int_equal(cb_journal_set(&j, gone, "never", rb, sizeof(rb), err, sizeof(err)), 0);
	/* the directory disappears, as a sysfs file of an unloaded feature would */
	assert_int_equal(cb_rm_rf(gone), 0);
	assert_int_equal(mkdir(gone, 0755), 0); /* now a directory: writing it fails */
	assert_int_equal(cb_journal_restore(&j, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "hugepages-64kB/enabled"));
	read_knob("vm.compaction_proactiveness", v, sizeof(v));
	assert_string_equal(v, "20");
	assert_true(cb_journal_pending(&j));
	rmdir(gone);
	fake("/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled", "x\n");
	assert_int_equal(cb_journal_restore(&j, NULL, err, sizeof(err)), 1);
	read_knob("mthp.64kB.enabled", v, sizeof(v));
	assert_string_equal(v, "inherit");
}

static void test_set_missing_file(void **s)
{
	struct cb_journal j;
	char err[512], path[1024];

	assert_int_equal(cb_journal_open(&j, state), 0);
	snprintf(path, sizeof(path), "%s/proc/sys/vm/nope", root);
	assert_int_equal(cb_journal_set(&j, path, "1", NULL, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/proc/sys/vm/nope: cannot read"));
	assert_false(cb_journal_pending(&j));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_knob_table, reset),
		cmocka_unit_test_setup(test_set_and_restore, reset),
		cmocka_unit_test_setup(test_left_by_killed_run, reset),
		cmocka_unit_test_setup(test_torn_journal, reset),
		cmocka_unit_test_setup(test_failed_restore_kept, reset),
		cmocka_unit_test_setup(test_set_missing_file, reset),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
