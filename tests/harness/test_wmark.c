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

#include <errno.h>
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

/* one step: its return, and which nodes it asked, as a string "01" for node 0 no, node 1 yes */
static int step(struct cb_wmark_opts *o, struct cb_wmark_check *c, char asked_nodes[3])
{
	int n = cb_wmark_step(o, c);

	asked_nodes[0] = asked(NODE0) ? '1' : '0';
	asked_nodes[1] = asked(NODE1) ? '1' : '0';
	asked_nodes[2] = '\0';
	reset(NULL);
	return n;
}

static void test_below_and_above(void **state)
{
	struct cb_wmark_opts o = { .root = root, .period_s = 1, .order = 9 };
	struct cb_wmark_check c;
	char a[3];

	/* node 0 holds 1 (DMA) + 4 (DMA32) + 20 (Normal) = 25 order-9 blocks; node 1 holds 3 */
	o.count = 1;
	assert_int_equal(step(&o, &c, a), 0);
	assert_int_equal(c.nnodes, 2);
	assert_int_equal(c.blocks[0], 25);
	assert_int_equal(c.blocks[1], 3);
	assert_string_equal(a, "00");
	/* the boundary: a node holding exactly count blocks is at the watermark, not below */
	o.count = 3;
	assert_int_equal(step(&o, &c, a), 0);
	assert_string_equal(a, "00");
	assert_false(c.below[0] || c.below[1]);
	o.count = 4;
	assert_int_equal(step(&o, &c, a), 1);
	assert_string_equal(a, "01");
	assert_true(c.below[1] && !c.below[0]);
	o.count = 25;
	assert_int_equal(step(&o, &c, a), 1);
	assert_string_equal(a, "01");
	o.count = 26;
	assert_int_equal(step(&o, &c, a), 2);
	assert_string_equal(a, "11");
	assert_false(c.global);
	/* order 10: node 0 has 0 (DMA) + 2 (DMA32) + 5 (Normal) = 7 blocks, node 1 none */
	o.order = 10;
	o.count = 7;
	assert_int_equal(step(&o, &c, a), 1);
	assert_int_equal(c.blocks[0], 7);
	assert_int_equal(c.blocks[1], 0);
	assert_string_equal(a, "01");
	o.count = 8;
	assert_int_equal(step(&o, &c, a), 2);
	assert_string_equal(a, "11");
	/* order 0 counts every page: node 1 has 900 + 3 * 512 = 2436 */
	o.order = 0;
	o.count = 2436;
	assert_int_equal(step(&o, &c, a), 0);
	assert_int_equal(c.blocks[1], 2436);
	o.count = 2437;
	assert_int_equal(step(&o, &c, a), 1);
	assert_string_equal(a, "01");
	/* no output wanted: the same decision */
	assert_int_equal(cb_wmark_step(&o, NULL), 1);
}

/* without per-node files, one write of compact_memory per period compacts every node */
static void test_global_fallback(void **state)
{
	struct cb_wmark_opts o = { .root = root, .period_s = 1, .order = 9, .count = 1000 };
	struct cb_wmark_check c;
	char path[1024];

	snprintf(path, sizeof(path), "%s/sys/devices/system/node", root);
	cb_rm_rf(path);
	put("/proc/sys/vm/compact_memory", "0\n");
	o.count = 3;
	assert_int_equal(cb_wmark_step(&o, &c), 0);
	assert_false(asked("/proc/sys/vm/compact_memory"));
	o.count = 1000;
	assert_int_equal(cb_wmark_step(&o, &c), 1);
	assert_true(c.global && c.below[0] && c.below[1]);
	assert_true(asked("/proc/sys/vm/compact_memory"));
}

