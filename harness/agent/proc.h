/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * proc.h - workload processes: spawned with execv (no shell), stdout captured line by line
 * into a JSON-lines file, "ready" lines noticed, stopped with SIGTERM then SIGKILL.
 */
#ifndef CB_PROC_H
#define CB_PROC_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

struct cb_proc {
	pid_t pid;
	int out_fd;		 /* read end of the child's stdout, -1 once at EOF */
	int log_fd;		 /* the output file being written (PATH.tmp) */
	char out_path[PATH_MAX]; /* the output file (JSON lines) */
	char err_path[PATH_MAX]; /* the child's stderr */
	char line[8192];	 /* the partial line not yet ended by a newline */
	size_t linelen;
	bool ready;		 /* it printed a line with "phase": "ready" */
	bool exited;
	bool finished;		 /* cb_proc_finish ran */
	int status;		 /* wait status once exited */
};

/* a process not spawned yet: no pid, no descriptors (0 would be stdin) */
#define CB_PROC_INIT { .pid = -1, .out_fd = -1, .log_fd = -1 }

/*
 * cb_proc_spawn - start argv[0] with @argv; stdin is /dev/null, stdout goes through a pipe
 * into @out_path, stderr into @err_path (both through .tmp names until cb_proc_finish).
 * The child gets SIGTERM if the harness dies (PR_SET_PDEATHSIG). Returns 0, or -1 with errno.
 */
int cb_proc_spawn(struct cb_proc *p, char *const argv[], const char *out_path,
		  const char *err_path);

/*
 * cb_proc_pump - wait up to @timeout_ms for output of any of @procs, copy it to their files,
 * note ready lines and reap the ones that exited. Returns 0, or -1 with errno.
 */
int cb_proc_pump(struct cb_proc *const procs[], int nr, int timeout_ms);

/*
 * cb_proc_stop - SIGTERM, wait up to @grace_s (pumping output), then SIGKILL and reap.
 */
void cb_proc_stop(struct cb_proc *p, double grace_s);

/*
 * cb_proc_finish - drain what is left of the output, rename the output files to their
 * real names. Returns 0, or -1 with errno.
 */
int cb_proc_finish(struct cb_proc *p);

/* cb_proc_describe - "exit 0", "killed by signal 9": how @p ended, into @buf */
const char *cb_proc_describe(const struct cb_proc *p, char *buf, size_t size);

#endif
