/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qemu_kvm.h - whether the qemu target tries KVM for a guest. Nested KVM hangs or aborts on
 * some machines, so a KVM guest that does not come up makes the rest of the run TCG
 * (cb_qemu_kvm_failed), and the verdict is remembered in CACHE/kvm-probe for later runs.
 * cb_qemu_accel_known (target.h) reads the same memo.
 */
#ifndef CB_QEMU_KVM_H
#define CB_QEMU_KVM_H

#include <stdbool.h>

/*
 * cb_qemu_want_kvm - whether the next guest should try KVM: /dev/kvm usable, no failure in
 * this run, and no remembered one ($COMPACTBENCH_QEMU_ACCEL=tcg never, =kvm always probes)
 */
bool cb_qemu_want_kvm(void);

/* cb_qemu_kvm_failed - a KVM guest did not come up: TCG for the rest of this run */
void cb_qemu_kvm_failed(void);

/* cb_qemu_kvm_memo - remember the probe's verdict (@failed) for later runs, or forget it */
void cb_qemu_kvm_memo(bool failed);

#endif
