/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qemu_conf.h - the qemu target's own [kernel] keys (recipe, memory, cpus, boot_timeout),
 * parsed into its private config (target_class.h), and its class. Only the qemu target's
 * files (target_qemu.c, config_verify.c's recipe check) read this struct.
 */
#ifndef CB_QEMU_CONF_H
#define CB_QEMU_CONF_H

#include "config.h"

struct cb_qemu_conf {
	char *recipe;	       /* the kernel recipe (kernel_build.h), as written in the file */
	int recipe_line;       /* the line of `recipe`, 0 if none */
	char *memory;	       /* guest memory, size text */
	long cpus;	       /* guest CPUs */
	double boot_timeout_s; /* the agent must start within this */
};

/* cb_qemu_conf - the qemu config of @k, a kernel on the qemu target */
static inline const struct cb_qemu_conf *cb_qemu_conf(const struct cb_kernel *k)
{
	return k->priv;
}

#endif
