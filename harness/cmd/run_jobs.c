// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_jobs.c - the run loop, serial or with concurrent QEMU cells (see run_jobs.h).
 *
 * A concurrent cell runs in a child process (the qemu target keeps its last boot in static
 * state; a child has its own), pinned with sched_setaffinity to its slot's CPUs before it
 * starts QEMU, which inherits the mask for every thread. The child hands its result back
 * over a pipe; only the parent prints progress lines, and the children's own notices are
 * line-buffered, so lines of two cells never mix.
 */
#include "boot_plan.h"
#include "jobs_plan.h"
#include "xalloc.h"
#include "run_cell.h"
#include "run_jobs.h"
#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int cb_jobs_setup(struct cb_jobs *j, const struct cb_config *cfg, long n, char *err,
		  size_t errlen)
{
	static int cpus[CPU_SETSIZE];
	int nr;

	memset(j, 0, sizeof(*j));
	j->n = n;
	j->vcpus = 0;
	for (size_t i = 0; i < cfg->nr_kernels; i++) {
		const struct cb_kernel *k = &cfg->kernels[i];
		long c = k->cls->guest_cpus ? k->cls->guest_cpus(k) : 0;

		if (c > j->vcpus)
			j->vcpus = c;
	}
	if (n <= 1 || !j->vcpus)
		return 0; /* one cell at a time (or no guest to pin): nothing to plan */
	nr = cb_host_cpus(cpus, CPU_SETSIZE);
	if (nr < 0) {
		snprintf(err, errlen, "--jobs: cannot read this process's CPUs: %s", strerror(errno));
		return -1;
	}
	j->slots = cb_xcalloc((size_t)(n * j->vcpus), sizeof(*j->slots));
	if (cb_jobs_plan(cpus, (size_t)nr, n, j->vcpus, j->slots, err, errlen) < 0) {
		cb_jobs_free(j);
		return -1;
	}
	return 0;
}

void cb_jobs_free(struct cb_jobs *j)
{
	free(j->slots);
	j->slots = NULL;
}

struct child {
	pid_t pid; /* 0: the slot is free */
	int fd;	   /* the result's pipe */
	size_t i;  /* the cell */
};

struct sched {
	struct cb_run *run;
	const struct cb_cell *cells;
	size_t nr, *failed;
	const struct cb_jobs *j;
	struct cb_progress *prog;
	struct child *kids; /* j->n slots */
	long running;
	bool forwarded;	    /* SIGTERM passed on to the children */
};

/* the progress line of a finished cell */
static void report(struct sched *s, size_t i, const struct cb_cell_result *res)
{
	char left[64] = "";

	cb_progress_done(s->prog, i, res->wall_s);
	if (!res->ok)
		(*s->failed)++;
	if ((i + 1 < s->nr || s->running) && !cb_interrupted)
		cb_progress_left(s->prog, left, sizeof(left));
	if (res->ok)
		fprintf(stderr, "[%zu/%zu] %s: done in %.1f s%s%s%s\n", i + 1, s->nr, s->cells[i].id,
			res->wall_s, res->figures, *left ? "; " : "", left);
	else
		fprintf(stderr, "[%zu/%zu] %s: %s after %.1f s: %s%s%s\n", i + 1, s->nr,
			s->cells[i].id, res->interrupted ? "interrupted" : "FAILED", res->wall_s,
			res->err, *left ? "\n  " : "", left);
}

static void slot_cpus(const struct sched *s, long slot, char *buf, size_t size)
{
	cb_cpulist_format(&s->j->slots[slot * s->j->vcpus], (size_t)s->j->vcpus, buf, size);
}

/* the child: pinned, one attempt, the result down the pipe */
static void child_main(struct sched *s, size_t i, long slot, int fd)
{
	static char linebuf[BUFSIZ];
	struct cb_cell_result res;
	char list[256];
	cpu_set_t set;
	ssize_t n;

	setvbuf(stderr, linebuf, _IOLBF, sizeof(linebuf));
	CPU_ZERO(&set);
	for (long c = 0; c < s->j->vcpus; c++)
		CPU_SET(s->j->slots[slot * s->j->vcpus + c], &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		memset(&res, 0, sizeof(res));
		snprintf(res.err, sizeof(res.err), "cannot pin to CPUs %s: %s",
			 (slot_cpus(s, slot, list, sizeof(list)), list), strerror(errno));
	} else {
		slot_cpus(s, slot, list, sizeof(list));
		if (cb_cell_attempt(s->run, &s->cells[i], list, &res) < 0) {
			res.ok = 0;
			snprintf(res.err, sizeof(res.err), "the cell directory could not be made ready");
		}
	}
	n = write(fd, &res, sizeof(res));
	fflush(stderr);
	_exit(n == (ssize_t)sizeof(res) ? 0 : 1);
}

