// SPDX-License-Identifier: GPL-2.0-only
/*
 * gate.c - `compactbench gate`: a CI verdict on stall-latency regressions.
 *
 * A metric regresses when the candidate's median is worse than the baseline's by more
 * than --max-regress AND the change is significant (Mann-Whitney p below 1 - confidence
 * and the bootstrap CI of the difference excludes 0). Requiring significance keeps the
 * false-alarm rate of A/A comparisons at or under 1 - confidence; the magnitude threshold
 * keeps tiny but real changes from failing CI. Power decides what a non-significant
 * comparison means: it passes only when the repetitions could have detected a change of
 * --max-mde (default: --max-regress) at 80% power; otherwise it is inconclusive and says
 * how many repetitions would do. A metric with no value on either side (no stalls, so no
 * stall latency) is not worse; a value only in the baseline (the stalls vanished) is not
 * worse; a value only in the candidate (stalls appeared) is judged, the baseline counting
 * as zero in every repetition for a lower-is-better metric. The gate also refuses a
 * verdict (inconclusive) where the runs cannot carry one: too few repetitions, lost
 * events, different configs or workloads, a cell that failed. Each outcome can also go to
 * a JUnit XML report and a markdown summary for CI (gate_report.c).
 */
#include "cmd_opt.h"
#include "compare.h"
#include "gate.h"
#include "xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define MAX_METRICS CB_GATE_MAX_METRICS
#define MAX_PAIRS 256

static const char usage[] =
	"usage: compactbench gate --baseline DIR[:SEL] --candidate DIR[:SEL] [--metric M]...\n"
	"                         [--max-regress 10%] [--max-mde PCT] [--confidence 0.95]\n"
	"                         [--min-reps 4] [--allow-lost] [--junit FILE]\n"
	"                         [--summary-md FILE]\n"
	"\n"
	"Exit 0 pass, 1 regression, 2 bad input, 3 inconclusive. --max-regress and --max-mde\n"
	"are percentages: 10% and a bare 10 are both ten percent (0.1 is a tenth of one).\n"
	"One line per metric and\n"
	"(setting, workload) says why. A metric regresses when the candidate is worse by more\n"
	"than --max-regress and the change is significant at --confidence. A change that is\n"
	"not significant passes when the repetitions could have detected a change of --max-mde\n"
	"(default: the --max-regress value) at 80% power, and is inconclusive otherwise (the\n"
	"line says the detectable change and the repetitions that would do). No value on either\n"
	"side (no stalls, so no p99) is not worse; a value only in the baseline is not worse; a\n"
	"value only in the candidate is judged against a baseline of zeros (lower-is-better\n"
	"metrics). Inconclusive too: fewer than --min-reps repetitions, lost trace events\n"
	"(unless --allow-lost), different configs or workloads, a cell that failed, or a side\n"
	"whose cells are all pending.\n";

static const char usage_tail[] =
	"Cells of a kernel not booted yet (run.json's \"pending\") are no failures: the gate\n"
	"rules on the complete groups and lists the pending ones.\n"
	"SEL takes part of a run, so two parts of one run can be gated against each other:\n"
	"  DIR:SETTING           that setting's cells (every kernel; paired by kernel)\n"
	"  DIR:KERNEL/           that kernel's cells (paired by setting and workload), for\n"
	"                        the A/B of two kernels in one run: --baseline DIR:base/\n"
	"                        --candidate DIR:patched/\n"
	"  DIR:KERNEL/SETTING    that kernel's cells of that setting\n"
	"A name the run does not have is bad input.\n"
	"Default metrics: dc_stall_p99_ns and dc_stall_total_ns. --min-reps is 4 because the\n"
	"exact two-sided rank test cannot reach p < 0.05 with 3 repetitions a side (its\n"
	"smallest p is then 0.1).\n";

enum {
	OPT_BASELINE = 256, OPT_CANDIDATE, OPT_METRIC, OPT_MAX_REGRESS, OPT_CONFIDENCE,
	OPT_MIN_REPS, OPT_ALLOW_LOST, OPT_MAX_MDE, OPT_JUNIT, OPT_SUMMARY_MD,
};

/*
 * the options, once: getopt's tables and the usage's option lines (cmd_opt.h); the usage's
 * synopsis and text above say what the unlisted ones do
 */
