/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guest_state.h - the guest's half of a saved fragmented guest ([kernel] guest_state =
 * saved; the host's half is qemu_state.h). The agent fragments once for a kernel, workload
 * and repetition, parks with the results share unmounted (QEMU will not save a guest while
 * virtio-9p is mounted), and the host saves it. Each guest QEMU later loads from that file
 * wakes in the park, reads the cell it is to run from the second serial port, mounts the
 * share again and runs that cell with the fragmenter it already has.
 */
#ifndef CB_GUEST_STATE_H
#define CB_GUEST_STATE_H

#include <stddef.h>

#include "matrix.h"
#include "run.h"

/*
 * cb_guest_state_park - unmount the share at @outdir, say CB_STATE_READY_LINE on stdout,
 * then wait (up to @timeout_s; SIGINT ends it) for a line on the serial port @tty: the id
 * of the cell to run, into @id. Then say CB_STATE_GO_LINE and mount the share again.
 * Returns 0, or -1 with run->err set.
 */
int cb_guest_state_park(struct cb_run *run, const char *outdir, const char *tty, double timeout_s,
			char *id, size_t idlen);

/*
 * cb_guest_state_run - the whole saved-state agent: set up and fragment for @first (its
 * kernel, workload and repetition: the state), park, then run the cell the host names,
 * which must share @first's kernel, workload and repetition, into @outdir/ID. @cells, @nr:
 * the matrix, to find it in. Returns the agent's exit code (0 done, 1 failed, 2 a cell
 * that is not this state's).
 */
int cb_guest_state_run(struct cb_run *run, const struct cb_cell *cells, size_t nr,
		       const struct cb_cell *first, const char *outdir, const char *tty);

#endif
