// SPDX-License-Identifier: GPL-2.0-only
/*
 * cruns_json.c - summary.json's "compaction_runs" section: the runs of the window by lane,
 * written by the analyzer and read back, checked, by the loader and the timeline chart.
 */
#include "cruns_json.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ns after @t0 as seconds, exact to the ns: up to 9 decimals, no trailing zeros */
static struct json_object *secs(uint64_t t, uint64_t t0)
{
	uint64_t d = t > t0 ? t - t0 : 0;
	char buf[48];
	size_t len;

	if (d % 1000000000ULL == 0)
		return json_object_new_int64((int64_t)(d / 1000000000ULL));
	snprintf(buf, sizeof(buf), "%llu.%09llu", (unsigned long long)(d / 1000000000ULL),
		 (unsigned long long)(d % 1000000000ULL));
	len = strlen(buf);
	while (buf[len - 1] == '0')
		buf[--len] = '\0';
	return json_object_new_double_s((double)d / 1e9, buf);
}

static int by_start(const void *a, const void *b)
{
	const struct cb_crun *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

/* one lane: {"runs": [[start_s, end_s], ...], "dropped": N, "open": N} */
static struct json_object *lane_json(const struct cb_crun_lane *l, uint64_t dropped, uint64_t t0)
{
	struct json_object *o = json_object_new_object(), *runs = json_object_new_array();
	struct cb_crun sorted[CB_CRUNS_MAX];
	uint64_t open = 0;
	uint32_t n = l ? l->n : 0;

	if (n)
		memcpy(sorted, l->run, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), by_start);
	for (uint32_t i = 0; i < n; i++) {
		struct json_object *r = json_object_new_array();

		json_object_array_add(r, secs(sorted[i].start, t0));
		json_object_array_add(r, secs(sorted[i].end, t0));
		json_object_array_add(runs, r);
		open += sorted[i].open;
	}
	json_object_object_add(o, "runs", runs);
	json_object_object_add(o, "dropped", json_object_new_int64((int64_t)dropped));
	json_object_object_add(o, "open", json_object_new_int64((int64_t)open));
	return o;
}

struct json_object *cb_cruns_json(const struct cb_stalls *st)
{
	struct json_object *o = json_object_new_object(), *by = json_object_new_object();
	uint64_t t0 = st->win_end ? st->win_start : st->first_ts;

	json_object_object_add(o, "window_start_ns", json_object_new_int64((int64_t)t0));
	json_object_object_add(o, "max_per_attribution", json_object_new_int(CB_CRUNS_MAX));
	for (int i = 0; i < CB_LANE_NR; i++)
		json_object_object_add(by, cb_lane_names[i],
				       lane_json(st->cruns ? &st->cruns->lane[i] : NULL,
						 cb_cruns_dropped(st->cruns, i), t0));
	json_object_object_add(o, "by_attribution", by);
	return o;
}

static const char *shown(struct json_object *x)
{
	return x ? json_object_to_json_string_ext(x, JSON_C_TO_STRING_PLAIN |
						 JSON_C_TO_STRING_NOSLASHESCAPE) : "missing";
}

static int bad(const char *path, const char *field, struct json_object *x, const char *why,
	       char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: field \"compaction_runs\".%s is %.80s: %s", path, field,
		 shown(x), why);
	errno = EINVAL;
	return -1;
}

/* @x an integer >= 0 (absent allowed when @optional) into *@v */
static bool count_ok(struct json_object *x, bool optional, uint64_t *v)
{
	if (!x)
		return optional;
	if (!json_object_is_type(x, json_type_int) || json_object_get_int64(x) < 0)
		return false;
	*v = (uint64_t)json_object_get_int64(x);
	return true;
}

