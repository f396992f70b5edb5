// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c - `compactbench compare`: every metric of summary.json, baseline against each
 * candidate, as a fixed-width table (for a cover letter, the way mmtests' compare-kernels
 * output is pasted), markdown or JSON.
 */
#include "cmd_opt.h"
#include "compare.h"
#include "exchange.h"
#include "learning.h"
#include "xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <gsl/gsl_statistics_double.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAIRS 256
#define MAX_RUNS CB_COMPARE_MAX_RUNS

int cb_compare_metric(const struct cb_group *a, const struct cb_group *b, int m, double conf,
		      struct cb_cmp_row *row)
{
	double *va = cb_xcalloc(a->n + 1, sizeof(double)), *vb = cb_xcalloc(b->n + 1, sizeof(double));
	const char **sa = cb_xcalloc(a->n + 1, sizeof(*sa)), **sb = cb_xcalloc(b->n + 1, sizeof(*sb));
	size_t na, nb;
	int rc;

	row->metric = m;
	na = cb_group_values_states(a, m, va, sa);
	nb = cb_group_values_states(b, m, vb, sb);
	/* paired where both sides ran from the same saved guests (qemu guest_state = saved) */
	rc = cb_judge_states(va, sa, na, vb, sb, nb, cb_metrics[m].better, conf, &row->j);
	free(va);
	free(vb);
	free(sa);
	free(sb);
	return rc;
}

enum fmt { FMT_TEXT = CB_COMPARE_TEXT, FMT_MD = CB_COMPARE_MD, FMT_JSON = CB_COMPARE_JSON };

/* what one pair prints: the options of this compare */
struct view {
	enum fmt f;
	bool all;
	double conf;
};

/* whether a row is worth a line: a value somewhere, and not zero everywhere */
static bool row_shown(const struct cb_cmp_row *r)
{
	const struct cb_judgement *j = &r->j;

	if (!j->na && !j->nb)
		return false;
	if (j->state == CB_J_NO_VALUE)
		return true;
	return !(j->ma == 0 && j->mb == 0 && (j->sd == 0 || (isnan(j->sd) && j->diff.lo == 0 &&
							     j->diff.hi == 0)));
}

/* the metrics of the view in order: the key metrics by their place, or every one */
static int view_metrics(const struct view *v, int *out)
{
	int n = 0;

	if (v->all) {
		for (int m = 0; m < CB_M_NR; m++)
			out[n++] = m;
		return n;
	}
	return cb_metrics_view(CB_VIEW_KEY, out, CB_M_NR);
}

/* "[-61%, -20%]" or, near a zero baseline, "[-8.5, +1.2] ms" */
static void fmt_ci(char *buf, size_t size, const struct cb_judgement *j, const char *unit)
{
	double big = fmax(fabs(j->diff.lo), fabs(j->diff.hi)), scale = 1;
	const char *u = "";

	if (isnan(j->diff.lo)) {
		snprintf(buf, size, "-");
		return;
	}
	if (!isnan(j->rel.lo) && !cb_near_zero(j->ma, cb_judge_to(j))) {
		snprintf(buf, size, "[%+.0f%%, %+.0f%%]", j->rel.lo * 100, j->rel.hi * 100);
		return;
	}
	if (!strcmp(unit, "ns")) {
		scale = big >= 1e9 ? 1e9 : big >= 1e6 ? 1e6 : big >= 1e3 ? 1e3 : 1;
		u = big >= 1e9 ? " s" : big >= 1e6 ? " ms" : big >= 1e3 ? " us" : " ns";
	} else if (!strcmp(unit, "ratio")) {
		scale = 0.01;
		u = " pp";
	}
	snprintf(buf, size, big / scale >= 100 ? "[%+.0f, %+.0f]%s" : "[%+.2g, %+.2g]%s",
		 j->diff.lo / scale + 0.0, j->diff.hi / scale + 0.0, u);
}

