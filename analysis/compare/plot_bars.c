// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_bars.c - small multiples of one metric: a panel per workload, a cluster of bars
 * per kernel, a bar per setting in the setting's colour, the median over repetitions with
 * its 95% bootstrap CI as the error bar. A new bar chart is one row of the table below.
 *
 * CHART.dat holds, per workload, a block ("# workload W") with a line per kernel: the
 * kernel's label, then median, CI low and CI high per setting in the order of "# settings".
 */
#include "compare.h"
#include "plot.h"
#include "util.h"

#include <math.h>
#include <string.h>

/* the bar charts are the metric table's CB_VIEW_PLOT_BARS rows (struct cb_plot_use) */

/*
 * the longest kernel label a cluster of a panel of @cols columns shows without overlap:
 * the plot area is about 3/4 of a panel (the y label and tics take the rest) and gnuplot
 * spaces nk clusters over about nk + 1 cluster widths; a label needs ~8.5 px a character
 * at the 14 px tic font and a character's gap to the next (measured on the headline's
 * 3-kernel chart, where 0.85 of the panel over nk let 15 characters touch)
 */
static size_t label_room(const struct pl_ctx *c, int cols)
{
	size_t chars = (size_t)(PL_CHART_W * 0.75 / cols / (c->nk + 1) / 8.5);

	return chars > 1 ? chars - 1 : 0;
}

/*
 * the panel's data block; *@vals / *@pos count the values and those above 0, @col[s] the
 * values of setting s
 */
static void write_block(FILE *dat, const struct pl_ctx *c, const struct cb_plot_use *bc, int m,
			int w, bool abbrev, size_t *vals, size_t *pos, size_t *col)
{
	char q[200];

	fprintf(dat, "# workload %s\n", c->workload[w]);
	for (int k = 0; k < c->nk; k++) {
		if (abbrev)
			fprintf(dat, "\"k%d\"", k + 1);
		else
			fprintf(dat, "\"%s\"", pl_quote(q, sizeof(q), c->kernel[k]));
		for (int s = 0; s < c->ns; s++) {
			double med, lo, hi;

			pl_median_ci(c->grid[w][k][s], m, bc->scale, &med, &lo, &hi);
			fprintf(dat, " %.6g %.6g %.6g", med, lo, hi);
			*vals += !isnan(med);
			col[s] += !isnan(med);
			*pos += med > 0;
		}
		fprintf(dat, "\n");
	}
	fprintf(dat, "\n\n");
}

/* the note under a chart whose kernel labels were abbreviated: "k1 = NAME  k2 = NAME" */
static void kernel_key(FILE *gp, const struct pl_ctx *c, int height)
{
	char q[200];

	fprintf(gp, "set label 99 \"");
	for (int k = 0; k < c->nk; k++)
		fprintf(gp, "%sk%d = %s", k ? "    " : "", k + 1, pl_quote(q, sizeof(q), c->kernel[k]));
	fprintf(gp, "\" at screen 0.5,%.4f center\n", 18.0 / height);
}

/* one bar chart, PNG and SVG; returns 0, or -1 with errno */
static int bar_chart(struct pl_ctx *c, FILE *gp, int m)
{
	const struct cb_plot_use *bc = &cb_metrics[m].plot;
	int rows, cols, height = pl_layout(c->nw, &rows, &cols);
	size_t vals[PL_MAX] = { 0 }, pos[PL_MAX] = { 0 }, col[PL_MAX][PL_MAX] = { { 0 } };
	char name[128], q[200];
	bool abbrev = false;
	FILE *dat;

	for (int k = 0; k < c->nk; k++)
		abbrev |= strlen(c->kernel[k]) > label_room(c, cols);
	snprintf(name, sizeof(name), "%s.dat", bc->file);
	dat = pl_open(c, name);
	if (!dat)
		return -1;
	fprintf(dat, "# %s: %s; median, CI low, CI high per setting\n# settings:", bc->title,
		bc->ylabel);
	for (int s = 0; s < c->ns; s++)
		fprintf(dat, " %s", c->setting[s]);
	fprintf(dat, "\n");
	for (int w = 0; w < c->nw; w++)
		write_block(dat, c, bc, m, w, abbrev, &vals[w], &pos[w], col[w]);
	fclose(dat);
	int keyed = 0, h = pl_begin(gp, bc->file, bc->title, rows, cols,
				    height + (abbrev ? 20 : 0), c->ns);

	if (abbrev)
		kernel_key(gp, c, h);
	fprintf(gp, "set style data histograms\nset style histogram errorbars gap 2 lw 1\n"
		    "set style fill solid 0.85 border -1\nset boxwidth 0.9\nset xtics "
		    "scale 0\nset ylabel \"%s\"\nset yrange [0:*]\n", bc->ylabel);
	if (bc->ymax > 0)
		fprintf(gp, "set yrange [0:%g]\n", bc->ymax);
	for (int w = 0; w < c->nw; w++) {
		pl_quote(q, sizeof(q), c->workload[w]);
		if (!vals[w]) {
			pl_empty_panel(gp, q, "no value in these runs");
			fprintf(gp, "unset label 99\n"); /* the kernel key: once per chart */
			continue;
		}
		fprintf(gp, "set title \"%s\"\n", q);
		if (!pos[w] && !bc->ymax)
			fprintf(gp, "set yrange [0:1]\nset label 1 \"all 0\" at graph 0.5,0.5 "
				    "center\n");
		pl_panel_key(gp, keyed++, h); /* in the first panel drawn */
		fprintf(gp, "plot ");
		/*
		 * a setting without a value in this panel (not run on its workload, or not yet)
		 * gets no bars, which gnuplot refuses as "No valid points in histogram", but
		 * keeps its key entry: the key is shared by the panels
		 */
		for (int s = 0, first = 1; s < c->ns; s++, first = 0)
			if (col[w][s])
				fprintf(gp, "%s'%s' index %d using %d:%d:%d:xtic(1) lc rgb '%s' "
					    "title \"%s\"", first ? "" : ", ", name, w, 2 + 3 * s,
					3 + 3 * s, 4 + 3 * s, pl_palette[s % pl_npalette],
					pl_quote(q, sizeof(q), c->setting[s]));
			else
				fprintf(gp, "%skeyentry with boxes lc rgb '%s' title \"%s\"",
					first ? "" : ", ", pl_palette[s % pl_npalette],
					pl_quote(q, sizeof(q), c->setting[s]));
		fprintf(gp, "\nunset label 1\nunset label 99\n%s", bc->ymax ? "" :
			"set yrange [0:*]\n");
	}
	pl_end(gp);
	return 0;
}

int pl_bars(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max)
{
	int ids[CB_M_NR], nb = cb_metrics_view(CB_VIEW_PLOT_BARS, ids, CB_M_NR), n = 0;

	for (int i = 0; i < nb && n < max; i++) {
		const struct cb_plot_use *bc = &cb_metrics[ids[i]].plot;
		char title[200];

		if (bar_chart(c, gp, ids[i]) < 0)
			return -1;
		snprintf(title, sizeof(title), "%s (median, 95%% CI)", bc->title);
		pl_chart_set(&out[n], bc->file, title);
		n++;
	}
	return n;
}
