// SPDX-License-Identifier: GPL-2.0-only
/*
 * waves.c - the "waves" and "wave" lines of a cell's workload files, read as untrusted
 * input: every key typed and bounded, waves in order and not overlapping, errors that name
 * the file and the line.
 */
#include "util.h"
#include "xalloc.h"
#include "waves.h"

#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES (1u << 20)	/* a longer line is refused */

/* a JSON value as short text for an error message */
static const char *shown(struct json_object *x)
{
	return x ? json_object_to_json_string_ext(x, JSON_C_TO_STRING_PLAIN |
						 JSON_C_TO_STRING_NOSLASHESCAPE) : "missing";
}

/* @o's integer @key in [@lo, @hi] into @v; -1 with @err (absent, not an integer, out of range) */
static int int_key(struct json_object *o, const char *key, long long lo, unsigned long long hi,
		   long long *v, char *err, size_t errlen)
{
	struct json_object *x = NULL;

	json_object_object_get_ex(o, key, &x);
	if (json_object_is_type(x, json_type_int)) {
		*v = json_object_get_int64(x);
		/* json-c saturates larger numbers at INT64_MAX/MIN: out of range here anyway */
		if (*v >= lo && (*v < 0 || (unsigned long long)*v <= hi))
			return 0;
	}
	snprintf(err, errlen, "\"%s\" is %.60s: not an integer in [%lld, %llu]", key, shown(x), lo,
		 hi);
	return -1;
}

/* @o's optional latency @key: a finite number in [0, 1e15] or null/absent (*has false) */
static int lat_key(struct json_object *o, const char *key, bool *has, double *v, char *err,
		   size_t errlen)
{
	struct json_object *x = NULL;

	*has = false;
	if (!json_object_object_get_ex(o, key, &x) || !x)
		return 0;
	if (json_object_is_type(x, json_type_int) || json_object_is_type(x, json_type_double)) {
		*v = json_object_get_double(x);
		if (isfinite(*v) && *v >= 0 && *v <= 1e15) {
			*has = true;
			return 0;
		}
	}
	snprintf(err, errlen, "\"%s\" is %.60s: not a number of ns in [0, 1e15] or null", key,
		 shown(x));
	return -1;
}

static const char *str_key(struct json_object *o, const char *key)
{
	struct json_object *x = NULL;

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_string))
		return NULL;
	return json_object_get_string(x);
}

/* the once-per-file {"type":"waves",...} line */
static int parse_header(struct json_object *o, struct cb_waves *ws, struct cb_waves_file *fs,
			char *err, size_t errlen)
{
	const char *arrival = str_key(o, "arrival"), *clock = str_key(o, "clock");
	struct json_object *x = NULL;
	long long count, seed;
	double period;

	if (fs->header) {
		snprintf(err, errlen, "a second \"waves\" line in this file");
		return -1;
	}
	if (!arrival || (strcmp(arrival, "periodic") && strcmp(arrival, "poisson"))) {
		snprintf(err, errlen, "\"arrival\" is %.60s: not \"periodic\" or \"poisson\"",
			 shown(json_object_object_get(o, "arrival")));
		return -1;
	}
	if (!clock || strcmp(clock, "CLOCK_MONOTONIC")) {
		snprintf(err, errlen, "\"clock\" is %.60s: wave times must be CLOCK_MONOTONIC (the "
			 "trace's mono clock) to be cut against the trace",
			 shown(json_object_object_get(o, "clock")));
		return -1;
	}
	json_object_object_get_ex(o, "period_s", &x);
	period = json_object_is_type(x, json_type_int) || json_object_is_type(x, json_type_double) ?
		 json_object_get_double(x) : NAN;
	if (!(period > 0 && period <= CB_DURATION_MAX_S)) {
		snprintf(err, errlen, "\"period_s\" is %.60s: not a number of seconds in (0, %.0f]",
			 shown(x), CB_DURATION_MAX_S);
		return -1;
	}
	if (int_key(o, "count", 0, CB_WAVES_MAX, &count, err, errlen) ||
	    int_key(o, "seed", LLONG_MIN, LLONG_MAX, &seed, err, errlen))
		return -1;
	fs->header = true;
	if (ws->file[0])
		return 0;	/* the first file's parameters describe the cell */
	snprintf(ws->file, sizeof(ws->file), "%s", fs->name);
	snprintf(ws->arrival, sizeof(ws->arrival), "%s", arrival);
	ws->period_s = period;
	ws->count = (long)count;
	ws->seed = seed;
	return 0;
}

