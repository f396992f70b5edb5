// SPDX-License-Identifier: GPL-2.0-only
/*
 * frag-unmovable - hold unmovable kernel memory spread over pageblocks (phase: fragment).
 *
 * Pipes with full buffers, AF_UNIX data queued unread and page-table pages of a sparse
 * mapping, allocated in turn about 1 MiB at a time (um_hold.c), optionally into the holes of
 * an anonymous filler so that they land in many pageblocks. Compaction cannot move any of
 * it: a pageblock holding one such page never becomes a free huge page. Print "ready", hold,
 * free everything. `frag-unmovable --help` describes the options, the output and the exit
 * status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"
#include "um_hold.h"
#include "wl_args.h"
#include "wl_json.h"
#include "wl_mm.h"
#include "wl_res.h"
#include "wl_signal.h"

#define MAX_SHARE_OF_AVAILABLE 0.5   /* of unmovable, unreclaimable memory */
#define MAX_TOTAL_SHARE 0.95	     /* with the filler: no swap here, keep off the OOM killer */
/* the filler's half plus --size: the kernel memory costs more than it holds (skb truesize) */
#define MAX_HELD_SHARE 0.9
#define SPARE_FDS 64
#define UNIT (1ULL << 20)	     /* per kind and turn: small, so the kinds interleave */

enum kind { K_PIPE, K_SOCKET, K_PAGETABLE, NR_KINDS };
static const char *const kind_names[NR_KINDS] = { "pipe", "socket", "pagetable" };

struct unmovable {
	/* what was asked, resolved */
	uint64_t size, filler, pipe_size, socket_size;
	struct wl_mem win;	/* the window, MemAvailable at the start */
	bool clamped;		/* --size or --filler was lowered to fit */
	bool filler_lock;	/* --filler-lock: keep the filler's half, mlocked, through the hold */
	char *filler_map;	/* that half's mapping while it is kept */
	bool kind[NR_KINDS];
	int nkinds;
	double fill_limit_s;
	long nofile;
	int fds_at_start;
	struct wl_hold hold;
	/* what happened */
	struct um_hold h;
	uint64_t made[NR_KINDS];
	long long avail_kb[2], pte_kb[2];
	double fill_s;
	bool truncated, ready;
	char error[256];
};

static double secs_since(uint64_t t0)
{
	return (double)(cb_now_ns() - t0) / 1e9;
}

/* --kinds into u->kind; WL_ARGS_ERROR names a bad entry */
static int parse_kinds(struct unmovable *u, const struct wl_args *a)
{
	const char *p = wl_arg_str(a, "kinds");
	int k;

	while (*p) {
		size_t len = strcspn(p, ",");

		for (k = 0; k < NR_KINDS; k++)
			if (strlen(kind_names[k]) == len && !strncmp(kind_names[k], p, len))
				break;
		if (k == NR_KINDS)
			return wl_args_error(a, "kinds", "unknown kind '%.*s' (kinds: pipe, "
					     "socket, pagetable)", (int)len, p);
		if (u->kind[k])
			return wl_args_error(a, "kinds", "'%s' is named twice", kind_names[k]);
		u->kind[k] = true;
		u->nkinds++;
		p += len;
		if (*p == ',' && !*++p)
			return wl_args_error(a, "kinds", "ends with a comma");
	}
	if (!u->nkinds)
		return wl_args_error(a, "kinds", "names no kind");
	return WL_ARGS_OK;
}

