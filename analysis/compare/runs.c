// SPDX-License-Identifier: GPL-2.0-only
/*
 * runs.c - load a run directory's per-repetition values for compare, gate and plot.
 */
#include "runs.h"
#include "xalloc.h"
#include "analyze.h"
#include "runjson.h"
#include "summary.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
		cb_oom();
	g = &rd->groups[rd->ng++];
	memset(g, 0, sizeof(*g));
	snprintf(g->kernel, sizeof(g->kernel), "%s", k);
	snprintf(g->setting, sizeof(g->setting), "%s", s);
	snprintf(g->workload, sizeof(g->workload), "%s", w);
	return g;
}

/* a name into a list of distinct names; returns its index there */
static size_t add_name(char (**list)[64], size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*list)[i], name))
			return i;
	*list = realloc(*list, (*n + 1) * sizeof(**list));
	if (!*list)
		cb_oom();
	snprintf((*list)[(*n)++], sizeof(**list), "%s", name);
	return *n - 1;
}

/* the (kernel, setting) of indices @k and @s into the run's list of those it has cells of */
static void add_combo(struct cb_run_data *rd, size_t k, size_t s)
{
	for (size_t i = 0; i < rd->ncombos; i++)
		if (rd->combos[i][0] == k && rd->combos[i][1] == s)
			return;
	rd->combos = realloc(rd->combos, (rd->ncombos + 1) * sizeof(*rd->combos));
	if (!rd->combos)
		cb_oom();
	rd->combos[rd->ncombos][0] = k;
	rd->combos[rd->ncombos++][1] = s;
}

/* a cell not run yet into its group's pending count */
static void add_pending(struct cb_run_data *rd, const char *k, const char *s, const char *w,
			const char *why)
{
	struct cb_pending *p;

	for (size_t i = 0; i < rd->npending; i++) {
		p = &rd->pending[i];
		if (!strcmp(p->kernel, k) && !strcmp(p->setting, s) && !strcmp(p->workload, w) &&
		    !strcmp(p->why, why)) {
			p->n++;
			return;
		}
	}
	rd->pending = realloc(rd->pending, (rd->npending + 1) * sizeof(*rd->pending));
	if (!rd->pending)
		cb_oom();
	p = &rd->pending[rd->npending++];
	memset(p, 0, sizeof(*p));
	snprintf(p->kernel, sizeof(p->kernel), "%s", k);
	snprintf(p->setting, sizeof(p->setting), "%s", s);
	snprintf(p->workload, sizeof(p->workload), "%s", w);
	snprintf(p->why, sizeof(p->why), "%s", why);
	p->n = 1;
}

static void fail_cell(struct cb_run_data *rd, const char *id, const char *why)
{
	if (!rd->failed++)
		snprintf(rd->failed_why, sizeof(rd->failed_why), "%s: %s", id, why);
}

/*
 * whether the cell's recurring demand ran fewer waves than it asked for (summary.json's
 * waves.recorded < waves.count): a repetition cut short (a guest slowed down until the
 * demand's time bound ended it) measured a different experiment, so it is left out of its
 * group rather than averaged in (docs/recurring-demand.md); @why says how many ran
 */
static bool waves_short(struct json_object *sum, char *why, size_t whylen)
{
	struct json_object *w, *count, *rec;

	if (!json_object_object_get_ex(sum, "waves", &w) || !json_object_is_type(w, json_type_object) ||
	    !json_object_object_get_ex(w, "count", &count) ||
	    !json_object_object_get_ex(w, "recorded", &rec))
		return false;
	if (json_object_get_int64(rec) >= json_object_get_int64(count))
		return false;
	snprintf(why, whylen, "%" PRId64 " of %" PRId64 " waves ran", json_object_get_int64(rec),
		 json_object_get_int64(count));
	return true;
}

