// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_recipe.c - `compactbench kernel build` on a fake kernel tree (a Makefile and a
 * merge_config.sh that do what the real ones do to .config, in milliseconds): a patch
 * that does not apply and an option olddefconfig drops are named in the error; a good
 * recipe is built once, then found in the cache; a bad key is named with FILE:LINE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <libgen.h>

#include "qtest.h"

static char dir[] = "/tmp/cb-test-recipe-XXXXXX";
static char path[1024], log_path[1024];

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

	assert_int_equal(build("key.ini", "[kernel]\nname = fake\nsourze = tree\n", &log), 1);
	assert_non_null(strstr(log, "key.ini:3: key 'sourze'"));
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patch_does_not_apply), cmocka_unit_test(test_option_dropped),
		cmocka_unit_test(test_build_then_cached), cmocka_unit_test(test_bad_key),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
