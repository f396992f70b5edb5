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
#include <stdio.h>

#include "metrics.h"

struct cb_group {
	char kernel[64], setting[64], workload[64];
	size_t n;		   /* analyzed repetitions */
	long *rep;		   /* their repetition numbers, ascending */
	char **cell_dir;	   /* their cell directories */
	char **state;		   /* the saved guest each started from (summary.json start_state),
				    * NULL where it booted */
	double *val[CB_M_NR];	   /* per metric, n values in rep order; NAN where null */
	bool lost;		   /* a cell of the group lost trace events */
};

/* the cells of one (kernel, setting, workload) that have not run yet (cb_cell_pending) */
struct cb_pending {
	char kernel[64], setting[64], workload[64];
	size_t n;
	char why[160];		   /* "pending (kernel K not booted yet)" */
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
	size_t short_waves;	   /* cells left out: fewer waves ran than asked (not failures) */
	char short_why[512];	   /* the first of them and how many ran */
	struct cb_pending *pending; /* cells not run yet, not failures, per group */
	size_t npending;
	char (*kernels)[64];	   /* every kernel and setting run.json names, in order */
	size_t nkernels;
	char (*settings)[64];
	size_t nsettings;
	size_t (*combos)[2];	   /* (kernel, setting) indices run.json has cells of */
	size_t ncombos;
};

/*
 * One side of a comparison: the groups of a run of one kernel and/or one setting ("" for
 * every one), from DIR, DIR:SETTING, DIR:KERNEL/ or DIR:KERNEL/SETTING.
 */
struct cb_side {
	const struct cb_run_data *rd;
	char kernel[64], setting[64];
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
 * cells left out and cells pending on stderr, prefixed "compactbench @cmd:". Returns 0, or
 * -1 after printing the error (nothing stays allocated then).
 */
int cb_runs_load_all(char *const *dirs, int n, struct cb_run_data *runs, const char *cmd);

/* cb_run_free - free what cb_run_load allocated */
void cb_run_free(struct cb_run_data *rd);

/*
 * cb_confidence_arg - the value @arg of command @cmd's --confidence into *@out: a number in
 * (0.5, 1). Returns 0, or -1 after "compactbench @cmd: --confidence '@arg': a number in
 * (0.5, 1)" on stderr.
 */
int cb_confidence_arg(const char *cmd, const char *arg, double *out);

/*
 * cb_side_spec - split @spec, DIR[:SELECTOR], into @dir and @s's kernel and setting:
 * SELECTOR is SETTING, KERNEL/ or KERNEL/SETTING. A spec that names an existing path is a
 * DIR as it is (a directory may have ':' in its name). Returns 0, or -1 with @err.
 */
int cb_side_spec(const char *spec, char *dir, size_t dirlen, struct cb_side *s, char *err,
		 size_t errlen);

/*
 * cb_side_check - whether @s's kernel, setting and the two together are named by its run's
 * run.json; 0, or -1 with "DIR: no kernel 'K' in this run (it has: ...)" in @err (a setting
 * that is the name of a kernel gets the hint "DIR:K/")
 */
int cb_side_check(const struct cb_side *s, char *err, size_t errlen);

/* cb_side_has - whether the group of @kernel and @setting belongs to side @s */
bool cb_side_has(const struct cb_side *s, const char *kernel, const char *setting);

/*
 * cb_side_print_pending - one line per pending group of side @s to @out, "@prefix" first:
 * "DIR:KERNEL/SETTING workload W: N cell(s) pending (kernel K not booted yet)". Returns
 * how many groups.
 */
size_t cb_side_print_pending(FILE *out, const char *prefix, const struct cb_side *s);

/* cb_side_groups - how many analyzed groups (with at least one repetition) side @s has */
size_t cb_side_groups(const struct cb_side *s);

/*
 * cb_group_values - the non-null values of metric @m in @g, in rep order, into @out
 * (room for g->n). Returns how many.
 */
size_t cb_group_values(const struct cb_group *g, int m, double *out);

/*
 * cb_group_values_states - as cb_group_values, and each value's start state (g->state) into
 * @states (room for g->n, or NULL): what cb_judge_states pairs by
 */
size_t cb_group_values_states(const struct cb_group *g, int m, double *out, const char **states);

/*
 * cb_runs_pair - the baseline and candidate groups to compare: with one run, every other
 * setting of a (kernel, workload) against its first setting; with two runs, as
 * cb_sides_pair of the two whole runs. Fills up to @max pairs; returns how many.
 */
size_t cb_runs_pair(const struct cb_run_data *a, const struct cb_run_data *b,
		    const struct cb_group **base, const struct cb_group **cand, size_t max);

/*
 * cb_sides_pair - baseline groups of side @a against candidate groups of side @b: the same
 * workload; the same setting unless both sides name one (DIR:s1 against DIR:s2); the same
 * kernel unless both sides name one (DIR:k1/ against DIR:k2/: two kernels of one run) or
 * the two runs list different kernels (two run directories of differently named kernels:
 * that is the A/B); or the only group of each when each side has one. Fills up to @max
 * pairs; returns how many.
 */
size_t cb_sides_pair(const struct cb_side *a, const struct cb_side *b,
		     const struct cb_group **base, const struct cb_group **cand, size_t max);

/*
 * cb_runs_same_config - whether runs @a and @b were made from one config (run.json's
 * config_sha256); if not, "the runs used different configs (sha256 X vs Y)" in @why
 */
bool cb_runs_same_config(const struct cb_run_data *a, const struct cb_run_data *b, char *why,
			 size_t whylen);

#endif
