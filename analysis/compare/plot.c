// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot.c - `compactbench plot`: gnuplot charts of one or more runs.
 *
 * Data go to .dat files and the drawing to one script file, run as `gnuplot plot.gp` in
 * the charts directory with execvp: no shell line is ever built from names. Each chart is
 * written as PNG (pngcairo) and SVG; report.md gets a Charts section and report.html the
 * same report with the SVGs inline.
 */
#include "compare.h"
#include "stalls.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_RUNS 16

struct chart {
	const char *file;  /* base name: FILE.png, FILE.svg */
	const char *title;
};

static const struct chart charts[] = {
	{ "stall-cdf", "Direct-compaction stall latency, CDF per kernel/setting" },
	{ "stall-pct", "Direct-compaction stall p50 and p99 (median over repetitions, 95% CI)" },
	{ "stall-count", "Direct-compaction stalls per repetition (median, 95% CI)" },
	{ "thp-success", "THP success rate (thp-demand's own count)" },
};

/* a label for a group: "setting" with one run and one kernel, else more */
static void label(char *buf, size_t size, const struct cb_run_data *rd, int nruns,
		  const struct cb_group *g)
{
	if (nruns > 1)
		snprintf(buf, size, "%s %s/%s", rd->dir, g->kernel, g->setting);
	else
		snprintf(buf, size, "%s/%s", g->kernel, g->setting);
	/* gnuplot strings are double-quoted: keep quotes and backslashes out of them */
	for (char *p = buf; *p; p++)
		if (*p == '"' || *p == '\\' || *p == '\n')
			*p = '_';
}

