/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run.h - one run of a matrix: the state shared by `compactbench run`, the targets and
 * the agent (the commands themselves are declared in harness/cmd/cmd.h).
 */
#ifndef CB_RUN_H
#define CB_RUN_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>

#include "config.h"
#include "journal.h"
#include "timing.h"

struct cb_cell;
struct cb_held_fragment;

struct json_object;

struct cb_run {
	const struct cb_config *cfg;
	char dir[PATH_MAX];	      /* results/<run-id> */
	char workloads_dir[PATH_MAX]; /* where the workload programs are */
	const char *root;	      /* prefix of /proc and /sys ("" for the machine) */
	struct cb_journal journal;
	bool quick;
	const char *target_name;      /* meta.json's "target" (agent --target), NULL: "host" */
	struct json_object *knobs;    /* the current cell's knob values as read back */
	struct cb_timing timing;      /* the current cell's parts (timing.h) */
	/*
	 * the cells the run loop runs one after the other in this process, in order, and
	 * whether consecutive qemu cells of one kernel share a guest (boot_plan.h); NULL/false
	 * where cells run in processes of their own (--jobs)
	 */
	const struct cb_cell *todo;
	size_t nr_todo;
	bool batch_boot;
	const char *isolation;	      /* agent --isolation: the batch's baseline file, or NULL */
	struct cb_held_fragment *held; /* a saved guest's running fragmenter (agent.h), or NULL */
	char err[2048];		      /* why the last step failed */
};

/* cb_run_set_err - printf into run->err, why the last step failed (truncated to fit) */
void cb_run_set_err(struct cb_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* set by SIGINT/SIGTERM; every loop that waits checks it */
extern volatile sig_atomic_t cb_interrupted;

/* cb_log - a progress or notice line on stderr, prefixed "compactbench: " */
void cb_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cb_log_line - cb_log("%s", msg), for callbacks */
void cb_log_line(const char *msg);

/*
 * cb_find_workloads - set run->workloads_dir: $COMPACTBENCH_WORKLOADS, else "workloads"
 * beside the compactbench binary. Returns 0, or -1 with errno.
 */
int cb_find_workloads(struct cb_run *run);

/*
 * cb_workload_program - the file to run for @wl: its installed path (stress-ng), or the
 * program of that name in the workloads directory. Returns 0, or -1 with ENAMETOOLONG.
 */
int cb_workload_program(const struct cb_run *run, const struct wl_info *wl, char *buf,
			size_t size);

/* cb_dir_nonempty - 1: @dir has entries, 0: it is missing or empty, -1 (errno): not a directory */
int cb_dir_nonempty(const char *dir);

#endif
