/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_fixture.h - a synthetic run shaped like the README's headline matrix: 3 kernels named
 * as its are x 4 settings x 4 workloads (47 groups with values, one group with none), 3
 * repetitions each, every summary value a known function of (workload, kernel, setting,
 * repetition), so a test knows each median without the code under test. The cells of the
 * first workload carry a real trace (tests/fixtures/analysis-thp-compact.v6.dat: 336
 * direct-compaction stalls by compact_stall) and every cell a samples.csv.
 */
#ifndef CB_PLOT_FIXTURE_H
#define CB_PLOT_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define FX_NK 3
#define FX_NS 4
#define FX_NW 4
#define FX_REPS 3

static const char *const fx_kernel[FX_NK] = { "linux61", "linux61-demand",
					     "linux612-demand" };
static const char *const fx_setting[FX_NS] = { "none", "proactive-20", "proactive-60",
					       "demand" };
static const char *const fx_workload[FX_NW] = { "thp-burst", "kernel-order", "thp-steady",
						"mixed" };

/* the known values: stalls per repetition; the median over reps 0..2 is rep 1's */
static inline double fx_stalls(int w, int k, int s, int rep)
{
	return 40.0 * (w + 1) + 10 * k - 8 * s + 2 * rep;
}

static inline double fx_stall_ns(int w, int k, int s, int rep)
{
	return fx_stalls(w, k, s, rep) * 50000.0 * (s + 1);
}

static inline double fx_p99_ns(int w, int k, int s, int rep)
{
	return 100000.0 + 1000 * s + 20000 * w + 10 * rep;
}

static inline double fx_thp(int w, int k, int s, int rep)
{
	return 0.5 + 0.1 * s - 0.01 * rep;
}

static inline double fx_cpu_ns(int w, int k, int s, int rep)
{
	return 1e6 * (1 + s * (k + 1)) + 1000.0 * rep;
}

/*
 * the group left without values: kernel 1, setting 3, workload 0 (its cells failed), as a
 * setting that runs on one kernel only leaves a column of a traced panel empty
 */
static inline int fx_missing(int w, int k, int s)
{
	return w == 0 && k == 1 && s == 3;
}

/*
 * the one (workload, kernel) the matrix does not run at all: the last workload on the third
 * kernel, as the headline runs thp-frag on the 6.1 pair only (no cells, no table)
 */
static inline int fx_absent(int w, int k)
{
	return w == FX_NW - 1 && k == 2;
}

/* run the command @cmd with stdout to @out (NULL: /dev/null); returns its exit status */
static inline int fx_quiet(int (*cmd)(int, char **), int argc, char **argv, const char *out)
{
	FILE *saved = stdout;
	int rc;

	fflush(stdout);
	stdout = fopen(out ? out : "/dev/null", "w");
	if (!stdout) {
		stdout = saved;
		return -1;
	}
	rc = cmd(argc, argv);
	fclose(stdout);
	stdout = saved;
	return rc;
}

/*
 * the compaction runs of every cell of the first workload (the one with a trace): seconds
 * since its first sample (no window), lanes in a mixed order, one thinned, one empty
 */
#define FX_CRUNS "\"compaction_runs\":{\"window_start_ns\":1000000000," \
	"\"max_per_attribution\":500,\"by_attribution\":{\"policy\":{\"runs\":[[1.5,2]],\"dropped\":0,\"open\":1}," \
	"\"direct\":{\"runs\":[[0.25,0.5],[1,1.125]],\"dropped\":0,\"open\":0},\"kcompactd\":" \
	"{\"runs\":[[0.75,0.875]],\"dropped\":3,\"open\":0},\"manual\":{\"runs\":[]}}}"

