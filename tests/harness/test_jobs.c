// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_jobs.c - the pure parts of `run --jobs` and of a cell's time breakdown:
 *   - the CPU plan on made-up CPU lists (which CPUs each guest gets, a cpuset with holes,
 *     refusal when N x vCPUs is more than the CPUs, with the numbers in the message);
 *   - a synthetic breakdown: known parts and wall time give the sum and what is
 *     unaccounted, and a guest's parts are taken from its meta.json text (only the agent's);
 *   - the run's estimate from a config's settle and durations, and the time left scaled
 *     by the cells done, against sums worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobs_plan.h"
#include "matrix.h"
#include "run_progress.h"
#include "timing.h"
#include "util.h"
#include "target.h"
#include "policy.h"

static char tmpdir[] = "/tmp/cb-test-jobs-XXXXXX";

static void test_plan_in_order(void **state)
{
	static const int cpus[] = { 0, 1, 2, 3 };
	int slots[4];
	char err[512];

	assert_int_equal(cb_jobs_plan(cpus, 4, 2, 2, slots, err, sizeof(err)), 0);
	/* guest 0 gets CPUs 0,1, guest 1 gets 2,3: none shared */
	assert_int_equal(slots[0], 0);
	assert_int_equal(slots[1], 1);
	assert_int_equal(slots[2], 2);
	assert_int_equal(slots[3], 3);
	assert_int_equal(cb_jobs_plan(cpus, 4, 4, 1, slots, err, sizeof(err)), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(slots[i], i);
	/* fewer guests than the CPUs allow: the first CPUs, the rest left to the harness */
	assert_int_equal(cb_jobs_plan(cpus, 4, 1, 2, slots, err, sizeof(err)), 0);
	assert_int_equal(slots[0], 0);
	assert_int_equal(slots[1], 1);
}

/* a cpuset with holes (taskset -c 1,3,4,6,9): only CPUs of the set, each once */
static void test_plan_with_holes(void **state)
{
	static const int cpus[] = { 1, 3, 4, 6, 9 };
	int slots[5];
	char err[512];

	assert_int_equal(cb_jobs_plan(cpus, 5, 2, 2, slots, err, sizeof(err)), 0);
	assert_int_equal(slots[0], 1);
	assert_int_equal(slots[1], 3);
	assert_int_equal(slots[2], 4);
	assert_int_equal(slots[3], 6);
	assert_int_equal(cb_jobs_plan(cpus, 5, 5, 1, slots, err, sizeof(err)), 0);
	assert_int_equal(slots[4], 9);
}

static void test_plan_refuses_oversubscription(void **state)
{
	static const int two[] = { 0, 1 }, holes[] = { 1, 3, 4, 6, 9 };
	int slots[16];
	char err[512];

	errno = 0;
	assert_int_equal(cb_jobs_plan(two, 2, 2, 2, slots, err, sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, "2 guests x 2 vCPUs = 4 host CPUs"));
	assert_non_null(strstr(err, "may use 2 (CPUs 0-1)"));
	assert_non_null(strstr(err, "at most 1 guest(s) of 2 vCPUs"));
	assert_int_equal(cb_jobs_plan(two, 2, 3, 1, slots, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "3 guests x 1 vCPUs = 3 host CPUs"));
	/* 3 x 2 = 6 > 5: refused even though 5 CPUs are more than 2 guests need */
	assert_int_equal(cb_jobs_plan(holes, 5, 3, 2, slots, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "may use 5 (CPUs 1,3-4,6,9)"));
	assert_non_null(strstr(err, "at most 2 guest(s)"));
	assert_int_equal(cb_jobs_plan(two, 2, 0, 1, slots, err, sizeof(err)), -1);
	assert_int_equal(cb_jobs_plan(two, 2, 1, 0, slots, err, sizeof(err)), -1);
}

static void test_cpulist_format(void **state)
{
	static const int a[] = { 0, 1, 2, 5, 7, 8 }, b[] = { 3 };
	char buf[64];

	assert_string_equal(cb_cpulist_format(a, 6, buf, sizeof(buf)), "0-2,5,7-8");
	assert_string_equal(cb_cpulist_format(b, 1, buf, sizeof(buf)), "3");
	assert_string_equal(cb_cpulist_format(a, 0, buf, sizeof(buf)), "");
}

static double part(struct json_object *o, const char *name)
{
	struct json_object *parts, *x;

	assert_true(json_object_object_get_ex(o, "parts", &parts));
	assert_true(json_object_object_get_ex(parts, name, &x));
	return json_object_get_double(x);
}

static double field(struct json_object *o, const char *name)
{
	struct json_object *x;

	assert_true(json_object_object_get_ex(o, name, &x));
	return json_object_get_double(x);
}

/*
 * A qemu cell as the host sees it: boot 4.0 s, shutdown 0.5 s, fetch 0.1, analysis 0.4;
 * the guest's agent wrote setup 1.0, fragment 6.0, settle 5.0, demand 10.0, stop 2.0 (and
 * a "boot" of its own, which is not an agent part and must not be taken). Sum 29.0; a
 * wall of 29.4 leaves 0.4 s (1.36%) unaccounted.
 */
static void test_synthetic_breakdown(void **state)
{
	const char *guest = "{\"parts\": {\"setup\": 1.0, \"fragment\": 6.0, \"settle\": 5, "
			    "\"demand\": 10.0, \"stop\": 2.0, \"boot\": 99.0, \"bogus\": 7, "
			    "\"start_state\": -3}}";
	struct json_object *g = json_tokener_parse(guest), *gp, *o;
	struct cb_timing t;

	memset(&t, 0, sizeof(t));
	t.s[CB_PART_BOOT] = 4.0;
	t.s[CB_PART_SHUTDOWN] = 0.5;
	t.s[CB_PART_FETCH] = 0.1;
	t.s[CB_PART_ANALYSIS] = 0.4;
	t.remote_s = 24.2;
	assert_non_null(g);
	assert_true(json_object_object_get_ex(g, "parts", &gp));
	assert_int_equal(cb_timing_add_parts(&t, gp), 5);
	assert_true(fabs(cb_timing_sum(&t) - 29.0) < 1e-9);
	o = cb_timing_json(&t, 29.4);
	assert_true(fabs(part(o, "boot") - 4.0) < 1e-9);
	assert_true(fabs(part(o, "demand") - 10.0) < 1e-9);
	assert_true(fabs(part(o, "start_state")) < 1e-9);
	assert_true(fabs(field(o, "sum_s") - 29.0) < 1e-9);
	assert_true(fabs(field(o, "unaccounted_s") - 0.4) < 1e-9);
	assert_true(fabs(field(o, "unaccounted_fraction") - 0.4 / 29.4) < 1e-9);
	assert_true(fabs(field(o, "unaccounted_fraction")) <= 0.02);
	assert_true(fabs(field(o, "remote_agent_s") - 24.2) < 1e-9);
	json_object_put(o);
	/* a guest whose parts miss 2 s of its 24.2 (a lap lost): 2.4 of 29.4 unaccounted, 8% */
	t.s[CB_PART_FRAGMENT] -= 2.0;
	o = cb_timing_json(&t, 29.4);
	assert_true(fabs(field(o, "unaccounted_fraction") - 2.4 / 29.4) < 1e-9);
	assert_true(field(o, "unaccounted_fraction") > 0.02);
	json_object_put(o);
	json_object_put(g);
}

/* laps follow each other: their sum is the time from the start to the last lap, exactly */
static void test_laps_cover_the_interval(void **state)
{
	struct cb_timing t;
	double sum;

	cb_timing_start(&t);
	cb_timing_lap(&t, CB_PART_SETUP);
	usleep(1000);
	cb_timing_lap(&t, CB_PART_DEMAND);
	cb_timing_lap_remote(&t);
	cb_timing_lap(&t, CB_PART_DEMAND);
	sum = cb_timing_sum(&t) + t.remote_s;
	assert_true(fabs(sum - (double)(t.mark_ns - t.start_ns) / 1e9) < 1e-9);
	assert_true(t.s[CB_PART_DEMAND] >= 0.001);
	assert_string_equal(cb_timing_name(CB_PART_START_STATE), "start_state");
}

static const char est_cfg[] =
	"[global]\nreps = 2\ncooldown = 3s\n"
	"[kernel vm]\ntarget = qemu\nrecipe = r.ini\n"
	"[kernel here]\n"
	"[setting s]\nvm.compaction_proactiveness = 0\n"
	"[workload w]\nfragment = frag-anon\nsettle = 5s\ndemand = thp-demand\n"
	"demand.duration = 30s\nquick.demand.duration = 4s\n"
	"[workload r]\nfragment = frag-anon\nsettle = 5s\ndemand = thp-demand\n"
	"demand.waves = 20\ndemand.period = 2s\ndemand.duration = 90s\n"
	"quick.demand.period = 1s\nquick.demand.duration = 15s\n";

/* the first cell of workload @w on the qemu kernel (@qemu) or the host one */
static const struct cb_cell *find_cell(const struct cb_cell *cells, size_t nr, const char *w,
				       bool qemu)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(cells[i].workload->name, w) &&
		    (cells[i].kernel->cls == cb_target_class_find("qemu")) == qemu)
			return &cells[i];
	fail_msg("no cell of workload %s", w);
	return NULL;
}

