/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_jobs.h - the run loop: cells one after the other, or up to N QEMU cells at once
 * (`run --jobs N`), each guest pinned to host CPUs of its own. Host-target cells always run
 * alone: they measure the machine's own memory, which a guest running beside them would use.
 */
#ifndef CB_RUN_JOBS_H
#define CB_RUN_JOBS_H

#include <stddef.h>

#include "matrix.h"
#include "run.h"
#include "run_progress.h"

struct cb_jobs {
	long n;	    /* --jobs: guests at once */
	long vcpus; /* host CPUs each guest gets: the most vCPUs a qemu kernel of the run has */
	int *slots; /* guest j's CPUs: slots[j * vcpus ...] */
};

/*
 * cb_jobs_setup - the CPU plan of --jobs @n for @cfg's qemu kernels on the CPUs this process
 * may use. Returns 0, or -1 with the numbers in @err (N x vCPUs over the host's CPUs: the
 * caller exits 2).
 */
int cb_jobs_setup(struct cb_jobs *j, const struct cb_config *cfg, long n, char *err,
		  size_t errlen);

void cb_jobs_free(struct cb_jobs *j);

/*
 * cb_run_cells - run @nr cells in order: a progress line when each starts and ends (the
 * time left from @prog), QEMU cells in child processes pinned by @j when j->n > 1 (the
 * first one alone while the QEMU accelerator is still to be probed). Counts failed cells
 * in @failed. Stops starting cells on cb_interrupted, and passes SIGTERM on to the cells
 * running. Returns 0, or -1 if a cell directory could not be made ready.
 */
int cb_run_cells(struct cb_run *run, const struct cb_cell *cells, size_t nr,
		 const struct cb_jobs *j, struct cb_progress *prog, size_t *failed);

/*
 * cb_run_todo - the run's cells to run now: log how many and the estimated time
 * (run_progress.h), then cb_run_cells. Returns what cb_run_cells returns.
 */
int cb_run_todo(struct cb_run *run, const struct cb_cell *todo, size_t nr,
		const struct cb_jobs *j, size_t *failed);

#endif
