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

#include <ctype.h>
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
	{ "stall-per-1k", "Direct-compaction stalls per 1000 high-order allocations (median, 95% CI)" },
	{ "cost", "background CPU (kcompactd+khugepaged+policy) spent against direct-compaction stall time avoided" },
	{ "free-2m", "Free memory in blocks of 2 MiB and larger, first repetition of each" },
	{ "free-orders", "Free memory per order over time, first repetition of the first group" },
};

#define MAX_ORDERS 11

/*
 * samples.csv of @cell_dir summed over zones per sample time, as MiB per order, into @f
 * (one line per sample: seconds since the first sample, then orders 0..10); @only_2m
 * writes one column instead: MiB in blocks of order >= 9. Adds the values above 0 written
 * to *@positive (a log scale shows nothing else). Returns samples written.
 */
static int write_free(FILE *f, const char *cell_dir, bool only_2m, size_t *positive)
{
	char path[PATH_MAX], line[1024];
	unsigned long long t, t0 = 0, cur = 0;
	double mib[MAX_ORDERS] = { 0 };
	int n = 0, have = 0;
	FILE *in;

	if (cb_path(path, sizeof(path), "%s/samples.csv", cell_dir) < 0 || !(in = fopen(path, "r")))
		return 0;
	for (;;) {
		char *p = fgets(line, sizeof(line), in), *tok, *save = NULL;
		int col = 0;

		if (p && !isdigit((unsigned char)line[0]))
			continue; /* the header */
		t = p ? strtoull(line, NULL, 10) : 0;
		if (have && (!p || t != cur)) {
			double big = 0;

			if (!n)
				t0 = cur;
			fprintf(f, "%.3f", (cur - t0) / 1e9);
			for (int o = 0; o < MAX_ORDERS; o++) {
				if (!only_2m) {
					fprintf(f, " %.3f", mib[o]);
					*positive += mib[o] > 0;
				}
				big += o >= 9 ? mib[o] : 0;
				mib[o] = 0;
			}
			if (only_2m) {
				fprintf(f, " %.3f", big);
				*positive += big > 0;
			}
			fprintf(f, "\n");
			n++;
		}
		if (!p)
			break;
		cur = t;
		have = 1;
		/* t_ns,node,zone,present,score,weighted,node_score,o0..o10 */
		for (tok = strtok_r(line, ",", &save); tok; tok = strtok_r(NULL, ",", &save), col++)
			if (col >= 7 && col < 7 + MAX_ORDERS)
				mib[col - 7] += strtod(tok, NULL) * (double)(1ULL << (col - 7)) * 4096 /
						(1 << 20);
	}
	fclose(in);
	fprintf(f, "\n\n");
	return n;
}

/* median of metric @m in @g, NAN without values */
static double group_median(const struct cb_group *g, int m)
{
	double *v = calloc(g->n + 1, sizeof(double)), med = NAN;
	size_t n = m >= 0 ? cb_group_values(g, m, v) : 0;

	if (n)
		med = cb_stats_median(v, n);
	free(v);
	return med;
}

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

/* what a column of groups.dat holds: gnuplot refuses a chart with no point to draw */
struct colstat {
	size_t values;	 /* groups with a median */
	size_t positive; /* of them above 0 (what a log scale can show) */
};

static void write_median_ci(FILE *f, const struct cb_group *g, int m, double scale,
			    struct colstat *cs)
{
	double *v = calloc(g->n + 1, sizeof(double));
	size_t n = m >= 0 ? cb_group_values(g, m, v) : 0;
	struct cb_ci ci = { NAN, NAN };
	double med = NAN;

	if (n) {
		med = cb_stats_median(v, n);
		cb_stats_bootstrap_median(v, n, 0.95, CB_BOOTSTRAP_SEED, CB_BOOTSTRAP_ITERS, &ci);
		cs->values++;
		cs->positive += med > 0;
	}
	fprintf(f, " %g %g %g", med * scale, ci.lo * scale, ci.hi * scale);
	free(v);
}

