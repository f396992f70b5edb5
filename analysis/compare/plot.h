/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot.h - what the chart files of `compactbench plot` share: the runs laid out as a grid
 * of workload x kernel x setting, one palette for the settings (the same colour for a
 * setting in every chart and in report.html), the stalls of each group read once, and the
 * gnuplot helpers every chart uses. Each chart writes its data to CHART.dat beside
 * CHART.png and CHART.svg, so tests read the plotted values back.
 */
#ifndef CB_PLOT_H
#define CB_PLOT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "runs.h"

#define PL_MAX 32	/* kernels, settings or workloads in one plot */
#define PL_CHART_W 1200 /* pixels: fits a 1280 px page without sideways scrolling */
/* text, in SVG pixels: the sizes pngcairo's 11 and 14 points came out at (96 dpi) */
#define PL_FONT_PX 14
#define PL_TITLE_PX 18

/* one setting's colour (Okabe-Ito: tells settings apart with any colour vision) */
extern const char *const pl_palette[];
extern const size_t pl_npalette;

/* the stalls of a group, every repetition pooled; start is ns since its cell's window */
struct pl_stalls {
	size_t n;
	double *ns;	 /* sorted ascending */
	struct pl_stall {
		double ns, t_s; /* duration; start in seconds since the cell's window began */
		int16_t order;
		uint8_t origin;
		uint8_t rep;	/* index into the group's repetitions */
	} *rec;
	bool read;
};

struct pl_ctx {
	const char *dir;		/* the charts directory */
	struct cb_run_data *runs;
	int nr;
	char kernel[PL_MAX][160];	/* x clusters: "KERNEL", or "RUN:KERNEL" with two runs */
	char setting[PL_MAX][64];	/* in run.json order: palette index = position */
	char workload[PL_MAX][64];
	int krun[PL_MAX];		/* the run and kernel name of each cluster */
	char kname[PL_MAX][64];
	int nk, ns, nw;
	const struct cb_group *grid[PL_MAX][PL_MAX][PL_MAX]; /* [w][k][s], NULL: not run */
	struct pl_stalls stalls[PL_MAX][PL_MAX][PL_MAX];
};

/* a chart the report lists: base name (FILE.png/.svg/.dat) and caption */
struct pl_chart {
	char file[96];
	char title[200];
	char anchor[96];	/* the report's table of contents links here */
	int w, k, s;		/* a timeline's grid cell; -1 for the other charts */
};

/* pl_ctx_init - lay @runs out as the grid; returns 0, or -1 (too many names: message) */
int pl_ctx_init(struct pl_ctx *c, const char *dir, struct cb_run_data *runs, int nr);

/* pl_ctx_free - free the stalls read */
void pl_ctx_free(struct pl_ctx *c);

/* pl_group_stalls - the stalls of grid cell [w][k][s], read from the traces on first use */
const struct pl_stalls *pl_group_stalls(struct pl_ctx *c, int w, int k, int s);

/* pl_median_ci - median and 95% bootstrap CI of metric @m in @g, times @scale (NAN: none) */
void pl_median_ci(const struct cb_group *g, int m, double scale, double *med, double *lo,
		  double *hi);

/* pl_open - fopen @c->dir/@name for writing; NULL with errno */
FILE *pl_open(const struct pl_ctx *c, const char *name);

/* pl_fill_fn - writes a chart's data to @f; returns its panels (0: nothing to draw) */
typedef int (*pl_fill_fn)(struct pl_ctx *c, FILE *f, void *arg);

/*
 * pl_data - a chart's data, built in memory by @fill(@c, f, @arg) first so that a chart
 * with nothing to draw leaves no file, written to @c->dir/@name when it has panels and
 * @max (the charts still allowed) is at least 1. Returns the panels, 0 when there are none
 * or no room (nothing written), or -1 with errno
 */
int pl_data(struct pl_ctx *c, const char *name, int max, pl_fill_fn fill, void *arg);

/* pl_rgb - setting @s's palette colour as 0xRRGGBB, for gnuplot's `lc rgb variable` */
unsigned long pl_rgb(int s);

/* pl_quote - @s made safe inside a gnuplot "..." string of the script into @buf */
const char *pl_quote(char *buf, size_t size, const char *s);

/* pl_layout - rows and columns of a multiplot of @n panels; returns the chart height */
int pl_layout(int n, int *rows, int *cols);

/*
 * pl_terminal - the SVG terminal and output @file.svg of a chart @height high; the PNG is
 * that SVG rasterized (rsvg-convert, plot.c), so both show the same text at the same size
 */
void pl_terminal(FILE *gp, const char *file, int height);

/*
 * pl_begin - the script lines that open chart @file (pl_terminal) of @rows x
 * @cols panels, @height high plus the room of a shared key of @entries at the top, as a
 * multiplot titled @title. Returns the chart's height (for pl_key).
 */
int pl_begin(FILE *gp, const char *file, const char *title, int rows, int cols,
	     int height, int entries);

/* pl_panel_key - the shared key in the first panel (@panel 0), no key in the others */
void pl_panel_key(FILE *gp, int panel, int height);

/* pl_chart_set - @ch is summary chart @file ("chart-FILE" its anchor) captioned @title */
void pl_chart_set(struct pl_chart *ch, const char *file, const char *title);

/* pl_end - close the multiplot and reset what a chart may have set */
void pl_end(FILE *gp);

/* pl_empty_panel - a panel with nothing to draw, saying @why in its middle */
void pl_empty_panel(FILE *gp, const char *title, const char *why);

/*
 * pl_setting_key - the shared key's plot elements: one entry per setting from index @from,
 * in its colour (style @with)
 */
void pl_setting_key(FILE *gp, const struct pl_ctx *c, int from, const char *with);

/* pl_key - the shared key's place: one row under the title of a chart @height high */
void pl_key(FILE *gp, int height);

/* the charts, one file each; each appends what it drew to @out (up to @max), returns how many */
int pl_bars(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max);
int pl_cdf(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max);
int pl_hist(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max);
int pl_cost(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max);
int pl_timeline(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max);
int pl_waves(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max);
int pl_paired(struct pl_ctx *c, FILE *gp, struct pl_chart *out, int max);

/*
 * pl_report_html - the first run's report.html: the verdict and the tables of each run's
 * report.md (rendered by cmark-gfm: HTML tables), a table of contents per kernel and
 * workload, then the @n charts (inline SVG from @c->dir). Returns 0, or -1 with errno.
 */
int pl_report_html(const struct pl_ctx *c, const struct pl_chart *charts, int n);

#define CB_PLOT_MAX_RUNS 16

/* what `compactbench plot` was asked (cmd_plot fills it from argv, `run` by hand) */
struct cb_plot_opts {
	char *const *dirs;	/* the run directories; the first one's report gets the charts */
	int nr_dirs;		/* 1 .. CB_PLOT_MAX_RUNS */
	const char *output;	/* the charts directory; NULL: dirs[0]/charts and the reports */
};

/*
 * cb_plot - draw the charts of @o->dirs with gnuplot into the charts directory and, without
 * @o->output, add them to the first run's report.md and write its report.html. The path of
 * every chart (and of report.html) goes to @out, one a line, unless @out is NULL; progress
 * and problems go to stderr, prefixed "compactbench plot: ". Returns the exit code of the
 * command: 0 drawn, 1 the charts or the report could not be written or drawn, 2 bad input.
 */
int cb_plot(const struct cb_plot_opts *o, FILE *out);

#endif
