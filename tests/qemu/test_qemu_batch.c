// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_qemu_batch.c - integration: [global] boot = per-kernel, one guest for the four
 * cells of one kernel in a repetition, against boot = per-cell:
 *   - the same cells, each complete and analyzed, in both runs;
 *   - per-kernel: one boot (only the first cell's console has the kernel's boot), the
 *     cells at positions 1..4 of that guest (a cell the isolation check declined starts
 *     a fresh guest's positions), each cell's check within its tolerances, the boot
 *     charged to a guest's first cell, every breakdown summing to its wall time within 2%;
 *   - SIGKILL to the run in the middle of a batch leaves no guest behind and --resume
 *     runs what is left in a fresh guest, to a complete run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <signal.h>

#include "itest.h"
#include "qemu_common.h"

static char dir[] = "/tmp/cb-test-qemu-batch-XXXXXX";
static const char *const ids[] = { "k61.a.w.r1", "k61.b.w.r1", "k61.c.w.r1", "k61.d.w.r1" };

static const char rest[] =
	"[setting a]\nvm.compaction_proactiveness = 0\nthp.enabled = madvise\nthp.defrag = madvise\n"
	"[setting b]\nvm.compaction_proactiveness = 10\nthp.enabled = madvise\nthp.defrag = madvise\n"
	"[setting c]\nvm.compaction_proactiveness = 0\nthp.enabled = always\nthp.defrag = madvise\n"
	"[setting d]\nvm.compaction_proactiveness = 20\nthp.enabled = madvise\nthp.defrag = madvise\n"
	"[workload w]\nfragment = frag-anon\nfragment.size = 0.6\nfragment.pattern = every-other\n"
	"settle = 1s\ndemand = thp-demand\ndemand.size = 0.15\ndemand.duration = 3s\n"
	"timeout = 5m\nready_timeout = 5m\n";

static const char *str(const char *path, const char *key, char *v, size_t size)
{
	return itest_json(path, key, v, size);
}

/* the run in @out: complete, the four cells complete and analyzed; their wall times' sum */
static double all_complete(const char *out)
{
	char path[1400], v[128];
	double wall = 0;

	snprintf(path, sizeof(path), "%s/run.json", out);
	assert_string_equal(str(path, "complete", v, sizeof(v)), "true");
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s/summary.json", out, ids[i]);
		assert_int_equal(access(path, R_OK), 0);
		snprintf(path, sizeof(path), "%s/%s/meta.json", out, ids[i]);
		assert_string_equal(str(path, "status", v, sizeof(v)), "complete");
		assert_true(fabs(itest_json_num(path, "timing.unaccounted_fraction")) <= 0.02);
		wall += itest_json_num(path, "timing.wall_s");
	}
	return wall;
}

static bool console_has(const char *out, const char *id, const char *what)
{
	char path[1400], *text;
	bool has;

	snprintf(path, sizeof(path), "%s/%s/console.log", out, id);
	text = cb_read_file(path, NULL);
	has = text && strstr(text, what);
	free(text);
	return has;
}

static void test_per_kernel_against_per_cell(void **state)
{
	char cfg[1024], out[1024], log[1024], path[1400], v[128], want[256];
	char *args[] = { "run", cfg, "-o", out, NULL };
	double wall_cell, wall_kernel;

	snprintf(log, sizeof(log), "%s/cell.log", dir);
	snprintf(cfg, sizeof(cfg), "%s/per-cell.ini", dir);
	snprintf(out, sizeof(out), "%s/per-cell", dir);
	assert_int_equal(qtest_run(log, args), 0);
	free(qtest_log(log));
	wall_cell = all_complete(out);
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s/meta.json", out, ids[i]);
		assert_string_equal(str(path, "qemu.boot", v, sizeof(v)), "per-cell");
		assert_true(console_has(out, ids[i], "cb-init: up"));
	}

	snprintf(log, sizeof(log), "%s/kernel.log", dir);
	snprintf(cfg, sizeof(cfg), "%s/per-kernel.ini", dir);
	snprintf(out, sizeof(out), "%s/per-kernel", dir);
	assert_int_equal(qtest_run(log, args), 0);
	free(qtest_log(log));
	wall_kernel = all_complete(out);
	for (int i = 0, pos = 0, first = 0, reused = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s/meta.json", out, ids[i]);
		assert_string_equal(str(path, "qemu.boot", v, sizeof(v)), "per-kernel");
		/* a cell the guest declined (isolation) ran first in a fresh guest */
		pos = strcmp(str(path, "qemu.fresh_guest_because", v, sizeof(v)), "(missing)") ?
			1 : pos + 1;
		if (pos == 1)
			first = i;
		assert_string_equal(str(path, "qemu.guest_first_cell", v, sizeof(v)), ids[first]);
		assert_int_equal((int)itest_json_num(path, "qemu.guest_cell"), pos);
		assert_int_equal((int)itest_json_num(path, "qemu.guest_cells"), 4 - first);
		assert_int_equal((int)itest_json_num(path, "isolation.cell_in_guest"), pos);
		assert_string_equal(str(path, "isolation.within", v, sizeof(v)), "true");
		print_message("%s: wall %.1f s, boot %.2f s, MemFree %.0f kB, free order-9 blocks "
			      "%.0f, pageblocks not movable %.0f\n", ids[i],
			      itest_json_num(path, "timing.wall_s"), itest_json_num(path, "timing.parts.boot"),
			      itest_json_num(path, "isolation.state.mem_free_kb"),
			      itest_json_num(path, "isolation.state.free_order9_blocks"),
			      itest_json_num(path, "isolation.state.pageblocks_not_movable"));
		/* one boot a guest: in its first cell's console and time, in no other's */
		assert_int_equal(console_has(out, ids[i], "cb-init: up"), pos == 1);
		snprintf(want, sizeof(want), "cb-batch: end %s 0", ids[i]);
		assert_true(console_has(out, ids[i], want));
		if (pos == 1)
			assert_true(itest_json_num(path, "timing.parts.boot") > 1.0);
		else
			assert_true(itest_json_num(path, "timing.parts.boot") < 1.0);
		reused += pos > 1;
		/* the guest kept at least one cell (a 1 GiB guest: README's measurement) */
		if (i == 3)
			assert_true(reused > 0);
	}
	snprintf(path, sizeof(path), "%s/.batch", out);
	assert_int_equal(access(path, F_OK), -1);
	print_message("4 cells: per-cell %.1f s, per-kernel %.1f s of cell wall time\n", wall_cell,
		      wall_kernel);
}

