// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_config.c - the config parser and the matrix: good files, every kind of bad input
 * with its FILE:LINE message, matrix counts and run order. What ships (the .ini files of
 * configs/, configs/README.md) is test_config_shipped.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "target.h"
#include "target_class.h"
#include "policy.h"
#include "wmark.h"
#include "qemu_conf.h"
#include "ssh.h"
#include "wmark_meta.h"

#include <json-c/json.h>
#include "matrix.h"
#include "util.h"

static char tmpdir[] = "/tmp/cb-test-config-XXXXXX";

static const char *write_cfg(const char *name, const char *text)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
	return path;
}

static const char good[] =
	"; a comment\n"
	"[global]\n"
	"samples.period = 100ms\n"
	"reps = 4\n"
	"memory_limit = 2G\n"
	"\n"
	"[kernel host]\n"
	"target = host\n"
	"[setting a]\n"
	"vm.compaction_proactiveness = 0\n"
	"thp.defrag = madvise\n"
	"mthp.64kB.enabled = inherit\n"
	"[setting b]\n"
	"vm.compaction_proactiveness = 20\n"
	"[setting c]\n"
	"vm.extfrag_threshold = 500\n"
	"[workload w1]\n"
	"fragment = frag-anon\n"
	"fragment.size = 0.5\n"
	"demand = thp-demand\n"
	"demand.size = 1G\n"
	"quick.demand.size = 64M\n"
	"[workload w2]\n"
	"demand = thp-demand\n"
	"[collector]\n"
	"events = compaction:*,\n"
	"  vmscan:mm_vmscan_direct_reclaim_begin ; a list goes on over indented lines\n"
	"probes = off\n";

/* a setting and a workload, so a [kernel] section is the only thing wrong */
#define SW "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"

static void test_good_file(void **state)
{
	char err[1024] = "";
	struct cb_config *cfg = cb_config_load(write_cfg("good.ini", good), err, sizeof(err));

	assert_non_null(cfg);
	assert_string_equal(err, "");
	assert_int_equal(cfg->reps, 4);
	assert_int_equal(cfg->nr_kernels, 1);
	assert_int_equal(cfg->nr_settings, 3);
	assert_int_equal(cfg->nr_workloads, 2);
	assert_int_equal(cfg->settings[0].nr_knobs, 3);
	assert_string_equal(cfg->settings[0].knobs[2].arg, "64kB");
	assert_string_equal(cfg->memory_limit, "2G");
	assert_string_equal(cfg->name, "good");
	assert_string_equal(cfg->events[0], "compaction:*");
	assert_string_equal(cfg->events[1], "vmscan:mm_vmscan_direct_reclaim_begin");
	assert_null(cfg->events[2]);
	assert_int_equal(cfg->probes, CB_CFG_PROBES_OFF);
	assert_int_equal(strlen(cfg->sha256), 64);
	assert_true(cfg->samples_period_s == 0.1);	/* samples.period = 100ms */
	assert_non_null(cfg->workloads[0].phase[CB_PHASE_FRAGMENT].wl);
	assert_null(cfg->workloads[1].phase[CB_PHASE_FRAGMENT].wl);
	cb_config_free(cfg);
}

/* an ssh kernel: its keys stored as written, remote_dir's default, options as a list */
static void test_ssh_kernel(void **state)
{
	char err[1024] = "";
	struct cb_config *cfg = cb_config_load(write_cfg("ssh.ini", "[kernel lab]\ntarget = ssh\n"
		"host = root@lab1\nport = 2222\nidentity = keys/lab\n"
		"ssh_options = UserKnownHostsFile=/k,\n\tProxyJump=gw\n" SW), err, sizeof(err));
	const struct cb_ssh_conf *sc;

	assert_non_null(cfg);
	assert_ptr_equal(cfg->kernels[0].cls, &cb_target_ssh_class);
	sc = cb_ssh_conf(&cfg->kernels[0]);
	assert_string_equal(sc->host, "root@lab1");
	assert_int_equal(sc->port, 2222);
	assert_string_equal(sc->identity, "keys/lab");
	assert_string_equal(sc->remote_dir, "/var/tmp/compactbench");
	assert_null(sc->remote_state_dir);
	assert_string_equal(sc->ssh_options[0], "UserKnownHostsFile=/k");
	assert_string_equal(sc->ssh_options[1], "ProxyJump=gw");
	assert_null(sc->ssh_options[2]);
	cb_config_free(cfg);
}

