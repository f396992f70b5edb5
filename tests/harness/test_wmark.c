// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_wmark.c - the user-space watermark policy against a fake procfs/sysfs root: it asks
 * a node for compaction exactly when that node's free blocks of the order (a larger block
 * counting as the blocks it holds) fall below the count, and never otherwise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "wmark.h"

static char root[] = "/tmp/cb-test-wmark-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[1024], dir[1024];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(cb_mkdir_p(dir), 0);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

static bool asked(const char *rel)
{
	char path[1024], buf[16] = "";

	snprintf(path, sizeof(path), "%s%s", root, rel);
	cb_read_trimmed(path, buf, sizeof(buf));
	return !strcmp(buf, "1");
}

#define NODE0 "/sys/devices/system/node/node0/compact"
#define NODE1 "/sys/devices/system/node/node1/compact"

/*
 * node 0: Normal has 10 free order-9 and 5 order-10 blocks = 20 order-9 blocks, DMA32 adds
 * 2 order-10 = 4: 24 in all. node 1: 3 order-9 blocks.
 */
static const char buddyinfo[] =
	"Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      0\n"
	"Node 0, zone    DMA32      7      1      0      0      0      0      0      0      0      0      2\n"
	"Node 0, zone   Normal    100     50     20     10      5      4      3      2      1     10      5\n"
	"Node 1, zone   Normal    900      0      0      0      0      0      0      0      0      3      0\n";

static int reset(void **state)
{
	put("/proc/buddyinfo", buddyinfo);
	put(NODE0, "0\n");
	put(NODE1, "0\n");
	return 0;
}

static void test_below_and_above(void **state)
{
	struct cb_wmark_opts o = { .root = root, .period_s = 1, .order = 9 };

	/* node 0 holds 1 (DMA) + 24 = 25 order-9 blocks; node 1 holds 3 */
	o.count = 25;
	assert_int_equal(cb_wmark_step(&o), 1);
	assert_false(asked(NODE0));
	assert_true(asked(NODE1));
	reset(state);
	o.count = 26;
	assert_int_equal(cb_wmark_step(&o), 2);
	assert_true(asked(NODE0) && asked(NODE1));
	reset(state);
	o.count = 3;
	assert_int_equal(cb_wmark_step(&o), 0);
	assert_false(asked(NODE0) || asked(NODE1));
	/* order 10: node 0 has 0 (DMA) + 2 (DMA32) + 5 (Normal) = 7 blocks, node 1 none */
	o.order = 10;
	o.count = 7;
	assert_int_equal(cb_wmark_step(&o), 1);
	assert_false(asked(NODE0));
	assert_true(asked(NODE1));
}

static void test_global_fallback(void **state)
{
	struct cb_wmark_opts o = { .root = root, .period_s = 1, .order = 9, .count = 1000 };
	char path[1024];

	snprintf(path, sizeof(path), "%s/sys/devices/system/node", root);
	cb_rm_rf(path);
	put("/proc/sys/vm/compact_memory", "0\n");
	assert_int_equal(cb_wmark_step(&o), 2);
	assert_true(asked("/proc/sys/vm/compact_memory"));
}

static void test_unreadable_buddyinfo(void **state)
{
	char path[1024];
	struct cb_wmark_opts o = { .root = root, .period_s = 1, .order = 9, .count = 1 };

	snprintf(path, sizeof(path), "%s/proc/buddyinfo", root);
	unlink(path);
	assert_int_equal(cb_wmark_step(&o), -1);
}

static void test_thread(void **state)
{
	struct cb_wmark_opts o = { .root = root, .period_s = 0.01, .order = 9, .count = 10 };
	struct cb_wmark_stats st;
	struct cb_wmark *w = cb_wmark_start(&o);

	assert_non_null(w);
	usleep(200000);
	assert_int_equal(cb_wmark_stop(w, &st), 0);
	/* every period asked node 1 (3 < 10) and never node 0 (25 >= 10) */
	assert_true(st.checks >= 5);
	assert_int_equal(st.triggers, st.checks);
	assert_false(asked(NODE0));
	assert_true(asked(NODE1));
	assert_true(st.cpu_ns > 0);
}

static int setup(void **state)
{
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	return cb_rm_rf(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_below_and_above, reset),
		cmocka_unit_test_setup(test_global_fallback, reset),
		cmocka_unit_test_setup(test_unreadable_buddyinfo, reset),
		cmocka_unit_test_setup(test_thread, reset),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
