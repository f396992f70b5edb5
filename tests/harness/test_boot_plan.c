// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_boot_plan.c - [global] boot = per-kernel without a guest:
 *   - which cells share a guest, on the default matrix's shape (2 kernels, 3 and 2
 *     settings, interleaved repetitions): runs of 3 and 2 cells, worked out by hand; a
 *     host kernel's cells never batch; a batch stops at CB_BOOT_BATCH_MAX;
 *   - auto/per-cell/per-kernel against --jobs and start_state, and the refusal of
 *     per-kernel with --jobs 2;
 *   - the isolation check's reading of /proc texts (numbers summed by hand) and its
 *     tolerances, each side of each limit;
 *   - the host's batch files: the cells list, go files, the end line's status and each
 *     cell's part of the console.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot_plan.h"
#include "isolation.h"
#include "qemu_batch.h"
#include "target.h"
#include "policy.h"
#include "wmark.h"
#include "util.h"
#include "xalloc.h"

static char tmpdir[] = "/tmp/cb-test-boot-plan-XXXXXX";

static const char matrix[] =
	"reps = 2\ntarget = qemu\n"
	"[kernel a]\nrecipe = x.ini\n[kernel b]\nrecipe = y.ini\n"
	"[setting s1]\nvm.compaction_proactiveness = 0\n"
	"[setting s2]\nkernels = a\nvm.compaction_proactiveness = 20\n"
	"[setting s3]\nkernels = a\nvm.compaction_proactiveness = 40\n"
	"[setting s4]\nkernels = b\nvm.compaction_proactiveness = 60\n"
	"[workload w]\ndemand = thp-demand\n";

static struct cb_config *load(const char *extra)
{
	char path[1200], text[2048], err[2048];
	struct cb_config *cfg;

	snprintf(path, sizeof(path), "%s/m.ini", tmpdir);
	snprintf(text, sizeof(text), "[global]\n%s%s", extra, matrix);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
	cfg = cb_config_load(path, err, sizeof(err));
	if (!cfg)
		fail_msg("%s", err);
	return cfg;
}

static void test_batches_follow_the_run_order(void **state)
{
	struct cb_config *cfg = load("");
	size_t nr, i = 0, k = 0;
	struct cb_cell *cells = cb_matrix_expand(cfg, 2, &nr);
	/* per rep: kernel a with s1 s2 s3 (rotated), then kernel b with s1 s4 */
	static const size_t want[] = { 3, 2, 3, 2 };

	assert_int_equal(nr, 10);
	while (i < nr) {
		size_t n = cb_boot_batch_len(cells, nr, i);

		assert_true(k < 4);
		assert_int_equal(n, want[k]);
		for (size_t j = 1; j < n; j++)
			assert_ptr_equal(cells[i + j].kernel, cells[i].kernel);
		i += n;
		k++;
	}
	assert_int_equal(k, 4);
	assert_int_equal(cb_boot_batch_len(cells, nr, nr), 0);
	/* from the middle of a run: what is left of it (a resumed or declined cell) */
	assert_int_equal(cb_boot_batch_len(cells, nr, 1), 2);
	assert_int_equal(cb_boot_batch_len(cells, nr, 4), 1);
	/* a host kernel's cells run alone */
	cfg->kernels[0].cls = &cb_target_host_class;
	assert_int_equal(cb_boot_batch_len(cells, nr, 0), 1);
	free(cells);
	cb_config_free(cfg);
}

static void test_batch_is_bounded(void **state)
{
	struct cb_kernel k = { .cls = &cb_target_qemu_class };
	struct cb_cell cells[CB_BOOT_BATCH_MAX + 5];

	memset(cells, 0, sizeof(cells));
	for (size_t i = 0; i < CB_BOOT_BATCH_MAX + 5; i++)
		cells[i].kernel = &k;
	assert_int_equal(cb_boot_batch_len(cells, CB_BOOT_BATCH_MAX + 5, 0), CB_BOOT_BATCH_MAX);
	assert_int_equal(cb_boot_batch_len(cells, CB_BOOT_BATCH_MAX + 5, CB_BOOT_BATCH_MAX), 5);
}