/* the kind's own keys of a wave line into @w (THP: faults, thp; kernel: allocs, failed) */
static int parse_kind(struct json_object *o, int k, struct cb_wave *w, char *err, size_t errlen)
{
	static const char *const lat[3] = { "fault_ns_p50", "fault_ns_p99", "fault_ns_max" };
	long long a, b;

	if (int_key(o, k ? "allocs" : "faults", 0, CB_WAVES_COUNT_MAX, &a, err, errlen) ||
	    int_key(o, k ? "failed" : "thp", 0, CB_WAVES_COUNT_MAX, &b, err, errlen))
		return -1;
	if (b > a) {
		snprintf(err, errlen, "\"%s\" %lld is more than \"%s\" %lld", k ? "failed" : "thp", b,
			 k ? "allocs" : "faults", a);
		return -1;
	}
	if (k) {
		w->allocs = a;
		w->failed = b;
	} else {
		w->faults = a;
		w->thp = b;
	}
	for (int i = 0; i < 3; i++)
		if (lat_key(o, lat[i], &w->has_lat[k][i], &w->lat[k][i], err, errlen))
			return -1;
	return 0;
}

/* slot @index of @ws: an existing wave, or a new one at the end */
static struct cb_wave *slot(struct cb_waves *ws, long index)
{
	if ((size_t)index < ws->n)
		return &ws->w[index];
	if (ws->n == ws->cap) {
		size_t cap = ws->cap ? ws->cap * 2 : 16;
		struct cb_wave *nw = realloc(ws->w, cap * sizeof(*nw));

		if (!nw)
			return NULL;
		ws->w = nw;
		ws->cap = cap;
	}
	memset(&ws->w[ws->n], 0, sizeof(ws->w[0]));
	ws->w[ws->n].index = index;
	return &ws->w[ws->n++];
}

/* one {"type":"wave",...} line, merged into the wave of its index */
static int parse_wave(struct json_object *o, struct cb_waves *ws, struct cb_waves_file *fs,
		      int line, char *err, size_t errlen)
{
	const char *kind = str_key(o, "kind");
	long long index, start, end, bytes;
	struct cb_wave one = { 0 }, *w;
	int k;

	if (!fs->header) {
		snprintf(err, errlen, "a \"wave\" line before the file's \"waves\" line");
		return -1;
	}
	if (int_key(o, "index", 0, CB_WAVES_MAX - 1, &index, err, errlen) ||
	    int_key(o, "start_ns", 0, CB_WAVES_TIME_MAX, &start, err, errlen) ||
	    int_key(o, "end_ns", 0, CB_WAVES_TIME_MAX, &end, err, errlen) ||
	    int_key(o, "requested_bytes", 0, CB_WAVES_COUNT_MAX, &bytes, err, errlen))
		return -1;
	if (index != fs->last + 1) {
		snprintf(err, errlen, "\"index\" is %lld: expected %ld (waves are numbered from 0, "
			 "one after the other)", index, fs->last + 1);
		return -1;
	}
	if (end < start) {
		snprintf(err, errlen, "\"end_ns\" %lld is before \"start_ns\" %lld", end, start);
		return -1;
	}
	if (index > 0 && (uint64_t)start < fs->prev_end) {
		snprintf(err, errlen, "wave %lld starts at %lld, before wave %lld of this file ended "
			 "(%llu): overlapping waves", index, start, index - 1,
			 (unsigned long long)fs->prev_end);
		return -1;
	}
	if (!kind || (strcmp(kind, "thp") && strcmp(kind, "kernel"))) {
		snprintf(err, errlen, "\"kind\" is %.60s: not \"thp\" or \"kernel\"",
			 shown(json_object_object_get(o, "kind")));
		return -1;
	}
	k = !strcmp(kind, "kernel");
	if (parse_kind(o, k, &one, err, errlen))
		return -1;
	w = slot(ws, (long)index);
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (w->kinds & (1u << k)) {
		snprintf(err, errlen, "wave %lld of kind %s given twice", index, kind);
		return -1;
	}
	if (w->kinds && ((uint64_t)start >= w->end || w->start >= (uint64_t)end)) {
		snprintf(err, errlen, "wave %lld [%lld, %lld) does not overlap wave %lld of another "
			 "file [%llu, %llu): waves of one index from two programs are cut as one "
			 "wave, so the programs must run their waves together", index, start, end,
			 index, (unsigned long long)w->start, (unsigned long long)w->end);
		return -1;
	}
	if (!w->kinds || (uint64_t)start < w->start)
		w->start = start;
	if (!w->kinds || (uint64_t)end > w->end)
		w->end = end;
	w->kinds |= 1u << k;
	w->requested_bytes += (double)bytes;
	if (k) {
		w->allocs = one.allocs;
		w->failed = one.failed;
	} else {
		w->faults = one.faults;
		w->thp = one.thp;
	}
	memcpy(w->has_lat[k], one.has_lat[k], sizeof(one.has_lat[k]));
	memcpy(w->lat[k], one.lat[k], sizeof(one.lat[k]));
	w->file = fs->idx;
	w->line = line;
	fs->last = (long)index;
	fs->prev_end = end;
	ws->present = true;
	return 0;
}

