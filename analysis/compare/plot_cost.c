// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_cost.c - cost against benefit: one point per (kernel, setting, workload) against the
 * first setting of its kernel and workload (the baseline, `none` in the shipped configs):
 * x the extra background CPU (kcompactd + khugepaged + policy), y the direct-compaction
 * stall time avoided, medians over repetitions. Colour = setting, marker = workload,
 * filled/open = kernel (from the third kernel on, a dot, a plus or a cross inside the open
 * marker); the key says which, so no point carries a label to overlap. The dashed line is
 * the equal exchange rate: 1 ms of background CPU per 1 ms of stall avoided.
 *
 * cost.dat: "workload kernel setting cpu_ms_more stall_ms_avoided pt rgb inner_pt" per point
 * (inner_pt 0: nothing inside).
 */
#include "compare.h"
#include "exchange.h"
#include "plot.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* workload markers: filled, and open = filled - 1 (gnuplot's point types) */
static const int pl_marker[] = { 7, 5, 9, 13, 11, 15 };

/*
 * what tells kernels apart inside a workload's marker from the third kernel on (an A/B of
 * two runs has four): a dot, a plus, a cross drawn in the open marker; then they repeat
 */
static const int pl_inner[] = { 7, 1, 2 };
static const char *const pl_inner_name[] = { "dot", "plus", "cross" };

/* the marker of workload @w on kernel @k: the first kernel filled, the others open */
static int marker(int w, int k)
{
	int pt = pl_marker[w % (int)CB_ARRAY_SIZE(pl_marker)];

	return k ? pt - 1 : pt;
}

/* the point type drawn inside kernel @k's open marker, 0 for none (kernels 0 and 1) */
static int inner(int k)
{
	return k < 2 ? 0 : pl_inner[(k - 2) % (int)CB_ARRAY_SIZE(pl_inner)];
}

/* median of metric @m in @g (NAN without values) */
static double med(const struct cb_group *g, int m)
{
	double v, lo, hi;

	pl_median_ci(g, m, 1, &v, &lo, &hi);
	return v;
}

/* the points; returns how many, *@moved whether one is off (0, 0) */
static int write_points(struct pl_ctx *c, FILE *f, bool *moved)
{
	int mc = CB_M_CPU_BACKGROUND_NS, ms = CB_M_DC_STALL_TOTAL_NS; /* the exchange inputs */
	int n = 0;

	fprintf(f, "# workload kernel setting cpu_ms_more stall_ms_avoided pt rgb inner_pt (against "
		   "the first setting of the kernel and workload)\n");
	for (int w = 0; w < c->nw; w++)
		for (int k = 0; k < c->nk; k++) {
			const struct cb_group *base = NULL;

			for (int s = 0; s < c->ns; s++) {
				const struct cb_group *g = c->grid[w][k][s];
				struct cb_exchange x;
				double cpu, avoided;

				if (!g || !g->n)
					continue;
				if (!base) {
					base = g;
					continue;
				}
				cb_exchange_rate(med(base, mc), med(g, mc), med(base, ms), med(g, ms),
						 &x);
				cpu = x.cpu_more / 1e6;
				avoided = x.stall_avoided / 1e6;
				if (isnan(cpu) || isnan(avoided))
					continue;
				fprintf(f, "%s %s %s %.6g %.6g %d %ld %d\n", c->workload[w],
					c->kernel[k], c->setting[s], cpu, avoided, marker(w, k),
					strtol(pl_palette[s % pl_npalette] + 1, NULL, 16), inner(k));
				*moved |= cpu != 0 || avoided != 0;
				n++;
			}
		}
	return n;
}

/* the key: settings by colour, workloads by marker, kernels by filled/open, the line */
static void cost_key(FILE *gp, const struct pl_ctx *c)
{
	char q[200];

	pl_setting_key(gp, c, 1, "points pt 7 ps 2"); /* the first is the baseline */
	for (int w = 0; w < c->nw; w++)
		fprintf(gp, ", NaN with points pt %d ps 2 lc rgb '#444444' title \"%s\"",
			marker(w, 0), pl_quote(q, sizeof(q), c->workload[w]));
	for (int k = 0; k < c->nk && c->nk > 1; k++) {
		char how[32];

		if (k < 2)
			snprintf(how, sizeof(how), "%s", k ? "open" : "filled");
		else
			snprintf(how, sizeof(how), "open, %s inside",
				 pl_inner_name[(k - 2) % (int)CB_ARRAY_SIZE(pl_inner)]);
		fprintf(gp, ", NaN with points pt %d ps %s lc rgb '#444444' title \"%s: %s\"",
			k < 2 ? marker(0, k) : inner(k), k < 2 ? "2" : "1", how,
			pl_quote(q, sizeof(q), c->kernel[k]));
	}
}

int pl_cost(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max)
{
	static const char title[] = "Background CPU spent against direct-compaction stall time "
				    "avoided (medians, against the first setting)";
	FILE *f = pl_open(c, "cost.dat");
	bool moved = false;
	int n;

	if (!f || max < 1) {
		if (f)
			fclose(f);
		return -1;
	}
	n = write_points(c, f, &moved);
	fclose(f);
	pl_terminal(gp, "cost", 700);
	/* one panel, its right third for the key: no key entry over a point */
	fprintf(gp, "set tmargin at screen 0.9\nset bmargin at screen 0.1\nset lmargin at "
		    "screen 0.08\nset rmargin at screen 0.66\nset label 98 \"%s\" at screen "
		    "0.5,0.96 center font ',%d'\nset key at screen 0.68,0.9 left top vertical "
		    "Left reverse spacing 1.3 width 1\n", title, PL_TITLE_PX);
	/* room around the outermost points: a marker on the border is cut in half */
	fprintf(gp, "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n");
	fprintf(gp, "set xzeroaxis lt -1\nset yzeroaxis lt -1\nset grid xtics ytics lc rgb "
		    "'#dddddd'\nset xlabel 'extra background CPU: kcompactd + khugepaged + "
		    "policy (ms)'\nset ylabel 'direct-compaction stall time avoided (ms)'\n");
	if (!n) {
		pl_empty_panel(gp, "", "no setting with CPU and stall figures to set against "
			       "its baseline");
	} else {
		if (!moved)
			fprintf(gp, "set xrange [-1:1]\nset yrange [-1:1]\nset label 1 \"no "
				    "stalls avoided, no CPU spent\" at graph 0.5,0.25 center\n");
		fprintf(gp, "plot ");
		cost_key(gp, c);
		fprintf(gp, ", x with lines dt 2 lw 1.5 lc rgb '#444444' title 'equal exchange "
			    "rate (1:1)', 'cost.dat' using 4:5:6:7 with "
			    "points pt variable ps 2 lw 2 lc rgb variable notitle, 'cost.dat' using "
			    "4:($8 > 0 ? $5 : NaN):8:7 with points pt variable ps 1 lw 2 lc rgb "
			    "variable notitle\n");
	}
	fprintf(gp, "unset output\n");
	{
		char cap[200];

		snprintf(cap, sizeof(cap), "%s: above the dashed line a setting avoided more stall "
			 "time than it spent in background CPU", title);
		pl_chart_set(&out[0], "cost", cap);
	}
	return 1;
}
