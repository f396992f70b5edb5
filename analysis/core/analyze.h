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
