// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_recipe.c - `compactbench kernel build` on a fake kernel tree (a Makefile and a
 * merge_config.sh that do what the real ones do to .config, in milliseconds): a patch
 * that does not apply and an option olddefconfig drops are named in the error; a good
 * recipe is built once, then found in the cache; a bad key is named with FILE:LINE.
 *
 * The patched kernel built incrementally from the baseline's kept tree, on a second fake
 * tree whose Makefile compiles each .c to a .o (with cp, which writes over an existing
 * object in place, as a compiler does) and logs every compile: only the file the patch
 * touches recompiles, the baseline's tree is left as it was, the .config is compared with
 * the baseline's, and a scratch build of the same recipe gives the same cache entry and
 * the same image.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <glob.h>
#include <libgen.h>
#include <time.h>

#include "qtest.h"

static char dir[] = "/tmp/cb-test-recipe-XXXXXX";
static char path[1024], log_path[1024], compiled[1024];

/* olddefconfig drops CONFIG_NEEDS_DEP, as Kconfig drops an option whose dependency is off */
static const char makefile[] =
	"tinyconfig:\n\tprintf 'CONFIG_TINY=y\\n' > .config\n"
	"olddefconfig:\n\tgrep -v CONFIG_NEEDS_DEP .config > .config.new; mv .config.new .config\n"
	"bzImage:\n\tmkdir -p arch/x86/boot\n\tcat .config hello.c > arch/x86/boot/bzImage\n"
	"\ttouch System.map\n";
static const char merge[] = "#!/bin/sh\n[ \"$1\" = -m ] && shift\nbase=$1\nshift\n"
			    "cat \"$@\" >> \"$base\"\n";
static const char good_patch[] = "--- a/hello.c\n+++ b/hello.c\n@@ -1 +1 @@\n-hello\n+patched\n";
static const char bad_patch[] = "--- a/hello.c\n+++ b/hello.c\n@@ -1 +1 @@\n-nothing like it\n"
				"+patched\n";

/* olddefconfig adds CONFIG_NEW when the patch added the file "newopt", as Kconfig would */
static const char imakefile[] =
	"tinyconfig:\n\tprintf 'CONFIG_TINY=y\\n' > .config\n"
	"olddefconfig:\n\tif [ -f newopt ]; then echo CONFIG_NEW=y >> .config; fi\n"
	"bzImage: a.o b.o\n\tmkdir -p arch/x86/boot\n"
	"\tcat .config a.o b.o > arch/x86/boot/bzImage\n\tpwd > System.map\n"
	"%.o: %.c\n\tcp $< $@\n\techo $@ >> $(COMPILED)\n";
static const char b_patch[] = "--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-b original\n+b patched\n"
			      "--- /dev/null\n+++ b/newopt\n@@ -0,0 +1 @@\n+new option\n";
/* a patch that changes what the baseline's config sets: the A/B would not be fair */
static const char cfg_patch[] = "--- a/Makefile\n+++ b/Makefile\n@@ -1,2 +1,2 @@\n"
				" tinyconfig:\n-\tprintf 'CONFIG_TINY=y\\n' > .config\n"
				"+\tprintf 'CONFIG_TINY=m\\n' > .config\n";
static const char base_recipe[] = "[kernel]\nname = fake\nsource = itree\nfragments = ok.config\n";
static const char patched_recipe[] = "[kernel]\nname = fake-demand\nsource = itree\n"
				     "patches = b.patch\nfragments = ok.config\n";

static void file(const char *rel, const char *text, mode_t mode)
{
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	qtest_write(path, text, mode);
}

static int setup(void **state)
{
	char p[1024];

	if (!mkdtemp(dir))
		return -1;
	snprintf(p, sizeof(p), "%s/tree/scripts/kconfig", dir);
	cb_mkdir_p(p);
	file("tree/Makefile", makefile, 0644);
	file("tree/hello.c", "hello\n", 0644);
	file("tree/scripts/kconfig/merge_config.sh", merge, 0755);
	file("good.patch", good_patch, 0644);
	file("bad.patch", bad_patch, 0644);
	file("ok.config", "CONFIG_WANTED=y\n# CONFIG_OFF is not set\n", 0644);
	file("dep.config", "CONFIG_WANTED=y\nCONFIG_NEEDS_DEP=y\n", 0644);
	snprintf(p, sizeof(p), "%s/itree/scripts/kconfig", dir);
	cb_mkdir_p(p);
	file("itree/Makefile", imakefile, 0644);
	file("itree/a.c", "a original\n", 0644);
	file("itree/b.c", "b original\n", 0644);
	file("itree/scripts/kconfig/merge_config.sh", merge, 0755);
	file("b.patch", b_patch, 0644);
	file("cfg.patch", cfg_patch, 0644);
	snprintf(compiled, sizeof(compiled), "%s/compiled", dir);
	setenv("COMPILED", compiled, 1);
	snprintf(p, sizeof(p), "%s/cache", dir);
	setenv("COMPACTBENCH_CACHE", p, 1);
	snprintf(log_path, sizeof(log_path), "%s/log", dir);
	return 0;
}

