/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_json.h - run.json of a run: its config, tool version, cells and how it ended.
 */
#ifndef CB_RUN_JSON_H
#define CB_RUN_JSON_H

#include <json-c/json.h>
#include <stdbool.h>

#include "matrix.h"
#include "run.h"

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

#endif
