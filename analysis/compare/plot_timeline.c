// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_timeline.c - a timeline per group, drawn from its median cell (the repetition whose
 * stall time is the median): the free blocks of order 9 and above and the free memory at
 * the kernel demand's orders (1-4) over time from samples.csv, the measurement window
 * marked, the waves of recurring demand shaded (summary.json's waves series); below it
 * each direct-compaction stall as a tick whose height is its duration; below that one lane
 * per attribution that ran compaction, each run a box from its begin to its end
 * (summary.json's compaction_runs), in the colour of its attribution.
 *
 * timeline-N.dat: block 0 "t_s free_2m_blocks free_o1_4_mib" per sample; block 1 "t_s
 * stall_ms" per stall; block 2 "start_s end_s" per wave; block 3 "lane start_s end_s" per
 * compaction run; seconds since the window began.
 */
#include "compare.h"
#include "cruns_json.h"
#include "xalloc.h"
#include "plot.h"
#include "runjson.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * the colour of compaction work by where it came from, per lane of cruns.h (named by
 * cb_lane_names); the timeline shows the lanes that have runs
 */
static const char *const lane_rgb[CB_LANE_NR] = {
	[CB_LANE_DIRECT] = "#D55E00",
	[CB_LANE_KCOMPACTD] = "#0072B2",
	[CB_LANE_PROACTIVE] = "#009E73",
	[CB_LANE_DEMAND] = "#CC79A7",
	[CB_LANE_KHUGEPAGED] = "#888888",	/* grey: sky blue is the waves' */
	[CB_LANE_MANUAL] = "#000000",
	[CB_LANE_POLICY] = "#E69F00",
};

#define MAX_ORDERS 11
#define MAX_WAVES 2000		/* as the analyzer keeps (analysis/core/waves.h) */
#define WAVE_RGB "#56B4E9"	/* Okabe-Ito sky blue, a colour no setting line uses here */

/* the waves of the drawn cell, seconds since the window began */
struct tl_waves {
	double start[MAX_WAVES], end[MAX_WAVES];
	int n;
};

/* the cell's window start (meta.json), 0 if unknown */
static uint64_t window_start(const char *cell_dir, double *len_s)
{
	uint64_t start, end;

	*len_s = NAN;
	if (cb_meta_window(cell_dir, &start, &end) < 0)
		return 0;
	*len_s = (double)(end - start) / 1e9;
	return start;
}

/* one sample line of @pages per order into @f, at @t ns */
static void put_sample(FILE *f, uint64_t t, uint64_t t0, const double *pages, double *xmin,
		       double *xmax)
{
	double big = 0, small = 0, x = ((double)t - (double)t0) / 1e9;

	for (int o = 9; o < MAX_ORDERS; o++)
		big += pages[o] * (double)(1 << (o - 9));
	for (int o = 1; o <= 4; o++)
		small += pages[o] * (double)(1 << o) * 4096 / (1 << 20);
	fprintf(f, "%.3f %.6g %.6g\n", x, big, small);
	*xmin = fmin(*xmin, x);
	*xmax = fmax(*xmax, x);
}

/*
 * samples.csv (t_ns,node,zone,present,score,weighted,node_score,o0..o10), summed over zones
 * per sample time, into @f; returns the samples written
 */
static int write_samples(FILE *f, const char *cell_dir, uint64_t *t0p, double *xmin,
			 double *xmax)
{
	uint64_t t0 = *t0p;
	char path[PATH_MAX], line[1024];
	double pages[MAX_ORDERS] = { 0 };
	unsigned long long cur = 0;
	int n = 0, have = 0;
	FILE *in;

	if (cb_path(path, sizeof(path), "%s/samples.csv", cell_dir) < 0 || !(in = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), in)) {
		char *tok, *save = NULL;
		unsigned long long t;
		int col = 0;

		if (!isdigit((unsigned char)line[0]))
			continue; /* the header */
		t = strtoull(line, NULL, 10);
		if (!t0)
			*t0p = t0 = t; /* no window: time from the first sample */
		if (have && t != cur) {
			put_sample(f, cur, t0, pages, xmin, xmax);
			memset(pages, 0, sizeof(pages));
			n++;
		}
		cur = t;
		have = 1;
		for (tok = strtok_r(line, ",", &save); tok; tok = strtok_r(NULL, ",", &save), col++)
			if (col >= 7 && col < 7 + MAX_ORDERS)
				pages[col - 7] += strtod(tok, NULL);
	}
	if (have) {
		put_sample(f, cur, t0, pages, xmin, xmax);
		n++;
	}
	fclose(in);
	return n;
}

/* the cell's summary.json, checked (runjson.h); NULL, said on stderr, when it is bad */
static struct json_object *load_summary(const char *cell_dir)
{
	char path[PATH_MAX], err[1024];
	struct json_object *sum;