/* a run [start_s, end_s] into @s, @e */
static bool run_ok(struct json_object *r, double *s, double *e)
{
	struct json_object *a, *b;

	if (!json_object_is_type(r, json_type_array) || json_object_array_length(r) != 2)
		return false;
	a = json_object_array_get_idx(r, 0);
	b = json_object_array_get_idx(r, 1);
	if (!(json_object_is_type(a, json_type_int) || json_object_is_type(a, json_type_double)) ||
	    !(json_object_is_type(b, json_type_int) || json_object_is_type(b, json_type_double)))
		return false;
	*s = json_object_get_double(a);
	*e = json_object_get_double(b);
	return isfinite(*s) && isfinite(*e) && *s >= 0 && *s <= *e && *e <= CB_CRUNS_MAX_S;
}

/* one lane object @l named @name into @out (may be NULL) */
static int read_lane(const char *path, const char *name, struct json_object *l,
		     struct cb_cruns_in_lane *out, char *err, size_t errlen)
{
	struct cb_cruns_in_lane tmp;
	struct json_object *runs = NULL, *x = NULL;
	char field[160];
	size_t n;

	if (!out)
		out = &tmp;
	memset(out, 0, sizeof(*out));
	snprintf(field, sizeof(field), "by_attribution.%s", name);
	if (!json_object_is_type(l, json_type_object))
		return bad(path, field, l, "not an object", err, errlen);
	snprintf(field, sizeof(field), "by_attribution.%s.runs", name);
	if (!json_object_object_get_ex(l, "runs", &runs) ||
	    !json_object_is_type(runs, json_type_array))
		return bad(path, field, runs, "not an array of [start_s, end_s]", err, errlen);
	n = json_object_array_length(runs);
	if (n > CB_CRUNS_MAX) {
		snprintf(err, errlen, "%s: field \"compaction_runs\".%s has %zu runs: more than %d",
			 path, field, n, CB_CRUNS_MAX);
		errno = EINVAL;
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(runs, i);

		snprintf(field, sizeof(field), "by_attribution.%s.runs[%zu]", name, i);
		if (!run_ok(r, &out->start[i], &out->end[i]))
			return bad(path, field, r,
				   "not [start_s, end_s] with 0 <= start_s <= end_s", err, errlen);
	}
	out->n = (int)n;
	json_object_object_get_ex(l, "dropped", &x);
	snprintf(field, sizeof(field), "by_attribution.%s.dropped", name);
	if (!count_ok(x, true, &out->dropped))
		return bad(path, field, x, "not an integer >= 0", err, errlen);
	x = NULL;
	json_object_object_get_ex(l, "open", &x);
	snprintf(field, sizeof(field), "by_attribution.%s.open", name);
	if (!count_ok(x, true, &out->open))
		return bad(path, field, x, "not an integer >= 0", err, errlen);
	return 0;
}

int cb_cruns_read(const char *path, struct json_object *sum, struct cb_cruns_in *out, char *err,
		  size_t errlen)
{
	struct json_object *o = NULL, *x = NULL, *by = NULL;
	uint64_t t0 = 0;

	if (out)
		memset(out, 0, sizeof(*out));
	if (!json_object_object_get_ex(sum, "compaction_runs", &o) || !o)
		return 0;
	if (!json_object_is_type(o, json_type_object)) {
		snprintf(err, errlen, "%s: field \"compaction_runs\" is %.80s: not an object", path,
			 shown(o));
		errno = EINVAL;
		return -1;
	}
	json_object_object_get_ex(o, "window_start_ns", &x);
	if (!count_ok(x, false, &t0))
		return bad(path, "window_start_ns", x, "not an integer >= 0", err, errlen);
	if (!json_object_object_get_ex(o, "by_attribution", &by) ||
	    !json_object_is_type(by, json_type_object))
		return bad(path, "by_attribution", by, "not an object", err, errlen);
	for (int i = 0; i < CB_LANE_NR; i++) {
		struct json_object *l;

		if (json_object_object_get_ex(by, cb_lane_names[i], &l) &&
		    read_lane(path, cb_lane_names[i], l, out ? &out->lane[i] : NULL, err, errlen))
			return -1;
	}
	if (out) {
		out->present = true;
		out->window_start_ns = t0;
	}
	return 0;
}
