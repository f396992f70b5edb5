/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * meta.h - meta.json of a cell: what ran, where and how it ended (run.json of a whole run is
 * harness/cmd/run_json.h: it names targets and checks cells, both above this layer).
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

/* cb_cell_complete - whether @cell_dir/meta.json exists and says "status": "complete" */
bool cb_cell_complete(const char *cell_dir);

/* cb_json_write_atomic - write @obj (pretty, ending in a newline) to @path atomically */
int cb_json_write_atomic(const char *path, struct json_object *obj);

/* cb_json_str - a json string, or json null for NULL */
struct json_object *cb_json_str(const char *s);

#endif
