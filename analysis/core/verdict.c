// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict.c - judge one metric of two groups of repetitions and say it in words (verdict.h).
 */
#include "verdict.h"

#include "stats_paired.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#define BOOT_ITERS 10000
#define BOOT_SEED 20171 /* fixed: the same runs always give the same intervals */

/* the fewest repetitions a side at which the exact rank test can reach @alpha at all */
static long min_reps(double alpha)
{
	long n = 2;

	while (n < CB_VERDICT_MAX_REPS && cb_stats_min_p((size_t)n, (size_t)n) >= alpha)
		n++;
	return n;
}

static void judge_power(struct cb_judgement *j, const double *a, const double *b, double alpha)
{
	double mde_sd;

	j->sd = cb_stats_pooled_sd(a, j->na, b, j->nb);
	j->mde = j->mde_pct = NAN;
	if (!isnan(j->sd)) {
		mde_sd = cb_stats_mde_mw(j->na, j->nb, alpha, CB_VERDICT_POWER);
		j->mde = isinf(mde_sd) ? INFINITY : j->sd == 0 ? 0 : mde_sd * j->sd;
		if (j->ma != 0)
			j->mde_pct = j->mde / fabs(j->ma) * 100;
	}
	j->target = fmax(fabs(j->mb - j->ma), CB_VERDICT_MIN_CHANGE * fabs(j->ma));
	if (isnan(j->sd))	/* no spread to go by: the least the test needs */
		j->reps_needed = min_reps(alpha);
	else if (j->target == 0 && j->sd > 0)	/* all zero at the medians: aim at one sd */
		j->reps_needed = cb_stats_reps_for(j->target = j->sd, j->sd, alpha,
						   CB_VERDICT_POWER, CB_VERDICT_MAX_REPS);
	else if (j->target == 0)
		j->reps_needed = min_reps(alpha);
	else
		j->reps_needed = cb_stats_reps_for(j->target, j->sd, alpha, CB_VERDICT_POWER,
						   CB_VERDICT_MAX_REPS);
}

/*
 * what a judgement says of each side, paired or not: counts, medians, CVs, the relative
 * change and its direction; the rest NAN. -1 (CB_J_NO_VALUE) when a side has no value.
 */
static int judge_sides(const double *a, size_t na, const double *b, size_t nb,
		       enum cb_better better, struct cb_judgement *j)
{
	memset(j, 0, sizeof(*j));
	j->na = na;
	j->nb = nb;
	j->p = j->delta_pct = j->sd = j->mde = j->mde_pct = j->target = NAN;
	j->cv_a = j->cv_b = j->state_r = j->state_r_p = NAN;
	j->state_r_ci.lo = j->state_r_ci.hi = NAN;
	j->diff.lo = j->diff.hi = j->rel.lo = j->rel.hi = NAN;
	j->ma = j->mb = NAN;
	if (!na || !nb) {
		j->state = CB_J_NO_VALUE;
		return -1;
	}
	j->ma = cb_stats_median(a, na);
	j->mb = cb_stats_median(b, nb);
	j->dmed = j->mb - j->ma;
	j->cv_a = cb_stats_cv(a, na);
	j->cv_b = cb_stats_cv(b, nb);
	if (j->ma != 0)
		j->delta_pct = (j->mb - j->ma) / fabs(j->ma) * 100;
	j->worse = (better == CB_BETTER_LOWER && j->mb > j->ma) ||
		   (better == CB_BETTER_HIGHER && j->mb < j->ma);
	return 0;
}

int cb_judge(const double *a, size_t na, const double *b, size_t nb, enum cb_better better,
	     double conf, struct cb_judgement *j)
{
	double alpha = 1 - conf;

	if (judge_sides(a, na, b, nb, better, j) < 0)
		return -1;
	cb_stats_bootstrap(a, na, b, nb, conf, BOOT_SEED, BOOT_ITERS, &j->diff, &j->rel);
	if (na >= 2 && nb >= 2)
		j->p = cb_stats_mann_whitney(b, nb, a, na, NULL);
	j->significant = !isnan(j->p) && j->p < alpha && (j->diff.lo > 0 || j->diff.hi < 0);
	judge_power(j, a, b, alpha);
	if (j->significant)
		j->state = CB_J_SIGNIFICANT;
	else if (na < 2 || nb < 2 || cb_stats_min_p(na, nb) >= alpha)
		j->state = CB_J_CANNOT_JUDGE;
	else
		j->state = CB_J_NOT_SIGNIFICANT;
	return 0;
}