/* add one summarized cell to its group, keeping repetitions in ascending order */
static void add_cell(struct cb_group *g, long rep, const char *cell_dir, struct json_object *sum)
{
	struct json_object *metrics = NULL, *x, *lost, *st;
	size_t at = g->n;

	while (at > 0 && g->rep[at - 1] > rep)
		at--;
	g->rep = realloc(g->rep, (g->n + 1) * sizeof(*g->rep));
	g->cell_dir = realloc(g->cell_dir, (g->n + 1) * sizeof(*g->cell_dir));
	g->state = realloc(g->state, (g->n + 1) * sizeof(*g->state));
	if (!g->rep || !g->cell_dir || !g->state)
		cb_oom();
	memmove(g->rep + at + 1, g->rep + at, (g->n - at) * sizeof(*g->rep));
	memmove(g->cell_dir + at + 1, g->cell_dir + at, (g->n - at) * sizeof(*g->cell_dir));
	memmove(g->state + at + 1, g->state + at, (g->n - at) * sizeof(*g->state));
	g->rep[at] = rep;
	g->cell_dir[at] = strdup(cell_dir);
	g->state[at] = json_object_object_get_ex(sum, "start_state", &st) &&
		       json_object_is_type(st, json_type_string) ?
			       cb_xstrdup(json_object_get_string(st)) : NULL;
	json_object_object_get_ex(sum, "metrics", &metrics);
	for (int m = 0; m < CB_M_NR; m++) {
		g->val[m] = realloc(g->val[m], (g->n + 1) * sizeof(double));
		if (!g->val[m])
			cb_oom();
		memmove(g->val[m] + at + 1, g->val[m] + at, (g->n - at) * sizeof(double));
		g->val[m][at] = metrics && json_object_object_get_ex(metrics, cb_metrics[m].name, &x) &&
						x ? json_object_get_double(x) : NAN;
	}
	if (json_object_object_get_ex(sum, "lost_events", &lost) && json_object_get_boolean(lost))
		g->lost = true;
	g->n++;
}

/*
 * whether @sum (the cell's summary.json) is missing or older than a file it was made from,
 * or one of those is gone: a trace cut short or a vmstat file deleted after the analysis.
 * A cell without meta.json (a run of summaries only) has nothing to check them against.
 */
static bool summary_stale(const char *cell_dir, const char *sum)
{
	static const char *const inputs[] = { "meta.json", "vmstat.before", "vmstat.after",
					       "trace.dat" };
	char path[PATH_MAX];
	struct stat ss, si;

	if (stat(sum, &ss) < 0)
		return true;
	if (cb_path(path, sizeof(path), "%s/meta.json", cell_dir) < 0 ||
	    (stat(path, &si) < 0 && errno == ENOENT))
		return false;
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		if (cb_path(path, sizeof(path), "%s/%s", cell_dir, inputs[i]) < 0 ||
		    stat(path, &si) < 0)
			return true;
		if (si.st_mtim.tv_sec > ss.st_mtim.tv_sec ||
		    (si.st_mtim.tv_sec == ss.st_mtim.tv_sec && si.st_mtim.tv_nsec > ss.st_mtim.tv_nsec))
			return true;
	}
	return false;
}

/*
 * the cell's summary.json, made first if it is missing or stale (summary_stale); NULL with
 * @why if it cannot be (the cell is then left out, and keeps no summary.json)
 */
static struct json_object *cell_summary(const char *cell_dir, char *why, size_t whylen,
					bool *bad_input)
{
	char path[PATH_MAX];
	struct json_object *sum;

	*bad_input = false;
	if (cb_path(path, sizeof(path), "%s/summary.json", cell_dir) < 0)
		return NULL;
	if (summary_stale(cell_dir, path) && cb_analyze_cell(cell_dir, why, whylen) < 0)
		return NULL;
	sum = cb_summary_json_load(path, why, whylen);
	*bad_input = !sum;
	return sum;
}

int cb_run_load(const char *dir, struct cb_run_data *rd, char *err, size_t errlen)
{
	struct json_object *run, *cells, *c, *x;
	char cell_dir[PATH_MAX], why[1024];
	size_t i;

	memset(rd, 0, sizeof(*rd));
	snprintf(rd->dir, sizeof(rd->dir), "%s", dir);
	run = cb_runjson_load(dir, err, errlen);
	if (!run)
		return -1;
	json_object_object_get_ex(run, "cells", &cells);
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
		x = json_object_object_get(c, "rep"); /* all there: cb_runjson_check */
		add_combo(rd, add_name(&rd->kernels, &rd->nkernels, k),
			  add_name(&rd->settings, &rd->nsettings, s));
		if (cb_path(cell_dir, sizeof(cell_dir), "%s/%s", dir, id) < 0) {
			fail_cell(rd, id, "path too long");
			continue;
		}
		if (cb_cell_pending(run, k, cell_dir, why, sizeof(why))) {
			add_pending(rd, k, s, w, why);
			continue;
		}
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
		if (waves_short(sum, why, sizeof(why))) {
			if (!rd->short_waves++)
				snprintf(rd->short_why, sizeof(rd->short_why), "%s: %s", id, why);
			json_object_put(sum);
			continue;
		}
		add_cell(find_group(rd, k, s, w), json_object_get_int64(x), cell_dir, sum);
		json_object_put(sum);
	}
	json_object_put(run);
	return 0;
}