/* the line number is for the wave's record; parse_wave is reached through here */
static int parse_line_at(const char *line, struct cb_waves *ws, struct cb_waves_file *fs, int ln,
			 char *err, size_t errlen)
{
	struct json_tokener *tok;
	struct json_object *o;
	const char *type;
	size_t len = strlen(line), end;
	int ret = 0;

	if (!strstr(line, "\"wave"))
		return 0;	/* neither a wave nor a waves line: not ours to judge */
	if (len > LINE_MAX_BYTES) {
		snprintf(err, errlen, "a line of %zu bytes (at most %u)", len, LINE_MAX_BYTES);
		return -1;
	}
	tok = json_tokener_new();
	if (!tok)
		cb_oom();
	o = json_tokener_parse_ex(tok, line, (int)len);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	while (o && end < len && strchr(" \t\r\n", line[end]))
		end++;
	if (!o || end != len || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		snprintf(err, errlen, "mentions \"wave\" but is not one JSON object");
		return -1;
	}
	type = str_key(o, "type");
	if (type && !strcmp(type, "waves"))
		ret = parse_header(o, ws, fs, err, errlen);
	else if (type && !strcmp(type, "wave"))
		ret = parse_wave(o, ws, fs, ln, err, errlen);
	json_object_put(o);
	return ret;
}

int cb_waves_parse_line(const char *line, struct cb_waves *ws, struct cb_waves_file *fs,
			char *err, size_t errlen)
{
	return parse_line_at(line, ws, fs, 0, err, errlen);
}

int cb_waves_check(const struct cb_waves *ws, char *const *names, char *err, size_t errlen)
{
	for (size_t i = 1; i < ws->n; i++) {
		const struct cb_wave *a = &ws->w[i - 1], *b = &ws->w[i];

		if (b->start >= a->end)
			continue;
		snprintf(err, errlen, "%s: line %d: wave %ld starts at %llu, before wave %ld ended "
			 "(%llu): overlapping waves", names ? names[b->file] : "workload", b->line,
			 b->index, (unsigned long long)b->start, a->index,
			 (unsigned long long)a->end);
		return -1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the *.jsonl names in @dir, sorted; NULL with *@n 0 when none or no directory */
static char **jsonl_names(const char *dir, size_t *n)
{
	struct dirent *de;
	char **names = NULL;
	size_t cap = 0;
	DIR *d = opendir(dir);

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 7 || strcmp(de->d_name + len - 6, ".jsonl") || de->d_name[0] == '.')
			continue;
		if (*n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 8) * sizeof(*nn));

			if (!nn)
				cb_oom();
			names = nn;
		}
		if (asprintf(&names[*n], "workload/%s", de->d_name) < 0)
			cb_oom();
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), cmp_str);
	return names;
}

/* every line of @cell_dir/@name through parse_line_at */
static int read_file(const char *cell_dir, struct cb_waves_file *fs, struct cb_waves *ws,
		     char *err, size_t errlen)
{
	char path[PATH_MAX], why[512], *line = NULL;
	size_t cap = 0;
	int ln = 0, ret = 0;
	FILE *f;

	if (cb_path(path, sizeof(path), "%s/%s", cell_dir, fs->name) < 0 ||
	    !(f = fopen(path, "re"))) {
		snprintf(err, errlen, "%s/%s: cannot read: %s", cell_dir, fs->name, strerror(errno));
		return -1;
	}
	while (!ret && getline(&line, &cap, f) > 0) {
		ln++;
		if (parse_line_at(line, ws, fs, ln, why, sizeof(why))) {
			snprintf(err, errlen, "%s: line %d: %s", path, ln, why);
			ret = -1;
		}
	}
	if (!ret && ferror(f)) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		ret = -1;
	}
	free(line);
	fclose(f);
	return ret;
}

int cb_waves_read(const char *cell_dir, struct cb_waves *out, char *err, size_t errlen)
{
	char dir[PATH_MAX], **names, why[1024];
	size_t n, i;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (cb_path(dir, sizeof(dir), "%s/workload", cell_dir) < 0) {
		snprintf(err, errlen, "%s: path too long", cell_dir);
		return -1;
	}
	names = jsonl_names(dir, &n);
	for (i = 0; i < n && !ret; i++) {
		struct cb_waves_file fs = { .name = names[i], .idx = (int)i, .last = -1 };

		ret = read_file(cell_dir, &fs, out, err, errlen);
	}
	if (!ret && cb_waves_check(out, names, why, sizeof(why))) {
		snprintf(err, errlen, "%s/%s", cell_dir, why);
		ret = -1;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (ret)
		cb_waves_free(out);
	return ret;
}

void cb_waves_free(struct cb_waves *ws)
{
	free(ws->w);
	ws->w = NULL;
	ws->n = ws->cap = 0;
	ws->present = false;
}
