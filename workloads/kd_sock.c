// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd_sock.c - kernel-demand's socket paths: AF_UNIX stream and datagram, loopback TCP, and
 * large ancillary data. Each round queues messages up to the path's budget (or until the
 * kernel says "try again"), then reads everything back, so the allocations come and go.
 *
 * The orders each path expects come from the kernel's code (6.1 to 6.18), with 4 KiB pages:
 *  - unix stream: unix_stream_sendmsg() puts all but SKB_MAX_HEAD(0) (~3.7 KiB) of a
 *    write in page frags (alloc_skb_with_frags, at most order 3), the order being the
 *    largest that the page-aligned rest fills: 8 KiB writes take order 1, 16 KiB order 2,
 *    32 KiB order 3.
 *  - unix dgram: the linear part is up to SKB_MAX_ALLOC (~15.7 KiB), more when the frags
 *    are full (17 pages): a 12 KiB datagram has a 12.3 KiB head, a large kmalloc of order 2;
 *    a 100 KiB one a 32.3 KiB head (order 4) and order-3 frags; 24 KiB gives an 8 KiB frag.
 *  - unix dgram big: 100 KiB datagrams only, so order 4 (heads, GFP_KERNEL) and order 3
 *    (frags, without direct reclaim) and nothing of order 1-2. Order 4 is above
 *    PAGE_ALLOC_COSTLY_ORDER: when compaction cannot make one the allocation fails
 *    (ENOBUFS) instead of retrying into the OOM killer, as unix-dgram's order-2 heads of
 *    12-60 KiB datagrams do under fragmentation (they OOM-killed frag-anon in QEMU).
 *  - tcp: tcp_sendmsg() copies into the task's page frag, refilled with order-3 pages
 *    (SKB_FRAG_PAGE_ORDER, 32 KiB; order 0 when that fails). Only order 3.
 *  - cmsg: sendmsg() copies ancillary data above 20 bytes into sock_kmalloc(len), bounded
 *    by net.core.optmem_max; AF_UNIX skips cmsgs of levels other than SOL_SOCKET, so a
 *    single large one is copied and dropped: 12 KiB is order 2, 24 KiB order 3, 48 KiB 4.
 */
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util.h"
#include "kd_paths.h"

#define KIB 1024
#define TCP_WRITE (64 * KIB)
#define TCP_READ_TIMEOUT_MS 2000
#define MIN_SOCK_BUF (256 * KIB) /* the largest message of a path must fit in its buffer */

/* set SO_SNDBUF or SO_RCVBUF, past net.core.[wr]mem_max when privileged (the FORCE form) */
static int set_buf(int fd, int force_opt, int opt, uint64_t bytes)
{
	int v = bytes > INT_MAX / 2 ? INT_MAX / 2 : (int)bytes;

	if (setsockopt(fd, SOL_SOCKET, force_opt, &v, sizeof(v)) == 0)
		return 0;
	return setsockopt(fd, SOL_SOCKET, opt, &v, sizeof(v));
}

static uint64_t at_least(uint64_t v, uint64_t min)
{
	return v < min ? min : v;
}

