/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * target.h - where cells run. A target is an ops table, one file each (fio's engines):
 * host (the booted kernel, target_host.c), qemu (a recipe-built kernel in a VM, target_qemu.c;
 * its keys in qemu_conf.c) and ssh (a lab machine's booted kernel, reached with ssh/scp,
 * target_ssh.c). Each has a class (target_class.h: its keys, private config, verify) naming
 * its ops; a new target is its file(s) plus a line in cb_targets_register (target.c).
 */
#ifndef CB_TARGET_H
#define CB_TARGET_H

#include "config.h"
#include "matrix.h"
#include "target_class.h"

struct cb_run;

struct cb_target_ops {
	const char *name;
	/* before the first cell: check the target can run cells, replay a left-over journal */
	int (*prepare)(struct cb_run *run);
	/* one cell: knobs, start state, then the agent writes the cell directory */
	int (*run_cell)(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir);
	/* bring the cell's files into @cell_dir if they were made elsewhere */
	int (*fetch)(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir);
	/* after the last cell, on error and on interrupt: restore every knob */
	void (*teardown)(struct cb_run *run);
};

extern const struct cb_target_ops cb_target_host;
extern const struct cb_target_ops cb_target_qemu;
extern const struct cb_target_ops cb_target_ssh;

/*
 * The host target's set-up in the two halves a saved guest (guest_state.h) runs apart.
 * cb_host_setup_fragment - before the fragment phase that every setting's cell of @cell's
 * kernel, workload and repetition will share: the machine's own values, the start state,
 * the knobs every such setting sets alike, and vm.compaction_proactiveness 0 unless they
 * all set it (so that no setting's background compaction shapes the shared layout), then
 * memory_limit's reserve and window, as a booted cell has them before its fragmenter.
 * cb_host_setup_loaded - after the load: @cell's setting's knobs, on top (the reserve and
 * the window stay the fragment half's).
 * Both return 0, or -1 with run->err set; the journal puts every knob back.
 */
int cb_host_setup_fragment(struct cb_run *run, const struct cb_cell *cell);
int cb_host_setup_loaded(struct cb_run *run, const struct cb_cell *cell);

/* the classes (target_class.h) of the built-in targets, next to their ops */
extern const struct cb_target_class cb_target_host_class;
extern const struct cb_target_class cb_target_qemu_class;
extern const struct cb_target_class cb_target_ssh_class;

/*
 * cb_targets_register - register the built-in target classes, so configs find them by
 * name (their verify callbacks run at load). Call before the first cb_config_load; the
 * commands do it at start. Calling it again is harmless.
 */
void cb_targets_register(void);

/*
 * cb_qemu_accel_known - whether the qemu target knows its accelerator without booting a
 * guest (TCG asked for, no /dev/kvm, or a remembered failed KVM probe): if not, the first
 * guest probes KVM, and concurrent guests should wait for its answer
 */
bool cb_qemu_accel_known(void);

/* cb_target_find - the ops of class @cls, or NULL (errno ENOSYS) if it has none */
const struct cb_target_ops *cb_target_find(const struct cb_target_class *cls);

#endif
