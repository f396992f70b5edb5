/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * agent.h - what runs inside the target for one cell: collector on, snapshots, the
 * workload phases, snapshots, collector off, meta.json. It only records; the analyzer
 * reads what it wrote (DESIGN.md: one way through).
 */
#ifndef CB_AGENT_H
#define CB_AGENT_H

#include "matrix.h"
#include "run.h"

/*
 * cb_agent_run_cell - run @cell and write its directory @cell_dir (see results/README.md).
 * meta.json is written "incomplete" first and "complete" only at the very end, so an
 * interrupted cell never reads as complete. Returns 0 if the cell completed, -1 if it
 * failed or was interrupted (run->err says why; meta.json says so too).
 */
int cb_agent_run_cell(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir);

/*
 * cb_agent_timing_final - the agent's last lap (its knobs restored after the cell) into
 * @cell_dir/meta.json "timing" {"parts"}, for an agent whose parts the host takes from
 * there (the qemu guest)
 */
void cb_agent_timing_final(struct cb_run *run, const char *cell_dir);

#endif