static int teardown(void **state)
{
	return cb_rm_rf(dir);
}

static int build(const char *recipe_name, const char *recipe, char **log)
{
	char *args[] = { "kernel", "build", path, NULL };
	int rc;

	file(recipe_name, recipe, 0644);
	rc = qtest_run(log_path, args);
	*log = qtest_log(log_path);
	return rc;
}

static void test_patch_does_not_apply(void **state)
{
	char *log;

	assert_int_equal(build("bad.ini", "[kernel]\nname = fake\nsource = tree\n"
			       "patches = good.patch, bad.patch\nfragments = ok.config\n", &log), 1);
	assert_non_null(strstr(log, "bad.patch does not apply"));
	assert_non_null(strstr(log, "bad.ini"));
	free(log);
}

static void test_option_dropped(void **state)
{
	char *log;

	assert_int_equal(build("dep.ini", "[kernel]\nname = fake\nsource = tree\n"
			       "fragments = dep.config\n", &log), 1);
	assert_non_null(strstr(log, "CONFIG_NEEDS_DEP"));
	assert_null(strstr(log, "CONFIG_WANTED,"));
	free(log);
}

static void test_build_then_cached(void **state)
{
	const char *recipe = "[kernel]\nname = fake\nsource = tree\npatches = good.patch\n"
			     "fragments = ok.config\n";
	char *log, image[1024], *nl, *data;

	assert_int_equal(build("ok.ini", recipe, &log), 0);
	nl = strrchr(log, '\n');
	*nl = '\0';
	snprintf(image, sizeof(image), "%s", strrchr(log, '\n') + 1);
	free(log);
	data = cb_read_file(image, NULL);
	assert_non_null(data);
	assert_non_null(strstr(data, "patched")); /* built from the patched tree */
	assert_non_null(strstr(data, "CONFIG_WANTED=y"));
	free(data);
	assert_int_equal(build("ok.ini", recipe, &log), 0);
	assert_non_null(strstr(log, "cached"));
	free(log);
	/* the tree is removed, the log kept */
	snprintf(path, sizeof(path), "%s/build.log", dirname(image));
	assert_int_equal(access(path, R_OK), 0);
}

static void test_bad_key(void **state)
{
	char *log;

	/* a recipe that does not load is bad input (2), not a failed build (1): issue 22 */
	assert_int_equal(build("key.ini", "[kernel]\nname = fake\nsourze = tree\n", &log), 2);
	assert_non_null(strstr(log, "key.ini:3: key 'sourze'"));
	free(log);
}

/* build @recipe (written to @name); its exit status, the log in *log, the image path */
static int ibuild(const char *name, const char *recipe, char **log, char *image, size_t size)
{
	char *args[] = { "kernel", "build", path, NULL };
	char *nl;
	int rc;

	file(name, recipe, 0644);
	rc = qtest_run(log_path, args);
	*log = qtest_log(log_path);
	nl = strrchr(*log, '\n');
	if (image && nl) {
		*nl = '\0';
		snprintf(image, size, "%s", strrchr(*log, '\n') ? strrchr(*log, '\n') + 1 : *log);
		*nl = '\n';
	}
	return rc;
}

/* is @log (lines, make -j2 writes them in any order) @a lines "a.o" and @b lines "b.o"? */
static void assert_compiled(int a, int b)
{
	char *data = cb_read_file(compiled, NULL), *line, *save = NULL;
	int na = 0, nb = 0, other = 0;

	assert_non_null(data);
	for (line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		na += !strcmp(line, "a.o");
		nb += !strcmp(line, "b.o");
		other += strcmp(line, "a.o") && strcmp(line, "b.o");
	}
	free(data);
	assert_int_equal(na, a);
	assert_int_equal(nb, b);
	assert_int_equal(other, 0);
}

/* the one kept tree in the cache, into @out */
static void kept_tree(char *out, size_t size)
{
	glob_t g;

	snprintf(path, sizeof(path), "%s/cache/kernels/tree-*", dir);
	assert_int_equal(glob(path, 0, NULL, &g), 0);
	assert_int_equal(g.gl_pathc, 1);
	snprintf(out, size, "%s", g.gl_pathv[0]);
	globfree(&g);
}

static void assert_file(const char *tree, const char *rel, const char *want)
{
	char p[1200], *data;

	snprintf(p, sizeof(p), "%s/%s", tree, rel);
	data = cb_read_file(p, NULL);
	assert_non_null(data);
	assert_string_equal(data, want);
	free(data);
}

