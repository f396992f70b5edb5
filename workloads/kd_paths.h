/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kd_paths.h - the paths through which kernel-demand makes the kernel allocate pages of
 * order 1-4 on its behalf. Each path is an ops struct in kd_sock.c or kd_pipe.c; the program
 * (kernel_demand.c) runs their rounds in turn. A path says which orders it expects (from
 * the kernel's code, see each path's comment); the test checks them against a trace.
 */
#ifndef CB_KD_PATHS_H
#define CB_KD_PATHS_H

#include <stddef.h>
#include <stdint.h>

#define KD_MAX_FDS 8
#define KD_MAX_SIZES 8
#define KD_MAX_ORDER 10

struct kd_path;

/* what a path did */
struct kd_stats {
	uint64_t ops;	  /* system calls that made the kernel allocate (writes, sendmsg, fcntl) */
	uint64_t bytes;	  /* bytes they moved (for pipes: bytes of ring arrays allocated) */
	uint64_t errors;  /* calls that failed with an error other than "try again" */
	int last_errno;
};

/* one path's state while the program runs */
struct kd_state {
	const struct kd_path *path;
	uint64_t budget;		/* bytes it may keep queued in the kernel at once */
	int fd[KD_MAX_FDS];		/* -1 when unused; closed by kd_state_close */
	char *buf;			/* message buffer (malloc'ed, freed by kd_state_close) */
	size_t buflen;
	size_t sizes[KD_MAX_SIZES];	/* message / pipe sizes it cycles through */
	int nsizes;
	unsigned int next;		/* the next size to use */
	unsigned int orders;		/* bit n: it expects allocations of order n */
	uint64_t pending;		/* bytes written and not yet read back (TCP) */
	struct kd_stats st;
	char note[160];			/* what it had to leave out here, and why; "" if nothing */
};

struct kd_path {
	const char *name;
	const char *mechanism;	/* the kernel code path, one line */
	/* open what it needs and fill sizes and orders; -1 with errno set */
	int (*setup)(struct kd_state *s);
	/* one round: allocate up to the budget, then give it back; -1 with errno on a failure */
	int (*round)(struct kd_state *s);
};

/* the paths, each in its own file */
extern const struct kd_path kd_unix_stream;
extern const struct kd_path kd_unix_dgram;
extern const struct kd_path kd_unix_dgram_big;
extern const struct kd_path kd_tcp;
extern const struct kd_path kd_cmsg;
extern const struct kd_path kd_pipe_resize;

/* kd_state_init - an unused state for @path with @budget bytes (all fds -1) */
void kd_state_init(struct kd_state *s, const struct kd_path *path, uint64_t budget);

/* kd_state_close - close the fds and free the buffer of @s */
void kd_state_close(struct kd_state *s);

/* kd_state_buffer - give @s a message buffer of @len bytes (a pattern); -1 with errno */
int kd_state_buffer(struct kd_state *s, size_t len);

/* kd_kmalloc_order - the page order kmalloc(@bytes) takes from the page allocator itself
 * (above the largest kmalloc cache, 8 KiB with SLUB on 4 KiB pages), or -1 for a slab object */
int kd_kmalloc_order(size_t bytes);

/* kd_count_error - count a failed call of @s with @err; returns -1 if it must end the path */
int kd_count_error(struct kd_state *s, int err);

#endif
