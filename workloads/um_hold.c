// SPDX-License-Identifier: GPL-2.0-only
/*
 * um_hold.c - holding unmovable kernel memory (see um_hold.h).
 *
 * Why each kind is unmovable: pipe buffers are alloc_page(GFP_HIGHUSER | __GFP_ACCOUNT), with
 * no __GFP_MOVABLE; skb data (heads from kmalloc, frags from page_frag) are kernel memory
 * mapped only in the direct map; page-table pages are GFP_PGTABLE_USER. None can be migrated
 * by compaction, and all are freed when their descriptor or mapping goes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util.h"
#include "um_hold.h"

#define PT_SPAN (2ULL << 20) /* one page-table page maps 2 MiB (x86-64, arm64 with 4k) */

/*
 * um_init - an empty hold: @pipe_size and @socket_size per unit, at most @fd_limit fds,
 * room for page tables covering @pt_bytes. Returns 0, or -1 with errno set.
 */
int um_init(struct um_hold *h, uint64_t pipe_size, uint64_t socket_size, size_t fd_limit,
	    uint64_t pt_bytes)
{
	memset(h, 0, sizeof(*h));
	h->page_size = (size_t)sysconf(_SC_PAGESIZE);
	h->pipe_size = pipe_size;
	h->socket_size = socket_size;
	h->fd_limit = fd_limit;
	h->page = malloc(h->page_size);
	if (!h->page)
		return -1;
	memset(h->page, 0x3c, h->page_size);
	h->pt_max_touches = pt_bytes / h->page_size;
	if (!h->pt_max_touches)
		return 0;
	/*
	 * Read-only and never written: no memory is committed, and a read fault maps the
	 * shared zero page, so the only memory a touch costs is its page-table page.
	 */
	h->pt_len = h->pt_max_touches * PT_SPAN;
	h->pt_map = mmap(NULL, h->pt_len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			 -1, 0);
	if (h->pt_map == MAP_FAILED) {
		h->pt_map = NULL;
		return -1;
	}
	/* a THP read fault would map the huge zero page with no page table at all */
	if (madvise(h->pt_map, h->pt_len, MADV_NOHUGEPAGE) < 0 && errno != EINVAL)
		return -1;
	return 0;
}

/* keep @fd; returns 0, or -1 with errno set (the fd is closed then) */
static int keep_fd(struct um_hold *h, int fd)
{
	if (h->nfds == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 256;
		int *p = realloc(h->fds, cap * sizeof(*p));

		if (!p) {
			close(fd);
			return -1;
		}
		h->fds = p;
		h->cap = cap;
	}
	h->fds[h->nfds++] = fd;
	return 0;
}

