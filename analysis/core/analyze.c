// SPDX-License-Identifier: GPL-2.0-only
/*
 * analyze.c - `compactbench analyze`: a run directory, a cell directory or a lone trace.dat.
 */
#include "analyze.h"
#include "runjson.h"
#include "cmd_opt.h"
#include "xalloc.h"
#include "metrics.h"
#include "report.h"
#include "stalls.h"
#include "summary.h"
#include "summary_json.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

enum {
	OPT_FORMAT = 256, OPT_ALL, OPT_WATTS, OPT_READER_TIMEOUT, OPT_READER_MEMORY, OPT_METRICS,
};

/* the options, once: getopt's tables and the usage's option lines (cmd_opt.h) */
static const struct cb_opt analyze_opts[] = {
	{ "format", OPT_FORMAT, "text|json", "text for a person (default), or JSON: every figure" },
	{ "all", OPT_ALL, NULL, "a trace's text: every metric with a value (summary.json names)" },
	{ "watts-per-core", OPT_WATTS, "W", "watts per busy core of the modeled energy (default 10)" },
	{ "reader-timeout", OPT_READER_TIMEOUT, "T",
	  "kill a trace's reader after T, a duration (default 600s)" },
	{ "reader-memory", OPT_READER_MEMORY, "SIZE",
	  "a trace reader's address space (default 4G + 2x file)" },
	{ "metrics", OPT_METRICS, NULL, "print the metric table (markdown) and exit" },
	{ "help", 'h', NULL, "print this help and exit" },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: compactbench analyze DIR [--format text|json] [--watts-per-core W]\n"
		"       compactbench analyze FILE.dat [--format text|json] [--all]\n"
		"       compactbench analyze --metrics\n"
		"\n"
		"  DIR       a run directory (run.json): analyze every cell (summary.json each),\n"
		"            write report.md, print the per-setting tables and the verdict;\n"
		"            or one cell directory (meta.json): analyze that cell\n"
		"  FILE.dat  a lone trace.dat (trace-cmd v6 or v7, from any machine): print its\n"
		"            direct compaction stalls (tracepoint method, analysis/README.md)\n"
		"\noptions:\n");
	cb_opt_usage_style(f, analyze_opts, CB_ARRAY_SIZE(analyze_opts), 20, CB_OPT_USAGE_LONG);
	fprintf(f, "\nexit status: 0 done, 1 some cells left out (not complete; listed) or never run (a merge\n"
		"with shards missing: run.json lists fewer than its total_cells), 2 bad input\n"
		"(a missing or corrupt file: the other cells are still analyzed) or usage.\n"
		"Cells of a kernel not booted yet (run.json's \"pending\") are listed as pending,\n"
		"not left out, and do not change the exit status: booted into that kernel,\n"
		"`run CONFIG -o DIR --resume` runs them.\n");
}

int cb_analyze_cell(const char *cell_dir, char *err, size_t errlen)
{
	return cb_summarize_cell(cell_dir, NULL, err, errlen);
}

static void print_value(FILE *out, const struct cb_values *v, int i)
{
	const struct cb_metric *m = &cb_metrics[i];

	if (!v->set[i])
		fprintf(out, "  %-28s %14s\n", m->name, "null");
	else if (v->v[i] == floor(v->v[i]))
		fprintf(out, "  %-28s %14.0f %s\n", m->name, v->v[i], m->unit);
	else
		fprintf(out, "  %-28s %14.3f %s\n", m->name, v->v[i], m->unit);
}

