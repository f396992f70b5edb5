// SPDX-License-Identifier: GPL-2.0-only
/*
 * analyze_text.c - `compactbench analyze FILE.dat` for a person: a short block in human
 * units first (stalls that did work, stall time, p50/p99/max, how many got their page, who
 * did the compaction work), then the stall latencies as a log2 histogram drawn the way
 * bcc's and bpftrace's `hist` draw theirs (one per order and origin where there is more
 * than one), then the background work. --all lists every metric with a value instead.
 */
#include "analyze.h"
#include "metrics.h"
#include "stalls.h"
#include "summary_json.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIST_WIDTH 40
#define HIST_SLOTS 48

/* @ns as a short human figure: "850 ns", "12.3 us", "4.56 ms", "1.23 s" */
static const char *human_ns(char *buf, size_t size, double ns)
{
	if (ns < 1e3)
		snprintf(buf, size, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, size, "%.3g us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, size, "%.3g ms", ns / 1e6);
	else
		snprintf(buf, size, "%.3g s", ns / 1e9);
	return buf;
}

/*
 * a log2 histogram of the stalls of @st of @order and @origin (-1: any), in microseconds,
 * as bcc's
 * `hist` prints it: "lo -> hi : count |****   |"
 */
static void log2_hist(FILE *f, const struct cb_stalls *st, int order, int origin)
{
	uint64_t slot[HIST_SLOTS] = { 0 }, most = 0;
	int lo = HIST_SLOTS, hi = -1;

	for (size_t i = 0; i < st->n; i++) {
		const struct cb_stall_rec *r = &st->rec[i];
		uint64_t us = (uint64_t)(r->ns / 1e3);
		int b = 0;

		if ((order >= 0 && r->order != order) || (origin >= 0 && r->origin != origin))
			continue;
		while (us >> b && b < HIST_SLOTS - 1)
			b++;
		slot[b]++;
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	for (int b = lo; b <= hi; b++)
		most = slot[b] > most ? slot[b] : most;
	fprintf(f, "%22s : %-8s %s\n", "usecs", "count", "distribution");
	for (int b = lo; b <= hi; b++) {
		unsigned long long a = b ? 1ULL << (b - 1) : 0, z = b ? (1ULL << b) - 1 : 0;
		int stars = most ? (int)((slot[b] * HIST_WIDTH + most - 1) / most) : 0;

		fprintf(f, "%9llu -> %-9llu : %-8llu |%-*.*s|\n", a, z, (unsigned long long)slot[b],
			HIST_WIDTH, stars, "****************************************");
	}
}

/* the histograms: all stalls, or one per (order, origin) where there is more than one */
static void histograms(FILE *f, const struct cb_stalls *st)
{
	int classes = 0;

	for (int o = 0; o <= CB_STALLS_MAX_ORDER; o++)
		for (int g = 0; g < CB_ORIGIN_NR; g++) {
			bool any = false;

			for (size_t i = 0; i < st->n && !any; i++)
				any = st->rec[i].order == o && st->rec[i].origin == g;
			classes += any;
		}
	if (classes <= 1) {
		fprintf(f, "\nstall latency, all %zu stalls:\n", st->n);
		log2_hist(f, st, -1, -1);
		return;
	}
	for (int o = 0; o <= CB_STALLS_MAX_ORDER; o++)
		for (int g = 0; g < CB_ORIGIN_NR; g++) {
			size_t n = 0;

			for (size_t i = 0; i < st->n; i++)
				n += st->rec[i].order == o && st->rec[i].origin == g;
			if (!n)
				continue;
			fprintf(f, "\nstall latency, order %d, origin %s (%zu stalls):\n", o,
				cb_origin_names[g], n);
			log2_hist(f, st, o, g);
		}
}

/* who did the compaction work: runs and time per attribution, the largest first */
static void work_line(FILE *f, const struct cb_stalls *st)
{
	bool done[CB_ATTR_NR] = { false }, any = false;
	char t[32];

	fprintf(f, "  compaction work     ");
	for (int n = 0; n < CB_ATTR_NR; n++) {
		int best = -1;

		for (int a = 0; a < CB_ATTR_NR; a++)
			if (!done[a] && st->work[a].runs &&
			    (best < 0 || st->work[a].run_ns > st->work[best].run_ns))
				best = a;
		if (best < 0)
			break;
		done[best] = true;
		fprintf(f, "%s%s %s (%llu run%s)", any ? ", " : "", cb_attr_names[best],
			human_ns(t, sizeof(t), (double)st->work[best].run_ns),
			(unsigned long long)st->work[best].runs, st->work[best].runs == 1 ? "" : "s");
		any = true;
	}
	fprintf(f, "%s\n", any ? "" : "none");
}

/* the block in human units */
static void summary_block(FILE *f, const struct cb_stalls *st)
{
	double p50 = 0, p99 = 0;
	char a[32], b[32], c[32];

	fprintf(f, "\ndirect compaction (%s method):\n", cb_stalls_method(st));
	if (!st->stalls) {
		fprintf(f, "  no direct-compaction stall\n");
		work_line(f, st);
		return;
	}
	fprintf(f, "  stalls that did work %llu of %llu%s\n",
		(unsigned long long)(st->stalls - st->no_run), (unsigned long long)st->stalls,
		st->no_run ? " (the others found every zone deferred)" : "");
	cb_stalls_quantile(st, 0.5, &p50);
	cb_stalls_quantile(st, 0.99, &p99);
	fprintf(f, "  stall time          %.1f ms\n", st->total_ns / 1e6);
	fprintf(f, "  stall latency       p50 %s, p99 %s, max %s\n", human_ns(a, sizeof(a), p50),
		human_ns(b, sizeof(b), p99), human_ns(c, sizeof(c), cb_stalls_max(st)));
	fprintf(f, "  got their page      %llu of %llu stalls (%.1f%%)\n",
		(unsigned long long)st->success, (unsigned long long)st->stalls,
		100.0 * st->success / st->stalls);
	if (st->by_order[9])
		fprintf(f, "  THP (order 9)       %llu stalls; the THP success rate needs vmstat: "
			"analyze the cell directory\n", (unsigned long long)st->by_order[9]);
	if (st->alloc_hi)
		fprintf(f, "  high-order allocs   %llu, %llu failed; %.1f stalls per 1000\n",
			(unsigned long long)st->alloc_hi, (unsigned long long)st->alloc_hi_failed,
			1000.0 * st->stalls / st->alloc_hi);
	work_line(f, st);
}

/* the background work: compaction runs that no allocating task waited for */
static void background(FILE *f, const struct cb_stalls *st)
{
	bool any = false;
	char t[32];

	fprintf(f, "\nbackground compaction:\n");
	for (int a = 0; a < CB_ATTR_NR; a++) {
		const struct cb_work *w = &st->work[a];

		if (a == CB_ATTR_DIRECT || !w->runs)
			continue;
		fprintf(f, "  %-11s %llu run%s, %s", cb_attr_names[a], (unsigned long long)w->runs,
			w->runs == 1 ? "" : "s", human_ns(t, sizeof(t), (double)w->run_ns));
		if (w->migrated)
			fprintf(f, ", %llu pages migrated", (unsigned long long)w->migrated);
		fprintf(f, ", %llu succeeded\n", (unsigned long long)w->end[CB_END_SUCCESS]);
		any = true;
	}
	if (!any)
		fprintf(f, "  none\n");
	if (st->extfrag_events)
		fprintf(f, "  extfrag fallbacks %llu\n", (unsigned long long)st->extfrag_events);
}

/* every metric with a value other than 0, the way summary.json names them */
static void all_metrics(FILE *f, const struct cb_values *v)
{
	fprintf(f, "\nevery metric of the trace (summary.json names):\n");
	for (int i = 0; i < CB_M_NR; i++) {
		const struct cb_metric *m = &cb_metrics[i];

		if (m->source != CB_SRC_TRACE || !v->set[i] || v->v[i] == 0)
			continue;
		if (v->v[i] == floor(v->v[i]))
			fprintf(f, "  %-32s %16.0f %s\n", m->name, v->v[i], m->unit);
		else
			fprintf(f, "  %-32s %16.3f %s\n", m->name, v->v[i], m->unit);
	}
}

void cb_analyze_print_trace(FILE *f, const char *path, const struct cb_stalls *st,
			    const struct cb_values *v, bool all)
{
	fprintf(f, "trace %s: %llu events, %llu lost%s%s\n", path, (unsigned long long)st->events,
		(unsigned long long)st->missed, st->missing[0] ? "; not recorded: " : "",
		st->missing);
	if (all) {
		all_metrics(f, v);
		return;
	}
	summary_block(f, st);
	if (st->n)
		histograms(f, st);
	background(f, st);
	fprintf(f, "\n(--all lists every metric, --format json every figure)\n");
}
