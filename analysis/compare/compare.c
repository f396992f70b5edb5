// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c - `compactbench compare`: every metric of summary.json, baseline against each
 * candidate, as a fixed-width table (for a cover letter, the way mmtests' compare-kernels
 * output is pasted), markdown or JSON.
 */
#include "compare.h"

#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAIRS 256
#define MAX_RUNS 16

int cb_compare_metric(const struct cb_group *a, const struct cb_group *b, int m, double conf,
		      struct cb_cmp_row *row)
{
	double *va = calloc(a->n + 1, sizeof(double)), *vb = calloc(b->n + 1, sizeof(double));
	enum cb_better better = cb_metrics[m].better;

	if (!va || !vb)
		abort();
	memset(row, 0, sizeof(*row));
	row->metric = m;
	row->p = row->delta_pct = NAN;
	row->diff.lo = row->diff.hi = row->rel.lo = row->rel.hi = NAN;
	row->na = cb_group_values(a, m, va);
	row->nb = cb_group_values(b, m, vb);
	if (!row->na || !row->nb) {
		free(va);
		free(vb);
		return -1;
	}
	row->ma = cb_stats_median(va, row->na);
	row->mb = cb_stats_median(vb, row->nb);
	if (row->ma != 0)
		row->delta_pct = (row->mb - row->ma) / fabs(row->ma) * 100;
	cb_stats_bootstrap(va, row->na, vb, row->nb, conf, CB_BOOTSTRAP_SEED, CB_BOOTSTRAP_ITERS,
			   &row->diff, &row->rel);
	if (row->na >= 2 && row->nb >= 2)
		row->p = cb_stats_mann_whitney(vb, row->nb, va, row->na, NULL);
	row->significant = !isnan(row->p) && row->p < 1 - conf &&
			   (row->diff.lo > 0 || row->diff.hi < 0);
	row->worse = (better == CB_BETTER_LOWER && row->mb > row->ma) ||
		     (better == CB_BETTER_HIGHER && row->mb < row->ma);
	if (!row->significant)
		row->reps_needed = cb_stats_reps_needed(va, row->na, vb, row->nb, 1 - conf, 0.8);
	free(va);
	free(vb);
	return 0;
}

enum fmt { FMT_TEXT, FMT_MD, FMT_JSON };

static void fmt_num(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else if (fabs(v) >= 1e6 || (fabs(v) < 1e-3 && v != 0))
		snprintf(buf, size, "%.4g", v);
	else if (v == floor(v))
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%.4g", v);
}

static void fmt_pct(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%+.1f%%", v);
}

static void fmt_ci(char *buf, size_t size, const struct cb_cmp_row *r)
{
	char lo[32], hi[32];

	if (!isnan(r->rel.lo)) {
		fmt_pct(lo, sizeof(lo), r->rel.lo * 100);
		fmt_pct(hi, sizeof(hi), r->rel.hi * 100);
	} else {
		fmt_num(lo, sizeof(lo), r->diff.lo);
		fmt_num(hi, sizeof(hi), r->diff.hi);
	}
	snprintf(buf, size, "[%s, %s]", lo, hi);
}

static const char *group_name(const struct cb_run_data *rd, const struct cb_group *g, char *buf,
			      size_t size)
{
	snprintf(buf, size, "%s:%s/%s", rd ? rd->dir : "", g->kernel, g->setting);
	return buf;
}

/*
 * The exchange rate: background CPU spent per unit of foreground stall time avoided, from
 * the medians; undefined (and said so) when no stall time was avoided.
 */
static void print_exchange_rate(FILE *out, enum fmt f, const struct cb_group *a,
				const struct cb_group *b)
{
	int mc = cb_metric_find("cpu_background_ns"), ms = cb_metric_find("dc_stall_total_ns");
	struct cb_cmp_row c, s;

	if (mc < 0 || ms < 0 || cb_compare_metric(a, b, mc, 0.95, &c) < 0 ||
	    cb_compare_metric(a, b, ms, 0.95, &s) < 0)
		return;
	if (s.ma - s.mb <= 0) {
		fprintf(out, "%s  exchange rate: no stall time avoided, so none to buy\n",
			f == FMT_MD ? "-" : " ");
		return;
	}
	fprintf(out, "%s  exchange rate: %.3g ns of kcompactd+khugepaged+policy CPU per ns of stall "
		"avoided\n",
		f == FMT_MD ? "-" : " ", (c.mb - c.ma) / (s.ma - s.mb));
}

