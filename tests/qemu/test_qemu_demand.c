// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_qemu_demand.c - integration: the demand-driven kcompactd patch series
 * (configs/kernels/patches/demand-kcompactd/, recipe configs/kernels/linux-6.1-demand.ini).
 *
 * 1. The series applies to Debian's 6.1 source, in order, without fuzz (checked on the files
 *    it touches, unpacked on their own; the recipe must name every patch of the directory).
 * 2. On a kernel without the patch (this host), a [setting] with vm.compaction_demand_driven
 *    stops the run with an error that names the knob and its missing file.
 * 3. The patched kernel builds (cached after the first run), boots in QEMU and runs
 *    tests/qemu/demand-qemu.ini: proactive compaction off, frag-anon leaves only order-0
 *    holes, kernel-demand asks for orders 1-4 (unix-dgram, 1-4; unix-stream, 1-3; one
 *    workload each, the setting's counts are their sum). With vm.compaction_demand_driven = 1 (read back
 *    from the guest's /proc/sys, so the sysctl exists) compaction:mm_compaction_demand fires
 *    for each of orders 1..4 and kcompactd runs (compact_daemon_wake grows, and the pass
 *    traces its targets); with 0 the same workload records no demand at all, although the
 *    event is enabled (its format is in trace.dat).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <json-c/json.h>
#include <trace-cmd/trace-cmd.h>
#include <event-parse.h>

#include "itest.h"
#include "qemu_common.h"

#define SERIES "configs/kernels/patches/demand-kcompactd"
#define RECIPE "configs/kernels/linux-6.1-demand.ini"
#define KNOB_FILE "/proc/sys/vm/compaction_demand_driven"
#define NR_ORDERS 11 /* MAX_ORDER of 6.1 on x86 */

static char dir[] = "/tmp/cb-test-qemu-demand-XXXXXX";

/* run @argv (no shell) in @cwd with stdout and stderr into @log; its exit status */
static int run_argv(char *const argv[], const char *cwd, const char *log)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || (cwd && chdir(cwd) < 0))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int patch_name(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return len > 6 && !strcmp(d->d_name + len - 6, ".patch");
}

static void test_series_applies(void **state)
{
	char series[1024], tree[1100], log[1100], path[2200], *recipe, *text;
	char *tar[256] = { "tar", "-xf", "/usr/src/linux-source-6.1.tar.xz", "-C", tree,
			   "--strip-components=1" };
	struct dirent **names;
	int n, nt = 6;

	snprintf(series, sizeof(series), "%s/%s", getenv("SOURCE_ROOT"), SERIES);
	snprintf(path, sizeof(path), "%s/%s", getenv("SOURCE_ROOT"), RECIPE);
	recipe = cb_read_file(path, NULL);
	assert_non_null(recipe);
	n = scandir(series, &names, patch_name, alphasort);
	assert_true(n >= 1);

	/* every file the series touches, from the tarball (its top directory: linux-source-6.1) */
	for (int i = 0; i < n; i++) {
		char *p, *line, *save = NULL;

		/* the recipe applies the whole series */
		assert_non_null(strstr(recipe, names[i]->d_name));
		snprintf(path, sizeof(path), "%s/%s", series, names[i]->d_name);
		text = cb_read_file(path, NULL);
		assert_non_null(text);
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			bool seen = false;

			if (strncmp(line, "+++ b/", 6))
				continue;
			if (asprintf(&p, "linux-source-6.1/%s", line + 6) < 0)
				abort();
			for (int k = 6; k < nt; k++)
				seen |= !strcmp(tar[k], p);
			if (seen || nt >= 254)
				free(p);
			else
				tar[nt++] = p;
		}
		free(text);
	}
	tar[nt] = NULL;
	assert_true(nt > 6);
	snprintf(tree, sizeof(tree), "%s/tree", dir);
	snprintf(log, sizeof(log), "%s/patch.log", dir);
	assert_int_equal(cb_mkdir_p(tree), 0);
	assert_int_equal(run_argv(tar, NULL, log), 0);

	for (int i = 0; i < n; i++) {
		char *argv[] = { "patch", "-p1", "--forward", "--batch", "-i", path, NULL };

		snprintf(path, sizeof(path), "%s/%s", series, names[i]->d_name);
		assert_int_equal(run_argv(argv, tree, log), 0);
		free(names[i]);
	}
	free(names);
	text = qtest_log(log);
	/* applies as written: no hunk needed fuzz, none was rejected */
	assert_null(strstr(text, "fuzz"));
	assert_null(strstr(text, "FAILED"));
	print_message("%d patches apply to %d files of linux-source-6.1\n", n, nt - 6);
	free(text);
	for (int k = 6; k < nt; k++)
		free(tar[k]);
	free(recipe);
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
	assert_int_not_equal(qtest_run(log, args), 0);
	text = qtest_log(log);
	assert_non_null(strstr(text, "knob vm.compaction_demand_driven: " KNOB_FILE
				" does not exist on this kernel"));
	free(text);
}