/* turn the parsed options into @u; returns WL_ARGS_OK or WL_ARGS_ERROR (message printed) */
static int resolve(struct unmovable *u, const struct wl_args *a)
{
	bool filler_clamped = false;

	if (wl_mem_resolve("frag-unmovable", &u->win) < 0)
		return WL_ARGS_ERROR;
	if (wl_arg_size_fit(a, "size", &u->win, MAX_SHARE_OF_AVAILABLE, &u->size, &u->clamped))
		return WL_ARGS_ERROR;
	/*
	 * The filler's peak is before its every other page is freed; the kernel memory then
	 * comes on top of the half that stays: filler <= min(total, 2 * (held - size)), with
	 * held a little below total for the kernel memory's overhead (0.5 of MemAvailable of
	 * pipes, sockets and page tables under a 0.95 filler got it OOM-killed). Holding back
	 * all of --size (as before) left free blocks larger than --size, which the kernel
	 * allocations took whole (the fallback steals the largest free block first): the holes
	 * stayed empty and compaction had the freed filler's blocks back.
	 */
	if (wl_arg_str(a, "filler")) {
		struct wl_mem left = u->win;
		uint64_t total = (uint64_t)(MAX_TOTAL_SHARE * (double)u->win.avail);
		uint64_t held = (uint64_t)(MAX_HELD_SHARE * (double)u->win.avail);

		/* --size is at most MAX_SHARE_OF_AVAILABLE, below held: no wrap */
		left.avail = held - u->size < total / 2 ? 2 * (held - u->size) : total;
		if (wl_arg_size_fit(a, "filler", &left, 1.0, &u->filler, &filler_clamped))
			return WL_ARGS_ERROR;
		u->clamped |= filler_clamped;
	}
	u->filler_lock = wl_arg_bool(a, "filler-lock");
	if (u->filler_lock && !u->filler)
		return wl_args_error(a, "filler-lock", "needs --filler");
	wl_arg_size(a, "pipe-size", u->win.window, &u->pipe_size);
	wl_arg_size(a, "socket-size", u->win.window, &u->socket_size);
	u->fill_limit_s = wl_arg_duration(a, "duration");
	wl_hold_resolve(&u->hold, a);
	return parse_kinds(u, a);
}

static void emit_start(const struct unmovable *u)
{
	struct json_object *o = wl_json_new("phase"), *kinds = json_object_new_array();
	int k;

	wl_json_str(o, "phase", "start");
	wl_json_str(o, "workload", "frag-unmovable");
	for (k = 0; k < NR_KINDS; k++)
		if (u->kind[k])
			json_object_array_add(kinds, json_object_new_string(kind_names[k]));
	json_object_object_add(o, "kinds", kinds);
	wl_json_int(o, "size_bytes", (int64_t)u->size);
	wl_mem_json(o, &u->win, u->clamped);
	wl_json_int(o, "filler_bytes", (int64_t)u->filler);
	wl_json_bool(o, "filler_lock", u->filler_lock);
	wl_json_int(o, "pipe_size", (int64_t)u->pipe_size);
	wl_json_int(o, "socket_size", (int64_t)u->socket_size);
	wl_json_int(o, "nofile", u->nofile);
	wl_json_real(o, "fill_limit_s", u->fill_limit_s);
	wl_json_real(o, "hold_s", u->hold.hold_s);
	wl_json_int(o, "pid", getpid());
	wl_json_emit(o);
}

static void emit_state(const char *when)
{
	struct wl_pageblocks pb;

	if (wl_buddyinfo_emit(when) < 0)
		fprintf(stderr, "frag-unmovable: cannot read /proc/buddyinfo: %s\n",
			strerror(errno));
	/* /proc/pagetypeinfo is root's only: without it there is no pageblock line */
	if (wl_pageblocks_read(NULL, &pb) == 0)
		wl_json_emit(wl_pageblocks_json(when, &pb));
}

/*
 * fault the filler with base pages and free every other one: the high-order free blocks are
 * used up, so the kernel allocations that follow fall back into the order-0 holes of many
 * movable pageblocks. Returns the mapping (NULL if none or on an error, with u->error set).
 */
static char *make_filler(struct unmovable *u)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = u->filler - u->filler % page, off;
	char *m;

	if (!len)
		return NULL;
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		snprintf(u->error, sizeof(u->error), "mmap filler: %s", strerror(errno));
		return NULL;
	}
	madvise(m, len, MADV_NOHUGEPAGE); /* EINVAL without THP: base pages anyway */
	for (off = 0; off < len && !wl_stopping(); off += page)
		m[off] = 1;
	for (off = page; off < len && !wl_stopping(); off += 2 * page)
		madvise(m + off, page, MADV_DONTNEED);
	return m;
}

