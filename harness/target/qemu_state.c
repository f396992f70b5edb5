// SPDX-License-Identifier: GPL-2.0-only
/*
 * qemu_state.c - the host's half of a saved fragmented guest (qemu_state.h).
 */
#include "qemu_state.h"
#include "initramfs.h"
#include "qmp.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

bool cb_qstate_same(const struct cb_cell *a, const struct cb_cell *b)
{
	return a->kernel == b->kernel && a->workload == b->workload && a->rep == b->rep;
}

void cb_qstate_name(const struct cb_cell *cell, char *buf, size_t size)
{
	snprintf(buf, size, "%s.%s.r%ld", cell->kernel->name, cell->workload->name, cell->rep);
}

int cb_qstate_init(struct cb_qstate *st, const char *run_dir, const struct cb_cell *cell,
		   char *err, size_t errlen)
{
	char dir[PATH_MAX];

	memset(st, 0, sizeof(*st));
	st->port_fd = -1;
	cb_qstate_name(cell, st->name, sizeof(st->name));
	if (cb_path(dir, sizeof(dir), "%s/.states", run_dir) < 0 ||
	    cb_path(st->path, sizeof(st->path), "%s/%s.state", dir, st->name) < 0 ||
	    cb_path(st->console, sizeof(st->console), "%s/%s.console.log", dir, st->name) < 0 ||
	    cb_mkdir_p(dir) < 0) {
		snprintf(err, errlen, "%s/.states: cannot create: %s", run_dir, strerror(errno));
		return -1;
	}
	return 0;
}

bool cb_qstate_saved(const struct cb_qstate *st)
{
	return access(st->path, F_OK) == 0;
}

int cb_qstate_sockets(struct cb_qstate *st, char *err, size_t errlen)
{
	if (st->dir[0]) {
		unlink(st->qmp);
		unlink(st->port);
		return 0;
	}
	/* a Unix socket's path must fit 108 bytes: not under a run directory of any length */
	snprintf(st->dir, sizeof(st->dir), "/tmp/cb-qemu.XXXXXX");
	if (!mkdtemp(st->dir)) {
		snprintf(err, errlen, "/tmp: cannot make a directory for QEMU's sockets: %s",
			 strerror(errno));
		st->dir[0] = '\0';
		return -1;
	}
	snprintf(st->qmp, sizeof(st->qmp), "%s/qmp", st->dir);
	snprintf(st->port, sizeof(st->port), "%s/port", st->dir);
	return 0;
}

/* the guest's console until it says ready: 0, or -1 with @err (QEMU gone, the agent out, time) */
static int wait_ready(const struct cb_qstate *st, pid_t pid, double ready_s, char *err,
		      size_t errlen)
{
	uint64_t deadline = cb_now_ns() + (uint64_t)(ready_s * 1e9);

	for (;;) {
		char *text = cb_read_file(st->console, NULL);
		bool ready = text && strstr(text, CB_STATE_READY_LINE);
		bool out = text && strstr(text, CB_INIT_AGENT_EXIT_LINE);

		free(text);
		if (ready)
			return 0;
		if (out || waitpid(pid, NULL, WNOHANG) == pid) {
			snprintf(err, errlen, "the guest to save %s ended before it was fragmented",
				 st->name);
			return -1;
		}
		if (cb_interrupted) {
			snprintf(err, errlen, "interrupted while the guest to save fragmented");
			return -1;
		}
		if (cb_now_ns() > deadline) {
			snprintf(err, errlen, "the guest to save %s was not fragmented within %.0f s",
				 st->name, ready_s);
			return -1;
		}
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	}
}

int cb_qstate_save(struct cb_qstate *st, pid_t pid, double ready_s, double save_s, char *err,
		   size_t errlen)
{
	char part[PATH_MAX + 8];
	int qmp, fd, rc;

	if (wait_ready(st, pid, ready_s, err, errlen) < 0)
		return -1;
	qmp = cb_qmp_open(st->qmp, 10.0, err, errlen);
	if (qmp < 0)
		return -1;
	snprintf(part, sizeof(part), "%s.part", st->path);
	fd = open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create: %s", part, strerror(errno));
		close(qmp);
		return -1;
	}
	rc = cb_qmp_save(qmp, fd, save_s, err, errlen);
	if (rc == 0 && fsync(fd) < 0) {
		snprintf(err, errlen, "%s: cannot write: %s", part, strerror(errno));
		rc = -1;
	}
	close(fd);
	close(qmp);
	if (rc == 0 && rename(part, st->path) < 0) {
		snprintf(err, errlen, "%s: cannot rename: %s", part, strerror(errno));
		rc = -1;
	}
	if (rc < 0)
		unlink(part);
	return rc;
}

/* QEMU's run state until the incoming migration is over: 0 paused (loaded), -1 with @err */
static int wait_loaded(int qmp, uint64_t deadline, char *err, size_t errlen)
{
	for (;;) {
		struct json_object *r, *v;
		const char *status;
		bool loading;

		if (cb_qmp_exec(qmp, "query-status", NULL, -1, 5.0, &r, err, errlen) < 0)
			return -1;
		status = json_object_object_get_ex(r, "status", &v) ? json_object_get_string(v) : "";
		loading = !strcmp(status, "inmigrate");
		if (!loading && strcmp(status, "paused") && strcmp(status, "running"))
			snprintf(err, errlen, "QEMU did not load the state file: its guest is '%s'",
				 status);
		json_object_put(r);
		if (!loading)
			return *err ? -1 : 0;
		if (cb_now_ns() > deadline) {
			snprintf(err, errlen, "QEMU did not load the state file in time");
			return -1;
		}
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	}
}

int cb_qstate_go(struct cb_qstate *st, const struct cb_cell *cell, double timeout_s, char *err,
		 size_t errlen)
{
	uint64_t deadline = cb_now_ns() + (uint64_t)(timeout_s * 1e9);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char line[sizeof(cell->id) + 2];
	int qmp, rc;

	err[0] = '\0';
	qmp = cb_qmp_open(st->qmp, timeout_s, err, errlen);
	if (qmp < 0)
		return -1;
	/* the guest was stopped to be saved: it stays so once loaded until told to go on */
	rc = wait_loaded(qmp, deadline, err, errlen);
	if (rc == 0)
		rc = cb_qmp_exec(qmp, "cont", NULL, -1, 10.0, NULL, err, errlen);
	close(qmp);
	if (rc < 0)
		return -1;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", st->port);
	st->port_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	snprintf(line, sizeof(line), "%s\n", cell->id);
	if (st->port_fd < 0 || connect(st->port_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    cb_write_all(st->port_fd, line, strlen(line)) < 0) {
		snprintf(err, errlen, "%s: cannot tell the loaded guest its cell: %s", st->port,
			 strerror(errno));
		return -1;
	}
	return 0;
}

void cb_qstate_release(struct cb_qstate *st, const struct cb_run *run, const struct cb_cell *cell)
{
	bool later = false;

	if (st->port_fd >= 0)
		close(st->port_fd);
	st->port_fd = -1;
	if (st->dir[0]) {
		unlink(st->qmp);
		unlink(st->port);
		rmdir(st->dir);
		st->dir[0] = '\0';
	}
	for (size_t i = 0; run->todo && i < run->nr_todo && !later; i++)
		later = run->todo[i].index > cell->index && cb_qstate_same(&run->todo[i], cell);
	if (!later)
		unlink(st->path);
}