/* the verdict column: better/worse where significant, else the detectable change */
static void fmt_verdict(char *buf, size_t size, const struct cb_cmp_row *r)
{
	const struct cb_judgement *j = &r->j;
	char x[32];

	switch (j->state) {
	case CB_J_NO_VALUE:
		snprintf(buf, size, j->na ? "base only" : "cand only");
		break;
	case CB_J_SIGNIFICANT:
		snprintf(buf, size, "%s", cb_metrics[r->metric].better == CB_BETTER_NONE ? "changed" :
					  j->worse ? "worse" : "better");
		break;
	case CB_J_NOT_SIGNIFICANT:
		cb_fmt_mde(x, sizeof(x), j, cb_metrics[r->metric].unit);
		snprintf(buf, size, "mde %s", x);
		break;
	case CB_J_CANNOT_JUDGE:
		if (j->reps_needed < 0)
			snprintf(buf, size, "need >%d", CB_VERDICT_MAX_REPS);
		else
			snprintf(buf, size, "need %ld", j->reps_needed);
		break;
	}
}

/* one metric row as text (80 columns: a long name gets a line of its own) or markdown */
static void print_row(FILE *out, const struct view *v, const struct cb_cmp_row *r)
{
	const struct cb_metric *mt = &cb_metrics[r->metric];
	const struct cb_judgement *j = &r->j;
	char va[32], vb[32], d[32], ci[48], p[16], vd[32];

	cb_fmt_value(va, sizeof(va), j->na ? j->ma : NAN, mt->unit);
	cb_fmt_value(vb, sizeof(vb), j->nb ? j->mb : NAN, mt->unit);
	cb_fmt_change(d, sizeof(d), j->ma, cb_judge_to(j), mt->unit);
	fmt_ci(ci, sizeof(ci), j, mt->unit);
	snprintf(p, sizeof(p), isnan(j->p) ? "-" : "%.3f", j->p);
	fmt_verdict(vd, sizeof(vd), r);
	if (v->f == FMT_MD) {
		fprintf(out, "| `%s` | %s | %s | %s | %s | %s | %s |\n", mt->name, va, vb, d, ci, p,
			vd);
		return;
	}
	if (strlen(mt->name) > 20)
		fprintf(out, "%s\n%-20s", mt->name, "");
	else
		fprintf(out, "%-20s", mt->name);
	fprintf(out, " %8s %8s %8s %14s %5s %s\n", va, vb, d, ci, p, vd);
}

static const char *group_name(const struct cb_run_data *rd, const struct cb_group *g, char *buf,
			      size_t size)
{
	snprintf(buf, size, "%s:%s/%s", rd ? rd->dir : "", g->kernel, g->setting);
	return buf;
}

static void json_num(struct json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, isnan(v) || isinf(v) ? NULL : json_object_new_double(v));
}

static const char *const state_names[] = { "no value", "significant", "not significant",
					   "cannot judge" };

/* what the waves of @g alone give of its CV of stall time (cb_stats_cv_waves), and *@waves */
static double group_cv_waves(const struct cb_group *g, double *waves)
{
	*waves = g->n ? gsl_stats_mean(g->val[CB_M_WAVE_COUNT], 1, g->n) : NAN;
	return cb_stats_cv_waves(g->val[CB_M_DC_STALL_TOTAL_NS], g->val[CB_M_WAVE_COUNT],
				 g->val[CB_M_WAVE_STALL_NS_SD], g->n);
}

