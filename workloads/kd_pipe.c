// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd_pipe.c - kernel-demand's pipe path: resize pipes with F_SETPIPE_SZ, back and forth.
 *
 * pipe_resize_ring() allocates the new ring with kcalloc(slots, sizeof(struct pipe_buffer)),
 * 40 bytes a slot on 64-bit: a 1 MiB pipe (256 slots) needs 10 KiB, a large kmalloc of
 * order 2; 2 MiB takes order 3, 4 MiB order 4. Going back to one page frees it, so every
 * round allocates again. Above fs.pipe-max-size (1 MiB by default) only a process with
 * CAP_SYS_RESOURCE may go; without it the path makes order 2 only and says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "kd_paths.h"

#define PIPE_BUFFER_BYTES 40 /* sizeof(struct pipe_buffer) on 64-bit kernels */
#define NR_PIPES 4
#define SMALL_PIPE 4096
#define MIB (1024 * 1024)

static long pipe_max_size(void)
{
	char v[32];

	if (cb_read_trimmed("/proc/sys/fs/pipe-max-size", v, sizeof(v)) < 0)
		return MIB;
	return strtol(v, NULL, 10);
}

/* the ring bytes of a pipe of @size bytes (slots are pages, a power of two) */
static size_t ring_bytes(size_t size)
{
	return size / 4096 * PIPE_BUFFER_BYTES;
}

static int pipe_setup(struct kd_state *s)
{
	static const size_t sizes[] = { 1 * MIB, 2 * MIB, 4 * MIB };
	long max = pipe_max_size();
	int i, p[2];

	for (i = 0; i < NR_PIPES; i++) {
		if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
			return -1;
		s->fd[2 * i] = p[0];
		s->fd[2 * i + 1] = p[1];
	}
	for (i = 0; i < 3; i++) {
		int order = kd_kmalloc_order(ring_bytes(sizes[i]));

		/* try it: EPERM above pipe-max-size without CAP_SYS_RESOURCE */
		if (fcntl(s->fd[0], F_SETPIPE_SZ, (int)sizes[i]) < 0) {
			if (errno != EPERM && errno != ENOMEM)
				return -1;
			snprintf(s->note, sizeof(s->note), "F_SETPIPE_SZ %zu MiB: %s "
				 "(fs.pipe-max-size is %ld): no order %d", sizes[i] / MIB,
				 strerror(errno), max, order);
			break;
		}
		s->sizes[s->nsizes++] = sizes[i];
		if (order > 0)
			s->orders |= 1u << order;
	}
	if (fcntl(s->fd[0], F_SETPIPE_SZ, SMALL_PIPE) < 0)
		return -1;
	if (!s->nsizes) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* every pipe to every size, each time from one page: one new ring per call */
static int pipe_round(struct kd_state *s)
{
	int i, k;

	for (i = 0; i < NR_PIPES; i++) {
		for (k = 0; k < s->nsizes; k++) {
			if (fcntl(s->fd[2 * i], F_SETPIPE_SZ, (int)s->sizes[k]) < 0) {
				if (kd_count_error(s, errno) < 0)
					return -1;
				continue;
			}
			s->st.ops++;
			s->st.bytes += ring_bytes(s->sizes[k]);
			if (fcntl(s->fd[2 * i], F_SETPIPE_SZ, SMALL_PIPE) < 0 &&
			    kd_count_error(s, errno) < 0)
				return -1;
		}
	}
	return 0;
}

const struct kd_path kd_pipe_resize = {
	.name = "pipe-resize",
	.mechanism = "F_SETPIPE_SZ to 1/2/4 MiB and back: the ring array, a large kmalloc "
		     "(order 2/3/4)",
	.setup = pipe_setup,
	.round = pipe_round,
};