/* the window the analyzer uses (meta.json, CLOCK_MONOTONIC = trace clock "mono") */
static void cell_window(const char *cell_dir, uint64_t *start, uint64_t *end)
{
	char path[PATH_MAX];
	struct json_object *meta, *win, *a, *b;

	*start = *end = 0;
	if (cb_path(path, sizeof(path), "%s/meta.json", cell_dir) < 0)
		return;
	meta = json_object_from_file(path);
	if (meta && json_object_object_get_ex(meta, "window", &win) &&
	    json_object_object_get_ex(win, "start_ns", &a) &&
	    json_object_object_get_ex(win, "end_ns", &b)) {
		*start = (uint64_t)json_object_get_int64(a);
		*end = (uint64_t)json_object_get_int64(b);
	}
	json_object_put(meta);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* every stall of the group's cells, pooled, as an empirical CDF; returns stalls written */
static size_t write_cdf(FILE *f, const struct cb_group *g)
{
	double *all = NULL;
	size_t n = 0;

	for (size_t i = 0; i < g->n; i++) {
		char trace[PATH_MAX], err[1024];
		struct cb_stalls st;
		uint64_t ws, we;

		if (cb_path(trace, sizeof(trace), "%s/trace.dat", g->cell_dir[i]) < 0)
			continue;
		cell_window(g->cell_dir[i], &ws, &we);
		if (cb_stalls_from_trace_window(trace, ws, we, &st, err, sizeof(err)) < 0) {
			fprintf(stderr, "compactbench plot: %s\n", err);
			continue;
		}
		all = realloc(all, (n + st.n + 1) * sizeof(*all));
		if (!all)
			abort();
		memcpy(all + n, st.ns, st.n * sizeof(*all));
		n += st.n;
		cb_stalls_free(&st);
	}
	if (n) {
		qsort(all, n, sizeof(*all), cmp_double);
		for (size_t i = 0; i < n; i++)
			if (i + 1 == n || all[i + 1] != all[i])
				fprintf(f, "%.3f %.6f\n", fmax(all[i], 1) / 1e3, (double)(i + 1) / n);
	}
	fprintf(f, "\n\n");
	free(all);
	return n;
}

static void write_median_ci(FILE *f, const struct cb_group *g, int m, double scale)
{
	double *v = calloc(g->n + 1, sizeof(double));
	size_t n = m >= 0 ? cb_group_values(g, m, v) : 0;
	struct cb_ci ci = { NAN, NAN };
	double med = NAN;

	if (n) {
		med = cb_stats_median(v, n);
		cb_stats_bootstrap_median(v, n, 0.95, CB_BOOTSTRAP_SEED, CB_BOOTSTRAP_ITERS, &ci);
	}
	fprintf(f, " %g %g %g", med * scale, ci.lo * scale, ci.hi * scale);
	free(v);
}

/* the data files and the script; returns 0, or -1 with errno */
static int write_files(const char *dir, struct cb_run_data *runs, int nr)
{
	char path[PATH_MAX], lab[PATH_MAX + 160];
	FILE *cdf, *bars, *gp;
	int idx = 0, m50 = cb_metric_find("dc_stall_p50_ns"), m99 = cb_metric_find("dc_stall_p99_ns");
	int mst = cb_metric_find("dc_stalls"), mthp = cb_metric_find("wl_thp_success_rate");

	if (cb_path(path, sizeof(path), "%s/stall-cdf.dat", dir) < 0 || !(cdf = fopen(path, "w")))
		return -1;
	if (cb_path(path, sizeof(path), "%s/groups.dat", dir) < 0 || !(bars = fopen(path, "w"))) {
		fclose(cdf);
		return -1;
	}
	if (cb_path(path, sizeof(path), "%s/plot.gp", dir) < 0 || !(gp = fopen(path, "w"))) {
		fclose(cdf);
		fclose(bars);
		return -1;
	}
	fprintf(bars, "# label p50_us lo hi p99_us lo hi stalls lo hi thp_pct lo hi\n");
	for (int r = 0; r < nr; r++) {
		for (size_t i = 0; i < runs[r].ng; i++) {
			const struct cb_group *g = &runs[r].groups[i];

			label(lab, sizeof(lab), &runs[r], nr, g);
			/* the block's first line is its title (gnuplot's columnheader) */
			fprintf(cdf, "\"%s (%s)\" \"fraction\"\n", lab, g->workload);
			write_cdf(cdf, g);
			fprintf(bars, "\"%s (%s)\"", lab, g->workload);
			write_median_ci(bars, g, m50, 1e-3);
			write_median_ci(bars, g, m99, 1e-3);
			write_median_ci(bars, g, mst, 1);
			write_median_ci(bars, g, mthp, 100);
			fprintf(bars, "\n");
			idx++;
		}
	}
	fclose(cdf);
	fclose(bars);
	/* one script, two terminals: the same charts as PNG and SVG */
	fprintf(gp, "set key outside right top\nset grid\nset style fill solid 0.6\n"
		    "set style data histograms\nset style histogram errorbars gap 1 lw 1\n");
	for (int t = 0; t < 2; t++) {
		const char *ext = t ? "svg" : "png";

		fprintf(gp, "set terminal %s size 1000,600 %s\n", t ? "svg" : "pngcairo",
			t ? "dynamic" : "");
		fprintf(gp, "set output 'stall-cdf.%s'\nset title \"%s\"\nset logscale x\n"
			    "set xlabel 'stall latency (us, log scale)'\nset ylabel 'fraction of stalls'\n"
			    "set yrange [0:1]\nset xtics norotate\nplot for [i=0:%d] 'stall-cdf.dat' index i "
			    "using 1:2 with steps lw 2 title columnheader(1)\nunset logscale x\n"
			    "set yrange [*:*]\nset xtics rotate by -30\n",
			ext, charts[0].title, idx - 1);
		fprintf(gp, "set output 'stall-pct.%s'\nset title \"%s\"\nset xlabel ''\n"
			    "set ylabel 'stall latency (us, log scale)'\nset logscale y\nplot 'groups.dat' "
			    "using 2:3:4:xtic(1) title 'p50', '' using 5:6:7 title 'p99'\n"
			    "unset logscale y\n", ext, charts[1].title);
		fprintf(gp, "set output 'stall-count.%s'\nset title \"%s\"\n"
			    "set ylabel 'stalls per repetition (count)'\nplot 'groups.dat' using "
			    "8:9:10:xtic(1) title 'direct-compaction stalls'\n", ext, charts[2].title);
		fprintf(gp, "set output 'thp-success.%s'\nset title \"%s\"\n"
			    "set ylabel 'THP success (%%)'\nset yrange [0:100]\nplot 'groups.dat' using "
			    "11:12:13:xtic(1) title 'regions backed by a huge page'\nset yrange [*:*]\n",
			ext, charts[3].title);
	}
	fclose(gp);
	return 0;
}

/* run gnuplot on plot.gp in @dir: fork, chdir, execvp; no shell */
static int run_gnuplot(const char *dir)
{
	char log[PATH_MAX];
	pid_t pid;
	int st, fd;

	if (cb_path(log, sizeof(log), "%s/gnuplot.log", dir) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || chdir(dir) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execlp("gnuplot", "gnuplot", "plot.gp", (char *)NULL);
		dprintf(2, "cannot run gnuplot: %s\n", strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "compactbench plot: gnuplot failed (exit %d); see %s\n",
			WIFEXITED(st) ? WEXITSTATUS(st) : -1, log);
		return -1;
	}
	return 0;
}

static const char charts_marker[] = "\n## Charts\n";

/* report.md with a fresh Charts section (the analyzer writes the rest of it) */
static int update_report_md(const char *run_dir, const char *rel)
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
		abort();
	if (old) {
		cut = strstr(old, charts_marker);
		if (cut)
			*cut = '\0';
		fputs(old, f);
	}
	fputs(charts_marker, f);
	for (size_t i = 0; i < CB_ARRAY_SIZE(charts); i++)
		fprintf(f, "\n![%s](%s/%s.png)\n", charts[i].title, rel, charts[i].file);
	fclose(f);
	ret = cb_write_file_atomic(path, buf, len);
	free(old);
	free(buf);
	return ret;
}

