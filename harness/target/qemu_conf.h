/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qemu_conf.h - the qemu target's own [kernel] keys (recipe, memory, cpus, boot_timeout, clock),
 * parsed into its private config (target_class.h), and its class. Only the qemu target's
 * files (target_qemu.c, config_verify.c's recipe check) read this struct.
 */
#ifndef CB_QEMU_CONF_H
#define CB_QEMU_CONF_H

#include "config.h"

/*
 * The guest's clock. host: under TCG the guest's time is the host's, so a vCPU thread waiting
 * for a host CPU stretches every time the guest measures. icount: QEMU counts instructions
 * and the guest's clock advances 2^CB_QEMU_ICOUNT_SHIFT ns per instruction (-icount
 * shift=N,sleep=off: idle time is skipped, not waited for), so what the guest times depends
 * on the work done, not on the host's load. TCG only, and one vCPU: QEMU 7.2 hangs at the
 * second vCPU's bring-up with -icount.
 */
enum cb_qemu_clock { CB_QEMU_CLOCK_HOST, CB_QEMU_CLOCK_ICOUNT };

/*
 * 2 ns an instruction: about what a TCG guest of this machine runs without icount (460
 * million instructions a second, measured on the thp-frag burst), so rates and periods
 * written for the host clock (churn, waves, settle) ask about as much of the guest
 */
#define CB_QEMU_ICOUNT_SHIFT 1

/*
 * Where a cell's guest starts. boot: it boots and fragments its own memory. saved: one guest
 * a kernel, workload and repetition fragments and is saved; each setting's cell of that
 * repetition loads it (qemu_state.h), so settings compare on the same fragmented memory.
 */
enum cb_qemu_state { CB_QEMU_STATE_BOOT, CB_QEMU_STATE_SAVED };

struct cb_qemu_conf {
	char *recipe;	       /* the kernel recipe (kernel_build.h), as written in the file */
	int recipe_line;       /* the line of `recipe`, 0 if none */
	char *memory;	       /* guest memory, size text */
	long cpus;	       /* guest CPUs */
	double boot_timeout_s; /* the agent must start within this */
	int clock;	       /* enum cb_qemu_clock */
	int guest_state;       /* enum cb_qemu_state */
};

/* cb_qemu_clock_name - the name of @k's clock as its config and meta.json write it */
const char *cb_qemu_clock_name(const struct cb_kernel *k);

/* cb_qemu_conf - the qemu config of @k, a kernel on the qemu target */
static inline const struct cb_qemu_conf *cb_qemu_conf(const struct cb_kernel *k)
{
	return k->priv;
}

#endif
