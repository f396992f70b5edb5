// SPDX-License-Identifier: GPL-2.0-only
/*
 * qmp.c - a QMP client of three commands' worth (qmp.h): connect, execute, save to a file.
 */
#include "qmp.h"
#include "util.h"
#include "xalloc.h"

#include <errno.h>
#include <json-c/json.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* one answer line; QMP's are short, but query-migrate's grows with its statistics */
#define QMP_LINE_MAX 65536

static double left_s(uint64_t deadline)
{
	uint64_t now = cb_now_ns();

	return now >= deadline ? 0 : (double)(deadline - now) / 1e9;
}

/*
 * the next line from @fd, read a byte at a time so that nothing after it is taken from the
 * socket (a line is all QMP sends at once, and commands are few); -1 with @err on timeout,
 * EOF or a line too long
 */
static int read_line(int fd, char *buf, size_t size, uint64_t deadline, char *err, size_t errlen)
{
	size_t n = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int ms = (int)(left_s(deadline) * 1000);
		ssize_t r;

		if (ms <= 0 || poll(&p, 1, ms) <= 0) {
			snprintf(err, errlen, "QMP: no answer from QEMU in time");
			return -1;
		}
		r = read(fd, buf + n, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, errlen, "QMP: QEMU closed its socket%s%s", r < 0 ? ": " : "",
				 r < 0 ? strerror(errno) : "");
			return -1;
		}
		if (buf[n] == '\n') {
			buf[n] = '\0';
			return 0;
		}
		if (++n == size - 1) {
			snprintf(err, errlen, "QMP: an answer longer than %zu bytes", size);
			return -1;
		}
	}
}

/* the next object that is not an event: a greeting, a return or an error */
static struct json_object *read_answer(int fd, uint64_t deadline, char *err, size_t errlen)
{
	static char line[QMP_LINE_MAX];

	for (;;) {
		struct json_object *o, *ev;

		if (read_line(fd, line, sizeof(line), deadline, err, errlen) < 0)
			return NULL;
		o = json_tokener_parse(line);
		if (!o || !json_object_is_type(o, json_type_object)) {
			snprintf(err, errlen, "QMP: not a JSON object: %.200s", line);
			json_object_put(o);
			return NULL;
		}
		if (!json_object_object_get_ex(o, "event", &ev))
			return o;
		json_object_put(o);
	}
}