static void test_modes(void **state)
{
	struct cb_config *cfg = load("");
	char err[512];

	/* the default: a fresh guest for every cell */
	assert_int_equal(cfg->boot, CB_BOOT_PER_CELL);
	assert_false(cb_boot_batches(cfg, 1));
	cb_config_free(cfg);

	/* auto: per-kernel with --jobs 1 and drop-compact only */
	cfg = load("boot = auto\n");
	assert_int_equal(cfg->boot, CB_BOOT_AUTO);
	assert_true(cb_boot_batches(cfg, 1));
	assert_false(cb_boot_batches(cfg, 2));
	assert_int_equal(cb_boot_check(cfg, 2, err, sizeof(err)), 0);
	cfg->start_state = CB_START_DROP;
	assert_false(cb_boot_batches(cfg, 1));
	cb_config_free(cfg);

	cfg = load("boot = per-cell\n");
	assert_false(cb_boot_batches(cfg, 1));
	cb_config_free(cfg);

	cfg = load("boot = per-kernel\nstart_state = none\n");
	assert_true(cb_boot_batches(cfg, 1));
	assert_int_equal(cb_boot_check(cfg, 1, err, sizeof(err)), 0);
	assert_int_equal(cb_boot_check(cfg, 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "boot = per-kernel with --jobs 2"));
	cb_config_free(cfg);
}

static const char meminfo[] = "MemTotal:        1000000 kB\nMemFree:          900000 kB\n"
			      "MemAvailable:     910000 kB\n";
static const char buddyinfo[] =
	"Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3 \n"
	"Node 0, zone    DMA32      0      4      2      2      1      2      0      3      3      7    100 \n";
static const char pagetypeinfo[] =
	"Page block order: 9\nPages per block:  512\n\n"
	"Free pages count per migrate type at order       0      1      2      3      4      5      6      7      8      9     10 \n"
	"Node    0, zone      DMA, type    Unmovable      0      0      0      0      0      0      0      0      1      0      0 \n"
	"\nNumber of blocks type     Unmovable      Movable  Reclaimable   HighAtomic      Isolate \n"
	"Node 0, zone      DMA            1            7            0            0            0 \n"
	"Node 0, zone    DMA32           10          470            5            0            0 \n";

static void test_isolation_parse(void **state)
{
	struct cb_iso_state st;

	assert_int_equal(cb_iso_parse(meminfo, buddyinfo, pagetypeinfo, &st), 0);
	assert_int_equal(st.total_kb, 1000000);
	assert_int_equal(st.free_kb, 900000);
	/* order 9 counts once, order 10 twice: DMA 1 + 2*3, DMA32 7 + 2*100 */
	assert_int_equal(st.blocks9, 7 + 207);
	assert_int_equal(st.nr_types, 5);
	assert_string_equal(st.type[1], "Movable");
	assert_int_equal(st.pageblocks[0], 11);
	assert_int_equal(st.pageblocks[1], 477);
	assert_int_equal(st.pageblocks[2], 5);
	assert_int_equal(st.unmovable, 16);
	assert_int_equal(cb_iso_parse("MemFree: 1 kB\n", buddyinfo, pagetypeinfo, &st), -1);
	assert_int_equal(cb_iso_parse(meminfo, buddyinfo, "no table\n", &st), -1);
}

static void test_isolation_tolerances(void **state)
{
	struct cb_iso_state base, now;
	char why[512];

	assert_int_equal(cb_iso_parse(meminfo, buddyinfo, pagetypeinfo, &base), 0);
	now = base;
	assert_true(cb_iso_within(&base, &now, why, sizeof(why)));
	/* free: 2% of 1000000 kB = 20000 kB */
	now.free_kb = base.free_kb - 20000;
	assert_true(cb_iso_within(&base, &now, why, sizeof(why)));
	now.free_kb--;
	assert_false(cb_iso_within(&base, &now, why, sizeof(why)));
	assert_non_null(strstr(why, "MemFree 879999 kB"));
	/* order-9 blocks: 10% of 214 = 21 */
	now = base;
	now.blocks9 = 214 - 21;
	assert_true(cb_iso_within(&base, &now, why, sizeof(why)));
	now.blocks9--;
	assert_false(cb_iso_within(&base, &now, why, sizeof(why)));
	assert_non_null(strstr(why, "192 free order-9 blocks"));
	/* not Movable: 25% of 16 = 4, at least 8 */
	now = base;
	now.unmovable = 24;
	assert_true(cb_iso_within(&base, &now, why, sizeof(why)));
	now.unmovable = 25;
	assert_false(cb_iso_within(&base, &now, why, sizeof(why)));
	assert_non_null(strstr(why, "25 pageblocks not Movable"));
	/* 25% of 40 = 10, above 8 */
	base.unmovable = 40;
	now.unmovable = 50;
	assert_true(cb_iso_within(&base, &now, why, sizeof(why)));
	now.unmovable = 51;
	assert_false(cb_iso_within(&base, &now, why, sizeof(why)));
}

