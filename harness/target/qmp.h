/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qmp.h - the few QEMU Machine Protocol commands the qemu target needs to save a running
 * guest into a file (a migration to a file descriptor the target passes over the socket),
 * so that later guests can start from the same memory (qemu_state.h). Debian packages no
 * QMP client library for C (libvirt would bring a daemon), and the protocol is one JSON
 * object a line, so this is json-c over a Unix socket.
 */
#ifndef CB_QMP_H
#define CB_QMP_H

#include <stddef.h>

struct json_object;

/*
 * cb_qmp_open - connect to QEMU's QMP socket @path (-qmp unix:PATH,server=on,wait=off),
 * trying until @timeout_s passes, read its greeting and leave capabilities negotiation.
 * Returns the socket, or -1 with @err set.
 */
int cb_qmp_open(const char *path, double timeout_s, char *err, size_t errlen);

/*
 * cb_qmp_exec - send the command @execute with @args (may be NULL; not consumed), passing
 * the open file @pass_fd along with it when >= 0 (SCM_RIGHTS, for getfd), and wait up to
 * @timeout_s for its answer; events on the way are skipped. Returns 0 with the "return"
 * value in *@ret (may be NULL; the caller puts it), or -1 with @err set: QEMU's own error
 * text, or what went wrong with the socket.
 */
int cb_qmp_exec(int fd, const char *execute, struct json_object *args, int pass_fd,
		double timeout_s, struct json_object **ret, char *err, size_t errlen);

/*
 * cb_qmp_save - stop the guest behind @fd and migrate its state into the open file @state_fd
 * (QMP stop, getfd, migrate "fd:", then query-migrate until it completes); at most
 * @timeout_s in all. The guest stays stopped. Returns 0, or -1 with @err set.
 */
int cb_qmp_save(int fd, int state_fd, double timeout_s, char *err, size_t errlen);

#endif
