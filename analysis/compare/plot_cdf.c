// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_cdf.c - the distributions: the stall-latency CDF per workload (a line per kernel
 * and setting, colour = setting, dash = kernel, log x, p50 and p99 marked), and the stalls
 * by order and origin of the workloads that stalled (a panel per kernel and workload, a
 * cluster per order and origin, a bar per setting: stalls per repetition).
 *
 * stall-cdf.dat: a block per (workload, kernel, setting) with stalls, "# W K S n=N" first,
 * then "latency_us fraction" lines; stall-cdf-marks.dat: "W K S p50_us p99_us" per block.
 * stall-hist.dat: a block per panel, a line per order/origin class, stalls per repetition
 * per setting.
 */
#include "compare.h"
#include "origin.h"
#include "plot.h"
#include "util.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

/* the CDF of @ps into @f as one block; returns 0 when there is nothing to draw */
static int write_cdf_block(FILE *f, FILE *marks, const struct pl_ctx *c, int w, int k, int s,
			   const struct pl_stalls *ps)
{
	double p50, p99;

	if (!ps->n)
		return 0;
	fprintf(f, "# %s %s %s n=%zu\n", c->workload[w], c->kernel[k], c->setting[s], ps->n);
	for (size_t i = 0; i < ps->n; i++)
		if (i + 1 == ps->n || ps->ns[i + 1] != ps->ns[i])
			fprintf(f, "%.3f %.6f\n", fmax(ps->ns[i], 1) / 1e3, (double)(i + 1) / ps->n);
	fprintf(f, "\n\n");
	/* the same quantile definition as the summaries (analysis/core/stalls.c) */
	p50 = gsl_stats_quantile_from_sorted_data(ps->ns, 1, ps->n, 0.5);
	p99 = gsl_stats_quantile_from_sorted_data(ps->ns, 1, ps->n, 0.99);
	fprintf(marks, "%s %s %s %.3f %.3f\n", c->workload[w], c->kernel[k], c->setting[s],
		fmax(p50, 1) / 1e3, fmax(p99, 1) / 1e3);
	return 1;
}

/* the shared key of the CDF: settings by colour, kernels by dash, the p50/p99 marks */
static void cdf_key(FILE *gp, const struct pl_ctx *c)
{
	char q[200];

	pl_setting_key(gp, c, 0, "lines lw 3");
	for (int k = 0; k < c->nk; k++)
		fprintf(gp, ", NaN with lines lw 2 dt %d lc rgb '#555555' title \"%s\"", k + 1,
			pl_quote(q, sizeof(q), c->kernel[k]));
	fprintf(gp, ", NaN with points pt 7 ps 1.2 lc rgb '#555555' title 'p50', NaN with "
		    "points pt 9 ps 1.4 lc rgb '#555555' title 'p99'");
}

/* the CDF of data block @b (kernel @k: dash, setting @s: colour) with its p50/p99 marks */
static void cdf_line(FILE *gp, int b, int k, int s, int first)
{
	const char *col = pl_palette[s % pl_npalette];

	fprintf(gp, "%s'stall-cdf.dat' index %d using 1:2 with steps lw 2 dt %d lc rgb '%s' "
		    "notitle, 'stall-cdf-marks.dat' every ::%d::%d using 4:(0.5) with points pt 7 "
		    "ps 1.2 lc rgb '%s' notitle, '' every ::%d::%d using 5:(0.99) with points pt 9 "
		    "ps 1.4 lc rgb '%s' notitle", first ? "" : ", ", b, k + 1, col, b, b, col, b, b,
		col);
}

