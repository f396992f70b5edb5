// SPDX-License-Identifier: GPL-2.0-only
/*
 * qemu_conf.c - the qemu target's class: its [kernel] keys and their private config
 * (qemu_conf.h), and the check of its recipe before any cell runs; the target itself is
 * target_qemu.c.
 */
#include "config_verify.h"
#include "kernel_build.h"
#include "qemu_conf.h"
#include "target.h"
#include "xalloc.h"

#define QEMU(f) CB_KEY_PRIV(struct cb_qemu_conf, f)

static const char *const clock_names[] = { "host", "icount", NULL }; /* enum cb_qemu_clock */
static const char *const state_names[] = { "boot", "saved", NULL }; /* enum cb_qemu_state */

static const struct cfg_key qemu_keys[] = {
	{ SEC_KERNEL, "recipe", KT_STRING, NULL, 0, 0, NULL, QEMU(recipe),
	  "qemu target: the kernel recipe (configs/kernels/NAME.ini; relative to this file's "
	  "directory) built, cached and booted for this kernel's cells",
	  CB_KEY_LINE(struct cb_qemu_conf, recipe_line) },
	{ SEC_KERNEL, "memory", KT_SIZE, "2G", 64 << 20, 1LL << 40, NULL, QEMU(memory),
	  "qemu target: guest memory (bytes like 2G, or a fraction of the host's MemTotal)" },
	{ SEC_KERNEL, "cpus", KT_INT, "2", 1, 64, NULL, QEMU(cpus),
	  "qemu target: guest CPUs" },
	{ SEC_KERNEL, "boot_timeout", KT_DURATION, "120", 1000, 86400000, NULL, QEMU(boot_timeout_s),
	  "qemu target: a guest whose agent has not started within this is killed and the cell "
	  "fails with the console's tail; the agent then gets the workload's timeouts" },
	{ SEC_KERNEL, "clock", KT_ENUM, "host", 0, 0, clock_names, QEMU(clock),
	  "qemu target: the guest's clock. host: the host's time, stretched when other work "
	  "takes the host's CPUs; icount: QEMU counts instructions, 2 ns each, so the guest's "
	  "times (stall times too) depend on the work done, not on the host's load (TCG only; "
	  "needs cpus = 1)" },
	{ SEC_KERNEL, "guest_state", KT_ENUM, "boot", 0, 0, state_names, QEMU(guest_state),
	  "qemu target: where a cell's guest starts. boot: it boots and fragments its own memory; "
	  "saved: per workload and repetition one guest fragments (with the knobs every setting "
	  "shares and vm.compaction_proactiveness 0) and is saved to a file, and every setting's "
	  "cell of that repetition starts from it, so settings meet the same fragmented memory "
	  "(TCG; workloads with a fragment phase; memory_limit is reserved before the fragmenter)" },
	{ .name = NULL },
};

static void *qemu_alloc(void)
{
	return cb_xcalloc(1, sizeof(struct cb_qemu_conf));
}

static void qemu_free(void *priv)
{
	cb_cfg_keys_free(qemu_keys, priv);
}

/* a qemu kernel: a recipe that loads */
static int check_recipe(const struct cb_config *cfg, const struct cb_kernel *k, FILE *out)
{
	const struct cb_qemu_conf *qc = cb_qemu_conf(k);
	char path[4096], err[2048];
	struct cb_recipe *r;

	if (!qc->recipe) {
		cb_config_where(out, cfg, k->line);
		if (k->line > 0)
			fprintf(out, "[kernel %s]: the qemu target needs a recipe (e.g. recipe = "
				"kernels/linux-6.1.ini)\n", k->name);
		else
			fprintf(out, "no [kernel] section, so the qemu target has no kernel to boot: "
				"add a [kernel NAME] section with recipe = kernels/linux-6.1.ini "
				"(configs/README.md)\n");
		return 1;
	}
	if (cb_config_recipe_path(cfg, k, path, sizeof(path)) < 0) {
		cb_config_where(out, cfg, qc->recipe_line);
		fprintf(out, "[kernel %s] key 'recipe': '%s': path too long\n", k->name, qc->recipe);
		return 1;
	}
	r = cb_recipe_load(path, err, sizeof(err));
	if (!r) {
		cb_config_where(out, cfg, qc->recipe_line);
		fprintf(out, "[kernel %s] key 'recipe': %s\n", k->name, err);
		return 1;
	}
	cb_recipe_free(r);
	return 0;
}

/* guest_state = saved: a fragment phase to save after */
static int check_saved(const struct cb_config *cfg, const struct cb_kernel *k, FILE *out)
{
	int bad = 0;

	if (cb_qemu_conf(k)->guest_state != CB_QEMU_STATE_SAVED)
		return 0;
	for (size_t i = 0; i < cfg->nr_workloads; i++) {
		const struct cb_workload *w = &cfg->workloads[i];

		if (w->phase[CB_PHASE_FRAGMENT].wl || !cb_workload_on_kernel(w, k))
			continue;
		cb_config_where(out, cfg, w->line);
		fprintf(out, "[workload %s]: no fragment phase, and [kernel %s] has guest_state = saved "
			"(a guest is saved once fragmented)\n", w->name, k->name);
		bad = 1;
	}
	return bad;
}

/* the recipe; the knobs wait for the guest */
static int qemu_check(const struct cb_config *cfg, const struct cb_kernel *k, const char *root,
		      FILE *out, FILE *notes)
{
	int bad = check_recipe(cfg, k, out) | check_saved(cfg, k, out);

	if (notes)
		fprintf(notes, "note: [kernel %s]: its knobs are checked in the guest (its /proc "
			"and /sys exist once it boots)\n", k->name);
	return bad;
}

const char *cb_qemu_clock_name(const struct cb_kernel *k)
{
	return clock_names[cb_qemu_conf(k)->clock];
}

/* -icount: TCG with one vCPU (qemu_conf.h) */
static int qemu_verify(const struct cb_kernel *k, char *why, size_t len)
{
	const struct cb_qemu_conf *qc = cb_qemu_conf(k);

	if (qc->clock == CB_QEMU_CLOCK_ICOUNT && qc->cpus != 1) {
		snprintf(why, len, "[kernel %s]: clock = icount needs cpus = 1 (QEMU 7.2 hangs at "
			 "the second vCPU's bring-up when it counts instructions), not %ld", k->name,
			 qc->cpus);
		return -1;
	}
	return 0;
}

/* guest_state = saved: a state's cells load, one after another, what its first one saved */
static const char *qemu_serial(const struct cb_kernel *k)
{
	return cb_qemu_conf(k)->guest_state == CB_QEMU_STATE_SAVED ?
		       "guest_state = saved runs the cells of a saved guest one after another, "
		       "in one process" : NULL;
}

static long qemu_guest_cpus(const struct cb_kernel *k)
{
	return cb_qemu_conf(k)->cpus > 0 ? cb_qemu_conf(k)->cpus : 2;
}

const struct cb_target_class cb_target_qemu_class = {
	.name = "qemu",
	.flags = CB_TARGET_GUEST,
	.keys = qemu_keys,
	.priv_alloc = qemu_alloc,
	.priv_free = qemu_free,
	.verify = qemu_verify,
	.check = qemu_check,
	.guest_cpus = qemu_guest_cpus,
	.serial = qemu_serial,
	.ops = &cb_target_qemu,
};
