// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_qemu_demand.c - integration: the demand-driven kcompactd patch series, on the kernel
 * DEMAND_KVER names (6.1, the default: configs/kernels/patches/demand-kcompactd and
 * linux-6.1-demand.ini; 6.12: patches/demand-kcompactd-6.12 and linux-6.12-demand.ini).
 *
 * 1. The series applies to Debian's tarball, in order, without fuzz, and patch-off is laid
 *    out as stock: struct zone and pglist_data identical by pahole, compact_control the same
 *    size (demand_tree.c).
 * 2. On a kernel without the patch (this host), a [setting] with vm.compaction_demand_driven
 *    stops the run with an error that names the knob and its missing file.
 * 3. The patched kernel builds (cached after the first run), boots in QEMU and runs
 *    tests/qemu/demand-qemu.ini: proactive compaction off, frag-anon leaves only order-0
 *    holes, kernel-demand asks for orders 1-4 (dgram, stream) and thp-demand for order 9
 *    with thp.defrag = never (thp). With vm.compaction_demand_driven = 1 (read back from
 *    the guest's /proc/sys, so the sysctl exists):
 *    - compaction:mm_compaction_demand fires for each of orders 1..4 and kcompactd runs
 *      (compact_daemon_wake grows, and the pass traces its targets);
 *    - no allocation that may not wake kthreads woke kcompactd, and the THP faults without
 *      __GFP_KSWAPD_RECLAIM were counted (order 9) without waking it;
 *    - demand that was rate-limited (it may wake, did not) is served: a demand pass starts
 *      within the interval in force (the back-off of the pass running when the demand came
 *      may have doubled it), twice it for the guest's jiffies, plus the longest pass of the
 *      cell and a scheduling allowance, counted from the end of any kswapd span in it (the
 *      pass waits for kswapd), unless the trace (its last event of any kind) ended first;
 *    - passes start at least the 500 ms interval apart (the rate limit, less a jiffy), so
 *      never more than 121 in 60 s (demand_passes_bound()).
 *    With 0 the same workloads record no demand at all, although the event is enabled (its
 *    format is in trace.dat). On 6.12 only the setting on runs, and the dgram workload
 *    drives unix-dgram-big (100 KiB datagrams: orders 3-4) for order 4: unix-dgram's
 *    non-costly order-2 heads got frag-anon OOM-killed there in 1 of 2 runs even at 0.15 of
 *    MemAvailable, and pipe-resize's order-4 rings were counted 4 times in 15 s (issue 16).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "demand_passes.h"
#include "demand_trace.h"
#include "demand_tree.h"
#include "itest.h"
#include "qemu_common.h"

#define KNOB_FILE "/proc/sys/vm/compaction_demand_driven"
/* what a timer-woken kcompactd may be late by under TCG, on top of its longest pass */
#define SCHED_ALLOWANCE_NS 250000000LL
/*
 * The patch keeps time in jiffies, the trace in sched_clock (the TSC): under TCG on a loaded
 * host the guest's periodic tick loses ticks, and jiffies ran at 50-90% of trace time here
 * (load 8-15 on 2 cores): kcompactd asleep for the 0.21 s left of a 1 s interval woke 1.22 s
 * later; passes under back-off came 1.2-1.5 times their interval apart (32 s: 43-44 s). The
 * timer wheel adds up to 1/8. So an interval of N ms is allowed 2 N ms of trace time.
 */
#define JIFFIES_SLACK(ns) (ns)
/* passes start at least the 500 ms interval apart: less a jiffy of 10 ms, and 10 ms more */
#define MIN_PASS_GAP_NS 480000000ULL

static char dir[] = "/tmp/cb-test-qemu-demand-XXXXXX";
static const char *kver = "6.1";

/* @out: "SOURCE_ROOT/configs/kernels/" @what for the kernel under test */
static void kpath(char *out, size_t size, const char *what)
{
	snprintf(out, size, "%s/configs/kernels/%s", getenv("SOURCE_ROOT"), what);
}

static void test_series_applies_layout_stock(void **state)
{
	char tarball[256], series[1024], recipe[1024], fragment[1024], name[256];

	snprintf(tarball, sizeof(tarball), "/usr/src/linux-source-%s.tar.xz", kver);
	snprintf(name, sizeof(name), "patches/demand-kcompactd%s%s", strcmp(kver, "6.1") ? "-" : "",
		 strcmp(kver, "6.1") ? kver : "");
	kpath(series, sizeof(series), name);
	snprintf(name, sizeof(name), "linux-%s-demand.ini", kver);
	kpath(recipe, sizeof(recipe), name);
	kpath(fragment, sizeof(fragment), "base.config");
	demand_tree_check(dir, tarball, series, recipe, fragment);
}

static void test_knob_missing_is_named(void **state)
{
	char cfg[1100], out[1100], log[1100], *text;
	char *args[] = { "run", cfg, "-o", out, NULL };

	if (access(KNOB_FILE, F_OK) == 0) {
		print_message("skipped: this host's kernel has %s\n", KNOB_FILE);
		return;
	}
	snprintf(cfg, sizeof(cfg), "%s/missing.ini", dir);
	snprintf(out, sizeof(out), "%s/missing-run", dir);
	snprintf(log, sizeof(log), "%s/missing.log", dir);
	/* nothing is changed before the knobs: no start state, no memory limit */
	qtest_write(cfg, "[global]\nreps = 1\nstart_state = none\n\n[kernel host]\ntarget = host\n\n"
		    "[setting on]\nvm.compaction_demand_driven = 1\n\n"
		    "[workload idle]\ndemand = idle\ndemand.duration = 1s\n", 0644);
	/* refused before anything runs, as config check refuses it (issue 22): bad input */
	assert_int_equal(qtest_run(log, args), 2);
	text = qtest_log(log);
	assert_non_null(strstr(text, "missing.ini:9: [setting on] key "
				"'vm.compaction_demand_driven' (= 1): " KNOB_FILE
				" does not exist on the booted kernel"));
	assert_int_not_equal(access(out, F_OK), 0);	/* and no run directory */
	free(text);
}

static long vmstat(const char *cell, const char *file, const char *key)
{
	long v = itest_vmstat(cell, file, key);

	assert_true(v >= 0);
	return v;
}

/* meta.json's knobs.<name>: what the agent read back from the guest's file */
static void assert_knob(const char *cell, const char *name, const char *want)
{
	char path[1400];
	struct json_object *root, *knobs, *v;

	snprintf(path, sizeof(path), "%s/meta.json", cell);
	root = json_object_from_file(path);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "knobs", &knobs));
	assert_true(json_object_object_get_ex(knobs, name, &v));
	assert_string_equal(json_object_get_string(v), want);
	json_object_put(root);
}