/* every field of a judged row, the verdict's words included */
static struct json_object *row_json(const struct cb_cmp_row *r, double conf,
				    const struct cb_group *a, const struct cb_group *b)
{
	const struct cb_metric *mt = &cb_metrics[r->metric];
	const struct cb_judgement *j = &r->j;
	struct json_object *x = json_object_new_object();
	char phrase[512];

	json_object_object_add(x, "unit", json_object_new_string(mt->unit));
	json_object_object_add(x, "key", json_object_new_int(mt->key));
	json_object_object_add(x, "reps_baseline", json_object_new_int64((int64_t)j->na));
	json_object_object_add(x, "reps_candidate", json_object_new_int64((int64_t)j->nb));
	json_num(x, "baseline", j->ma);
	json_num(x, "candidate", j->mb);
	json_num(x, "delta_pct", j->delta_pct);
	json_object_object_add(x, "relative",
			       json_object_new_boolean(!cb_near_zero(j->ma, cb_judge_to(j))));
	json_num(x, "ci_diff_lo", j->diff.lo);
	json_num(x, "ci_diff_hi", j->diff.hi);
	json_num(x, "ci_rel_lo", j->rel.lo);
	json_num(x, "ci_rel_hi", j->rel.hi);
	json_num(x, "p", j->p);
	json_object_object_add(x, "significant", json_object_new_boolean(j->significant));
	json_object_object_add(x, "worse", json_object_new_boolean(j->worse));
	json_object_object_add(x, "state", json_object_new_string(state_names[j->state]));
	json_num(x, "sd", j->sd);
	json_num(x, "cv_baseline", j->cv_a);
	/* p, ci, sd and mde from the differences state by state (verdict.h) */
	json_object_object_add(x, "paired", json_object_new_boolean(j->paired));
	json_num(x, "cv_candidate", j->cv_b);
	json_num(x, "state_r", j->state_r);	/* print_state_r */
	json_num(x, "state_r_p", j->state_r_p);
	json_num(x, "state_r_lo", j->state_r_ci.lo);
	json_num(x, "state_r_hi", j->state_r_ci.hi);
	if (r->metric == CB_M_DC_STALL_TOTAL_NS) {	/* print_spread */
		double w;

		json_num(x, "cv_waves_baseline", group_cv_waves(a, &w));
		json_num(x, "cv_waves_candidate", group_cv_waves(b, &w));
	}
	json_num(x, "mde", j->mde);
	json_num(x, "mde_pct", j->mde_pct);
	json_object_object_add(x, "mde_unreachable", json_object_new_boolean(isinf(j->mde)));
	json_num(x, "reps_needed_target", j->target);
	json_object_object_add(x, "reps_needed", j->state == CB_J_SIGNIFICANT ? NULL :
			       json_object_new_int64(j->reps_needed));
	cb_verdict_phrase(phrase, sizeof(phrase), j, mt->name, mt->unit,
			  !strcmp(mt->unit, "count"), conf);
	json_object_object_add(x, "verdict", json_object_new_string(phrase));
	return x;
}

/* the exchange rate (cb_exchange_rate) from the medians; said so when no stall time was avoided */
static void exchange_rate(FILE *out, const struct view *v, struct json_object *o,
			  const struct cb_group *a, const struct cb_group *b)
{
	struct cb_cmp_row c, s;
	struct cb_exchange x;

	if (cb_compare_metric(a, b, CB_M_CPU_BACKGROUND_NS, v->conf, &c) < 0 ||
	    cb_compare_metric(a, b, CB_M_DC_STALL_TOTAL_NS, v->conf, &s) < 0)
		return;
	if (cb_exchange_rate(c.j.ma, c.j.mb, s.j.ma, s.j.mb, &x)) {
		if (o)
			json_object_object_add(o, "exchange_rate", NULL);
		else
			fprintf(out, "%s  exchange rate: no stall time avoided, so none to buy\n",
				v->f == FMT_MD ? "-" : " ");
		return;
	}
	if (o)
		json_num(o, "exchange_rate", x.rate);
	else
		fprintf(out, "%s  exchange rate: %.3g ns of background CPU per ns of stall avoided%s\n",
			v->f == FMT_MD ? "-" : " ", x.rate,
			s.j.significant ? "" : " (stall time: no detectable difference)");
}

/*
 * why side @who's CV @cv is wide, from its waves' own part @cvw (of @waves waves a
 * repetition): more waves narrow that part, not the rest. The sentence follows the rest:
 * at or over the target no number of waves would do; under it, a count (or, past
 * WAVES_MAX, that it would take more), which holds only as far as the rest, measured on a
 * few repetitions, does
 */
#define WAVES_MAX 100000
static void print_wide(FILE *out, const char *who, double cv, double cvw, double waves)
{
	long need = cb_stats_waves_for(cv, cvw, waves, CB_STATS_CV_WIDE, WAVES_MAX);
	double rest = cb_stats_cv_rest(cv, cvw);
	/* a rest that rounds to the target gets a decimal, lest "25%" read as "at it" */
	int prec = rest < CB_STATS_CV_WIDE - 0.005 ? 0 : 1;

	if (need > 0)
		fprintf(out, " The %s's waves alone would give %.0f%% (its CV: %.0f%%, the rest: "
			"%.*f%%): about %ld waves a repetition (not %.0f) would bring it to %.0f%%, "
			"if the rest held.", who, cvw * 100, cv * 100, prec, rest * 100, need, waves,
			CB_STATS_CV_WIDE * 100);
	else if (rest < CB_STATS_CV_WIDE)
		fprintf(out, " The %s's waves alone would give %.0f%% (its CV: %.0f%%), the rest "
			"%.1f%%, just under %.0f%%: more than %d waves a repetition would be needed "
			"to bring it there; more repetitions narrow the CI.", who, cvw * 100,
			cv * 100, rest * 100, CB_STATS_CV_WIDE * 100, WAVES_MAX);
	else
		fprintf(out, " The %s's repetitions differ by %.0f%% beyond what their waves give "
			"(%.0f%%): more waves would not bring it to %.0f%%, more repetitions narrow "
			"the CI.", who, rest * 100, cvw * 100, CB_STATS_CV_WIDE * 100);
}

