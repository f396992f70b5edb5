// SPDX-License-Identifier: GPL-2.0-only
/*
 * qemu_conf.c - the qemu target's class: its [kernel] keys and their private config
 * (qemu_conf.h); the target itself is target_qemu.c.
 */
#include "qemu_conf.h"
#include "target.h"
#include "xalloc.h"

#define QEMU(f) CB_KEY_PRIV(struct cb_qemu_conf, f)

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
	.guest_cpus = qemu_guest_cpus,
	.ops = &cb_target_qemu,
};