int pl_cdf(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max)
{
	int blk[PL_MAX][PL_MAX][PL_MAX], nb = 0, rows, cols, height = pl_layout(c->nw, &rows, &cols);
	int per_w[PL_MAX] = { 0 };
	FILE *f = pl_open(c, "stall-cdf.dat"), *marks = pl_open(c, "stall-cdf-marks.dat");
	char q[200];

	if (!f || !marks || max < 1) {
		if (f)
			fclose(f);
		if (marks)
			fclose(marks);
		return -1;
	}
	fprintf(marks, "# workload kernel setting p50_us p99_us (pooled stalls of the group)\n");
	for (int w = 0; w < c->nw; w++)
		for (int k = 0; k < c->nk; k++)
			for (int s = 0; s < c->ns; s++) {
				blk[w][k][s] = -1;
				if (write_cdf_block(f, marks, c, w, k, s, pl_group_stalls(c, w, k, s))) {
					blk[w][k][s] = nb++;
					per_w[w]++;
				}
			}
	fclose(f);
	fclose(marks);
	static const char title[] = "Direct-compaction stall latency, CDF (stalls of every "
				    "repetition pooled)";
	int keyed = 0;
	int h = pl_begin(gp, "stall-cdf", title, rows, cols, height, c->ns + c->nk + 2);

	fprintf(gp, "set logscale x\nset xlabel 'stall latency (us, log)'\nset ylabel "
		    "'fraction of stalls'\nset yrange [0:1]\n");
	for (int w = 0; w < c->nw; w++) {
		int first = 1;

		pl_quote(q, sizeof(q), c->workload[w]);
		if (!per_w[w]) {
			fprintf(gp, "unset logscale x\n");
			pl_empty_panel(gp, q, "no stalls");
			fprintf(gp, "set logscale x\n");
			continue;
		}
		fprintf(gp, "set title \"%s\"\n", q);
		/* the shared key in the first panel drawn */
		pl_panel_key(gp, keyed, h);
		fprintf(gp, "plot ");
		if (!keyed++) {
			cdf_key(gp, c);
			first = 0;
		}
		for (int k = 0; k < c->nk; k++)
			for (int s = 0; s < c->ns; s++) {
				if (blk[w][k][s] < 0)
					continue;
				cdf_line(gp, blk[w][k][s], k, s, first);
				first = 0;
			}
		fprintf(gp, "\n");
	}
	pl_end(gp);
	pl_chart_set(&out[0], "stall-cdf", "Stall latency CDF per workload: colour = setting, "
		     "dash = kernel; dot = p50, triangle = p99");
	return 1;
}

#define HIST_CLASSES 6	/* clusters that fit a panel's width without overprinting labels */
#define HIST_REST -1	/* the class that holds the stalls of the least frequent classes */

/* how many stalls of panel (w, k), setting @s, are of class @key (HIST_REST: of none of @cls) */
static size_t class_count(struct pl_ctx *c, int w, int k, int s, int key, const int *cls, int n)
{
	const struct pl_stalls *ps = pl_group_stalls(c, w, k, s);
	size_t cnt = 0;

	for (size_t i = 0; i < ps->n; i++) {
		int rk = ps->rec[i].order * 256 + ps->rec[i].origin, j = 0;

		if (key != HIST_REST) {
			cnt += rk == key;
			continue;
		}
		while (j < n && cls[j] != rk)
			j++;
		cnt += j == n;
	}
	return cnt;
}

/* sort @v ascending, or with @by (swapped along) by @by descending */
static void sort_ints(int *v, int n, size_t *by)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && (by ? by[j - 1] < by[j] : v[j - 1] > v[j]); j--) {
			int x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
			if (by) {
				size_t y = by[j];

				by[j] = by[j - 1];
				by[j - 1] = y;
			}
		}
}

/*
 * the (order, origin) classes with stalls in panel (w, k), as order * 256 + origin: the
 * HIST_CLASSES - 1 most frequent in ascending order, then HIST_REST for the others
 */
static int hist_classes(struct pl_ctx *c, int w, int k, int *cls)
{
	size_t cnt[64] = { 0 };
	int n = 0;

	for (int s = 0; s < c->ns; s++) {
		const struct pl_stalls *ps = pl_group_stalls(c, w, k, s);

		for (size_t i = 0; i < ps->n; i++) {
			int key = ps->rec[i].order * 256 + ps->rec[i].origin, j;

			for (j = 0; j < n && cls[j] != key; j++)
				;
			if (j == n && n < 64)
				cls[n++] = key;
			if (j < 64)
				cnt[j]++;
		}
	}
	if (n > HIST_CLASSES) {
		sort_ints(cls, n, cnt); /* most frequent first */
		n = HIST_CLASSES - 1;
		sort_ints(cls, n, NULL);
		cls[n++] = HIST_REST;
		return n;
	}
	sort_ints(cls, n, NULL);
	return n;
}