static void print_avoided(FILE *out, enum fmt f, const struct cb_group *a, const struct cb_group *b,
			  double conf)
{
	static const char *const avoided[] = { "dc_stalls", "dc_stalls_per_1k_alloc",
					       "dc_stall_total_ns", NULL };
	static const char *const cost[] = { "cpu_background_ns", "cpu_policy_ns", "energy_rapl_j",
					    "energy_modeled_j", NULL };
	struct cb_cmp_row r;
	char v[32], lo[32], hi[32];

	fprintf(out, f == FMT_MD ? "\n**Direct compaction avoided** (baseline - candidate, per "
				   "repetition, %.0f%% CI)\n\n" :
				   "\nDirect compaction avoided (baseline - candidate, per repetition, "
				   "%.0f%% CI)\n", conf * 100);
	for (int i = 0; avoided[i]; i++) {
		int m = cb_metric_find(avoided[i]);

		if (m < 0 || cb_compare_metric(a, b, m, conf, &r) < 0) {
			fprintf(out, "%s  %-26s not measured\n", f == FMT_MD ? "-" : " ", avoided[i]);
			continue;
		}
		fmt_num(v, sizeof(v), r.ma - r.mb);
		fmt_num(lo, sizeof(lo), -r.diff.hi);
		fmt_num(hi, sizeof(hi), -r.diff.lo);
		fprintf(out, "%s  %-26s %12s %s  [%s, %s]\n", f == FMT_MD ? "-" : " ", avoided[i], v,
			cb_metrics[m].unit, lo, hi);
	}
	for (int i = 0; cost[i]; i++) {
		int m = cb_metric_find(cost[i]);

		if (m < 0 || cb_compare_metric(a, b, m, conf, &r) < 0) {
			fprintf(out, "%s  cost %-21s not measured here\n", f == FMT_MD ? "-" : " ",
				cost[i]);
			continue;
		}
		fmt_num(v, sizeof(v), r.mb - r.ma);
		fmt_num(lo, sizeof(lo), r.diff.lo);
		fmt_num(hi, sizeof(hi), r.diff.hi);
		fprintf(out, "%s  cost %-21s %12s %s more in the candidate  [%s, %s]%s\n",
			f == FMT_MD ? "-" : " ", cost[i], v, cb_metrics[m].unit, lo, hi,
			strstr(cost[i], "modeled") ? " (modeled)" : "");
	}
	print_exchange_rate(out, f, a, b);
}

static void print_drift(FILE *out, enum fmt f, const struct cb_group *g, const char *name)
{
	static const char *const watch[] = { "dc_stalls", "dc_stall_total_ns",
					     "wl_thp_success_rate", NULL };

	for (int i = 0; watch[i]; i++) {
		int m = cb_metric_find(watch[i]);
		double y[1024], slope, p;
		size_t n;

		if (m < 0 || g->n > 1024)
			continue;
		/* in repetition order, nulls left out: the trend is over what was measured */
		n = cb_group_values(g, m, y);
		if (cb_stats_trend(y, n, &slope, &p) < 0 || !(p < 0.05))
			continue;
		fprintf(out, "%sdrift: %s: %s changes by %+.4g per repetition (p = %.3f): later "
			     "repetitions differ from earlier ones, which can pass for a difference "
			     "between settings\n", f == FMT_MD ? "- " : "", name, watch[i], slope, p);
	}
}

static void print_pair(FILE *out, enum fmt f, const struct cb_run_data *ra,
		       const struct cb_run_data *rb, const struct cb_group *a,
		       const struct cb_group *b, double conf)
{
	char na[PATH_MAX + 140], nb[PATH_MAX + 140], v1[32], v2[32], d[32], ci[80], p[16];
	long need = 0;

	fprintf(out, f == FMT_MD ? "\n### workload `%s`: `%s` (%zu reps) vs `%s` (%zu reps)\n\n" :
				   "\nworkload %s: baseline %s (%zu reps) vs candidate %s (%zu reps)\n",
		a->workload, group_name(ra, a, na, sizeof(na)), a->n,
		group_name(rb, b, nb, sizeof(nb)), b->n);
	if (f == FMT_MD)
		fprintf(out, "| metric | unit | baseline | candidate | delta | %.0f%% CI | p |  |\n"
			     "| --- | --- | ---: | ---: | ---: | --- | ---: | --- |\n", conf * 100);
	else
		fprintf(out, "%-28s %-6s %12s %12s %9s %-22s %7s\n", "metric", "unit", "baseline",
			"candidate", "delta", "CI of delta", "p");
	for (int m = 0; m < CB_M_NR; m++) {
		struct cb_cmp_row r;
		const char *mark;

		if (cb_compare_metric(a, b, m, conf, &r) < 0)
			continue;
		fmt_num(v1, sizeof(v1), r.ma);
		fmt_num(v2, sizeof(v2), r.mb);
		fmt_pct(d, sizeof(d), r.delta_pct);
		fmt_ci(ci, sizeof(ci), &r);
		snprintf(p, sizeof(p), isnan(r.p) ? "-" : "%.3f", r.p);
		mark = !r.significant ? "" :
		       cb_metrics[m].better == CB_BETTER_NONE ? "*" : r.worse ? "* worse" : "* better";
		if (f == FMT_MD)
			fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", cb_metrics[m].name,
				cb_metrics[m].unit, v1, v2, d, ci, p, mark);
		else
			fprintf(out, "%-28s %-6s %12s %12s %9s %-22s %7s %s\n", cb_metrics[m].name,
				cb_metrics[m].unit, v1, v2, d, ci, p, mark);
		if (m == cb_metric_find("dc_stalls") && !r.significant)
			need = r.reps_needed;
	}
	print_avoided(out, f, a, b, conf);
	if (need > 0)
		fprintf(out, "%sinconclusive: the change in dc_stalls is not significant; about %ld "
			     "repetitions per side would show a change of this size (80%% power)\n",
			f == FMT_MD ? "\n- " : "", need);
	print_drift(out, f, a, na);
	print_drift(out, f, b, nb);
}

