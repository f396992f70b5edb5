// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssh.c - ssh and scp as child processes with a time limit (see ssh.h).
 */
#include "ssh.h"
#include "xalloc.h"
#include "run.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CONNECT_TIMEOUT "ConnectTimeout=15"
/* a link silent for 3 x 10 s is dead: ssh exits 255 instead of waiting forever */
#define ALIVE_INTERVAL "ServerAliveInterval=10"
#define ALIVE_COUNT "ServerAliveCountMax=3"
#define TERM_GRACE_S 5.0
#define MAX_ARGS 64

struct argv_buf {
	char *v[MAX_ARGS + 1];
	char port[16];
	int n;
};

static void add(struct argv_buf *a, const char *s)
{
	if (a->n >= MAX_ARGS)
		abort(); /* sources are passed in batches below the limit */
	a->v[a->n++] = (char *)s;
	a->v[a->n] = NULL;
}

/*
 * The options shared by ssh and scp. ssh keeps the first value given for an option, so
 * BatchMode comes first (never a prompt), then the user's options (they may override the
 * timeouts), then our defaults.
 */
static void common(struct argv_buf *a, const struct cb_ssh *s, const char *port_flag)
{
	const struct cb_kernel *k = s->k;
	const struct cb_ssh_conf *kc = cb_ssh_conf(k);

	add(a, "-o");
	add(a, "BatchMode=yes");
	for (size_t i = 0; kc->ssh_options && kc->ssh_options[i]; i++) {
		add(a, "-o");
		add(a, kc->ssh_options[i]);
	}
	add(a, "-o");
	add(a, CONNECT_TIMEOUT);
	add(a, "-o");
	add(a, ALIVE_INTERVAL);
	add(a, "-o");
	add(a, ALIVE_COUNT);
	if (kc->port > 0) {
		snprintf(a->port, sizeof(a->port), "%ld", kc->port);
		add(a, port_flag);
		add(a, a->port);
	}
	if (s->identity[0]) {
		add(a, "-i");
		add(a, s->identity);
		add(a, "-o");
		add(a, "IdentitiesOnly=yes");
	}
}

/* keep the last output in @io->tail, without carriage returns (a pty sends \r\n) */
static void keep(struct cb_ssh_io *io, char *data, size_t n)
{
	size_t len = strlen(io->tail), w = 0;

	for (size_t i = 0; i < n; i++)
		if (data[i] != '\r')
			data[w++] = data[i];
	if (io->log_fd >= 0)
		cb_write_all(io->log_fd, data, w);
	if (w >= sizeof(io->tail) - 1) {
		memcpy(io->tail, data + w - (sizeof(io->tail) - 1), sizeof(io->tail) - 1);
		io->tail[sizeof(io->tail) - 1] = '\0';
		return;
	}
	if (len + w >= sizeof(io->tail)) {
		size_t drop = len + w - (sizeof(io->tail) - 1);

		memmove(io->tail, io->tail + drop, len - drop);
		len -= drop;
	}
	memcpy(io->tail + len, data, w);
	io->tail[len + w] = '\0';
}

static pid_t spawn(char *const argv[], int out)
{
	pid_t parent = getpid(), pid = fork();

	if (pid != 0)
		return pid;
	/* the harness gone (even SIGKILL): ssh ends, the remote session ends, SIGHUP there */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(128 + SIGTERM);
	{
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
		dup2(out, 1);
		dup2(out, 2);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "%s: cannot run: %s (install openssh-client)\n", argv[0], strerror(errno));
	_exit(127);
}

/* run @argv until it exits or a limit passes; see cb_ssh_run for the result */
static int run(char *const argv[], double timeout_s, struct cb_ssh_io *io)
{
	uint64_t deadline = cb_now_ns() + (uint64_t)(timeout_s * 1e9), kill_at = 0;
	int fds[2], st, result = 0;
	bool eof = false;
	pid_t pid;

	io->tail[0] = '\0';
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid = spawn(argv, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return -1;
	}
	for (;;) {
		struct pollfd p = { .fd = fds[0], .events = POLLIN };
		char buf[4096];
		ssize_t n;

		if (!eof && poll(&p, 1, 100) > 0) {
			n = read(fds[0], buf, sizeof(buf));
			if (n > 0)
				keep(io, buf, (size_t)n);
			else if (n == 0 || errno != EINTR)
				eof = true;
		} else if (eof) {
			struct timespec ts = { 0, 100000000 };

			nanosleep(&ts, NULL);
		}
		if (waitpid(pid, &st, WNOHANG) == pid)
			break;
		if (!result && (cb_now_ns() > deadline || (io->interruptible && cb_interrupted))) {
			result = cb_now_ns() > deadline ? CB_SSH_TIMEOUT : CB_SSH_INTERRUPTED;
			kill(pid, SIGTERM);
			kill_at = cb_now_ns() + (uint64_t)(TERM_GRACE_S * 1e9);
		}
		if (kill_at && cb_now_ns() > kill_at) {
			kill(pid, SIGKILL);
			kill_at = 0;
		}
	}
	while (!eof) { /* what ssh wrote just before it exited */
		char buf[4096];
		ssize_t n = read(fds[0], buf, sizeof(buf));

		if (n > 0)
			keep(io, buf, (size_t)n);
		else
			eof = true;
	}
	close(fds[0]);
	if (result)
		return result;
	if (WIFSIGNALED(st)) {
		io->signal = WTERMSIG(st);
		return CB_SSH_KILLED;
	}
	return WEXITSTATUS(st);
}