static int spawn(struct sched *s, size_t i, long slot)
{
	char list[256];
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	slot_cpus(s, slot, list, sizeof(list));
	fprintf(stderr, "[%zu/%zu] %s: running (CPUs %s)\n", i + 1, s->nr, s->cells[i].id, list);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		child_main(s, i, slot, fds[1]);
	}
	close(fds[1]);
	s->kids[slot] = (struct child){ .pid = pid, .fd = fds[0], .i = i };
	s->running++;
	return 0;
}

/* one child's end: its result (or why there is none), its slot freed */
static void collect(struct sched *s, struct child *k, int status)
{
	struct cb_cell_result res;
	ssize_t n = read(k->fd, &res, sizeof(res));

	if (n != (ssize_t)sizeof(res)) {
		memset(&res, 0, sizeof(res));
		res.interrupted = cb_interrupted != 0;
		snprintf(res.err, sizeof(res.err), "the cell's process ended without a result (%s %d)",
			 WIFSIGNALED(status) ? "signal" : "exit status",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	}
	close(k->fd);
	k->pid = 0;
	s->running--;
	report(s, k->i, &res);
}

/* wait for one child to end (any, or @block false: only if one has); returns 1 if one did */
static int reap(struct sched *s, bool block)
{
	int st;
	pid_t pid;

	for (;;) {
		if (cb_interrupted && !s->forwarded) {
			/* a SIGTERM to the run alone (not its process group) stops the guests too */
			for (long k = 0; k < s->j->n; k++)
				if (s->kids[k].pid > 0)
					kill(s->kids[k].pid, SIGTERM);
			s->forwarded = true;
		}
		pid = waitpid(-1, &st, block ? 0 : WNOHANG);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid <= 0)
			return 0;
		for (long k = 0; k < s->j->n; k++) {
			if (s->kids[k].pid == pid) {
				collect(s, &s->kids[k], st);
				return 1;
			}
		}
	}
}

static long free_slot(const struct sched *s)
{
	for (long k = 0; k < s->j->n; k++)
		if (!s->kids[k].pid)
			return k;
	return -1;
}

/* a cell in this process (host cells, and every cell without --jobs) */
static int run_here(struct sched *s, size_t i)
{
	struct cb_cell_result res;

	fprintf(stderr, "[%zu/%zu] %s: running\n", i + 1, s->nr, s->cells[i].id);
	if (cb_cell_attempt(s->run, &s->cells[i], NULL, &res) < 0)
		return -1;
	report(s, i, &res);
	return 0;
}

int cb_run_cells(struct cb_run *run, const struct cb_cell *cells, size_t nr,
		 const struct cb_jobs *j, struct cb_progress *prog, size_t *failed)
{
	struct sched s = { run, cells, nr, failed, j, prog, NULL, 0, false };
	bool probed = !j->slots || cb_qemu_accel_known();
	int ret = 0;

	if (j->slots)
		s.kids = cb_xcalloc((size_t)j->n, sizeof(*s.kids));
	/* one after the other here: the qemu target may keep a guest for the next cells */
	run->todo = s.kids ? NULL : cells;
	run->nr_todo = s.kids ? 0 : nr;
	run->batch_boot = !s.kids && cb_boot_batches(run->cfg, j->n);
	for (size_t i = 0; i < nr && !cb_interrupted && ret == 0; i++) {
		bool par = s.kids && (cells[i].kernel->cls->flags & CB_TARGET_GUEST);

		if (!par) {
			while (s.running && reap(&s, true))
				;
			ret = run_here(&s, i);
			continue;
		}
		while (free_slot(&s) < 0 && reap(&s, true))
			;
		if (free_slot(&s) < 0 || spawn(&s, i, free_slot(&s)) < 0) {
			cb_log("cannot start a process for cell %s: %s", cells[i].id, strerror(errno));
			ret = -1;
		}
		/* the first guest alone while KVM is probed: the others learn its answer */
		while (!probed && s.running && reap(&s, true))
			;
		probed = true;
	}
	while (s.running && reap(&s, true))
		;
	free(s.kids);
	return ret;
}

int cb_run_todo(struct cb_run *run, const struct cb_cell *todo, size_t nr,
		const struct cb_jobs *j, size_t *failed)
{
	struct cb_progress prog;
	char total[64], how[128] = "";
	int ret;

	if (cb_progress_init(&prog, run, todo, nr, j->n) < 0) {
		cb_progress_free(&prog);
		cb_log("no memory for the run's estimate");
		return -1;
	}
	cb_duration_text(cb_progress_total_s(&prog), total, sizeof(total));
	if (j->slots)
		snprintf(how, sizeof(how), ", up to %ld QEMU cells at once (%ld host CPUs each)", j->n,
			 j->vcpus);
	cb_log("%zu cells to run%s: about %s (estimated %s)", nr, how, total, prog.basis);
	ret = cb_run_cells(run, todo, nr, j, &prog, failed);
	cb_progress_free(&prog);
	return ret;
}
