/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gate.h - the CI gate on stall-latency regressions as a library: `compactbench gate`
 * (cmd_gate, gate.c) fills the options from its command line, `run` fills them by hand.
 */
#ifndef CB_GATE_H
#define CB_GATE_H

#include <stdbool.h>
#include <stdio.h>

#include "gate_report.h"

#define CB_GATE_MAX_METRICS 32

/* what the gate was asked; CB_GATE_OPTS_INIT gives the command's defaults */
struct cb_gate_opts {
	const char *base, *cand;	/* DIR[:SETTING|:KERNEL/|:KERNEL/SETTING] */
	int metrics[CB_GATE_MAX_METRICS];	/* indices into cb_metrics[] */
	int nm;				/* at least 1 */
	double max_regress, max_mde;	/* fractions; max_mde < 0: the max_regress value */
	double conf;			/* confidence, in (0.5, 1) */
	long min_reps;
	bool allow_lost;
	const char *junit, *summary_md;	/* reports to write too, or NULL */
};

#define CB_GATE_OPTS_INIT { .max_regress = 0.10, .max_mde = -1, .conf = 0.95, .min_reps = 4 }

/*
 * cb_gate - gate the candidate of @o against its baseline on each of @o->metrics: one line
 * per outcome, the pending groups and the "gate: VERDICT" line to @out; problems with the
 * runs or the report files to stderr, prefixed "compactbench gate: ". Writes @o->junit and
 * @o->summary_md when set. Returns the exit code of the command: GATE_PASS, GATE_REGRESSION,
 * GATE_BAD_INPUT (also for no metric) or GATE_INCONCLUSIVE.
 */
int cb_gate(const struct cb_gate_opts *o, FILE *out);

#endif
