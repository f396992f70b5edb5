// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_qemu_saved.c - integration: [kernel] guest_state = saved (qemu_state.h,
 * guest_state.h). Two settings x two repetitions of the smoke burst: per repetition one
 * guest fragments and is saved, and both settings' cells start from that file.
 *
 * That they did is checked on what the guest itself wrote, not on what the host says:
 * the fragmenter's JSON lines up to its "ready" (its fill time to the nanosecond, the
 * buddyinfo it read) were written before the save, so the two cells of one repetition
 * hold them byte for byte, while the two repetitions, fragmented by two boots, do not.
 * Also: every cell complete and saying which state it came from (meta.json, and
 * summary.json's start_state, the same id for both cells of a repetition), the fragment
 * phase run with proactiveness 0 and the cell with its setting's; memory_limit (768 MiB of
 * the 1 GiB guest) reserved once, before the fragmenter (hugetlb pages in the fragment
 * half's knobs, none in the cell's), and the window it sets read by the fragmenter before
 * the save and by the demand after the load; no state file, socket directory or QEMU left
 * behind, and a config the mode cannot run (no fragment phase, --jobs) refused by name
 * before anything boots.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <glob.h>
#include <json-c/json.h>

#include "itest.h"
#include "qemu_common.h"

static char dir[] = "/tmp/cb-test-qemu-saved-XXXXXX";

/* the fragmenter's output of @cell up to and including its ready line (malloc'ed) */
static char *before_save(const char *out, const char *cell)
{
	char path[1400], *text, *ready, *end;

	snprintf(path, sizeof(path), "%s/%s/workload/1-fragment-frag-anon.jsonl", out, cell);
	text = cb_read_file(path, NULL);
	assert_non_null(text);
	ready = strstr(text, "\"phase\":\"ready\"");
	assert_non_null(ready);
	end = strchr(ready, '\n');
	assert_non_null(end);
	end[1] = '\0';
	return text;
}

/* meta.json's @obj (dotted path) member @knob, a key with dots ("vm.nr_hugepages") */
static const char *knob(const char *meta, const char *obj, const char *name, char *buf,
			size_t size)
{
	struct json_object *m = json_object_from_file(meta), *o = m, *v = NULL;
	char k[128], *tok, *save;

	assert_non_null(m);
	snprintf(k, sizeof(k), "%s", obj);
	for (tok = strtok_r(k, ".", &save); o && tok; tok = strtok_r(NULL, ".", &save))
		o = json_object_object_get_ex(o, tok, &v) ? v : NULL;
	assert_non_null(o);
	snprintf(buf, size, "%s", json_object_object_get_ex(o, name, &v) ?
			 json_object_get_string(v) : "(missing)");
	json_object_put(m);
	return buf;
}

/*
 * the window memory_limit set (768 MiB), as the workloads of @cell read it: the fragmenter
 * before the save, the demand after the load, so the guest's environment came through it
 */
static void window_read(const char *out, const char *cell)
{
	static const char *const file[] = { "1-fragment-frag-anon", "2-demand-thp-demand" };
	char path[1400], *text;

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s/workload/%s.jsonl", out, cell, file[i]);
		text = cb_read_file(path, NULL);
		assert_non_null(text);
		*strchrnul(text, '\n') = '\0';	/* the start line */
		assert_non_null(strstr(text, "\"window_bytes\":805306368,\"window_from\":"
					     "\"COMPACTBENCH_WINDOW\""));
		free(text);
	}
}

/* /tmp/cb-qemu.* directories: the sockets' (qemu_state.h) */
static size_t socket_dirs(void)
{
	glob_t g;
	size_t n;

	if (glob("/tmp/cb-qemu.*", 0, NULL, &g))
		return 0;
	n = g.gl_pathc;
	globfree(&g);
	return n;
}

