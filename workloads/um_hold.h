/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * um_hold.h - the unmovable kernel memory frag-unmovable holds: full pipes, AF_UNIX data
 * queued unread, page-table pages of a sparse mapping. Each um_add_* call adds about one
 * unit (a pipe, a socket pair, a batch of page tables) and says how much it holds.
 */
#ifndef CB_UM_HOLD_H
#define CB_UM_HOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct um_hold {
	int *fds;		/* descriptors held (a pipe's read end, a pair's reader) */
	size_t nfds, cap;
	size_t fd_limit;	/* most descriptors to hold */
	bool fd_limited;	/* it reached fd_limit */
	uint64_t pipe_size;	/* buffer per pipe as set (0 before the first pipe) */
	uint64_t pipes, pipe_bytes;
	uint64_t socket_size;	/* data queued per pair at most */
	uint64_t sockets, socket_bytes;
	char *pt_map;		/* the sparse PROT_READ mapping */
	size_t pt_len;
	uint64_t pt_touches, pt_max_touches;
	char *page;		/* one page of data to write */
	size_t page_size;
	char note[160];		/* what it had to change from the options, and why */
};

/*
 * um_init - an empty hold: @pipe_size and @socket_size per unit, at most @fd_limit fds,
 * room for page tables covering @pt_bytes. Returns 0, or -1 with errno set.
 */
int um_init(struct um_hold *h, uint64_t pipe_size, uint64_t socket_size, size_t fd_limit,
	    uint64_t pt_bytes);

/*
 * um_add_pipe - one pipe filled with up to @max bytes (and at most its buffer), its write
 * end closed. Returns the bytes it holds, 0 when out of descriptors, -1 with errno set.
 */
int64_t um_add_pipe(struct um_hold *h, uint64_t max);

/*
 * um_add_socket - one AF_UNIX stream pair with up to @max bytes queued unread, its writer
 * closed. Returns the bytes queued, 0 when out of descriptors, -1 with errno set.
 */
int64_t um_add_socket(struct um_hold *h, uint64_t max);

/*
 * um_add_pagetables - touch the sparse mapping until about @max more bytes of page-table
 * pages exist. Returns the bytes added (page-table pages times the page size), 0 when the
 * mapping is used up.
 */
int64_t um_add_pagetables(struct um_hold *h, uint64_t max);

/* um_release - close every descriptor, unmap the mapping, free the buffers */
void um_release(struct um_hold *h);

#endif
