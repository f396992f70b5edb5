// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_waves.c - the learning curve of recurring demand: stall time per wave against the
 * wave's index, the median over the repetitions for each index, a line per setting
 * (Okabe-Ito, the settings' colours of every chart), a panel per (workload, kernel) whose
 * cells recorded waves. Runs without waves get no such chart.
 *
 * waves.dat: one block per panel ("# workload kernel", then "index median_ms..." with a
 * column per setting in the run's order, NaN where a setting has no value at that index).
 */
#include "compare.h"
#include "xalloc.h"
#include "plot.h"
#include "runjson.h"
#include "util.h"
#include "waves.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the per-wave stall times of one repetition, from its summary.json */
struct rep_series {
	double *ns;
	size_t n;
};

/* @cell_dir's waves.series[].stall_ns into @r (n 0 without waves or on a bad entry) */
static void read_series(const char *cell_dir, struct rep_series *r)
{
	struct json_object *sum, *waves, *series, *x;
	char path[PATH_MAX], err[1024];
	size_t n;

	r->ns = NULL;
	r->n = 0;
	if (cb_path(path, sizeof(path), "%s/summary.json", cell_dir) < 0)
		return;
	sum = cb_summary_json_load(path, err, sizeof(err));
	if (!sum)
		return;	/* runs.c already read it: a summary gone bad since has no curve */
	if (!json_object_object_get_ex(sum, "waves", &waves) ||
	    !json_object_object_get_ex(waves, "series", &series) ||
	    !json_object_is_type(series, json_type_array))
		goto out;
	n = json_object_array_length(series);
	if (n > CB_WAVES_MAX)
		goto out;
	r->ns = calloc(n + 1, sizeof(double));
	if (!r->ns)
		cb_oom();
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(series, i);
		double v;

		if (!json_object_object_get_ex(e, "stall_ns", &x) ||
		    !(json_object_is_type(x, json_type_int) ||
		      json_object_is_type(x, json_type_double)) ||
		    !isfinite(v = json_object_get_double(x)) || v < 0) {
			fprintf(stderr, "compactbench plot: %s: waves.series[%zu].stall_ns is not a "
				"number of ns: no learning curve for this cell\n", path, i);
			free(r->ns);
			r->ns = NULL;
			goto out;
		}
		r->ns[i] = v;
	}
	r->n = n;
out:
	json_object_put(sum);
}

/* the median over @g's repetitions of each wave's stall time, in ms; returns the length */
static size_t group_curve(const struct cb_group *g, double **out)
{
	struct rep_series *r = calloc(g->n + 1, sizeof(*r));
	double *v = calloc(g->n + 1, sizeof(double));
	size_t len = 0;

	if (!r || !v)
		cb_oom();
	for (size_t i = 0; i < g->n; i++) {
		read_series(g->cell_dir[i], &r[i]);
		len = r[i].n > len ? r[i].n : len;
	}
	*out = calloc(len + 1, sizeof(double));
	if (!*out)
		cb_oom();
	for (size_t w = 0; w < len; w++) {
		size_t k = 0;

		for (size_t i = 0; i < g->n; i++)
			if (r[i].n > w)
				v[k++] = r[i].ns[w];
		(*out)[w] = cb_stats_median(v, k) / 1e6;	/* k > 0: len is some rep's n */
	}
	for (size_t i = 0; i < g->n; i++)
		free(r[i].ns);
	free(r);
	free(v);
	return len;
}

/* waves.dat (pl_fill_fn; @arg: the panels' names, char [PL_MAX][200]); returns the panels */
static int write_data(struct pl_ctx *c, FILE *f, void *arg)
{
	char (*title)[200] = arg;
	int panels = 0;

	fprintf(f, "# stall time per wave (ms), median over repetitions; columns: index");
	for (int s = 0; s < c->ns; s++)
		fprintf(f, " %s", c->setting[s]);
	fprintf(f, "\n");
	for (int w = 0; w < c->nw; w++)
		for (int k = 0; k < c->nk && panels < PL_MAX; k++) {
			double *curve[PL_MAX] = { NULL };
			size_t len[PL_MAX] = { 0 }, most = 0;

			for (int s = 0; s < c->ns; s++) {
				if (c->grid[w][k][s])
					len[s] = group_curve(c->grid[w][k][s], &curve[s]);
				most = len[s] > most ? len[s] : most;
			}
			if (most) {
				snprintf(title[panels++], 200, "%s on %s", c->workload[w], c->kernel[k]);
				fprintf(f, "# %s %s\n", c->workload[w], c->kernel[k]);
				for (size_t i = 0; i < most; i++) {
					fprintf(f, "%zu", i);
					for (int s = 0; s < c->ns; s++)
						fprintf(f, len[s] > i ? " %.6g" : " NaN",
							len[s] > i ? curve[s][i] : 0);
					fprintf(f, "\n");
				}
				fprintf(f, "\n\n");
			}
			for (int s = 0; s < c->ns; s++)
				free(curve[s]);
		}
	return panels;
}

int pl_waves(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max)
{
	static const char title[] = "Learning curve: direct-compaction stall time per wave "
				    "(median over repetitions)";
	static char names[PL_MAX][200];
	int n, rows, cols, height;
	char q[200];

	n = pl_data(c, "waves.dat", max, write_data, names);
	if (n < 1)
		return n;	/* no cell recorded waves: no chart, no file */
	height = pl_layout(n, &rows, &cols);
	int h = pl_begin(gp, "waves", title, rows, cols, height, c->ns);

	fprintf(gp, "set xlabel 'wave'\nset ylabel 'stall time per wave (ms)'\n"
		    "set yrange [0:*]\nset xrange [-0.5:*]\n");
	for (int p = 0; p < n; p++) {
		fprintf(gp, "set title \"%s\"\n", pl_quote(q, sizeof(q), names[p]));
		pl_panel_key(gp, p, h);
		fprintf(gp, "plot ");
		for (int s = 0; s < c->ns; s++)
			fprintf(gp, "%s'waves.dat' index %d using 1:%d with linespoints pt 7 "
				    "ps 0.8 lw 2 lc rgb '%s' title \"%s\"", s ? ", " : "", p,
				s + 2, pl_palette[s % pl_npalette],
				pl_quote(q, sizeof(q), c->setting[s]));
		fprintf(gp, "\n");
	}
	pl_end(gp);
	pl_chart_set(&out[0], "waves", "Learning curve: stall time per wave against the wave's "
		     "index, median over repetitions, a line per setting: does a setting get "
		     "ahead of recurring demand after the first waves?");
	return 1;
}
