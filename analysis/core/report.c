// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - a whole run: analyze every cell listed in run.json, group the cells by
 * (kernel, setting, workload), print one fixed-width table per (kernel, workload) with a row
 * per setting, write the same tables to report.md, list the cells left out and why, and
 * print the verdict. Same input, same bytes: nothing depends on the time or the path the
 * run directory was named by.
 */
#include "exchange.h"
#include "verdict.h"
#include "report.h"
#include "stats.h"
#include "runjson.h"
#include "summary.h"
#include "util.h"
#include "xalloc.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

struct cellrec {
	char id[256], kernel[128], setting[128], workload[128];
	bool ok;
	bool pending;	/* not run yet, and not a failure (cb_cell_pending): @reason says why */
	bool bad;	/* left out for bad input (missing or corrupt files), not for its status */
	char reason[768];
	struct cb_cell_summary sum;
};

/* one (kernel, setting, workload): the analyzed repetitions */
struct group {
	const char *kernel, *setting, *workload;
	const struct cb_values **vals;
	const char **state;	/* per value, the saved guest it started from, NULL if booted */
	int n, lost, disagree;
	int energy_src[3];	/* cells whose energy_rapl_J came from: powercap, perf-power, none */
};

static const char *const energy_src_names[3] = { "powercap", "perf-power", "modeled" };

/*
 * the report's tables are views of the metric table (cb_metrics_view): the main table, the
 * cost table (what the background work cost and what it bought) and the waves table, for
 * workloads of recurring demand (analysis/README.md: Waves); each row says its heading and scale
 */
enum table { T_MAIN = CB_VIEW_REPORT, T_COST = CB_VIEW_REPORT_COST,
	     T_WAVES = CB_VIEW_REPORT_WAVES };

static void fmt_val(char *buf, size_t len, double v, int decimals)
{
	if (decimals < 0)
		decimals = v == floor(v) ? 0 : 1;
	snprintf(buf, len, "%.*f", decimals, v);
}

/* the median of metric @m over @g, formatted as its report column says, or "-" */
static void cell_text(const struct group *g, int m, char *buf, size_t len)
{
	const struct cb_report_col *c = &cb_metrics[m].col;
	double v;

	if (cb_metrics_aggregate(m, g->vals, g->n, &v))
		snprintf(buf, len, "-");
	else
		fmt_val(buf, len, v * c->scale, c->decimals);
}

static void notes_text(const struct group *g, char *buf, size_t len)
{
	size_t room = g->n > 0 ? (size_t)g->n : 1;
	double x[room], waves[room], sd[room], cv, cvw;
	char part[40] = "";
	size_t k = 0;
	int o = 0;

	buf[0] = '\0';
	if (g->lost)
		o += snprintf(buf + o, len - o, "lost events in %d/%d", g->lost, g->n);
	if (g->disagree && o < (int)len)
		o += snprintf(buf + o, len - o, "%scross-check off in %d/%d", o ? "; " : "",
			      g->disagree, g->n);
	/*
	 * repetitions far apart: one of them says little (compare prints every CV); with waves,
	 * how much of it their own spread gives (cb_stats_cv_waves; compare says what to do)
	 */
	for (int i = 0; i < g->n; i++) {
		const struct cb_values *v = g->vals[i];

		if (!v->set[CB_M_DC_STALL_TOTAL_NS])
			continue;
		waves[k] = v->set[CB_M_WAVE_COUNT] ? v->v[CB_M_WAVE_COUNT] : NAN;
		sd[k] = v->set[CB_M_WAVE_STALL_NS_SD] ? v->v[CB_M_WAVE_STALL_NS_SD] : NAN;
		x[k++] = v->v[CB_M_DC_STALL_TOTAL_NS];
	}
	cv = cb_stats_cv(x, k);
	if (!(cv > CB_STATS_CV_WIDE) || o >= (int)len)
		return;
	cvw = cb_stats_cv_waves(x, waves, sd, k);
	if (!isnan(cvw))
		snprintf(part, sizeof(part), " (waves alone %.0f%%)", cvw * 100);
	snprintf(buf + o, len - o, "%sstall time CV %.0f%%%s", o ? "; " : "", cv * 100, part);
}