/* write pages to @fd (non-blocking) until @max bytes or "try again"; returns the bytes */
static int64_t write_pages(struct um_hold *h, int fd, uint64_t max)
{
	uint64_t done = 0;

	while (done < max) {
		size_t n = max - done < h->page_size ? max - done : h->page_size;
		ssize_t w = write(fd, h->page, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (w < 0)
			return -1;
		done += (uint64_t)w;
	}
	return (int64_t)done;
}

/*
 * the pipe size: the one asked for, else (EPERM above fs.pipe-max-size without
 * CAP_SYS_RESOURCE, or past the per-user pipe quota) the limit, else what the pipe has
 */
static int size_pipe(struct um_hold *h, int fd)
{
	uint64_t asked = h->pipe_size;
	long max = 0, now;
	char v[32];
	int err;

	if (fcntl(fd, F_SETPIPE_SZ, (int)(asked > INT_MAX ? INT_MAX : asked)) >= 0)
		return 0;
	err = errno;
	if (err != EPERM && err != EINVAL && err != ENOMEM)
		return -1;
	if (cb_read_trimmed("/proc/sys/fs/pipe-max-size", v, sizeof(v)) == 0)
		max = strtol(v, NULL, 10);
	if (max <= 0 || (uint64_t)max >= asked || fcntl(fd, F_SETPIPE_SZ, (int)max) < 0) {
		now = fcntl(fd, F_GETPIPE_SZ);
		if (now < 0)
			return -1;
		max = now;
	}
	snprintf(h->note, sizeof(h->note), "--pipe-size %llu refused (%s): pipes of %ld bytes "
		 "(fs.pipe-max-size, or the pipe's own size)", (unsigned long long)asked,
		 strerror(err), max);
	h->pipe_size = (uint64_t)max;
	return 0;
}

/*
 * um_add_pipe - one pipe filled with up to @max bytes (and at most its buffer), its write
 * end closed. Returns the bytes it holds, 0 when out of descriptors, -1 with errno set.
 */
int64_t um_add_pipe(struct um_hold *h, uint64_t max)
{
	int p[2], err;
	int64_t n;

	/* two descriptors for a moment, one kept */
	if (h->nfds + 2 > h->fd_limit) {
		h->fd_limited = true;
		return 0;
	}
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC) < 0)
		return -1;
	if (size_pipe(h, p[1]) < 0) {
		n = -1;
	} else {
		n = write_pages(h, p[1], max < h->pipe_size ? max : h->pipe_size);
	}
	err = errno;
	/* the data stays in the pipe as long as its read end is open */
	close(p[1]);
	if (n <= 0) {
		close(p[0]);
		errno = n < 0 ? err : ENOSPC;
		return -1;
	}
	if (keep_fd(h, p[0]) < 0)
		return -1;
	h->pipes++;
	h->pipe_bytes += (uint64_t)n;
	return n;
}

/* a send buffer of @bytes, past net.core.wmem_max when privileged */
static void set_sndbuf(int fd, uint64_t bytes)
{
	int v = bytes > INT_MAX / 2 ? INT_MAX / 2 : (int)bytes;

	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof(v)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
}

/*
 * um_add_socket - one AF_UNIX stream pair with up to @max bytes queued unread, its writer
 * closed. Returns the bytes queued, 0 when out of descriptors, -1 with errno set.
 */
int64_t um_add_socket(struct um_hold *h, uint64_t max)
{
	int64_t n;
	int sv[2], err;

	if (h->nfds + 2 > h->fd_limit) {
		h->fd_limited = true;
		return 0;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	max = max < h->socket_size ? max : h->socket_size;
	set_sndbuf(sv[0], max);
	n = write_pages(h, sv[0], max);
	err = errno;
	/*
	 * Closing the writer leaves what it queued in the reader's receive queue: the data is
	 * freed when the reader goes (unix_release_sock purges its own queue only).
	 */
	close(sv[0]);
	if (n <= 0) {
		close(sv[1]);
		errno = n < 0 ? err : ENOBUFS;
		return -1;
	}
	if (keep_fd(h, sv[1]) < 0)
		return -1;
	h->sockets++;
	h->socket_bytes += (uint64_t)n;
	return n;
}

/*
 * um_add_pagetables - touch the sparse mapping until about @max more bytes of page-table
 * pages exist. Returns the bytes added (page-table pages times the page size), 0 when the
 * mapping is used up.
 */
int64_t um_add_pagetables(struct um_hold *h, uint64_t max)
{
	uint64_t want = max / h->page_size, i;

	if (!want)
		want = 1;
	for (i = 0; i < want && h->pt_touches < h->pt_max_touches; i++, h->pt_touches++)
		(void)*(volatile char *)(h->pt_map + h->pt_touches * PT_SPAN);
	return (int64_t)(i * h->page_size);
}

/* um_release - close every descriptor, unmap the mapping, free the buffers */
void um_release(struct um_hold *h)
{
	size_t i;

	for (i = 0; i < h->nfds; i++)
		close(h->fds[i]);
	h->nfds = 0;
	free(h->fds);
	h->fds = NULL;
	if (h->pt_map)
		munmap(h->pt_map, h->pt_len);
	h->pt_map = NULL;
	free(h->page);
	h->page = NULL;
}