static struct json_object *pair_json(const struct cb_run_data *ra, const struct cb_run_data *rb,
				     const struct cb_group *a, const struct cb_group *b, double conf)
{
	struct json_object *o = json_object_new_object(), *rows = json_object_new_object();
	char na[PATH_MAX + 140], nb[PATH_MAX + 140];

	json_object_object_add(o, "workload", json_object_new_string(a->workload));
	json_object_object_add(o, "baseline", json_object_new_string(group_name(ra, a, na, sizeof(na))));
	json_object_object_add(o, "candidate", json_object_new_string(group_name(rb, b, nb, sizeof(nb))));
	for (int m = 0; m < CB_M_NR; m++) {
		struct cb_cmp_row r;
		struct json_object *x;

		if (cb_compare_metric(a, b, m, conf, &r) < 0)
			continue;
		x = json_object_new_object();
		json_object_object_add(x, "baseline", json_object_new_double(r.ma));
		json_object_object_add(x, "candidate", json_object_new_double(r.mb));
		json_object_object_add(x, "reps", json_object_new_int64((int64_t)(r.na < r.nb ? r.na : r.nb)));
		json_object_object_add(x, "delta_pct", isnan(r.delta_pct) ? NULL :
				       json_object_new_double(r.delta_pct));
		json_object_object_add(x, "ci_diff_lo", json_object_new_double(r.diff.lo));
		json_object_object_add(x, "ci_diff_hi", json_object_new_double(r.diff.hi));
		json_object_object_add(x, "p", isnan(r.p) ? NULL : json_object_new_double(r.p));
		json_object_object_add(x, "significant", json_object_new_boolean(r.significant));
		json_object_object_add(x, "worse", json_object_new_boolean(r.worse));
		json_object_object_add(rows, cb_metrics[m].name, x);
	}
	json_object_object_add(o, "metrics", rows);
	return o;
}

/* "BASE,CAND" into the kernels of two sides */
static int parse_kernels(const char *arg, struct cb_side *sides)
{
	const char *comma = strchr(arg, ',');

	memset(sides, 0, 2 * sizeof(*sides));
	if (!comma || comma == arg || !comma[1] || strchr(comma + 1, ',') ||
	    comma - arg >= (long)sizeof(sides[0].kernel) ||
	    strlen(comma + 1) >= sizeof(sides[1].kernel))
		return -1;
	snprintf(sides[0].kernel, sizeof(sides[0].kernel), "%.*s", (int)(comma - arg), arg);
	snprintf(sides[1].kernel, sizeof(sides[1].kernel), "%s", comma + 1);
	return 0;
}