/* the exchange rate of @g against the baseline @base (cb_exchange_rate), from the medians */
static void exchange_text(const struct group *g, const struct group *base, char *buf, size_t len)
{
	double cpu, cpu0, st, st0;
	struct cb_exchange x;

	if (g == base) {
		snprintf(buf, len, "baseline");
		return;
	}
	if (cb_metrics_aggregate(CB_M_CPU_BACKGROUND_NS, g->vals, g->n, &cpu) ||
	    cb_metrics_aggregate(CB_M_CPU_BACKGROUND_NS, base->vals, base->n, &cpu0) ||
	    cb_metrics_aggregate(CB_M_DC_STALL_TOTAL_NS, g->vals, g->n, &st) ||
	    cb_metrics_aggregate(CB_M_DC_STALL_TOTAL_NS, base->vals, base->n, &st0)) {
		snprintf(buf, len, "-");
		return;
	}
	if (cb_exchange_rate(cpu0, cpu, st0, st, &x))
		snprintf(buf, len, "n/a (none avoided)");
	else
		snprintf(buf, len, "%.3f", x.rate);
}

/* which source energy_rapl_J came from, over the cells of (@kernel, @workload) */
static void energy_source_line(FILE *txt, FILE *md, const struct group *gs, int ng,
			       const char *kernel, const char *workload)
{
	int src[3] = { 0 }, i, k;
	bool first = true;

	for (i = 0; i < ng; i++)
		if (!strcmp(gs[i].kernel, kernel) && !strcmp(gs[i].workload, workload))
			for (k = 0; k < 3; k++)
				src[k] += gs[i].energy_src[k];
	fprintf(txt, "energy source:");
	fprintf(md, "\nEnergy source (`energy_rapl_J`; `modeled`: no RAPL, only "
		"`energy_modeled_J`):");
	for (k = 0; k < 3; k++) {
		if (!src[k])
			continue;
		fprintf(txt, "%s %s in %d cell%s", first ? "" : ",", energy_src_names[k], src[k],
			src[k] == 1 ? "" : "s");
		fprintf(md, "%s `%s` in %d cell%s", first ? "" : ",", energy_src_names[k], src[k],
			src[k] == 1 ? "" : "s");
		first = false;
	}
	fprintf(txt, "%s\n", first ? " no cells" : "");
	fprintf(md, "%s\n", first ? " no cells" : "");
}

