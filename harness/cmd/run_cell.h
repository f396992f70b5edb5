/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_cell.h - one attempt at one cell, as the run loop (run_jobs.c) makes it: in the
 * `run` process, or in a child of it when cells run at once (--jobs).
 */
#ifndef CB_RUN_CELL_H
#define CB_RUN_CELL_H

#include <stdbool.h>
#include <stddef.h>

#include "matrix.h"
#include "run.h"

/* what an attempt came to: fixed size, so a child can hand it over a pipe in one piece */
struct cb_cell_result {
	int ok;		   /* 1: complete and analyzed, 0: failed or interrupted */
	int interrupted;   /* cb_interrupted was set */
	double wall_s;	   /* the cell's wall time */
	char figures[1200]; /* ": N direct-compaction stalls ..." for the progress line */
	char err[2048];	   /* why it failed */
};

/*
 * cb_cell_attempt - run @cell into run->dir/ID: remove what an earlier attempt left, the
 * target's run_cell and fetch, the cell's analysis, each lap of run->timing timed, and the
 * breakdown written to the cell's meta.json "timing" (cb_timing_json, plus the host's
 * CLOCK_MONOTONIC at the cell's start and end, and @pinned: the host CPUs this process
 * and its guest were pinned to, NULL if not pinned). Fills @res; returns
 * -1 only if the cell directory could not be made ready (the run must stop), else 0.
 */
int cb_cell_attempt(struct cb_run *run, const struct cb_cell *cell, const char *pinned,
		    struct cb_cell_result *res);

/*
 * cb_timing_run_sum - run.json's "timing": over the cells of @cells whose meta.json has a
 * breakdown, their number, the sum of their wall times, of each part and of what is
 * unaccounted. Never NULL.
 */
struct json_object *cb_timing_run_sum(const char *run_dir, const struct cb_cell *cells, size_t nr);

#endif
