// SPDX-License-Identifier: GPL-2.0-only
/*
 * frag-pagecache - fragment memory with page cache interleaved with reclaimable slab
 * (phase: fragment).
 *
 * Write file data a chunk at a time and create a batch of empty files after each chunk, so
 * the dentry and inode slab pages (reclaimable) are allocated between the page-cache pages
 * (movable). Reclaim can free both, but compaction cannot move a slab page: the mix keeps
 * pageblocks from being emptied. Print "ready", hold, and remove every file it made.
 * `frag-pagecache --help` describes the options, the output and the exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "util.h"
#include "pc_tree.h"
#include "wl_args.h"
#include "wl_json.h"
#include "wl_mm.h"
#include "wl_signal.h"

#define MAX_SHARE_OF_FREE_SPACE 0.9
#define MAX_WRITE_SIZE (64ULL << 20)
#define MIB (double)(1ULL << 20)

struct pagecache {
	/* what was asked, resolved */
	const char *dir;
	uint64_t size, disk_free, chunk, file_size, write_size;
	struct wl_mem win;	/* the window, MemAvailable at the start */
	long long files_per_chunk;
	double fill_limit_s;
	struct wl_hold hold;
	/* what happened */
	struct pc_tree tree;
	char *buf;
	uint64_t written;
	long long cached_kb[2], sreclaimable_kb[2];
	double fill_s, remove_s;
	bool truncated, ready;
	char error[256];
};

static double secs_since(uint64_t t0)
{
	return (double)(cb_now_ns() - t0) / 1e9;
}

/* a SIZE option that must be at least one byte and at most @max */
static int size_opt(const struct wl_args *a, const char *name, uint64_t total, uint64_t max,
		    uint64_t *out)
{
	wl_arg_size(a, name, total, out);
	if (*out > max)
		return wl_args_error(a, name, "above %llu bytes", (unsigned long long)max);
	return WL_ARGS_OK;
}

/* turn the parsed options into @p; returns WL_ARGS_OK or WL_ARGS_ERROR (message printed) */
static int resolve(struct pagecache *p, const struct wl_args *a)
{
	struct statvfs vfs;
	struct stat st;

	p->dir = wl_arg_str(a, "dir");
	if (!p->dir)
		return wl_args_error(a, "dir", "is required (the directory to fill)");
	errno = 0;
	if (stat(p->dir, &st) < 0 || !S_ISDIR(st.st_mode) || statvfs(p->dir, &vfs) < 0)
		return wl_args_error(a, "dir", "not a directory: %s",
				     errno ? strerror(errno) : "a file");
	if (wl_mem_resolve("frag-pagecache", &p->win) < 0)
		return WL_ARGS_ERROR;
	p->disk_free = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	/* page cache is reclaimable: no share of MemAvailable caps it, the disk does */
	wl_arg_size(a, "size", p->win.window, &p->size);
	if (p->size > MAX_SHARE_OF_FREE_SPACE * (double)p->disk_free)
		return wl_args_error(a, "size", "%llu bytes is above %.1f of the free space of "
				     "%s (%llu bytes); refusing", (unsigned long long)p->size,
				     MAX_SHARE_OF_FREE_SPACE, p->dir,
				     (unsigned long long)p->disk_free);
	if (size_opt(a, "chunk", p->win.window, p->size, &p->chunk) ||
	    size_opt(a, "file-size", p->win.window, UINT64_MAX, &p->file_size) ||
	    size_opt(a, "write-size", p->win.window, MAX_WRITE_SIZE, &p->write_size))
		return WL_ARGS_ERROR;
	p->files_per_chunk = wl_arg_long(a, "files-per-chunk");
	p->fill_limit_s = wl_arg_duration(a, "duration");
	wl_hold_resolve(&p->hold, a);
	return WL_ARGS_OK;
}