static void print_table(FILE *txt, FILE *md, struct group *gs, int ng, const char *kernel,
			const char *workload, enum table t)
{
	bool cost = t == T_COST;
	struct group *base = NULL;
	char buf[64], notes[128];
	int ids[CB_M_NR], nc = cb_metrics_view((enum cb_view)t, ids, CB_M_NR), c;
	int i;

	if (t == T_MAIN) {
		fprintf(txt, "kernel %s, workload %s (medians over repetitions)\n", kernel, workload);
		fprintf(md, "### kernel `%s`, workload `%s`\n\n", kernel, workload);
	} else if (t == T_WAVES) {
		fprintf(txt, "waves (per repetition the mean over its waves, then the median; "
			"first/last: the first quarter and the last half of the waves; breakup_o9: "
			"an estimate, a lower bound)\n");
		fprintf(md, "Waves (per repetition the mean over its waves, then the median over "
			"repetitions; `first_ms`/`last_ms`: stall time per wave over the first "
			"quarter and the last half of the waves; `ready_o9`: free order-9 blocks at a "
			"wave's start; `breakup_o9`: order-9 blocks broken up, an estimate and a "
			"lower bound, analysis/README.md):\n\n");
	} else {
		fprintf(txt, "cost (medians; energy_modeled_J is modeled, energy_rapl_J measured: "
			"see the energy source)\n");
		fprintf(md, "Cost (medians; `energy_modeled_J` is modeled from CPU time, "
			"`energy_rapl_J` measured (powercap or perf's power PMU) where RAPL "
			"exists):\n\n");
	}
	fprintf(txt, "%-16s %4s", "setting", "reps");
	fprintf(md, "| setting | reps |");
	for (c = 0; c < nc; c++) {
		fprintf(txt, " %*s", cb_metrics[ids[c]].col.width, cb_metrics[ids[c]].col.head);
		fprintf(md, " %s |", cb_metrics[ids[c]].col.head);
	}
	fprintf(txt, "  %s\n", cost ? "exchange_rate" : "notes");
	fprintf(md, " %s |\n| --- | ---: |", cost ? "exchange rate" : "notes");
	for (c = 0; c < nc; c++)
		fprintf(md, " ---: |");
	fprintf(md, " --- |\n");
	for (i = 0; i < ng; i++) {
		struct group *g = &gs[i];

		if (strcmp(g->kernel, kernel) || strcmp(g->workload, workload) || !g->n)
			continue;
		if (!base)
			base = g;
		fprintf(txt, "%-16s %4d", g->setting, g->n);
		fprintf(md, "| %s | %d |", g->setting, g->n);
		for (c = 0; c < nc; c++) {
			cell_text(g, ids[c], buf, sizeof(buf));
			fprintf(txt, " %*s", cb_metrics[ids[c]].col.width, buf);
			fprintf(md, " %s |", buf);
		}
		if (cost)
			exchange_text(g, base, notes, sizeof(notes));
		else if (t == T_MAIN)
			notes_text(g, notes, sizeof(notes));
		else
			notes[0] = '\0';
		fprintf(txt, "%s%s\n", notes[0] ? "  " : "", notes);
		fprintf(md, " %s |\n", notes);
	}
	if (cost)
		energy_source_line(txt, md, gs, ng, kernel, workload);
	if (cost && base) {
		fprintf(txt, "exchange rate: extra kcompactd+khugepaged+policy CPU ns per ns of "
			"direct-compaction stall time avoided, against '%s' (policy_ms: the "
			"user-space emulation of the compact_wmark proposal)\n", base->setting);
		fprintf(md, "\nExchange rate: extra kcompactd+khugepaged+policy CPU time per unit of "
			"direct-compaction stall time avoided, against the baseline `%s` (first "
			"setting). `policy_ms`: the CPU time of the user-space emulation of the "
			"compact_wmark proposal (`wmark.*` keys), its compaction included.\n",
			base->setting);
	}
	fprintf(txt, "\n");
	fprintf(md, "\n");
}

static bool same_kw(const struct group *a, const struct group *b)
{
	return !strcmp(a->kernel, b->kernel) && !strcmp(a->workload, b->workload);
}

/* whether the (kernel, workload) of @gs[@i] has an analyzed cell: else no table for it */
static bool kw_analyzed(const struct group *gs, int ng, int i)
{
	for (int j = 0; j < ng; j++)
		if (same_kw(&gs[j], &gs[i]) && gs[j].n)
			return true;
	return false;
}

/* whether a group of @gs[i]'s kernel and workload has a value of metric @m */
static bool kw_has(const struct group *gs, int ng, int i, enum cb_metric_id m)
{
	double v;

	for (int j = 0; j < ng; j++)
		if (same_kw(&gs[j], &gs[i]) && !cb_metrics_aggregate(m, gs[j].vals, gs[j].n, &v))
			return true;
	return false;
}

static void reps_text(char *buf, size_t len, int a, int b)
{
	if (a == b)
		snprintf(buf, len, "%d rep%s each", a, a == 1 ? "" : "s");
	else
		snprintf(buf, len, "%d and %d reps", a, b);
}