/* one panel's block: a line per class, stalls per repetition per setting */
static void hist_block(FILE *f, struct pl_ctx *c, int w, int k, const int *cls, int n)
{
	int named = n && cls[n - 1] == HIST_REST ? n - 1 : n;

	fprintf(f, "# %s %s\n", c->workload[w], c->kernel[k]);
	for (int j = 0; j < n; j++) {
		char q[64];

		if (cls[j] == HIST_REST)
			fprintf(f, "\"the rest\"");
		else
			fprintf(f, "\"o%d %s\"", cls[j] / 256,
				pl_quote(q, sizeof(q), cb_origin_names[cls[j] % 256]));
		for (int s = 0; s < c->ns; s++) {
			const struct cb_group *g = c->grid[w][k][s];

			if (g && g->n)
				fprintf(f, " %.6g", (double)class_count(c, w, k, s, cls[j], cls,
									  named) / g->n);
			else
				fprintf(f, " NaN");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n\n");
}

int pl_hist(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max)
{
	int pw[PL_MAX * PL_MAX], pk[PL_MAX * PL_MAX], np = 0, rows, cols, height;
	FILE *f = pl_open(c, "stall-hist.dat");
	char q[200];

	if (!f || max < 1) {
		if (f)
			fclose(f);
		return -1;
	}
	fprintf(f, "# stalls per repetition by order and origin; a column per setting:");
	for (int s = 0; s < c->ns; s++)
		fprintf(f, " %s", c->setting[s]);
	fprintf(f, "\n");
	for (int w = 0; w < c->nw; w++)
		for (int k = 0; k < c->nk; k++) {
			int cls[64], n = hist_classes(c, w, k, cls);

			if (!n)
				continue;
			hist_block(f, c, w, k, cls, n);
			pw[np] = w;
			pk[np++] = k;
		}
	fclose(f);
	height = pl_layout(np, &rows, &cols);
	int h = pl_begin(gp, "stall-hist", "Direct-compaction stalls by allocation order and "
			 "origin (mean per repetition)", rows, cols, height, c->ns);

	fprintf(gp, "set style data histograms\nset style histogram clustered gap 2\n"
		    "set style fill solid 0.85 border -1\nset xtics scale 0\nset ylabel "
		    "'stalls per repetition'\nset yrange [0:*]\n");
	if (!np)
		pl_empty_panel(gp, "all workloads", "no stalls in these runs");
	for (int p = 0; p < np; p++) {
		char t2[200];

		snprintf(t2, sizeof(t2), "%s on %s", c->workload[pw[p]], c->kernel[pk[p]]);
		fprintf(gp, "set title \"%s\"\n", pl_quote(q, sizeof(q), t2));
		pl_panel_key(gp, p, h);
		fprintf(gp, "plot ");
		for (int s = 0; s < c->ns; s++) {
			const struct cb_group *g = c->grid[pw[p]][pk[p]][s];

			/*
			 * a setting this panel did not run (NaN column): gnuplot refuses
			 * a histogram column without a valid point, so only its key entry
			 * (the legend stays whole, its colour the setting's)
			 */
			if (g && g->n)
				fprintf(gp, "%s'stall-hist.dat' index %d using %d:xtic(1)",
					s ? ", " : "", p, 2 + s);
			else
				fprintf(gp, "%skeyentry with boxes", s ? ", " : "");
			fprintf(gp, " lc rgb '%s' title \"%s\"", pl_palette[s % pl_npalette],
				pl_quote(q, sizeof(q), c->setting[s]));
		}
		fprintf(gp, "\n");
	}
	pl_end(gp);
	pl_chart_set(&out[0], "stall-hist", "Stalls by allocation order and origin, per "
		     "repetition (mean over repetitions)");
	return 1;
}