static const struct cb_opt gate_opts[] = {
	{ "baseline", OPT_BASELINE, "DIR[:SEL]", NULL },
	{ "candidate", OPT_CANDIDATE, "DIR[:SEL]", NULL },
	{ "metric", OPT_METRIC, "M", NULL },
	{ "max-regress", OPT_MAX_REGRESS, "PCT", NULL },
	{ "confidence", OPT_CONFIDENCE, "C", NULL },
	{ "min-reps", OPT_MIN_REPS, "N", NULL },
	{ "allow-lost", OPT_ALLOW_LOST, NULL, NULL },
	{ "max-mde", OPT_MAX_MDE, "PCT", NULL },
	{ "junit", OPT_JUNIT, "FILE", "also write a JUnit XML report: one test case per gated "
	  "metric and\ngroup, failures and errors with the numbers (GitLab, Jenkins)" },
	{ "summary-md", OPT_SUMMARY_MD, "FILE", "also write a markdown summary (e.g. "
	  "$GITHUB_STEP_SUMMARY)" },
	{ "help", 'h', NULL, NULL },
};

#define NR_GATE_OPTS (sizeof(gate_opts) / sizeof(gate_opts[0]))

static const struct cb_opt_page gate_page = {
	.head = usage, .opts = gate_opts, .n = NR_GATE_OPTS, .width = 18, .tail = usage_tail,
};

static int parse_pct(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || (*end && strcmp(end, "%")) || !(v >= 0) || !isfinite(v))
		return -1;
	*out = v / 100;
	return 0;
}

/* --@opt's value @arg into *@out, or -1 after saying it wants a percentage like @example */
static int pct_arg(const char *opt, const char *arg, const char *example, double *out)
{
	if (parse_pct(arg, out) == 0)
		return 0;
	fprintf(stderr, "compactbench gate: --%s '%s': a percentage such as %s\n", opt, arg,
		example);
	return -1;
}

static int parse(int argc, char **argv, struct cb_gate_opts *o)
{
	struct cb_opt_parser p;
	char *end;
	int c, m;

	/* getopt's own message names a bad option */
	cb_opt_parser_init(&p, gate_opts, NR_GATE_OPTS, CB_OPT_GETOPT_SAYS);
	while ((c = cb_opt_next(&p, argc, argv)) != -1) {
		switch (c) {
		case OPT_BASELINE:
			o->base = optarg;
			break;
		case OPT_CANDIDATE:
			o->cand = optarg;
			break;
		case OPT_METRIC:
			m = cb_metric_find_or_list(optarg, "compactbench gate: --metric", stderr);
			if (m < 0)
				return GATE_BAD_INPUT;
			if (o->nm == MAX_METRICS) {
				fprintf(stderr, "compactbench gate: --metric '%s': more than %d "
						"metrics\n", optarg, MAX_METRICS);
				return GATE_BAD_INPUT;
			}
			o->metrics[o->nm++] = m;
			break;
		case OPT_MAX_REGRESS:
			if (pct_arg("max-regress", optarg, "10%", &o->max_regress) < 0)
				return GATE_BAD_INPUT;
			break;
		case OPT_MAX_MDE:
			if (pct_arg("max-mde", optarg, "25%", &o->max_mde) < 0)
				return GATE_BAD_INPUT;
			break;
		case OPT_JUNIT:
			o->junit = optarg;
			break;
		case OPT_SUMMARY_MD:
			o->summary_md = optarg;
			break;
		case OPT_CONFIDENCE:
			if (cb_confidence_arg("gate", optarg, &o->conf) < 0)
				return GATE_BAD_INPUT;
			break;
		case OPT_MIN_REPS:
			o->min_reps = strtol(optarg, &end, 10);
			if (*end || o->min_reps < 2 || o->min_reps > 1000) {
				fprintf(stderr, "compactbench gate: --min-reps '%s': 2..1000\n", optarg);
				return GATE_BAD_INPUT;
			}
			break;
		case OPT_ALLOW_LOST:
			o->allow_lost = true;
			break;
		case 'h':
			cb_opt_page_print(stdout, &gate_page);
			return GATE_PASS;
		default:
			cb_opt_page_print(stderr, &gate_page);
			return GATE_BAD_INPUT;
		}
	}
	if (!o->base || !o->cand || optind != argc) {
		cb_opt_page_print(stderr, &gate_page);
		return GATE_BAD_INPUT;
	}
	if (!o->nm)	/* the gate's default view of the metric table */
		o->nm = cb_metrics_view(CB_VIEW_GATE, o->metrics, MAX_METRICS);
	return -1;
}

/* whether side @s has cells that wait for their kernel */
static bool side_pending(const struct cb_side *s)
{
	for (size_t i = 0; i < s->rd->npending; i++)
		if (cb_side_has(s, s->rd->pending[i].kernel, s->rd->pending[i].setting))
			return true;
	return false;
}

