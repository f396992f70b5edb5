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

#endif