/* the cell (w, k, s, repetition r) of run @d: summary.json, samples.csv, maybe a trace */
static inline int fx_write_cell(const char *d, int w, int k, int s, int r, const char *trace,
				size_t tlen)
{
	char path[1200], text[4096], id[200];

	snprintf(id, sizeof(id), "%s.%s.%s.r%d", fx_kernel[k], fx_setting[s], fx_workload[w],
		 r + 1);
	snprintf(path, sizeof(path), "%s/%s", d, id);
	if (cb_mkdir_p(path) < 0)
		return -1;
	if (fx_missing(w, k, s))
		return 0; /* no summary, no meta: a failed cell */
	snprintf(text, sizeof(text), "{\"schema\":1,\"lost_events\":false,%s\"metrics\":{"
		 "\"dc_stalls\":%.0f,\"dc_stall_total_ns\":%.0f,\"dc_stall_p50_ns\":20000,"
		 "\"dc_stall_p99_ns\":%.0f,\"dc_stalls_per_1k_alloc\":%g,"
		 "\"wl_thp_success_rate\":%g,\"cpu_background_ns\":%.0f}}\n",
		 w == 0 ? FX_CRUNS "," : "", fx_stalls(w, k, s, r), fx_stall_ns(w, k, s, r), fx_p99_ns(w, k, s, r),
		 1.5 * (s + 1), fx_thp(w, k, s, r), fx_cpu_ns(w, k, s, r));
	snprintf(path, sizeof(path), "%s/%s/summary.json", d, id);
	if (cb_write_file_atomic(path, text, strlen(text)) < 0)
		return -1;
	/* one zone, three samples: order-9 blocks 50, 20, 5 + s */
	snprintf(text, sizeof(text), "t_ns,node,zone,present,score,weighted,node_score,"
		 "o0,o1,o2,o3,o4,o5,o6,o7,o8,o9,o10\n"
		 "1000000000,0,Normal,262144,0,0,0,100,64,32,16,8,0,0,0,0,50,0\n"
		 "2000000000,0,Normal,262144,0,0,0,100,32,16,8,4,0,0,0,0,20,0\n"
		 "3000000000,0,Normal,262144,0,0,0,100,16,8,4,2,0,0,0,0,%d,0\n", 5 + s);
	snprintf(path, sizeof(path), "%s/%s/samples.csv", d, id);
	if (cb_write_file_atomic(path, text, strlen(text)) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s/trace.dat", d, id);
	return w == 0 ? cb_write_file_atomic(path, trace, tlen) : 0;
}

/* cell @i of the run order: kernel, setting, workload, repetition (repetition fastest) */
static inline void fx_cell(int i, int *w, int *k, int *s, int *r)
{
	*r = i % FX_REPS;
	*w = i / FX_REPS % FX_NW;
	*s = i / FX_REPS / FX_NW % FX_NS;
	*k = i / FX_REPS / FX_NW / FX_NS;
}

/* write the run into @d (an existing, empty directory); @src_dir holds the fixtures */
static inline int fx_make_run(const char *d, const char *src_dir)
{
	const int cells = FX_NK * FX_NS * FX_NW * FX_REPS;
	char path[1200];
	size_t tlen = 0;
	char *trace;
	FILE *f;
	int w, k, s, r;

	snprintf(path, sizeof(path), "%s/analysis-thp-compact.v6.dat", src_dir);
	trace = cb_read_file(path, &tlen);
	snprintf(path, sizeof(path), "%s/run.json", d);
	if (!trace || !(f = fopen(path, "w")))
		return -1;
	fprintf(f, "{\"schema\":1,\"config\":\"configs/synthetic.ini\",\"config_sha256\":\"x\","
		   "\"cells\":[");
	for (int i = 0, first = 1; i < cells; i++) {
		fx_cell(i, &w, &k, &s, &r);
		if (fx_absent(w, k))
			continue;
		fprintf(f, "%s{\"id\":\"%s.%s.%s.r%d\",\"kernel\":\"%s\",\"setting\":\"%s\","
			"\"workload\":\"%s\",\"rep\":%d}", first ? "" : ",", fx_kernel[k],
			fx_setting[s], fx_workload[w], r + 1, fx_kernel[k], fx_setting[s],
			fx_workload[w], r + 1);
		first = 0;
	}
	fprintf(f, "]}\n");
	fclose(f);
	for (int i = 0; i < cells; i++) {
		fx_cell(i, &w, &k, &s, &r);
		if (!fx_absent(w, k) && fx_write_cell(d, w, k, s, r, trace, tlen) < 0) {
			free(trace);
			return -1;
		}
	}
	free(trace);
	return 0;
}

/*
 * report.md as report.c writes it for this run (its section headings and table layout),
 * so report.html has a verdict and 8 tables to lay out; the numbers are the fixture's
 */
static inline int fx_write_report_md(const char *d)
{
	char path[1200], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -1;
	fprintf(f, "# compactbench report\n\nconfig `configs/synthetic.ini` (sha256 x), tool test. "
		   "132 cells, 129 analyzed, 3 left out.\n\n## Results\n\n");
	for (int k = 0; k < FX_NK; k++)
		for (int w = 0; w < FX_NW; w++) {
			if (fx_absent(w, k))
				continue;
			fprintf(f, "### kernel `%s`, workload `%s`\n\n", fx_kernel[k], fx_workload[w]);
			fprintf(f, "| setting | reps | dc_stalls | stall_ms | p99_us | thp_ok_wl%% | "
				   "notes |\n| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
			for (int s = 0; s < FX_NS; s++)
				if (!fx_missing(w, k, s))
					fprintf(f, "| %s | %d | %.0f | %.1f | %.1f | %.1f |  |\n",
						fx_setting[s], FX_REPS, fx_stalls(w, k, s, 1),
						fx_stall_ns(w, k, s, 1) / 1e6, fx_p99_ns(w, k, s, 1) / 1e3,
						fx_thp(w, k, s, 1) * 100);
			fprintf(f, "\n");
		}
	fprintf(f, "## Cells left out\n\n- `linux61-demand.demand.mixed.r1`: no meta.json\n\n"
		   "## Verdict\n\n");
	for (int k = 0; k < FX_NK; k++)
		for (int w = 0; w < FX_NW; w++)
			if (!fx_absent(w, k))
				fprintf(f, "- verdict: %s on kernel %s: setting 'demand' had "
					   "fewer direct-compaction stalls than 'none'\n",
					fx_workload[w], fx_kernel[k]);
	fclose(f);
	snprintf(path, sizeof(path), "%s/report.md", d);
	ret = cb_write_file_atomic(path, buf, len);
	free(buf);
	return ret;
}

#endif