	if (cb_path(path, sizeof(path), "%s/summary.json", cell_dir) < 0)
		return NULL;
	sum = cb_summary_json_load(path, err, sizeof(err));
	if (!sum && errno != ENOENT)
		fprintf(stderr, "compactbench plot: %s: the timeline has no waves and no runs\n",
			err);
	return sum;
}

/*
 * the waves of summary.json's "waves" series (start_ns, end_ns) into @f and @w, as seconds
 * since @t0; a wave with a missing or reversed time is left out. Returns the waves kept.
 */
static int write_waves(FILE *f, struct json_object *sum, uint64_t t0, struct tl_waves *w)
{
	struct json_object *waves, *series, *a, *b;

	w->n = 0;
	if (sum && json_object_object_get_ex(sum, "waves", &waves) &&
	    json_object_object_get_ex(waves, "series", &series) &&
	    json_object_is_type(series, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(series) && w->n < MAX_WAVES; i++) {
			struct json_object *e = json_object_array_get_idx(series, i);
			int64_t s0, s1;

			if (!json_object_object_get_ex(e, "start_ns", &a) ||
			    !json_object_object_get_ex(e, "end_ns", &b))
				continue;
			s0 = json_object_get_int64(a);
			s1 = json_object_get_int64(b);
			if (s0 <= 0 || s1 < s0)
				continue;
			w->start[w->n] = ((double)s0 - (double)t0) / 1e9;
			w->end[w->n] = ((double)s1 - (double)t0) / 1e9;
			fprintf(f, "%.6f %.6f\n", w->start[w->n], w->end[w->n]);
			w->n++;
		}
	}
	return w->n;
}

/*
 * the compaction runs of summary.json (@sum, checked by its loader) into @f as "lane
 * start_s end_s" and into @cr, moved from the section's window start to the chart's @t0
 * (@windowed: with no window the stalls and the runs both count from the trace's first
 * event, so they are left as they are). Returns the runs written.
 */
static int write_runs(FILE *f, struct json_object *sum, uint64_t t0, bool windowed,
		      struct cb_cruns_in *cr, double *xmin, double *xmax)
{
	char err[512];
	double off;
	int n = 0;

	if (!sum || cb_cruns_read("summary.json", sum, cr, err, sizeof(err)) < 0 || !cr->present) {
		memset(cr, 0, sizeof(*cr));
		return 0;
	}
	off = windowed ? ((double)cr->window_start_ns - (double)t0) / 1e9 : 0;
	for (int l = 0; l < CB_LANE_NR; l++)
		for (int i = 0; i < cr->lane[l].n; i++) {
			double a = cr->lane[l].start[i] + off, b = cr->lane[l].end[i] + off;

			cr->lane[l].start[i] = a;
			cr->lane[l].end[i] = b;
			fprintf(f, "%s %.9f %.9f\n", cb_lane_names[l], a, b);
			*xmin = fmin(*xmin, a);
			*xmax = fmax(*xmax, b);
			n++;
		}
	return n;
}

/* the waves as shaded rectangles behind the next plot (one gnuplot object each) */
static void shade_waves(FILE *gp, const struct tl_waves *w)
{
	for (int i = 0; i < w->n; i++)
		fprintf(gp, "set object %d rect from %g, graph 0 to %g, graph 1 behind fc rgb '%s' "
			    "fs transparent solid 0.2 noborder\n", i + 1, w->start[i], w->end[i],
			WAVE_RGB);
}

/* the repetition of @g whose stall time is closest to the group's median */
static size_t median_rep(const struct cb_group *g)
{
	int m = CB_M_DC_STALL_TOTAL_NS;
	double med, lo, hi, best = INFINITY;
	size_t r = 0;

	pl_median_ci(g, m, 1, &med, &lo, &hi);
	for (size_t i = 0; i < g->n && m >= 0; i++)
		if (!isnan(g->val[m][i]) && fabs(g->val[m][i] - med) < best) {
			best = fabs(g->val[m][i] - med);
			r = i;
		}
	return r;
}

/* whether @cell_dir has a trace.dat: without one, no stall record is not "no stall" */
static bool has_trace(const char *cell_dir)
{
	char path[PATH_MAX];

	return cb_path(path, sizeof(path), "%s/trace.dat", cell_dir) == 0 && access(path, F_OK) == 0;
}

/*
 * what the stall panel says when it has no stall record: a cell with no trace.dat whose
 * summary counts stalls had them, only not here to draw
 */
static const char *no_stall_label(const struct cb_group *g, size_t rep)
{
	int m = CB_M_DC_STALLS;

	if (!has_trace(g->cell_dir[rep]) && m >= 0 && !(g->val[m][rep] == 0))
		return "no trace.dat in this cell";
	return "no direct-compaction stall";
}

