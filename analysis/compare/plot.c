/*
 * plot.c - `compactbench plot`: gnuplot charts of one or more runs.
 *
 * Each chart (plot_bars.c, plot_cdf.c, plot_cost.c, plot_timeline.c, plot_waves.c,
 * plot_paired.c) writes its data to CHART.dat and its drawing to one script, run as
 * `gnuplot plot.gp` in the charts directory with execvp: no shell line is ever built from
 * names. Each chart is drawn as SVG and
 * rasterized to PNG (rsvg-convert); report.md gets a Charts section and report.html
 * (report_html.c) the verdict, the tables and the charts.
 */
#include "cmd_opt.h"
#include "compare.h"
#include "plot.h"
#include "xalloc.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_RUNS CB_PLOT_MAX_RUNS
#define MAX_CHARTS (16 + PL_MAX * PL_MAX)

/* the charts, in the order the report shows them: a new kind of chart is one row */
static int (*const chart_fns[])(struct pl_ctx *, FILE *, struct pl_chart *, int) = {
	pl_bars, pl_paired, pl_cdf, pl_hist, pl_cost, pl_waves, pl_timeline,
};

/* the data files and the script; returns the charts written to @out, or -1 with errno */
static int write_files(struct pl_ctx *c, struct pl_chart *out, int max)
{
	FILE *gp = pl_open(c, "plot.gp");
	int n = 0;

	if (!gp)
		return -1;
	for (size_t i = 0; i < CB_ARRAY_SIZE(chart_fns); i++) {
		int r = chart_fns[i](c, gp, out + n, max - n);

		if (r < 0) {
			fclose(gp);
			return -1;
		}
		n += r;
	}
	if (fclose(gp))
		return -1;
	return n;
}

/*
 * run @argv in @dir with its stderr into @dir/@log (@flags: O_TRUNC or O_APPEND): fork,
 * chdir, execvp; no shell. 0 if it exited 0, else -1 and a message naming the log (and,
 * if it could not be run, the Debian package @pkg that has it)
 */