static void emit_start(const struct pagecache *p)
{
	struct json_object *o = wl_json_new("phase");

	wl_json_str(o, "phase", "start");
	wl_json_str(o, "workload", "frag-pagecache");
	wl_json_str(o, "dir", p->dir);
	wl_json_str(o, "tree", p->tree.path);
	wl_json_int(o, "size_bytes", (int64_t)p->size);
	wl_mem_json(o, &p->win, false);
	wl_json_int(o, "disk_free_bytes", (int64_t)p->disk_free);
	wl_json_int(o, "chunk_bytes", (int64_t)p->chunk);
	wl_json_int(o, "files_per_chunk", p->files_per_chunk);
	wl_json_int(o, "file_bytes", (int64_t)p->file_size);
	wl_json_int(o, "write_bytes", (int64_t)p->write_size);
	wl_json_real(o, "fill_limit_s", p->fill_limit_s);
	wl_json_real(o, "hold_s", p->hold.hold_s);
	wl_json_int(o, "pid", getpid());
	wl_json_emit(o);
}

static void read_meminfo(struct pagecache *p, int when)
{
	p->cached_kb[when] = cb_meminfo_kb(NULL, "Cached");
	p->sreclaimable_kb[when] = cb_meminfo_kb(NULL, "SReclaimable");
}

static int fail(struct pagecache *p, const char *what)
{
	snprintf(p->error, sizeof(p->error), "%s in %s: %s", what, p->tree.path, strerror(errno));
	return -1;
}