/*
 * the runs panel: one lane per attribution with runs (top to bottom in cruns.h's order),
 * each run a box from its begin to its end; a lane the analyzer thinned says in the title
 * how many of its runs are shown
 */
static void draw_runs(FILE *gp, const char *file, const struct cb_cruns_in *cr, int nruns,
		      const char *why)
{
	int lanes[CB_LANE_NR], nl = 0, thin = 0;

	/* the lane names are the y axis: no label beside them, a size that fits the margin */
	fprintf(gp, "set xlabel '%s'\nunset ylabel\nset ytics font ',%d'\n", why,
		PL_FONT_PX - 1);
	fprintf(gp, "set title 'compaction runs by attribution (box = begin .. end of a run)");
	for (int l = 0; l < CB_LANE_NR; l++) {
		if (cr->lane[l].n)
			lanes[nl++] = l;
		if (cr->lane[l].dropped)
			fprintf(gp, "%s %s %d of %llu", thin++ ? "," : "; shown, evenly spread:",
				cb_lane_names[l], cr->lane[l].n,
				(unsigned long long)(cr->lane[l].n + cr->lane[l].dropped));
	}
	fprintf(gp, "'\n");
	if (!nruns) {
		fprintf(gp, "set label 1 '%s' at graph 0.5,0.5 center\nset ytics ('' 0)\n"
			    "plot [][-0.5:0.5] NaN notitle\nunset label 1\n", cr->present ?
			"no compaction run began in the window" : "no compaction_runs in "
			"summary.json (analyzed before they were kept: re-run analyze)");
		return;
	}
	/* the first lane on top: lane j of nl at height nl - 1 - j */
	fprintf(gp, "unset grid\nset yrange [-0.6:%g]\nset ytics (", nl - 0.4);
	for (int j = 0; j < nl; j++)
		fprintf(gp, "%s'%s' %d", j ? ", " : "", cb_lane_names[lanes[j]], nl - 1 - j);
	fprintf(gp, ")\nplot ");
	for (int j = 0; j < nl; j++)
		fprintf(gp, "%s'%s.dat' index 3 using ((strcol(1) eq '%s') ? ($2 + $3) / 2 : NaN):"
			    "(%d):(($3 - $2) / 2):(0.35) with boxxyerror fs solid 0.6 border lc "
			    "rgb '%s' lc rgb '%s' notitle", j ? ", " : "", file,
			cb_lane_names[lanes[j]], nl - 1 - j, lane_rgb[lanes[j]], lane_rgb[lanes[j]]);
	fprintf(gp, "\n");
}

/* the three panels of one timeline */
static void draw(FILE *gp, const char *file, const char *title, double win_s,
		 size_t nsamples, size_t nstalls, const char *no_stall, const struct tl_waves *w,
		 const struct cb_cruns_in *cr, int nruns, double xmin, double xmax)
{
	pl_key(gp, pl_begin(gp, file, title, 3, 1, 820, 3));
	/*
	 * the panels on one time axis; with no window, no sample and no stall there is no
	 * time to show, and gnuplot refuses an axis drawn from nothing but NaN
	 */
	if (xmax > xmin)
		fprintf(gp, "set xrange [%g:%g]\n", xmin, xmax);
	else
		fprintf(gp, "set xrange [0:1]\n");
	fprintf(gp, "set ylabel 'free 2 MiB blocks'\n"
		    "set y2label 'free MiB, orders 1-4' offset -1.5,0\n" /* else past the edge */
		    "set y2tics\nset ytics nomirror\nset yrange [0:*]\nset y2range [0:*]\n"
		    "unset xlabel\nset title 'free memory'\n");
	if (!isnan(win_s))
		fprintf(gp, "set arrow 1 from 0, graph 0 to 0, graph 1 nohead dt 2 lc rgb '#666666'\n"
			    "set arrow 2 from %g, graph 0 to %g, graph 1 nohead dt 2 lc rgb '#666666'\n",
			win_s, win_s);
	shade_waves(gp, w);
	if (!nsamples) {
		fprintf(gp, "set label 1 'no samples.csv in this cell' at graph 0.5,0.5 center\n"
			    "plot [][0:1] NaN notitle\nunset label 1\n");
		goto stalls;
	}
	fprintf(gp, "plot '%s.dat' index 0 using 1:2 with lines lw 2 lc rgb '#0072B2' title "
		    "'free blocks of order >= 9 (2 MiB units)', '' index 0 using 1:3 axes x1y2 "
		    "with lines lw 2 lc rgb '#E69F00' title 'free MiB at orders 1-4'%s", file,
		isnan(win_s) ? "" : ", NaN with lines dt 2 lc rgb '#666666' title 'measurement "
		"window'");
	if (w->n)
		fprintf(gp, ", NaN with boxes fs transparent solid 0.2 noborder fc rgb '%s' "
			    "title 'demand waves'", WAVE_RGB);
	fprintf(gp, "\n");
stalls:
	fprintf(gp, "unset y2tics\nunset y2label\nunset key\nset ylabel 'stall (ms)'\n"
		    "set title 'direct-compaction stalls (tick height = duration)'\n");
	if (!nstalls)
		fprintf(gp, "set label 1 '%s' at graph 0.5,0.5 center\n"
			    "plot [][0:1] NaN notitle\nunset label 1\n", no_stall);
	else
		fprintf(gp, "plot '%s.dat' index 1 using 1:2 with impulses lw 2 lc rgb '%s' "
			    "title '%s'\n", file, lane_rgb[CB_LANE_DIRECT], cb_lane_names[CB_LANE_DIRECT]);
	fprintf(gp, "unset arrow\nunset object\n");
	draw_runs(gp, file, cr, nruns, isnan(win_s) ? "seconds (no window in meta.json: "
		  "samples, stalls and runs each from their first)" : "seconds since the window "
		  "began");
	pl_end(gp);
}

