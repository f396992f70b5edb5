/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gate_report.h - what the gate decided, line by line: printed as it is decided and kept,
 * so that the same outcomes also go to a JUnit XML report (one test case per gated metric
 * and group) and a markdown summary for a CI job's step summary.
 */
#ifndef CB_GATE_REPORT_H
#define CB_GATE_REPORT_H

#include <stddef.h>
#include <stdio.h>

enum { GATE_PASS = 0, GATE_REGRESSION = 1, GATE_BAD_INPUT = 2, GATE_INCONCLUSIVE = 3 };

struct cb_gate_note {
	char group[300];	/* "linux61: proactive-20 vs none/thp-frag", or "runs" */
	char metric[64];	/* the metric's name, or "runs" for the runs as a whole */
	int rc;			/* GATE_PASS, GATE_REGRESSION or GATE_INCONCLUSIVE */
	char text[1024];	/* the line printed, numbers and all */
};

struct cb_gate_log {
	struct cb_gate_note *notes;
	size_t n, cap;
	FILE *out;		/* where each note is printed as it is decided */
};

/*
 * cb_gate_note - print "@fmt..." as one line to @log->out and keep it as the outcome @rc of
 * @metric in @group
 */
void cb_gate_note(struct cb_gate_log *log, int rc, const char *group, const char *metric,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * cb_gate_write_junit - the kept outcomes as JUnit XML into @path: a testsuite "compactbench
 * gate", a testcase per note (classname the group, name the metric), <failure> for a
 * regression, <error type="inconclusive"> for an inconclusive one, the line as the message.
 * Returns 0, or -1 with errno.
 */
int cb_gate_write_junit(const struct cb_gate_log *log, const char *path, int verdict);

/*
 * cb_gate_write_summary - the kept outcomes as markdown into @path: the verdict first,
 * then a table of every outcome, problems first. Returns 0, or -1 with errno.
 */
int cb_gate_write_summary(const struct cb_gate_log *log, const char *path, int verdict);

/* cb_gate_log_free - free what the notes took */
void cb_gate_log_free(struct cb_gate_log *log);

#endif