/* the non-null values of metric @m over the repetitions of @g into @out (room for g->n) */
/* the non-null values of @m in @g into @out, their start states into @states (or NULL) */
static size_t values_of(const struct group *g, enum cb_metric_id m, double *out,
			const char **states)
{
	size_t k = 0;

	for (int i = 0; i < g->n; i++) {
		if (!g->vals[i]->set[m])
			continue;
		if (states)
			states[k] = g->state[i];
		out[k++] = g->vals[i]->v[m];
	}
	return k;
}

/*
 * The metrics the verdict leads with: stall time, what an application waits, and stalls
 * that did compaction work (dc_stalls and compact_stall also count stalls in which every
 * zone was deferred: ~1 us each and no page moved, so a policy that defers more would look
 * like one that stalls more)
 */
static const struct {
	enum cb_metric_id m;
	const char *label;
	bool count;
} verdict_metrics[] = {
	{ CB_M_DC_STALL_TOTAL_NS, "stall time", false },
	{ CB_M_DC_STALLS_WORKED, "stalls that did compaction work", true },
};

/* one line per verdict metric: @cand against @base, in the words of cb_verdict_phrase */
static void verdict_pair(FILE *txt, FILE *md, const struct group *base, const struct group *cand,
			 const char *what)
{
	double *va = cb_xcalloc(base->n + 1, sizeof(double));
	double *vb = cb_xcalloc(cand->n + 1, sizeof(double));
	const char **sa = cb_xcalloc(base->n + 1, sizeof(*sa));
	const char **sb = cb_xcalloc(cand->n + 1, sizeof(*sb));
	char reps[64], phrase[640];

	reps_text(reps, sizeof(reps), base->n, cand->n);
	fprintf(txt, "verdict: %s: '%s' against '%s' (%s):\n", what, cand->setting, base->setting,
		reps);
	fprintf(md, "- %s: `%s` against `%s` (%s):", what, cand->setting, base->setting, reps);
	for (size_t k = 0; k < sizeof(verdict_metrics) / sizeof(verdict_metrics[0]); k++) {
		struct cb_judgement j;
		enum cb_metric_id m = verdict_metrics[k].m;
		size_t na = values_of(base, m, va, sa), nb = values_of(cand, m, vb, sb);

		/* paired where both ran from the same saved guests, as compare does */
		cb_judge_states(va, sa, na, vb, sb, nb, cb_metrics[m].better, 0.95, &j);
		cb_verdict_phrase(phrase, sizeof(phrase), &j, verdict_metrics[k].label,
				  cb_metrics[m].unit, verdict_metrics[k].count, 0.95);
		fprintf(txt, "  %s\n", phrase);
		fprintf(md, "%s%s", k ? "; " : " ", phrase);
	}
	if (base->lost || cand->lost) {
		int lost = base->lost + cand->lost;

		fprintf(txt, "  [lost events in %d cell%s: treat with care]\n", lost,
			lost == 1 ? "" : "s");
		fprintf(md, " [lost events in %d cell%s: treat with care]", lost, lost == 1 ? "" : "s");
	}
	fprintf(md, "\n");
	free(va);
	free(vb);
	free(sa);
	free(sb);
}

/* the largest median of metric @m over the @n groups @sel (0 where none has a value) */
static double max_median(struct group **sel, int n, enum cb_metric_id m)
{
	double max = 0, med;

	for (int i = 0; i < n; i++)
		if (!cb_metrics_aggregate(m, sel[i]->vals, sel[i]->n, &med) && med > max)
			max = med;
	return max;
}

/*
 * why a (kernel, workload) had no direct compaction in any setting, from what its cells
 * saw: no high-order demand at all (an idle workload), order>0 allocations that failed
 * without compacting (they fall back instead), or THP faults served from free blocks
 */
static const char *empty_why(struct group **sel, int n)
{
	double thp = max_median(sel, n, CB_M_VM_THP_FAULT_ALLOC) +
		     max_median(sel, n, CB_M_VM_THP_FAULT_FALLBACK);
	double failed = max_median(sel, n, CB_M_ALLOC_HI_FAILED);

	if (thp == 0 && failed == 0)
		return "there was no high-order demand to serve (no THP fault, no failed order>0 "
		       "allocation): nothing to judge here but background work";
	if (thp == 0)
		return "order>0 allocations failed without direct compaction (their callers fall "
		       "back to smaller pages instead): see failed order>0 allocations";
	return "the THP faults found free huge pages: the fragmenter left enough free "
	       "high-order blocks for the demand (configs/README.md: what a host cell needs)";
}

