/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verdict.h - one metric, baseline repetitions against candidate repetitions, judged the one
 * way compare, gate, report.md and run's printed verdict all use: a difference is claimed
 * only where it is significant (Mann-Whitney p below 1 - confidence AND the bootstrap CI of
 * the difference of medians excludes 0); every other comparison states the smallest change
 * it could have detected at 80% power with the repetitions it had, or, when the exact rank
 * test cannot reach significance at all with so few repetitions, how many it would need.
 */
#ifndef CB_VERDICT_H
#define CB_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics.h"
#include "stats.h"

#define CB_VERDICT_POWER 0.8
#define CB_VERDICT_MAX_REPS 1000	/* reps_needed beyond this: "more than 1000" */
#define CB_VERDICT_MIN_CHANGE 0.10	/* reps_needed aims at least at a 10% change */

enum cb_judged {
	CB_J_NO_VALUE,		/* a side without any value (no stalls: no stall latency) */
	CB_J_SIGNIFICANT,	/* p < 1 - conf and the CI of the difference excludes 0 */
	CB_J_NOT_SIGNIFICANT,	/* not, with the power stated by mde */
	CB_J_CANNOT_JUDGE,	/* too few repetitions for the rank test to ever reach 1 - conf */
};

struct cb_judgement {
	enum cb_judged state;
	size_t na, nb;		/* repetitions with a value */
	double ma, mb;		/* medians */
	double delta_pct;	/* (mb - ma) / |ma| * 100; NAN when ma == 0 */
	struct cb_ci diff;	/* bootstrap CI of mb - ma */
	double dmed;		/* the change judged, whose CI diff is: mb - ma, or when paired the
				 * median of the differences state by state */
	struct cb_ci rel;	/* ... of (mb - ma) / |ma|, NAN when undefined */
	double p;		/* Mann-Whitney, two-sided; NAN below 2 values a side */
	bool significant;
	bool worse;		/* the candidate moved in the metric's worse direction */
	double sd;		/* pooled standard deviation of the repetitions; NAN below 2 a side */
	double cv_a, cv_b;	/* each side's coefficient of variation (cb_stats_cv), or NAN */
	double mde;		/* smallest change detectable at 80% power, in the metric's unit:
				 * 0 without spread, INFINITY when the test cannot reach alpha */
	double mde_pct;		/* mde / |ma| * 100; NAN when ma == 0 */
	double target;		/* the change reps_needed is for: max(|mb - ma|, 10% of |ma|) */
	long reps_needed;	/* per side, for target at 80% power; -1 more than 1000, 0 n/a */
	/*
	 * paired by start state (cb_judge_states): p is the signed-rank test's on the
	 * differences state by state, dmed their median, diff and rel its bootstrap CI, sd their
	 * standard deviation, mde and reps_needed (states) the signed-rank test's
	 */
	bool paired;
	/* paired: Pearson's r of a[i] and b[i] over the states, its p and CI (stats.h) */
	double state_r, state_r_p;
	struct cb_ci state_r_ci;
};

/*
 * cb_judge - judge @b (candidate, @nb values) against @a (baseline, @na values), a metric
 * whose better direction is @better, at confidence @conf. Returns 0, or -1 with ->state
 * CB_J_NO_VALUE when a side has no value (the rest is then left zero/NAN).
 */
int cb_judge(const double *a, size_t na, const double *b, size_t nb, enum cb_better better,
	     double conf, struct cb_judgement *j);

/*
 * cb_judge_paired - as cb_judge, for @n pairs: @a[i] and @b[i] ran from the same start
 * state. The medians, CVs and relative change are each side's, as unpaired; the test is the
 * signed-rank test of b[i] - a[i] (stats_paired.h), the CI the bootstrap one of the median
 * difference, and significance needs both, as unpaired. Returns as cb_judge.
 */
int cb_judge_paired(const double *a, const double *b, size_t n, enum cb_better better,
		    double conf, struct cb_judgement *j);

/*
 * cb_states_match - whether two sides pair one to one by start state (@sa, @sb: per value,
 * NULL where a cell booted): every value on both sides has one, no state twice on a side,
 * and the two sides have the same states. If so and @idx is not NULL, @idx[i] is the index
 * in @sb of @sa[i]'s state.
 */
bool cb_states_match(const char *const *sa, size_t na, const char *const *sb, size_t nb,
		     size_t *idx);

/*
 * cb_judge_states - cb_judge_paired when the repetitions pair one to one by the start state
 * each names (cb_states_match; summary.json start_state), otherwise cb_judge, unpaired.
 */
int cb_judge_states(const double *a, const char *const *sa, size_t na, const double *b,
		    const char *const *sb, size_t nb, enum cb_better better, double conf,
		    struct cb_judgement *j);

/*
 * cb_judge_to - the candidate value the judged change leads to: mb, or when paired the
 * baseline's median moved by the median difference (ma + dmed), so that the change said,
 * its direction and its CI agree
 */
static inline double cb_judge_to(const struct cb_judgement *j)
{
	return j->paired ? j->ma + j->dmed : j->mb;
}

/* cb_near_zero - whether a baseline of @ma is too near zero for a relative change to @mb */
bool cb_near_zero(double ma, double mb);

/*
 * cb_fmt_value - @v of a metric with unit @unit in a human unit into @buf: ns as ns, us, ms
 * or s; a ratio as a percentage; counts as numbers ("-" for NAN)
 */
void cb_fmt_value(char *buf, size_t len, double v, const char *unit);

/*
 * cb_fmt_change - the change from @ma to @mb: relative ("-12.6%") unless the baseline is near
 * zero (cb_near_zero), then absolute in the metric's unit ("+928 us")
 */
void cb_fmt_change(char *buf, size_t len, double ma, double mb, const char *unit);

/*
 * cb_fmt_mde - the detectable change of @j: "45%" of the baseline, or absolute in @unit when
 * the baseline is near zero; "any" without spread
 */
void cb_fmt_mde(char *buf, size_t len, const struct cb_judgement *j, const char *unit);

/*
 * cb_verdict_ci_clause - "; the CI of the change includes 0" when @j is not significant
 * although its rank test's p is under 1 - @conf (the bootstrap CI of the change includes 0,
 * and a difference needs both: analysis/README.md), else "". Verdict and gate say it alike.
 */
const char *cb_verdict_ci_clause(const struct cb_judgement *j, double conf);

/*
 * cb_verdict_phrase - the verdict on one metric in words, the same everywhere:
 *   "less stall time: 41.4 ms vs 69.2 ms (-40.2%, p = 0.008, 95% CI of the change -61% to
 *   -20%)"
 *   "no detectable difference in stall time: 41.4 ms vs 69.2 ms (p = 0.31; could have seen a
 *   change of 45% or more)"
 *   "cannot judge stall time: 2 and 2 reps; needs 9 reps each to see a change of 10% (80%
 *   power)"
 * @label names the metric ("stall time"), @count says whether it is a count (fewer/more)
 * rather than an amount (less/more). @conf is the confidence level of the CI.
 */
void cb_verdict_phrase(char *buf, size_t len, const struct cb_judgement *j, const char *label,
		       const char *unit, bool count, double conf);

#endif