/*
 * The most demand passes the back-off lets start within @window_ms: passes start at least
 * an interval apart, the interval is 500 ms << shift with shift <= 6, and each pass moves
 * the shift by one at most, so the tightest packing is 500 ms apart throughout (demand
 * that is met at every pass). For demand that cannot be met the interval doubles after
 * every pass: 0.5, 1, 2, ... 32 s, 7 passes in the first minute and 2 a minute after.
 */
static long demand_passes_bound(long window_ms, long min_interval_ms)
{
	return window_ms / min_interval_ms + 1;
}

/* the pass numbers' first events: one EV_TARGET per pass, in time order, into @starts */
static size_t pass_starts(const struct demand_count *c, unsigned long long *starts,
			  unsigned long long *longest)
{
	size_t n = 0;
	long last = -1;

	*longest = 0;
	for (size_t i = 0; i < c->nr; i++) {
		const struct ev *v = &c->ev[i];

		if (v->kind != EV_TARGET)
			continue;
		if (v->pass != last) {
			starts[n++] = v->ts;
			last = v->pass;
		} else if (n && v->ts - starts[n - 1] > *longest) {
			*longest = v->ts - starts[n - 1];
		}
	}
	return n;
}

/* @ts + @wait, restarted at the end of each kswapd span it meets (~0: awake at the end) */
static unsigned long long kswapd_deadline(const struct demand_count *c, unsigned long long ts,
					  unsigned long long wait)
{
	for (size_t i = 0; i < c->nr_awake; i++) {
		if (c->awake[i][0] > ts + wait || c->awake[i][1] < ts)
			continue;
		if (c->awake[i][1] == ~0ULL)
			return ~0ULL;
		ts = c->awake[i][1];
	}
	return ts + wait;
}