/* the probe method's stalls and how far the tracepoint method is from them */
static void print_probe(const struct cb_stalls *st)
{
	const struct cb_pstalls *p = &st->probe;
	struct cb_dist pd, td;
	double q50 = 0, q99 = 0;

	cb_pstalls_quantile(p, 0.5, &q50);
	cb_pstalls_quantile(p, 0.99, &q99);
	printf("allocation stalls, probe method (%s: slow-path calls with direct compaction or "
	       "reclaim):\n", p->system);
	printf("  calls %llu, stalls %llu, truncated %llu, cut by lost events %llu, returns "
	       "without entry %llu\n", (unsigned long long)p->calls,
	       (unsigned long long)p->stalls, (unsigned long long)p->truncated,
	       (unsigned long long)p->cut_by_loss, (unsigned long long)p->unmatched);
	printf("  total %.3f ms (direct compaction %.3f ms, direct reclaim %.3f ms), "
	       "p50 %.0f ns, p99 %.0f ns\n", p->total_ns / 1e6, p->dc_ns / 1e6,
	       p->reclaim_ns / 1e6, q50, q99);
	if (cb_method_comparison(st, &pd, &td))
		return;
	printf("  tracepoint vs probe (stalls with direct compaction): count %llu vs %llu",
	       (unsigned long long)td.n, (unsigned long long)pd.n);
	if (td.n && pd.n)
		printf(", p50 %.0f vs %.0f ns, p99 %.0f vs %.0f ns", td.pct[CB_P50],
		       pd.pct[CB_P50], td.pct[CB_P99], pd.pct[CB_P99]);
	printf("\n");
}

static int analyze_trace(const char *path, bool json, bool all)
{
	struct cb_stalls st;
	struct cb_values val;
	struct cb_metric_in in = { .st = &st };
	char err[1024];

	if (cb_stalls_from_trace(path, &st, err, sizeof(err))) {
		fprintf(stderr, "compactbench analyze: %s\n", err);
		return 2;
	}
	cb_metrics_compute(&in, &val);
	if (json) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "schema", json_object_new_int(CB_SUMMARY_SCHEMA));
		json_object_object_add(o, "method", json_object_new_string(cb_stalls_method(&st)));
		json_object_object_add(o, "trace", cb_summary_trace_json(path, &st));
		json_object_object_add(o, "metrics", cb_summary_metrics_json(&val, true));
		json_object_object_add(o, "stalls", cb_summary_stalls_json(&st));
		json_object_object_add(o, "allocations", cb_summary_alloc_json(&st));
		json_object_object_add(o, "compaction", cb_summary_work_json(&st, NULL, NULL));
		json_object_object_add(o, "extfrag", cb_summary_extfrag_json(&st));
		if (st.probe.present) {
			json_object_object_add(o, "probe", cb_summary_probe_json(&st));
			json_object_object_add(o, "method_comparison",
					       cb_summary_method_comparison_json(&st));
		}
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							       JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		cb_analyze_print_trace(stdout, path, &st, &val, all);
		if (st.probe.present)
			print_probe(&st);
	}
	cb_stalls_free(&st);
	return 0;
}

/* the section "## Charts" that `plot` added to @run_dir/report.md, malloc'ed; NULL if none */
static char *charts_section(const char *run_dir)
{
	char path[PATH_MAX], *md, *cut, *ret = NULL;

	if (cb_path(path, sizeof(path), "%s/report.md", run_dir) < 0 ||
	    !(md = cb_read_file(path, NULL)))
		return NULL;
	cut = strstr(md, "\n## Charts\n");
	if (cut)
		ret = strdup(cut);
	free(md);
	return ret;
}

/* put @charts back at the end of the report.md the analyzer just wrote */
static void keep_charts(const char *run_dir, const char *charts)
{
	char path[PATH_MAX], *md, *both;
	size_t len = 0;

	if (!charts || cb_path(path, sizeof(path), "%s/report.md", run_dir) < 0 ||
	    !(md = cb_read_file(path, &len)))
		return;
	while (len && md[len - 1] == '\n')
		md[--len] = '\0';
	if (asprintf(&both, "%s\n%s", md, charts) >= 0) {
		if (cb_write_file_atomic(path, both, strlen(both)) < 0)
			fprintf(stderr, "compactbench analyze: %s: cannot write: %s\n", path,
				strerror(errno));
		free(both);
	}
	free(md);
}

