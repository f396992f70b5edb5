// SPDX-License-Identifier: GPL-2.0-only
/*
 * runjson.c - run.json and summary.json read as untrusted input: bounded, typed, finite,
 * cell ids that cannot climb out of the run directory, no cell listed twice.
 */
#include "cruns_json.h"
#include "runjson.h"
#include "xalloc.h"
#include "metrics.h"
#include "summary.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* a JSON value as short text for an error message */
static const char *shown(struct json_object *x)
{
	return x ? json_object_to_json_string_ext(x, JSON_C_TO_STRING_PLAIN |
						 JSON_C_TO_STRING_NOSLASHESCAPE) : "missing";
}

/* the bytes of @path into a buffer, refusing more than @max of them */
static char *read_bounded(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	struct stat sb;
	char *text;

	if (stat(path, &sb) < 0) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(sb.st_mode) || (unsigned long long)sb.st_size > max) {
		snprintf(err, errlen, "%s: %s (at most %zu bytes)", path,
			 S_ISREG(sb.st_mode) ? "too large" : "not a regular file", max);
		errno = EFBIG;
		return NULL;
	}
	text = cb_read_file(path, len);
	if (!text) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	if (*len > max) { /* it grew since stat */
		snprintf(err, errlen, "%s: too large (at most %zu bytes)", path, max);
		free(text);
		errno = EFBIG;
		return NULL;
	}
	return text;
}

struct json_object *cb_json_read_bounded(const char *path, size_t max, char *err, size_t errlen)
{
	struct json_tokener *tok;
	struct json_object *o = NULL;
	size_t len, end;
	char *text = read_bounded(path, max, &len, err, errlen);

	if (!text)
		return NULL;
	tok = json_tokener_new();
	if (!tok)
		cb_oom();
	if (len && len <= INT_MAX)
		o = json_tokener_parse_ex(tok, text, (int)len);
	end = json_tokener_get_parse_end(tok);
	while (o && end < len && strchr(" \t\r\n", text[end]))
		end++;
	if (!o || end != len || !json_object_is_type(o, json_type_object)) {
		snprintf(err, errlen, "%s: %s", path, !len ? "empty (cut short?)" :
			 !o ? "not a JSON object (cut short or damaged?)" :
			 end != len ? "bytes after the JSON object" : "not a JSON object");
		json_object_put(o);
		o = NULL;
		errno = EINVAL;
	}
	json_tokener_free(tok);
	free(text);
	return o;
}

bool cb_plain_name(const char *s, size_t max)
{
	size_t n = 0;

	if (!s || !*s || *s == '.')
		return false;
	for (; s[n]; n++)
		if (n >= max || s[n] == '/' || s[n] == '\\' || (unsigned char)s[n] < 0x20 ||
		    s[n] == 0x7f)
			return false;
	return true;
}

/* @c's string field @key, a plain name of at most @max characters; NULL with @err if not */
static const char *name_field(const char *path, size_t i, struct json_object *c,
			      const char *key, size_t max, char *err, size_t errlen)
{
	struct json_object *x = NULL;
	const char *s;

	json_object_object_get_ex(c, key, &x);
	s = json_object_is_type(x, json_type_string) ? json_object_get_string(x) : NULL;
	if (!cb_plain_name(s, max)) {
		snprintf(err, errlen, "%s: field \"cells\"[%zu].%s is %.80s: not a plain name (1 to "
			 "%zu characters, no '/', no leading '.', no control characters)", path, i,
			 key, shown(x), max);
		return NULL;
	}
	return s;
}

/* @c's integer field @key in [@lo, @hi]; @need: absence is an error too */
static int int_field(const char *path, size_t i, struct json_object *c, const char *key,
		     int64_t lo, int64_t hi, bool need, char *err, size_t errlen)
{
	struct json_object *x = NULL;
	int64_t v;

	if (!json_object_object_get_ex(c, key, &x) && !need)
		return 0;
	v = json_object_is_type(x, json_type_int) ? json_object_get_int64(x) : lo - 1;
	if (v < lo || v > hi) {
		snprintf(err, errlen, "%s: field \"cells\"[%zu].%s is %.80s: not an integer in "
			 "[%lld, %lld]", path, i, key, shown(x), (long long)lo, (long long)hi);
		return -1;
	}
	return 0;
}

/* one cell of "cells": its fields, and its id and (kernel, setting, workload, rep) new */
static int check_cell(const char *path, size_t i, struct json_object *c, struct json_object *ids,
		      struct json_object *keys, char *err, size_t errlen)
{
	const char *id, *k, *s, *w;
	char key[4 * (CB_RUN_NAME_MAX + 1) + 32];
	struct json_object *prev;