/*
 * whether the two sides share the start states' spread: their stall times' correlation over
 * the states (analysis/README.md: the spread of a repetition)
 */
static void print_state_r(FILE *out, const struct view *v, const struct cb_judgement *j)
{
	const char *says = "no effect of the states that both sides share was shown";

	if (!j->paired || isnan(j->state_r))
		return;
	if (j->state_r_p < 1 - v->conf)
		says = j->state_r > 0 ? "a state that stalls more under one side stalls more under "
					"the other, and pairing takes that out" :
					"a state that stalls more under one side stalls less under "
					"the other, and pairing widens the differences";
	fprintf(out, "%sOver the states the two sides' stall times correlate with r = %.2f (",
		v->f == FMT_MD ? " " : "\n", j->state_r);
	if (!isnan(j->state_r_ci.lo))
		fprintf(out, "%.0f%% CI %.2f to %.2f, ", v->conf * 100, j->state_r_ci.lo,
			j->state_r_ci.hi);
	fprintf(out, "p = %.2g): %s.", j->state_r_p, says);
}

/*
 * The spread of stall time per repetition on each side (the CV, sd / mean), the figure that
 * says whether a repetition is a measurement or a coin flip, from the judgement of the
 * table's stall-time row (NULL: none), and with waves the part of it their own spread gives
 * (cb_stats_cv_waves), which says whether more waves or more repetitions would narrow it.
 * In JSON every row has the CV, the stall-time row the waves' part.
 */
static void print_spread(FILE *out, const struct view *v, const struct cb_judgement *j,
			 const struct cb_group *a, const struct cb_group *b)
{
	char ca[16] = "-", cb[16] = "-";
	double wa, wb, cwa, cwb;
	bool wide_a, wide_b;

	if (!j || (isnan(j->cv_a) && isnan(j->cv_b)))
		return;
	cwa = group_cv_waves(a, &wa);
	cwb = group_cv_waves(b, &wb);
	wide_a = j->cv_a > CB_STATS_CV_WIDE;
	wide_b = j->cv_b > CB_STATS_CV_WIDE;
	if (!isnan(j->cv_a))
		snprintf(ca, sizeof(ca), "%.0f%%", j->cv_a * 100);
	if (!isnan(j->cv_b))
		snprintf(cb, sizeof(cb), "%.0f%%", j->cv_b * 100);
	fprintf(out, "%sCV of stall time per repetition (sd / mean): baseline %s, candidate %s",
		v->f == FMT_MD ? "\n" : "", ca, cb);
	if (!isnan(cwa) && !isnan(cwb))
		fprintf(out, "; the spread of their own waves alone would give %.0f%% and %.0f%%",
			cwa * 100, cwb * 100);
	fputc('.', out);
	if (wide_a || wide_b) {
		fprintf(out, "%sOver %.0f%%, one repetition says little",
			v->f == FMT_MD ? " " : "\n", CB_STATS_CV_WIDE * 100);
		if ((wide_a && isnan(cwa)) || (wide_b && isnan(cwb)))
			fprintf(out, ": more waves or repetitions narrow it.");
		else
			fputc('.', out);
		if (wide_a && !isnan(cwa))
			print_wide(out, "baseline", j->cv_a, cwa, wa);
		if (wide_b && !isnan(cwb))
			print_wide(out, "candidate", j->cv_b, cwb, wb);
	}
	if (j->paired && !isnan(j->sd) && j->ma != 0)
		fprintf(out, "%sPaired over %zu saved states (guest_state = saved): p, CI, mde and "
			"need N%scome from the differences state by state (signed-rank test); their "
			"sd is %.0f%% of the baseline median.", v->f == FMT_MD ? " " : "\n", j->na,
			v->f == FMT_MD ? " " : "\n", j->sd / fabs(j->ma) * 100);
	print_state_r(out, v, j);
	fputc('\n', out);
}