struct served {
	long checked, served, late, skipped_kswapd, skipped_end;
};

/*
 * The interval that times the first pass after @c->ev[@i]: the longest any demand event
 * reports from it until that pass (@next_start), as the pass running when the demand came
 * may have doubled it at its end (the back-off), and the next pass waits for that one.
 */
static unsigned long long interval_in_force(const struct demand_count *c, size_t i,
					    unsigned long long next_start)
{
	long ms = c->ev[i].interval_ms;

	for (size_t j = i + 1; j < c->nr && c->ev[j].ts <= next_start; j++)
		if (c->ev[j].kind == EV_DEMAND && c->ev[j].interval_ms > ms)
			ms = c->ev[j].interval_ms;
	return ms * 1000000ULL;
}

/* bug 1 of the review: rate-limited demand is served within its interval (see the top) */
static void check_served(const struct demand_count *c, struct served *s,
			 const unsigned long long *starts, size_t nr_starts,
			 unsigned long long longest)
{
	unsigned long long end = c->last_ts;

	for (size_t i = 0; i < c->nr; i++) {
		const struct ev *v = &c->ev[i];
		unsigned long long deadline, interval;
		size_t k = 0;

		if (v->kind != EV_DEMAND || !v->may_wake || v->woke)
			continue;
		while (k < nr_starts && starts[k] <= v->ts)
			k++;
		interval = interval_in_force(c, i, k < nr_starts ? starts[k] : end);
		deadline = kswapd_deadline(c, v->ts, interval + JIFFIES_SLACK(interval) + longest +
					   SCHED_ALLOWANCE_NS);
		if (deadline == ~0ULL) {
			s->skipped_kswapd++;
			continue;
		}
		if (deadline > end) {
			s->skipped_end++;
			continue;
		}
		s->checked++;
		if (k < nr_starts && starts[k] <= deadline)
			s->served++;
		else if (k < nr_starts)
			s->late++; /* a pass came, after the deadline: a slipped guest timer */
		else
			print_message("  unserved: demand of order %ld at %.3f s, interval %ld ms\n",
				      v->order, v->ts / 1e9, v->interval_ms);
	}
}

/*
 * the rate-limited demand of @out's patch-on cell of @workload whose deadline its trace
 * covers (what check_served can check), counted without asserting: for the retry below
 */
static long checkable_demand(const char *out, const char *workload)
{
	struct demand_count c = { 0 };
	struct served s = { 0 };
	unsigned long long *starts, longest;
	char cell[1400];
	size_t n;

	snprintf(cell, sizeof(cell), "%s/demand.on.%s.r1", out, workload);
	count_cell(cell, &c);
	starts = calloc(c.nr + 1, sizeof(*starts));
	assert_non_null(starts);
	n = pass_starts(&c, starts, &longest);
	check_served(&c, &s, starts, n, longest);
	free(starts);
	demand_count_free(&c);
	return s.checked;
}

/* the figures and checks of one cell with the patch on */
static void check_on_cell(const char *name, const struct demand_count *c, struct served *s,
			  long *thp_events)
{
	unsigned long long *starts = calloc(c->nr + 1, sizeof(*starts)), longest, first = 0,
			   last = 0;
	size_t n = pass_starts(c, starts, &longest), win = 0;
	long max_interval = 0, most = 0;

	for (size_t i = 0; i < c->nr; i++) {
		const struct ev *v = &c->ev[i];

		if (v->kind != EV_DEMAND)
			continue;
		/* nothing that may not wake kthreads woke kcompactd */
		assert_true(!v->woke || v->may_wake);
		if (v->order == THP_ORDER) {
			/* thp.defrag = never: GFP_TRANSHUGE_LIGHT, no __GFP_KSWAPD_RECLAIM */
			assert_int_equal(v->may_wake, 0);
			assert_int_equal(v->woke, 0);
			(*thp_events)++;
		}
		if (v->interval_ms > max_interval)
			max_interval = v->interval_ms;
		if (!first)
			first = v->ts;
		last = v->ts;
	}
	/* the most passes starting within any 60 s, and no two closer than the interval */
	for (size_t i = 0; i < n; i++) {
		if (i)
			assert_true(starts[i] - starts[i - 1] >= MIN_PASS_GAP_NS);
		while (starts[i] - starts[win] >= 60000000000ULL)
			win++;
		if ((long)(i - win + 1) > most)
			most = i - win + 1;
	}
	assert_true(most <= demand_passes_bound(60000, 500));
	check_served(c, s, starts, n, longest);
	print_message("  %s: %zu passes (longest %.0f ms) over %.1f s of demand, at most %ld in "
		      "60 s; interval up to %ld ms\n", name, n, longest / 1e6,
		      (last - first) / 1e9, most, max_interval);
	free(starts);
}

