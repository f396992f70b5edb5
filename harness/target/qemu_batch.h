/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qemu_batch.h - the host's side of a guest that runs several cells ([global] boot =
 * per-kernel, boot_plan.h): the batch's files in RUN/.batch/NAME/ (NAME: its first cell's
 * id), shared with the guest over 9p: `cells` (the ids, one a line), go.ID (created when
 * the run loop starts cell ID: the guest waits for it, so the host's analysis of a cell
 * never runs beside the next cell) and console.log (QEMU's, split into each cell's
 * console.log as its cell ends). The boot is charged to the batch's first cell and the
 * guest's poweroff to its last (README: how long a run takes).
 */
#ifndef CB_QEMU_BATCH_H
#define CB_QEMU_BATCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "matrix.h"

struct cb_qbatch {
	const struct cb_cell *cells; /* the batch's cells (in the run loop's list), NULL: none */
	size_t nr;
	size_t next;	       /* the cell the guest waits for next */
	pid_t pid;	       /* the live guest, 0 if none */
	size_t console_off;    /* where the next cell's part of the console starts */
	char dir[PATH_MAX];    /* RUN/.batch/NAME */
	char console[PATH_MAX];
};

/*
 * cb_qbatch_begin - make @b the batch of @cells[0..@nr) of the run in @run_dir: its
 * directory afresh, the `cells` list, no go file yet. Returns 0, or -1 with @err.
 */
int cb_qbatch_begin(struct cb_qbatch *b, const char *run_dir, const struct cb_cell *cells,
		    size_t nr, char *err, size_t errlen);

/* cb_qbatch_name - the NAME the guest gets (cbbatch=NAME): the first cell's id */
const char *cb_qbatch_name(const struct cb_qbatch *b);

/* cb_qbatch_waits_for - whether a live guest of @b waits for @cell next */
bool cb_qbatch_waits_for(const struct cb_qbatch *b, const struct cb_cell *cell);

/* cb_qbatch_last - whether @cell is the batch's last */
bool cb_qbatch_last(const struct cb_qbatch *b, const struct cb_cell *cell);

/* cb_qbatch_go - let the guest start @cell (go.ID); its position then moves past it */
int cb_qbatch_go(struct cb_qbatch *b, const struct cb_cell *cell);

/*
 * cb_qbatch_marker - the console line's start that marks @cell's start (@end false) or end
 * in the guest: "cb-batch: start ID " / "cb-batch: end ID ", into @buf
 */
void cb_qbatch_marker(const struct cb_cell *cell, bool end, char *buf, size_t size);

/*
 * cb_qbatch_end_rc - the agent's exit status on @cell's end line in the text @console, or
 * -1 if the line is not there
 */
int cb_qbatch_end_rc(const char *console, const struct cb_cell *cell);

/*
 * cb_qbatch_console_split - @cell's part of the batch's console into @cell_dir/console.log:
 * from where the last part ended to @cell's end line, or to the end of the file if
 * @to_eof (the guest is gone) or that line is not there
 */
void cb_qbatch_console_split(struct cb_qbatch *b, const struct cb_cell *cell,
			     const char *cell_dir, bool to_eof);

/* cb_qbatch_end - kill a live guest of @b, remove the batch's files, forget it */
void cb_qbatch_end(struct cb_qbatch *b);

#endif
