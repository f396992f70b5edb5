// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest_state.c - the guest's half of a saved fragmented guest (guest_state.h).
 */
#include "guest_state.h"
#include "agent.h"
#include "initramfs.h"
#include "qemu_state.h"
#include "target.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <termios.h>
#include <unistd.h>

/* where the held fragmenter writes while the share is unmounted: the guest's tmpfs */
#define HELD_DIR "/tmp/cb-held"

/* the serial port, raw, with nothing already in it */
static int open_port(struct cb_run *run, const char *tty)
{
	struct termios t;
	int fd = open(tty, O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0 || tcgetattr(fd, &t) < 0) {
		cb_run_set_err(run, "%s: cannot open the state's serial port: %s", tty,
			       strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	cfmakeraw(&t);
	tcsetattr(fd, TCSANOW, &t);
	tcflush(fd, TCIFLUSH);
	return fd;
}

/* one line from @fd into @buf, within @timeout_s */
static int read_id(struct cb_run *run, int fd, const char *tty, double timeout_s, char *buf,
		   size_t size)
{
	uint64_t deadline = cb_now_ns() + (uint64_t)(timeout_s * 1e9);
	size_t n = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char c;

		if (cb_interrupted) {
			cb_run_set_err(run, "interrupted while waiting to be saved");
			return -1;
		}
		if (cb_now_ns() > deadline) {
			cb_run_set_err(run, "%s: no cell to run within %.0f s of the save", tty,
				       timeout_s);
			return -1;
		}
		if (poll(&p, 1, 500) <= 0 || read(fd, &c, 1) != 1)
			continue;
		if (c == '\n' && n > 0)
			break;
		if (c == '\n' || c == '\r')
			continue;
		if (n + 1 >= size) {
			cb_run_set_err(run, "%s: a cell id longer than %zu bytes", tty, size - 1);
			return -1;
		}
		buf[n++] = c;
	}
	buf[n] = '\0';
	return 0;
}

int cb_guest_state_park(struct cb_run *run, const char *outdir, const char *tty, double timeout_s,
			char *id, size_t idlen)
{
	int fd = open_port(run, tty), rc;

	if (fd < 0)
		return -1;
	sync();
	if (umount(outdir) < 0) {
		cb_run_set_err(run, "%s: cannot unmount the results share before the save: %s", outdir,
			       strerror(errno));
		close(fd);
		return -1;
	}
	printf("%s\n", CB_STATE_READY_LINE);
	fflush(stdout);
	rc = read_id(run, fd, tty, timeout_s, id, idlen);
	close(fd);
	if (rc < 0)
		return -1;
	printf("%s %s %.3f\n", CB_STATE_GO_LINE, id, cb_now_ns() / 1e9);
	fflush(stdout);
	if (mount(CB_9P_TAG, outdir, "9p", 0, CB_9P_OPTS) < 0) {
		cb_run_set_err(run, "%s: cannot mount the results share again after the load: %s",
			       outdir, strerror(errno));
		return -1;
	}
	return 0;
}

/* the cell named @id, which must be of @first's state */
static const struct cb_cell *state_cell(struct cb_run *run, const struct cb_cell *cells, size_t nr,
					const struct cb_cell *first, const char *id)
{
	for (size_t i = 0; i < nr; i++) {
		const struct cb_cell *c = &cells[i];

		if (strcmp(c->id, id))
			continue;
		if (!cb_qstate_same(c, first)) {
			cb_run_set_err(run, "the host asked for cell %s of a guest saved for %s's kernel, "
				       "workload and repetition", id, first->id);
			return NULL;
		}
		return c;
	}
	cb_run_set_err(run, "the host asked for cell %s, which is not in this matrix", id);
	return NULL;
}

/*
 * meta.json "saved_state": the state's name, and a random id drawn before the save, the
 * same in every cell loaded from it and in no other: what the analysis pairs cells by
 * (two runs' states of one name are different states)
 */
static struct json_object *state_meta(const struct cb_cell *first)
{
	struct json_object *m = json_object_new_object();
	char name[sizeof(first->id) + 16], id[20];
	unsigned long long r = 0;

	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = cb_now_ns() ^ ((unsigned long long)getpid() << 32);
	snprintf(id, sizeof(id), "%016llx", r);
	cb_qstate_name(first, name, sizeof(name));
	json_object_object_add(m, "state", json_object_new_string(name));
	json_object_object_add(m, "id", json_object_new_string(id));
	json_object_object_add(m, "fragmented_for", json_object_new_string(first->id));
	return m;
}

int cb_guest_state_run(struct cb_run *run, const struct cb_cell *cells, size_t nr,
		       const struct cb_cell *first, const char *outdir, const char *tty)
{
	struct cb_held_fragment held = { .proc = CB_PROC_INIT };
	const struct cb_cell *cell = NULL;
	char id[sizeof(first->id)], cell_dir[PATH_MAX];
	double wait_s = 86400; /* a run may take the whole day to reach this state's last cell */
	int rc = 1;

	if (cb_host_setup_fragment(run, first) < 0 ||
	    cb_agent_fragment_hold(run, first, HELD_DIR, &held) < 0)
		goto out;
	held.meta = state_meta(first);
	/* what the fragment phase ran under: the shared knobs and proactiveness 0 */
	json_object_object_add(held.meta, "fragment_knobs", json_object_get(run->knobs));
	cb_log("agent: %s fragmented, waiting to be saved", first->id);
	if (cb_guest_state_park(run, outdir, tty, wait_s, id, sizeof(id)) < 0)
		goto out;
	cell = state_cell(run, cells, nr, first, id);
	if (!cell) {
		rc = 2;
		goto out;
	}
	if (cb_path(cell_dir, sizeof(cell_dir), "%s/%s", outdir, cell->id) < 0 ||
	    cb_mkdir_p(cell_dir) < 0) {
		cb_run_set_err(run, "%s/%s: cannot create: %s", outdir, cell->id, strerror(errno));
		goto out;
	}
	cb_log("agent: cell %s starting from the saved %s", cell->id, first->id);
	run->held = &held;
	if (cb_host_setup_loaded(run, cell) == 0 && cb_agent_run_cell(run, cell, cell_dir) == 0)
		rc = 0;
	run->held = NULL;
	cb_agent_timing_final(run, cell_dir);
out:
	if (rc)
		cb_log("agent: %s: %s", cell ? cell->id : first->id, run->err);
	cb_agent_fragment_drop(&held);
	return rc;
}
