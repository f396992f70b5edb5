// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pagecache.c - frag-pagecache leaves nothing behind: after a normal end, after SIGINT
 * or SIGTERM while it writes and while it holds, its --dir is as empty as the test made
 * it. What it did not create stays: a file the test drops into its tree during the hold
 * survives (and the program says so, exit 1). Sizes stay small (at most 128 MiB of data).
 *
 * Usage: test_pagecache PATH/PROGRAM... (frag-pagecache among them)
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "wlt.h"

static const char *prog;

/* a fresh directory for one run, under /tmp (a disk filesystem here, with a page cache) */
static char *make_dir(void)
{
	char *d = strdup("/tmp/wlt-pagecache.XXXXXX");

	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

/* entries in @dir */
static int count_entries(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void drop_dir(char *dir)
{
	assert_int_equal(rmdir(dir), 0); /* fails unless it is empty */
	free(dir);
}

static void run(const char *dir, const char *size, const char *hold,
		const struct wlt_trigger *t, struct wlt_result *r)
{
	char *argv[] = { (char *)prog, (char *)"--dir", (char *)dir, (char *)"--size",
			 (char *)size, (char *)"--hold", (char *)hold, NULL };

	assert_int_equal(wlt_run(argv, t, r), 0);
	assert_true(r->json_ok);
	assert_true(r->nlines >= 2);
	assert_string_equal(wlt_get_str(r->lines[r->nlines - 1], "type"), "summary");
	assert_string_equal(wlt_get_str(r->lines[r->nlines - 1], "workload"), "frag-pagecache");
}

static void test_normal_end(void **state)
{
	char *dir = make_dir();
	struct json_object *ready, *sum;
	struct wlt_result r;

	run(dir, "16M", "10ms", NULL, &r);
	assert_int_equal(r.status, 0);
	assert_true(wlt_stderr_clean(&r, "frag-pagecache"));
	assert_non_null(wlt_find(&r, "phase", "start"));
	assert_non_null(wlt_find(&r, "buddyinfo", NULL));
	ready = wlt_find(&r, "phase", "ready");
	assert_non_null(ready);
	assert_int_equal(wlt_get_int(ready, "data_bytes"), 16 << 20);
	/* 64 KiB chunks with 8 small files each */
	assert_int_equal(wlt_get_int(ready, "small_files"), 256 * 8);
	assert_int_equal(wlt_get_int(ready, "data_files"), 2); /* 8 MiB files */
	sum = r.lines[r.nlines - 1];
	assert_false(wlt_get_bool(sum, "interrupted"));
	assert_string_equal(wlt_get_str(sum, "hold_end"), "time");
	assert_int_equal(wlt_get_int(sum, "left"), 0);
	/* 2 data files, 2048 small files in 1 subdirectory, the tree itself */
	assert_int_equal(wlt_get_int(sum, "removed"), 2 + 2048 + 1 + 1);
	assert_int_equal(count_entries(dir), 0);
	wlt_free(&r);
	drop_dir(dir);
}

/* the cue is the first progress line, at an eighth of 128 MiB: the signal lands in the writing */
static void during_fill(int sig)
{
	struct wlt_trigger t = { .text = "frag-pagecache: wrote", .sig = sig };
	char *dir = make_dir();
	struct json_object *sum;
	struct wlt_result r;

	run(dir, "128M", "0", &t, &r);
	assert_true(r.sent);
	assert_false(r.killed);
	sum = r.lines[r.nlines - 1];
	assert_true(wlt_get_bool(sum, "interrupted"));
	if (wlt_get_bool(sum, "ready")) {
		/* the writing outran the signal: then it was a hold, which ends with 0 */
		printf("# the signal came after the writing: %lld bytes\n",
		       wlt_get_int(sum, "data_bytes"));
		assert_int_equal(r.status, 0);
	} else {
		assert_int_equal(r.status, 128 + sig);
		assert_null(wlt_find(&r, "phase", "ready"));
		assert_true(wlt_get_int(sum, "data_bytes") < 128 << 20);
	}
	assert_int_equal(wlt_get_int(sum, "left"), 0);
	assert_int_equal(count_entries(dir), 0);
	assert_true(wlt_stderr_clean(&r, "frag-pagecache"));
	wlt_free(&r);
	drop_dir(dir);
}

static void test_sigint_fill(void **state)
{
	during_fill(SIGINT);
}

static void test_sigterm_fill(void **state)
{
	during_fill(SIGTERM);
}

static void during_hold(int sig)
{
	struct wlt_trigger t = { .text = "\"phase\":\"ready\"", .on_stdout = true, .sig = sig };
	char *dir = make_dir();
	struct json_object *sum;
	struct wlt_result r;

	run(dir, "8M", "0", &t, &r);
	assert_true(r.sent);
	assert_int_equal(r.status, 0);
	sum = r.lines[r.nlines - 1];
	assert_true(wlt_get_bool(sum, "interrupted"));
	assert_string_equal(wlt_get_str(sum, "signal"), sig == SIGINT ? "SIGINT" : "SIGTERM");
	assert_string_equal(wlt_get_str(sum, "hold_end"), "signal");
	assert_int_equal(count_entries(dir), 0);
	wlt_free(&r);
	drop_dir(dir);
}

static void test_sigint_hold(void **state)
{
	during_hold(SIGINT);
}

static void test_sigterm_hold(void **state)
{
	during_hold(SIGTERM);
}

/* put a file of ours into the program's tree (the only frag-pagecache.* in @arg) */
static void plant(pid_t pid, void *arg)
{
	const char *dir = arg;
	struct dirent *de;
	char path[PATH_MAX];
	DIR *d = opendir(dir);
	int fd;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "frag-pagecache.", 15))
			break;
	assert_non_null(de);
	snprintf(path, sizeof(path), "%s/%s/not-yours", dir, de->d_name);
	closedir(d);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
}

static void test_leaves_foreign_file(void **state)
{
	char *dir = make_dir();
	struct wlt_trigger t = { .text = "\"phase\":\"ready\"", .on_stdout = true, .sig = SIGINT,
				 .on_cue = plant, .arg = dir };
	char path[PATH_MAX], tree[PATH_MAX];
	struct json_object *sum;
	struct wlt_result r;

	run(dir, "4M", "0", &t, &r);
	assert_int_equal(r.status, 1);
	sum = r.lines[r.nlines - 1];
	assert_int_equal(wlt_get_int(sum, "left"), 1);
	assert_non_null(strstr(r.err, "could not remove"));
	snprintf(tree, sizeof(tree), "%s", wlt_get_str(sum, "tree"));
	snprintf(path, sizeof(path), "%s/not-yours", tree);
	assert_int_equal(access(path, F_OK), 0);
	/* everything else of its own is gone: the tree holds only our file */
	assert_int_equal(count_entries(tree), 1);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(tree), 0);
	wlt_free(&r);
	drop_dir(dir);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normal_end),
		cmocka_unit_test(test_sigint_fill),
		cmocka_unit_test(test_sigterm_fill),
		cmocka_unit_test(test_sigint_hold),
		cmocka_unit_test(test_sigterm_hold),
		cmocka_unit_test(test_leaves_foreign_file),
	};

	prog = wlt_path_of(argc, argv, "frag-pagecache");
	if (!prog) {
		fprintf(stderr, "usage: %s PATH/PROGRAM... (frag-pagecache among them)\n",
			argv[0]);
		return 2;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