/* cut the section that starts at @head out of @text */
static void drop_section(char *text, const char *head)
{
	char *sec = strstr(text, head), *next = sec ? strstr(sec + 1, "\n[") : NULL;

	assert_non_null(sec);
	if (next)
		memmove(sec + 1, next + 1, strlen(next + 1) + 1);
	else
		sec[1] = '\0';
}

/*
 * tests/qemu/@ini with its recipe swapped for the kernel under test's, into @cfg (in the test's
 * directory, named @tag-KVER.ini); @drop_612: without [setting off], dgram on unix-dgram-big
 */
static void write_matrix(const char *ini_name, const char *tag, char *cfg, size_t size,
			 bool drop_612)
{
	char recipe[1100], name[128], *ini, *text, *p, *big;

	snprintf(cfg, size, "%s/tests/qemu/%s", getenv("SOURCE_ROOT"), ini_name);
	ini = cb_read_file(cfg, NULL);
	assert_non_null(ini);
	p = strstr(ini, "recipe = ");
	assert_non_null(p);
	*p = '\0';
	snprintf(name, sizeof(name), "linux-%s-demand.ini", kver);
	kpath(recipe, sizeof(recipe), name);
	p = strchr(p + 1, '\n');
	snprintf(cfg, size, "%s/%s-%s.ini", dir, tag, kver);
	if (asprintf(&text, "%srecipe = %s%s", ini, recipe, p) < 0)
		abort();
	if (drop_612) {
		drop_section(text, "\n[setting off]\n");
		p = strstr(text, "demand.paths = unix-dgram\n");
		assert_non_null(p);
		if (asprintf(&big, "%.*s%s%s", (int)(p - text), text, "demand.paths = unix-dgram-big",
			     p + 25) < 0)
			abort();
		free(text);
		text = big;
	}
	qtest_write(cfg, text, 0644);
	free(text);
	free(ini);
}

