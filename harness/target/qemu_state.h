/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qemu_state.h - the host's half of a saved fragmented guest ([kernel] guest_state = saved;
 * the guest's half is guest_state.h). For each kernel, workload and repetition (a state)
 * one guest boots, fragments and is saved into RUN/.states/NAME.state; every setting's cell
 * of that state then starts a guest from the file, so all settings of a repetition meet the
 * same fragmented memory and compare paired by state. NAME is <kernel>.<workload>.r<rep>;
 * beside the file is the saved guest's console (NAME.console.log, kept). Each guest has a
 * QMP socket and a second serial port on a socket, in a private directory in /tmp: a
 * loaded guest is told there which cell to run. A state's file is removed once the run has
 * no later cell for it (about the guest's memory each).
 */
#ifndef CB_QEMU_STATE_H
#define CB_QEMU_STATE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "matrix.h"
#include "run.h"

struct cb_qstate {
	char name[4 * CB_NAME_MAX + 32];
	char path[PATH_MAX];	/* RUN/.states/NAME.state */
	char console[PATH_MAX]; /* RUN/.states/NAME.console.log: the saved guest's console */
	char dir[64];		/* the private directory in /tmp for the sockets, "" if none */
	char qmp[96];		/* QEMU's QMP socket: DIR/qmp */
	char port[96];		/* the guest's second serial port: DIR/port */
	int port_fd;		/* connected to it while a loaded guest runs, else -1 */
};

/* cb_qstate_init - @st for @cell's state in the run directory @run_dir, its directory made */
int cb_qstate_init(struct cb_qstate *st, const char *run_dir, const struct cb_cell *cell,
		   char *err, size_t errlen);

/* cb_qstate_saved - whether @st's file exists (saved earlier in this run) */
bool cb_qstate_saved(const struct cb_qstate *st);

/* cb_qstate_sockets - make @st's private socket directory; its old sockets removed */
int cb_qstate_sockets(struct cb_qstate *st, char *err, size_t errlen);

/*
 * cb_qstate_save - wait until the guest QEMU @pid runs (console st->console) says it is
 * fragmented and parked (CB_STATE_READY_LINE), within @ready_s, then save it over QMP into
 * st->path (through a .part name, so a file there is always whole), within @save_s. The
 * guest is left stopped; the caller ends QEMU. Returns 0, or -1 with @err set.
 */
int cb_qstate_save(struct cb_qstate *st, pid_t pid, double ready_s, double save_s, char *err,
		   size_t errlen);

/*
 * cb_qstate_go - a guest QEMU is loading from @st's file: once loaded (within
 * @timeout_s), let it run and tell it, on its second serial port, to run @cell. Returns
 * 0, or -1 with @err set.
 */
int cb_qstate_go(struct cb_qstate *st, const struct cb_cell *cell, double timeout_s, char *err,
		 size_t errlen);

/*
 * cb_qstate_release - after @cell ran: remove @st's file if no cell after @cell in @run's
 * list (run->todo) starts from it, close the port, remove the socket directory
 */
void cb_qstate_release(struct cb_qstate *st, const struct cb_run *run, const struct cb_cell *cell);

/* cb_qstate_same - whether @a and @b start from the same state */
bool cb_qstate_same(const struct cb_cell *a, const struct cb_cell *b);

/* cb_qstate_name - @cell's state's NAME, <kernel>.<workload>.r<rep>, into @buf */
void cb_qstate_name(const struct cb_cell *cell, char *buf, size_t size);

#endif