/* the verdict of one (kernel, workload): each setting against the first; returns how many */
static int verdict(FILE *txt, FILE *md, struct group *gs, int ng, const char *kernel,
		   const char *workload, bool many_kernels)
{
	struct group *sel[ng];
	char what[300];
	int n = 0, i;
	bool any = false;

	for (i = 0; i < ng; i++) {
		double med;

		if (strcmp(gs[i].kernel, kernel) || strcmp(gs[i].workload, workload) || !gs[i].n)
			continue;
		sel[n++] = &gs[i];
		any |= !cb_metrics_aggregate(CB_M_DC_STALLS, gs[i].vals, gs[i].n, &med) && med != 0;
	}
	if (n < 2)
		return 0;
	if (many_kernels)
		snprintf(what, sizeof(what), "%s on kernel %s", workload, kernel);
	else
		snprintf(what, sizeof(what), "%s", workload);
	if (!any) {
		const char *why = empty_why(sel, n);

		fprintf(txt, "verdict: %s: no direct compaction in any setting: the verdict is empty "
			"— %s\n", what, why);
		fprintf(md, "- %s: no direct compaction in any setting: the verdict is empty — %s\n",
			what, why);
		return 1;
	}
	for (i = 1; i < n; i++)
		verdict_pair(txt, md, sel[0], sel[i], what);
	return n - 1;
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *x;

	if (!o || !json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_string))
		return NULL;
	return json_object_get_string(x);
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/*
 * analyze every cell of @cells (of the run.json @run) into @recs; returns how many were left
 * out, and in *@pending how many are still to run
 */
static int analyze_cells(const char *run_dir, struct json_object *run, struct json_object *cells,
			 struct cellrec *recs, int n, int *pending)
{
	char dir[PATH_MAX], err[768];
	int i, left = 0, rc;

	for (i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(cells, i);
		struct cellrec *r = &recs[i];

		copy(r->id, sizeof(r->id), jstr(c, "id"));
		copy(r->kernel, sizeof(r->kernel), jstr(c, "kernel"));
		copy(r->setting, sizeof(r->setting), jstr(c, "setting"));
		copy(r->workload, sizeof(r->workload), jstr(c, "workload"));
		if (cb_path(dir, sizeof(dir), "%s/%s", run_dir, r->id) < 0) {
			snprintf(r->reason, sizeof(r->reason), "%s: path too long", r->id);
		} else if (cb_cell_pending(run, r->kernel, dir, r->reason, sizeof(r->reason))) {
			r->pending = true;
			++*pending;
			continue;
		} else if ((rc = cb_summarize_cell(dir, &r->sum, err, sizeof(err)))) {
			/* name files relative to the run: the report must not depend on its path */
			size_t dl = strlen(run_dir);

			copy(r->reason, sizeof(r->reason),
			     !strncmp(err, run_dir, dl) && err[dl] == '/' ? err + dl + 1 : err);
			r->bad = rc == -1;
		} else {
			r->ok = true;
		}
		left += !r->ok;
	}
	return left;
}

