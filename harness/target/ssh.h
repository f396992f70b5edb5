/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssh.h - the system's ssh and scp, run as argv (fork/execvp, never a local shell), for
 * the ssh target. Every call has BatchMode=yes (no prompt can hang a run), a connect
 * timeout, keep-alives (a dead link ends the call) and an overall time limit; the ssh
 * child gets SIGTERM if the harness dies, so the remote side sees the session end.
 *
 * The remote command is the one string ssh hands to the remote login shell: callers build
 * it with shquote.h, one quoted word per variable part.
 */
#ifndef CB_SSH_H
#define CB_SSH_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

/* cb_ssh_run and friends: besides exit statuses (0..255) */
#define CB_SSH_TIMEOUT (-2)
#define CB_SSH_INTERRUPTED (-3)
#define CB_SSH_KILLED (-4) /* the ssh client died of a signal (io->signal) */

/* ssh's own exit status for a connection or authentication failure */
#define CB_SSH_CONN_FAILED 255

/*
 * the ssh target's own [kernel] keys (target_ssh.c's table), its private config
 * (target_class.h): only the ssh target's files read it
 */
struct cb_ssh_conf {
	char *host;		/* [user@]host */
	long port;		/* 0 for ssh's own default */
	char *identity;		/* private key file, as written in the file */
	char *remote_dir;	/* the remote work directory */
	char *remote_state_dir; /* the remote agent's COMPACTBENCH_STATE_DIR, or NULL */
	char **ssh_options;	/* extra -o KEY=VALUE options, NULL-terminated, or NULL */
};

/* cb_ssh_conf - the ssh config of @k, a kernel on the ssh target */
static inline const struct cb_ssh_conf *cb_ssh_conf(const struct cb_kernel *k)
{
	return k->priv;
}

struct cb_ssh {
	const struct cb_kernel *k; /* its cb_ssh_conf: host, port, ssh_options */
	char identity[4096];	    /* the key file, resolved ("" for ssh's defaults) */
};

struct cb_ssh_io {
	int log_fd;	       /* the output goes here too (-1: nowhere); \r are dropped */
	char tail[2048];       /* the last output, NUL-terminated, for error messages */
	bool interruptible;    /* stop (SIGTERM ssh) when cb_interrupted is set */
	int signal;	       /* with CB_SSH_KILLED: the signal ssh died of */
};

/*
 * cb_ssh_run - `ssh OPTIONS [-tt] -- HOST @cmd`: @cmd runs in the remote login shell.
 * @tty: force a pseudo-terminal, so the remote command gets SIGHUP when the session dies.
 * Stops ssh (SIGTERM, then SIGKILL) after @timeout_s seconds.
 * Returns ssh's exit status (the remote command's, or 255 for ssh's own failure),
 * CB_SSH_KILLED if ssh died of a signal nobody here sent (io->signal), CB_SSH_TIMEOUT,
 * CB_SSH_INTERRUPTED, or -1 with errno.
 */
int cb_ssh_run(const struct cb_ssh *s, const char *cmd, bool tty, double timeout_s,
	       struct cb_ssh_io *io);

/*
 * cb_ssh_put - `scp -p -- SRC... HOST:@dest` (@dest: a remote directory ending in '/' or
 * a file name). Returns as cb_ssh_run.
 */
int cb_ssh_put(const struct cb_ssh *s, const char *const *srcs, size_t nr, const char *dest,
	       double timeout_s, struct cb_ssh_io *io);

/*
 * cb_ssh_get - `scp -r -p -- HOST:@src @local_dir`: the remote directory @src arrives
 * as @local_dir/basename(@src) (merged into it if it exists). Returns as cb_ssh_run.
 */
int cb_ssh_get(const struct cb_ssh *s, const char *src, const char *local_dir,
	       double timeout_s, struct cb_ssh_io *io);

/*
 * cb_ssh_describe - why a call with status @rc failed, naming the host: connection or
 * authentication (255, with ssh's message from @tail), a missing remote program (127),
 * a signal, the time limit. Writes to @buf.
 */
void cb_ssh_describe(const struct cb_ssh *s, int rc, const char *what, const char *tail,
		     char *buf, size_t size);

#endif