/* direct compaction avoided and what it cost, each with its CI and its judgement */
static void print_avoided(FILE *out, const struct view *v, struct json_object *o,
			  const struct cb_group *a, const struct cb_group *b)
{
	int ids[CB_M_NR], na = cb_metrics_view(CB_VIEW_AVOIDED, ids, CB_M_NR);
	int n = na + cb_metrics_view(CB_VIEW_COST, ids + na, CB_M_NR - na);
	struct json_object *ja = o ? json_object_new_object() : NULL;
	const char *dash = v->f == FMT_MD ? "-" : " ";
	char val[32], lo[32], hi[32];
	struct cb_cmp_row r;

	if (!o)
		fprintf(out, v->f == FMT_MD ? "\n**Direct compaction avoided** (baseline - candidate, "
				 "median per repetition or, paired, per state, %.0f%% CI)\n\n" :
				 "\nDirect compaction avoided (baseline - candidate, per repetition or, "
				 "paired, per state, "
				 "%.0f%% CI)\n", v->conf * 100);
	for (int i = 0; i < n; i++) {
		bool is_cost = i >= na;
		int m = ids[i];
		const char *unit = cb_metrics[m].unit;
		double sign = is_cost ? 1 : -1;

		if (cb_compare_metric(a, b, m, v->conf, &r) < 0) {
			if (!o && !(is_cost && r.j.na + r.j.nb == 0 && m == CB_M_ENERGY_RAPL_J))
				fprintf(out, "%s  %s%-26s not measured\n", dash, is_cost ? "cost " : "",
					cb_metrics[m].name);
			continue;
		}
		if (o) {
			struct json_object *x = json_object_new_object();

			json_num(x, is_cost ? "more" : "avoided", sign * r.j.dmed);
			json_num(x, "ci_lo", is_cost ? r.j.diff.lo : -r.j.diff.hi);
			json_num(x, "ci_hi", is_cost ? r.j.diff.hi : -r.j.diff.lo);
			json_object_object_add(x, "significant",
					       json_object_new_boolean(r.j.significant));
			json_object_object_add(ja, cb_metrics[m].name, x);
			continue;
		}
		cb_fmt_value(val, sizeof(val), sign * r.j.dmed, unit);
		cb_fmt_value(lo, sizeof(lo), is_cost ? r.j.diff.lo : -r.j.diff.hi, unit);
		cb_fmt_value(hi, sizeof(hi), is_cost ? r.j.diff.hi : -r.j.diff.lo, unit);
		fprintf(out, "%s  %s%-22s %10s  [%s, %s]%s%s\n", dash, is_cost ? "cost " : "",
			cb_metrics[m].name, val, lo, hi, r.j.significant ? " *" : "",
			cb_metrics[m].modeled ? " (modeled)" : "");
	}
	if (o)
		json_object_object_add(o, "direct_compaction_avoided", ja);
	exchange_rate(out, v, o, a, b);
}

/* drift across repetitions of @g in the metrics that can fake a difference */
static void print_drift(FILE *out, const struct view *v, struct json_object *arr,
			const struct cb_group *g, const char *name)
{
	int watch[CB_M_NR], nw = cb_metrics_view(CB_VIEW_DRIFT, watch, CB_M_NR);

	for (int i = 0; i < nw; i++) {
		double y[1024], slope, p;
		char line[PATH_MAX + 400];
		size_t n;

		if (g->n > 1024)
			continue;
		/* in repetition order, nulls left out: the trend is over what was measured */
		n = cb_group_values(g, watch[i], y);
		if (cb_stats_trend(y, n, &slope, &p) < 0 || !(p < 0.05))
			continue;
		snprintf(line, sizeof(line), "drift: %s: %s changes by %+.4g per repetition (p = "
			 "%.3f): later repetitions differ from earlier ones, which can pass for a "
			 "difference between settings", name, cb_metrics[watch[i]].name, slope, p);
		if (arr)
			json_object_array_add(arr, json_object_new_string(line));
		else
			fprintf(out, "%s%s\n", v->f == FMT_MD ? "- " : "", line);
	}
}