int cb_judge_paired(const double *a, const double *b, size_t n, enum cb_better better,
		    double conf, struct cb_judgement *j)
{
	double alpha = 1 - conf, *d, mde_sd;

	if (judge_sides(a, n, b, n, better, j) < 0)
		return -1;
	j->paired = true;
	j->state_r = cb_stats_correlation(a, b, n, &j->state_r_p);
	cb_stats_correlation_ci(j->state_r, n, conf, &j->state_r_ci);
	d = malloc((n + 1) * sizeof(*d));
	if (!d)
		cb_oom();
	for (size_t i = 0; i < n; i++)
		d[i] = b[i] - a[i];
	j->p = n >= 2 ? cb_stats_signed_rank(d, n, NULL) : NAN;
	if (isnan(j->p) && n >= 2)	/* no pair moved at all */
		j->p = 1;
	cb_stats_bootstrap_median(d, n, conf, BOOT_SEED, BOOT_ITERS, &j->diff);
	j->dmed = cb_stats_median(d, n);	/* the estimate the CI above is of */
	/* the change, its direction and the target follow what is judged, not the medians */
	j->delta_pct = j->ma != 0 ? j->dmed / fabs(j->ma) * 100 : NAN;
	j->worse = (better == CB_BETTER_LOWER && j->dmed > 0) ||
		   (better == CB_BETTER_HIGHER && j->dmed < 0);
	j->rel.lo = j->rel.hi = NAN;
	if (j->ma != 0) {
		j->rel.lo = j->diff.lo / fabs(j->ma);
		j->rel.hi = j->diff.hi / fabs(j->ma);
	}
	j->sd = n >= 2 ? gsl_stats_sd(d, 1, n) : NAN;
	j->mde = j->mde_pct = NAN;
	if (!isnan(j->sd)) {
		mde_sd = cb_stats_mde_paired(n, alpha, CB_VERDICT_POWER);
		j->mde = isinf(mde_sd) ? INFINITY : j->sd == 0 ? 0 : mde_sd * j->sd;
		if (j->ma != 0)
			j->mde_pct = j->mde / fabs(j->ma) * 100;
	}
	j->target = fmax(fabs(j->dmed), CB_VERDICT_MIN_CHANGE * fabs(j->ma));
	if (j->target == 0 && j->sd > 0)
		j->target = j->sd;
	/* no spread to go by: the fewest states that can reach alpha (any change shows) */
	j->reps_needed = isnan(j->sd) || j->target == 0 ?
				 cb_stats_reps_for_paired(1, 0, alpha, CB_VERDICT_POWER,
							  CB_VERDICT_MAX_REPS) :
				 cb_stats_reps_for_paired(j->target, j->sd, alpha, CB_VERDICT_POWER,
							  CB_VERDICT_MAX_REPS);
	free(d);
	j->significant = !isnan(j->p) && j->p < alpha && (j->diff.lo > 0 || j->diff.hi < 0);
	if (j->significant)
		j->state = CB_J_SIGNIFICANT;
	else if (n < 2 || cb_stats_min_p_paired(n) >= alpha)
		j->state = CB_J_CANNOT_JUDGE;
	else
		j->state = CB_J_NOT_SIGNIFICANT;
	return 0;
}

/* the index of state @s in @ss[0..@n), or -1 */
static long state_at(const char *const *ss, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (ss[i] && !strcmp(ss[i], s))
			return (long)i;
	return -1;
}

bool cb_states_match(const char *const *sa, size_t na, const char *const *sb, size_t nb,
		     size_t *idx)
{
	bool pairs = sa && sb && na == nb && na > 0;

	for (size_t i = 0; pairs && i < na; i++)
		pairs = sa[i] && state_at(sa, i, sa[i]) < 0 && state_at(sb, nb, sa[i]) >= 0 &&
			sb[i] && state_at(sb, i, sb[i]) < 0;
	for (size_t i = 0; pairs && idx && i < na; i++)
		idx[i] = (size_t)state_at(sb, nb, sa[i]);
	return pairs;
}