static void test_phase_argv(void **state)
{
	char err[1024];
	struct cb_config *cfg = cb_config_load(write_cfg("good.ini", good), err, sizeof(err));
	char **argv;

	assert_non_null(cfg);
	argv = cb_phase_argv(&cfg->workloads[0].phase[CB_PHASE_DEMAND], "/x/thp-demand", false);
	assert_string_equal(argv[0], "/x/thp-demand");
	assert_string_equal(argv[1], "--size");
	assert_string_equal(argv[2], "1G");
	assert_null(argv[3]);
	cb_argv_free(argv);
	/* with --quick the quick. key replaces the normal one, and only once */
	argv = cb_phase_argv(&cfg->workloads[0].phase[CB_PHASE_DEMAND], "/x/thp-demand", true);
	assert_string_equal(argv[1], "--size");
	assert_string_equal(argv[2], "64M");
	assert_null(argv[3]);
	cb_argv_free(argv);
	cb_config_free(cfg);
}

/* every kind of bad input: the message names FILE:LINE and the key */
struct bad_case {
	const char *text;
	int line;
	const char *needle;
};

static const struct bad_case bad_cases[] = {
	{ "[global]\nreps = 3\nbogus = 1\n", 3, "unknown key 'bogus'" },
	{ "[global]\nreps = three\n", 2, "key 'reps': 'three' is not a whole number" },
	{ "[global]\nreps = 0\n", 2, "key 'reps'" },
	{ "[global]\nreps = 3\nreps = 4\n", 3, "duplicate key 'reps'" },
	/* an indented line goes on with the key above it: a list's, no other key's */
	{ "[global]\nreps = 3\n  4\n", 3, "[global] key 'reps' takes one value, and an indented "
	  "line goes on with the key above it (only a list goes on over lines)" },
	{ "[kernel k]\ntarget = ssh\nhost = lab\n  lab2\n", 4, "key 'host' takes one value" },
	{ "[collector]\nevents = compaction:*\n  ,\n", 3, "key 'events': empty list" },
	{ "[setting a]\nthp.defrag = madvise\n  never\n", 3,
	  "an indented line goes on with the key above it ('thp.defrag'), which takes one value" },
	{ "[setting a]\nvm.compaction_proactiveness = 101\n", 2,
	  "key 'vm.compaction_proactiveness': '101' is not a whole number in [0, 100]" },
	{ "[setting a]\nthp.defrag = sometimes\n", 2, "key 'thp.defrag': 'sometimes' is not one of" },
	{ "[setting a]\nvm.no_such_knob = 1\n", 2, "unknown knob 'vm.no_such_knob'" },
	{ "[setting a]\nmthp.64.enabled = always\n", 2, "unknown knob 'mthp.64.enabled'" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[setting a]\n", 3, "duplicate section [setting a]" },
	{ "[frobnicate]\n", 1, "unknown section [frobnicate]" },
	{ "[setting]\n", 1, "needs a name" },
	{ "[setting a.b]\n", 1, "needs a name" },
	{ "[global x]\n", 1, "takes no name" },
	{ "reps = 3\n", 1, "outside a section" },
	{ "[global]\nthis is not ini\n", 2, "not an INI line" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n\n[workload w]\nfragment = frag-anon\n", 4,
	  "missing required key 'demand'" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = frag-anon\n", 4,
	  "'frag-anon' is not a demand program" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "companion = frag-anon\n", 5, "key 'companion': 'frag-anon' is not a demand program" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "companion = kernel-demand\ncompanion.nosuch = 1\n", 6, "nosuch" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = nosuch\n", 4,
	  "unknown workload program 'nosuch'" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "demand.nosuch = 1\n", 5, "thp-demand has no option 'nosuch'" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "demand.size = lots\n", 5, "key 'demand.size'" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "fragment.size = 0.5\n", 5, "no 'fragment' program named" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "timeout = forever\n", 5, "key 'timeout': 'forever' is not a duration" },
	{ "[global]\nmemory_limit = 3 apples\n", 2, "key 'memory_limit'" },
	/* issue 20 (finding 7): durations, sizes and counts within bounds, before any cast */
	{ "[global]\ncooldown = 1e300\n", 2, "key 'cooldown': '1e300' is longer than any "
	  "duration this tool takes (at most 168h)" },
	{ "[global]\ncooldown = 2h\n", 2, "key 'cooldown': '2h' is outside 0..1h" },
	{ "[global]\nsamples.period = 5ms\n", 2, "key 'samples.period': '5ms' is outside 10ms..10s" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "timeout = 1e308h\n", 5, "key 'timeout': '1e308h' is longer than any duration" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "timeout = 169h\n", 5, "key 'timeout': '169h' is longer than any duration" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "timeout = 500ms\n", 5, "key 'timeout': '500ms' is outside 1s..168h" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "settle = inf\n", 5, "key 'settle': 'inf' is not a duration" },
	{ "[kernel k]\nboot_timeout = 2d\n", 2, "key 'boot_timeout': '2d' is not a duration" },
	{ "[kernel k]\nboot_timeout = 25h\n", 2, "key 'boot_timeout': '25h' is outside 1s..24h" },
	{ "[kernel k]\nmemory = 2T\n", 2, "key 'memory': '2T' is outside 64M..1T" },
	{ "[kernel k]\nmemory = 1k\n", 2, "key 'memory': '1k' is outside 64M..1T" },
	{ "[global]\nmemory_limit = 99999999999999999999999\n", 2, "key 'memory_limit': "
	  "'99999999999999999999999' is larger than any size this tool takes (at most 1024T)" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "companion = kernel-demand\ncompanion.size = 99999999999999999999999\n", 6,
	  "key 'companion.size': '99999999999999999999999' is larger than any size" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "demand.duration = 1e9\n", 5, "key 'demand.duration': '1e9' is longer than any "
	  "duration" },
	{ "[setting a]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"
	  "demand.rate = 1e300\n", 5, "key 'demand.rate': '1e300' is not a number in" },
	{ "[kernel k]\ntarget = cloud\n", 2, "key 'target': 'cloud' is not one of" },
	{ "[collector]\nevents = ,\n", 2, "key 'events': empty list" },
	{ "[workload w]\ndemand = thp-demand\n", 2, "no [setting NAME] section" },
	/* the setting's own keys: kernels, and the wmark policy's three keys together */
	{ "[setting a]\nwmark.period = 1s\nwmark.order = 9\n[workload w]\ndemand = thp-demand\n",
	  2, "[setting a]: the wmark policy needs wmark.period, wmark.order and wmark.count "
	  "together (missing: wmark.count)" },
	{ "[setting a]\nvm.extfrag_threshold = 1\nwmark.count = 9\n[workload w]\n"
	  "demand = thp-demand\n", 3, "(missing: wmark.period and wmark.order)" },
	{ "[setting a]\nwmark.period = soon\n", 2,
	  "key 'wmark.period': 'soon' is not a duration" },
	{ "[setting a]\nwmark.period = 1ms\n", 2,
	  "key 'wmark.period': '1ms' is outside 10ms..1h" },
	{ "[setting a]\nwmark.period = 0\n", 2, "key 'wmark.period': '0' is outside" },
	{ "[setting a]\nwmark.order = 11\n", 2,
	  "key 'wmark.order': '11' is not a whole number in [1, 10]" },
	{ "[setting a]\nwmark.count = -5\n", 2, "key 'wmark.count': '-5' is not a whole number" },
	{ "[setting a]\nwmark.count = 5\nwmark.count = 6\n", 3, "duplicate key 'wmark.count'" },
	{ "[setting a]\nwmark.bogus = 5\n", 2, "unknown knob 'wmark.bogus'" },
	{ "[kernel k1]\n[kernel k2]\n[setting a]\nvm.extfrag_threshold = 1\n"
	  "kernels = k1, k3\n[workload w]\ndemand = thp-demand\n", 5,
	  "[setting a] key 'kernels': no [kernel k3] (kernels: k1, k2)" },
	{ "[setting a]\nkernels = host\n[kernel k1]\n[workload w]\ndemand = thp-demand\n", 2,
	  "no [kernel host] (kernels: k1)" },
	{ "[setting a]\nkernels = ,\n", 2, "key 'kernels': empty list" },
	{ "[kernel lab]\ntarget = ssh\n" SW, 1, "[kernel lab]: target ssh needs key 'host'" },
	{ "[kernel lab]\ntarget = ssh\nhost = -oProxyCommand=x\n" SW, 1,
	  "key 'host': '-oProxyCommand=x' is not a [user@]host" },
	{ "[kernel lab]\ntarget = ssh\nhost = root@lab;reboot\n" SW, 1, "is not a [user@]host" },
	{ "[kernel lab]\ntarget = ssh\nhost = lab\nremote_dir = /\n" SW, 1,
	  "remote_dir and remote_state_dir must be absolute" },
	{ "[kernel lab]\ntarget = ssh\nhost = lab\nremote_dir = /tmp/a b\n" SW, 1,
	  "remote_dir and remote_state_dir must be absolute" },
	{ "[kernel lab]\ntarget = ssh\nhost = lab\nremote_state_dir = tmp/x\n" SW, 1,
	  "remote_dir and remote_state_dir must be absolute" },
	{ "[kernel lab]\ntarget = ssh\nhost = lab\nport = 70000\n" SW, 4, "key 'port'" },
	{ "[kernel lab]\ntarget = ssh\nhost = lab\nssh_options = -F/x\n" SW, 1,
	  "key 'ssh_options': '-F/x' is not KEY=VALUE" },
	/* a target's own key on another target: refused at its line, even set before target */
	{ "[kernel vm]\nhost = lab\ntarget = qemu\nrecipe = r.ini\n" SW, 2,
	  "[kernel vm] key 'host': only the ssh target reads it, and this kernel's target is qemu" },
	{ "[global]\ntarget = ssh\n[kernel lab]\nhost = lab\ncpus = 4\n" SW, 5,
	  "[kernel lab] key 'cpus': only the qemu target reads it, and this kernel's target is ssh" },
	/* a guest clock that counts instructions: one vCPU (qemu_conf.h), a known name */
	{ "[kernel vm]\ntarget = qemu\nrecipe = r.ini\nclock = icount\n" SW, 1,
	  "[kernel vm]: clock = icount needs cpus = 1 (QEMU 7.2 hangs at the second vCPU's "
	  "bring-up when it counts instructions), not 2" },
	{ "[kernel vm]\ntarget = qemu\nrecipe = r.ini\ncpus = 4\nclock = icount\n" SW, 1, "not 4" },
	{ "[kernel vm]\ntarget = qemu\nrecipe = r.ini\nclock = wall\n" SW, 4,
	  "key 'clock': 'wall' is not one of the allowed values: host, icount" },
	{ "[collector]\nprobes = no\n", 2,
	  "key 'probes': 'no' is not one of the allowed values: auto, off, require" },
	/* an unknown target name names the file, line and every target there is */
	{ "[kernel lab]\ntarget = vbox\n" SW, 2,
	  "[kernel lab] key 'target': 'vbox' is not one of the allowed values: host, qemu, ssh" },
};

static void test_bad_inputs(void **state)
{
	for (size_t i = 0; i < CB_ARRAY_SIZE(bad_cases); i++) {
		char err[1024] = "", want[512];
		const char *path = write_cfg("bad.ini", bad_cases[i].text);
		struct cb_config *cfg = cb_config_load(path, err, sizeof(err));

		snprintf(want, sizeof(want), "%s:%d: ", path, bad_cases[i].line);
		if (cfg || strncmp(err, want, strlen(want)) || !strstr(err, bad_cases[i].needle))
			fail_msg("case %zu: want '%s...%s', got '%s'", i, want, bad_cases[i].needle,
				 cfg ? "(accepted)" : err);
	}
}

/* clock: host unless told, icount with one vCPU accepted */
static void test_qemu_clock(void **state)
{
	const char *path = write_cfg("clock.ini", "[kernel a]\ntarget = qemu\nrecipe = r.ini\n"
				     "[kernel b]\ntarget = qemu\nrecipe = r.ini\ncpus = 1\n"
				     "clock = icount\n" SW);
	struct cb_config *cfg;
	char err[2048];

	(void)state;
	cfg = cb_config_load(path, err, sizeof(err));
	if (!cfg)
		fail_msg("%s", err);
	assert_int_equal(cfg->nr_kernels, 2);
	assert_int_equal(cb_qemu_conf(&cfg->kernels[0])->clock, CB_QEMU_CLOCK_HOST);
	assert_int_equal(cb_qemu_conf(&cfg->kernels[1])->clock, CB_QEMU_CLOCK_ICOUNT);
	assert_int_equal(cb_qemu_conf(&cfg->kernels[1])->cpus, 1);
	cb_config_free(cfg);
}

/* the registry: the built-in classes by name, their flags, a clash refused, none unknown */
static void test_target_registry(void **state)
{
	static const struct cb_target_class fake_ssh = { .name = "ssh" };
	const struct cb_target_class *ssh = cb_target_class_find("ssh");
	char why[256];

	assert_non_null(ssh);
	assert_string_equal(ssh->name, "ssh");
	assert_ptr_equal(ssh, &cb_target_ssh_class);
	assert_int_equal(cb_target_class_find("qemu")->flags & CB_TARGET_GUEST, CB_TARGET_GUEST);
	assert_int_equal(cb_target_class_find("host")->flags & CB_TARGET_GUEST, 0);
	assert_null(cb_target_class_find("vbox"));
	assert_int_equal(cb_target_class_register(&cb_target_ssh_class), 0); /* again: no-op */
	assert_int_equal(cb_target_class_register(&fake_ssh), -1);
	assert_ptr_equal(cb_target_class_find("ssh"), &cb_target_ssh_class);
	/* the verify callback itself, without a file: the message has no FILE:LINE */
	{
		struct cb_ssh_conf sc = { .remote_dir = "/var/tmp/cb" };
		struct cb_kernel k = { .name = "lab", .cls = ssh, .priv = &sc };

		assert_int_equal(ssh->verify(&k, why, sizeof(why)), -1);
		assert_string_equal(why, "[kernel lab]: target ssh needs key 'host' ([user@]host of "
			 "the lab machine)");
		sc.host = "root@lab";
		assert_int_equal(ssh->verify(&k, why, sizeof(why)), 0);
	}
}

/*
 * the wmark policy: its keys parsed into its private config (read back through what
 * meta.json says of it), all three or none, the message at the first key's line
 */
static void test_policy_wmark_verify(void **state)
{
	const struct cb_policy_ops *p = cb_policy_find("wmark");
	char err[1024], want[1024];
	struct cb_config *cfg;
	const char *path;
	void *priv;

	assert_ptr_equal(p, &cb_policy_wmark);
	assert_ptr_equal(cb_policy_nth(0), p);
	assert_null(cb_policy_find("predictor"));
	path = write_cfg("wm.ini", "[setting none]\n[setting w]\nwmark.count = 64\n"
			 "wmark.period = 250ms\nwmark.order = 9\n[workload w]\ndemand = thp-demand\n");
	cfg = cb_config_load(path, err, sizeof(err));
	if (!cfg)
		fail_msg("%s", err);
	assert_int_equal(cfg->settings[0].nr_policies, 0);
	assert_null(cb_setting_policy(&cfg->settings[0], p));
	assert_int_equal(cfg->settings[1].nr_policies, 1);
	priv = cb_setting_policy(&cfg->settings[1], p);
	assert_non_null(priv);
	assert_true(wmark_meta_num(priv, "period_s") == 0.25);
	assert_true(wmark_meta_num(priv, "order") == 9);
	assert_true(wmark_meta_num(priv, "count") == 64);
	cb_config_free(cfg);
	/* one key of three, on line 4: the message names the two missing, at line 4 */
	path = write_cfg("wm2.ini", "[setting w]\nvm.extfrag_threshold = 1\n\nwmark.order = 9\n"
			 "[workload w]\ndemand = thp-demand\n");
	assert_null(cb_config_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:4: [setting w]: the wmark policy needs wmark.period, "
		 "wmark.order and wmark.count together (missing: wmark.period and wmark.count)",
		 path);
	assert_string_equal(err, want);
}

static void test_missing_file(void **state)
{
	char err[1024];

	assert_null(cb_config_load("/nonexistent/x.ini", err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent/x.ini: cannot read"));
}

/* the CLI: a bad config exits 2 and names FILE:LINE on stderr, and runs nothing */
static void test_cli_exit_2(void **state)
{
	const char *cb = getenv("COMPACTBENCH");
	const char *path = write_cfg("cli.ini", "[global]\nreps = 3\nbogus = 1\n");
	char errpath[600], *text, want[600];
	int status;
	pid_t pid;

	if (!cb)
		skip();
	snprintf(errpath, sizeof(errpath), "%s/cli.err", tmpdir);
	pid = fork();
	if (pid == 0) {
		FILE *f = freopen(errpath, "w", stderr);

		(void)f;
		execl(cb, cb, "run", path, "-o", "/tmp/cb-test-config-never", (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 2);
	text = cb_read_file(errpath, NULL);
	assert_non_null(text);
	snprintf(want, sizeof(want), "%s:3: [global]: unknown key 'bogus'", path);
	if (!strstr(text, want))
		fail_msg("want \"%s\" in \"%s\"", want, text);
	assert_non_null(strstr(text, want));
	free(text);
	assert_int_not_equal(access("/tmp/cb-test-config-never", F_OK), 0);
}

/*
 * `compactbench config check PATH` with stdout and stderr into @outpath; returns its exit
 * status (skips the test without COMPACTBENCH)
 */
static int config_check(const char *path, const char *outpath)
{
	const char *cb = getenv("COMPACTBENCH");
	int status;
	pid_t pid;

	if (!cb)
		skip();
	pid = fork();
	if (pid == 0) {
		FILE *f = freopen(outpath, "w", stdout);

		(void)f;
		dup2(1, 2);
		execl(cb, cb, "config", "check", path, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* a matrix of more cells than a run.json may list is refused before anything runs */
static void test_cli_too_many_cells(void **state)
{
	const char *path = write_cfg("big.ini", "[global]\nreps = 1000\n[setting a]\n"
				     "vm.extfrag_threshold = 1\n[workload w1]\ndemand = idle\n"
				     "[workload w2]\ndemand = idle\n[workload w3]\ndemand = idle\n"
				     "[workload w4]\ndemand = idle\n[workload w5]\ndemand = idle\n"
				     "[workload w6]\ndemand = idle\n[workload w7]\ndemand = idle\n"
				     "[workload w8]\ndemand = idle\n[workload w9]\ndemand = idle\n"
				     "[workload w10]\ndemand = idle\n[workload w11]\ndemand = idle\n"
				     "[workload w12]\ndemand = idle\n[workload w13]\ndemand = idle\n"
				     "[workload w14]\ndemand = idle\n[workload w15]\ndemand = idle\n"
				     "[workload w16]\ndemand = idle\n[workload w17]\ndemand = idle\n"
				     "[workload w18]\ndemand = idle\n[workload w19]\ndemand = idle\n"
				     "[workload w20]\ndemand = idle\n[workload w21]\ndemand = idle\n");
	char errpath[600], *text;

	snprintf(errpath, sizeof(errpath), "%s/big.err", tmpdir);
	assert_int_equal(config_check(path, errpath), 2);
	text = cb_read_file(errpath, NULL);
	assert_non_null(text);
	if (!strstr(text, "21000 cells, more than the 20000 a run may have"))
		fail_msg("got \"%s\"", text);
	free(text);
}

static void test_matrix_order(void **state)
{
	char err[1024];
	struct cb_config *cfg = cb_config_load(write_cfg("good.ini", good), err, sizeof(err));
	struct cb_cell *cells;
	size_t nr;

	assert_non_null(cfg);
	cells = cb_matrix_expand(cfg, cfg->reps, &nr);
	/* 1 kernel x 3 settings x 2 workloads x 4 reps */
	assert_int_equal(nr, 24);
	/* reps interleave: the first 6 cells are rep 1, the next 6 rep 2 */
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(cells[i].rep, (long)(i / 6) + 1);
		assert_int_equal(cells[i].index, i);
	}
	/* settings rotate per rep: rep 1 starts with a, rep 2 with b, rep 3 with c, rep 4 with a */
	assert_string_equal(cells[0].id, "host.a.w1.r1");
	assert_string_equal(cells[1].id, "host.b.w1.r1");
	assert_string_equal(cells[3].id, "host.a.w2.r1");
	assert_string_equal(cells[6].id, "host.b.w1.r2");
	assert_string_equal(cells[12].id, "host.c.w1.r3");
	assert_string_equal(cells[18].id, "host.a.w1.r4");
	/* every (setting, workload, rep) exactly once */
	for (size_t i = 0; i < nr; i++)
		for (size_t j = i + 1; j < nr; j++)
			assert_string_not_equal(cells[i].id, cells[j].id);
	free(cells);
	cb_config_free(cfg);
}

/* a setting restricted by `kernels` has no cells on the other kernels; the rest are kept */
static const char restricted[] =
	"[global]\nreps = 2\n"
	"[kernel stock]\n[kernel patched]\n"
	"[setting base]\nvm.compaction_proactiveness = 0\n"
	"[setting dd]\nkernels = patched\nvm.compaction_proactiveness = 20\n"
	"[setting wm]\nwmark.period = 200ms\nwmark.order = 9\nwmark.count = 64\n"
	"kernels = stock,patched\n"
	"[workload w1]\ndemand = thp-demand\n";

static void test_matrix_kernels(void **state)
{
	static const char *const want[] = {
		"stock.base.w1.r1", "stock.wm.w1.r1",
		"patched.base.w1.r1", "patched.dd.w1.r1", "patched.wm.w1.r1",
		"stock.wm.w1.r2", "stock.base.w1.r2",
		"patched.dd.w1.r2", "patched.wm.w1.r2", "patched.base.w1.r2",
	};
	char err[1024], why[256];
	struct cb_config *cfg = cb_config_load(write_cfg("k.ini", restricted), err, sizeof(err));
	struct cb_cell *cells;
	size_t nr;

	if (!cfg)
		fail_msg("%s", err);
	assert_non_null(cb_setting_policy(&cfg->settings[2], &cb_policy_wmark));
	assert_true(wmark_meta_num(cb_setting_policy(&cfg->settings[2], &cb_policy_wmark),
				   "order") == 9);
	assert_true(wmark_meta_num(cb_setting_policy(&cfg->settings[2], &cb_policy_wmark),
				   "count") == 64);
	assert_true(wmark_meta_num(cb_setting_policy(&cfg->settings[2], &cb_policy_wmark),
				   "period_s") == 0.2);
	assert_null(cb_setting_policy(&cfg->settings[1], &cb_policy_wmark));
	assert_null(cfg->settings[0].kernels);
	cells = cb_matrix_expand(cfg, cfg->reps, &nr);
	/* 2 kernels x 3 settings x 1 workload x 2 reps = 12, less dd on stock twice */
	assert_int_equal(nr, CB_ARRAY_SIZE(want));
	for (size_t i = 0; i < nr; i++) {
		assert_string_equal(cells[i].id, want[i]);
		assert_int_equal(cells[i].index, i);
	}
	assert_int_equal(cb_matrix_skipped(cfg, cfg->reps, why, sizeof(why)), 2);
	assert_string_equal(why, "setting 'dd' runs only on kernel patched (2 cells)");
	assert_int_equal(cb_matrix_skipped(cfg, 3, NULL, 0), 3);
	free(cells);
	cb_config_free(cfg);
	/* nothing restricted: nothing skipped, and no text */
	cfg = cb_config_load(write_cfg("good.ini", good), err, sizeof(err));
	assert_int_equal(cb_matrix_skipped(cfg, cfg->reps, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	cb_config_free(cfg);
}

/* a workload's `kernels` too: host-sized work on the host only, counted once when both exclude */
static void test_matrix_workload_kernels(void **state)
{
	static const char text[] =
		"[global]\nreps = 2\n[kernel host]\n[kernel vm]\ntarget = qemu\nrecipe = r.ini\n"
		"[setting base]\nvm.compaction_proactiveness = 0\n"
		"[setting dd]\nkernels = vm\nvm.compaction_proactiveness = 20\n"
		"[workload big]\nkernels = host\ndemand = thp-demand\n"
		"[workload small]\ndemand = idle\n";
	static const char *const want[] = {
		"host.base.big.r1", "host.base.small.r1",
		"vm.base.small.r1", "vm.dd.small.r1",
		"host.base.big.r2", "host.base.small.r2",
		"vm.dd.small.r2", "vm.base.small.r2",
	};
	char err[1024], why[256];
	struct cb_config *cfg;
	struct cb_cell *cells;
	size_t nr;

	(void)state;
	write_cfg("r.ini", "[kernel]\nname = r\n");
	cfg = cb_config_load(write_cfg("wk.ini", text), err, sizeof(err));
	if (!cfg)
		fail_msg("%s", err);
	cells = cb_matrix_expand(cfg, cfg->reps, &nr);
	assert_int_equal(nr, CB_ARRAY_SIZE(want));
	for (size_t i = 0; i < nr; i++)
		assert_string_equal(cells[i].id, want[i]);
	/*
	 * 2 kernels x 2 settings x 2 workloads x 2 reps = 16 = 8 made + dd on host (2 workloads
	 * x 2 reps) + big on vm under base and dd (2 settings x 2 reps)
	 */
	assert_int_equal(cb_matrix_skipped(cfg, cfg->reps, why, sizeof(why)), 8);
	assert_string_equal(why, "setting 'dd' runs only on kernel vm (4 cells); workload 'big' "
				 "runs only on kernel host (4 cells)");
	free(cells);
	cb_config_free(cfg);
	cfg = cb_config_load(write_cfg("wk2.ini", "[kernel a]\n[setting s]\n"
				       "vm.compaction_proactiveness = 0\n[workload w]\n"
				       "demand = idle\nkernels = b\n"), err, sizeof(err));
	assert_null(cfg);
	assert_non_null(strstr(err, "wk2.ini:6: [workload w] key 'kernels': no [kernel b] "
				    "(kernels: a)"));
}

/* `config check` prints the cell list and the skipped count */
static void test_cli_check_skipped(void **state)
{
	const char *path = write_cfg("k.ini", restricted);
	char outpath[600], *text;

	snprintf(outpath, sizeof(outpath), "%s/check.out", tmpdir);
	assert_int_equal(config_check(path, outpath), 0);
	text = cb_read_file(outpath, NULL);
	assert_non_null(text);
	if (!strstr(text, "ok, 10 cells (2 skipped: setting 'dd' runs only on kernel patched "
		    "(2 cells))\n  1 stock.base.w1.r1\n"))
		fail_msg("got: %s", text);
	assert_null(strstr(text, "stock.dd"));
	free(text);
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
		cmocka_unit_test(test_good_file),     cmocka_unit_test(test_phase_argv),
		cmocka_unit_test(test_bad_inputs),    cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_qemu_clock),
		cmocka_unit_test(test_cli_exit_2),
		cmocka_unit_test(test_cli_too_many_cells),    cmocka_unit_test(test_matrix_order),
		cmocka_unit_test(test_matrix_kernels), cmocka_unit_test(test_matrix_workload_kernels),
		cmocka_unit_test(test_cli_check_skipped),     cmocka_unit_test(test_ssh_kernel),
		cmocka_unit_test(test_target_registry),
		cmocka_unit_test(test_policy_wmark_verify),
	};

	cb_targets_register();
	cb_policies_register();

	return cmocka_run_group_tests(tests, setup, teardown);
}
