// SPDX-License-Identifier: GPL-2.0-only
/*
 * gate.c - `compactbench gate`: a CI verdict on stall-latency regressions.
 *
 * A metric regresses when the candidate's median is worse than the baseline's by more
 * than --max-regress AND the change is significant (Mann-Whitney p below 1 - confidence
 * and the bootstrap CI of the difference excludes 0). Requiring significance keeps the
 * false-alarm rate of A/A comparisons at or under 1 - confidence; the magnitude threshold
 * keeps tiny but real changes from failing CI. The gate refuses a verdict (inconclusive)
 * where the runs cannot carry one: too few repetitions, lost events, different configs or
 * workloads, a cell that failed.
 */
#include "compare.h"

#include <getopt.h>
#include <limits.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { GATE_PASS = 0, GATE_REGRESSION = 1, GATE_BAD_INPUT = 2, GATE_INCONCLUSIVE = 3 };

#define MAX_METRICS 32
#define MAX_PAIRS 256

static const char usage[] =
	"usage: compactbench gate --baseline DIR[:SEL] --candidate DIR[:SEL] [--metric M]...\n"
	"                         [--max-regress 10%] [--confidence 0.95] [--min-reps 4]\n"
	"                         [--allow-lost]\n"
	"\n"
	"Exit 0 pass, 1 regression, 2 bad input, 3 inconclusive. One line per metric and\n"
	"(setting, workload) says why. A metric regresses when the candidate is worse by more\n"
	"than --max-regress and the change is significant at --confidence. Inconclusive: fewer\n"
	"than --min-reps repetitions, lost trace events (unless --allow-lost), different\n"
	"configs or workloads, a cell that failed, or a side whose cells are all pending.\n"
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

struct gate_opts {
	const char *base, *cand;
	int metrics[MAX_METRICS];
	int nm;
	double max_regress, conf;
	long min_reps;
	bool allow_lost;
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

static int parse(int argc, char **argv, struct gate_opts *o)
{
	static const struct option longopts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "candidate", required_argument, NULL, 'c' },
		{ "metric", required_argument, NULL, 'm' },
		{ "max-regress", required_argument, NULL, 'r' },
		{ "confidence", required_argument, NULL, 'C' },
		{ "min-reps", required_argument, NULL, 'n' },
		{ "allow-lost", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c, m;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o->base = optarg;
			break;
		case 'c':
			o->cand = optarg;
			break;
		case 'm':
			m = cb_metric_find(optarg);
			if (m < 0 || o->nm == MAX_METRICS) {
				fprintf(stderr, "compactbench gate: --metric '%s': no such metric "
						"(compactbench analyze --metrics lists them)\n", optarg);
				return GATE_BAD_INPUT;
			}
			o->metrics[o->nm++] = m;
			break;
		case 'r':
			if (parse_pct(optarg, &o->max_regress) < 0) {
				fprintf(stderr, "compactbench gate: --max-regress '%s': a percentage "
						"such as 10%%\n", optarg);
				return GATE_BAD_INPUT;
			}
			break;
		case 'C':
			o->conf = strtod(optarg, &end);
			if (*end || !(o->conf > 0.5 && o->conf < 1)) {
				fprintf(stderr, "compactbench gate: --confidence '%s': a number in "
						"(0.5, 1)\n", optarg);
				return GATE_BAD_INPUT;
			}
			break;
		case 'n':
			o->min_reps = strtol(optarg, &end, 10);
			if (*end || o->min_reps < 2 || o->min_reps > 1000) {
				fprintf(stderr, "compactbench gate: --min-reps '%s': 2..1000\n", optarg);
				return GATE_BAD_INPUT;
			}
			break;
		case 'l':
			o->allow_lost = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return GATE_PASS;
		default:
			fputs(usage, stderr);
			return GATE_BAD_INPUT;
		}
	}
	if (!o->base || !o->cand || optind != argc) {
		fputs(usage, stderr);
		return GATE_BAD_INPUT;
	}
	if (!o->nm) {
		o->metrics[o->nm++] = cb_metric_find("dc_stall_p99_ns");
		o->metrics[o->nm++] = cb_metric_find("dc_stall_total_ns");
	}
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

