// SPDX-License-Identifier: GPL-2.0-only
/*
 * demand_tree.c - test_qemu_demand's kernel-source half: the series applies to Debian's
 * tarball without fuzz, and with it struct zone and struct pglist_data are laid out exactly
 * as in the stock tree (pahole on mm/page_alloc.o, built with -g from the guest's config,
 * before and after the patches), while struct compact_control keeps its size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>

#include "demand_tree.h"
#include "qtest.h"

/* run @argv (no shell) in @cwd with stdout and stderr into @log; its exit status */
static int run_argv(char *const argv[], const char *cwd, const char *log)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || (cwd && chdir(cwd) < 0))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int patch_name(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return len > 6 && !strcmp(d->d_name + len - 6, ".patch");
}

/* `pahole -C @type mm/page_alloc.o` in @tree into @out */
static void pahole(const char *tree, const char *type, const char *out)
{
	char obj[1100];
	char *argv[] = { "pahole", "-C", (char *)type, obj, NULL };

	snprintf(obj, sizeof(obj), "%s/mm/page_alloc.o", tree);
	unlink(out);
	assert_int_equal(run_argv(argv, NULL, out), 0);
}

/* the tree's mm/page_alloc.o with DWARF (KCFLAGS=-g), and its three layouts as @tag.TYPE */
static void layouts(const char *dir, const char *tree, const char *tag, const char *log)
{
	static const char *const types[] = { "zone", "pglist_data", "compact_control" };
	char *make[] = { "make", "-j2", "KCFLAGS=-g", "mm/page_alloc.o", NULL };
	char out[1200];

	assert_int_equal(run_argv(make, tree, log), 0);
	for (size_t i = 0; i < 3; i++) {
		snprintf(out, sizeof(out), "%s/%s.%s", dir, tag, types[i]);
		pahole(tree, types[i], out);
	}
}

/* "size: N," of pahole's summary of a struct */
static long pahole_size(const char *path)
{
	char *text = cb_read_file(path, NULL), *p;
	long size;

	assert_non_null(text);
	p = strstr(text, "/* size: ");
	assert_non_null(p);
	size = strtol(p + 9, NULL, 10);
	free(text);
	return size;
}

static void assert_same_file(const char *a, const char *b)
{
	char *ta = cb_read_file(a, NULL), *tb = cb_read_file(b, NULL);

	assert_non_null(ta);
	assert_non_null(tb);
	/* a real layout, not an empty answer */
	assert_non_null(strstr(ta, "/* size: "));
	assert_string_equal(ta, tb);
	free(ta);
	free(tb);
}

/* the stock tree: the tarball, tinyconfig + @fragment + olddefconfig, as the builder does */
static void stock_tree(const char *tarball, const char *fragment, const char *tree,
		       const char *log)
{
	char *tar[] = { "tar", "-xf", (char *)tarball, "-C", (char *)tree, "--strip-components=1",
			NULL };
	char *tiny[] = { "make", "tinyconfig", NULL }, *old[] = { "make", "olddefconfig", NULL };
	char *merge[] = { "scripts/kconfig/merge_config.sh", "-m", ".config", (char *)fragment,
			  NULL };

	assert_int_equal(cb_mkdir_p(tree), 0);
	assert_int_equal(run_argv(tar, NULL, log), 0);
	assert_int_equal(run_argv(tiny, tree, log), 0);
	assert_int_equal(run_argv(merge, tree, log), 0);
	assert_int_equal(run_argv(old, tree, log), 0);
}

void demand_tree_check(const char *dir, const char *tarball, const char *series,
		       const char *recipe, const char *fragment)
{
	char tree[1100], log[1100], path[2200], a[1200], b[1200], *text;
	struct dirent **names;
	int n;

	text = cb_read_file(recipe, NULL);
	assert_non_null(text);
	n = scandir(series, &names, patch_name, alphasort);
	assert_true(n >= 1);
	snprintf(tree, sizeof(tree), "%s/tree", dir);
	snprintf(log, sizeof(log), "%s/tree.log", dir);
	stock_tree(tarball, fragment, tree, log);
	layouts(dir, tree, "stock", log);

	for (int i = 0; i < n; i++) {
		char *argv[] = { "patch", "-p1", "--forward", "--batch", "-i", path, NULL };

		/* the recipe applies the whole series */
		assert_non_null(strstr(text, names[i]->d_name));
		snprintf(path, sizeof(path), "%s/%s", series, names[i]->d_name);
		assert_int_equal(run_argv(argv, tree, log), 0);
		free(names[i]);
	}
	free(names);
	free(text);
	layouts(dir, tree, "patched", log);
	text = qtest_log(log);
	/* applies as written: no hunk needed fuzz, none was rejected */
	assert_null(strstr(text, "fuzz"));
	assert_null(strstr(text, "FAILED"));
	free(text);

	/* struct zone and pglist_data: the same members at the same offsets, the same size */
	for (int i = 0; i < 2; i++) {
		const char *type = i ? "pglist_data" : "zone";

		snprintf(a, sizeof(a), "%s/stock.%s", dir, type);
		snprintf(b, sizeof(b), "%s/patched.%s", dir, type);
		assert_same_file(a, b);
		print_message("struct %s: %ld bytes, layout identical with the series\n", type,
			      pahole_size(a));
	}
	/* compact_control gains a bool in its padding, not a byte more */
	snprintf(a, sizeof(a), "%s/stock.compact_control", dir);
	snprintf(b, sizeof(b), "%s/patched.compact_control", dir);
	assert_int_equal(pahole_size(a), pahole_size(b));
	cb_rm_rf(tree);
}