static void test_errors(void **state)
{
	char path[1024];
	struct cb_wmark_opts o = { .root = root, .period_s = 1, .order = 9, .count = 26 };
	struct cb_wmark_check c;

	/* a compact file that is not there cannot be written: the step fails and names it */
	snprintf(path, sizeof(path), "%s" NODE1, root);
	unlink(path);
	assert_int_equal(cb_wmark_step(&o, &c), -1);
	assert_string_equal(c.failed, path);
	reset(state);
	/* an order beyond buddyinfo's columns could never be met */
	put("/proc/buddyinfo", "Node 0, zone   Normal    100     50     20\n");
	o.order = 3;
	o.count = 1;
	errno = 0;
	assert_int_equal(cb_wmark_step(&o, &c), -1);
	assert_int_equal(errno, ERANGE);
	o.order = 2;
	assert_int_equal(cb_wmark_step(&o, &c), 0);
	/* no buddyinfo */
	snprintf(path, sizeof(path), "%s/proc/buddyinfo", root);
	unlink(path);
	assert_int_equal(cb_wmark_step(&o, &c), -1);
	assert_string_equal(c.failed, path);
	assert_null(cb_wmark_start(&(struct cb_wmark_opts){ .root = root, .period_s = 0 }));
}

static void test_thread(void **state)
{
	struct cb_wmark_opts o = { .root = root, .period_s = 0.02, .order = 9, .count = 10 };
	struct cb_wmark_stats st;
	struct cb_wmark *w = cb_wmark_start(&o);

	assert_non_null(w);
	usleep(300000);
	assert_int_equal(cb_wmark_stop(w, &st), 0);
	/*
	 * a step at 0, 20, 40 ... ms of the loop's own wall time, checked or counted missed:
	 * wall/20 ms + 1, give or take one at either end. Judged against the loop's wall time,
	 * not our usleep: on a loaded machine the stop comes late, and that is no defect.
	 */
	{
		unsigned long want = st.wall_ns / 20000000ULL + 1, got = st.checks + st.missed;

		if (got + 1 < want || got > want + 1)
			fail_msg("%lu checks + %lu missed in %.0f ms of 20 ms periods (want %lu +- 1)",
				 st.checks, st.missed, st.wall_ns / 1e6, want);
	}
	/* every period asked node 1 (3 < 10) and never node 0 (25 >= 10) */
	assert_int_equal(st.triggers, st.checks);
	assert_int_equal(st.nnodes, 2);
	assert_int_equal(st.node_triggers[0], 0);
	assert_int_equal(st.node_triggers[1], st.checks);
	assert_false(asked(NODE0));
	assert_true(asked(NODE1));
	assert_true(st.cpu_ns > 0);
	assert_true(st.wall_ns > 0 && st.checks >= 1);
	assert_false(st.bounded);
	assert_string_equal(st.err, "");
}

/* the loop ends by itself on its bounds, and on a failed step */
static void test_thread_bounds(void **state)
{
	struct cb_wmark_opts o = { .root = root, .period_s = 0.01, .order = 9, .count = 10,
				   .max_checks = 3 };
	struct cb_wmark_stats st;
	struct cb_wmark *w = cb_wmark_start(&o);
	char path[1024];

	assert_non_null(w);
	usleep(200000);
	assert_int_equal(cb_wmark_stop(w, &st), 0);
	assert_int_equal(st.checks, 3);
	assert_true(st.bounded);
	o.max_checks = 0;
	o.max_s = 0.1;
	w = cb_wmark_start(&o);
	usleep(300000);
	assert_int_equal(cb_wmark_stop(w, &st), 0);
	/*
	 * Ended by its time bound, so never before it; every period counted (checked or missed)
	 * began before the end. How many there were depends on how late the thread ran, which a
	 * loaded machine decides (9-11 was asserted here and failed under two kernel builds).
	 */
	assert_true(st.bounded);
	assert_true(st.wall_ns >= 100000000ULL);
	assert_true(st.checks >= 1);
	assert_true((st.checks + st.missed - 1) * 10000000ULL <= st.wall_ns);
	/* a failed step stops the loop after one check, and says why */
	snprintf(path, sizeof(path), "%s" NODE1, root);
	unlink(path);
	o.max_s = 0;
	w = cb_wmark_start(&o);
	usleep(100000);
	assert_int_equal(cb_wmark_stop(w, &st), -1);
	assert_int_equal(st.checks, 1);
	assert_non_null(strstr(st.err, path));
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
		cmocka_unit_test_setup(test_errors, reset),
		cmocka_unit_test_setup(test_thread, reset),
		cmocka_unit_test_setup(test_thread_bounds, reset),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
