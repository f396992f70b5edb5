/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze.h - turn what the agent wrote into numbers: summary.json per cell, report.md and
 * the verdict per run. The analyzer only reads what is on disk (DESIGN.md: one way through).
 */
#ifndef CB_ANALYZE_H
#define CB_ANALYZE_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

/*
 * cb_analyze_cell - analyze one cell directory: meta.json, vmstat.before/after, trace.dat,
 * workload/ *.jsonl; write summary.json (atomically).
 * Returns 0, or -1 with a message naming the file (and field or offset) in @err.
 */
int cb_analyze_cell(const char *cell_dir, char *err, size_t errlen);

struct json_object;

/*
 * cb_cell_pending - whether the cell of @kernel in @cell_dir, listed in the run.json @run,
 * waits for its kernel: it has no meta.json and its kernel is under run.json's "pending"
 * (another kernel was booted; `run --resume` after a reboot runs it). Such a cell is
 * neither analyzed nor a failure. Writes "pending (kernel K not booted yet)" to @why.
 * A cell that never ran in an interrupted run stays a cell left out: the run did not
 * plan to leave it.
 */
bool cb_cell_pending(struct json_object *run, const char *kernel, const char *cell_dir,
		     char *why, size_t whylen);

/*
 * cb_analyze_run - analyze every cell listed in @run_dir/run.json, write @run_dir/report.md
 * and print the per-setting table and the verdict line to @out.
 * Cells that are incomplete, failed or unreadable are listed (on @out) and left out of the
 * aggregates; the others are still analyzed. Pending cells (cb_cell_pending) are listed
 * apart and do not change the return value.
 * Returns 0 if every cell was analyzed, 1 if some were left out (not complete), 2 if some
 * had bad input (the others are still analyzed), -1 when the run itself is bad (no run.json).
 */
int cb_analyze_run(const char *run_dir, FILE *out);

/* cmd_analyze - `compactbench analyze DIR` (argv[0] is "analyze"); returns the exit code */
int cmd_analyze(int argc, char **argv);

struct cb_stalls;
struct cb_values;

/*
 * cb_analyze_print_trace - a lone trace for a person (analyze_text.c): the stalls in human
 * units, a log2 latency histogram per order and origin, the background work; with @all
 * every trace metric with a value instead. Zero rows and nulls are left out.
 */
void cb_analyze_print_trace(FILE *f, const char *path, const struct cb_stalls *st,
			    const struct cb_values *v, bool all);

#endif
