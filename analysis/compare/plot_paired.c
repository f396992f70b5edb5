// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_paired.c - the comparison paired by saved state, drawn: for each (workload, kernel)
 * whose settings started from the same saved guests (guest_state = saved), each setting's
 * stall time minus the first setting's from the same state, a point per state, with the
 * median difference as a bar and "N of M less" above (from N of the M states it had less).
 * The unpaired bar chart shows each side's spread; this one shows what the paired test
 * judges: whether the difference has the same sign from every state. Runs without saved
 * states get no such chart (and lose the one an earlier plot of the directory drew). The
 * first setting is the first of the plot's settings (the first run's order) that the panel
 * has, as compare's baseline is within one run; two runs never pair (a state's id is drawn
 * anew for each save).
 *
 * paired.dat: one block per panel ("# workload kernel baseline", then per state and
 * setting "x diff_ms setting colour state" with x the setting's position, jittered per
 * state), and after each panel's block one of medians ("x median_ms setting colour").
 */
#include "compare.h"
#include "plot.h"
#include "stats.h"
#include "util.h"
#include "verdict.h"
#include "xalloc.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define METRIC CB_M_DC_STALL_TOTAL_NS

/* one candidate setting of a panel, paired with the panel's baseline */
struct pair_col {
	int s;			/* the setting's index (its colour) */
	size_t n, less;		/* states, and states where it had less than the baseline */
	double median_ms;
};

struct panel {
	char title[200], base[64];
	struct pair_col col[PL_MAX];
	int ncol;
};

/* the values of @g's metric and their states (NULL: no value); returns how many */
static size_t group_values(const struct cb_group *g, double **v, const char ***st)
{
	*v = cb_xcalloc(g->n + 1, sizeof(**v));
	*st = cb_xcalloc(g->n + 1, sizeof(**st));
	return cb_group_values_states(g, METRIC, *v, *st);
}

/*
 * the paired differences of @cand against @base (ms) into @d, state names into @names;
 * returns how many, 0 when the two do not pair one to one by state (cb_states_match)
 */
static size_t pair_diffs(const struct cb_group *base, const struct cb_group *cand, double *d,
			 const char **names)
{
	double *a, *b;
	const char **sa, **sb;
	size_t na = group_values(base, &a, &sa), nb = group_values(cand, &b, &sb), n = 0;
	size_t *idx = cb_xcalloc(na + 1, sizeof(*idx));

	if (cb_states_match(sa, na, sb, nb, idx))
		for (n = 0; n < na; n++) {
			d[n] = (b[idx[n]] - a[n]) / 1e6;
			names[n] = sa[n];	/* g->state's strings: live as long as the run */
		}
	free(idx);
	free(a);
	free(b);
	free(sa);
	free(sb);
	return n;
}

/*
 * the panel of workload @w on kernel @k into @p and its data into @f (unless NULL); false
 * when no setting pairs
 */
static bool write_panel(const struct pl_ctx *c, FILE *f, int w, int k, struct panel *p)
{
	const struct cb_group *base = NULL;
	char *buf = NULL;
	size_t blen = 0;
	FILE *pts = open_memstream(&buf, &blen);
	int b = -1;

	if (!pts)
		cb_oom();
	for (int s = 0; s < c->ns && !base; s++)
		if (c->grid[w][k][s] && c->grid[w][k][s]->n) {
			base = c->grid[w][k][s];
			b = s;
		}
	p->ncol = 0;
	for (int s = b + 1; base && s < c->ns; s++) {
		const struct cb_group *g = c->grid[w][k][s];
		double *d;
		const char **names;
		size_t n;

		if (!g || !g->n)
			continue;
		d = cb_xcalloc(base->n + 1, sizeof(*d));
		names = cb_xcalloc(base->n + 1, sizeof(*names));
		n = pair_diffs(base, g, d, names);
		if (n) {
			struct pair_col *col = &p->col[p->ncol++];

			col->s = s;
			col->n = n;
			col->less = 0;
			for (size_t i = 0; i < n; i++) {
				/* spread the states over a third of a setting's slot */
				double x = p->ncol + (n > 1 ? 0.3 * ((double)i / (n - 1) - 0.5) : 0);

				fprintf(pts, "%.4f %.6g %d %lu \"%s\"\n", x, d[i], s, pl_rgb(s),
					names[i]);
				col->less += d[i] < 0;
			}
			col->median_ms = cb_stats_median(d, n);
		}
		free(d);
		free(names);
	}
	fclose(pts);
	if (p->ncol) {
		snprintf(p->title, sizeof(p->title), "%s on %s", c->workload[w], c->kernel[k]);
		snprintf(p->base, sizeof(p->base), "%s", c->setting[b]);
	}
	if (p->ncol && f) {
		fprintf(f, "# %s %s %s\n%s\n\n", c->workload[w], c->kernel[k], c->setting[b], buf);
		for (int i = 0; i < p->ncol; i++)
			fprintf(f, "%d %.6g %d %lu\n", i + 1, p->col[i].median_ms, p->col[i].s,
				pl_rgb(p->col[i].s));
		fprintf(f, "\n\n");
	}
	free(buf);
	return p->ncol > 0;
}