/* group the analyzed cells; @gs has room for @n groups; returns the number of groups */
static int make_groups(struct cellrec *recs, int n, struct group *gs)
{
	int ng = 0, i, j;

	for (i = 0; i < n; i++) {
		struct cellrec *r = &recs[i];

		for (j = 0; j < ng; j++)
			if (!strcmp(gs[j].kernel, r->kernel) && !strcmp(gs[j].setting, r->setting) &&
			    !strcmp(gs[j].workload, r->workload))
				break;
		if (j == ng) {
			gs[ng] = (struct group){ .kernel = r->kernel, .setting = r->setting,
						 .workload = r->workload };
			gs[ng].vals = calloc(n, sizeof(*gs[ng].vals));
			gs[ng].state = calloc(n, sizeof(*gs[ng].state));
			if (!gs[ng].vals || !gs[ng].state)
				return -1;
			ng++;
		}
		if (!r->ok)
			continue;
		gs[j].state[gs[j].n] = r->sum.start_state[0] ? r->sum.start_state : NULL;
		gs[j].vals[gs[j].n++] = &r->sum.val;
		gs[j].lost += r->sum.lost;
		gs[j].disagree += r->sum.has_xcheck && !r->sum.agree;
		gs[j].energy_src[!strcmp(r->sum.energy_source, "powercap") ? 0 :
				 !strcmp(r->sum.energy_source, "perf-power") ? 1 : 2]++;
	}
	return ng;
}

/*
 * the pending cells, one line per reason and kernel (a kernel not booted yet has all its
 * cells pending: one line says it), to @txt and @md
 */
static void write_pending(FILE *txt, FILE *md, struct cellrec *recs, int n)
{
	int i, j, count;

	fprintf(txt, "pending (not run yet; not failures, left out of every table):\n");
	fprintf(md, "## Cells pending\n\nNot run yet; not failures, left out of every table.\n\n");
	for (i = 0; i < n; i++) {
		if (!recs[i].pending)
			continue;
		for (j = 0; j < i; j++)
			if (recs[j].pending && !strcmp(recs[j].kernel, recs[i].kernel) &&
			    !strcmp(recs[j].reason, recs[i].reason))
				break;
		if (j < i)
			continue;
		for (count = 0, j = i; j < n; j++)
			count += recs[j].pending && !strcmp(recs[j].kernel, recs[i].kernel) &&
				 !strcmp(recs[j].reason, recs[i].reason);
		fprintf(txt, "  %d cell(s) of kernel %s, first %s: %s\n", count, recs[i].kernel,
			recs[i].id, recs[i].reason);
		fprintf(md, "- %d cell(s) of kernel `%s`, first `%s`: %s\n", count, recs[i].kernel,
			recs[i].id, recs[i].reason);
	}
	fprintf(txt, "\n");
	fprintf(md, "\n");
}

/*
 * cells whose numbers are doubtful (summary warnings: a fragmenter that left the demand
 * enough free blocks), one line per (kernel, setting, workload) with the first cell's words
 */
static void write_warnings(FILE *txt, FILE *md, struct cellrec *recs, int n)
{
	int i, j, count, groups = 0;

	for (i = 0; i < n; i++) {
		if (!recs[i].ok || !recs[i].sum.warning[0])
			continue;
		for (j = 0; j < i; j++)
			if (recs[j].ok && recs[j].sum.warning[0] &&
			    !strcmp(recs[j].kernel, recs[i].kernel) &&
			    !strcmp(recs[j].setting, recs[i].setting) &&
			    !strcmp(recs[j].workload, recs[i].workload))
				break;
		if (j < i)
			continue;
		for (count = 0, j = i; j < n; j++)
			count += recs[j].ok && recs[j].sum.warning[0] &&
				 !strcmp(recs[j].kernel, recs[i].kernel) &&
				 !strcmp(recs[j].setting, recs[i].setting) &&
				 !strcmp(recs[j].workload, recs[i].workload);
		if (!groups++)
			fprintf(md, "## Warnings\n\n");
		fprintf(txt, "WARNING: %d cell(s) of %s/%s/%s, first %s: %s\n", count,
			recs[i].kernel, recs[i].setting, recs[i].workload, recs[i].id,
			recs[i].sum.warning);
		fprintf(md, "- **%d cell(s) of `%s/%s/%s`**, first `%s`: %s\n", count,
			recs[i].kernel, recs[i].setting, recs[i].workload, recs[i].id,
			recs[i].sum.warning);
	}
	if (groups) {
		fprintf(txt, "\n");
		fprintf(md, "\n");
	}
}

