// SPDX-License-Identifier: GPL-2.0-only
/*
 * meta.c - meta.json of a cell, and the JSON file helpers the layers above share.
 */
#include "meta.h"
#include "util.h"
#include "version.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

struct json_object *cb_json_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

int cb_json_write_atomic(const char *path, struct json_object *obj)
{
	const char *text = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_NOSLASHESCAPE);
	char *buf;
	int ret;

	if (asprintf(&buf, "%s\n", text) < 0)
		return -1;
	ret = cb_write_file_atomic(path, buf, strlen(buf));
	free(buf);
	return ret;
}

static struct json_object *file_text(const char *root, const char *rel)
{
	char path[PATH_MAX], buf[4096];

	if (cb_path(path, sizeof(path), "%s%s", root, rel) < 0 ||
	    cb_read_trimmed(path, buf, sizeof(buf)) < 0)
		return NULL;
	return json_object_new_string(buf);
}

struct json_object *cb_meta_new(const struct cb_run *run, const struct cb_cell *cell,
				const char *target)
{
	struct json_object *m = json_object_new_object(), *c, *k, *mach;
	struct utsname u;

	json_object_object_add(m, "schema", json_object_new_int(CB_META_SCHEMA));
	json_object_object_add(m, "status", json_object_new_string("incomplete"));
	json_object_object_add(m, "error", NULL);
	c = json_object_new_object();
	json_object_object_add(c, "id", json_object_new_string(cell->id));
	json_object_object_add(c, "kernel", json_object_new_string(cell->kernel->name));
	json_object_object_add(c, "setting", json_object_new_string(cell->setting->name));
	json_object_object_add(c, "workload", json_object_new_string(cell->workload->name));
	json_object_object_add(c, "rep", json_object_new_int64(cell->rep));
	json_object_object_add(c, "index", json_object_new_int64((int64_t)cell->index));
	json_object_object_add(m, "cell", c);
	json_object_object_add(m, "target", json_object_new_string(target));
	k = json_object_new_object();
	json_object_object_add(k, "release", uname(&u) == 0 ? json_object_new_string(u.release) : NULL);
	json_object_object_add(k, "version", file_text(run->root, "/proc/version"));
	json_object_object_add(k, "cmdline", file_text(run->root, "/proc/cmdline"));
	/* the trace clock ("mono") reads it: a jiffies clocksource makes short stalls 0 us */
	json_object_object_add(k, "clocksource",
			       file_text(run->root, "/sys/devices/system/clocksource/clocksource0/"
					 "current_clocksource"));
	json_object_object_add(m, "kernel", k);
	mach = json_object_new_object();
	json_object_object_add(mach, "cpus", json_object_new_int64(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_object_add(mach, "mem_total_kb",
			       json_object_new_int64(cb_meminfo_kb(run->root, "MemTotal")));
	json_object_object_add(m, "machine", mach);
	json_object_object_add(m, "tool_version", json_object_new_string(CB_VERSION));
	json_object_object_add(m, "config", json_object_new_string(run->cfg->path));
	json_object_object_add(m, "config_sha256", json_object_new_string(run->cfg->sha256));
	json_object_object_add(m, "quick", json_object_new_boolean(run->quick));
	return m;
}

int cb_meta_write(const char *cell_dir, struct json_object *meta, const char *status,
		  const char *error)
{
	char path[PATH_MAX];

	json_object_object_add(meta, "status", json_object_new_string(status));
	json_object_object_add(meta, "error", cb_json_str(error));
	if (cb_path(path, sizeof(path), "%s/meta.json", cell_dir) < 0)
		return -1;
	return cb_json_write_atomic(path, meta);
}

bool cb_cell_complete(const char *cell_dir)
{
	struct json_object *m, *x;
	char path[PATH_MAX];
	bool ok;

	if (cb_path(path, sizeof(path), "%s/meta.json", cell_dir) < 0 || access(path, F_OK) < 0)
		return false;
	m = json_object_from_file(path);
	ok = m && json_object_object_get_ex(m, "status", &x) &&
	     json_object_is_type(x, json_type_string) && !strcmp(json_object_get_string(x), "complete");
	json_object_put(m);
	return ok;
}