static void print_header(FILE *out, const struct view *v, const char *wl, const char *na,
			 size_t ra, const char *nb, size_t rb)
{
	if (v->f == FMT_MD) {
		fprintf(out, "\n### workload `%s`: `%s` (%zu reps) vs `%s` (%zu reps)\n\n"
			"| metric | baseline | candidate | change | %.0f%% CI of change | p | verdict |\n"
			"| --- | ---: | ---: | ---: | --- | ---: | --- |\n", wl, na, ra, nb, rb,
			v->conf * 100);
		return;
	}
	fprintf(out, "\nworkload %s\n  baseline  %s (%zu reps)\n  candidate %s (%zu reps)\n", wl,
		na, ra, nb, rb);
	fprintf(out, "%-20s %8s %8s %8s %14s %5s %s\n", "metric", "baseline", "cand.", "change",
		"CI of change", "p", "verdict");
}

static void print_legend(FILE *out, const struct view *v, int hidden)
{
	const char *nl = v->f == FMT_MD ? " " : "\n";

	fprintf(out, "%s%.0f%% CI. better/worse: p < %.2g and the CI excludes 0. mde X: not "
		"significant;%sthese reps could have seen a change of X or more (80%% power). "
		"need N: too few%sreps to judge; N a side would see the change (at least 10%%).",
		v->f == FMT_MD ? "\n" : "", v->conf * 100, 1 - v->conf, nl, nl);
	if (hidden)
		fprintf(out, "%s%d row(s) zero or empty on both sides left out.", nl, hidden);
	fprintf(out, "%s\n", v->all ? "" : " --all: every metric.");
}

static void print_pair(FILE *out, const struct view *v, struct json_object *all,
		       const struct cb_run_data *ra, const struct cb_run_data *rb,
		       const struct cb_group *a, const struct cb_group *b)
{
	char na[PATH_MAX + 140], nb[PATH_MAX + 140];
	struct json_object *o = NULL, *rows = NULL, *drift = NULL;
	int ms[CB_M_NR], nm = view_metrics(v, ms), hidden = 0;
	struct cb_judgement stall;
	bool have_stall = false;

	group_name(ra, a, na, sizeof(na));
	group_name(rb, b, nb, sizeof(nb));
	if (v->f == FMT_JSON) {
		o = json_object_new_object();
		rows = json_object_new_object();
		drift = json_object_new_array();
		json_object_object_add(o, "workload", json_object_new_string(a->workload));
		json_object_object_add(o, "baseline", json_object_new_string(na));
		json_object_object_add(o, "candidate", json_object_new_string(nb));
		json_object_object_add(o, "reps_baseline", json_object_new_int64((int64_t)a->n));
		json_object_object_add(o, "reps_candidate", json_object_new_int64((int64_t)b->n));
	} else {
		print_header(out, v, a->workload, na, a->n, nb, b->n);
	}
	for (int i = 0; i < nm; i++) {
		struct cb_cmp_row r;

		cb_compare_metric(a, b, ms[i], v->conf, &r);
		if (ms[i] == CB_M_DC_STALL_TOTAL_NS) {
			stall = r.j;
			have_stall = true;
		}
		if (!row_shown(&r)) {
			hidden++;
			continue;
		}
		if (rows)
			json_object_object_add(rows, cb_metrics[ms[i]].name,
					       row_json(&r, v->conf, a, b));
		else
			print_row(out, v, &r);
	}
	if (o) {
		json_object_object_add(o, "metrics", rows);
		json_object_object_add(o, "rows_left_out", json_object_new_int(hidden));
	} else {
		print_legend(out, v, hidden);
		print_spread(out, v, have_stall ? &stall : NULL, a, b);
	}
	print_avoided(out, v, o, a, b);
	cb_learning_print(out, v->f == FMT_MD, o, a, na, b, nb, v->conf);
	print_drift(out, v, drift, a, na);
	print_drift(out, v, drift, b, nb);
	if (o) {
		json_object_object_add(o, "drift", drift);
		json_object_array_add(all, o);
	}
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
	"usage: compactbench compare DIR_A [DIR_B...] [--all] [--format text|markdown|json]\n"
	"                            [--confidence C]\n"
	"       compactbench compare DIR --kernels BASE,CAND [--all] [--format ...]\n"
	"\n"
	"The key metrics of summary.json (stall time, stalls that did compaction work, p50/p99\n"
	"stall latency, THP success, failed high-order allocations, background CPU, energy;\n"
	"`analyze --metrics` marks them), or with --all every metric, baseline against each\n"
	"candidate: medians over repetitions, the change (relative, or absolute where the\n"
	"baseline is near zero), the bootstrap CI of the change (seeded: same runs, same\n"
	"numbers), the Mann-Whitney p and the verdict: better/worse where p < 1 - C and the CI\n"
	"excludes 0, otherwise the smallest change the repetitions could have detected at 80%\n"
	"power ('mde'), or the repetitions needed where there are too few to judge ('need').\n"
	"Rows zero or empty on both sides are left out. The text table fits 80 columns (for\n"
	"mail); markdown for GitHub/GitLab; json carries every field. Repetitions are the\n"
	"unit. With one run, every setting is compared with its first setting; with\n"
	"more, DIR_A is the baseline and each other run the candidate, groups paired by setting\n"
	"and workload. With --kernels, kernel BASE of the one run DIR is the baseline and\n"
	"kernel CAND the candidate, groups paired by setting and workload (the A/B of `run\n"
	"--resume` across a reboot, or a matrix of two kernels). 'Direct compaction avoided'\n"
	"has its own section; each side's spread of stall time per repetition (CV, sd /\n"
	"mean) is said under the table, with a warning above 25%, and, paired, how the two\n"
	"sides correlate over the states; drift across repetitions is reported when\n"
	"significant. Cells not run yet (a kernel not booted yet: run.json's\n"
	"\"pending\") are listed as pending, not as failures.\n"
	"\n";

static const char usage_tail[] =
	"\n"
	"exit status: 0 compared (or the other side is only pending), 2 bad input: usage, a\n"
	"run that cannot be read, nothing to compare (the message says what would compare).\n";

enum { OPT_ALL = 256, OPT_FORMAT, OPT_CONFIDENCE, OPT_KERNELS };

/* the options, once: getopt's tables and the usage's option lines (cmd_opt.h) */
static const struct cb_opt compare_opts[] = {
	{ "all", OPT_ALL, NULL, "every metric, not only the key ones" },
	{ "format", OPT_FORMAT, "F", "text (default, 80 columns), markdown (or md) or json" },
	{ "confidence", OPT_CONFIDENCE, "C", "0.95 by default" },
	{ "kernels", OPT_KERNELS, "B,C",
	  "compare kernel C against kernel B within the one run DIR" },
	{ "help", 'h', NULL, NULL },
};

#define NR_COMPARE_OPTS (sizeof(compare_opts) / sizeof(compare_opts[0]))

static const struct cb_opt_page compare_page = {
	.head = usage, .opts = compare_opts, .n = NR_COMPARE_OPTS, .width = 18, .tail = usage_tail,
};

/* the names @n of @names as "a, b, c" into @buf */
static const char *name_list(char (*names)[64], size_t n, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && o < len; i++)
		o += snprintf(buf + o, len - o, "%s%s", i ? ", " : "", names[i]);
	return buf;
}