static void short_waves_note(FILE *out, const struct cb_run_data *r)
{
	if (r->short_waves)
		fprintf(out, "note: %s: %zu repetition(s) left out because their waves did not all "
			"run, first: %s\n", r->dir, r->short_waves, r->short_why);
}

/* reasons the runs cannot carry a verdict; prints each, returns whether any */
static bool structurally_inconclusive(const struct cb_gate_opts *o, struct cb_gate_log *log,
				      const struct cb_side *sa, const struct cb_side *sb, size_t np,
				      const struct cb_group *const *base,
				      const struct cb_group *const *cand)
{
	const struct cb_run_data *a = sa->rd, *b = sb->rd;
	bool bad = false;

#define RUNS_NOTE(fmt, ...) \
	cb_gate_note(log, GATE_INCONCLUSIVE, "runs", "runs", "inconclusive: " fmt, __VA_ARGS__)

	if (strcmp(a->config_sha256, b->config_sha256)) {
		RUNS_NOTE("the runs used different configs (sha256 %.12s vs %.12s)",
			  a->config_sha256, b->config_sha256);
		bad = true;
	}
	if (a->failed || b->failed) {
		RUNS_NOTE("%zu cell(s) failed or were not analyzed (%s)", a->failed + b->failed,
			  a->failed ? a->failed_why : b->failed_why);
		bad = true;
	}
	/* fewer reps, not a failure: the power rule judges what is left */
	short_waves_note(log->out, a);
	if (strcmp(a->dir, b->dir))
		short_waves_note(log->out, b);
	if (!cb_side_groups(sa) || !cb_side_groups(sb)) {
		RUNS_NOTE("not enough data: the %s has no complete cell%s",
			  !cb_side_groups(sa) ? "baseline" : "candidate",
			  side_pending(!cb_side_groups(sa) ? sa : sb) ?
			  " yet (its cells are pending)" : "");
		bad = true;
	} else if (!np) {
		RUNS_NOTE("the runs share no (setting, workload) to compare%s", "");
		bad = true;
	}
	for (size_t i = 0; i < np; i++) {
		if ((long)base[i]->n < o->min_reps || (long)cand[i]->n < o->min_reps) {
			RUNS_NOTE("%s/%s: %zu and %zu repetitions, the gate needs %ld",
				  base[i]->setting, base[i]->workload, base[i]->n, cand[i]->n,
				  o->min_reps);
			bad = true;
		}
		if (!o->allow_lost && (base[i]->lost || cand[i]->lost)) {
			RUNS_NOTE("%s/%s: trace events were lost (--allow-lost to gate anyway)",
				  base[i]->setting, base[i]->workload);
			bad = true;
		}
	}
#undef RUNS_NOTE
	return bad;
}

/* "setting/workload", or "candidate vs baseline/workload"; the kernel first where it matters */
static void group_label(char *who, size_t len, const struct cb_group *a, const struct cb_group *b,
			bool kernels)
{
	char k[2 * 64 + 8] = "";

	if (strcmp(a->kernel, b->kernel))
		snprintf(k, sizeof(k), "%s vs %s: ", b->kernel, a->kernel);
	else if (kernels)
		snprintf(k, sizeof(k), "%s: ", a->kernel);
	if (strcmp(a->setting, b->setting))
		snprintf(who, len, "%s%s vs %s/%s", k, b->setting, a->setting, a->workload);
	else
		snprintf(who, len, "%s%s/%s", k, a->setting, a->workload);
}

/*
 * the values of metric @m in @g into @out (room for g->n): the non-null ones, or with
 * @zeros every repetition with null as 0 (a lower-is-better metric that is null when what
 * it measures did not happen: no stalls, no stall latency)
 */
static size_t gate_values(const struct cb_group *g, int m, bool zeros, double *out)
{
	if (!zeros)
		return cb_group_values(g, m, out);
	for (size_t i = 0; i < g->n; i++)
		out[i] = isnan(g->val[m][i]) ? 0 : g->val[m][i];
	return g->n;
}