struct demand_count {
	struct tep_handle *tep;
	int id_demand, id_target;
	long demand[NR_ORDERS], max_demand[NR_ORDERS], other_orders;
	long targets_before, targets_after, targets_met;
};

static long field(struct tep_event *e, struct tep_record *r, const char *name)
{
	unsigned long long v = 0;

	assert_int_equal(tep_get_field_val(NULL, e, name, r, &v, 0), 0);
	return (long)v;
}

static int on_event(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct demand_count *c = data;
	int id = tep_data_type(c->tep, r);
	struct tep_event *e = tep_find_event(c->tep, id);
	long order;

	if (!e || (id != c->id_demand && id != c->id_target))
		return 0;
	order = field(e, r, "order");
	if (id == c->id_target) {
		if (field(e, r, "after")) {
			c->targets_after++;
			c->targets_met += field(e, r, "nr_free") >= field(e, r, "target");
		} else {
			c->targets_before++;
		}
		return 0;
	}
	if (order < 1 || order >= NR_ORDERS) {
		c->other_orders++;
		return 0;
	}
	c->demand[order]++;
	if (field(e, r, "demand") > c->max_demand[order])
		c->max_demand[order] = field(e, r, "demand");
	/* the target is the demand, capped */
	assert_true(field(e, r, "target") <= field(e, r, "demand"));
	return 0;
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

static void count_cell(const char *cell, struct demand_count *c)
{
	char path[1400];
	struct tracecmd_input *h;
	struct tep_event *e;

	snprintf(path, sizeof(path), "%s/trace.dat", cell);
	h = tracecmd_open(path, 0);
	assert_non_null(h);
	c->tep = tracecmd_get_tep(h);
	/* the collector enabled both events: their formats are in the file */
	e = tep_find_event_by_name(c->tep, "compaction", "mm_compaction_demand");
	assert_non_null(e);
	c->id_demand = e->id;
	e = tep_find_event_by_name(c->tep, "compaction", "mm_compaction_demand_target");
	assert_non_null(e);
	c->id_target = e->id;
	assert_int_equal(tracecmd_iterate_events(h, NULL, 0, on_event, c), 0);
	tracecmd_close(h);
}

static void test_demand_in_guest(void **state)
{
	char cfg[1100], out[1100], log[1100], cell[1400], v[64], *text;
	char *args[] = { "run", cfg, "-o", out, NULL };
	static const char *const settings[] = { "on", "off" }, *const workloads[] = { "dgram",
										      "stream" };
	uint64_t t0 = cb_now_ns();
	int rc;

	snprintf(cfg, sizeof(cfg), "%s/tests/qemu/demand-qemu.ini", getenv("SOURCE_ROOT"));
	snprintf(out, sizeof(out), "%s/run", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	unsetenv("COMPACTBENCH_QEMU_APPEND");
	rc = qtest_run(log, args);
	text = qtest_log(log);
	free(text);
	assert_int_equal(rc, 0);
	print_message("run took %.0f s (kernel build included if it was not cached)\n",
		      (cb_now_ns() - t0) / 1e9);

	for (size_t s = 0; s < 2; s++) {
		struct demand_count c = { 0 };
		bool on = !strcmp(settings[s], "on");
		long wake = 0, total = 0;

		/* one workload per kernel-demand path; the setting's figures are their sum */
		for (size_t w = 0; w < 2; w++) {
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
			c.other_orders += one.other_orders;
			c.targets_before += one.targets_before;
			c.targets_after += one.targets_after;
			wake += d;
		}
		assert_int_equal(c.other_orders, 0);
		if (!on) {
			/* the patch off: nothing counted, no demand pass */
			assert_int_equal(total, 0);
			assert_int_equal(c.targets_before + c.targets_after, 0);
			continue;
		}
		/* kernel-demand's orders 1-4 each met fragmentation and were counted */
		for (int o = 1; o <= 4; o++)
			assert_true(c.demand[o] > 0);
		/* and kcompactd ran the demand pass: it traced its targets and counted wakes */
		assert_true(c.targets_before > 0);
		assert_true(wake > 0);
	}
}

static int setup(void **state)
{
	if (!mkdtemp(dir))
		return -1;
	/* a journal of our own, apart from any other run's */
	setenv("COMPACTBENCH_STATE_DIR", dir, 1);
	return 0;
}

static int teardown(void **state)
{
	return cb_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series_applies),
		cmocka_unit_test(test_knob_missing_is_named),
		cmocka_unit_test(test_demand_in_guest),
	};

	qemu_require();
	return cmocka_run_group_tests(tests, setup, teardown);
}
