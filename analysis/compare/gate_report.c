// SPDX-License-Identifier: GPL-2.0-only
/*
 * gate_report.c - the gate's outcomes kept, and written as JUnit XML and markdown
 * (gate_report.h).
 */
#include "gate_report.h"
#include "xalloc.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const rc_names[] = { "pass", "REGRESSION", "bad input", "inconclusive" };

void cb_gate_note(struct cb_gate_log *log, int rc, const char *group, const char *metric,
		  const char *fmt, ...)
{
	struct cb_gate_note *n;
	va_list ap;

	if (log->n == log->cap) {
		log->cap = log->cap ? 2 * log->cap : 16;
		log->notes = realloc(log->notes, log->cap * sizeof(*log->notes));
		if (!log->notes)
			cb_oom();
	}
	n = &log->notes[log->n++];
	n->rc = rc;
	snprintf(n->group, sizeof(n->group), "%s", group);
	snprintf(n->metric, sizeof(n->metric), "%s", metric);
	va_start(ap, fmt);
	vsnprintf(n->text, sizeof(n->text), fmt, ap);
	va_end(ap);
	fprintf(log->out, "%s\n", n->text);
}

/* @s with XML's five special characters escaped (no control characters: they are dropped) */
static void xml_put(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
				fputc(*s, f);
		}
	}
}

static size_t count(const struct cb_gate_log *log, int rc)
{
	size_t k = 0;

	for (size_t i = 0; i < log->n; i++)
		k += log->notes[i].rc == rc;
	return k;
}

/* write what @emit prints into @path, whole or not at all */
static int write_via(const char *path, void (*emit)(FILE *, const struct cb_gate_log *, int),
		     const struct cb_gate_log *log, int verdict)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return -1;
	emit(f, log, verdict);
	if (fclose(f)) {
		free(buf);
		return -1;
	}
	rc = cb_write_file_atomic(path, buf, len);
	free(buf);
	return rc;
}

static void emit_junit(FILE *f, const struct cb_gate_log *log, int verdict)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"compactbench gate\" tests=\"%zu\" failures=\"%zu\" "
		"errors=\"%zu\">\n  <testsuite name=\"compactbench gate: %s\" tests=\"%zu\" "
		"failures=\"%zu\" errors=\"%zu\">\n", log->n, count(log, GATE_REGRESSION),
		count(log, GATE_INCONCLUSIVE), rc_names[verdict], log->n,
		count(log, GATE_REGRESSION), count(log, GATE_INCONCLUSIVE));
	for (size_t i = 0; i < log->n; i++) {
		const struct cb_gate_note *n = &log->notes[i];

		fputs("    <testcase classname=\"", f);
		xml_put(f, n->group);
		fputs("\" name=\"", f);
		xml_put(f, n->metric);
		fputs("\">\n", f);
		if (n->rc != GATE_PASS) {
			fprintf(f, "      <%s type=\"%s\" message=\"", n->rc == GATE_REGRESSION ?
				"failure" : "error", rc_names[n->rc]);
			xml_put(f, n->text);
			fputs("\">", f);
			xml_put(f, n->text);
			fprintf(f, "</%s>\n", n->rc == GATE_REGRESSION ? "failure" : "error");
		}
		fputs("      <system-out>", f);
		xml_put(f, n->text);
		fputs("</system-out>\n    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
}

/* a table cell: no pipe or newline may break the row */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : *s == '\n' ? " " : (char[]){ *s, 0 }, f);
}

static void emit_summary(FILE *f, const struct cb_gate_log *log, int verdict)
{
	static const int order[] = { GATE_REGRESSION, GATE_INCONCLUSIVE, GATE_PASS };

	fprintf(f, "## compactbench gate: %s\n\n%zu checked: %zu pass, %zu regression, %zu "
		"inconclusive.\n\n| outcome | group | metric | why |\n| --- | --- | --- | --- |\n",
		verdict == GATE_PASS ? "pass" : verdict == GATE_REGRESSION ? "**REGRESSION**" :
		"**inconclusive**", log->n, count(log, GATE_PASS), count(log, GATE_REGRESSION),
		count(log, GATE_INCONCLUSIVE));
	for (size_t k = 0; k < 3; k++) {
		for (size_t i = 0; i < log->n; i++) {
			const struct cb_gate_note *n = &log->notes[i];

			if (n->rc != order[k])
				continue;
			fprintf(f, "| %s | ", rc_names[n->rc]);
			md_cell(f, n->group);
			fputs(" | `", f);
			md_cell(f, n->metric);
			fputs("` | ", f);
			md_cell(f, n->text);
			fputs(" |\n", f);
		}
	}
}

int cb_gate_write_junit(const struct cb_gate_log *log, const char *path, int verdict)
{
	return write_via(path, emit_junit, log, verdict);
}

int cb_gate_write_summary(const struct cb_gate_log *log, const char *path, int verdict)
{
	return write_via(path, emit_summary, log, verdict);
}

void cb_gate_log_free(struct cb_gate_log *log)
{
	free(log->notes);
	memset(log, 0, sizeof(*log));
}
