// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_progress.c - the run's estimate and time left (see run_progress.h).
 */
#include "meta.h"
#include "xalloc.h"
#include "run_json.h"
#include "run_progress.h"
#include "runjson.h"
#include "target_class.h"
#include "util.h"

#include <dirent.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUN_DIRS 10000 /* entries of the output directory looked at */

/* a phase's option @name as a number (its quick.* value with --quick), 0 if it has none */
static double phase_num(const struct cb_phase *ph, const char *name, bool quick,
			int (*parse)(const char *s, double *out))
{
	double v = 0, q = -1, x;

	for (size_t i = 0; i < ph->nr_args; i++) {
		if (strcmp(ph->args[i].name, name) || parse(ph->args[i].value, &x) < 0)
			continue;
		if (ph->args[i].quick)
			q = x;
		else
			v = x;
	}
	return quick && q >= 0 ? q : v;
}

static int parse_count(const char *s, double *out)
{
	long long n;

	if (cb_parse_long(s, 0, 1000000, &n) < 0)
		return -1;
	*out = (double)n;
	return 0;
}

/*
 * how long a phase runs: its `duration`, or for recurring demand (`waves` N, `period` P)
 * N x P when that is shorter: the demand ends when its last wave does, and `duration` is
 * only its bound (a wave lasts well under its period in policies.ini's thp-recur; Poisson
 * arrivals have the same mean)
 */
static double phase_duration(const struct cb_phase *ph, bool quick)
{
	double d = phase_num(ph, "duration", quick, cb_parse_duration);
	double waves = phase_num(ph, "waves", quick, parse_count);
	double period = phase_num(ph, "period", quick, cb_parse_duration);

	if (waves > 0 && period > 0 && (d <= 0 || waves * period < d))
		return waves * period;
	return d;
}

double cb_est_cell_config_s(const struct cb_config *cfg, const struct cb_cell *cell, bool quick)
{
	const struct cb_workload *w = cell->workload;
	double d = phase_duration(&w->phase[CB_PHASE_DEMAND], quick);
	double c = phase_duration(&w->phase[CB_PHASE_COMPANION], quick);
	double est = w->settle_s + (d > c ? d : c);

	if (cell->kernel->cls->flags & CB_TARGET_GUEST)
		return est + CB_EST_QEMU_OVERHEAD_S;
	return est + cfg->cooldown_s + CB_EST_HOST_OVERHEAD_S;
}

/* the newest run directory of the same config and --quick in @out, other than @self */
static bool previous_run(const struct cb_run *run, char *found, size_t size)
{
	char path[PATH_MAX], err[512], best[32] = "";
	struct json_object *o, *x;
	struct dirent *e;
	DIR *d = opendir(run->cfg->output);
	int n = 0;

	if (!d)
		return false;
	while ((e = readdir(d)) && n++ < MAX_RUN_DIRS) {
		const char *started;

		if (e->d_name[0] == '.' ||
		    cb_path(path, sizeof(path), "%s/%s", run->cfg->output, e->d_name) < 0 ||
		    !strcmp(path, run->dir) || !(o = cb_run_json_load(path, err, sizeof(err))))
			continue;
		started = json_object_get_string(json_object_object_get(o, "started"));
		if (!strcmp(json_object_get_string(json_object_object_get(o, "config_sha256")),
			    run->cfg->sha256) &&
		    json_object_object_get_ex(o, "quick", &x) && json_object_get_boolean(x) == run->quick &&
		    started && strlen(started) < sizeof(best) && strcmp(started, best) > 0) {
			snprintf(best, sizeof(best), "%s", started);
			snprintf(found, size, "%s", path);
		}
		json_object_put(o);
	}
	closedir(d);
	return best[0] != '\0';
}

/* the wall time of a complete cell of @dir from its meta.json breakdown, or -1 */
static double cell_wall(const char *dir, const char *id)
{
	char path[PATH_MAX];
	struct json_object *m, *t, *x;
	double w = -1;

	if (cb_path(path, sizeof(path), "%s/%s/meta.json", dir, id) < 0 ||
	    !(m = json_object_from_file(path)))
		return -1;
	if (json_object_object_get_ex(m, "timing", &t) && json_object_object_get_ex(t, "wall_s", &x) &&
	    json_object_object_get_ex(m, "status", &t) && !strcmp(json_object_get_string(t), "complete"))
		w = json_object_get_double(x);
	json_object_put(m);
	return w;
}

/* mean wall time per kernel and workload of an earlier run */
struct prev_mean {
	const char *kernel, *workload; /* names, owned by the run.json object */
	double sum;
	int n;
};

static void prev_add(struct prev_mean *pm, size_t *nr, size_t max, const char *k, const char *w,
		     double wall)
{
	size_t i;

	for (i = 0; i < *nr && (strcmp(pm[i].kernel, k) || strcmp(pm[i].workload, w)); i++)
		;
	if (i == *nr) {
		if (*nr == max)
			return;
		pm[(*nr)++] = (struct prev_mean){ k, w, 0, 0 };
	}
	pm[i].sum += wall;
	pm[i].n++;
}

