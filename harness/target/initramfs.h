/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * initramfs.h - the qemu guest's root: busybox-static, the agent (this compactbench
 * binary), the workload programs, the shared libraries they need and an /init that
 * mounts proc/sys/dev/tracefs and the 9p results share, runs `compactbench agent`, then
 * reboots (QEMU runs with -no-reboot, so that ends it).
 *
 * /init reads what it runs from the kernel command line (unknown NAME=VALUE parameters
 * become its environment): cbcell=CELL_ID, cbquick=1, cbaccel=kvm|tcg. It prints
 * "cb-init: up" once booted and "cb-init: agent start" before the agent; the qemu target
 * waits for these lines.
 */
#ifndef CB_INITRAMFS_H
#define CB_INITRAMFS_H

#include <stddef.h>

#define CB_INIT_UP_LINE "cb-init: up"
#define CB_INIT_AGENT_LINE "cb-init: agent start"
#define CB_INIT_AGENT_EXIT_LINE "cb-init: agent exit"
#define CB_9P_TAG "cbresults"
#define CB_9P_OPTS "trans=virtio,version=9p2000.L,msize=262144"
/*
 * cbsave=1 ([kernel] guest_state = saved, qemu_state.h): the agent runs with --saved-state
 * on the second serial port (CB_STATE_TTY); it prints "cb-state: ready" once fragmented
 * with the share unmounted, and, in a guest loaded from the saved file, "cb-state: go ID
 * uptime" when that port gave it the cell ID to run.
 */
#define CB_STATE_TTY "/dev/ttyS1"
#define CB_STATE_READY_LINE "cb-state: ready"
#define CB_STATE_GO_LINE "cb-state: go"
/*
 * cbbatch=NAME: the guest runs the cells listed in RESULTS/.batch/NAME/cells, each when
 * RESULTS/.batch/NAME/go.ID appears, between these lines ("... ID uptime", "... ID rc")
 */
#define CB_BATCH_START "cb-batch: start"
#define CB_BATCH_END "cb-batch: end"

/*
 * cb_initramfs_build - a newc cpio of the guest root, cached by a hash of its bytes under
 * cb_cache_root()/initramfs/<hash>.cpio. @self: the compactbench binary to put in;
 * @workloads_dir: the directory of the workload programs. Writes the path to @out.
 * Returns 0, or -1 with a message in @err.
 */
int cb_initramfs_build(const char *self, const char *workloads_dir, char *out, size_t size,
		       char *err, size_t errlen);

#endif
