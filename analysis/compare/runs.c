// SPDX-License-Identifier: GPL-2.0-only
/*
 * runs.c - load a run directory's per-repetition values for compare, gate and plot.
 */
#include "runs.h"
#include "analyze.h"
#include "summary.h"
#include "util.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *x;

	if (!o || !json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_string))
		return NULL;
	return json_object_get_string(x);
}

static struct cb_group *find_group(struct cb_run_data *rd, const char *k, const char *s,
				   const char *w)
{
	struct cb_group *g;

	for (size_t i = 0; i < rd->ng; i++) {
		g = &rd->groups[i];
		if (!strcmp(g->kernel, k) && !strcmp(g->setting, s) && !strcmp(g->workload, w))
			return g;
	}
	rd->groups = realloc(rd->groups, (rd->ng + 1) * sizeof(*rd->groups));
	if (!rd->groups)
		abort();
	g = &rd->groups[rd->ng++];
	memset(g, 0, sizeof(*g));
	snprintf(g->kernel, sizeof(g->kernel), "%s", k);
	snprintf(g->setting, sizeof(g->setting), "%s", s);
	snprintf(g->workload, sizeof(g->workload), "%s", w);
	return g;
}

static void fail_cell(struct cb_run_data *rd, const char *id, const char *why)
{
	if (!rd->failed++)
		snprintf(rd->failed_why, sizeof(rd->failed_why), "%s: %s", id, why);
}

/* add one summarized cell to its group, keeping repetitions in ascending order */
static void add_cell(struct cb_group *g, long rep, const char *cell_dir, struct json_object *sum)
{
	struct json_object *metrics = NULL, *x, *lost;
	size_t at = g->n;

	while (at > 0 && g->rep[at - 1] > rep)
		at--;
	g->rep = realloc(g->rep, (g->n + 1) * sizeof(*g->rep));
	g->cell_dir = realloc(g->cell_dir, (g->n + 1) * sizeof(*g->cell_dir));
	if (!g->rep || !g->cell_dir)
		abort();
	memmove(g->rep + at + 1, g->rep + at, (g->n - at) * sizeof(*g->rep));
	memmove(g->cell_dir + at + 1, g->cell_dir + at, (g->n - at) * sizeof(*g->cell_dir));
	g->rep[at] = rep;
	g->cell_dir[at] = strdup(cell_dir);
	json_object_object_get_ex(sum, "metrics", &metrics);
	for (int m = 0; m < CB_M_NR; m++) {
		g->val[m] = realloc(g->val[m], (g->n + 1) * sizeof(double));
		if (!g->val[m])
			abort();
		memmove(g->val[m] + at + 1, g->val[m] + at, (g->n - at) * sizeof(double));
		g->val[m][at] = metrics && json_object_object_get_ex(metrics, cb_metrics[m].name, &x) &&
						x ? json_object_get_double(x) : NAN;
	}
	if (json_object_object_get_ex(sum, "lost_events", &lost) && json_object_get_boolean(lost))
		g->lost = true;
	g->n++;
}

/* the cell's summary.json, made first if it is missing; NULL with @why if it cannot be */
static struct json_object *cell_summary(const char *cell_dir, char *why, size_t whylen,
					bool *bad_input)
{
	char path[PATH_MAX];
	struct json_object *sum, *schema;

	*bad_input = false;
	if (cb_path(path, sizeof(path), "%s/summary.json", cell_dir) < 0)
		return NULL;
	if (access(path, F_OK) < 0 && cb_analyze_cell(cell_dir, why, whylen) < 0)
		return NULL;
	sum = json_object_from_file(path);
	if (!sum || !json_object_is_type(sum, json_type_object)) {
		snprintf(why, whylen, "%s: not a JSON object (corrupt summary)", path);
		json_object_put(sum);
		*bad_input = true;
		return NULL;
	}
	if (!json_object_object_get_ex(sum, "schema", &schema) ||
	    json_object_get_int(schema) != CB_SUMMARY_SCHEMA) {
		snprintf(why, whylen, "%s: field \"schema\" is %s, this tool reads schema %d "
			 "(re-run `compactbench analyze`)", path,
			 schema ? json_object_to_json_string(schema) : "missing", CB_SUMMARY_SCHEMA);
		json_object_put(sum);
		*bad_input = true;
		return NULL;
	}
	return sum;
}

