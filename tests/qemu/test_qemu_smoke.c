// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_qemu_smoke.c - integration: the real thing. Build the baseline recipe (cached
 * after the first run), boot it (KVM if it comes up, else TCG), run a short THP cell of
 * configs/smoke-qemu.ini in the guest, and check what came back through 9p: meta.json
 * complete with the accel recorded, trace.dat with compaction events, vmstat snapshots
 * whose compact_stall delta is backed by as many try_to_compact_pages in the trace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <trace-cmd/trace-cmd.h>
#include <event-parse.h>

#include "itest.h"
#include "qemu_common.h"

static char dir[] = "/tmp/cb-test-qemu-smoke-XXXXXX";
static char cell[1200];

struct count {
	struct tep_handle *tep;
	long compaction, tries;
	int id_try;
};

static int on_event(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct count *c = data;
	struct tep_event *e = tep_find_event(c->tep, tep_data_type(c->tep, r));

	if (e && !strcmp(e->system, "compaction"))
		c->compaction++;
	c->tries += e && e->id == c->id_try;
	return 0;
}

static long vmstat(const char *file, const char *key)
{
	long v = itest_vmstat(cell, file, key);

	assert_true(v >= 0);
	return v;
}

static void test_smoke_cell_in_guest(void **state)
{
	char cfg[1024], out[1024], log[1024], path[1400], v[64], *text;
	char *args[] = { "run", cfg, "-o", out, NULL };
	struct count c = { 0 };
	struct tracecmd_input *h;
	long delta;
	double busy, guest, wall, share;
	uint64_t t0;

	snprintf(cfg, sizeof(cfg), "%s/configs/smoke-qemu.ini", getenv("SOURCE_ROOT"));
	snprintf(out, sizeof(out), "%s/run", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	unsetenv("COMPACTBENCH_QEMU_APPEND");
	t0 = cb_now_ns();
	assert_int_equal(qtest_run(log, args), 0);
	text = qtest_log(log);
	free(text);
	print_message("run took %.0f s (kernel build included if it was not cached)\n",
		      (cb_now_ns() - t0) / 1e9);
	snprintf(cell, sizeof(cell), "%s/linux61.pro0.thp-frag.r1", out);

	snprintf(path, sizeof(path), "%s/meta.json", cell);
	assert_string_equal(itest_json(path, "status", v, sizeof(v)), "complete");
	assert_string_equal(itest_json(path, "target", v, sizeof(v)), "qemu");
	itest_json(path, "qemu.accel", v, sizeof(v));
	assert_true(!strcmp(v, "tcg") || !strcmp(v, "kvm"));
	print_message("accel %s, ", v);
	print_message("agent started after %s s\n", itest_json(path, "qemu.agent_start_s", v, sizeof(v)));
	/*
	 * the host's CPU while the guest ran: its busy time holds QEMU's own, and fits in the
	 * host's CPUs over the span. /proc/stat samples clock ticks while QEMU's time is the
	 * scheduler's exact sum: a 10 s window on this VM read 8% less busy time than QEMU's,
	 * and a whole cell 0.4% less (10.52 s against 10.56 s), so 15% of slack below.
	 */
	busy = strtod(itest_json(path, "qemu.host_busy_s", v, sizeof(v)), NULL);
	guest = strtod(itest_json(path, "qemu.guest_cpu_s", v, sizeof(v)), NULL);
	wall = strtod(itest_json(path, "qemu.host_wall_s", v, sizeof(v)), NULL);
	share = strtod(itest_json(path, "qemu.host_other_share", v, sizeof(v)), NULL);
	print_message("host busy %.2f s, QEMU %.2f s in %.2f s, other work %.1f%% of the host\n",
		      busy, guest, wall, share * 100);
	assert_true(guest > 0);
	assert_true(busy >= 0.85 * guest);
	assert_true(busy <= wall * sysconf(_SC_NPROCESSORS_ONLN) * 1.02 + 0.02);
	assert_true(share >= 0 && share <= 1);
	snprintf(path, sizeof(path), "%s/console.log", cell);
	assert_int_equal(access(path, R_OK), 0);

	snprintf(path, sizeof(path), "%s/trace.dat", cell);
	h = tracecmd_open(path, 0);
	assert_non_null(h);
	c.tep = tracecmd_get_tep(h);
	c.id_try = tep_find_event_by_name(c.tep, "compaction", "mm_compaction_try_to_compact_pages")->id;
	assert_int_equal(tracecmd_iterate_events(h, NULL, 0, on_event, &c), 0);
	tracecmd_close(h);

	delta = vmstat("vmstat.after", "compact_stall") - vmstat("vmstat.before", "compact_stall");
	print_message("compaction events %ld, try_to_compact_pages %ld, compact_stall delta %ld\n",
		      c.compaction, c.tries, delta);
	assert_true(c.compaction > 0);
	assert_true(delta >= 0);
	/* every counted stall entered try_to_compact_pages, which the trace saw (2 of slack
	 * for the window's edges) */
	assert_true(c.tries + 2 >= delta);
	/*
	 * and agree as on the host: the analyzer's stall rule (the one test_smoke.c writes
	 * out, plus 6.1's compaction_suitable success) over the vmstat window gives the
	 * compact_stall delta, within its stated tolerance
	 */
	assert_true(delta > 0);
	snprintf(path, sizeof(path), "%s/summary.json", cell);
	print_message("trace stalls %s vs compact_stall %s\n",
		      itest_json(path, "crosscheck.trace_stalls", v, sizeof(v)),
		      itest_json(path, "crosscheck.vmstat_compact_stall", log, sizeof(log)));
	assert_string_equal(itest_json(path, "crosscheck.agree", v, sizeof(v)), "true");

	/*
	 * The guest kernel has kprobes (base.config): the collector put its pairs on the slow
	 * path (a .constprop clone here) and __alloc_pages_direct_compact, and the analyzer ran
	 * the probe method beside the tracepoint one. The captured order is checked against
	 * what the workload asks for: thp-demand only faults PMD-sized THP regions, so every
	 * slow-path call that compacted must carry order 9, the same order the
	 * mm_compaction_try_to_compact_pages tracepoint reports for those stalls; and each
	 * compact_stall entered __alloc_pages_direct_compact, so the probe saw at least as many
	 * calls as the counter grew.
	 */
	snprintf(path, sizeof(path), "%s/meta.json", cell);
	assert_string_equal(itest_json(path, "collector.mode", v, sizeof(v)), "kprobe");
	snprintf(path, sizeof(path), "%s/summary.json", cell);
	assert_string_equal(itest_json(path, "method", v, sizeof(v)), "probe");
	print_message("probe: %s slow-path calls that compacted, ",
		      itest_json(path, "probe.stalls", v, sizeof(v)));
	print_message("%s of order 9, ", itest_json(path, "probe.by_order.9.count", log, sizeof(log)));
	assert_string_equal(v, log);
	assert_true(strtol(v, NULL, 10) > 0);
	print_message("%s direct_compact calls; tracepoint stalls of order 9: %s\n",
		      itest_json(path, "probe.direct_compact_calls", v, sizeof(v)),
		      itest_json(path, "trace.stalls_by_order.9", log, sizeof(log)));
	assert_true(strtol(v, NULL, 10) >= delta);
	/* every tracepoint stall is order 9 too (within the crosscheck's tolerance of delta) */
	assert_true(labs(strtol(log, NULL, 10) - delta) <= 2 + delta / 100);
	assert_string_not_equal(itest_json(path, "method_comparison.count.probe", v, sizeof(v)),
				"(missing)");
}

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	return cb_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_smoke_cell_in_guest) };

	qemu_require();
	return cmocka_run_group_tests(tests, setup, teardown);
}