/* the tables, the cells left out and the verdicts, to @txt and (markdown) @md */
static void write_report(FILE *txt, FILE *md, struct cellrec *recs, int n, struct group *gs,
			 int ng, int left, int pending)
{
	bool many_kernels = false;
	int i, j, verdicts = 0, done = n - left - pending;
	char pend[64] = "";

	for (i = 1; i < ng; i++)
		many_kernels |= strcmp(gs[i].kernel, gs[0].kernel) != 0;
	if (pending)
		snprintf(pend, sizeof(pend), ", %d pending", pending);
	fprintf(txt, "%d cells, %d analyzed, %d left out%s\n\n", n, done, left, pend);
	fprintf(md, "%d cells, %d analyzed, %d left out%s. Direct compaction stalls come from "
		"tracepoints (analysis/README.md); p50/p99 are GSL quantiles of each cell's stalls, "
		"every column is the median over repetitions.\n\n## Results\n\n", n, done, left,
		pend);
	for (i = 0; i < ng; i++) {
		for (j = 0; j < i; j++)
			if (same_kw(&gs[j], &gs[i]))
				break;
		if (j == i && kw_analyzed(gs, ng, i)) {
			print_table(txt, md, gs, ng, gs[i].kernel, gs[i].workload, T_MAIN);
			print_table(txt, md, gs, ng, gs[i].kernel, gs[i].workload, T_COST);
			if (kw_has(gs, ng, i, CB_M_WAVE_COUNT))
				print_table(txt, md, gs, ng, gs[i].kernel, gs[i].workload, T_WAVES);
		}
	}
	if (pending)
		write_pending(txt, md, recs, n);
	write_warnings(txt, md, recs, n);
	fprintf(md, "## Cells left out\n\n");
	if (left) {
		fprintf(txt, "left out:\n");
		for (i = 0; i < n; i++) {
			if (recs[i].ok || recs[i].pending)
				continue;
			fprintf(txt, "  %s: %s\n", recs[i].id[0] ? recs[i].id : "?", recs[i].reason);
			fprintf(md, "- `%s`: %s\n", recs[i].id[0] ? recs[i].id : "?", recs[i].reason);
		}
		fprintf(txt, "\n");
	} else {
		fprintf(md, "none\n");
	}
	fprintf(md, "\n## Verdict\n\n");
	for (i = 0; i < ng; i++) {
		for (j = 0; j < i; j++)
			if (same_kw(&gs[j], &gs[i]))
				break;
		if (j == i)
			verdicts += verdict(txt, md, gs, ng, gs[i].kernel, gs[i].workload,
					    many_kernels);
	}
	if (!verdicts) {
		fprintf(txt, "verdict: none: no workload ran under two or more settings with "
			"analyzed cells\n");
		fprintf(md, "- verdict: none: no workload ran under two or more settings with "
			"analyzed cells\n");
	} else {
		/* what the verdict rests on: the test, and which count of stalls */
		static const char note[] = "a difference is claimed only where it is significant "
			"(two-sided Mann-Whitney p < 0.05 over repetitions and the 95% bootstrap CI "
			"of the difference of medians excludes 0; where the settings started from the "
			"same saved guests, \"paired\": the two-sided signed-rank test of the "
			"differences state by state and the CI of their median); otherwise the "
			"smallest change the "
			"repetitions could have detected at 80% power is given, or the repetitions "
			"needed (analysis/README.md: power). Stalls are counted as dc_stalls_worked: "
			"dc_stalls and vmstat's compact_stall (both in the table above) also count "
			"stalls in which every zone was deferred (~1 us, no page moved). `compactbench "
			"compare` has the key metrics, `--all` every one";

		fprintf(txt, "note: %s\n", note);
		fprintf(md, "\n_Note: %s._\n", note);
	}
}

/*
 * cells of the matrix that no directory of this run holds: a merge of shards with some
 * missing lists fewer cells than run.json's total_cells (a shard itself holds a part by
 * design). Said to @txt and @md; returns how many.
 */
