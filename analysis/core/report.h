/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - the run report: per-setting tables, the cells left out, the verdict.
 */
#ifndef CB_REPORT_H
#define CB_REPORT_H

#include <stddef.h>
#include <stdio.h>

/*
 * cb_report_run - what cb_analyze_run does, with the error in @err instead of on stderr:
 * analyze every cell of @run_dir/run.json (writing each summary.json), print the tables,
 * the cells left out and the verdict lines to @out, write @run_dir/report.md atomically.
 * Returns 0 if every cell was analyzed, 1 if some were left out because they are not
 * complete, 2 if some had bad input (a missing, unreadable or corrupt file: the others are
 * still analyzed), or -1 with a message naming the file in @err (no or bad run.json,
 * report.md not writable).
 */
int cb_report_run(const char *run_dir, FILE *out, char *err, size_t errlen);

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

#endif