/*
 * nothing to compare between @ra and @rb (the same run for one DIR; @sides for --kernels):
 * say why and what would compare something. Returns true when that is bad input (exit 2),
 * false when the cells are only pending (a kernel not booted yet: listed below)
 */
static bool no_pairs(const struct cb_run_data *ra, const struct cb_run_data *rb,
		     const struct cb_side *sides)
{
	char ks[512], ss[512];

	if (ra->npending || rb->npending)
		return false;
	name_list(ra->kernels, ra->nkernels, ks, sizeof(ks));
	name_list(ra->settings, ra->nsettings, ss, sizeof(ss));
	if (sides)
		fprintf(stderr, "compactbench compare: %s: kernels %s and %s share no complete "
				"(setting, workload) to compare (kernels: %s; settings: %s)\n", ra->dir,
			sides[0].kernel, sides[1].kernel, ks, ss);
	else if (ra == rb)
		fprintf(stderr, "compactbench compare: %s: nothing to compare: no (kernel, "
				"workload) ran under two settings (settings: %s); `compare %s --kernels "
				"A,B` sets one kernel against another (kernels: %s)\n", ra->dir, ss,
			ra->dir, ks);
	else
		fprintf(stderr, "compactbench compare: %s and %s share no (setting, workload) "
				"to compare\n", ra->dir, rb->dir);
	return true;
}