/*
 * "never_ran": the cells of the matrix (run.json's total_cells) no directory of the run
 * holds, as the text report says them (a merge with shards missing); 0 for a shard
 */
static void add_never_ran(struct json_object *out, struct json_object *run, size_t listed)
{
	struct json_object *total = NULL, *shard = NULL;
	long long n = 0;

	if (json_object_object_get_ex(run, "total_cells", &total) &&
	    json_object_is_type(total, json_type_int) &&
	    !(json_object_object_get_ex(run, "shard", &shard) && shard))
		n = json_object_get_int64(total) - (long long)listed;
	json_object_object_add(out, "never_ran", json_object_new_int64(n > 0 ? n : 0));
}

/* a run's cells as JSON: each cell's id, names and summary.json (null if it has none) */
static void print_run_json(const char *run_dir, int status)
{
	char path[PATH_MAX], err[512];
	struct json_object *run, *cells, *out = json_object_new_object(), *arr;

	json_object_object_add(out, "run", json_object_new_string(run_dir));
	json_object_object_add(out, "status", json_object_new_int(status));
	arr = json_object_new_array();
	if (cb_path(path, sizeof(path), "%s/run.json", run_dir) == 0 &&
	    (run = cb_json_read_bounded(path, CB_RUNJSON_MAX_BYTES, err, sizeof(err)))) {
		if (json_object_object_get_ex(run, "cells", &cells) &&
		    json_object_is_type(cells, json_type_array)) {
			for (size_t i = 0; i < json_object_array_length(cells); i++) {
				struct json_object *c = json_object_array_get_idx(cells, i), *id;
				struct json_object *e = json_object_get(c), *sum = NULL;

				if (json_object_object_get_ex(c, "id", &id) &&
				    cb_path(path, sizeof(path), "%s/%s/summary.json", run_dir,
					    json_object_get_string(id)) == 0 &&
				    access(path, R_OK) == 0)
					sum = cb_json_read_bounded(path, CB_SUMMARY_MAX_BYTES, err,
								   sizeof(err));
				json_object_object_add(e, "summary", sum);
				json_object_array_add(arr, e);
			}
		}
		add_never_ran(out, run, json_object_array_length(arr));
		json_object_put(run);
	}
	json_object_object_add(out, "cells", arr);
	printf("%s\n", json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY |
						     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(out);
}

/* a run: the report (text, or with @json the cells as JSON), the Charts section kept */
static int analyze_run(const char *run_dir, bool json)
{
	char *charts = charts_section(run_dir), *text = NULL;
	size_t len = 0;
	FILE *out = json ? open_memstream(&text, &len) : stdout;
	int ret;

	if (!out)
		cb_oom();
	fflush(stdout);
	ret = cb_analyze_run(run_dir, out);
	if (json)
		fclose(out);
	free(text);
	if (ret >= 0)
		keep_charts(run_dir, charts);
	free(charts);
	if (json && ret >= 0)
		print_run_json(run_dir, ret);
	return ret < 0 ? 2 : ret;
}

static int analyze_one_cell(const char *dir, bool json)
{
	struct cb_cell_summary cs;
	char err[1024];
	int i;


	int rc = cb_summarize_cell(dir, &cs, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "compactbench analyze: %s\n", err);
		return rc == -2 ? 1 : 2;
	}
	if (json) {
		char path[PATH_MAX], *sum;

		if (cb_path(path, sizeof(path), "%s/summary.json", dir) < 0 ||
		    !(sum = cb_read_file(path, NULL))) {
			fprintf(stderr, "compactbench analyze: %s/summary.json: cannot read\n", dir);
			return 2;
		}
		fputs(sum, stdout);
		free(sum);
		return 0;
	}
	printf("cell %s: summary written to %s/summary.json%s\n", cs.id, dir,
	       cs.lost ? " (lost events!)" : "");
	for (i = 0; i < CB_M_NR; i++)
		print_value(stdout, &cs.val, i);
	if (cs.has_xcheck)
		printf("cross-check: dc_stalls %.0f vs compact_stall %.0f: %s\n",
		       cs.val.v[CB_M_DC_STALLS], cs.val.v[CB_M_VM_COMPACT_STALL],
		       cs.agree ? "agree" : "DISAGREE");
	return 0;
}