static void test_incremental(void **state)
{
	char *log, *data, tree[1024], image[1024], scratch[1024], moved[1200];
	struct timespec tick = { 1, 0 };

	/* the baseline: from scratch, both files compiled, its tree kept */
	assert_int_equal(ibuild("base.ini", base_recipe, &log, NULL, 0), 0);
	assert_non_null(strstr(log, "built from scratch"));
	free(log);
	assert_compiled(1, 1);
	kept_tree(tree, sizeof(tree));
	/* file times are clock ticks: a patch in the same tick would look as old as b.o */
	nanosleep(&tick, NULL);

	/* the patched kernel: from the kept tree, only b.o recompiles */
	assert_int_equal(ibuild("patched.ini", patched_recipe, &log, image, sizeof(image)), 0);
	assert_non_null(strstr(log, "incremental: cloning the baseline's tree"));
	assert_non_null(strstr(log, "built incrementally"));
	assert_non_null(strstr(log, ".config: the baseline's, plus 1 option the patches add"));
	free(log);
	assert_compiled(1, 2);
	data = cb_read_file(image, NULL);
	assert_string_equal(data, "CONFIG_TINY=y\nCONFIG_WANTED=y\n# CONFIG_OFF is not set\n"
			    "CONFIG_NEW=y\na original\nb patched\n");
	free(data);
	/* built where the baseline was (its System.map is the build's pwd): objtool's paths */
	snprintf(moved, sizeof(moved), "%s/System.map", dirname(strcpy(scratch, image)));
	data = cb_read_file(moved, NULL);
	snprintf(scratch, sizeof(scratch), "%s/cache/kernels/fake-%s.work\n", dir,
		 strrchr(tree, '-') + 1);
	assert_string_equal(data, scratch);
	free(data);

	/* the baseline's tree is untouched: its source and its object (written in place) */
	assert_file(tree, "b.c", "b original\n");
	assert_file(tree, "b.o", "b original\n");
	assert_file(tree, ".config", "CONFIG_TINY=y\nCONFIG_WANTED=y\n# CONFIG_OFF is not set\n");
	snprintf(moved, sizeof(moved), "%s/newopt", tree);
	assert_int_equal(access(moved, F_OK), -1);

	/* from scratch (no kept tree): the same entry, the same image */
	snprintf(moved, sizeof(moved), "%s.away", tree);
	assert_int_equal(rename(tree, moved), 0);
	snprintf(scratch, sizeof(scratch), "%s", image);
	assert_int_equal(cb_rm_rf(dirname(scratch)), 0);
	assert_int_equal(ibuild("patched.ini", patched_recipe, &log, scratch, sizeof(scratch)), 0);
	assert_non_null(strstr(log, "built from scratch"));
	assert_null(strstr(log, "incremental"));
	free(log);
	assert_string_equal(scratch, image);
	data = cb_read_file(image, NULL);
	assert_string_equal(data, "CONFIG_TINY=y\nCONFIG_WANTED=y\n# CONFIG_OFF is not set\n"
			    "CONFIG_NEW=y\na original\nb patched\n");
	free(data);
	assert_compiled(2, 3);
	assert_int_equal(rename(moved, tree), 0);
}

static void test_config_differs(void **state)
{
	char *log;

	/* a patch that changes an option the baseline sets is built, with a warning */
	assert_int_equal(ibuild("cfg.ini", "[kernel]\nname = fake-cfg\nsource = itree\n"
			       "patches = cfg.patch\nfragments = ok.config\n", &log, NULL, 0), 0);
	assert_non_null(strstr(log, "built incrementally"));
	assert_non_null(strstr(log, "WARNING: .config differs from the baseline's in 1 option "
			       "(an A/B compares more than the patches): CONFIG_TINY: y -> m"));
	free(log);
}

static void test_broken_tree_falls_back(void **state)
{
	char tree[1024], stamp[1200], *log;

	/* a kept tree without its stamp (or with an older one) is not trusted: a scratch build */
	kept_tree(tree, sizeof(tree));
	snprintf(stamp, sizeof(stamp), "%s/.compactbench-source-stamp", tree);
	assert_int_equal(unlink(stamp), 0);
	assert_int_equal(ibuild("b2.ini", "[kernel]\nname = fake-b2\nsource = itree\n"
			       "patches = b.patch\nfragments = ok.config\n", &log,
			       NULL, 0), 0);
	assert_non_null(strstr(log, "is not usable"));
	assert_non_null(strstr(log, "built from scratch"));
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patch_does_not_apply), cmocka_unit_test(test_option_dropped),
		cmocka_unit_test(test_build_then_cached), cmocka_unit_test(test_bad_key),
		cmocka_unit_test(test_incremental), cmocka_unit_test(test_config_differs),
		cmocka_unit_test(test_broken_tree_falls_back),
	};

	testenv_require_cb();
	return cmocka_run_group_tests(tests, setup, teardown);
}