/* a non-significant change: a pass if these reps could have seen --max-mde, else inconclusive */
static int gate_power(const struct cb_gate_opts *o, struct cb_gate_log *log, const char *who,
		      int m, const struct cb_judgement *j, const char *numbers)
{
	const char *name = cb_metrics[m].name, *unit = cb_metrics[m].unit;
	const char *ci0 = cb_verdict_ci_clause(j, o->conf);
	double allowed = o->max_mde * fabs(j->ma);
	char x[32], need[96] = "";
	long n;

	cb_fmt_mde(x, sizeof(x), j, unit);
	if (j->mde <= allowed && j->mde == 0) {	/* no spread: cb_fmt_mde says "any" */
		cb_gate_note(log, GATE_PASS, who, name, "pass: %s %s: %s: no detectable change "
			     "(p = %.3f%s); no spread, so any change would have shown", who, name,
			     numbers, j->p, ci0);
		return GATE_PASS;
	}
	if (j->mde <= allowed) {
		cb_gate_note(log, GATE_PASS, who, name, "pass: %s %s: %s: no detectable change "
			     "(p = %.3f%s); could have seen a change of %s or more, within --max-mde "
			     "%g%%", who, name, numbers, j->p, ci0, x, o->max_mde * 100);
		return GATE_PASS;
	}
	n = allowed > 0 ? cb_stats_reps_for(allowed, j->sd, 1 - o->conf, CB_VERDICT_POWER,
					    CB_VERDICT_MAX_REPS) : -1;
	if (n > 0)
		snprintf(need, sizeof(need), "; about %ld reps a side would see %g%%", n,
			 o->max_mde * 100);
	/* no MDE at all: with so few reps no rank order reaches the significance level */
	if (isinf(j->mde))
		cb_gate_note(log, GATE_INCONCLUSIVE, who, name, "inconclusive: %s %s: %s: not "
			     "significant (p = %.3f%s), and these reps could not have seen any "
			     "change at this confidence%s", who, name, numbers, j->p, ci0, need);
	else
		cb_gate_note(log, GATE_INCONCLUSIVE, who, name, "inconclusive: %s %s: %s: not "
			     "significant (p = %.3f%s), but these reps could only have seen a change "
			     "of %s or more, not --max-mde %g%%%s", who, name, numbers, j->p, ci0, x,
			     o->max_mde * 100, need);
	return GATE_INCONCLUSIVE;
}

static int gate_metric(const struct cb_gate_opts *o, struct cb_gate_log *log,
		       const struct cb_group *a, const struct cb_group *b, int m, bool kernels)
{
	const char *name = cb_metrics[m].name, *unit = cb_metrics[m].unit;
	double *va = cb_xcalloc(a->n + 1, sizeof(double)), *vb = cb_xcalloc(b->n + 1, sizeof(double));
	const char **ta = cb_xcalloc(a->n + 1, sizeof(*ta)), **tb = cb_xcalloc(b->n + 1, sizeof(*tb));
	size_t na = cb_group_values_states(a, m, va, ta), nb = cb_group_values_states(b, m, vb, tb);
	char who[4 * 64 + 16], numbers[160], sa[32], sb[32], d[32];
	struct cb_judgement j;
	double rel;
	int rc = GATE_PASS;

	group_label(who, sizeof(who), a, b, kernels);
	if (!nb) {
		cb_gate_note(log, GATE_PASS, who, name, "pass: %s %s: not worse: no value %s", who,
			     name, na ? "in the candidate (it vanished)" : "on either side (none to "
			     "be worse: e.g. no stalls, so no stall latency)");
		goto out;
	}
	if (!na && cb_metrics[m].better != CB_BETTER_LOWER) {
		cb_gate_note(log, GATE_PASS, who, name, "pass: %s %s: not worse: a value only in the "
			     "candidate, and higher is not worse for it", who, name);
		goto out;
	}
	if (!na) {	/* appeared: judge it against a baseline that had none */
		na = gate_values(a, m, true, va);
		nb = gate_values(b, m, true, vb);
		free(ta); /* the values are others now: not paired */
		ta = NULL;
	}
	/* paired where both sides ran from the same saved guests, as compare does */
	cb_judge_states(va, ta, na, vb, tb, nb, cb_metrics[m].better, o->conf, &j);
	cb_fmt_value(sa, sizeof(sa), j.ma, unit);
	cb_fmt_value(sb, sizeof(sb), j.mb, unit);
	cb_fmt_change(d, sizeof(d), j.ma, cb_judge_to(&j), unit);
	snprintf(numbers, sizeof(numbers), "%s -> %s (%s)", sa, sb, d);
	/*
	 * how much worse, as a fraction of the baseline (a rise from 0 is infinitely worse):
	 * the change judged (paired: the median difference state by state)
	 */
	rel = j.ma != 0 ? fabs(j.dmed) / fabs(j.ma) : (j.dmed != 0 ? INFINITY : 0);
	if (j.significant && j.worse && rel > o->max_regress) {
		rc = GATE_REGRESSION;
		cb_gate_note(log, rc, who, name, "REGRESSION: %s %s: %s, over the allowed %g%%; "
			     "p = %.3f, CI of the difference [%.4g, %.4g] %s", who, name, numbers,
			     o->max_regress * 100, j.p, j.diff.lo, j.diff.hi, unit);
	} else if (j.significant) {
		cb_gate_note(log, rc, who, name, "pass: %s %s: %s: %s (p = %.3f)", who, name,
			     numbers, j.worse ? "worse, within the allowed regression" : "better",
			     j.p);
	} else {
		rc = gate_power(o, log, who, m, &j, numbers);
	}
out:
	free(va);
	free(vb);
	free(ta);
	free(tb);
	return rc;
}