static void test_batch_files(void **state)
{
	struct cb_config *cfg = load("");
	struct cb_qbatch b;
	char err[512], path[1400], cell_dir[1200], *text;
	size_t nr;
	struct cb_cell *cells = cb_matrix_expand(cfg, 1, &nr);
	static const char console[] = "boot\ncb-init: up\ncb-batch: start A x\nlog a\n"
				      "cb-batch: end %s 0\nmore\ncb-batch: end %s 3\npoweroff\n";

	assert_int_equal(nr, 5);
	assert_int_equal(cb_qbatch_begin(&b, tmpdir, cells, 3, err, sizeof(err)), 0);
	assert_string_equal(cb_qbatch_name(&b), cells[0].id);
	snprintf(path, sizeof(path), "%s/.batch/%s/cells", tmpdir, cells[0].id);
	text = cb_read_file(path, NULL);
	assert_non_null(text);
	snprintf(err, sizeof(err), "%s\n%s\n%s\n", cells[0].id, cells[1].id, cells[2].id);
	assert_string_equal(text, err);
	free(text);
	/* no live guest: it waits for nothing */
	assert_false(cb_qbatch_waits_for(&b, &cells[0]));
	assert_int_equal(cb_qbatch_go(&b, &cells[0]), 0);
	snprintf(path, sizeof(path), "%s/.batch/%s/go.%s", tmpdir, cells[0].id, cells[0].id);
	assert_int_equal(access(path, F_OK), 0);
	b.pid = 999999;
	assert_true(cb_qbatch_waits_for(&b, &cells[1]));
	assert_false(cb_qbatch_waits_for(&b, &cells[2]));
	assert_false(cb_qbatch_last(&b, &cells[1]));
	assert_true(cb_qbatch_last(&b, &cells[2]));

	/* the console split at each cell's end line; the status on that line */
	text = cb_xasprintf(console, cells[0].id, cells[1].id);
	assert_int_equal(cb_write_file_atomic(b.console, text, strlen(text)), 0);
	assert_int_equal(cb_qbatch_end_rc(text, &cells[0]), 0);
	assert_int_equal(cb_qbatch_end_rc(text, &cells[1]), 3);
	assert_int_equal(cb_qbatch_end_rc(text, &cells[2]), -1);
	free(text);
	snprintf(cell_dir, sizeof(cell_dir), "%s/c0", tmpdir);
	assert_int_equal(cb_mkdir_p(cell_dir), 0);
	cb_qbatch_console_split(&b, &cells[0], cell_dir, false);
	snprintf(path, sizeof(path), "%s/console.log", cell_dir);
	text = cb_read_file(path, NULL);
	snprintf(err, sizeof(err), "boot\ncb-init: up\ncb-batch: start A x\nlog a\n"
		 "cb-batch: end %s 0\n", cells[0].id);
	assert_string_equal(text, err);
	free(text);
	cb_qbatch_console_split(&b, &cells[1], cell_dir, true);
	text = cb_read_file(path, NULL);
	snprintf(err, sizeof(err), "more\ncb-batch: end %s 3\npoweroff\n", cells[1].id);
	assert_string_equal(text, err);
	free(text);
	b.pid = 0;
	cb_qbatch_end(&b);
	snprintf(path, sizeof(path), "%s/.batch/%s", tmpdir, cells[0].id);
	assert_int_equal(access(path, F_OK), -1);
	free(cells);
	cb_config_free(cfg);
}

static int setup(void **state)
{
	cb_targets_register();
	cb_policies_register();
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	return cb_rm_rf(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batches_follow_the_run_order),
		cmocka_unit_test(test_batch_is_bounded),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_isolation_parse),
		cmocka_unit_test(test_isolation_tolerances),
		cmocka_unit_test(test_batch_files),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