int cb_judge_states(const double *a, const char *const *sa, size_t na, const double *b,
		    const char *const *sb, size_t nb, enum cb_better better, double conf,
		    struct cb_judgement *j)
{
	size_t *idx = malloc((na + 1) * sizeof(*idx));
	double *pb = malloc((na + 1) * sizeof(*pb));
	int rc;

	if (!idx || !pb)
		cb_oom();
	if (cb_states_match(sa, na, sb, nb, idx)) {
		for (size_t i = 0; i < na; i++)
			pb[i] = b[idx[i]];
		rc = cb_judge_paired(a, pb, na, better, conf, j);
	} else {
		rc = cb_judge(a, na, b, nb, better, conf, j);
	}
	free(idx);
	free(pb);
	return rc;
}

bool cb_near_zero(double ma, double mb)
{
	/* a change by more than tenfold is said in the metric's unit: "+83855.7%" says nothing */
	return ma == 0 || fabs(mb - ma) > 10 * fabs(ma);
}

void cb_fmt_value(char *buf, size_t len, double v, const char *unit)
{
	double a = fabs(v);

	if (v == 0)
		v = 0;	/* no "-0" */
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
	else if (!strcmp(unit, "ns") && a >= 1e9)
		snprintf(buf, len, "%.3g s", v / 1e9);
	else if (!strcmp(unit, "ns") && a >= 1e6)
		snprintf(buf, len, "%.3g ms", v / 1e6);
	else if (!strcmp(unit, "ns") && a >= 1e3)
		snprintf(buf, len, "%.3g us", v / 1e3);
	else if (!strcmp(unit, "ns"))
		snprintf(buf, len, "%.0f ns", v);
	else if (!strcmp(unit, "ratio") && a <= 1)
		snprintf(buf, len, "%.1f%%", v * 100);
	else if (!strcmp(unit, "J"))
		snprintf(buf, len, "%.3g J", v);
	else if (v == floor(v) && a < 1e7)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

void cb_fmt_change(char *buf, size_t len, double ma, double mb, const char *unit)
{
	char v[32];

	if (isnan(ma) || isnan(mb)) {
		snprintf(buf, len, "-");
	} else if (!cb_near_zero(ma, mb)) {
		snprintf(buf, len, "%+.1f%%", (mb - ma) / fabs(ma) * 100);
	} else {
		cb_fmt_value(v, sizeof(v), fabs(mb - ma), unit);
		snprintf(buf, len, "%s%s", mb < ma ? "-" : "+", v);
	}
}

void cb_fmt_mde(char *buf, size_t len, const struct cb_judgement *j, const char *unit)
{
	if (isnan(j->mde))
		snprintf(buf, len, "-");
	else if (isinf(j->mde))
		snprintf(buf, len, "none");
	else if (j->mde == 0)
		snprintf(buf, len, "any");
	else if (!isnan(j->mde_pct) && !cb_near_zero(j->ma, j->ma + j->mde))
		snprintf(buf, len, "%.0f%%", j->mde_pct);
	else
		cb_fmt_value(buf, len, j->mde, unit);
}

static void fmt_target(char *buf, size_t len, const struct cb_judgement *j, const char *unit)
{
	if (j->ma != 0 && !cb_near_zero(j->ma, j->ma + j->target))
		snprintf(buf, len, "%.0f%%", j->target / fabs(j->ma) * 100);
	else
		cb_fmt_value(buf, len, j->target, unit);
}

static void fmt_ci(char *buf, size_t len, const struct cb_judgement *j, const char *unit,
		   double conf)
{
	char lo[32], hi[32];

	if (!isnan(j->rel.lo) && !cb_near_zero(j->ma, cb_judge_to(j))) {
		snprintf(buf, len, "%.0f%% CI of the change %+.1f%% to %+.1f%%", conf * 100,
			 j->rel.lo * 100, j->rel.hi * 100);
		return;
	}
	cb_fmt_value(lo, sizeof(lo), j->diff.lo, unit);
	cb_fmt_value(hi, sizeof(hi), j->diff.hi, unit);
	snprintf(buf, len, "%.0f%% CI of the change %s to %s", conf * 100, lo, hi);
}

/* ", paired over N saved states" for a paired judgement, else "" */
static const char *paired(char *buf, size_t len, const struct cb_judgement *j)
{
	if (!j->paired)
		return "";
	snprintf(buf, len, ", paired over %zu saved states", j->na);
	return buf;
}

/* a p under the level alone does not make a difference: say why it is not one */
const char *cb_verdict_ci_clause(const struct cb_judgement *j, double conf)
{
	return j->state == CB_J_NOT_SIGNIFICANT && j->p < 1 - conf ?
		"; the CI of the change includes 0" : "";
}

void cb_verdict_phrase(char *buf, size_t len, const struct cb_judgement *j, const char *label,
		       const char *unit, bool count, double conf)
{
	char va[32], vb[32], d[32], ci[96], x[32];
	const char *down = count ? "fewer" : !strcmp(unit, "ratio") ? "lower" : "less";
	const char *up = !strcmp(unit, "ratio") ? "higher" : "more";

	cb_fmt_value(vb, sizeof(vb), j->mb, unit);
	cb_fmt_value(va, sizeof(va), j->ma, unit);
	switch (j->state) {
	case CB_J_NO_VALUE:
		snprintf(buf, len, "%s: no value on %s side", label,
			 !j->na && !j->nb ? "either" : "one");
		return;
	case CB_J_SIGNIFICANT:
		cb_fmt_change(d, sizeof(d), j->ma, cb_judge_to(j), unit);
		fmt_ci(ci, sizeof(ci), j, unit, conf);
		snprintf(buf, len, "%s %s: %s vs %s (%s, p = %.3g%s, %s)",
			 cb_judge_to(j) < j->ma ? down : up,
			 label, vb, va, d, j->p, paired(x, sizeof(x), j), ci);
		return;
	case CB_J_NOT_SIGNIFICANT:
		if (j->ma == 0 && j->mb == 0 && j->sd == 0) {
			snprintf(buf, len, "no %s on either side", label);
			return;
		}
		cb_fmt_mde(x, sizeof(x), j, unit);
		snprintf(ci, sizeof(ci), j->mde == 0 ? "no spread: any change would have shown" :
			 "could have seen a change of %s or more", x);
		snprintf(buf, len, "no detectable difference in %s: %s vs %s (p = %.2g%s%s; %s)",
			 label, vb, va, j->p, paired(d, sizeof(d), j),
			 cb_verdict_ci_clause(j, conf), ci);
		return;
	case CB_J_CANNOT_JUDGE:
		fmt_target(x, sizeof(x), j, unit);
		if (isnan(j->sd) && j->paired)
			snprintf(buf, len, "cannot judge %s: %s vs %s with %zu saved state%s; the "
				 "signed-rank test needs at least %ld states to reach p < %.2g (and "
				 "these are too few to estimate the spread)", label, vb, va, j->na,
				 j->na == 1 ? "" : "s", j->reps_needed, 1 - conf);
		else if (isnan(j->sd))
			snprintf(buf, len, "cannot judge %s: %s vs %s with %zu and %zu reps; the rank "
				 "test needs at least %ld reps each to reach p < %.2g (and these are too "
				 "few to estimate the spread)", label, vb, va, j->nb, j->na,
				 j->reps_needed, 1 - conf);
		else if (j->reps_needed < 0 && j->paired)
			snprintf(buf, len, "cannot judge %s: %zu saved states; a change of %s would "
				 "need more than %d states", label, j->na, x, CB_VERDICT_MAX_REPS);
		else if (j->reps_needed < 0)
			snprintf(buf, len, "cannot judge %s: %zu and %zu reps; a change of %s would "
				 "need more than %d reps each", label, j->nb, j->na, x,
				 CB_VERDICT_MAX_REPS);
		else if (j->paired)
			snprintf(buf, len, "cannot judge %s: %s vs %s with %zu saved states; paired, "
				 "needs %ld states to see a change of %s (80%% power)", label, vb, va,
				 j->na, j->reps_needed, x);
		else
			snprintf(buf, len, "cannot judge %s: %s vs %s with %zu and %zu reps; needs "
				 "%ld reps each to see a change of %s (80%% power)", label, vb, va,
				 j->nb, j->na, j->reps_needed, x);
		return;
	}
}
