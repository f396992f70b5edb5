/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * meta.h - meta.json of a cell and run.json of a run: what ran, where and how it ended.
 */
#ifndef CB_META_H
#define CB_META_H

#include <json-c/json.h>

#include "matrix.h"
#include "run.h"

#define CB_META_SCHEMA 1

/*
 * cb_meta_new - a cell's meta.json object with the cell, the target, the kernel
 * (uname -r, /proc/version, /proc/cmdline), the machine, the tool version and the config's
 * hash filled in. Never NULL.
 */
struct json_object *cb_meta_new(const struct cb_run *run, const struct cb_cell *cell,
				const char *target);

/*
 * cb_meta_write - set "status" (and "error" if not NULL) and write @meta to
 * @cell_dir/meta.json through a temporary file. Returns 0, or -1 with errno.
 */
int cb_meta_write(const char *cell_dir, struct json_object *meta, const char *status,
		  const char *error);

/* what run.json says about a run besides its cells */
struct cb_run_info {
	char started[32];    /* ISO 8601, UTC */
	long reps;	     /* repetitions of every cell */
	long shard_index;    /* --shard I/N: I, or 0 for a whole matrix */
	long shard_count;    /* N, or 0 */
	size_t total_cells;  /* cells of the whole matrix (every shard) */
	struct json_object *pending; /* array of { kernel, release, cells } not run here, or NULL */
	long jobs;	     /* --jobs of this command (0: not given, 1) */
};

/*
 * cb_run_json_write - write @run->dir/run.json: the config, its sha256, the tool version,
 * @info, whether the run finished (a time) and is complete, @cells (the cells this run
 * directory is for: a shard's, or the whole matrix's) and "timing": where the time of its
 * cells went, summed over those with a breakdown (cb_timing_run_sum). Returns 0, or -1 with errno.
 */
int cb_run_json_write(const struct cb_run *run, const struct cb_run_info *info,
		      const struct cb_cell *cells, size_t nr, bool finished, bool complete);

/*
 * cb_run_json_load - read @dir/run.json and check the fields merge and --resume rely on:
 * "schema", "config_sha256", "tool_version" (strings), and every cell as cb_runjson_check
 * (plain-name ids, no cell twice, bounded size and count). Returns the object, or NULL with "DIR/run.json: ..." naming the file and the
 * field in @err (missing, unreadable, not JSON or cut short, a field missing or mistyped).
 */
struct json_object *cb_run_json_load(const char *dir, char *err, size_t errlen);

/* cb_cell_complete - whether @cell_dir/meta.json exists and says "status": "complete" */
bool cb_cell_complete(const char *cell_dir);

/* cb_json_write_atomic - write @obj (pretty, ending in a newline) to @path atomically */
int cb_json_write_atomic(const char *path, struct json_object *obj);

/* cb_json_str - a json string, or json null for NULL */
struct json_object *cb_json_str(const char *s);

#endif