/*
 * settle 5 + demand 30 + the overhead (qemu) or + cooldown 3 + the overhead (host);
 * with --quick the demand's quick duration, 4 s. Recurring demand r: 20 waves x 2 s = 40 s
 * (under its 90 s bound); with --quick 20 x 1 s = 20 s is over its 15 s bound: 15 s
 */
static void test_estimate_from_config(void **state)
{
	char path[512], err[1024], text[64];
	struct cb_config *cfg;
	struct cb_cell *cells;
	struct cb_progress p = { 0 };
	const struct cb_cell *vm, *host;
	size_t nr;

	snprintf(path, sizeof(path), "%s/est.ini", tmpdir);
	assert_int_equal(cb_write_file_atomic(path, est_cfg, strlen(est_cfg)), 0);
	cfg = cb_config_load(path, err, sizeof(err));
	if (!cfg)
		fail_msg("%s", err);
	cells = cb_matrix_expand(cfg, 2, &nr);
	assert_int_equal(nr, 8);
	vm = find_cell(cells, nr, "w", true);
	host = find_cell(cells, nr, "w", false);
	assert_true(fabs(cb_est_cell_config_s(cfg, vm, false) - (35 + CB_EST_QEMU_OVERHEAD_S)) <
		    1e-9);
	assert_true(fabs(cb_est_cell_config_s(cfg, host, false) -
			 (38 + CB_EST_HOST_OVERHEAD_S)) < 1e-9);
	assert_true(fabs(cb_est_cell_config_s(cfg, vm, true) - (9 + CB_EST_QEMU_OVERHEAD_S)) <
		    1e-9);
	vm = find_cell(cells, nr, "r", true);
	assert_true(fabs(cb_est_cell_config_s(cfg, vm, false) - (45 + CB_EST_QEMU_OVERHEAD_S)) <
		    1e-9);
	assert_true(fabs(cb_est_cell_config_s(cfg, vm, true) - (20 + CB_EST_QEMU_OVERHEAD_S)) <
		    1e-9);

	/* the time left: 3 cells of 10 s estimated, the first took 20 s: 2 x 10 x 2 = 40 s */
	p.nr = 3;
	p.jobs = 1;
	p.est_s = (double[]){ 10, 10, 10 };
	p.parallel = (bool[]){ false, false, false };
	p.done = (bool[]){ false, false, false };
	assert_true(fabs(cb_progress_total_s(&p) - 30) < 1e-9);
	cb_progress_done(&p, 0, 20.0);
	cb_progress_left(&p, text, sizeof(text));
	assert_string_equal(text, "about 40 s left");
	/* two of them at once (qemu cells, --jobs 2): the parallel part halves, 20 s */
	p.jobs = 2;
	p.parallel[1] = p.parallel[2] = true;
	cb_progress_left(&p, text, sizeof(text));
	assert_string_equal(text, "about 20 s left");
	cb_duration_text(5400, text, sizeof(text));
	assert_string_equal(text, "90 min");
	cb_duration_text(3 * 3600 + 5 * 60, text, sizeof(text));
	assert_string_equal(text, "3 h 05 min");
	free(cells);
	cb_config_free(cfg);
}

static int setup(void **state)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	return cb_rm_rf(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_in_order),
		cmocka_unit_test(test_plan_with_holes),
		cmocka_unit_test(test_plan_refuses_oversubscription),
		cmocka_unit_test(test_cpulist_format),
		cmocka_unit_test(test_synthetic_breakdown),
		cmocka_unit_test(test_laps_cover_the_interval),
		cmocka_unit_test(test_estimate_from_config),
	};

	/* the target and policy checks config loading runs (as main() registers them) */
	cb_targets_register();
	cb_policies_register();
	return cmocka_run_group_tests(tests, setup, teardown);
}
