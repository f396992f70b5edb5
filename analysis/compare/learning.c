// SPDX-License-Identifier: GPL-2.0-only
/*
 * learning.c - the learning curve's comparison: first waves against later waves, per group.
 * The two values of a repetition come from the same repetition; the rank test and the
 * bootstrap treat them as two groups of repetitions, which ignores the pairing (a
 * conservative choice: pairing can only narrow the interval).
 */
#include "learning.h"
#include "xalloc.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>

#define LABEL "stall time per wave (last half of the waves vs the first quarter)"

int cb_learning_judge(const struct cb_group *g, double conf, struct cb_judgement *j)
{
	double *first = calloc(g->n + 1, sizeof(double)), *last = calloc(g->n + 1, sizeof(double));
	size_t nf, nl;
	int rc;

	if (!first || !last)
		cb_oom();
	nf = cb_group_values(g, CB_M_WAVE_STALL_NS_FIRST, first);
	nl = cb_group_values(g, CB_M_WAVE_STALL_NS_LAST, last);
	rc = cb_judge(first, nf, last, nl, CB_BETTER_LOWER, conf, j);
	free(first);
	free(last);
	return rc;
}

static void json_num(struct json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, isfinite(v) ? json_object_new_double(v) : NULL);
}

/* one group's judgement as JSON */
static struct json_object *curve_json(const struct cb_judgement *j, const char *phrase)
{
	struct json_object *x = json_object_new_object();

	json_object_object_add(x, "reps", json_object_new_int64((int64_t)j->na));
	json_num(x, "first_quarter_ns", j->ma);
	json_num(x, "last_half_ns", j->mb);
	json_num(x, "delta_pct", j->delta_pct);
	json_num(x, "ci_diff_lo", j->diff.lo);
	json_num(x, "ci_diff_hi", j->diff.hi);
	json_num(x, "p", j->p);
	json_object_object_add(x, "significant", json_object_new_boolean(j->significant));
	json_object_object_add(x, "later_better", json_object_new_boolean(j->significant &&
				!j->worse));
	json_num(x, "mde", j->mde);
	json_object_object_add(x, "verdict", json_object_new_string(phrase));
	return x;
}

void cb_learning_print(FILE *out, bool md, struct json_object *o, const struct cb_group *a,
		       const char *name_a, const struct cb_group *b, const char *name_b,
		       double conf)
{
	const struct cb_group *g[2] = { a, b };
	const char *name[2] = { name_a, name_b };
	struct json_object *lc = NULL;
	struct cb_judgement j[2];
	bool has[2];
	char phrase[512];

	for (int i = 0; i < 2; i++)
		has[i] = !cb_learning_judge(g[i], conf, &j[i]);
	if (!has[0] && !has[1])
		return;
	if (o)
		lc = json_object_new_object();
	else
		fprintf(out, md ? "\n**Learning curve** (mean stall time per wave per repetition: the "
			"first quarter of the waves against the last half)\n\n" :
			"\nLearning curve (mean stall time per wave per repetition: the first quarter "
			"of the waves against the last half)\n");
	for (int i = 0; i < 2; i++) {
		if (!has[i]) {
			if (lc)
				json_object_object_add(lc, i ? "candidate" : "baseline", NULL);
			else
				fprintf(out, "%s  %s: no waves\n", md ? "-" : " ", name[i]);
			continue;
		}
		cb_verdict_phrase(phrase, sizeof(phrase), &j[i], LABEL, "ns", false, conf);
		if (lc)
			json_object_object_add(lc, i ? "candidate" : "baseline",
					       curve_json(&j[i], phrase));
		else
			fprintf(out, "%s  %s: %s\n", md ? "-" : " ", name[i], phrase);
	}
	if (o)
		json_object_object_add(o, "learning_curve", lc);
}