static int never_ran(FILE *txt, FILE *md, struct json_object *run, int n)
{
	struct json_object *total = NULL, *shard = NULL;
	long long missing;

	if (!json_object_object_get_ex(run, "total_cells", &total) ||
	    !json_object_is_type(total, json_type_int) ||
	    (json_object_object_get_ex(run, "shard", &shard) && shard))
		return 0;
	missing = json_object_get_int64(total) - n;
	if (missing <= 0)
		return 0;
	fprintf(txt, "never ran: %lld of the matrix's %lld cells are in no directory of this run "
		"(shards missing from the merge? `compactbench merge` named them): every table "
		"above lacks them\n", missing, (long long)json_object_get_int64(total));
	fprintf(md, "\n## Cells that never ran\n\n%lld of the matrix's %lld cells are in no "
		"directory of this run (shards missing from the merge? `compactbench merge` named "
		"them): every table above lacks them.\n", missing,
		(long long)json_object_get_int64(total));
	return missing > INT_MAX ? INT_MAX : (int)missing;
}

int cb_report_run(const char *run_dir, FILE *out, char *err, size_t errlen)
{
	char path[PATH_MAX], *md_buf = NULL;
	struct json_object *run, *cells;
	struct cellrec *recs = NULL;
	struct group *gs = NULL;
	size_t md_len = 0;
	int n, ng = 0, left, pending = 0, missing, i, ret = -1;
	FILE *md;

	run = cb_runjson_load(run_dir, err, errlen);
	if (!run)
		return -1;
	json_object_object_get_ex(run, "cells", &cells);
	n = (int)json_object_array_length(cells);
	recs = calloc(n ? n : 1, sizeof(*recs));
	gs = calloc(n ? n : 1, sizeof(*gs));
	md = open_memstream(&md_buf, &md_len);
	if (!recs || !gs || !md) {
		snprintf(err, errlen, "%s: out of memory", run_dir);
		goto out;
	}
	left = analyze_cells(run_dir, run, cells, recs, n, &pending);
	ng = make_groups(recs, n, gs);
	if (ng < 0) {
		snprintf(err, errlen, "%s: out of memory", run_dir);
		goto out;
	}
	fprintf(md, "# compactbench report\n\n");
	if (jstr(run, "config"))
		fprintf(md, "config `%s`%s%s%s, tool %s. ", jstr(run, "config"),
			jstr(run, "config_sha256") ? " (sha256 " : "",
			jstr(run, "config_sha256") ? jstr(run, "config_sha256") : "",
			jstr(run, "config_sha256") ? ")" : "",
			jstr(run, "tool_version") ? jstr(run, "tool_version") : "unknown");
	write_report(out, md, recs, n, gs, ng, left, pending);
	missing = never_ran(out, md, run, n);
	if (fclose(md)) {
		md = NULL;
		snprintf(err, errlen, "%s: out of memory", run_dir);
		goto out;
	}
	md = NULL;
	if (cb_path(path, sizeof(path), "%s/report.md", run_dir) < 0 ||
	    cb_write_file_atomic(path, md_buf, md_len) < 0) {
		snprintf(err, errlen, "%s/report.md: cannot write: %s", run_dir, strerror(errno));
		goto out;
	}
	fprintf(out, "report: %s/report.md\n", run_dir);
	ret = left || missing ? 1 : 0;
	for (i = 0; i < n; i++)
		if (recs[i].bad)
			ret = 2;
out:
	if (md)
		fclose(md);
	free(md_buf);
	for (i = 0; i < ng; i++) {
		free(gs[i].vals);
		free(gs[i].state);
	}
	free(gs);
	free(recs);
	json_object_put(run);
	return ret;
}

int cb_analyze_run(const char *run_dir, FILE *out)
{
	char err[1024];
	int ret = cb_report_run(run_dir, out, err, sizeof(err));

	if (ret < 0)
		fprintf(stderr, "compactbench analyze: %s\n", err);
	return ret;
}
