// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_config_shipped.c - what ships: the .ini files of configs/ parse, default.ini is
 * policies.ini's quick form (same kernels, settings and phases), and configs/README.md holds
 * the reference generated from the key tables, verbatim.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "matrix.h"
#include "policy.h"
#include "qemu_conf.h"
#include "target.h"
#include "target_class.h"
#include "util.h"
#include "wmark_meta.h"

static void test_shipped_configs_parse(void **state)
{
	const char *src = getenv("SOURCE_ROOT");
	const char *files[] = { "configs/default.ini", "configs/policies.ini",
				"configs/smoke-qemu.ini", "tests/harness/smoke.ini" };
	char path[1024], err[1024];

	if (!src)
		skip();
	for (size_t i = 0; i < CB_ARRAY_SIZE(files); i++) {
		struct cb_config *cfg;

		snprintf(path, sizeof(path), "%s/%s", src, files[i]);
		cfg = cb_config_load(path, err, sizeof(err));
		if (!cfg)
			fail_msg("%s", err);
		cb_config_free(cfg);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "PROGRAM --a 1 --b 2": the options as sorted "--name value" pairs (their order is not argv's) */
static char *joined_argv(const struct cb_phase *ph, bool quick)
{
	char **argv = cb_phase_argv(ph, ph->wl->name, quick), *out = NULL, *pairs[64];
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&out, &len);

	for (size_t i = 1; argv[i] && argv[i + 1] && n < CB_ARRAY_SIZE(pairs); i += 2)
		if (asprintf(&pairs[n++], "%s %s", argv[i], argv[i + 1]) < 0)
			abort();
	qsort(pairs, n, sizeof(*pairs), cmp_str);
	fprintf(f, "%s", argv[0]);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, " %s", pairs[i]);
		free(pairs[i]);
	}
	fclose(f);
	cb_argv_free(argv);
	return out;
}

/*
 * configs/default.ini is a part of configs/policies.ini sized to decide: kernels of
 * policies.ini (the same sections; it leaves the headline's 6.12 kernel out), the same
 * settings (each on the same kernels or fewer), and each of its workloads
 * the policies.ini workload of that name with the argv `run --quick` gives it; enough
 * repetitions for the gate (its --min-reps, 4) and fewer groups than the headline matrix.
 */