static int send_line(int fd, const char *text, int pass_fd, char *err, size_t errlen)
{
	size_t len = strlen(text);
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)text, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (pass_fd >= 0) {
		struct cmsghdr *c;

		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
	}
	do
		n = sendmsg(fd, &msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	/* the rest, if the socket took only part (the descriptor went with the first byte) */
	if (n < 0 || ((size_t)n < len && cb_write_all(fd, text + n, len - (size_t)n) < 0)) {
		snprintf(err, errlen, "QMP: cannot send: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int cb_qmp_exec(int fd, const char *execute, struct json_object *args, int pass_fd,
		double timeout_s, struct json_object **ret, char *err, size_t errlen)
{
	uint64_t deadline = cb_now_ns() + (uint64_t)(timeout_s * 1e9);
	struct json_object *cmd = json_object_new_object(), *ans, *v, *desc;
	char *text;
	int rc;

	if (ret)
		*ret = NULL;
	json_object_object_add(cmd, "execute", json_object_new_string(execute));
	if (args)
		json_object_object_add(cmd, "arguments", json_object_get(args));
	text = cb_xasprintf("%s\n", json_object_to_json_string_ext(cmd, JSON_C_TO_STRING_PLAIN));
	json_object_put(cmd);
	rc = send_line(fd, text, pass_fd, err, errlen);
	free(text);
	if (rc < 0 || !(ans = read_answer(fd, deadline, err, errlen)))
		return -1;
	if (json_object_object_get_ex(ans, "error", &v)) {
		snprintf(err, errlen, "QMP %s: %s", execute,
			 json_object_object_get_ex(v, "desc", &desc) ? json_object_get_string(desc) :
								       json_object_get_string(v));
		json_object_put(ans);
		return -1;
	}
	if (!json_object_object_get_ex(ans, "return", &v)) {
		snprintf(err, errlen, "QMP %s: an answer with neither return nor error", execute);
		json_object_put(ans);
		return -1;
	}
	if (ret)
		*ret = json_object_get(v);
	json_object_put(ans);
	return 0;
}

int cb_qmp_open(const char *path, double timeout_s, char *err, size_t errlen)
{
	uint64_t deadline = cb_now_ns() + (uint64_t)(timeout_s * 1e9);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct json_object *greeting;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "%s: too long for a Unix socket", path);
		return -1;
	}
	strcpy(sa.sun_path, path);
	for (;;) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			snprintf(err, errlen, "QMP: socket: %s", strerror(errno));
			return -1;
		}
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			break;
		close(fd);
		if (left_s(deadline) <= 0) {
			snprintf(err, errlen, "QMP: cannot connect to %s: %s", path, strerror(errno));
			return -1;
		}
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	}
	greeting = read_answer(fd, deadline, err, errlen);
	if (!greeting || !json_object_object_get_ex(greeting, "QMP", NULL)) {
		if (greeting)
			snprintf(err, errlen, "QMP: %s: no greeting", path);
		json_object_put(greeting);
		close(fd);
		return -1;
	}
	json_object_put(greeting);
	if (cb_qmp_exec(fd, "qmp_capabilities", NULL, -1, left_s(deadline), NULL, err, errlen) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* query-migrate's status until it is no longer under way: 0 completed, -1 with @err */
static int wait_migrated(int fd, uint64_t deadline, char *err, size_t errlen)
{
	for (;;) {
		struct json_object *r, *st, *e;
		const char *status;
		int done;

		if (cb_qmp_exec(fd, "query-migrate", NULL, -1, left_s(deadline), &r, err, errlen) < 0)
			return -1;
		status = json_object_object_get_ex(r, "status", &st) ? json_object_get_string(st) : "";
		done = !strcmp(status, "completed") ? 1 : !strcmp(status, "failed") ||
			!strcmp(status, "cancelled") ? -1 : 0;
		if (done < 0)
			snprintf(err, errlen, "QMP: the migration to the state file %s%s%s", status,
				 json_object_object_get_ex(r, "error-desc", &e) ? ": " : "",
				 json_object_object_get_ex(r, "error-desc", &e) ?
				 json_object_get_string(e) : "");
		json_object_put(r);
		if (done > 0)
			return 0;
		if (done < 0)
			return -1;
		if (left_s(deadline) <= 0) {
			snprintf(err, errlen, "QMP: the migration to the state file is still '%s' at "
				 "its time limit", status);
			return -1;
		}
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	}
}

int cb_qmp_save(int fd, int state_fd, double timeout_s, char *err, size_t errlen)
{
	uint64_t deadline = cb_now_ns() + (uint64_t)(timeout_s * 1e9);
	struct json_object *args;
	int rc;

	if (cb_qmp_exec(fd, "stop", NULL, -1, left_s(deadline), NULL, err, errlen) < 0)
		return -1;
	args = json_object_new_object();
	json_object_object_add(args, "fdname", json_object_new_string("cbstate"));
	rc = cb_qmp_exec(fd, "getfd", args, state_fd, left_s(deadline), NULL, err, errlen);
	json_object_put(args);
	if (rc < 0)
		return -1;
	args = json_object_new_object();
	json_object_object_add(args, "uri", json_object_new_string("fd:cbstate"));
	rc = cb_qmp_exec(fd, "migrate", args, -1, left_s(deadline), NULL, err, errlen);
	json_object_put(args);
	if (rc < 0)
		return -1;
	return wait_migrated(fd, deadline, err, errlen);
}