/* reasons the runs cannot carry a verdict; prints each, returns whether any */
static bool structurally_inconclusive(const struct gate_opts *o, const struct cb_side *sa,
				      const struct cb_side *sb, size_t np,
				      const struct cb_group *const *base,
				      const struct cb_group *const *cand)
{
	const struct cb_run_data *a = sa->rd, *b = sb->rd;
	bool bad = false;

	if (strcmp(a->config_sha256, b->config_sha256)) {
		printf("inconclusive: the runs used different configs (sha256 %.12s vs %.12s)\n",
		       a->config_sha256, b->config_sha256);
		bad = true;
	}
	if (a->failed || b->failed) {
		printf("inconclusive: %zu cell(s) failed or were not analyzed (%s)\n",
		       a->failed + b->failed, a->failed ? a->failed_why : b->failed_why);
		bad = true;
	}
	if (!cb_side_groups(sa) || !cb_side_groups(sb)) {
		printf("inconclusive: not enough data: the %s has no complete cell%s\n",
		       !cb_side_groups(sa) ? "baseline" : "candidate",
		       side_pending(!cb_side_groups(sa) ? sa : sb) ? " yet (its cells are pending)" :
		       "");
		bad = true;
	} else if (!np) {
		printf("inconclusive: the runs share no (setting, workload) to compare\n");
		bad = true;
	}
	for (size_t i = 0; i < np; i++) {
		if ((long)base[i]->n < o->min_reps || (long)cand[i]->n < o->min_reps) {
			printf("inconclusive: %s/%s: %zu and %zu repetitions, the gate needs %ld\n",
			       base[i]->setting, base[i]->workload, base[i]->n, cand[i]->n, o->min_reps);
			bad = true;
		}
		if (!o->allow_lost && (base[i]->lost || cand[i]->lost)) {
			printf("inconclusive: %s/%s: trace events were lost (--allow-lost to gate "
			       "anyway)\n", base[i]->setting, base[i]->workload);
			bad = true;
		}
	}
	return bad;
}

static int gate_metric(const struct gate_opts *o, const struct cb_group *a,
		       const struct cb_group *b, int m, bool kernels)
{
	const char *name = cb_metrics[m].name;
	struct cb_cmp_row r;
	char who[4 * 64 + 16], k[2 * 64 + 8] = "";
	double rel;

	/*
	 * "setting/workload", or "candidate vs baseline/workload" across settings; the kernel
	 * first where the gate has more than one: "B vs A: " across kernels, "A: " within one
	 */
	if (strcmp(a->kernel, b->kernel))
		snprintf(k, sizeof(k), "%s vs %s: ", b->kernel, a->kernel);
	else if (kernels)
		snprintf(k, sizeof(k), "%s: ", a->kernel);
	if (strcmp(a->setting, b->setting))
		snprintf(who, sizeof(who), "%s%s vs %s/%s", k, b->setting, a->setting, a->workload);
	else
		snprintf(who, sizeof(who), "%s%s/%s", k, a->setting, a->workload);

	if (cb_compare_metric(a, b, m, o->conf, &r) < 0) {
		printf("inconclusive: %s %s: no value in one of the runs\n", who, name);
		return GATE_INCONCLUSIVE;
	}
	/* how much worse, as a fraction of the baseline (a rise from 0 is infinitely worse) */
	rel = r.ma != 0 ? fabs(r.mb - r.ma) / fabs(r.ma) : (r.mb != r.ma ? INFINITY : 0);
	if (r.worse && rel > o->max_regress && r.significant) {
		printf("REGRESSION: %s %s: %.4g -> %.4g %s (%+.1f%%, over the allowed %.0f%%; "
		       "p = %.3f, CI of the difference [%.4g, %.4g])\n", who, name,
		       r.ma, r.mb, cb_metrics[m].unit, isnan(r.delta_pct) ? INFINITY : r.delta_pct,
		       o->max_regress * 100, r.p, r.diff.lo, r.diff.hi);
		return GATE_REGRESSION;
	}
	printf("pass: %s %s: %.4g -> %.4g %s (%+.1f%%): %s\n", who, name,
	       r.ma, r.mb, cb_metrics[m].unit, isnan(r.delta_pct) ? 0.0 : r.delta_pct,
	       !r.worse ? "not worse" : rel <= o->max_regress ? "within the allowed regression" :
	       "worse, but not significant at this confidence");
	return GATE_PASS;
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

int cmd_gate(int argc, char **argv)
{
	struct gate_opts o = { .max_regress = 0.10, .conf = 0.95, .min_reps = 4 };
	const struct cb_group *base[MAX_PAIRS], *cand[MAX_PAIRS];
	struct cb_run_data a, b;
	struct cb_side sa, sb;
	char err[2048];
	int rc, worst = GATE_PASS;
	size_t np, pending;

	rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
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
	pending = cb_side_print_pending(stdout, "pending, not gated: baseline ", &sa);
	pending += cb_side_print_pending(stdout, "pending, not gated: candidate ", &sb);
	if (structurally_inconclusive(&o, &sa, &sb, np, base, cand)) {
		worst = GATE_INCONCLUSIVE;
	} else {
		for (size_t i = 0; i < np; i++) {
			for (int k = 0; k < o.nm; k++) {
				rc = gate_metric(&o, base[i], cand[i], o.metrics[k],
						 a.nkernels > 1 || b.nkernels > 1);
				/* a regression outranks an inconclusive metric, which outranks a pass */
				if (rc == GATE_REGRESSION || (rc == GATE_INCONCLUSIVE && worst == GATE_PASS))
					worst = rc;
			}
		}
	}
	printf("gate: %s", worst == GATE_PASS ? "pass" : worst == GATE_REGRESSION ? "REGRESSION" :
						       "inconclusive");
	if (pending)
		printf(" (%zu group(s) pending, not gated: listed above)", pending);
	printf("\n");
	cb_run_free(&a);
	cb_run_free(&b);
	return worst;
}