/* the timeline of grid cell (w, k, s) as chart @out; returns 1, 0 if none, -1 on error */
static int timeline(struct pl_ctx *c, FILE *gp, int w, int k, int s, int idx,
		    struct pl_chart *out)
{
	const struct cb_group *g = c->grid[w][k][s];
	const struct pl_stalls *ps;
	struct json_object *sum;
	struct cb_cruns_in *cr;
	struct tl_waves *wv;
	char name[128], q[300];
	size_t rep, nst = 0, nsamples;
	int nruns;
	double win_s, xmin = INFINITY, xmax = -INFINITY;
	uint64_t t0;
	FILE *f;

	if (!g || !g->n)
		return 0;
	wv = calloc(1, sizeof(*wv));
	cr = calloc(1, sizeof(*cr));
	if (!wv || !cr)
		cb_oom();
	ps = pl_group_stalls(c, w, k, s);
	rep = median_rep(g);
	t0 = window_start(g->cell_dir[rep], &win_s);
	snprintf(out->file, sizeof(out->file), "timeline-%d", idx);
	snprintf(name, sizeof(name), "%s.dat", out->file);
	f = pl_open(c, name);
	if (!f) {
		free(wv);
		free(cr);
		return -1;
	}
	fprintf(f, "# %s %s %s repetition %ld (the median stall time of %zu)\n", c->workload[w],
		c->kernel[k], c->setting[s], g->rep[rep], g->n);
	nsamples = write_samples(f, g->cell_dir[rep], &t0, &xmin, &xmax);
	if (!nsamples)
		fprintf(f, "NaN NaN NaN\n");
	fprintf(f, "\n\n");
	for (size_t i = 0; i < ps->n; i++)
		if (ps->rec[i].rep == rep) {
			fprintf(f, "%.6f %.6g\n", ps->rec[i].t_s, ps->rec[i].ns / 1e6);
			xmin = fmin(xmin, ps->rec[i].t_s);
			xmax = fmax(xmax, ps->rec[i].t_s + ps->rec[i].ns / 1e9);
			nst++;
		}
	if (!nst)
		fprintf(f, "NaN NaN\n");
	fprintf(f, "\n\n");
	sum = load_summary(g->cell_dir[rep]);
	if (!write_waves(f, sum, t0, wv))
		fprintf(f, "NaN NaN\n");
	fprintf(f, "\n\n");
	nruns = write_runs(f, sum, t0, !isnan(win_s), cr, &xmin, &xmax);
	if (!nruns)
		fprintf(f, "none NaN NaN\n");
	json_object_put(sum);
	fclose(f);
	snprintf(out->title, sizeof(out->title), "Timeline of %s on %s, setting %s (repetition "
		 "%ld, the median stall time)", c->workload[w], c->kernel[k], c->setting[s],
		 g->rep[rep]);
	snprintf(out->anchor, sizeof(out->anchor), "timeline-%d", idx);
	out->w = w;
	out->k = k;
	out->s = s;
	if (!isnan(win_s)) {
		xmin = fmin(xmin, 0);
		xmax = fmax(xmax, win_s);
	}
	draw(gp, out->file, pl_quote(q, sizeof(q), out->title), win_s, nsamples, nst,
	     no_stall_label(g, rep), wv, cr, nruns, xmin, xmax);
	free(wv);
	free(cr);
	return 1;
}

int pl_timeline(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max)
{
	int n = 0;

	for (int w = 0; w < c->nw; w++)
		for (int k = 0; k < c->nk; k++)
			for (int s = 0; s < c->ns && n < max; s++) {
				int r = timeline(c, gp, w, k, s, n, &out[n]);

				if (r < 0)
					return -1;
				n += r;
			}
	return n;
}