/* one line per kernel and reason: "DIR: N cell(s) pending (kernel K not booted yet)" */
static void print_pending_kernels(const struct cb_run_data *rd, const char *cmd)
{
	for (size_t i = 0; i < rd->npending; i++) {
		size_t j, n = 0;

		for (j = 0; j < i; j++)
			if (!strcmp(rd->pending[j].kernel, rd->pending[i].kernel) &&
			    !strcmp(rd->pending[j].why, rd->pending[i].why))
				break;
		if (j < i)
			continue;
		for (j = i; j < rd->npending; j++)
			if (!strcmp(rd->pending[j].kernel, rd->pending[i].kernel) &&
			    !strcmp(rd->pending[j].why, rd->pending[i].why))
				n += rd->pending[j].n;
		fprintf(stderr, "compactbench %s: %s: %zu cell(s) of kernel %s %s: not failures; "
			"in the comparison once they have run\n", cmd, rd->dir, n,
			rd->pending[i].kernel, rd->pending[i].why);
	}
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
		if (runs[i].short_waves)
			fprintf(stderr, "compactbench %s: %s: %zu repetition(s) left out because their "
				"waves did not all run, first: %s\n", cmd, runs[i].dir,
				runs[i].short_waves, runs[i].short_why);
		print_pending_kernels(&runs[i], cmd);
	}
	return 0;
}

static void free_group(struct cb_group *g)
{
	for (size_t k = 0; k < g->n; k++) {
		free(g->cell_dir[k]);
		free(g->state[k]);
	}
	free(g->cell_dir);
	free(g->state);
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
	free(rd->pending);
	rd->pending = NULL;
	rd->npending = 0;
	free(rd->kernels);
	rd->kernels = NULL;
	rd->nkernels = 0;
	free(rd->settings);
	rd->settings = NULL;
	rd->nsettings = 0;
	free(rd->combos);
	rd->combos = NULL;
	rd->ncombos = 0;
}

int cb_confidence_arg(const char *cmd, const char *arg, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (*end || !(v > 0.5 && v < 1)) {
		fprintf(stderr, "compactbench %s: --confidence '%s': a number in (0.5, 1)\n", cmd,
			arg);
		return -1;
	}
	*out = v;
	return 0;
}

int cb_side_spec(const char *spec, char *dir, size_t dirlen, struct cb_side *s, char *err,
		 size_t errlen)
{
	const char *colon = strrchr(spec, ':'), *sel, *slash;

	memset(s, 0, sizeof(*s));
	if (!colon || access(spec, F_OK) == 0) {
		snprintf(dir, dirlen, "%s", spec);
		return 0;
	}
	snprintf(dir, dirlen, "%.*s", (int)(colon - spec), spec);
	sel = colon + 1;
	slash = strchr(sel, '/');
	if (!*sel || (slash && (slash == sel || strchr(slash + 1, '/'))) ||
	    strlen(sel) >= sizeof(s->kernel)) {
		snprintf(err, errlen, "'%s': after DIR: a SETTING, KERNEL/ or KERNEL/SETTING", spec);
		return -1;
	}
	if (slash) {
		snprintf(s->kernel, sizeof(s->kernel), "%.*s", (int)(slash - sel), sel);
		snprintf(s->setting, sizeof(s->setting), "%s", slash + 1);
	} else {
		snprintf(s->setting, sizeof(s->setting), "%s", sel);
	}
	return 0;
}

static int check_name(const char *dir, const char *what, const char *name, char (*list)[64],
		      size_t n, char *err, size_t errlen)
{
	size_t o;

	if (!*name)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return 0;
	o = snprintf(err, errlen, "%s: no %s '%s' in this run (it has:", dir, what, name);
	for (size_t i = 0; i < n && o < errlen; i++)
		o += snprintf(err + o, errlen - o, " %s", list[i]);
	if (o < errlen)
		snprintf(err + o, errlen - o, ")");
	return -1;
}

/* whether @rd lists a cell of kernel @k and setting @s */
static bool has_combo(const struct cb_run_data *rd, const char *k, const char *s)
{
	for (size_t i = 0; i < rd->ncombos; i++)
		if (!strcmp(rd->kernels[rd->combos[i][0]], k) &&
		    !strcmp(rd->settings[rd->combos[i][1]], s))
			return true;
	return false;
}

int cb_side_check(const struct cb_side *s, char *err, size_t errlen)
{
	const struct cb_run_data *rd = s->rd;

	if (!*s->kernel && *s->setting) { /* DIR:KERNEL without its '/' */
		for (size_t i = 0; i < rd->nkernels; i++) {
			if (strcmp(rd->kernels[i], s->setting) ||
			    !check_name(rd->dir, "setting", s->setting, rd->settings, rd->nsettings,
					err, errlen))
				continue;
			snprintf(err, errlen, "%s: no setting '%s' in this run, but a kernel of that "
				 "name: DIR:%s/ selects a kernel", rd->dir, s->setting, s->setting);
			return -1;
		}
	}
	if (check_name(rd->dir, "kernel", s->kernel, rd->kernels, rd->nkernels, err, errlen) < 0 ||
	    check_name(rd->dir, "setting", s->setting, rd->settings, rd->nsettings, err, errlen) < 0)
		return -1;
	if (*s->kernel && *s->setting && !has_combo(rd, s->kernel, s->setting)) {
		snprintf(err, errlen, "%s: no cell of kernel '%s' with setting '%s' in this run",
			 rd->dir, s->kernel, s->setting);
		return -1;
	}
	return 0;
}