/* write @n bytes to @fd; a signal's EINTR or a short write just goes round again */
static int write_all(struct pagecache *p, int fd, uint64_t n)
{
	while (n) {
		ssize_t w = write(fd, p->buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return fail(p, "write");
		n -= (uint64_t)w;
		p->written += (uint64_t)w;
	}
	return 0;
}

static void progress(const struct pagecache *p, uint64_t t0)
{
	fprintf(stderr, "frag-pagecache: wrote %.0f of %.0f MiB, %llu small files (%.1f s)\n",
		(double)p->written / MIB, (double)p->size / MIB,
		(unsigned long long)p->tree.nsmall, secs_since(t0));
}

/* the interleaving: data, a batch of small files, data, ...; 0, or -1 with p->error set */
static int fill(struct pagecache *p)
{
	uint64_t t0 = cb_now_ns(), limit_ns = (uint64_t)(p->fill_limit_s * 1e9);
	uint64_t chunk_left = p->chunk, file_left = 0, step = p->size / 8;
	uint64_t next_progress = step;
	long long i;
	int fd = -1, ret = 0;

	while (p->written < p->size && !wl_stopping() && !ret) {
		uint64_t n = p->size - p->written;

		if (cb_now_ns() - t0 > limit_ns) {
			p->truncated = true;
			break;
		}
		if (fd < 0) {
			fd = pc_tree_new_data(&p->tree);
			if (fd < 0) {
				ret = fail(p, "create");
				break;
			}
			file_left = p->file_size;
		}
		n = n < p->write_size ? n : p->write_size;
		n = n < chunk_left ? n : chunk_left;
		n = n < file_left ? n : file_left;
		ret = write_all(p, fd, n);
		chunk_left -= n;
		file_left -= n;
		if (!file_left) {
			close(fd);
			fd = -1;
		}
		if (!chunk_left) {
			for (i = 0; i < p->files_per_chunk && !ret; i++)
				if (pc_tree_new_small(&p->tree) < 0)
					ret = fail(p, "create");
			chunk_left = p->chunk;
		}
		if (step && p->written >= next_progress) {
			progress(p, t0);
			next_progress += step;
		}
	}
	if (fd >= 0)
		close(fd);
	p->fill_s = secs_since(t0);
	return ret;
}

static void emit_ready(const struct pagecache *p)
{
	struct json_object *o = wl_json_new("phase");

	wl_json_str(o, "phase", "ready");
	wl_json_int(o, "data_bytes", (int64_t)p->written);
	wl_json_int(o, "data_files", (int64_t)p->tree.ndata);
	wl_json_int(o, "small_files", (int64_t)p->tree.nsmall);
	wl_json_int(o, "subdirs", (int64_t)p->tree.nsubdirs);
	wl_json_int(o, "cached_kb_delta", p->cached_kb[1] - p->cached_kb[0]);
	wl_json_int(o, "sreclaimable_kb_delta", p->sreclaimable_kb[1] - p->sreclaimable_kb[0]);
	wl_json_bool(o, "truncated", p->truncated);
	wl_json_real(o, "fill_s", p->fill_s);
	wl_json_emit(o);
}

/* make the tree and fill it; returns 0 when "ready" was printed */
static int fragment(struct pagecache *p)
{
	if (wl_buddyinfo_emit("before") < 0)
		fprintf(stderr, "frag-pagecache: cannot read /proc/buddyinfo: %s\n",
			strerror(errno));
	read_meminfo(p, 0);
	p->buf = malloc(p->write_size);
	if (!p->buf)
		return fail(p, "malloc");
	memset(p->buf, 0xa5, p->write_size);
	if (fill(p) < 0 || wl_stopping())
		return -1;
	read_meminfo(p, 1);
	if (wl_buddyinfo_emit("after") < 0)
		fprintf(stderr, "frag-pagecache: cannot read /proc/buddyinfo: %s\n",
			strerror(errno));
	emit_ready(p);
	p->ready = true;
	return 0;
}

static void emit_summary(const struct pagecache *p, double total_s)
{
	struct json_object *o = wl_json_new("summary");

	wl_json_str(o, "workload", "frag-pagecache");
	wl_json_str(o, "tree", p->tree.path);
	wl_json_int(o, "size_bytes", (int64_t)p->size);
	wl_json_int(o, "data_bytes", (int64_t)p->written);
	wl_json_int(o, "data_files", (int64_t)p->tree.ndata);
	wl_json_int(o, "small_files", (int64_t)p->tree.nsmall);
	wl_json_bool(o, "ready", p->ready);
	wl_json_bool(o, "truncated", p->truncated);
	wl_json_real(o, "fill_s", p->fill_s);
	wl_json_real(o, "held_s", p->hold.held_s);
	wl_json_str(o, "hold_end", p->hold.end);
	wl_json_int(o, "removed", (int64_t)p->tree.removed);
	wl_json_int(o, "left", (int64_t)p->tree.left);
	wl_json_real(o, "remove_s", p->remove_s);
	wl_json_bool(o, "interrupted", wl_stopping());
	wl_json_str(o, "signal", wl_signal_name());
	wl_json_str(o, "error", p->error[0] ? p->error : NULL);
	wl_json_real(o, "duration_s", total_s);
	wl_json_emit(o);
}

int main(int argc, char **argv)
{
	struct pagecache p = { 0 };
	struct wl_args a;
	uint64_t t0 = cb_now_ns(), tr;
	int ret, stale;

	wl_json_init();
	pc_tree_init(&p.tree);
	ret = wl_args_parse(&a, &wl_frag_pagecache, argc, argv);
	if (ret == WL_ARGS_OK)
		ret = resolve(&p, &a);
	if (ret != WL_ARGS_OK)
		return ret == WL_ARGS_HELP ? 0 : 2;
	/* before anything is made, so that no exit path can skip the removal */
	if (wl_signal_install() < 0) {
		perror("frag-pagecache: sigaction");
		return 1;
	}
	if (pc_tree_create(&p.tree, p.dir) < 0) {
		fprintf(stderr, "frag-pagecache: cannot make a directory in %s: %s\n", p.dir,
			strerror(errno));
		pc_tree_remove(&p.tree);
		return 1;
	}
	stale = pc_tree_stale(p.dir, &p.tree);
	if (stale)
		fprintf(stderr, "frag-pagecache: %s holds %d other " PC_TREE_PREFIX "* (left by a "
			"killed run?); not touching them\n", p.dir, stale);
	emit_start(&p);
	if (fragment(&p) == 0)
		wl_hold_run(&p.hold);
	free(p.buf);
	tr = cb_now_ns();
	if (pc_tree_remove(&p.tree) < 0 && !p.error[0])
		snprintf(p.error, sizeof(p.error), "could not remove %s: %s (%llu entries left)",
			 p.tree.path, strerror(errno), (unsigned long long)p.tree.left);
	p.remove_s = secs_since(tr);
	emit_summary(&p, secs_since(t0));
	if (p.error[0]) {
		fprintf(stderr, "frag-pagecache: %s\n", p.error);
		return 1;
	}
	/* a signal during the hold is how a hold ends: success */
	return p.ready ? 0 : wl_signal_exit_code();
}