/* one turn of kind @k, at most @left bytes; returns bytes added, 0 when it can do no more */
static int64_t add_one(struct unmovable *u, int k, uint64_t left)
{
	uint64_t max = left < UNIT ? left : UNIT;

	switch (k) {
	case K_PIPE:
		return um_add_pipe(&u->h, left < u->pipe_size ? left : u->pipe_size);
	case K_SOCKET:
		return um_add_socket(&u->h, left < u->socket_size ? left : u->socket_size);
	default:
		return um_add_pagetables(&u->h, max);
	}
}

/* the kinds in turn until each has its share; 0, or -1 with u->error set */
static int allocate(struct unmovable *u)
{
	uint64_t t0 = cb_now_ns(), limit_ns = (uint64_t)(u->fill_limit_s * 1e9);
	uint64_t share = u->size / u->nkinds;
	bool active[NR_KINDS];
	int k, nactive = 0;

	for (k = 0; k < NR_KINDS; k++) {
		active[k] = u->kind[k];
		nactive += active[k];
	}
	while (nactive && !wl_stopping()) {
		if (cb_now_ns() - t0 > limit_ns) {
			u->truncated = true;
			break;
		}
		for (k = 0; k < NR_KINDS && !wl_stopping(); k++) {
			int64_t n;

			if (!active[k])
				continue;
			n = add_one(u, k, share - u->made[k]);
			if (n < 0) {
				snprintf(u->error, sizeof(u->error), "%s: %s", kind_names[k],
					 strerror(errno));
				return -1;
			}
			u->made[k] += (uint64_t)n;
			if (!n || u->made[k] >= share) {
				active[k] = false;
				nactive--;
			}
		}
	}
	u->fill_s = secs_since(t0);
	return 0;
}

static void emit_ready(const struct unmovable *u)
{
	struct json_object *o = wl_json_new("phase");
	size_t page = u->h.page_size;

	wl_json_str(o, "phase", "ready");
	wl_json_int(o, "held_bytes", (int64_t)(u->made[K_PIPE] + u->made[K_SOCKET] +
					       u->made[K_PAGETABLE]));
	wl_json_int(o, "pipes", (int64_t)u->h.pipes);
	wl_json_int(o, "pipe_bytes", (int64_t)u->h.pipe_bytes);
	wl_json_int(o, "pipe_size", (int64_t)u->h.pipe_size);
	wl_json_int(o, "sockets", (int64_t)u->h.sockets);
	wl_json_int(o, "socket_bytes", (int64_t)u->h.socket_bytes);
	wl_json_int(o, "pagetable_touches", (int64_t)u->h.pt_touches);
	wl_json_int(o, "pagetable_bytes", (int64_t)(u->h.pt_touches * page));
	wl_json_int(o, "vmpte_kb_delta", u->pte_kb[1] - u->pte_kb[0]);
	wl_json_int(o, "mem_available_kb_delta", u->avail_kb[1] - u->avail_kb[0]);
	/* the kernel's count of the resident pages --filler-lock keeps locked (0 without it) */
	wl_json_int(o, "locked_kb", cb_proc_kb("/proc/self/smaps_rollup", "Locked"));
	wl_json_int(o, "fds", (int64_t)u->h.nfds);
	wl_json_int(o, "fd_limit", (int64_t)u->h.fd_limit);
	wl_json_bool(o, "fd_limited", u->h.fd_limited);
	wl_json_bool(o, "truncated", u->truncated);
	wl_json_real(o, "fill_s", u->fill_s);
	wl_json_str(o, "note", u->h.note[0] ? u->h.note : NULL);
	wl_json_emit(o);
}