bool cb_side_has(const struct cb_side *s, const char *kernel, const char *setting)
{
	return (!*s->kernel || !strcmp(s->kernel, kernel)) &&
	       (!*s->setting || !strcmp(s->setting, setting));
}

size_t cb_side_print_pending(FILE *out, const char *prefix, const struct cb_side *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->rd->npending; i++) {
		const struct cb_pending *p = &s->rd->pending[i];

		if (!cb_side_has(s, p->kernel, p->setting))
			continue;
		fprintf(out, "%s%s:%s/%s workload %s: %zu cell(s) %s\n", prefix, s->rd->dir,
			p->kernel, p->setting, p->workload, p->n, p->why);
		n++;
	}
	return n;
}

size_t cb_side_groups(const struct cb_side *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->rd->ng; i++)
		n += s->rd->groups[i].n && cb_side_has(s, s->rd->groups[i].kernel,
						       s->rd->groups[i].setting);
	return n;
}

size_t cb_group_values(const struct cb_group *g, int m, double *out)
{
	return cb_group_values_states(g, m, out, NULL);
}

size_t cb_group_values_states(const struct cb_group *g, int m, double *out, const char **states)
{
	size_t n = 0;

	for (size_t i = 0; i < g->n; i++) {
		if (isnan(g->val[m][i]))
			continue;
		if (states)
			states[n] = g->state[i];
		out[n++] = g->val[m][i];
	}
	return n;
}

/* whether runs @a and @b list the same kernels (in any order) */
static bool same_kernels(const struct cb_run_data *a, const struct cb_run_data *b)
{
	size_t i, j;

	if (a->nkernels != b->nkernels)
		return false;
	for (i = 0; i < a->nkernels; i++) {
		for (j = 0; j < b->nkernels; j++)
			if (!strcmp(a->kernels[i], b->kernels[j]))
				break;
		if (j == b->nkernels)
			return false;
	}
	return true;
}

size_t cb_sides_pair(const struct cb_side *a, const struct cb_side *b,
		     const struct cb_group **base, const struct cb_group **cand, size_t max)
{
	bool any_setting = *a->setting && *b->setting;
	bool any_kernel = (*a->kernel && *b->kernel) || !same_kernels(a->rd, b->rd);
	const struct cb_group *ga, *gb, *only_a = NULL, *only_b = NULL;
	size_t n = 0, i, j, na = 0, nb = 0;

	for (i = 0; i < a->rd->ng; i++)
		if (cb_side_has(a, a->rd->groups[i].kernel, a->rd->groups[i].setting)) {
			only_a = &a->rd->groups[i];
			na++;
		}
	for (j = 0; j < b->rd->ng; j++)
		if (cb_side_has(b, b->rd->groups[j].kernel, b->rd->groups[j].setting)) {
			only_b = &b->rd->groups[j];
			nb++;
		}
	if (na == 1 && nb == 1) {
		base[0] = only_a;
		cand[0] = only_b;
		return max ? 1 : 0;
	}
	for (i = 0; i < a->rd->ng; i++) {
		ga = &a->rd->groups[i];
		if (!cb_side_has(a, ga->kernel, ga->setting))
			continue;
		for (j = 0; j < b->rd->ng && n < max; j++) {
			gb = &b->rd->groups[j];
			if (!cb_side_has(b, gb->kernel, gb->setting) ||
			    strcmp(ga->workload, gb->workload) ||
			    (!any_setting && strcmp(ga->setting, gb->setting)) ||
			    (!any_kernel && strcmp(ga->kernel, gb->kernel)))
				continue;
			base[n] = ga;
			cand[n++] = gb;
		}
	}
	return n;
}

size_t cb_runs_pair(const struct cb_run_data *a, const struct cb_run_data *b,
		    const struct cb_group **base, const struct cb_group **cand, size_t max)
{
	struct cb_side sa = { .rd = a }, sb = { .rd = b };
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
	return cb_sides_pair(&sa, &sb, base, cand, max);
}

bool cb_runs_same_config(const struct cb_run_data *a, const struct cb_run_data *b, char *why,
			 size_t whylen)
{
	if (!strcmp(a->config_sha256, b->config_sha256))
		return true;
	snprintf(why, whylen, "the runs used different configs (sha256 %.12s vs %.12s)",
		 *a->config_sha256 ? a->config_sha256 : "none", *b->config_sha256 ?
		 b->config_sha256 : "none");
	return false;
}
