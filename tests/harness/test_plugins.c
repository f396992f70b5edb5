// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_plugins.c - a target class and a policy defined here, outside the harness, each with
 * its own keys: registered like the built-in ones, their keys are parsed into their private
 * config (values checked exactly), refused on other targets and in other sections with the
 * FILE:LINE wording of the built-in keys, listed by `config doc`, and freed with the config.
 * Its own executable: the classes registered here would change other tests' messages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "policy.h"
#include "target.h"
#include "target_class.h"
#include "util.h"
#include "xalloc.h"

static char tmpdir[] = "/tmp/cb-test-plugins-XXXXXX";

/* the fake target: a depth (integer, default 7) and a label it needs */
struct fake_conf {
	long depth;
	char *label;
	int label_line;
};

static const struct cfg_key fake_keys[] = {
	{ SEC_KERNEL, "depth", KT_INT, "7", 1, 100, NULL, CB_KEY_PRIV(struct fake_conf, depth),
	  "fake target: how deep" },
	{ SEC_KERNEL, "label", KT_STRING, NULL, 0, 0, NULL, CB_KEY_PRIV(struct fake_conf, label),
	  "fake target: what it is called", CB_KEY_LINE(struct fake_conf, label_line) },
	{ .name = NULL },
};

static int fake_allocs, fake_frees;

static void *fake_alloc(void)
{
	fake_allocs++;
	return cb_xcalloc(1, sizeof(struct fake_conf));
}

static void fake_free(void *priv)
{
	fake_frees += priv != NULL;
	cb_cfg_keys_free(fake_keys, priv);
}

static int fake_verify(const struct cb_kernel *k, char *why, size_t len)
{
	const struct fake_conf *c = k->priv;

	if (c->label)
		return 0;
	snprintf(why, len, "[kernel %s]: target fake needs key 'label'", k->name);
	return -1;
}

static const struct cb_target_class fake_class = {
	.name = "fake",
	.keys = fake_keys,
	.priv_alloc = fake_alloc,
	.priv_free = fake_free,
	.verify = fake_verify,
	.ops = &cb_target_host,
};

/* the fake policy: a level 0..5 */
struct nop_conf {
	long level;
};

static const struct cfg_key nop_keys[] = {
	{ SEC_SETTING, "nop.level", KT_INT, NULL, 0, 5, NULL, CB_KEY_PRIV(struct nop_conf, level),
	  "nop policy: how hard it does nothing" },
	{ .name = NULL },
};

static void *nop_alloc(void)
{
	return cb_xcalloc(1, sizeof(struct nop_conf));
}

static void nop_free(void *priv)
{
	cb_cfg_keys_free(nop_keys, priv);
}

static const struct cb_policy_ops nop_policy = {
	.name = "nop",
	.keys = nop_keys,
	.priv_alloc = nop_alloc,
	.priv_free = nop_free,
};

#define SW "[setting s]\nvm.extfrag_threshold = 1\n[workload w]\ndemand = thp-demand\n"

static const char *write_cfg(const char *name, const char *text)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
	return path;
}