static void html_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* report.html: the report's text and every chart as inline SVG, one self-contained file */
static int write_report_html(const char *run_dir, const char *charts_dir)
{
	char path[PATH_MAX], *md, *svg, *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (cb_path(path, sizeof(path), "%s/report.md", run_dir) < 0)
		return -1;
	md = cb_read_file(path, NULL);
	f = open_memstream(&buf, &len);
	if (!f)
		abort();
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>compactbench report"
		   "</title></head>\n<body>\n<pre>\n");
	if (md) {
		char *cut = strstr(md, charts_marker);

		if (cut)
			*cut = '\0';
		html_escape(f, md);
	}
	fprintf(f, "</pre>\n<h2>Charts</h2>\n");
	for (size_t i = 0; i < CB_ARRAY_SIZE(charts); i++) {
		if (cb_path(path, sizeof(path), "%s/%s.svg", charts_dir, charts[i].file) < 0)
			continue;
		svg = cb_read_file(path, NULL);
		fprintf(f, "<figure id=\"%s\">\n", charts[i].file);
		/* the SVG's own XML declaration has no place inside HTML */
		if (svg)
			fputs(strncmp(svg, "<?xml", 5) ? svg : strstr(svg, "?>") + 2, f);
		fprintf(f, "<figcaption>%s</figcaption></figure>\n", charts[i].title);
		free(svg);
	}
	fprintf(f, "</body></html>\n");
	fclose(f);
	if (cb_path(path, sizeof(path), "%s/report.html", run_dir) < 0)
		ret = -1;
	else
		ret = cb_write_file_atomic(path, buf, len);
	free(md);
	free(buf);
	return ret;
}

static const char usage[] =
	"usage: compactbench plot DIR [DIR...] [-o CHARTS_DIR]\n"
	"\n"
	"Draw, with gnuplot, the charts of one or more runs into DIR/charts (or CHARTS_DIR):\n"
	"stall-latency CDF per kernel/setting (log x), p50/p99 bars with 95% CI error bars,\n"
	"stalls per repetition, THP success rate; each as PNG and SVG. Adds a Charts section\n"
	"to the first DIR's report.md and writes its report.html with the SVGs inline.\n";

int cmd_plot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cb_run_data runs[MAX_RUNS];
	char dir[PATH_MAX], err[2048];
	const char *out = NULL;
	int c, nr = 0, rc = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
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
	for (; optind < argc; optind++, nr++) {
		if (cb_run_load(argv[optind], &runs[nr], err, sizeof(err)) < 0) {
			fprintf(stderr, "compactbench plot: %s\n", err);
			rc = 2;
			goto out;
		}
	}
	if ((out ? cb_path(dir, sizeof(dir), "%s", out) :
		   cb_path(dir, sizeof(dir), "%s/charts", runs[0].dir)) < 0 || cb_mkdir_p(dir) < 0) {
		fprintf(stderr, "compactbench plot: %s: cannot create: %s\n", dir, strerror(errno));
		goto out;
	}
	fprintf(stderr, "compactbench plot: reading the stalls of %d run(s)\n", nr);
	if (write_files(dir, runs, nr) < 0) {
		fprintf(stderr, "compactbench plot: %s: cannot write: %s\n", dir, strerror(errno));
		goto out;
	}
	if (run_gnuplot(dir) < 0)
		goto out;
	if (!out && (update_report_md(runs[0].dir, "charts") < 0 ||
		     write_report_html(runs[0].dir, dir) < 0)) {
		fprintf(stderr, "compactbench plot: %s: cannot write the report\n", runs[0].dir);
		goto out;
	}
	for (size_t i = 0; i < CB_ARRAY_SIZE(charts); i++)
		printf("%s/%s.png\n%s/%s.svg\n", dir, charts[i].file, dir, charts[i].file);
	if (!out)
		printf("%s/report.html\n", runs[0].dir);
	rc = 0;
out:
	for (int k = 0; k < nr; k++)
		cb_run_free(&runs[k]);
	return rc;
}