int cb_ssh_run(const struct cb_ssh *s, const char *cmd, bool tty, double timeout_s,
	       struct cb_ssh_io *io)
{
	struct argv_buf a = { .n = 0 };
	const struct cb_ssh_conf *sc = cb_ssh_conf(s->k);

	add(&a, "ssh");
	common(&a, s, "-p");
	if (tty)
		add(&a, "-tt");
	add(&a, "--");
	add(&a, sc->host);
	add(&a, cmd);
	return run(a.v, timeout_s, io);
}

/* "HOST:PATH" for scp; an IPv6 address (a ':' after any user@) goes in brackets */
static char *remote_spec(const struct cb_ssh *s, const char *path)
{
	const char *h = cb_ssh_conf(s->k)->host, *at = strrchr(h, '@'), *name = at ? at + 1 : h;
	char *spec;

	if (asprintf(&spec, "%.*s%s%s%s:%s", (int)(name - h), h, strchr(name, ':') ? "[" : "",
		     name, strchr(name, ':') ? "]" : "", path) < 0)
		cb_oom();
	return spec;
}

int cb_ssh_put(const struct cb_ssh *s, const char *const *srcs, size_t nr, const char *dest,
	       double timeout_s, struct cb_ssh_io *io)
{
	char *spec = remote_spec(s, dest);
	int rc = 0;

	/* in batches, so any number of files fits the argv buffer */
	for (size_t i = 0; i < nr && rc == 0; i += 24) {
		struct argv_buf a = { .n = 0 };

		add(&a, "scp");
		add(&a, "-q");
		add(&a, "-p");
		common(&a, s, "-P");
		add(&a, "--");
		for (size_t j = i; j < nr && j < i + 24; j++)
			add(&a, srcs[j]);
		add(&a, spec);
		rc = run(a.v, timeout_s, io);
	}
	free(spec);
	return rc;
}

int cb_ssh_get(const struct cb_ssh *s, const char *src, const char *local_dir,
	       double timeout_s, struct cb_ssh_io *io)
{
	struct argv_buf a = { .n = 0 };
	char *spec = remote_spec(s, src);
	int rc;

	add(&a, "scp");
	add(&a, "-q");
	add(&a, "-r");
	add(&a, "-p");
	common(&a, s, "-P");
	add(&a, "--");
	add(&a, spec);
	add(&a, local_dir);
	rc = run(a.v, timeout_s, io);
	free(spec);
	return rc;
}

/* the last non-empty line of @tail */
static void last_line(const char *tail, char *buf, size_t size)
{
	char *copy = strdup(tail ? tail : ""), *line, *save = NULL;

	buf[0] = '\0';
	if (!copy)
		cb_oom();
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		snprintf(buf, size, "%s", line);
	free(copy);
}

void cb_ssh_describe(const struct cb_ssh *s, int rc, const char *what, const char *tail,
		     char *buf, size_t size)
{
	const char *h = cb_ssh_conf(s->k)->host;
	char line[1024];

	last_line(tail, line, sizeof(line));
	if (rc == CB_SSH_CONN_FAILED && strstr(tail, "Permission denied"))
		snprintf(buf, size, "%s on %s: ssh could not log in (exit 255, authentication): %s "
			 "(BatchMode: a key must work without a prompt; set identity =)", what, h, line);
	else if (rc == CB_SSH_CONN_FAILED)
		snprintf(buf, size, "%s on %s: ssh failed (exit 255: connection lost or refused, or "
			 "host key not known): %s", what, h, line);
	else if (rc == 127 || rc == 126)
		snprintf(buf, size, "%s on %s: a program is missing there (exit %d): %s", what, h, rc,
			 line);
	else if (rc == CB_SSH_TIMEOUT)
		snprintf(buf, size, "%s on %s: timed out; ssh was stopped (the remote agent restores "
			 "its knobs on the hang-up)", what, h);
	else if (rc == CB_SSH_INTERRUPTED)
		snprintf(buf, size, "%s on %s: interrupted; ssh was stopped", what, h);
	else if (rc == CB_SSH_KILLED)
		snprintf(buf, size, "%s on %s: the ssh client died of a signal; the connection is "
			 "gone (the remote agent restores its knobs on the hang-up)", what, h);
	else if (rc < 0)
		snprintf(buf, size, "%s on %s: cannot start ssh: %s", what, h, strerror(errno));
	else
		snprintf(buf, size, "%s on %s: exit %d: %s", what, h, rc, line);
}