/*
 * cost.dat: for each candidate and its baseline (cb_runs_pair), the extra background CPU
 * against the stall time avoided, medians over repetitions, in ms; *@moved says whether a
 * point is off (0, 0). Returns the points written.
 */
static int write_cost(const char *dir, struct cb_run_data *runs, int nr, bool *moved)
{
	const struct cb_group *base[256], *cand[256];
	int mc = cb_metric_find("cpu_background_ns"), ms = cb_metric_find("dc_stall_total_ns");
	char path[PATH_MAX];
	int rows = 0;
	FILE *f;

	if (cb_path(path, sizeof(path), "%s/cost.dat", dir) < 0 || !(f = fopen(path, "w")))
		return 0;
	fprintf(f, "# label cpu_ms_more stall_ms_avoided\n");
	for (int k = nr == 1 ? 0 : 1; k < nr; k++) {
		size_t np = cb_runs_pair(&runs[0], nr == 1 ? NULL : &runs[k], base, cand, 256);

		for (size_t i = 0; i < np; i++) {
			double cpu = group_median(cand[i], mc) - group_median(base[i], mc);
			double avoided = group_median(base[i], ms) - group_median(cand[i], ms);

			if (isnan(cpu) || isnan(avoided))
				continue;
			fprintf(f, "\"%s vs %s\" %g %g\n", cand[i]->setting, base[i]->setting,
				cpu / 1e6, avoided / 1e6);
			*moved |= cpu != 0 || avoided != 0;
			rows++;
		}
	}
	fclose(f);
	return rows;
}

/* a chart with nothing to draw still gets its file, saying why it is empty */
static void empty_chart(FILE *gp, const char *file, const char *ext, const char *title,
			const char *why)
{
	fprintf(gp, "set output '%s.%s'\nset title \"%s\"\nset label 1 \"%s\" at graph 0.5,0.5 "
		    "center\nplot [0:1][0:1] NaN notitle\nunset label 1\n", file, ext, title, why);
}

/*
 * a bar chart of groups.dat drawn by the gnuplot commands @plot: empty with @why when no
 * group has a value, flat on [0:1] with @why as a note when every value is 0 (gnuplot finds
 * no y range in all zeros), else as it is
 */
static void bar_chart(FILE *gp, const char *file, const char *ext, const char *title,
		      const struct colstat *cs, const char *plot, const char *why)
{
	if (!cs->values) {
		empty_chart(gp, file, ext, title, why);
		return;
	}
	fprintf(gp, "set output '%s.%s'\nset title \"%s\"\n", file, ext, title);
	if (cs->positive) {
		fprintf(gp, "%s\n", plot);
		return;
	}
	fprintf(gp, "set yrange [0:1]\nset label 1 \"%s\" at graph 0.5,0.5 center\n%s\n"
		    "unset label 1\nset yrange [*:*]\n", why, plot);
}