static const char usage[] =
	"usage: compactbench compare DIR_A [DIR_B...] [--format text|md|json] [--confidence C]\n"
	"       compactbench compare DIR --kernels BASE,CAND [--format ...] [--confidence C]\n"
	"\n"
	"Every metric of summary.json, baseline against each candidate: medians over\n"
	"repetitions, delta %, bootstrap CI of the difference (seeded: same runs, same numbers),\n"
	"Mann-Whitney p; '*' marks a change significant at the confidence level. Repetitions\n"
	"are the unit. With one run, every setting is compared with its first setting; with\n"
	"more, DIR_A is the baseline and each other run the candidate, groups paired by setting\n"
	"and workload. With --kernels, kernel BASE of the one run DIR is the baseline and\n"
	"kernel CAND the candidate, groups paired by setting and workload (the A/B of `run\n"
	"--resume` across a reboot, or a matrix of two kernels). 'Direct compaction avoided'\n"
	"has its own section; drift across repetitions is reported when significant. Cells\n"
	"not run yet (a kernel not booted yet: run.json's \"pending\") are listed as pending,\n"
	"not as failures.\n"
	"\n"
	"  --format F         text (default, fixed width), md or json\n"
	"  --confidence C     0.95 by default\n"
	"  --kernels B,C      compare kernel C against kernel B within the one run DIR\n";

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' }, { "confidence", required_argument, NULL, 'c' },
		{ "kernels", required_argument, NULL, 'k' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cb_side sides[2];
	const char *kernels = NULL;
	struct cb_run_data runs[MAX_RUNS];
	const struct cb_group *base[MAX_PAIRS], *cand[MAX_PAIRS];
	struct json_object *all = NULL;
	enum fmt f = FMT_TEXT;
	double conf = 0.95;
	char *end;
	int c, nr = 0, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "text"))
				f = FMT_TEXT;
			else if (!strcmp(optarg, "md"))
				f = FMT_MD;
			else if (!strcmp(optarg, "json"))
				f = FMT_JSON;
			else {
				fprintf(stderr, "compactbench compare: --format '%s': text, md or json\n",
					optarg);
				return 2;
			}
			break;
		case 'c':
			conf = strtod(optarg, &end);
			if (*end || !(conf > 0.5 && conf < 1)) {
				fprintf(stderr, "compactbench compare: --confidence '%s': a number in "
						"(0.5, 1)\n", optarg);
				return 2;
			}
			break;
		case 'k':
			kernels = optarg;
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
	if (kernels && (argc - optind != 1 || parse_kernels(kernels, sides) < 0)) {
		fprintf(stderr, "compactbench compare: --kernels '%s': two kernels BASE,CAND of one "
				"run DIR\n", kernels);
		return 2;
	}
	if (cb_runs_load_all(argv + optind, argc - optind, runs, "compare") < 0)
		return 2;
	nr = argc - optind;
	for (int k = 0; kernels && k < 2; k++) {
		char err[1024];

		sides[k].rd = &runs[0];
		if (cb_side_check(&sides[k], err, sizeof(err)) < 0) {
			fprintf(stderr, "compactbench compare: --kernels: %s\n", err);
			cb_run_free(&runs[0]);
			return 2;
		}
	}
	if (f == FMT_JSON)
		all = json_object_new_array();
	for (int k = nr == 1 ? 0 : 1; k < nr; k++) {
		const struct cb_run_data *ra = &runs[0], *rb = nr == 1 ? &runs[0] : &runs[k];
		size_t np = kernels ? cb_sides_pair(&sides[0], &sides[1], base, cand, MAX_PAIRS) :
			    cb_runs_pair(ra, nr == 1 ? NULL : rb, base, cand, MAX_PAIRS);
		char why[256];

		if (ra != rb && !cb_runs_same_config(ra, rb, why, sizeof(why)))
			fprintf(stderr, "compactbench compare: %s and %s: %s: compared anyway, but "
					"`gate` gives no verdict on them\n", ra->dir, rb->dir, why);
		if (!np && kernels)
			fprintf(stderr, "compactbench compare: %s: kernels %s and %s share no complete "
					"(setting, workload) to compare\n", ra->dir, sides[0].kernel,
				sides[1].kernel);
		else if (!np)
			fprintf(stderr, "compactbench compare: %s and %s share no (setting, workload) "
					"to compare\n", ra->dir, rb->dir);
		for (size_t i = 0; i < np; i++) {
			if (f == FMT_JSON)
				json_object_array_add(all, pair_json(ra, rb, base[i], cand[i], conf));
			else
				print_pair(stdout, f, ra, rb, base[i], cand[i], conf);
		}
	}
	/* what could not be compared because it has not run yet (stderr named it too) */
	for (int k = 0; f != FMT_JSON && k < nr; k++) {
		struct cb_side whole = { .rd = &runs[k] };

		if (runs[k].npending)
			printf("\n%s", f == FMT_MD ? "**Pending** (not compared yet)\n\n" : "");
		cb_side_print_pending(stdout, f == FMT_MD ? "- pending: " : "pending: ", &whole);
	}
	if (all)
		printf("%s\n", json_object_to_json_string_ext(all, JSON_C_TO_STRING_PRETTY));
	json_object_put(all);
	for (int k = 0; k < nr; k++)
		cb_run_free(&runs[k]);
	return rc;
}