static void test_default_is_quick_policies(void **state)
{
	const char *src = getenv("SOURCE_ROOT");
	struct cb_config *pol, *def;
	char path[1024], err[1024];

	if (!src)
		skip();
	snprintf(path, sizeof(path), "%s/configs/policies.ini", src);
	pol = cb_config_load(path, err, sizeof(err));
	if (!pol)
		fail_msg("%s", err);
	snprintf(path, sizeof(path), "%s/configs/default.ini", src);
	def = cb_config_load(path, err, sizeof(err));
	if (!def)
		fail_msg("%s", err);
	assert_true(def->reps >= 4);
	assert_true(def->nr_workloads >= 1 && def->nr_workloads < pol->nr_workloads);
	/* policies.ini may have kernels default.ini leaves out (linux612-demand), not the reverse */
	for (size_t i = 0; i < def->nr_kernels; i++) {
		const struct cb_kernel *dk = &def->kernels[i], *pk = NULL;

		for (size_t j = 0; j < pol->nr_kernels; j++)
			if (!strcmp(pol->kernels[j].name, dk->name))
				pk = &pol->kernels[j];
		if (!pk)
			fail_msg("default.ini's [kernel %s] is not in policies.ini", dk->name);
		assert_ptr_equal(dk->cls, pk->cls);
		assert_ptr_equal(dk->cls, &cb_target_qemu_class);
		assert_string_equal(cb_qemu_conf(dk)->recipe, cb_qemu_conf(pk)->recipe);
		assert_string_equal(cb_qemu_conf(dk)->memory, cb_qemu_conf(pk)->memory);
		assert_int_equal(cb_qemu_conf(dk)->cpus, cb_qemu_conf(pk)->cpus);
	}
	assert_int_equal(def->nr_settings, pol->nr_settings);
	for (size_t i = 0; i < pol->nr_settings; i++) {
		const struct cb_setting *ps = &pol->settings[i], *ds = &def->settings[i];

		assert_string_equal(ds->name, ps->name);
		assert_int_equal(ds->nr_knobs, ps->nr_knobs);
		for (size_t k = 0; k < ps->nr_knobs; k++) {
			assert_string_equal(ds->knobs[k].key, ps->knobs[k].key);
			assert_string_equal(ds->knobs[k].value, ps->knobs[k].value);
		}
		assert_int_equal(ds->nr_policies, ps->nr_policies);
		if (cb_setting_policy(ps, &cb_policy_wmark)) {
			const void *dw = cb_setting_policy(ds, &cb_policy_wmark);
			const void *pw = cb_setting_policy(ps, &cb_policy_wmark);

			assert_non_null(dw);
			assert_true(wmark_meta_num(dw, "period_s") == wmark_meta_num(pw, "period_s"));
			assert_true(wmark_meta_num(dw, "order") == wmark_meta_num(pw, "order"));
			assert_true(wmark_meta_num(dw, "count") == wmark_meta_num(pw, "count"));
		}
		/* default.ini may run a setting on fewer kernels, never on one policies.ini lacks */
		for (size_t k = 0; ps->kernels && ps->kernels[k]; k++)
			assert_non_null(ds->kernels);
		for (size_t k = 0; ds->kernels && ds->kernels[k]; k++) {
			bool found = !ps->kernels;

			for (size_t m = 0; ps->kernels && ps->kernels[m]; m++)
				found |= !strcmp(ds->kernels[k], ps->kernels[m]);
			assert_true(found);
		}
	}
	for (size_t i = 0; i < def->nr_workloads; i++) {
		const struct cb_workload *dw = &def->workloads[i], *pw = NULL;

		for (size_t j = 0; j < pol->nr_workloads; j++)
			if (!strcmp(pol->workloads[j].name, dw->name))
				pw = &pol->workloads[j];
		if (!pw)
			fail_msg("default.ini's [workload %s] is not in policies.ini", dw->name);
		assert_true(dw->settle_s == pw->settle_s);
		for (int p = 0; p < CB_NR_PHASES; p++) {
			char *a, *b;

			assert_true(!dw->phase[p].wl == !pw->phase[p].wl);
			if (!pw->phase[p].wl)
				continue;
			assert_string_equal(dw->phase[p].wl->name, pw->phase[p].wl->name);
			a = joined_argv(&pw->phase[p], true);
			b = joined_argv(&dw->phase[p], false);
			assert_string_equal(b, a);
			free(a);
			free(b);
		}
	}
	cb_config_free(pol);
	cb_config_free(def);
}

/* configs/README.md holds the reference generated from the tables, verbatim */
static void test_readme_matches_tables(void **state)
{
	static const char marker[] = "<!-- generated by `compactbench config doc`: edit the tables, "
				     "not this -->\n";
	const char *src = getenv("SOURCE_ROOT");
	char path[1024], *readme, *doc = NULL, *at;
	size_t len = 0;
	FILE *f;

	if (!src)
		skip();
	snprintf(path, sizeof(path), "%s/configs/README.md", src);
	readme = cb_read_file(path, NULL);
	assert_non_null(readme);
	at = strstr(readme, marker);
	assert_non_null(at);
	f = open_memstream(&doc, &len);
	cb_config_doc(f);
	fclose(f);
	if (strcmp(at + strlen(marker), doc))
		fail_msg("configs/README.md is out of date: regenerate its reference with "
			 "`compactbench config doc`");
	free(doc);
	free(readme);
}
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_configs_parse),
		cmocka_unit_test(test_default_is_quick_policies),
		cmocka_unit_test(test_readme_matches_tables),
	};

	cb_targets_register();
	cb_policies_register();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