int cb_compare(const struct cb_compare_opts *o, FILE *out)
{
	struct cb_side sides[2];
	const char *kernels = o->kernels;
	struct cb_run_data runs[MAX_RUNS];
	const struct cb_group *base[MAX_PAIRS], *cand[MAX_PAIRS];
	struct json_object *all = NULL;
	struct view v = { .f = (enum fmt)o->format, .conf = o->conf, .all = o->all };
	int nr = o->nr_dirs, rc = 0;

	if (nr < 1 || nr > MAX_RUNS)
		return 2;
	if (kernels && (nr != 1 || parse_kernels(kernels, sides) < 0)) {
		fprintf(stderr, "compactbench compare: --kernels '%s': two kernels BASE,CAND of one "
				"run DIR\n", kernels);
		return 2;
	}
	if (cb_runs_load_all(o->dirs, nr, runs, "compare") < 0)
		return 2;
	for (int k = 0; kernels && k < 2; k++) {
		char err[1024];

		sides[k].rd = &runs[0];
		if (cb_side_check(&sides[k], err, sizeof(err)) < 0) {
			fprintf(stderr, "compactbench compare: --kernels: %s\n", err);
			cb_run_free(&runs[0]);
			return 2;
		}
	}
	if (v.f == FMT_JSON)
		all = json_object_new_array();
	for (int k = nr == 1 ? 0 : 1; k < nr; k++) {
		const struct cb_run_data *ra = &runs[0], *rb = nr == 1 ? &runs[0] : &runs[k];
		size_t np = kernels ? cb_sides_pair(&sides[0], &sides[1], base, cand, MAX_PAIRS) :
			    cb_runs_pair(ra, nr == 1 ? NULL : rb, base, cand, MAX_PAIRS);
		char why[256];

		if (ra != rb && !cb_runs_same_config(ra, rb, why, sizeof(why)))
			fprintf(stderr, "compactbench compare: %s and %s: %s: compared anyway, but "
					"`gate` gives no verdict on them\n", ra->dir, rb->dir, why);
		if (!np && no_pairs(ra, rb, kernels ? sides : NULL))
			rc = 2;
		for (size_t i = 0; i < np; i++)
			print_pair(out, &v, all, ra, rb, base[i], cand[i]);
	}
	/* what could not be compared because it has not run yet (stderr named it too) */
	for (int k = 0; v.f != FMT_JSON && k < nr; k++) {
		struct cb_side whole = { .rd = &runs[k] };

		if (runs[k].npending)
			fprintf(out, "\n%s", v.f == FMT_MD ? "**Pending** (not compared yet)\n\n" : "");
		cb_side_print_pending(out, v.f == FMT_MD ? "- pending: " : "pending: ", &whole);
	}
	if (all)
		fprintf(out, "%s\n", json_object_to_json_string_ext(all, JSON_C_TO_STRING_PRETTY));
	json_object_put(all);
	for (int k = 0; k < nr; k++)
		cb_run_free(&runs[k]);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct cb_compare_opts o = { .format = CB_COMPARE_TEXT, .conf = 0.95 };
	struct cb_opt_parser p;
	int c;

	/* getopt's own message names a bad option */
	cb_opt_parser_init(&p, compare_opts, NR_COMPARE_OPTS, CB_OPT_GETOPT_SAYS);
	while ((c = cb_opt_next(&p, argc, argv)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (!strcmp(optarg, "text"))
				o.format = CB_COMPARE_TEXT;
			else if (!strcmp(optarg, "md") || !strcmp(optarg, "markdown"))
				o.format = CB_COMPARE_MD;
			else if (!strcmp(optarg, "json"))
				o.format = CB_COMPARE_JSON;
			else {
				fprintf(stderr, "compactbench compare: --format '%s': text, markdown or "
						"json\n",
					optarg);
				return 2;
			}
			break;
		case OPT_CONFIDENCE:
			if (cb_confidence_arg("compare", optarg, &o.conf) < 0)
				return 2;
			break;
		case OPT_KERNELS:
			o.kernels = optarg;
			break;
		case OPT_ALL:
			o.all = true;
			break;
		case 'h':
			cb_opt_page_print(stdout, &compare_page);
			return 0;
		default:
			cb_opt_page_print(stderr, &compare_page);
			return 2;
		}
	}
	if (optind >= argc || argc - optind > MAX_RUNS) {
		cb_opt_page_print(stderr, &compare_page);
		return 2;
	}
	o.dirs = argv + optind;
	o.nr_dirs = argc - optind;
	return cb_compare(&o, stdout);
}
