// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_data.c - the grid the charts are drawn from (workload x kernel x setting), the
 * settings' palette, the stalls of each group read once from its cells' traces, and the
 * gnuplot lines every chart shares (multiplot layout, the shared key, empty panels).
 */
#include "compare.h"
#include "xalloc.h"
#include "plot.h"
#include "runjson.h"
#include "stalls.h"
#include "util.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Okabe & Ito's colour-blind-safe palette, yellow last (weak on white) */
const char *const pl_palette[] = { "#0072B2", "#E69F00", "#009E73", "#CC79A7",
				   "#D55E00", "#56B4E9", "#000000", "#F0E442" };
const size_t pl_npalette = CB_ARRAY_SIZE(pl_palette);

/* index of @name in @tab (adding it), -1 when the table is full */
static int intern(char tab[][64], int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(tab[i], name))
			return i;
	if (*n >= PL_MAX)
		return -1;
	snprintf(tab[*n], 64, "%s", name);
	return (*n)++;
}

/* the short name of run @rd for cluster labels: the last part of its directory */
static void run_name(char *buf, size_t size, const struct cb_run_data *rd)
{
	char *s;

	snprintf(buf, size, "%s", rd->dir);
	while ((s = strrchr(buf, '/')) && !s[1] && s > buf)
		*s = '\0';
	s = strrchr(buf, '/');
	if (s)
		memmove(buf, s + 1, strlen(s + 1) + 1);
}

int pl_ctx_init(struct pl_ctx *c, const char *dir, struct cb_run_data *runs, int nr)
{
	memset(c, 0, sizeof(*c));
	c->dir = dir;
	c->runs = runs;
	c->nr = nr;
	/* the settings in run.json's order first, so the palette follows the config */
	for (int r = 0; r < nr; r++)
		for (size_t i = 0; i < runs[r].nsettings; i++)
			intern(c->setting, &c->ns, runs[r].settings[i]);
	for (int r = 0; r < nr; r++) {
		for (size_t i = 0; i < runs[r].ng; i++) {
			const struct cb_group *g = &runs[r].groups[i];
			char label[160], rn[96];
			int w, k, s;

			run_name(rn, sizeof(rn), &runs[r]);
			if (nr > 1)
				snprintf(label, sizeof(label), "%.80s:%.64s", rn, g->kernel);
			else
				snprintf(label, sizeof(label), "%s", g->kernel);
			w = intern(c->workload, &c->nw, g->workload);
			s = intern(c->setting, &c->ns, g->setting);
			for (k = 0; k < c->nk && strcmp(c->kernel[k], label); k++)
				;
			if (k == c->nk && k < PL_MAX) {
				c->krun[k] = r;
				snprintf(c->kname[k], sizeof(c->kname[0]), "%s", g->kernel);
				snprintf(c->kernel[c->nk++], sizeof(c->kernel[0]), "%s", label);
			}
			if (w < 0 || s < 0 || k >= PL_MAX) {
				fprintf(stderr, "compactbench plot: more than %d kernels, settings or "
					"workloads: plot fewer runs at once\n", PL_MAX);
				return -1;
			}
			c->grid[w][k][s] = g;
		}
	}
	return 0;
}