/* the data files and the script; returns 0, or -1 with errno */
static int write_files(const char *dir, struct cb_run_data *runs, int nr)
{
	char path[PATH_MAX], lab[PATH_MAX + 160];
	FILE *cdf, *bars, *gp;
	int idx = 0, m50 = cb_metric_find("dc_stall_p50_ns"), m99 = cb_metric_find("dc_stall_p99_ns");
	int mst = cb_metric_find("dc_stalls"), mthp = cb_metric_find("wl_thp_success_rate");
	int m1k = cb_metric_find("dc_stalls_per_1k_alloc"), nfree = 0, ncost, n2m = 0;
	struct colstat c50 = { 0 }, c99 = { 0 }, cst = { 0 }, cthp = { 0 }, c1k = { 0 }, cpct;
	size_t stalls = 0, pos2m = 0, posfree = 0;
	bool cost_moved = false;
	static const char zero_cost[] = "set xrange [-1:1]\nset yrange [-1:1]\nset label 1 "
					"\"no stalls avoided, no CPU spent\" at graph 0.5,0.25 center\n";
	FILE *free2m, *freeo;

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
	if (cb_path(path, sizeof(path), "%s/free-2m.dat", dir) < 0 || !(free2m = fopen(path, "w")) ||
	    cb_path(path, sizeof(path), "%s/free-orders.dat", dir) < 0 || !(freeo = fopen(path, "w")))
		abort(); /* the directory took three files already */
	fprintf(bars, "# label p50_us lo hi p99_us lo hi stalls lo hi thp_pct lo hi per1k lo hi\n");
	for (int r = 0; r < nr; r++) {
		for (size_t i = 0; i < runs[r].ng; i++) {
			const struct cb_group *g = &runs[r].groups[i];

			label(lab, sizeof(lab), &runs[r], nr, g);
			/* the block's first line is its title (gnuplot's columnheader) */
			fprintf(cdf, "\"%s (%s)\" \"fraction\"\n", lab, g->workload);
			stalls += write_cdf(cdf, g);
			fprintf(bars, "\"%s (%s)\"", lab, g->workload);
			write_median_ci(bars, g, m50, 1e-3, &c50);
			write_median_ci(bars, g, m99, 1e-3, &c99);
			write_median_ci(bars, g, mst, 1, &cst);
			write_median_ci(bars, g, mthp, 100, &cthp);
			write_median_ci(bars, g, m1k, 1, &c1k);
			fprintf(bars, "\n");
			fprintf(free2m, "\"%s (%s)\" \"MiB\"\n", lab, g->workload);
			if (g->n)
				n2m += write_free(free2m, g->cell_dir[0], true, &pos2m);
			else
				fprintf(free2m, "\n\n");
			if (!nfree && g->n) {
				fprintf(freeo, "# %s (%s), repetition %ld\n", lab, g->workload, g->rep[0]);
				nfree = write_free(freeo, g->cell_dir[0], false, &posfree);
			}
			idx++;
		}
	}
	fclose(cdf);
	fclose(bars);
	fclose(free2m);
	fclose(freeo);
	ncost = write_cost(dir, runs, nr, &cost_moved);
	/* a log scale shows neither 0 nor a missing value: p50 and p99 only where above 0 */
	cpct.values = cpct.positive = c50.positive + c99.positive;
	/*
	 * one script, two terminals: the same charts as PNG and SVG. gnuplot stops at a chart
	 * without a point or with all points on one value ("x range is invalid"): such a chart
	 * is drawn empty or flat, with a note saying why (an idle workload stalls nowhere).
	 */
	fprintf(gp, "set key outside right top\nset grid\nset style fill solid 0.6\n"
		    "set style data histograms\nset style histogram errorbars gap 1 lw 1\n");
	for (int t = 0; t < 2; t++) {
		const char *ext = t ? "svg" : "png";

		fprintf(gp, "set terminal %s size 1000,600 %s\n", t ? "svg" : "pngcairo",
			t ? "dynamic" : "");
		fprintf(gp, "set xtics norotate\n");
		if (!stalls)
			empty_chart(gp, "stall-cdf", ext, charts[0].title, "no stalls in these runs: "
				    "no latency to draw");
		else
			fprintf(gp, "set output 'stall-cdf.%s'\nset title \"%s\"\nset logscale x\n"
				    "set xlabel 'stall latency (us, log scale)'\n"
				    "set ylabel 'fraction of stalls'\nset yrange [0:1]\nplot for [i=0:%d] "
				    "'stall-cdf.dat' index i using 1:2 with steps lw 2 title "
				    "columnheader(1)\nunset logscale x\nset yrange [*:*]\n",
				ext, charts[0].title, idx - 1);
		fprintf(gp, "set xtics rotate by -30\nset xlabel ''\n"
			    "set ylabel 'stall latency (us, log scale)'\n");
		bar_chart(gp, "stall-pct", ext, charts[1].title, &cpct, "set logscale y\n"
			  "plot 'groups.dat' using 2:3:4:xtic(1) title 'p50', '' using 5:6:7 title "
			  "'p99'\nunset logscale y", "no stalls in these runs: no latency to draw");
		fprintf(gp, "set ylabel 'stalls per repetition (count)'\n");
		bar_chart(gp, "stall-count", ext, charts[2].title, &cst, "plot 'groups.dat' using "
			  "8:9:10:xtic(1) title 'direct-compaction stalls'", "no stalls");
		fprintf(gp, "set ylabel 'THP success (%%)'\nset yrange [0:100]\n");
		bar_chart(gp, "thp-success", ext, charts[3].title, &cthp, "plot 'groups.dat' using "
			  "11:12:13:xtic(1) title 'regions backed by a huge page'",
			  "no THP success rate (thp-demand counts its huge pages)");
		fprintf(gp, "set yrange [*:*]\nset ylabel 'stalls per 1000 order>0 allocations'\n");
		bar_chart(gp, "stall-per-1k", ext, charts[4].title, &c1k, "plot 'groups.dat' using "
			  "14:15:16:xtic(1) title 'direct-compaction stalls per 1000'", "no stalls");
		fprintf(gp, "set xtics norotate\n");
		if (!ncost)
			empty_chart(gp, "cost", ext, charts[5].title, "no candidate with CPU and stall "
				    "figures to set against a baseline");
		else
			fprintf(gp, "set output 'cost.%s'\nset title \"%s\"\n"
				    "set xlabel 'background CPU (kcompactd+khugepaged+policy), "
				    "candidate - baseline (ms)'\n"
				    "set ylabel 'stall time avoided, baseline - candidate (ms)'\n%s"
				    "plot 'cost.dat' using 2:3 with points pt 7 ps 1.5 title 'candidate vs its "
				    "baseline', '' using 2:3:1 with labels offset 0,1 notitle\n"
				    "unset label 1\nset xrange [*:*]\nset yrange [*:*]\n", ext,
				charts[5].title, cost_moved ? "" : zero_cost);
		fprintf(gp, "set style data lines\n"
			    "set xlabel 'time since the first sample of the cell (s)'\n"
			    "set ylabel 'free MiB in blocks >= 2 MiB'\n");
		if (!n2m)
			empty_chart(gp, "free-2m", ext, charts[6].title, "no samples.csv in these runs");
		else
			fprintf(gp, "set output 'free-2m.%s'\nset title \"%s\"\n%splot for [i=0:%d] "
				    "'free-2m.dat' index i using 1:2 lw 2 title columnheader(1)\n"
				    "unset label 1\nset yrange [*:*]\n", ext, charts[6].title,
				pos2m ? "" : "set yrange [0:1]\nset label 1 \"no free blocks of 2 MiB or "
				"larger\" at graph 0.5,0.5 center\n", idx - 1);
		fprintf(gp, "set ylabel 'free MiB (log scale)'\n");
		if (!nfree || !posfree)
			empty_chart(gp, "free-orders", ext, charts[7].title, !nfree ?
				    "no samples.csv in these runs" : "no free memory in the samples");
		else
			fprintf(gp, "set output 'free-orders.%s'\nset title \"%s\"\nset logscale y\n"
				    "plot for [o=0:10] 'free-orders.dat' using 1:(column(o+2) > 0 ? "
				    "column(o+2) : NaN) lw 2 title sprintf('order %%d', o)\n"
				    "unset logscale y\n", ext, charts[7].title);
		fprintf(gp, "set style data histograms\n");
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
	char dir[PATH_MAX];
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
	if (cb_runs_load_all(argv + optind, argc - optind, runs, "plot") < 0)
		return 2;
	nr = argc - optind;
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