/* load DIR[:SETTING|:KERNEL/|:KERNEL/SETTING] into @rd and the side @s of it */
static int load_side(const char *spec, struct cb_run_data *rd, struct cb_side *s, char *err,
		     size_t errlen)
{
	char dir[PATH_MAX];

	if (cb_side_spec(spec, dir, sizeof(dir), s, err, errlen) < 0 ||
	    cb_run_load(dir, rd, err, errlen) < 0)
		return -1;
	s->rd = rd;
	if (cb_side_check(s, err, errlen) < 0) {
		cb_run_free(rd);
		return -1;
	}
	return 0;
}

int cb_gate(const struct cb_gate_opts *opts, FILE *out)
{
	struct cb_gate_opts o = *opts;
	struct cb_gate_log log = { .out = out };
	const struct cb_group *base[MAX_PAIRS], *cand[MAX_PAIRS];
	struct cb_run_data a, b;
	struct cb_side sa, sb;
	char err[2048];
	int rc, worst = GATE_PASS;
	size_t np, pending;

	if (o.nm < 1 || o.nm > MAX_METRICS)
		return GATE_BAD_INPUT;
	if (o.max_mde < 0)
		o.max_mde = o.max_regress;
	if (load_side(o.base, &a, &sa, err, sizeof(err)) < 0) {
		fprintf(stderr, "compactbench gate: baseline: %s\n", err);
		return GATE_BAD_INPUT;
	}
	if (load_side(o.cand, &b, &sb, err, sizeof(err)) < 0) {
		fprintf(stderr, "compactbench gate: candidate: %s\n", err);
		cb_run_free(&a);
		return GATE_BAD_INPUT;
	}
	np = cb_sides_pair(&sa, &sb, base, cand, MAX_PAIRS);
	/* cells not run yet are no failures: say which, gate on the rest */
	pending = cb_side_print_pending(out, "pending, not gated: baseline ", &sa);
	pending += cb_side_print_pending(out, "pending, not gated: candidate ", &sb);
	if (structurally_inconclusive(&o, &log, &sa, &sb, np, base, cand)) {
		worst = GATE_INCONCLUSIVE;
	} else {
		for (size_t i = 0; i < np; i++) {
			for (int k = 0; k < o.nm; k++) {
				rc = gate_metric(&o, &log, base[i], cand[i], o.metrics[k],
						 a.nkernels > 1 || b.nkernels > 1);
				/* a regression outranks an inconclusive metric, which outranks a pass */
				if (rc == GATE_REGRESSION || (rc == GATE_INCONCLUSIVE && worst == GATE_PASS))
					worst = rc;
			}
		}
	}
	fprintf(out, "gate: %s", worst == GATE_PASS ? "pass" :
				 worst == GATE_REGRESSION ? "REGRESSION" : "inconclusive");
	if (pending)
		fprintf(out, " (%zu group(s) pending, not gated: listed above)", pending);
	fprintf(out, "\n");
	if (o.junit && cb_gate_write_junit(&log, o.junit, worst) < 0) {
		fprintf(stderr, "compactbench gate: --junit %s: cannot write: %s\n", o.junit,
			strerror(errno));
		worst = GATE_BAD_INPUT;
	}
	if (o.summary_md && cb_gate_write_summary(&log, o.summary_md, worst) < 0) {
		fprintf(stderr, "compactbench gate: --summary-md %s: cannot write: %s\n",
			o.summary_md, strerror(errno));
		worst = GATE_BAD_INPUT;
	}
	cb_gate_log_free(&log);
	cb_run_free(&a);
	cb_run_free(&b);
	return worst;
}

int cmd_gate(int argc, char **argv)
{
	struct cb_gate_opts o = CB_GATE_OPTS_INIT;
	int rc;

	rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	return cb_gate(&o, stdout);
}