/* read whatever is queued on @fd; returns 0, or -1 with errno on an error */
static int drain(struct kd_state *s, int fd)
{
	for (;;) {
		ssize_t n = recv(fd, s->buf, s->buflen, MSG_DONTWAIT);

		if (n > 0)
			continue;
		if (n == 0 || errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		if (kd_count_error(s, errno) < 0)
			return -1;
		if (errno != EINTR)
			return 0;
	}
}

/*
 * send messages of the state's sizes in turn on fd[0] until @budget bytes are queued or the
 * kernel says "try again"; @ctl: sizes are of the ancillary data, the payload is one byte
 */
static int fill(struct kd_state *s, bool ctl)
{
	uint64_t queued = 0;

	while (queued < s->budget) {
		size_t size = s->sizes[s->next % s->nsizes];
		struct iovec iov = { .iov_base = s->buf, .iov_len = ctl ? 1 : size };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
		ssize_t n;

		if (ctl) {
			struct cmsghdr *c = (struct cmsghdr *)s->buf;

			/* the payload byte is the first byte of the header: harmless */
			c->cmsg_len = size;
			c->cmsg_level = SOL_IP; /* not SOL_SOCKET: AF_UNIX skips it */
			c->cmsg_type = 0;
			msg.msg_control = s->buf;
			msg.msg_controllen = size;
		}
		n = sendmsg(s->fd[0], &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			if (kd_count_error(s, errno) < 0)
				return -1;
			break;
		}
		s->st.ops++;
		s->st.bytes += ctl ? size : (uint64_t)n;
		queued += ctl ? size : (uint64_t)n;
		s->next++;
	}
	return 0;
}

static size_t max_size(const struct kd_state *s)
{
	size_t m = 0;
	int i;

	for (i = 0; i < s->nsizes; i++)
		if (s->sizes[i] > m)
			m = s->sizes[i];
	return m;
}

/* a socketpair of @type, fd[0] writing with a send buffer of the budget */
static int pair_setup(struct kd_state *s, int type, const size_t *sizes, int nsizes,
		      unsigned int orders)
{
	int i;

	if (socketpair(AF_UNIX, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, s->fd) < 0)
		return -1;
	s->budget = at_least(s->budget, MIN_SOCK_BUF);
	if (set_buf(s->fd[0], SO_SNDBUFFORCE, SO_SNDBUF, s->budget) < 0)
		return -1;
	for (i = 0; i < nsizes; i++)
		s->sizes[i] = sizes[i];
	s->nsizes = nsizes;
	s->orders = orders;
	return kd_state_buffer(s, max_size(s));
}

static int unix_stream_setup(struct kd_state *s)
{
	static const size_t sizes[] = { 8 * KIB, 16 * KIB, 32 * KIB };

	return pair_setup(s, SOCK_STREAM, sizes, 3, 1u << 1 | 1u << 2 | 1u << 3);
}

static int unix_round(struct kd_state *s)
{
	if (fill(s, false) < 0)
		return -1;
	return drain(s, s->fd[1]);
}

const struct kd_path kd_unix_stream = {
	.name = "unix-stream",
	.mechanism = "AF_UNIX stream writes of 8/16/32 KiB: alloc_skb_with_frags page frags",
	.setup = unix_stream_setup,
	.round = unix_round,
};

static int unix_dgram_setup(struct kd_state *s)
{
	static const size_t sizes[] = { 12 * KIB, 24 * KIB, 60 * KIB, 100 * KIB };

	return pair_setup(s, SOCK_DGRAM, sizes, 4, 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4);
}

const struct kd_path kd_unix_dgram = {
	.name = "unix-dgram",
	.mechanism = "AF_UNIX datagrams of 12-100 KiB: large-kmalloc skb heads (order 2, 4) "
		     "and page frags (1, 3)",
	.setup = unix_dgram_setup,
	.round = unix_round,
};

static int unix_dgram_big_setup(struct kd_state *s)
{
	static const size_t sizes[] = { 100 * KIB };

	return pair_setup(s, SOCK_DGRAM, sizes, 1, 1u << 3 | 1u << 4);
}

const struct kd_path kd_unix_dgram_big = {
	.name = "unix-dgram-big",
	.mechanism = "AF_UNIX datagrams of 100 KiB: large-kmalloc skb heads of order 4 (costly: "
		     "fail, never OOM-kill) and page frags of order 3",
	.setup = unix_dgram_big_setup,
	.round = unix_round,
};

/* net.core.optmem_max: sock_kmalloc refuses what would pass it */
static long optmem_max(void)
{
	char v[32];

	if (cb_read_trimmed("/proc/sys/net/core/optmem_max", v, sizeof(v)) < 0)
		return 20480; /* the old default */
	return strtol(v, NULL, 10);
}

static int cmsg_setup(struct kd_state *s)
{
	static const size_t sizes[] = { 12 * KIB, 24 * KIB, 48 * KIB };
	size_t ok[3];
	long optmem = optmem_max();
	unsigned int orders = 0;
	int i, n = 0;

	for (i = 0; i < 3; i++) {
		/* sock_kmalloc needs omem_alloc + size < optmem_max */
		if ((long)sizes[i] >= optmem) {
			snprintf(s->note, sizeof(s->note), "net.core.optmem_max is %ld: no "
				 "ancillary data of %zu KiB or more", optmem, sizes[i] / KIB);
			break;
		}
		ok[n++] = sizes[i];
		orders |= 1u << kd_kmalloc_order(sizes[i]);
	}
	if (!n) {
		errno = ENOBUFS;
		return -1;
	}
	return pair_setup(s, SOCK_DGRAM, ok, n, orders);
}

static int cmsg_round(struct kd_state *s)
{
	if (fill(s, true) < 0)
		return -1;
	return drain(s, s->fd[1]);
}

const struct kd_path kd_cmsg = {
	.name = "cmsg",
	.mechanism = "sendmsg with 12/24/48 KiB of ancillary data: sock_kmalloc, a large kmalloc",
	.setup = cmsg_setup,
	.round = cmsg_round,
};

/* fd[0] client, fd[1] accepted peer, over 127.0.0.1 (never another address) */
static int tcp_connect(struct kd_state *s)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int lfd, ret = -1;

	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		return -1;
	/* the receive buffer is set before listen(): the window scale is chosen at the SYN */
	if (set_buf(lfd, SO_RCVBUFFORCE, SO_RCVBUF, s->budget) < 0 ||
	    bind(lfd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(lfd, 1) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&a, &len) < 0)
		goto out;
	s->fd[0] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->fd[0] < 0 || set_buf(s->fd[0], SO_SNDBUFFORCE, SO_SNDBUF, s->budget) < 0 ||
	    connect(s->fd[0], (struct sockaddr *)&a, sizeof(a)) < 0)
		goto out;
	s->fd[1] = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (s->fd[1] >= 0)
		ret = 0;
