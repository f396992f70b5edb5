// SPDX-License-Identifier: GPL-2.0-only
/*
 * proc.c - workload processes (see proc.h).
 */
#include "proc.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int open_tmp(const char *path)
{
	char tmp[PATH_MAX];

	if (cb_path(tmp, sizeof(tmp), "%s.tmp", path) < 0)
		return -1;
	return open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

int cb_proc_spawn(struct cb_proc *p, char *const argv[], const char *out_path,
		  const char *err_path)
{
	int pipefd[2], errfd, saved;
	pid_t parent = getpid();

	memset(p, 0, sizeof(*p));
	p->out_fd = p->log_fd = -1;
	if (cb_path(p->out_path, sizeof(p->out_path), "%s", out_path) < 0 ||
	    cb_path(p->err_path, sizeof(p->err_path), "%s", err_path) < 0)
		return -1;
	p->log_fd = open_tmp(out_path);
	if (p->log_fd < 0)
		return -1;
	errfd = open_tmp(err_path);
	if (errfd < 0)
		goto fail;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		saved = errno;
		close(errfd);
		errno = saved;
		goto fail;
	}
	p->pid = fork();
	if (p->pid < 0) {
		saved = errno;
		close(errfd);
		close(pipefd[0]);
		close(pipefd[1]);
		errno = saved;
		goto fail;
	}
	if (p->pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		/* a workload must not outlive a killed harness: it would hold the memory */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		if (null < 0 || dup2(null, 0) < 0 || dup2(pipefd[1], 1) < 0 || dup2(errfd, 2) < 0)
			_exit(127);
		close_range(3, ~0U, 0);
		execv(argv[0], argv);
		dprintf(2, "compactbench: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(errfd);
	close(pipefd[1]);
	p->out_fd = pipefd[0];
	return 0;
fail:
	saved = errno;
	close(p->log_fd);
	p->log_fd = -1;
	errno = saved;
	return -1;
}

static void scan_line(struct cb_proc *p, const char *line)
{
	struct json_object *o = json_tokener_parse(line), *phase;

	if (o && json_object_object_get_ex(o, "phase", &phase) &&
	    json_object_is_type(phase, json_type_string) &&
	    !strcmp(json_object_get_string(phase), "ready"))
		p->ready = true;
	json_object_put(o);
}

/* copy what is readable now; returns bytes read, 0 at EOF, -1 if nothing yet */
static ssize_t read_some(struct cb_proc *p)
{
	char buf[65536];
	ssize_t n = read(p->out_fd, buf, sizeof(buf));

	if (n <= 0) {
		if (n == 0) {
			close(p->out_fd);
			p->out_fd = -1;
		}
		return n;
	}
	if (write(p->log_fd, buf, n) != n)
		return -1;
	for (ssize_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			p->line[p->linelen] = '\0';
			scan_line(p, p->line);
			p->linelen = 0;
		} else if (p->linelen < sizeof(p->line) - 1) {
			p->line[p->linelen++] = buf[i];
		}
	}
	return n;
}

static void reap(struct cb_proc *p)
{
	if (!p->exited && p->pid > 0 && waitpid(p->pid, &p->status, WNOHANG) == p->pid)
		p->exited = true;
}

int cb_proc_pump(struct cb_proc *const procs[], int nr, int timeout_ms)
{
	struct pollfd pfd[16];
	int map[16], n = 0, i, rc;

	for (i = 0; i < nr && n < 16; i++) {
		if (procs[i] && procs[i]->out_fd >= 0) {
			pfd[n].fd = procs[i]->out_fd;
			pfd[n].events = POLLIN;
			map[n++] = i;
		}
	}
	rc = poll(pfd, n, timeout_ms);
	if (rc < 0 && errno != EINTR)
		return -1;
	for (i = 0; rc > 0 && i < n; i++)
		if (pfd[i].revents)
			read_some(procs[map[i]]);
	for (i = 0; i < nr; i++)
		if (procs[i])
			reap(procs[i]);
	return 0;
}

void cb_proc_stop(struct cb_proc *p, double grace_s)
{
	uint64_t deadline;
	struct cb_proc *one[1] = { p };

	if (p->pid <= 0 || p->exited)
		return;
	kill(p->pid, SIGTERM);
	deadline = cb_now_ns() + (uint64_t)(grace_s * 1e9);
	while (!p->exited && cb_now_ns() < deadline)
		cb_proc_pump(one, 1, 50);
	if (!p->exited) {
		kill(p->pid, SIGKILL);
		if (waitpid(p->pid, &p->status, 0) == p->pid)
			p->exited = true;
	}
}

int cb_proc_finish(struct cb_proc *p)
{
	char tmp[PATH_MAX];
	int ret = 0;

	if (p->finished)
		return 0;
	p->finished = true;
	/* the child is gone: whatever is left in the pipe is readable without blocking */
	while (p->out_fd >= 0 && read_some(p) > 0)
		;
	if (p->out_fd >= 0)
		close(p->out_fd);
	p->out_fd = -1;
	if (p->log_fd >= 0 && (fsync(p->log_fd) < 0 || close(p->log_fd) < 0))
		ret = -1;
	p->log_fd = -1;
	if (cb_path(tmp, sizeof(tmp), "%s.tmp", p->out_path) == 0 && rename(tmp, p->out_path) < 0)
		ret = -1;
	if (cb_path(tmp, sizeof(tmp), "%s.tmp", p->err_path) == 0 && rename(tmp, p->err_path) < 0)
		ret = -1;
	return ret;
}

const char *cb_proc_describe(const struct cb_proc *p, char *buf, size_t size)
{
	if (!p->exited)
		snprintf(buf, size, "still running");
	else if (WIFEXITED(p->status))
		snprintf(buf, size, "exit %d", WEXITSTATUS(p->status));
	else if (WIFSIGNALED(p->status))
		snprintf(buf, size, "killed by signal %d", WTERMSIG(p->status));
	else
		snprintf(buf, size, "status 0x%x", p->status);
	return buf;
}