void pl_ctx_free(struct pl_ctx *c)
{
	for (int w = 0; w < c->nw; w++)
		for (int k = 0; k < c->nk; k++)
			for (int s = 0; s < c->ns; s++) {
				free(c->stalls[w][k][s].ns);
				free(c->stalls[w][k][s].rec);
			}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* append the stalls of repetition @rep (cell @cell_dir) to @ps */
static void read_cell(struct pl_stalls *ps, const char *cell_dir, size_t rep)
{
	char trace[PATH_MAX], err[1024];
	struct cb_stalls st;
	uint64_t ws, we;

	if (cb_path(trace, sizeof(trace), "%s/trace.dat", cell_dir) < 0 ||
	    access(trace, F_OK) < 0)
		return;
	cb_meta_window(cell_dir, &ws, &we);
	if (cb_stalls_from_trace_window(trace, ws, we, &st, err, sizeof(err)) < 0) {
		fprintf(stderr, "compactbench plot: %s\n", err);
		return;
	}
	if (!ws)
		ws = st.first_ts; /* no window (a trace from elsewhere): since its first event */
	ps->rec = realloc(ps->rec, (ps->n + st.n + 1) * sizeof(*ps->rec));
	if (!ps->rec)
		cb_oom();
	for (size_t i = 0; i < st.n; i++) {
		struct pl_stall *r = &ps->rec[ps->n + i];

		r->ns = st.rec[i].ns;
		r->t_s = st.rec[i].start > ws ? (st.rec[i].start - ws) / 1e9 : 0;
		r->order = st.rec[i].order;
		r->origin = st.rec[i].origin;
		r->rep = (uint8_t)rep;
	}
	ps->n += st.n;
	cb_stalls_free(&st);
}

const struct pl_stalls *pl_group_stalls(struct pl_ctx *c, int w, int k, int s)
{
	struct pl_stalls *ps = &c->stalls[w][k][s];
	const struct cb_group *g = c->grid[w][k][s];

	if (ps->read || !g)
		return ps;
	ps->read = true;
	for (size_t i = 0; i < g->n; i++)
		read_cell(ps, g->cell_dir[i], i);
	ps->ns = calloc(ps->n + 1, sizeof(double));
	if (!ps->ns)
		cb_oom();
	for (size_t i = 0; i < ps->n; i++)
		ps->ns[i] = ps->rec[i].ns;
	qsort(ps->ns, ps->n, sizeof(double), cmp_double);
	return ps;
}

void pl_median_ci(const struct cb_group *g, int m, double scale, double *med, double *lo,
		  double *hi)
{
	double *v;
	size_t n;
	struct cb_ci ci = { NAN, NAN };

	*med = *lo = *hi = NAN;
	if (!g || m < 0)
		return;
	v = calloc(g->n + 1, sizeof(double));
	if (!v)
		cb_oom();
	n = cb_group_values(g, m, v);
	if (n) {
		*med = cb_stats_median(v, n) * scale;
		cb_stats_bootstrap_median(v, n, 0.95, CB_BOOTSTRAP_SEED, CB_BOOTSTRAP_ITERS, &ci);
		*lo = ci.lo * scale;
		*hi = ci.hi * scale;
	}
	free(v);
}

FILE *pl_open(const struct pl_ctx *c, const char *name)
{
	char path[PATH_MAX];

	if (cb_path(path, sizeof(path), "%s/%s", c->dir, name) < 0)
		return NULL;
	return fopen(path, "w");
}

int pl_data(struct pl_ctx *c, const char *name, int max, pl_fill_fn fill, void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int n, rc;

	if (!f)
		return -1;
	n = fill(c, f, arg);
	if (fclose(f) || n < 1 || max < 1) {
		free(buf);
		return n < 1 || max < 1 ? 0 : -1;
	}
	f = pl_open(c, name);
	rc = f && fwrite(buf, 1, len, f) == len ? n : -1;
	if (f && fclose(f))
		rc = -1;
	free(buf);
	return rc;
}

unsigned long pl_rgb(int s)
{
	return strtoul(pl_palette[s % pl_npalette] + 1, NULL, 16);
}

const char *pl_quote(char *buf, size_t size, const char *s)
{
	/*
	 * gnuplot strings are double-quoted: keep quotes and backslashes out of them (the
	 * terminals are "noenhanced": '_', '^' and '@' are plain characters)
	 */
	snprintf(buf, size, "%s", s);
	for (char *p = buf; *p; p++)
		if (*p == '"' || *p == '\\' || *p == '\n')
			*p = '.';
	return buf;
}

int pl_layout(int n, int *rows, int *cols)
{
	*cols = n > 1 ? 2 : 1;
	*rows = n > 0 ? (n + *cols - 1) / *cols : 1;
	return 130 + *rows * 300;
}

void pl_terminal(FILE *gp, const char *file, int height)
{
	/*
	 * SVG only: gnuplot's pngcairo draws an 11-point font at 96 dpi (14.7 px) where the SVG
	 * terminal draws 12 px, so a label that fit in the SVG (what report.html's overlap test
	 * measures) could overprint in the PNG (what a reader of the README sees). One drawing,
	 * rasterized, cannot disagree with itself.
	 */
	fprintf(gp, "reset\nset terminal svg noenhanced size %d,%d dynamic font 'DejaVu Sans,%d'\n",
		PL_CHART_W, height, PL_FONT_PX);
	fprintf(gp, "set output '%s.svg'\nset encoding utf8\nset grid ytics lc rgb '#dddddd'\n"
		    "set border 3\nset tics nomirror\n", file);
}

/* the rows of the shared key of @entries: two columns (pl_begin sets maxrows) */
static int key_rows(int entries)
{
	return (entries + 1) / 2;
}

static int key_px(int entries)
{
	return 22 * key_rows(entries); /* a row at PL_FONT_PX: 21 px in the SVG */
}

int pl_begin(FILE *gp, const char *file, const char *title, int rows, int cols,
	     int height, int entries)
{
	/* the top margin holds the title, the shared key and the first panels' titles */
	int top_px = 80 + key_px(entries);

	height += key_px(entries);
	pl_terminal(gp, file, height);
	/* room on the right for a second y axis's tics, at the bottom for the x label */
	fprintf(gp, "set multiplot layout %d,%d title \"%s\" font ',%d' margins 0.08,0.94,%.4f,"
		    "%.4f spacing 0.09,%.4f\n", rows, cols, title, PL_TITLE_PX, 75.0 / height,
		1.0 - (double)top_px / height, 130.0 / height);
	/*
	 * two columns, always: left to itself gnuplot fits the columns to its estimate of the
	 * labels' width, and with labels like 'run2-b:linux612-demand' it chose one column
	 * that ran down over the panels (the room above is key_px's)
	 */
	fprintf(gp, "set key maxrows %d\n", key_rows(entries) > 0 ? key_rows(entries) : 1);
	return height;
}

void pl_chart_set(struct pl_chart *ch, const char *file, const char *title)
{
	snprintf(ch->file, sizeof(ch->file), "%s", file);
	snprintf(ch->title, sizeof(ch->title), "%s", title);
	snprintf(ch->anchor, sizeof(ch->anchor), "chart-%s", file);
	ch->w = ch->k = ch->s = -1;
}

void pl_panel_key(FILE *gp, int panel, int height)
{
	if (panel)
		fprintf(gp, "unset key\n");
	else
		pl_key(gp, height);
}

void pl_key(FILE *gp, int height)
{
	fprintf(gp, "set key at screen 0.5,%.4f center top vertical samplen 3 width 1\n",
		1.0 - 45.0 / height);
}

void pl_end(FILE *gp)
{
	fprintf(gp, "unset multiplot\nunset output\n");
}

void pl_empty_panel(FILE *gp, const char *title, const char *why)
{
	/* no tics: a log axis without data has none worth reading */
	fprintf(gp, "set title \"%s\"\nunset key\nunset tics\nset label 1 \"%s\" at graph 0.5,0.5 "
		    "center\nplot [0:1][1:2] NaN notitle\nunset label 1\nset xtics nomirror\n"
		    "set ytics nomirror\n", title, why);
}

void pl_setting_key(FILE *gp, const struct pl_ctx *c, int from, const char *with)
{
	char q[160];

	for (int s = from; s < c->ns; s++)
		fprintf(gp, "%sNaN with %s lc rgb '%s' title \"%s\"", s > from ? ", " : "", with,
			pl_palette[s % pl_npalette], pl_quote(q, sizeof(q), c->setting[s]));
}
