/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runs.h - a run directory as compare, gate and plot see it: its cells' summary.json
 * values grouped by (kernel, setting, workload), one value per repetition and metric.
 */
#ifndef CB_RUNS_H
#define CB_RUNS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "metrics.h"

struct cb_group {
	char kernel[64], setting[64], workload[64];
	size_t n;		   /* analyzed repetitions */
	long *rep;		   /* their repetition numbers, ascending */
	char **cell_dir;	   /* their cell directories */
	double *val[CB_M_NR];	   /* per metric, n values in rep order; NAN where null */
	bool lost;		   /* a cell of the group lost trace events */
};

struct cb_run_data {
	char dir[PATH_MAX];
	char config_sha256[80];
	char tool_version[80];
	struct cb_group *groups;   /* in the order the run's cells first name them */
	size_t ng;
	size_t cells;		   /* cells listed in run.json */
	size_t failed;		   /* cells without a usable summary (failed, incomplete, bad) */
	char failed_why[1024];	   /* the first of them and why */
};

/*
 * cb_run_load - read @dir/run.json and every cell's summary.json (analyzing a cell whose
 * summary is missing or older than its meta.json). A cell that cannot be summarized is
 * counted in ->failed, not an error. Returns 0, or -1 with a message naming the file in
 * @err when the run itself cannot be read (no run.json, a summary of another schema).
 */
int cb_run_load(const char *dir, struct cb_run_data *rd, char *err, size_t errlen);

/*
 * cb_runs_load_all - cb_run_load each of the @n directories in @dirs into @runs; names
 * cells left out on stderr, prefixed "compactbench @cmd:". Returns 0, or -1 after printing
 * the error (nothing stays allocated then).
 */
int cb_runs_load_all(char *const *dirs, int n, struct cb_run_data *runs, const char *cmd);

/* cb_run_free - free what cb_run_load allocated */
void cb_run_free(struct cb_run_data *rd);

/*
 * cb_run_keep_setting - drop every group whose setting is not @setting; returns how many
 * groups are left
 */
size_t cb_run_keep_setting(struct cb_run_data *rd, const char *setting);

/*
 * cb_group_values - the non-null values of metric @m in @g, in rep order, into @out
 * (room for g->n). Returns how many.
 */
size_t cb_group_values(const struct cb_group *g, int m, double *out);

/*
 * cb_runs_pair - the baseline and candidate groups to compare: with one run, every other
 * setting of a (kernel, workload) against its first setting; with two runs, the groups
 * of the same setting and workload (kernel names may differ: that is the A/B), or the
 * only group of each when each run has one. Fills up to @max pairs; returns how many.
 */
size_t cb_runs_pair(const struct cb_run_data *a, const struct cb_run_data *b,
		    const struct cb_group **base, const struct cb_group **cand, size_t max);

#endif