static void test_demand_in_guest(void **state)
{
	char cfg[1100], out[1100], log[1100], cell[1400], v[64], *text;
	char *args[] = { "run", cfg, "-o", out, NULL };
	static const char *const settings[] = { "on", "off" },
				 *const workloads[] = { "dgram", "stream", "thp" };
	size_t nr_settings = strcmp(kver, "6.1") ? 1 : 2;
	uint64_t t0 = cb_now_ns();
	struct served served = { 0 };
	long thp_events = 0;
	bool unchecked = false;
	int rc;

	/* the matrix, on the kernel under test (6.12: the setting on only) */
	write_matrix("demand-qemu.ini", "demand", cfg, sizeof(cfg), nr_settings == 1);
	snprintf(out, sizeof(out), "%s/run", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	unsetenv("COMPACTBENCH_QEMU_APPEND");
	rc = qtest_run(log, args);
	text = qtest_log(log);
	if (rc && strstr(text, ".r1: FAILED") && strstr(text, "killed by signal 9")) {
		/*
		 * unix-dgram's order 2-3 skb heads are not "costly": when compaction cannot
		 * make them on this fragmentation the allocator OOM-kills, and frag-anon is
		 * the biggest process (seen in about 1 run of 3 on 6.1 and 6.12, patch on or
		 * off; once, 2026-12-05, the stream cell's on 6.12). The failed cells run
		 * again once (--resume); every cell must still end complete, and the retry
		 * is said in the test's output.
		 */
		char *resume[] = { "run", cfg, "-o", out, "--resume", NULL };

		print_message("a cell's fragmenter was OOM-killed: the failed cells once more "
			      "(run --resume)\n");
		free(text);
		rc = qtest_run(log, resume);
		text = qtest_log(log);
	}
	free(text);
	assert_int_equal(rc, 0);
	if (nr_settings == 2 && !checkable_demand(out, "dgram") && !checkable_demand(out, "stream")) {
		/* a safety net (issue 16): the stream cell once more, else bug 1 NOT CHECKED */
		char *resume[] = { "run", cfg, "-o", out, "--resume", NULL };

		print_message("no rate-limited demand the traces cover: the stream cell once more "
			      "(run --resume)\n");
		snprintf(cell, sizeof(cell), "%s/demand.on.stream.r1", out);
		assert_int_equal(cb_rm_rf(cell), 0);
		assert_int_equal(qtest_run(log, resume), 0);
		unchecked = !checkable_demand(out, "stream");
	}
	print_message("linux-%s-demand: run took %.0f s (kernel build included if it was not "
		      "cached)\n", kver, (cb_now_ns() - t0) / 1e9);

	for (size_t s = 0; s < nr_settings; s++) {
		struct demand_count c = { 0 };
		bool on = !strcmp(settings[s], "on");
		long wake = 0, total = 0;

		/* one workload per demand path; the setting's figures are their sum */
		for (size_t w = 0; w < 3; w++) {
			struct demand_count one = { 0 };
			char path[1500];
			long d;

			snprintf(cell, sizeof(cell), "%s/demand.%s.%s.r1", out, settings[s], workloads[w]);
			snprintf(path, sizeof(path), "%s/meta.json", cell);
			assert_string_equal(itest_json(path, "status", v, sizeof(v)), "complete");
			assert_string_equal(itest_json(path, "target", v, sizeof(v)), "qemu");
			/* the guest has the sysctl: the agent wrote it and read it back */
			assert_knob(cell, "vm.compaction_demand_driven", on ? "1" : "0");
			assert_knob(cell, "vm.compaction_proactiveness", "0");
			assert_knob(cell, "thp.defrag", "never");

			count_cell(cell, &one);
			d = vmstat(cell, "vmstat.after", "compact_daemon_wake") -
			    vmstat(cell, "vmstat.before", "compact_daemon_wake");
			print_message("%s.%s: compact_daemon_wake delta %ld; demand events by order:",
				      settings[s], workloads[w], d);
			for (int o = 1; o < NR_ORDERS; o++) {
				if (one.demand[o])
					print_message(" %d:%ld (count up to %ld)", o, one.demand[o],
						      one.max_demand[o]);
				c.demand[o] += one.demand[o];
				total += one.demand[o];
			}
			print_message("; target events %ld before, %ld after (%ld met)\n",
				      one.targets_before, one.targets_after, one.targets_met);
			if (on)
				check_on_cell(workloads[w], &one, &served, &thp_events);
			c.other_orders += one.other_orders;
			c.targets_before += one.targets_before;
			c.targets_after += one.targets_after;
			wake += d;
			demand_count_free(&one);
		}
		assert_int_equal(c.other_orders, 0);
		if (!on) {
			/* the patch off: nothing counted, no demand pass */
			assert_int_equal(total, 0);
			assert_int_equal(c.targets_before + c.targets_after, 0);
			continue;
		}
		/* kernel-demand's orders 1-4 met fragmentation, were counted */
		for (int o = 1; o <= 4; o++)
			assert_true(c.demand[o] > 0);
		/* and kcompactd ran the demand pass: it traced its targets and counted wakes */
		assert_true(c.targets_before > 0);
		assert_true(wake > 0);
		/* the THP faults without __GFP_KSWAPD_RECLAIM were counted, none woke */
		assert_true(thp_events > 0);
		print_message("rate-limited demand: %ld checked, %ld served in time (%ld skipped: "
			      "kswapd awake, %ld: trace ended first)\n", served.checked,
			      served.served, served.skipped_kswapd, served.skipped_end);
		if (nr_settings == 2 && unchecked)
			print_message("bug 1 (rate-limited demand served) NOT CHECKED: the demand of "
				      "both runs of the stream cell ended before any deadline\n");
		else if (nr_settings == 2)
			assert_true(served.checked > 0);
		/*
		 * Bug 1 was demand never served: every checked demand must see a pass before the
		 * trace ends, up to 1% after its deadline (late ones came during a pass that then
		 * doubled the interval, or while jiffies ran slow; both are in the deadline now).
		 */
		print_message("late: %ld\n", served.late);
		assert_int_equal(served.served + served.late, served.checked);
		assert_true(served.late * 100 <= served.checked);
	}
}

/*
 * Why a back-off run made too few passes, from its trace: after the last pass (or the first
 * THP demand, if none), how long the THP demand went on, how long kswapd was awake in that
 * time (no pass runs while it is: the series puts the pass off by an interval), and how
 * many of the demand events might wake kcompactd and did. True if kswapd was awake for
 * more than half of it: the workload did not give the back-off its premise, so the run
 * may be tried once more. With kswapd asleep and no pass, the series stopped serving
 * demand: a bug, no retry.
 */
static bool backoff_kswapd_held_it(const struct demand_count *c, const struct pass_info *p,
				   size_t n)
{
	unsigned long long from = n ? p[n - 1].end : 0, to = 0, awake;
	long events = 0, may_wake = 0, woke = 0;

	for (size_t i = 0; i < c->nr; i++) {
		const struct ev *v = &c->ev[i];

		if (v->kind != EV_DEMAND || v->order != THP_ORDER || (n && v->ts <= from))
			continue;
		if (!from)
			from = v->ts;
		to = v->ts;
		events++;
		may_wake += v->may_wake != 0;
		woke += v->woke != 0;
	}
	if (to <= from) {
		print_message("  no THP demand after the last pass: the workload's demand ended\n");
		return false;
	}
	awake = kswapd_awake_ns(c, from, to);
	print_message("  %zu passes; then %.1f s of THP demand (%ld events, %ld might wake "
		      "kcompactd, %ld woke it), kswapd awake %.1f s of it (%.0f%%, %zu spans "
		      "in the trace)\n", n, (to - from) / 1e9, events, may_wake, woke,
		      awake / 1e9, 100.0 * awake / (to - from), c->nr_awake);
	return awake * 2 > to - from;
}

/*
 * the back-off matrix once (@attempt 1, 2) into the test's directory: its cell into @c;
 * false (and nothing in @c) if the guest OOM-killed the fragmenter on the first attempt
 */
static bool backoff_run(const char *cfg, int attempt, struct demand_count *c)
{
	char out[1100], log[1100], cell[1400], *text;
	char *args[] = { "run", (char *)cfg, "-o", out, NULL };
	bool oom;
	int rc;

	snprintf(out, sizeof(out), "%s/backoff-run%d", dir, attempt);
	snprintf(log, sizeof(log), "%s/backoff%d.log", dir, attempt);
	rc = qtest_run(log, args);
	text = qtest_log(log);
	oom = rc && strstr(text, "frag-unmovable ended") && strstr(text, "killed by signal 9");
	free(text);
	if (oom && attempt == 1)
		return false;
	assert_int_equal(rc, 0);
	snprintf(cell, sizeof(cell), "%s/demand.on.unmeetable.r1", out);
	assert_knob(cell, "vm.compaction_demand_driven", "1");
	assert_knob(cell, "vm.compact_unevictable_allowed", "0");
	assert_knob(cell, "thp.defrag", "defer");
	count_cell(cell, c);
	return true;
}

/*
 * The back-off, measured: demand that compaction cannot meet (tests/qemu/backoff-qemu.ini,
 * 6.1 only) for over two minutes. A pass that fails to bring the targets closer doubles the
 * interval (0.5, 1, 2, ... 32 s, as the demand events report it), the next pass starts no
 * sooner than that, and so at most 7 passes start in the first minute and 2 in the second:
 * the bound the series states, a property of the patch. A pass that brings them closer
 * halves it, one that meets them resets it to 0.5 s: in 4 of 5 runs on 2026-12-05/06 (CI's
 * among them) one of the first two passes got closer. In the one whose trace was kept, pass
 * 2 migrated the movable pages of the zone's first 40 MB (pfn 0x201-0x2a00) and freed an
 * order-9 page there, the one the target asked for; no later pass found one more. So every
 * interval is checked against the rule its pass calls for (demand_pass_rule_holds()), and
 * the bound is counted from the first pass after the last that met or got closer; at least
 * 6 such passes must follow and 4 of their intervals be seen to double, so a rule that
 * never doubles still fails. The interval a pass set is the one the last demand event up
 * to the next pass's end reports (demand_passes()). CI's run of 2026-12-06 failed the rule
 * once, its pass figures lost: until then the first demand event after any of a pass's
 * targets was taken, and a demand event during a pass reports the interval before it. A
 * pass that migrates takes 0.1 s and more under TCG (21 ms for one that migrated nothing),
 * and that run had one (THP success 1.3%), against a demand event every 2 s. An interval
 * no event reported is not checked: after the last pass, or pass 1's in a fresh clone on
 * 2026-12-06, where the demand event that woke pass 2 (woke=1) was traced after pass 2 had
 * ended. Such a late event is still read right: kcompactd_count_demand() reads the interval
 * for it after the wake-up, just before tracing it, so it reports the interval of the pass
 * it woke, in that pass's span. It would report the one before only if the pass set its
 * interval between that read and the event's timestamp, or between its last target event
 * and kcompactd_demand_backoff() (the end of its zone loop): a few microseconds each, against
 * a demand event every 2 s.
 * Once in about 6 runs (sessions 7-9) a run made 2 passes and then none in 150 s; its trace
 * was lost. The series runs no pass while kswapd is awake, and the mlocked filler may keep
 * kswapd from sleeping: if the trace says so the run is tried once more (said in the
 * output, with the figures); with kswapd asleep, too few passes fail at once. A run whose
 * fragmenter the guest OOM-killed is also tried once more; one retry in all.
 */
static void test_backoff_in_guest(void **state)
{
	char cfg[1100];
	struct demand_count c = { 0 };
	struct pass_info p[64];
	unsigned long long t0, last = 0;
	long minute[2] = { 0 };
	int attempt = 1; /* at most one retry, for either reason */
	size_t n, from, doubled = 0;

	if (strcmp(kver, "6.1")) {
		print_message("skipped: the back-off is measured on 6.1 (qemu-demand)\n");
		return;
	}
	write_matrix("backoff-qemu.ini", "backoff", cfg, sizeof(cfg), false);
	if (!backoff_run(cfg, 1, &c)) {
		/*
		 * the mlocked filler leaves the guest little to give: once (2026-12-05) its OOM
		 * killer took frag-unmovable during the demand, which ends the cell
		 */
		print_message("the guest OOM-killed the fragmenter: the back-off run once more\n");
		backoff_run(cfg, ++attempt, &c);
	}
	n = demand_passes(&c, p, 64);
	if (n < 6 && attempt == 1 && backoff_kswapd_held_it(&c, p, n)) {
		print_message("kswapd kept the demand passes off: the back-off run once more\n");
		demand_count_free(&c);
		memset(&c, 0, sizeof(c));
		backoff_run(cfg, ++attempt, &c);
		n = demand_passes(&c, p, 64);
	}
	/* enough passes to see the doubling, every one traced (no pass without targets) */
	if (n < 6 && attempt > 1)
		backoff_kswapd_held_it(&c, p, n); /* why, for the run retried */
	from = demand_passes_progressed(p, n);
	if (n < from + 6)
		print_message("  %zu passes, %zu after the last that met or got closer: 6 needed\n",
			      n, n - from);
	assert_true(n >= from + 6);
	t0 = p[from].start;
	/*
	 * the premise: the THP demand lasted two minutes past the first pass after the last
	 * that met or got closer
	 */
	for (size_t i = 0; i < c.nr; i++)
		if (c.ev[i].kind == EV_DEMAND && c.ev[i].order == THP_ORDER)
			last = c.ev[i].ts;
	assert_true(last >= t0 + 120000000000ULL);
	for (size_t i = 0; i < n; i++) {
		unsigned long long gap = i ? p[i].start - p[i - 1].start : 0;
		long prev = i ? p[i - 1].interval_ms : 0;

		print_message("  pass %ld at %+.1f s (+%.3f s)%s; interval after it %ld ms\n",
			      p[i].nr, ((double)p[i].start - t0) / 1e9, gap / 1e9,
			      p[i].met ? ", met" : p[i].progress ? ", progress" : "",
			      p[i].interval_ms);
		assert_int_equal(p[i].nr, p[0].nr + (long)i);
		if (i >= from && p[i].start - t0 < 120000000000ULL)
			minute[(p[i].start - t0) / 60000000000ULL]++;
		/*
		 * the interval is known from the demand events after a pass (demand_passes()):
		 * a pass with none (the last; see above for the others) is not checked
		 */
		if (!i || !prev || !p[i].interval_ms)
			continue;
		/*
		 * the interval follows the series' rule, and the pass waited for the one before:
		 * the interval counts from the wake-up the patch granted, the trace sees a pass
		 * when its first target is traced, which under TCG can come late (a fresh clone on
		 * 2026-12-07 failed a jiffy's slack, its gaps printed only to 0.1 s: pass 3 at +2.0
		 * s after 2000, or pass 9 at +32.0 s after 32000); so a jiffy plus the scheduling
		 * allowance. A mismatch is said on stderr, which a CI log keeps with cmocka's.
		 */
		if (!demand_pass_rule_holds(&p[i], prev))
			print_error("pass %ld (%.3f s long%s): interval %ld ms after %ld: not the "
				    "series' rule\n", p[i].nr, (p[i].end - p[i].start) / 1e9,
				    p[i].met ? ", met" : p[i].progress ? ", progress" : "",
				    p[i].interval_ms, prev);
		assert_true(demand_pass_rule_holds(&p[i], prev));
		if (gap + 10000000ULL + SCHED_ALLOWANCE_NS < (unsigned long long)prev * 1000000ULL)
			print_error("pass %ld started %.3f s after pass %ld, its interval %ld ms\n",
				    p[i].nr, gap / 1e9, p[i - 1].nr, prev);
		assert_true(gap + 10000000ULL + SCHED_ALLOWANCE_NS >=
			    (unsigned long long)prev * 1000000ULL);
		doubled += i >= from;
	}
	print_message("back-off: %zu passes, %zu of them after the last that met or got closer "
		      "(%zu intervals seen to double): %ld in the first minute, %ld in the second "
		      "(bound 7 and 2)\n", n, n - from, doubled, minute[0], minute[1]);
	/* the doubling seen, not taken on trust: most of those passes' intervals were known */
	assert_true(doubled >= 4);
	assert_true(minute[0] <= 7);
	assert_true(minute[1] <= 2);
	demand_count_free(&c);
}

static int setup(void **state)
{
	if (getenv("DEMAND_KVER"))
		kver = getenv("DEMAND_KVER");
	if (!mkdtemp(dir))
		return -1;
	/* a journal of our own, apart from any other run's */
	setenv("COMPACTBENCH_STATE_DIR", dir, 1);
	return 0;
}

static int teardown(void **state)
{
	const char *keep = getenv("DEMAND_KEEP");

	/* DEMAND_KEEP=1 keeps the runs and the trees to look at (0 or empty: not) */
	if (keep && *keep && strcmp(keep, "0")) {
		fprintf(stderr, "kept %s\n", dir);
		return 0;
	}
	return cb_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series_applies_layout_stock),
		cmocka_unit_test(test_knob_missing_is_named),
		cmocka_unit_test(test_demand_in_guest),
		cmocka_unit_test(test_backoff_in_guest),
	};
	char tarball[256];

	qemu_require();
	snprintf(tarball, sizeof(tarball), "/usr/src/linux-source-%s.tar.xz",
		 getenv("DEMAND_KVER") ? getenv("DEMAND_KVER") : "6.1");
	if (access(tarball, R_OK) < 0 || access("/usr/bin/pahole", X_OK) < 0) {
		fprintf(stderr, "skipped: %s or pahole is missing (./run.sh installs them)\n",
			tarball);
		return 77;
	}
	/* e.g. DEMAND_TEST=test_series_applies_layout_stock runs that one alone */
	if (getenv("DEMAND_TEST"))
		cmocka_set_test_filter(getenv("DEMAND_TEST"));
	return cmocka_run_group_tests(tests, setup, teardown);
}
