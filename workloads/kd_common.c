// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd_common.c - what kernel-demand's paths share: their state, and the page order of a
 * kmalloc that goes straight to the page allocator.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kd_paths.h"

/*
 * SLUB's largest kmalloc cache is 2 pages (KMALLOC_SHIFT_HIGH = PAGE_SHIFT + 1); a larger
 * kmalloc is a "large kmalloc": pages of get_order(size) from the page allocator, which is
 * what makes kmem:mm_page_alloc show the order.
 */
#define KMALLOC_MAX_CACHE_SIZE (2 * 4096)

/* kd_state_init - an unused state for @path with @budget bytes (all fds -1) */
void kd_state_init(struct kd_state *s, const struct kd_path *path, uint64_t budget)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->path = path;
	s->budget = budget;
	for (i = 0; i < KD_MAX_FDS; i++)
		s->fd[i] = -1;
}

/* kd_state_close - close the fds and free the buffer of @s */
void kd_state_close(struct kd_state *s)
{
	int i;

	for (i = 0; i < KD_MAX_FDS; i++) {
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		s->fd[i] = -1;
	}
	free(s->buf);
	s->buf = NULL;
	s->buflen = 0;
}

/* kd_state_buffer - give @s a message buffer of @len bytes (a pattern); -1 with errno */
int kd_state_buffer(struct kd_state *s, size_t len)
{
	free(s->buf);
	s->buf = malloc(len);
	if (!s->buf)
		return -1;
	memset(s->buf, 0x5a, len);
	s->buflen = len;
	return 0;
}

/* kd_kmalloc_order - the page order kmalloc(@bytes) takes from the page allocator itself
 * (above the largest kmalloc cache, 8 KiB with SLUB on 4 KiB pages), or -1 for a slab object */
int kd_kmalloc_order(size_t bytes)
{
	int order = 0;

	if (bytes <= KMALLOC_MAX_CACHE_SIZE)
		return -1;
	while ((size_t)4096 << order < bytes)
		order++;
	return order;
}

/* kd_count_error - count a failed call of @s with @err; returns -1 if it must end the path */
int kd_count_error(struct kd_state *s, int err)
{
	s->st.errors++;
	s->st.last_errno = err;
	/* the kernel could not allocate: that is a result under fragmentation, not a bug */
	if (err == ENOBUFS || err == ENOMEM || err == EINTR)
		return 0;
	errno = err;
	return -1;
}