/* make the state; returns 0 when "ready" was printed */
static int fragment(struct unmovable *u)
{
	size_t limit = u->nofile > u->fds_at_start + SPARE_FDS ?
		       (size_t)(u->nofile - u->fds_at_start - SPARE_FDS) : 0;
	char *filler;
	int ret;

	emit_state("before");
	u->avail_kb[0] = cb_meminfo_kb(NULL, "MemAvailable");
	u->pte_kb[0] = wl_status_kb(0, "VmPTE");
	if (um_init(&u->h, u->pipe_size, u->socket_size, limit,
		    u->kind[K_PAGETABLE] ? u->size / u->nkinds : 0) < 0) {
		snprintf(u->error, sizeof(u->error), "setting up: %s", strerror(errno));
		return -1;
	}
	filler = make_filler(u);
	if (u->error[0])
		return -1;
	ret = wl_stopping() ? -1 : allocate(u);
	/*
	 * --filler-lock: lock the half that stays (MLOCK_ONFAULT: the holes are not faulted
	 * back); with vm.compact_unevictable_allowed = 0 compaction then cannot move it.
	 */
	if (filler && u->filler_lock && ret == 0 &&
	    mlock2(filler, u->filler - u->filler % u->h.page_size, MLOCK_ONFAULT) < 0) {
		snprintf(u->error, sizeof(u->error), "mlock2 filler: %s", strerror(errno));
		ret = -1;
	}
	if (filler && u->filler_lock && ret == 0)
		u->filler_map = filler;
	else if (filler)
		munmap(filler, u->filler - u->filler % u->h.page_size);
	if (ret < 0 || wl_stopping())
		return -1;
	u->avail_kb[1] = cb_meminfo_kb(NULL, "MemAvailable");
	u->pte_kb[1] = wl_status_kb(0, "VmPTE");
	emit_state("after");
	emit_ready(u);
	u->ready = true;
	return 0;
}

static void emit_summary(const struct unmovable *u, int fds_at_end, double total_s)
{
	struct json_object *o = wl_json_new("summary");

	wl_json_str(o, "workload", "frag-unmovable");
	wl_json_int(o, "size_bytes", (int64_t)u->size);
	wl_json_int(o, "pipe_bytes", (int64_t)u->made[K_PIPE]);
	wl_json_int(o, "socket_bytes", (int64_t)u->made[K_SOCKET]);
	wl_json_int(o, "pagetable_bytes", (int64_t)u->made[K_PAGETABLE]);
	wl_json_bool(o, "ready", u->ready);
	wl_json_bool(o, "truncated", u->truncated);
	wl_json_real(o, "fill_s", u->fill_s);
	wl_json_real(o, "held_s", u->hold.held_s);
	wl_json_str(o, "hold_end", u->hold.end);
	wl_json_int(o, "fds_at_start", u->fds_at_start);
	wl_json_int(o, "fds_open_at_end", fds_at_end);
	wl_json_bool(o, "interrupted", wl_stopping());
	wl_json_str(o, "signal", wl_signal_name());
	wl_json_str(o, "error", u->error[0] ? u->error : NULL);
	wl_json_real(o, "duration_s", total_s);
	wl_json_emit(o);
}

int main(int argc, char **argv)
{
	struct unmovable u = { 0 };
	struct wl_args a;
	uint64_t t0 = cb_now_ns();
	int ret;

	wl_json_init();
	ret = wl_args_parse(&a, &wl_frag_unmovable, argc, argv);
	if (ret == WL_ARGS_OK)
		ret = resolve(&u, &a);
	if (ret != WL_ARGS_OK)
		return ret == WL_ARGS_HELP ? 0 : 2;
	if (wl_signal_install() < 0) {
		perror("frag-unmovable: sigaction");
		return 1;
	}
	cb_write_string("/proc/self/oom_score_adj", "1000");
	u.nofile = wl_nofile_raise();
	u.fds_at_start = wl_fd_count(0);
	emit_start(&u);
	if (fragment(&u) == 0)
		wl_hold_run(&u.hold);
	um_release(&u.h);
	if (u.filler_map)
		munmap(u.filler_map, u.filler - u.filler % u.h.page_size);
	emit_summary(&u, wl_fd_count(0), secs_since(t0));
	if (u.error[0]) {
		fprintf(stderr, "frag-unmovable: %s\n", u.error);
		return 1;
	}
	return u.ready ? 0 : wl_signal_exit_code();
}