static void test_saved_states(void **state)
{
	static const char *const set[] = { "pro0", "pro20" };
	char cfg[1024], out[1024], log[1024], path[1400], v[128], pattern[1400];
	char *args[] = { "run", cfg, "-o", out, "--reps", "2", NULL };
	char *frag[2][2], id[2][2][64];
	size_t dirs0 = socket_dirs();
	glob_t g;

	snprintf(cfg, sizeof(cfg), "%s/saved.ini", dir);
	snprintf(out, sizeof(out), "%s/run", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	qemu_matrix_global(cfg, "memory_limit = 768M\n", "memory = 1G\ncpus = 2\nguest_state = saved\n",
		    "[setting pro0]\nvm.compaction_proactiveness = 0\nthp.enabled = madvise\n"
		    "thp.defrag = madvise\n"
		    "[setting pro20]\nvm.compaction_proactiveness = 20\nthp.enabled = madvise\n"
		    "thp.defrag = madvise\n"
		    "[workload burst]\nfragment = frag-anon\nfragment.size = 0.9\n"
		    "fragment.pattern = every-other\ndemand = thp-demand\ndemand.size = 0.3\n"
		    "demand.duration = 10s\nsettle = 2s\ntimeout = 5m\nready_timeout = 5m\n");
	unsetenv("COMPACTBENCH_QEMU_APPEND");
	unsetenv("COMPACTBENCH_QEMU_ACCEL");
	assert_int_equal(qtest_run(log, args), 0);
	free(qtest_log(log));

	for (int r = 0; r < 2; r++) {
		for (int s = 0; s < 2; s++) {
			char cell[64], want[64];

			snprintf(cell, sizeof(cell), "k61.%s.burst.r%d", set[s], r + 1);
			snprintf(path, sizeof(path), "%s/%s/meta.json", out, cell);
			assert_string_equal(itest_json(path, "status", v, sizeof(v)), "complete");
			assert_string_equal(itest_json(path, "qemu.guest_state", v, sizeof(v)),
					    "saved");
			snprintf(want, sizeof(want), "k61.burst.r%d", r + 1);
			assert_string_equal(itest_json(path, "saved_state.state", v, sizeof(v)), want);
			assert_string_equal(knob(path, "saved_state.fragment_knobs",
						 "vm.compaction_proactiveness", v, sizeof(v)), "0");
			assert_string_equal(knob(path, "knobs", "vm.compaction_proactiveness", v,
						 sizeof(v)), s ? "20" : "0");
			/* the reserve: made once, in the fragment half; the window kept */
			assert_true(atol(knob(path, "saved_state.fragment_knobs", "vm.nr_hugepages",
					      v, sizeof(v))) > 0);
			assert_string_equal(knob(path, "saved_state.fragment_knobs",
						 "memory_window_bytes", v, sizeof(v)), "805306368");
			assert_string_equal(knob(path, "knobs", "memory_window_bytes", v, sizeof(v)),
					    "805306368");
			assert_string_equal(knob(path, "knobs", "vm.nr_hugepages", v, sizeof(v)),
					    "(missing)");
			window_read(out, cell);
			frag[r][s] = before_save(out, cell);
			/* the analysis pairs by the state's name and the id drawn before the save */
			snprintf(path, sizeof(path), "%s/%s/summary.json", out, cell);
			itest_json(path, "start_state", id[r][s], sizeof(id[r][s]));
			assert_non_null(strstr(id[r][s], want));
			assert_true(strlen(id[r][s]) == strlen(want) + 17);
		}
		assert_string_equal(id[r][0], id[r][1]);
		/* one save, two loads: the same fragmentation, to the byte */
		assert_string_equal(frag[r][0], frag[r][1]);
	}
	/* two saves: two fragmentations */
	assert_string_not_equal(frag[0][0], frag[1][0]);
	assert_string_not_equal(id[0][0], id[1][0]);
	print_message("fragmented before the save, repetition 1: %.80s...\n",
		      strstr(frag[0][0], "\"fill_s\""));
	print_message("fragmented before the save, repetition 2: %.80s...\n",
		      strstr(frag[1][0], "\"fill_s\""));
	for (int r = 0; r < 2; r++)
		for (int s = 0; s < 2; s++)
			free(frag[r][s]);

	/* the states' files went with their last cells; their consoles stay */
	snprintf(pattern, sizeof(pattern), "%s/.states/*.state*", out);
	assert_int_equal(glob(pattern, 0, NULL, &g), GLOB_NOMATCH);
	snprintf(pattern, sizeof(pattern), "%s/.states/k61.burst.r*.console.log", out);
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	assert_int_equal(g.gl_pathc, 2);
	globfree(&g);
	assert_int_equal(socket_dirs(), dirs0);
	assert_int_equal(qemu_processes_with(dir), 0);
}

/* a workload with nothing to save after, and --jobs, are refused before any boot */
static void test_saved_refused(void **state)
{
	char cfg[1024], log[1024], out[1024];
	char *args[] = { "config", "check", cfg, NULL };
	char *jobs[] = { "run", cfg, "-o", out, "--jobs", "2", NULL };
	char *text;

	snprintf(cfg, sizeof(cfg), "%s/bad.ini", dir);
	snprintf(log, sizeof(log), "%s/bad.log", dir);
	qemu_matrix(cfg, "guest_state = saved\n",
		    "[setting pro0]\nvm.compaction_proactiveness = 0\n"
		    "[workload quiet]\ndemand = idle\ndemand.duration = 1s\n");
	assert_int_not_equal(qtest_run(log, args), 0);
	text = qtest_log(log);
	assert_non_null(strstr(text, "[workload quiet]: no fragment phase, and [kernel k61] has "
				     "guest_state = saved"));
	free(text);

	/* one-vCPU guests, so that two at once fit this machine and only the state refuses */
	snprintf(out, sizeof(out), "%s/jobs", dir);
	qemu_matrix(cfg, "cpus = 1\nguest_state = saved\n",
		    "[setting pro0]\nvm.compaction_proactiveness = 0\n"
		    "[workload burst]\nfragment = frag-anon\nfragment.size = 0.9\n"
		    "demand = thp-demand\ndemand.size = 0.3\n");
	assert_int_equal(qtest_run(log, jobs), 2);
	text = qtest_log(log);
	assert_non_null(strstr(text, "[kernel k61] with --jobs 2: guest_state = saved runs the "
				     "cells of a saved guest one after another"));
	free(text);
	assert_int_equal(access(out, F_OK), -1);
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
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saved_refused),
		cmocka_unit_test(test_saved_states),
	};

	qemu_require();
	return cmocka_run_group_tests(tests, setup, teardown);
}