/* the first cell is complete and the second has started (in that guest or a fresh one) */
static bool second_started(const char *out)
{
	char path[1400], v[64];

	snprintf(path, sizeof(path), "%s/%s/meta.json", out, ids[0]);
	if (strcmp(itest_json(path, "status", v, sizeof(v)), "complete"))
		return false;
	snprintf(path, sizeof(path), "%s/%s", out, ids[1]);
	return access(path, F_OK) == 0;
}

static void test_killed_batch_resumes(void **state)
{
	char cfg[1024], out[1024], log[1024], path[1400], v[128], *text;
	char *args[] = { "run", cfg, "-o", out, NULL };
	char *resume[] = { "run", cfg, "-o", out, "--resume", NULL };
	pid_t pid;
	int i;

	snprintf(cfg, sizeof(cfg), "%s/per-kernel.ini", dir);
	snprintf(out, sizeof(out), "%s/killed", dir);
	snprintf(log, sizeof(log), "%s/killed.log", dir);
	pid = itest_spawn(log, args);
	for (i = 0; i < 3000 && !second_started(out); i++)
		usleep(100000);
	assert_true(second_started(out));
	kill(pid, SIGKILL);
	itest_wait(pid);
	/* QEMU dies with the run (PR_SET_PDEATHSIG) */
	for (i = 0; i < 50 && qemu_processes_with(out); i++)
		usleep(100000);
	assert_int_equal(qemu_processes_with(out), 0);
	snprintf(path, sizeof(path), "%s/%s/meta.json", out, ids[1]);
	assert_string_not_equal(str(path, "status", v, sizeof(v)), "complete");

	snprintf(log, sizeof(log), "%s/resume.log", dir);
	assert_int_equal(qtest_run(log, resume), 0);
	text = qtest_log(log);
	assert_non_null(strstr(text, "resume: 1 of 4 cells complete, 3 to run now, 0 pending"));
	free(text);
	all_complete(out);
	/* the rest ran in a fresh guest, from cell 2 (or later ones, if declined) */
	snprintf(path, sizeof(path), "%s/%s/meta.json", out, ids[1]);
	assert_string_equal(str(path, "qemu.guest_first_cell", v, sizeof(v)), ids[1]);
	assert_int_equal((int)itest_json_num(path, "qemu.guest_cell"), 1);
	for (i = 2; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s/meta.json", out, ids[i]);
		assert_string_equal(str(path, "qemu.boot", v, sizeof(v)), "per-kernel");
	}
}

/* @dir/NAME.ini: qemu_matrix's, with boot = @boot */
static void matrix(const char *name, const char *boot)
{
	char path[1024], text[4096];
	const char *src = getenv("SOURCE_ROOT");

	snprintf(path, sizeof(path), "%s/%s.ini", dir, name);
	snprintf(text, sizeof(text), "[global]\nreps = 1\ntarget = qemu\nboot = %s\n\n"
		 "[kernel k61]\nrecipe = %s/configs/kernels/linux-6.1.ini\nmemory = 1G\n"
		 "cpus = 1\nboot_timeout = 120\n\n%s", boot, src ? src : ".", rest);
	qtest_write(path, text, 0644);
}

static int setup(void **state)
{
	if (!mkdtemp(dir))
		return -1;
	matrix("per-cell", "per-cell");
	matrix("per-kernel", "per-kernel");
	return 0;
}

static int teardown(void **state)
{
	return cb_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_per_kernel_against_per_cell),
					    cmocka_unit_test(test_killed_batch_resumes) };

	qemu_require();
	return cmocka_run_group_tests(tests, setup, teardown);
}
