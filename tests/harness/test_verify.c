// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_verify.c - `config check` accepts nothing `run` then rejects (issue 22): a recipe
 * that does not exist, a qemu kernel without a recipe (also through `run --target qemu`),
 * a knob the booted kernel lacks (against a fake root that has some knob files and not
 * others) are each an error naming FILE:LINE, exit 2 from both commands, and run makes no
 * run directory; an enum's bad value lists the allowed values and names its section.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "config_verify.h"
#include "matrix.h"
#include "run.h"
#include "target.h"

#include <json-c/json.h>
#include "util.h"
#include "target.h"
#include "policy.h"

static char tmpdir[] = "/tmp/cb-test-verify-XXXXXX";

static const char *write_cfg(const char *name, const char *text)
{
	static char path[600];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
	return path;
}

/* compactbench ARGS... (NULL-terminated); exit status, stdout+stderr in *@text */
static int cli(char **text, ...)
{
	const char *cb = getenv("COMPACTBENCH");
	char out[700], *argv[12];
	int st, fd, n = 0;
	va_list ap;
	pid_t pid;

	if (!cb)
		skip();
	argv[n++] = (char *)cb;
	va_start(ap, text);
	while (n < 11 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	snprintf(out, sizeof(out), "%s/out", tmpdir);
	pid = fork();
	if (pid == 0) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(cb, argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	*text = cb_read_file(out, NULL);
	assert_non_null(*text);
	printf("$ compactbench %s %s ... -> %d\n%s", argv[1], argv[2], WEXITSTATUS(st), *text);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/*
 * `run PATH` (with `--target qemu` if @qemu) exits 2 naming @want and makes no run
 * directory. The run is shard 2 of 2 of a one-cell matrix: were the config accepted, it
 * would run nothing on this machine (and exit 0).
 */
static void expect_run(const char *path, bool qemu, const char *want)
{
	char never[700], *text;

	snprintf(never, sizeof(never), "%s/never", tmpdir);
	if (qemu)
		assert_int_equal(cli(&text, "run", path, "-o", never, "--shard", "2/2", "--target",
				     "qemu", NULL), 2);
	else
		assert_int_equal(cli(&text, "run", path, "-o", never, "--shard", "2/2", NULL), 2);
	if (!strstr(text, want))
		fail_msg("run: want \"%s\"", want);
	free(text);
	assert_int_not_equal(access(never, F_OK), 0);
}

/* `config check PATH` and `run PATH` both exit 2 naming @want */
static void expect_both(const char *path, const char *want)
{
	char *text;

	assert_int_equal(cli(&text, "config", "check", path, NULL), 2);
	if (!strstr(text, want))
		fail_msg("config check: want \"%s\"", want);
	free(text);
	expect_run(path, false, want);
}

#define SW "[setting s]\nvm.compaction_proactiveness = 0\n[workload w]\ndemand = idle\n"

static void test_recipe_missing(void **state)
{
	const char *p = write_cfg("recipe-missing.ini", "[kernel k]\ntarget = qemu\n\nrecipe = nosuch.ini\n"
				  SW);
	char want[800];

	/* the recipe resolves relative to the config's directory */
	snprintf(want, sizeof(want), "%s:4: [kernel k] key 'recipe': recipe %s/nosuch.ini: "
		 "cannot read", p, tmpdir);
	expect_both(p, want);
}

static void test_qemu_without_recipe(void **state)
{
	const char *p = write_cfg("norecipe.ini", "[kernel k]\ntarget = qemu\n" SW);
	char want[800];

	snprintf(want, sizeof(want), "%s:1: [kernel k]: the qemu target needs a recipe", p);
	expect_both(p, want);
	/* run --target qemu of a config without [kernel]: bad input (2), not a failure (1) */
	p = write_cfg("plain.ini", SW);
	snprintf(want, sizeof(want), "%s: no [kernel] section, so the qemu target has no kernel", p);
	expect_run(p, true, want);
}

/* a fake root with vm/compaction_proactiveness and not vm/compaction_demand_driven */
static void test_knob_missing(void **state)
{
	char root[700], path[800], *buf = NULL;
	size_t len = 0;
	struct cb_config *cfg;
	FILE *out;

	snprintf(root, sizeof(root), "%s/root", tmpdir);
	snprintf(path, sizeof(path), "%s/proc/sys/vm/compaction_proactiveness", root);
	assert_int_equal(cb_mkdir_p(root), 0);
	snprintf(path, sizeof(path), "%s/proc/sys/vm", root);
	assert_int_equal(cb_mkdir_p(path), 0);
	snprintf(path, sizeof(path), "%s/proc/sys/vm/compaction_proactiveness", root);
	assert_int_equal(cb_write_file_atomic(path, "20\n", 3), 0);
	cfg = cb_config_load(write_cfg("knob.ini", "[setting s]\nvm.compaction_proactiveness = 0\n"
				       "vm.compaction_demand_driven = 1\n"
				       "[workload w]\ndemand = idle\n"), path, sizeof(path));
	assert_non_null(cfg);
	out = open_memstream(&buf, &len);
	assert_int_equal(cb_config_verify(cfg, root, out, NULL), 1);
	fclose(out);
	printf("%s", buf);
	snprintf(path, sizeof(path), "%s:3: [setting s] key 'vm.compaction_demand_driven' (= 1): "
		 "%s/proc/sys/vm/compaction_demand_driven does not exist on the booted kernel",
		 cfg->path, root);
	if (!strstr(buf, path))
		fail_msg("want \"%s\"", path);
	free(buf);
	/* a setting restricted to a kernel that is not booted is not checked here */
	cb_config_free(cfg);
	cfg = cb_config_load(write_cfg("knob2.ini", "[kernel other]\nrelease = 0.0-none\n"
				       "[setting s]\nvm.compaction_demand_driven = 1\n"
				       "[workload w]\ndemand = idle\n"), path, sizeof(path));
	assert_non_null(cfg);
	out = open_memstream(&buf, &len);
	assert_int_equal(cb_config_verify(cfg, root, stderr, out), 0);
	fclose(out);
	assert_non_null(strstr(buf, "[kernel other]: its knobs are checked when it is booted"));
	free(buf);
	cb_config_free(cfg);
}

/* on this machine: a knob file that no kernel has is refused by both commands */
static void test_knob_missing_cli(void **state)
{
	const char *p = write_cfg("mthp.ini", "[setting s]\nmthp.3kB.enabled = never\n"
				  "[workload w]\ndemand = idle\n");
	char want[800];

	snprintf(want, sizeof(want), "%s:2: [setting s] key 'mthp.3kB.enabled' (= never): "
		 "/sys/kernel/mm/transparent_hugepage/hugepages-3kB/enabled does not exist", p);
	expect_both(p, want);
}

static void test_enum_lists_values(void **state)
{
	const char *p = write_cfg("hosts.ini", "[global]\nreps = 1\n[kernel k]\ntarget = hosts\n" SW);
	char want[800];

	snprintf(want, sizeof(want), "%s:4: [kernel k] key 'target': 'hosts' is not one of the "
		 "allowed values: host, qemu, ssh", p);
	expect_both(p, want);
}

/*
 * a host cell that fails before its agent starts (here: its knob's file is not in the fake
 * root) still says so in meta.json: status "failed" and the error (issue 22: it left no
 * cell directory, and report.md said "meta.json: cannot read")
 */
static void test_failed_cell_meta(void **state)
{
	struct cb_run run = { 0 };
	struct cb_config *cfg;
	struct cb_cell *cells;
	char root[700], state_dir[700], cell_dir[800], path[900], *meta;
	size_t nr;

	snprintf(root, sizeof(root), "%s/root2", tmpdir);
	snprintf(state_dir, sizeof(state_dir), "%s/state", tmpdir);
	assert_int_equal(cb_mkdir_p(root), 0);
	assert_int_equal(cb_mkdir_p(state_dir), 0);
	cfg = cb_config_load(write_cfg("fail.ini", "[global]\nstart_state = none\n"
				       "[setting s]\nvm.compaction_demand_driven = 1\n"
				       "[workload w]\ndemand = idle\n"), path, sizeof(path));
	assert_non_null(cfg);
	cells = cb_matrix_expand(cfg, 1, &nr);
	assert_int_equal(nr, 1);
	run.cfg = cfg;
	run.root = root;
	assert_int_equal(cb_journal_open(&run.journal, state_dir), 0);
	snprintf(cell_dir, sizeof(cell_dir), "%s/run/%s", tmpdir, cells[0].id);
	assert_int_equal(cb_target_find(&cb_target_host_class)->run_cell(&run, &cells[0], cell_dir), -1);
	snprintf(path, sizeof(path), "%s/meta.json", cell_dir);
	meta = cb_read_file(path, NULL);
	assert_non_null(meta);
	printf("%s\n", meta);
	assert_non_null(strstr(meta, "\"status\":\"failed\""));
	assert_non_null(strstr(meta, "knob vm.compaction_demand_driven"));
	assert_non_null(strstr(meta, "does not exist on this kernel"));
	free(meta);
	json_object_put(run.knobs);
	free(cells);
	cb_config_free(cfg);
}

static int teardown(void **state)
{
	cb_rm_rf(tmpdir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recipe_missing),	  cmocka_unit_test(test_qemu_without_recipe),
		cmocka_unit_test(test_knob_missing),	  cmocka_unit_test(test_knob_missing_cli),
		cmocka_unit_test(test_enum_lists_values), cmocka_unit_test(test_failed_cell_meta),
	};

	if (!mkdtemp(tmpdir))
		return 1;
	/* the target and policy checks config loading runs (as main() registers them) */
	cb_targets_register();
	cb_policies_register();
	return cmocka_run_group_tests(tests, NULL, teardown);
}