	if (!json_object_is_type(c, json_type_object)) {
		snprintf(err, errlen, "%s: field \"cells\"[%zu] is not an object", path, i);
		return -1;
	}
	if (!(id = name_field(path, i, c, "id", CB_CELL_ID_MAX, err, errlen)) ||
	    !(k = name_field(path, i, c, "kernel", CB_RUN_NAME_MAX, err, errlen)) ||
	    !(s = name_field(path, i, c, "setting", CB_RUN_NAME_MAX, err, errlen)) ||
	    !(w = name_field(path, i, c, "workload", CB_RUN_NAME_MAX, err, errlen)) ||
	    int_field(path, i, c, "rep", 0, CB_RUN_MAX_REP, true, err, errlen) < 0 ||
	    int_field(path, i, c, "index", 0, INT32_MAX, false, err, errlen) < 0)
		return -1;
	if (json_object_object_get_ex(ids, id, &prev)) {
		snprintf(err, errlen, "%s: field \"cells\"[%zu].id \"%s\" is listed twice (also "
			 "\"cells\"[%d])", path, i, id, json_object_get_int(prev));
		return -1;
	}
	json_object_object_add(ids, id, json_object_new_int((int)i));
	snprintf(key, sizeof(key), "%s/%s/%s/%lld", k, s, w,
		 (long long)json_object_get_int64(json_object_object_get(c, "rep")));
	if (json_object_object_get_ex(keys, key, &prev)) {
		snprintf(err, errlen, "%s: field \"cells\"[%zu] (kernel %s, setting %s, workload %s, "
			 "rep %lld) is the same cell as \"cells\"[%d]", path, i, k, s, w,
			 (long long)json_object_get_int64(json_object_object_get(c, "rep")),
			 json_object_get_int(prev));
		return -1;
	}
	json_object_object_add(keys, key, json_object_new_int((int)i));
	return 0;
}

/* the run-wide fields: strings that are strings, "pending" an array of objects */
static int check_top(const char *path, struct json_object *run, char *err, size_t errlen)
{
	static const char *const strings[] = { "config_sha256", "tool_version", "config" };
	struct json_object *x;

	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		if (json_object_object_get_ex(run, strings[i], &x) &&
		    !json_object_is_type(x, json_type_string)) {
			snprintf(err, errlen, "%s: field \"%s\" is %.80s: not a string", path,
				 strings[i], shown(x));
			return -1;
		}
	}
	if (json_object_object_get_ex(run, "pending", &x) && !json_object_is_type(x, json_type_array)) {
		snprintf(err, errlen, "%s: field \"pending\" is %.80s: not an array", path, shown(x));
		return -1;
	}
	if (json_object_object_get_ex(run, "total_cells", &x) &&
	    (!json_object_is_type(x, json_type_int) || json_object_get_int64(x) < 0 ||
	     json_object_get_int64(x) > CB_RUN_MAX_CELLS)) {
		snprintf(err, errlen, "%s: field \"total_cells\" is %.80s: not an integer in [0, %d]",
			 path, shown(x), CB_RUN_MAX_CELLS);
		return -1;
	}
	return 0;
}

int cb_runjson_check(const char *path, struct json_object *run, char *err, size_t errlen)
{
	struct json_object *cells = NULL, *ids, *keys;
	size_t n, i;
	int ret = 0;

	if (check_top(path, run, err, errlen) < 0)
		return -1;
	if (!json_object_object_get_ex(run, "cells", &cells) ||
	    !json_object_is_type(cells, json_type_array)) {
		snprintf(err, errlen, "%s: field \"cells\" is missing or not an array", path);
		return -1;
	}
	n = json_object_array_length(cells);
	if (n > CB_RUN_MAX_CELLS) {
		snprintf(err, errlen, "%s: field \"cells\" lists %zu cells, more than the %d a run may "
			 "have", path, n, CB_RUN_MAX_CELLS);
		return -1;
	}
	ids = json_object_new_object();
	keys = json_object_new_object();
	if (!ids || !keys)
		cb_oom();
	for (i = 0; i < n && !ret; i++)
		ret = check_cell(path, i, json_object_array_get_idx(cells, i), ids, keys, err, errlen);
	json_object_put(ids);
	json_object_put(keys);
	return ret;
}