static int run_in(const char *dir, const char *log_name, int flags, const char *pkg,
		  char *const argv[])
{
	char log[PATH_MAX];
	pid_t pid;
	int st, fd;

	if (cb_path(log, sizeof(log), "%s/%s", dir, log_name) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		fd = open(log, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644);
		if (fd < 0 || chdir(dir) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execvp(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		bool missing = WIFEXITED(st) && WEXITSTATUS(st) == 127;

		fprintf(stderr, "compactbench plot: %s failed (exit %d); see %s%s%s%s\n", argv[0],
			WIFEXITED(st) ? WEXITSTATUS(st) : -1, log,
			missing ? " (not installed? it is in Debian's " : "", missing ? pkg : "",
			missing ? ", which run.sh installs)" : "");
		return -1;
	}
	return 0;
}

/*
 * each chart's SVG to its PNG with rsvg-convert (librsvg): the PNG is the SVG's picture, so
 * what report.html's overlap test measures in the SVG is what a reader sees in the PNG
 */
static int rasterize(const char *dir, const struct pl_chart *ch, int n)
{
	char svg[PATH_MAX], png[PATH_MAX], width[16];

	snprintf(width, sizeof(width), "%d", PL_CHART_W);
	for (int i = 0; i < n; i++) {
		char *argv[] = { "rsvg-convert", "--background-color=white", "-w", width, "-o",
				 png, svg, NULL };

		if (cb_path(svg, sizeof(svg), "%s.svg", ch[i].file) < 0 ||
		    cb_path(png, sizeof(png), "%s.png", ch[i].file) < 0 ||
		    run_in(dir, "rsvg-convert.log", i ? O_APPEND : O_TRUNC, "librsvg2-bin",
			   argv) < 0)
			return -1;
	}
	return 0;
}

static const char charts_marker[] = "\n## Charts\n";

/* report.md with a fresh Charts section (the analyzer writes the rest of it) */
static int update_report_md(const char *run_dir, const char *rel, const struct pl_chart *ch,
			    int n)
{
	char path[PATH_MAX], *old, *cut;
	size_t len = 0;
	char *buf = NULL;
	FILE *f;
	int ret;

	if (cb_path(path, sizeof(path), "%s/report.md", run_dir) < 0)
		return -1;
	old = cb_read_file(path, NULL);
	f = open_memstream(&buf, &len);
	if (!f)
		cb_oom();	/* open_memstream fails only for want of memory */
	if (old) {
		cut = strstr(old, charts_marker);
		if (cut)
			*cut = '\0';
		fputs(old, f);
	}
	fputs(charts_marker, f);
	fprintf(f, "\nreport.html has the same charts with the tables; each chart's numbers are in "
		   "`%s/CHART.dat`.\n", rel);
	for (int i = 0; i < n; i++) {
		if (!strncmp(ch[i].file, "timeline-", 9))
			fprintf(f, "%s- [%s](%s/%s.png)\n", strcmp(ch[i].file, "timeline-0") ? "" :
				"\nTimelines, the median cell of each group:\n\n", ch[i].title, rel,
				ch[i].file);
		else
			fprintf(f, "\n![%s](%s/%s.png)\n", ch[i].title, rel, ch[i].file);
	}
	fclose(f);
	ret = cb_write_file_atomic(path, buf, len);
	free(old);
	free(buf);
	return ret;
}

static const char usage[] =
	"usage: compactbench plot DIR [DIR...] [-o CHARTS_DIR]\n"
	"\n"
	"Draw, with gnuplot, the charts of one or more runs into DIR/charts (or CHARTS_DIR):\n"
	"small multiples (a panel per workload, a cluster per kernel, a bar per setting, the\n"
	"median and its 95% CI) of stalls, stall time, p99, THP success and stalls per 1000\n"
	"allocations; the stall-latency CDF per workload; stalls by order and origin; cost\n"
	"against benefit; the learning curve of recurring demand (stall time per wave, when\n"
	"the cells recorded waves); the comparison paired by saved state (each setting's stall\n"
	"time minus the first setting's from the same saved guest, a point per state, when\n"
	"cells started from saved states); a timeline of the median cell of each group. Each\n"
	"as SVG and as that SVG rasterized to PNG (rsvg-convert), with its numbers in\n"
	"CHART.dat.\n"
	"Adds a Charts section to the first DIR's report.md and writes its report.html:\n"
	"verdict, tables, table of contents, charts (inline SVG).\n"
	"\n"
	"Exit: 0 drawn, 1 the charts or the report could not be written or drawn, 2 bad input.\n";

/* the options, once: getopt's tables (cmd_opt.h); the usage's synopsis says what they do */
static const struct cb_opt plot_opts[] = {
	{ "output", 'o', "CHARTS_DIR", NULL },
	{ "help", 'h', NULL, NULL },
};

int cb_plot(const struct cb_plot_opts *o, FILE *out)
{
	struct cb_run_data runs[MAX_RUNS];
	char dir[PATH_MAX];
	struct pl_chart *charts = NULL;
	struct pl_ctx *ctx = NULL;
	int nr = 0, rc = 1, n;

	if (o->nr_dirs < 1 || o->nr_dirs > MAX_RUNS)
		return 2;
	if (cb_runs_load_all(o->dirs, o->nr_dirs, runs, "plot") < 0)
		return 2;
	nr = o->nr_dirs;
	if ((o->output ? cb_path(dir, sizeof(dir), "%s", o->output) :
		   cb_path(dir, sizeof(dir), "%s/charts", runs[0].dir)) < 0 || cb_mkdir_p(dir) < 0) {
		fprintf(stderr, "compactbench plot: %s: cannot create: %s\n", dir, strerror(errno));
		goto out;
	}
	fprintf(stderr, "compactbench plot: reading the stalls of %d run(s)\n", nr);
	ctx = calloc(1, sizeof(*ctx));
	charts = calloc(MAX_CHARTS, sizeof(*charts));
	if (!ctx || !charts || pl_ctx_init(ctx, dir, runs, nr) < 0)
		goto out;
	n = write_files(ctx, charts, MAX_CHARTS);
	if (n < 0) {
		fprintf(stderr, "compactbench plot: %s: cannot write: %s\n", dir, strerror(errno));
		goto out;
	}
	if (run_in(dir, "gnuplot.log", O_TRUNC, "gnuplot-nox",
		   (char *[]){ "gnuplot", "plot.gp", NULL }) < 0 ||
	    rasterize(dir, charts, n) < 0)
		goto out;
	if (!o->output && (update_report_md(runs[0].dir, "charts", charts, n) < 0 ||
			   pl_report_html(ctx, charts, n) < 0)) {
		fprintf(stderr, "compactbench plot: %s: cannot write the report\n", runs[0].dir);
		goto out;
	}
	for (int i = 0; out && i < n; i++)
		fprintf(out, "%s/%s.png\n%s/%s.svg\n", dir, charts[i].file, dir, charts[i].file);
	if (out && !o->output)
		fprintf(out, "%s/report.html\n", runs[0].dir);
	rc = 0;
out:
	if (ctx)
		pl_ctx_free(ctx);
	free(ctx);
	free(charts);
	for (int k = 0; k < nr; k++)
		cb_run_free(&runs[k]);
	return rc;
}

int cmd_plot(int argc, char **argv)
{
	struct cb_plot_opts o = { 0 };
	struct cb_opt_parser p;
	int c;

	/* getopt's own message names a bad option */
	cb_opt_parser_init(&p, plot_opts, CB_ARRAY_SIZE(plot_opts), CB_OPT_GETOPT_SAYS);
	while ((c = cb_opt_next(&p, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			o.output = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind >= argc || argc - optind > MAX_RUNS) {
		fputs(usage, stderr);
		return 2;
	}
	o.dirs = argv + optind;
	o.nr_dirs = argc - optind;
	return cb_plot(&o, stdout);
}
