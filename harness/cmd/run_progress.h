/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_progress.h - how long a run will take: an estimate at its start, the time left on
 * each progress line.
 */
#ifndef CB_RUN_PROGRESS_H
#define CB_RUN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "matrix.h"
#include "run.h"

/*
 * A cell's overhead besides its configured waits (settle, the demand's duration, cooldown):
 * boot, fragmentation, stop, analysis. Measured on the 2-core development VM as wall -
 * settle - demand of the cells' breakdowns, 1 GiB TCG guests: on the idle host (2026-12-05)
 * a median of 9.7 s over the default run's 40 cells and 10.9 s over the headline's 90
 * (8.1-24.2 s); at load 6-11 (2026-12-03) 27.9 s, where the estimate of 25 s said 33 min
 * for a default run that took 23. The progress lines rescale by the cells done. A 256 MiB
 * host cell: 0.6-3.4 s (README: How long a run takes).
 */
#define CB_EST_QEMU_OVERHEAD_S 12.0
#define CB_EST_HOST_OVERHEAD_S 5.0

struct cb_progress {
	size_t nr;	   /* cells this command runs */
	double *est_s;	   /* the estimate of each (the order of the cells to run) */
	bool *parallel;	   /* runs beside others (a qemu cell under --jobs > 1) */
	bool *done;
	long jobs;
	double done_est;   /* the estimates of the cells done */
	double done_wall;  /* and their wall times */
	char basis[600];   /* what the estimate is based on */
};

/*
 * cb_progress_init - estimate each of @todo's @nr cells: from the cells of the newest
 * earlier run of the same config (same sha256 and --quick) in the config's output
 * directory where one has time breakdowns for the cell's kernel and workload, else from the
 * config (settle + demand duration + cooldown + the target's overhead above). Returns 0, or
 * -1 (no memory).
 */
int cb_progress_init(struct cb_progress *p, const struct cb_run *run, const struct cb_cell *todo,
		     size_t nr, long jobs);

void cb_progress_free(struct cb_progress *p);

/* cb_progress_total_s - the estimated wall time of the whole: serial cells + parallel / jobs */
double cb_progress_total_s(const struct cb_progress *p);

/* cb_progress_done - cell @i (of the order given to init) took @wall_s */
void cb_progress_done(struct cb_progress *p, size_t i, double wall_s);

/*
 * cb_progress_left - "about 12 min left" into @buf: the cells not done, their estimates
 * scaled by how the cells done so far compared with theirs
 */
void cb_progress_left(const struct cb_progress *p, char *buf, size_t size);

/* cb_duration_text - "45 s", "12 min", "2 h 05 min" */
void cb_duration_text(double s, char *buf, size_t size);

/*
 * cb_est_cell_config_s - the config-based estimate of one cell: the workload's settle and
 * longest demand/companion `duration` (or `waves` x `period` where that is shorter; quick.*
 * with --quick), the cooldown, the overhead
 */
double cb_est_cell_config_s(const struct cb_config *cfg, const struct cb_cell *cell, bool quick);

#endif
