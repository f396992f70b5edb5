/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * agent.h - what runs inside the target for one cell: collector on, snapshots, the
 * workload phases, snapshots, collector off, meta.json. It only records; the analyzer
 * reads what it wrote (DESIGN.md: one way through).
 */
#ifndef CB_AGENT_H
#define CB_AGENT_H

#include "matrix.h"
#include "proc.h"
#include "run.h"

#include <limits.h>

/*
 * cb_agent_run_cell - run @cell and write its directory @cell_dir (see results/README.md).
 * meta.json is written "incomplete" first and "complete" only at the very end, so an
 * interrupted cell never reads as complete. With run->held set, the fragment phase is that
 * held fragmenter, already ready (its time before the cell is not the cell's), and its
 * output is copied into the cell. Returns 0 if the cell completed, -1 if it
 * failed or was interrupted (run->err says why; meta.json says so too).
 */
int cb_agent_run_cell(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir);

/*
 * cb_agent_timing_final - the agent's last lap (its knobs restored after the cell) into
 * @cell_dir/meta.json "timing" {"parts"}, for an agent whose parts the host takes from
 * there (the qemu guest)
 */
void cb_agent_timing_final(struct cb_run *run, const char *cell_dir);

/*
 * A fragment phase started before a guest was saved (guest_state.h): it goes on into the
 * cell the loaded guest runs (run->held), its output on the guest's tmpfs meanwhile, since
 * the results share must be unmounted for QEMU to save the guest.
 */
struct cb_held_fragment {
	struct cb_proc proc;
	struct json_object *entry; /* its meta.json "workload" entry */
	struct json_object *meta;  /* meta.json "saved_state": what the guest knew of its save */
	char dir[PATH_MAX];	   /* where its output is: DIR/OUT, DIR/ERR */
	char out[128];		   /* its output file, relative: workload/1-fragment-NAME.jsonl */
	char err[128];		   /* its stderr file, relative: workload/1-fragment-NAME.stderr */
};

/*
 * cb_agent_fragment_hold - start @cell's fragment phase with its output under @dir and wait
 * until it says ready (the workload's ready_timeout). Returns 0, or -1 with run->err set;
 * either way cb_agent_fragment_drop() ends it unless a cell took it over.
 */
int cb_agent_fragment_hold(struct cb_run *run, const struct cb_cell *cell, const char *dir,
			   struct cb_held_fragment *h);

/* cb_agent_fragment_drop - stop @h's fragmenter if no cell took it, free what @h holds */
void cb_agent_fragment_drop(struct cb_held_fragment *h);

#endif