static double prev_lookup(const struct prev_mean *pm, size_t nr, const struct cb_cell *cell)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(pm[i].kernel, cell->kernel->name) &&
		    !strcmp(pm[i].workload, cell->workload->name))
			return pm[i].sum / pm[i].n;
	return -1;
}

/* the earlier run's means into @pm (room for @max); returns the run.json object to put */
static struct json_object *prev_means(const char *dir, struct prev_mean *pm, size_t *nr,
				      size_t max)
{
	char err[512];
	struct json_object *o = cb_run_json_load(dir, err, sizeof(err)), *cells, *c;

	*nr = 0;
	if (!o || !json_object_object_get_ex(o, "cells", &cells))
		return o;
	for (size_t i = 0; i < json_object_array_length(cells); i++) {
		double w;

		c = json_object_array_get_idx(cells, i);
		w = cell_wall(dir, json_object_get_string(json_object_object_get(c, "id")));
		if (w > 0)
			prev_add(pm, nr, max,
				 json_object_get_string(json_object_object_get(c, "kernel")),
				 json_object_get_string(json_object_object_get(c, "workload")), w);
	}
	return o;
}

int cb_progress_init(struct cb_progress *p, const struct cb_run *run, const struct cb_cell *todo,
		     size_t nr, long jobs)
{
	char prev[PATH_MAX];
	struct prev_mean pm[256];
	size_t nr_pm = 0, from_prev = 0;
	struct json_object *prev_json = NULL;

	memset(p, 0, sizeof(*p));
	p->nr = nr;
	p->jobs = jobs;
	p->est_s = cb_xcalloc(nr ? nr : 1, sizeof(*p->est_s));
	p->parallel = cb_xcalloc(nr ? nr : 1, sizeof(*p->parallel));
	p->done = cb_xcalloc(nr ? nr : 1, sizeof(*p->done));
	if (previous_run(run, prev, sizeof(prev)))
		prev_json = prev_means(prev, pm, &nr_pm, sizeof(pm) / sizeof(pm[0]));
	for (size_t i = 0; i < nr; i++) {
		double m = prev_lookup(pm, nr_pm, &todo[i]);

		p->parallel[i] = jobs > 1 && (todo[i].kernel->cls->flags & CB_TARGET_GUEST);
		p->est_s[i] = m > 0 ? m : cb_est_cell_config_s(run->cfg, &todo[i], run->quick);
		from_prev += m > 0;
	}
	json_object_put(prev_json);
	if (from_prev)
		snprintf(p->basis, sizeof(p->basis), "%zu of the cells from the measured time of "
			 "their kernel and workload in %s%s", from_prev, prev,
			 from_prev < nr ? ", the others from the config" : "");
	else
		snprintf(p->basis, sizeof(p->basis), "from the config: settle + demand duration + "
			 "cooldown + an overhead of %.0f s a qemu cell, %.0f s a host cell (measured "
			 "on a 2-core VM)", CB_EST_QEMU_OVERHEAD_S, CB_EST_HOST_OVERHEAD_S);
	return 0;
}

void cb_progress_free(struct cb_progress *p)
{
	free(p->est_s);
	free(p->parallel);
	free(p->done);
}

/* the wall time of the cells not done (all of them if @all), estimates times @scale */
static double remaining_s(const struct cb_progress *p, bool all, double scale)
{
	double serial = 0, par = 0;

	for (size_t i = 0; i < p->nr; i++) {
		if (!all && p->done[i])
			continue;
		if (p->parallel[i])
			par += p->est_s[i] * scale;
		else
			serial += p->est_s[i] * scale;
	}
	return serial + par / (p->jobs > 1 ? p->jobs : 1);
}

double cb_progress_total_s(const struct cb_progress *p)
{
	return remaining_s(p, true, 1.0);
}

void cb_progress_done(struct cb_progress *p, size_t i, double wall_s)
{
	if (i >= p->nr || p->done[i])
		return;
	p->done[i] = true;
	p->done_est += p->est_s[i];
	p->done_wall += wall_s;
}

void cb_duration_text(double s, char *buf, size_t size)
{
	long m = (long)(s / 60 + 0.5);

	if (s < 90)
		snprintf(buf, size, "%.0f s", s);
	else if (m < 120)
		snprintf(buf, size, "%ld min", m);
	else
		snprintf(buf, size, "%ld h %02ld min", m / 60, m % 60);
}

void cb_progress_left(const struct cb_progress *p, char *buf, size_t size)
{
	double scale = p->done_est > 0 ? p->done_wall / p->done_est : 1.0;
	char t[64];

	cb_duration_text(remaining_s(p, false, scale), t, sizeof(t));
	snprintf(buf, size, "about %s left", t);
}
