/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * learning.h - the learning curve of recurring demand in `compare`: does a setting get
 * ahead of the waves? Per group, the repetitions' mean stall time per wave over the first
 * quarter of the waves (wave_stall_ns_first) against over the last half
 * (wave_stall_ns_last), judged by the one machinery of verdict.h.
 */
#ifndef CB_LEARNING_H
#define CB_LEARNING_H

#include <stdbool.h>
#include <stdio.h>

#include "runs.h"
#include "verdict.h"

struct json_object;

/*
 * cb_learning_judge - @g's last-half values (candidate) against its first-quarter values
 * (baseline) at confidence @conf. Returns 0, or -1 when @g has no such values (no waves, or
 * fewer than 4 waves a repetition).
 */
int cb_learning_judge(const struct cb_group *g, double conf, struct cb_judgement *j);

/*
 * cb_learning_print - the learning curves of baseline @a and candidate @b: a line each to
 * @out (@md: as markdown list items), or, when @o is not NULL, a "learning_curve" object in
 * @o. Nothing at all when neither group has waves (outputs of other runs stay as they were).
 */
void cb_learning_print(FILE *out, bool md, struct json_object *o, const struct cb_group *a,
		       const char *name_a, const struct cb_group *b, const char *name_b,
		       double conf);

#endif