/* paired.dat (pl_fill_fn; @arg: the panels); returns the panels */
static int write_data(struct pl_ctx *c, FILE *f, void *arg)
{
	struct panel *p = arg;
	int n = 0;

	fprintf(f, "# stall time minus the first setting's from the same saved state (ms)\n"
		   "# points: x diff_ms setting colour state; then medians: x median_ms setting "
		   "colour\n");
	for (int w = 0; w < c->nw; w++)
		for (int k = 0; k < c->nk; k++) {
			struct panel extra;

			if (n < PL_MAX)
				n += write_panel(c, f, w, k, &p[n]);
			else if (write_panel(c, NULL, w, k, &extra))
				fprintf(stderr, "compactbench plot: paired.png: more than %d panels; "
					"%s is not drawn (compare has it)\n", PL_MAX, extra.title);
		}
	return n;
}

int pl_paired(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max)
{
	static const char title[] = "Stall time minus the first setting's from the same saved "
				    "guest: a point per state";
	static struct panel panels[PL_MAX];
	int n, rows, cols, height;
	char q[200];

	n = pl_data(c, "paired.dat", max, write_data, panels);
	if (n < 0)
		return -1;
	if (!n) {
		/* nothing started from saved states: no chart, and none left from before */
		for (size_t i = 0; i < 3; i++) {
			static const char *const ext[] = { "dat", "svg", "png" };
			char path[PATH_MAX];

			if (cb_path(path, sizeof(path), "%s/paired.%s", c->dir, ext[i]) == 0)
				unlink(path);
		}
		return 0;
	}
	height = pl_layout(n, &rows, &cols);
	pl_begin(gp, "paired", title, rows, cols, height, 0);
	/* the top offset leaves room for the "N of M less" labels; 0 is always in range */
	fprintf(gp, "unset key\nset offsets 0, 0, graph 0.15, graph 0.05\n");
	for (int p = 0; p < n; p++) {
		struct panel *pn = &panels[p];

		fprintf(gp, "set title \"%s\"\n", pl_quote(q, sizeof(q), pn->title));
		fprintf(gp, "set ylabel \"stall time minus %s's (ms)\"\n",
			pl_quote(q, sizeof(q), pn->base));
		fprintf(gp, "set xrange [0.4:%.1f]\nset xtics (", pn->ncol + 0.6);
		for (int i = 0; i < pn->ncol; i++)
			fprintf(gp, "%s\"%s\" %d", i ? ", " : "",
				pl_quote(q, sizeof(q), c->setting[pn->col[i].s]), i + 1);
		fprintf(gp, ")\n");
		for (int i = 0; i < pn->ncol; i++)
			fprintf(gp, "set label %d \"%zu of %zu less\" at %d, graph 0.95 center\n",
				i + 1, pn->col[i].less, pn->col[i].n, i + 1);
		fprintf(gp, "plot 'paired.dat' index %d using 1:2:4 with points pt 7 ps 1.2 lc rgb "
			    "variable, '' index %d using ($1-0.25):2:(0.5):(0):4 with vectors "
			    "nohead lw 3 lc rgb variable, 0 with lines lt -1 lw 1.5\n", 2 * p,
			2 * p + 1);
		fprintf(gp, "unset label\n");
	}
	pl_end(gp);
	pl_chart_set(&out[0], "paired", "Paired by saved state: each setting's stall time minus "
		     "the first setting's from the same saved guest, a point per state, the bar "
		     "the median; \"N of M less\": from how many states it had less stall time");
	return 1;
}