/* loading @text fails with exactly "FILE:@line: @msg" */
static void refused(const char *text, int line, const char *msg)
{
	const char *path = write_cfg("bad.ini", text);
	char err[1024], want[1024];

	assert_null(cb_config_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:%d: %s", path, line, msg);
	assert_string_equal(err, want);
}

/* the fake target's keys land in each fake kernel's own private config */
static void test_target_keys_parsed(void **state)
{
	char err[1024];
	const struct fake_conf *a, *b;
	struct cb_config *cfg;

	fake_allocs = fake_frees = 0;
	/* depth given before target: it waits for the target, as the built-in keys do */
	cfg = cb_config_load(write_cfg("ok.ini", "[kernel a]\ndepth = 42\ntarget = fake\n"
				       "label = deep one\n[kernel b]\ntarget = fake\nlabel = b\n"
				       "[kernel h]\n" SW), err, sizeof(err));
	if (!cfg)
		fail_msg("%s", err);
	assert_int_equal(cfg->nr_kernels, 3);
	assert_ptr_equal(cfg->kernels[0].cls, &fake_class);
	assert_ptr_equal(cfg->kernels[1].cls, &fake_class);
	assert_ptr_equal(cfg->kernels[2].cls, cb_target_class_find("host"));
	assert_null(cfg->kernels[2].priv); /* the host target has no keys */
	a = cfg->kernels[0].priv;
	b = cfg->kernels[1].priv;
	assert_int_equal(a->depth, 42);
	assert_string_equal(a->label, "deep one");
	assert_int_equal(a->label_line, 4);
	assert_int_equal(b->depth, 7); /* the table's default */
	assert_string_equal(b->label, "b");
	assert_int_equal(b->label_line, 7);
	assert_int_equal(fake_allocs, 2);
	cb_config_free(cfg);
	assert_int_equal(fake_frees, 2);

	/* [global] target = fake: a kernel that names none is a fake one, with its keys */
	cfg = cb_config_load(write_cfg("glob.ini", "[global]\ntarget = fake\n[kernel k]\n"
				       "label = g\ndepth = 100\n" SW), err, sizeof(err));
	if (!cfg)
		fail_msg("%s", err);
	assert_ptr_equal(cfg->kernels[0].cls, &fake_class);
	assert_int_equal(((const struct fake_conf *)cfg->kernels[0].priv)->depth, 100);
	cb_config_free(cfg);
}

/* the fake target's keys are refused on other targets, with the built-in keys' wording */
static void test_target_keys_refused(void **state)
{
	char names[64];

	fake_allocs = fake_frees = 0;
	refused("[kernel h]\ntarget = host\ndepth = 3\n" SW, 3,
		"[kernel h] key 'depth': only the fake target reads it, and this kernel's target "
		"is host");
	refused("[kernel q]\nlabel = x\ntarget = qemu\nrecipe = r.ini\n" SW, 2,
		"[kernel q] key 'label': only the fake target reads it, and this kernel's target "
		"is qemu");
	/* and a built-in target's key on a fake kernel */
	refused("[kernel f]\ntarget = fake\nlabel = x\ncpus = 4\n" SW, 4,
		"[kernel f] key 'cpus': only the qemu target reads it, and this kernel's target "
		"is fake");
	/* a value outside the row's range; the class's own verify, at the section */
	refused("[kernel f]\ntarget = fake\ndepth = 101\n" SW, 3,
		"key 'depth': '101' is not a whole number in [1, 100]");
	refused("[kernel f]\ntarget = fake\ndepth = 5\n" SW, 1,
		"[kernel f]: target fake needs key 'label'");
	/* the target names come from the registry (also agent --target's message) */
	assert_string_equal(cb_target_class_names(names, sizeof(names)), "host, qemu, ssh, fake");
	assert_string_equal(cb_target_class_names(names, 11), "host, qemu");
	refused("[kernel f]\ntarget = vbox\n" SW, 2,
		"[kernel f] key 'target': 'vbox' is not one of the allowed values: host, qemu, ssh, "
		"fake");
	/* a target key is no key of another section */
	refused("[setting s]\ndepth = 1\n[workload w]\ndemand = thp-demand\n", 2,
		"[setting s]: unknown knob 'depth' (see configs/README.md)");
	/* every private config made for a refused file is freed */
	assert_int_equal(fake_frees, fake_allocs);
	assert_true(fake_allocs >= 4);
}

/* the fake policy's key: into the setting's private config of it, nowhere else */
static void test_policy_keys(void **state)
{
	char err[1024];
	struct cb_config *cfg;
	const struct nop_conf *n;

	cfg = cb_config_load(write_cfg("nop.ini", "[setting quiet]\n[setting loud]\n"
				       "nop.level = 5\nvm.extfrag_threshold = 1\n"
				       "[workload w]\ndemand = thp-demand\n"), err, sizeof(err));
	if (!cfg)
		fail_msg("%s", err);
	assert_null(cb_setting_policy(&cfg->settings[0], &nop_policy));
	assert_int_equal(cfg->settings[1].nr_policies, 1);
	assert_ptr_equal(cfg->settings[1].policies[0].ops, &nop_policy);
	n = cb_setting_policy(&cfg->settings[1], &nop_policy);
	assert_non_null(n);
	assert_int_equal(n->level, 5);
	assert_int_equal(cfg->settings[1].nr_knobs, 1); /* the knob is still a knob */
	cb_config_free(cfg);
	refused("[setting s]\nnop.level = 6\n[workload w]\ndemand = thp-demand\n", 2,
		"key 'nop.level': '6' is not a whole number in [0, 5]");
	refused("[kernel k]\nnop.level = 1\n" SW, 2,
		"[kernel k]: unknown key 'nop.level' (see configs/README.md)");
	refused("[setting s]\n[workload w]\ndemand = thp-demand\nnop.level = 1\n", 4,
		"[workload w]: unknown key 'nop.level' (keys: fragment, demand, background, "
		"companion, PHASE.OPTION, quick.PHASE.OPTION, timeout, ready_timeout, settle)");
}

/* run --target: the kernel gets the new class's private config with its defaults */
static void test_set_target(void **state)
{
	char err[1024];
	struct cb_config *cfg = cb_config_load(write_cfg("st.ini", "[kernel k]\n" SW), err,
					       sizeof(err));

	if (!cfg)
		fail_msg("%s", err);
	fake_allocs = fake_frees = 0;
	assert_int_equal(cb_kernel_set_target(&cfg->kernels[0], &fake_class), 0);
	assert_ptr_equal(cfg->kernels[0].cls, &fake_class);
	assert_int_equal(((const struct fake_conf *)cfg->kernels[0].priv)->depth, 7);
	assert_int_equal(cb_kernel_set_target(&cfg->kernels[0], &fake_class), 0); /* no-op */
	assert_int_equal(fake_allocs, 1);
	assert_int_equal(cb_kernel_set_target(&cfg->kernels[0], cb_target_class_find("host")), 0);
	assert_int_equal(fake_frees, 1);
	assert_null(cfg->kernels[0].priv);
	assert_int_equal(cb_kernel_set_target(&cfg->kernels[0], NULL), -1);
	cb_config_free(cfg);
}

/* `config doc` lists the plugins' keys in their sections, and the target names */
static void test_doc(void **state)
{
	char *doc = NULL, *kernel, *setting, *row;
	size_t len = 0;
	FILE *f = open_memstream(&doc, &len);

	cb_config_doc(f);
	fclose(f);
	kernel = strstr(doc, "### [kernel NAME]");
	setting = strstr(doc, "### [setting NAME]");
	assert_non_null(kernel);
	assert_non_null(setting);
	assert_true(kernel < setting); /* sections in order: the kernel's ends at the setting's */
	/* after the ssh target's last key, before the setting section */
	row = strstr(kernel, "| `ssh_options` |");
	assert_true(row && row < setting);
	row = strstr(row, "\n| `depth` | integer 1..100 | 7 | fake target: how deep |\n"
		     "| `label` | text | none | fake target: what it is called |\n\n");
	assert_true(row && row < setting);
	row = strstr(setting, "| `wmark.count` |");
	assert_non_null(row);
	row = strstr(row, "\n| `nop.level` | integer 0..5 | none | nop policy: how hard it does "
		     "nothing |\n\nEvery other key is a kernel knob");
	assert_non_null(row);
	assert_non_null(strstr(doc, "| `target` | one of host, qemu, ssh, fake | host |"));
	free(doc);
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
		cmocka_unit_test(test_target_keys_parsed),
		cmocka_unit_test(test_target_keys_refused),
		cmocka_unit_test(test_policy_keys),
		cmocka_unit_test(test_set_target),
		cmocka_unit_test(test_doc),
	};

	cb_targets_register();
	cb_policies_register();
	if (cb_target_class_register(&fake_class) < 0 || cb_policy_register(&nop_policy) < 0)
		return 1;
	return cmocka_run_group_tests(tests, setup, teardown);
}
