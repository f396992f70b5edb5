/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runfix.h - synthetic run directories for the tests of compare, gate, analyze and merge,
 * and for the README's examples (tests/readme): a run.json listing the cells, and per
 * cell a summary.json with known values, optionally a real trace with its vmstat files and
 * a meta.json (so `analyze` can summarize the cell again), or no directory at all (a cell
 * that never ran, or waits for its kernel). One helper instead of one per test file.
 */
#ifndef CB_RUNFIX_H
#define CB_RUNFIX_H

#include <stdbool.h>
#include <stddef.h>

/* one cell of a synthetic run; its id is KERNEL.SETTING.WORKLOAD.rREP */
struct runfix_cell {
	const char *kernel, *setting, *workload;
	int rep;
	int index;	   /* its position in the whole run's order (run.json "index") */
	bool no_dir;	   /* listed in run.json, no directory: never ran, or pending */
	bool lost;	   /* summary.json says events were lost */
	char metrics[512]; /* the members of summary.json's "metrics" ("" : no summary.json) */
	const char *start_state; /* summary.json's start_state (a saved guest), or NULL */
	const char *trace; /* a fixture stem (analysis-thp-compact): its trace.dat, vmstat.*
			      and a meta.json of status complete are copied in; NULL: none */
};

struct runfix {
	const char *sha;	 /* run.json's config_sha256; NULL: "same" */
	const char *head;	 /* more members of run.json ("\"complete\":false"), or NULL */
	const char *extra_cells; /* appended to run.json's cells array as is, or NULL */
	const char *fixtures;	 /* the directory of the trace fixtures (tests/fixtures) */
	const char *config;	 /* written as the run's config.ini, or NULL */
};

/* runfix_id - the cell's id into @buf */
const char *runfix_id(const struct runfix_cell *c, char *buf, size_t len);

/*
 * runfix_write - make @dir (removed first if it exists) a run of the @n @cells as @rf
 * says. Returns 0, or -1 with errno set.
 */
int runfix_write(const char *dir, const struct runfix *rf, const struct runfix_cell *cells,
		 size_t n);

/*
 * runfix_grid - the cells kernels x settings x workloads x @reps (NULL-terminated name
 * lists) into @out in that order, repetition fastest, each ->index its position; returns
 * how many (at most @max)
 */
size_t runfix_grid(struct runfix_cell *out, size_t max, const char *const *kernels,
		   const char *const *settings, const char *const *workloads, int reps);

/*
 * runfix_capture - run @fn with the NULL-terminated @argv, its stdout and stderr into
 * malloc'ed strings *@out and *@err (through files under @tmp; echoed to stdout for the
 * test log). Returns @fn's exit code, or -1 if the capture failed.
 */
int runfix_capture(int (*fn)(int, char **), char **argv, const char *tmp, char **out,
		   char **err);

#endif