out:
	close(lfd);
	return ret;
}

static int tcp_setup(struct kd_state *s)
{
	s->budget = at_least(s->budget, MIN_SOCK_BUF);
	if (tcp_connect(s) < 0)
		return -1;
	s->sizes[0] = TCP_WRITE;
	s->nsizes = 1;
	s->orders = 1u << 3;
	return kd_state_buffer(s, TCP_WRITE);
}

/* read back all @s->pending bytes: loopback delivers them at once, or soon after */
static int tcp_read_back(struct kd_state *s)
{
	struct pollfd p = { .fd = s->fd[1], .events = POLLIN };

	while (s->pending) {
		ssize_t n = recv(s->fd[1], s->buf, s->buflen, MSG_DONTWAIT);

		if (n > 0) {
			s->pending -= (uint64_t)n < s->pending ? (uint64_t)n : s->pending;
			continue;
		}
		if (n == 0) {
			errno = ECONNRESET;
			return kd_count_error(s, errno);
		}
		if (errno == EINTR)
			return 0; /* a signal: the caller looks at it; the rest is read later */
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return kd_count_error(s, errno);
		if (poll(&p, 1, TCP_READ_TIMEOUT_MS) == 0)
			return kd_count_error(s, ETIMEDOUT);
	}
	return 0;
}

static int tcp_round(struct kd_state *s)
{
	uint64_t before = s->st.bytes;

	if (fill(s, false) < 0)
		return -1;
	s->pending += s->st.bytes - before;
	return tcp_read_back(s);
}

const struct kd_path kd_tcp = {
	.name = "tcp",
	.mechanism = "loopback TCP writes of 64 KiB: the task's page frag, refilled at order 3",
	.setup = tcp_setup,
	.round = tcp_round,
};
