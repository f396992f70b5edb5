// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_json.c - run.json of a run: written by run at its start and end, read back by
 * --resume, merge and the progress line through the analysis layer's bounded reader.
 */
#include "run_json.h"
#include "meta.h"
#include "runjson.h"
#include "target.h"
#include "run_cell.h"
#include "util.h"
#include "version.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int cb_run_json_write(const struct cb_run *run, const struct cb_run_info *info,
		      const struct cb_cell *cells, size_t nr, bool finished, bool complete)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array(), *sh = NULL;
	char path[PATH_MAX], now[32];
	time_t t = time(NULL);
	struct tm tm;
	int ret;

	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(o, "schema", json_object_new_int(CB_META_SCHEMA));
	json_object_object_add(o, "config", json_object_new_string(run->cfg->path));
	json_object_object_add(o, "config_sha256", json_object_new_string(run->cfg->sha256));
	json_object_object_add(o, "name", json_object_new_string(run->cfg->name));
	json_object_object_add(o, "tool_version", json_object_new_string(CB_VERSION));
	json_object_object_add(o, "quick", json_object_new_boolean(run->quick));
	json_object_object_add(o, "reps", json_object_new_int64(info->reps));
	if (info->shard_count) {
		sh = json_object_new_object();
		json_object_object_add(sh, "index", json_object_new_int64(info->shard_index));
		json_object_object_add(sh, "count", json_object_new_int64(info->shard_count));
	}
	json_object_object_add(o, "shard", sh);
	json_object_object_add(o, "total_cells", json_object_new_int64((int64_t)info->total_cells));
	json_object_object_add(o, "started", json_object_new_string(info->started));
	json_object_object_add(o, "finished", finished ? json_object_new_string(now) : NULL);
	json_object_object_add(o, "complete", json_object_new_boolean(complete));
	json_object_object_add(o, "pending", info->pending ? json_object_get(info->pending)
							   : json_object_new_array());
	for (size_t i = 0; i < nr; i++) {
		struct json_object *c = json_object_new_object();

		json_object_object_add(c, "id", json_object_new_string(cells[i].id));
		json_object_object_add(c, "kernel", json_object_new_string(cells[i].kernel->name));
		json_object_object_add(c, "target", json_object_new_string(
					       cells[i].kernel->cls->name));
		if (cells[i].kernel->cls->machine) /* which machine ran it */
			json_object_object_add(c, "host", json_object_new_string(
						       cells[i].kernel->cls->machine(cells[i].kernel)));
		json_object_object_add(c, "setting", json_object_new_string(cells[i].setting->name));
		json_object_object_add(c, "workload", json_object_new_string(cells[i].workload->name));
		json_object_object_add(c, "rep", json_object_new_int64(cells[i].rep));
		json_object_object_add(c, "index", json_object_new_int64((int64_t)cells[i].index));
		json_object_array_add(arr, c);
	}
	json_object_object_add(o, "cells", arr);
	json_object_object_add(o, "jobs", json_object_new_int64(info->jobs > 0 ? info->jobs : 1));
	json_object_object_add(o, "timing", cb_timing_run_sum(run->dir, cells, nr));
	ret = cb_path(path, sizeof(path), "%s/run.json", run->dir);
	if (ret == 0)
		ret = cb_json_write_atomic(path, o);
	json_object_put(o);
	return ret;
}

static bool has_string(struct json_object *o, const char *key)
{
	struct json_object *x;

	return json_object_object_get_ex(o, key, &x) && json_object_is_type(x, json_type_string);
}

struct json_object *cb_run_json_load(const char *dir, char *err, size_t errlen)
{
	static const char *const strings[] = { "config_sha256", "tool_version" };
	struct json_object *o, *x = NULL;
	char path[PATH_MAX];
	size_t i;

	if (cb_path(path, sizeof(path), "%s/run.json", dir) < 0) {
		snprintf(err, errlen, "%s: path too long", dir);
		return NULL;
	}
	o = cb_json_read_bounded(path, CB_RUNJSON_MAX_BYTES, err, errlen);
	if (!o) {
		if (errno == ENOENT)
			snprintf(err, errlen, "%s: cannot read: %s (not a run directory?)", path,
				 strerror(ENOENT));
		return NULL;
	}
	if (!json_object_object_get_ex(o, "schema", &x) || !json_object_is_type(x, json_type_int) ||
	    json_object_get_int(x) != CB_META_SCHEMA) {
		snprintf(err, errlen, "%s: field \"schema\" is %s, this tool reads schema %d", path,
			 x ? json_object_to_json_string(x) : "missing", CB_META_SCHEMA);
		json_object_put(o);
		return NULL;
	}
	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		if (!has_string(o, strings[i])) {
			snprintf(err, errlen, "%s: field \"%s\" is missing or not a string", path,
				 strings[i]);
			json_object_put(o);
			return NULL;
		}
	}
	if (cb_runjson_check(path, o, err, errlen) < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