int cb_run_load(const char *dir, struct cb_run_data *rd, char *err, size_t errlen)
{
	struct json_object *run, *cells, *c, *x;
	char path[PATH_MAX], cell_dir[PATH_MAX], why[1024];
	size_t i;

	memset(rd, 0, sizeof(*rd));
	snprintf(rd->dir, sizeof(rd->dir), "%s", dir);
	if (cb_path(path, sizeof(path), "%s/run.json", dir) < 0 || access(path, R_OK) < 0) {
		snprintf(err, errlen, "%s/run.json: cannot read: %s (not a run directory?)", dir,
			 strerror(errno));
		return -1;
	}
	run = json_object_from_file(path);
	if (!run || !json_object_object_get_ex(run, "cells", &cells) ||
	    !json_object_is_type(cells, json_type_array)) {
		snprintf(err, errlen, "%s: not a run.json (no \"cells\" array)", path);
		json_object_put(run);
		return -1;
	}
	snprintf(rd->config_sha256, sizeof(rd->config_sha256), "%s", jstr(run, "config_sha256") ? : "");
	snprintf(rd->tool_version, sizeof(rd->tool_version), "%s", jstr(run, "tool_version") ? : "");
	rd->cells = json_object_array_length(cells);
	for (i = 0; i < rd->cells; i++) {
		const char *id, *k, *s, *w;
		struct json_object *sum;
		bool bad;

		c = json_object_array_get_idx(cells, i);
		id = jstr(c, "id");
		k = jstr(c, "kernel");
		s = jstr(c, "setting");
		w = jstr(c, "workload");
		if (!id || !k || !s || !w || !json_object_object_get_ex(c, "rep", &x)) {
			snprintf(err, errlen, "%s: cell %zu lacks id, kernel, setting, workload or rep",
				 path, i);
			json_object_put(run);
			cb_run_free(rd);
			return -1;
		}
		if (cb_path(cell_dir, sizeof(cell_dir), "%s/%s", dir, id) < 0)
			continue;
		sum = cell_summary(cell_dir, why, sizeof(why), &bad);
		if (!sum && bad) {
			snprintf(err, errlen, "%s", why);
			json_object_put(run);
			cb_run_free(rd);
			return -1;
		}
		if (!sum) {
			fail_cell(rd, id, why);
			continue;
		}
		add_cell(find_group(rd, k, s, w), json_object_get_int64(x), cell_dir, sum);
		json_object_put(sum);
	}
	json_object_put(run);
	return 0;
}

int cb_runs_load_all(char *const *dirs, int n, struct cb_run_data *runs, const char *cmd)
{
	char err[2048];

	for (int i = 0; i < n; i++) {
		if (cb_run_load(dirs[i], &runs[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "compactbench %s: %s\n", cmd, err);
			while (i-- > 0)
				cb_run_free(&runs[i]);
			return -1;
		}
		if (runs[i].failed)
			fprintf(stderr, "compactbench %s: %s: %zu cell(s) left out, first: %s\n", cmd,
				runs[i].dir, runs[i].failed, runs[i].failed_why);
	}
	return 0;
}

static void free_group(struct cb_group *g)
{
	for (size_t k = 0; k < g->n; k++)
		free(g->cell_dir[k]);
	free(g->cell_dir);
	free(g->rep);
	for (int m = 0; m < CB_M_NR; m++)
		free(g->val[m]);
}

void cb_run_free(struct cb_run_data *rd)
{
	for (size_t i = 0; i < rd->ng; i++)
		free_group(&rd->groups[i]);
	free(rd->groups);
	rd->groups = NULL;
	rd->ng = 0;
}

size_t cb_run_keep_setting(struct cb_run_data *rd, const char *setting)
{
	size_t k = 0;

	for (size_t i = 0; i < rd->ng; i++) {
		if (strcmp(rd->groups[i].setting, setting))
			free_group(&rd->groups[i]);
		else
			rd->groups[k++] = rd->groups[i];
	}
	rd->ng = k;
	return k;
}

size_t cb_group_values(const struct cb_group *g, int m, double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < g->n; i++)
		if (!isnan(g->val[m][i]))
			out[n++] = g->val[m][i];
	return n;
}

size_t cb_runs_pair(const struct cb_run_data *a, const struct cb_run_data *b,
		    const struct cb_group **base, const struct cb_group **cand, size_t max)
{
	size_t n = 0, i, j;

	if (!b) {
		for (i = 0; i < a->ng; i++) {
			const struct cb_group *first = NULL;

			for (j = 0; j < i && !first; j++)
				if (!strcmp(a->groups[j].kernel, a->groups[i].kernel) &&
				    !strcmp(a->groups[j].workload, a->groups[i].workload))
					first = &a->groups[j];
			if (first && n < max) {
				base[n] = first;
				cand[n++] = &a->groups[i];
			}
		}
		return n;
	}
	if (a->ng == 1 && b->ng == 1) {
		base[0] = &a->groups[0];
		cand[0] = &b->groups[0];
		return max ? 1 : 0;
	}
	for (i = 0; i < a->ng; i++)
		for (j = 0; j < b->ng; j++)
			if (!strcmp(a->groups[i].setting, b->groups[j].setting) &&
			    !strcmp(a->groups[i].workload, b->groups[j].workload) && n < max) {
				base[n] = &a->groups[i];
				cand[n++] = &b->groups[j];
			}
	return n;
}