/* option @key with value @v: 0 go on, 1 done (exit 0: --help, --metrics), 2 bad input */
static int analyze_option(int key, const char *v, const char **format, bool *all)
{
	static double timeout;
	static uint64_t memory;
	char *end;
	double w;

	switch (key) {
	case 'h':
		usage(stdout);
		return 1;
	case OPT_METRICS:
		cb_metrics_print_table(stdout);
		return 1;
	case OPT_ALL:
		*all = true;
		return 0;
	case OPT_FORMAT:
		if (strcmp(v, "text") && strcmp(v, "json")) {
			fprintf(stderr, "compactbench analyze: --format takes text or json, not '%s'\n",
				v);
			usage(stderr);
			return 2;
		}
		*format = v;
		return 0;
	case OPT_WATTS:
		w = strtod(v, &end);
		if (!*v || *end || !(w > 0) || w > 10000) {
			fprintf(stderr, "compactbench analyze: --watts-per-core takes a number of watts "
				"in (0, 10000], not '%s'\n", v);
			return 2;
		}
		cb_summary_set_watts_per_core(w);
		return 0;
	case OPT_READER_TIMEOUT:
		if (cb_parse_duration(v, &timeout) || !(timeout >= 1) || timeout > 86400) {
			fprintf(stderr, "compactbench analyze: --reader-timeout takes a duration "
				"from 1s to 24h, not '%s'\n", v);
			return 2;
		}
		break;
	case OPT_READER_MEMORY:
		if (cb_parse_size(v, 0, &memory) || memory < (64ULL << 20) || memory > (1ULL << 44)) {
			fprintf(stderr, "compactbench analyze: --reader-memory takes a size from 64M "
				"to 16T, not '%s'\n", v);
			return 2;
		}
		break;
	default:
		return 2;
	}
	cb_stalls_reader_limits((unsigned int)timeout, memory);
	return 0;
}

int cmd_analyze(int argc, char **argv)
{
	const char *target = NULL, *format = "text";
	bool all = false;
	char path[PATH_MAX];
	struct cb_opt_parser p;
	struct stat sb;
	int c, rc;

	cb_opt_parser_init(&p, analyze_opts, CB_ARRAY_SIZE(analyze_opts), 0);
	while ((c = cb_opt_next(&p, argc, argv)) != -1) {
		if (c == '?') {
			rc = cb_opt_bad("analyze", analyze_opts, CB_ARRAY_SIZE(analyze_opts), argv);
			usage(stderr);
			return rc;
		}
		rc = analyze_option(c, optarg, &format, &all);
		if (rc)
			return rc == 1 ? 0 : rc;
	}
	if (argc - optind > 1) {
		fprintf(stderr, "compactbench analyze: one DIR or FILE.dat, not '%s' too\n",
			argv[optind + 1]);
		usage(stderr);
		return 2;
	}
	target = optind < argc ? argv[optind] : NULL;
	if (!target) {
		usage(stderr);
		return 2;
	}
	if (stat(target, &sb) < 0) {
		fprintf(stderr, "compactbench analyze: %s: %s\n", target, strerror(errno));
		return 2;
	}
	if (!S_ISDIR(sb.st_mode))
		return analyze_trace(target, !strcmp(format, "json"), all);
	if (cb_path(path, sizeof(path), "%s/run.json", target) == 0 && access(path, F_OK) == 0)
		return analyze_run(target, !strcmp(format, "json"));
	if (cb_path(path, sizeof(path), "%s/meta.json", target) == 0 && access(path, F_OK) == 0)
		return analyze_one_cell(target, !strcmp(format, "json"));
	fprintf(stderr, "compactbench analyze: %s: neither a run (run.json) nor a cell (meta.json)\n",
		target);
	return 2;
}