struct json_object *cb_runjson_load(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct json_object *run;

	if (cb_path(path, sizeof(path), "%s/run.json", dir) < 0) {
		snprintf(err, errlen, "%s: path too long", dir);
		return NULL;
	}
	run = cb_json_read_bounded(path, CB_RUNJSON_MAX_BYTES, err, errlen);
	if (!run && errno == ENOENT) {
		snprintf(err, errlen, "%s: cannot read: %s (not a run directory?)", path,
			 strerror(ENOENT));
		return NULL;
	}
	if (run && cb_runjson_check(path, run, err, errlen) < 0) {
		json_object_put(run);
		return NULL;
	}
	return run;
}

/* "metrics": an object; each metric of the table absent, null or a finite number */
static int check_metrics(const char *path, struct json_object *sum, char *err, size_t errlen)
{
	struct json_object *metrics = NULL, *x;

	if (!json_object_object_get_ex(sum, "metrics", &metrics) ||
	    !json_object_is_type(metrics, json_type_object)) {
		snprintf(err, errlen, "%s: field \"metrics\" is %.80s: not an object", path,
			 shown(metrics));
		return -1;
	}
	for (int m = 0; m < CB_M_NR; m++) {
		if (!json_object_object_get_ex(metrics, cb_metrics[m].name, &x) || !x)
			continue;
		if (json_object_is_type(x, json_type_int) ||
		    (json_object_is_type(x, json_type_double) && isfinite(json_object_get_double(x))))
			continue;
		snprintf(err, errlen, "%s: field \"metrics\".%s is %.80s: not a finite number or "
			 "null", path, cb_metrics[m].name, shown(x));
		return -1;
	}
	return 0;
}

struct json_object *cb_summary_json_load(const char *path, char *err, size_t errlen)
{
	struct json_object *sum, *x = NULL;

	sum = cb_json_read_bounded(path, CB_SUMMARY_MAX_BYTES, err, errlen);
	if (!sum)
		return NULL;
	if (!json_object_object_get_ex(sum, "schema", &x) || !json_object_is_type(x, json_type_int) ||
	    json_object_get_int64(x) != CB_SUMMARY_SCHEMA) {
		snprintf(err, errlen, "%s: field \"schema\" is %.80s, this tool reads schema %d "
			 "(re-run `compactbench analyze`)", path, shown(x), CB_SUMMARY_SCHEMA);
		goto bad;
	}
	if (json_object_object_get_ex(sum, "lost_events", &x) &&
	    !json_object_is_type(x, json_type_boolean)) {
		snprintf(err, errlen, "%s: field \"lost_events\" is %.80s: not true or false", path,
			 shown(x));
		goto bad;
	}
	if (check_metrics(path, sum, err, errlen) < 0 ||
	    cb_cruns_read(path, sum, NULL, err, errlen) < 0)
		goto bad;
	return sum;
bad:
	json_object_put(sum);
	errno = EINVAL;
	return NULL;
}

bool cb_cell_pending(struct json_object *run, const char *kernel, const char *cell_dir,
		     char *why, size_t whylen)
{
	struct json_object *pending, *e, *k;
	char path[PATH_MAX];

	if (cb_path(path, sizeof(path), "%s/meta.json", cell_dir) < 0 || access(path, F_OK) == 0 ||
	    errno != ENOENT)
		return false;
	if (json_object_object_get_ex(run, "pending", &pending) &&
	    json_object_is_type(pending, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(pending); i++) {
			e = json_object_array_get_idx(pending, i);
			if (json_object_object_get_ex(e, "kernel", &k) &&
			    json_object_is_type(k, json_type_string) &&
			    !strcmp(json_object_get_string(k), kernel)) {
				snprintf(why, whylen, "pending (kernel %s not booted yet)", kernel);
				return true;
			}
		}
	}
	return false;
}

int cb_meta_window(const char *cell_dir, uint64_t *start_ns, uint64_t *end_ns)
{
	char path[PATH_MAX], err[512];
	struct json_object *meta = NULL, *win, *a, *b;
	int ret = -1;

	*start_ns = *end_ns = 0;
	if (cb_path(path, sizeof(path), "%s/meta.json", cell_dir) == 0)
		meta = cb_json_read_bounded(path, CB_META_MAX_BYTES, err, sizeof(err));
	if (meta && json_object_object_get_ex(meta, "window", &win) &&
	    json_object_object_get_ex(win, "start_ns", &a) &&
	    json_object_object_get_ex(win, "end_ns", &b) &&
	    json_object_get_int64(b) >= json_object_get_int64(a) && json_object_get_int64(a) >= 0) {
		*start_ns = (uint64_t)json_object_get_int64(a);
		*end_ns = (uint64_t)json_object_get_int64(b);
		ret = 0;
	}
	json_object_put(meta);
	return ret;
}
