// SPDX-License-Identifier: GPL-2.0-only
/*
 * waves_cut.c - what the analyzer makes of the waves: the stall records cut by wave, the
 * free blocks at each wave's start (readiness) and the break-up estimate (waste) from
 * samples.csv against the trace's order >= 9 allocations; the per-wave statistics.
 */
#include "agentdata.h"
#include "xalloc.h"
#include "util.h"
#include "waves.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* the wave holding @t ([start, end)), or NULL; @ws's waves ascend and do not overlap */
static struct cb_wave *wave_at(struct cb_waves *ws, uint64_t t)
{
	size_t lo = 0, hi = ws->n;

	while (lo < hi) {	/* the first wave starting after t */
		size_t mid = lo + (hi - lo) / 2;

		if (ws->w[mid].start <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || t >= ws->w[lo - 1].end)
		return NULL;
	return &ws->w[lo - 1];
}

int cb_waves_cut(struct cb_waves *ws, const struct cb_stalls *st)
{
	for (size_t i = 0; i < ws->n; i++) {
		ws->w[i].stalls = 0;
		ws->w[i].stall_ns = 0;
	}
	ws->outside = 0;
	ws->outside_ns = 0;
	for (size_t i = 0; i < st->n; i++) {
		struct cb_wave *w = wave_at(ws, st->rec[i].start);

		if (w) {
			w->stalls++;
			w->stall_ns += st->rec[i].ns;
		} else {
			ws->outside++;
			ws->outside_ns += st->rec[i].ns;
		}
	}
	return 0;
}

double cb_free_units9(const uint64_t *free)
{
	double u = 0;

	for (int o = 9; o <= CB_WAVES_MAX_ORDER; o++)
		u += (double)free[o] * (double)(1ULL << (o - 9));
	return u;
}

/*
 * the columns of samples.csv's header @line: t_ns, o0..o10 and thp_alloc (-1: absent); -1
 * without t_ns
 */
static int free_columns(const char *line, int *ct, int *co, int *cthp)
{
	char name[8];

	*ct = cb_csv_column(line, "t_ns");
	*cthp = cb_csv_column(line, "thp_alloc");
	for (int o = 0; o <= CB_WAVES_MAX_ORDER; o++) {
		snprintf(name, sizeof(name), "o%d", o);
		co[o] = cb_csv_column(line, name);
	}
	return *ct < 0 ? -1 : 0;
}

/* a new sample time @t appended to *@out (*@n of them, room for *@cap) */
static struct cb_sample_free *sample_new(struct cb_sample_free **out, size_t *n, size_t *cap,
					 uint64_t t)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		struct cb_sample_free *nv = realloc(*out, nc * sizeof(*nv));

		if (!nv)
			cb_oom();
		*out = nv;
		*cap = nc;
	}
	memset(&(*out)[*n], 0, sizeof(**out));
	(*out)[*n].t = t;
	return &(*out)[(*n)++];
}

long cb_samples_free_parse(const char *text, uint64_t ws, uint64_t we,
			   struct cb_sample_free **out, int *bad_line)
{
	int ln = 0, ct = -1, cthp = -1, co[CB_WAVES_MAX_ORDER + 1];
	struct cb_sample_free *cur = NULL;
	unsigned long long t, v, thp = 0, last_t = 0, last_thp = 0;
	size_t n = 0, cap = 0;
	const char *p = text;
	bool header = false, any = false;
	char line[2048];

	*out = NULL;
	while (cb_next_line(&p, line, sizeof(line), &ln)) {
		if (!line[0])
			continue;
		if (!header) {
			if (free_columns(line, &ct, co, &cthp))
				goto bad;
			header = true;
			continue;
		}
		if (cb_csv_u64(line, ct, &t) || (any && t < last_t))
			goto bad;	/* a row that does not parse, or time going back */
		any = true;
		last_t = t;
		if (we && (t < ws || t > we))
			continue;
		if (cthp >= 0 && (cb_csv_u64(line, cthp, &thp) || thp < last_thp))
			goto bad;	/* a counter that went down */
		last_thp = thp;
		if (!cur || cur->t != t)
			cur = sample_new(out, &n, &cap, t);
		cur->has_thp = cthp >= 0;
		cur->thp = thp;
		for (int o = 0; o <= CB_WAVES_MAX_ORDER; o++) {
			if (co[o] < 0)
				continue;
			if (cb_csv_u64(line, co[o], &v) || v > CB_WAVES_COUNT_MAX)
				goto bad;
			cur->free[o] += v;
		}
	}
	if (!header)
		goto bad;
	return (long)n;
bad:
	free(*out);
	*out = NULL;
	return cb_bad_line(bad_line, ln);
}

/* order >= 9 allocations of @st with @lo < ts <= @hi, in order-9 units; *@at walks st->big */
static double allocs_in(const struct cb_stalls *st, size_t *at, uint64_t lo, uint64_t hi)
{
	double u = 0;

	while (*at < st->nbig && st->big[*at].ts <= lo)
		(*at)++;
	for (; *at < st->nbig && st->big[*at].ts <= hi; (*at)++) {
		int o = st->big[*at].order;

		u += (double)(1ULL << (o - 9 > 20 ? 20 : o - 9));
	}
	return u;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* readiness: each wave's last sample at or before its start */
static void set_ready(struct cb_waves *ws, const struct cb_sample_free *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < ws->n; i++) {
		struct cb_wave *w = &ws->w[i];

		while (k < n && s[k].t <= w->start)
			k++;
		w->has_ready = k > 0;
		if (!k)
			continue;
		w->ready_t = s[k - 1].t;
		memcpy(w->free, s[k - 1].free, sizeof(w->free));
	}
}

int cb_waves_breakup(struct cb_waves *ws, const struct cb_sample_free *s, size_t n,
		     const struct cb_stalls *st)
{
	double *len = malloc((n ? n : 1) * sizeof(*len));
	size_t at = 0, wi = 0;

	if (!len)
		cb_oom();
	set_ready(ws, s, n);
	ws->breakup = 0;
	ws->intervals = n > 1 ? n - 1 : 0;
	ws->big_allocs = 0;
	for (size_t i = 0; i < ws->n; i++) {
		ws->w[i].has_breakup = true;
		ws->w[i].breakup_before = ws->w[i].breakup_during = 0;
	}
	ws->big_allocs_vmstat = !st;
	for (size_t k = 0; k + 1 < n; k++) {
		double a = st ? allocs_in(st, &at, s[k].t, s[k + 1].t) :
				(double)(s[k + 1].thp - s[k].thp);
		double b = cb_free_units9(s[k].free) - cb_free_units9(s[k + 1].free) - a;
		uint64_t t = s[k + 1].t;

		ws->big_allocs += (uint64_t)a;
		len[k] = (double)(s[k + 1].t - s[k].t);
		if (b <= 0)
			continue;
		ws->breakup += b;
		while (wi < ws->n && ws->w[wi].end <= t)	/* the first wave not over at t */
			wi++;
		if (wi < ws->n && t >= ws->w[wi].start)
			ws->w[wi].breakup_during += b;
		else if (wi < ws->n)
			ws->w[wi].breakup_before += b;
	}
	ws->has_breakup = n > 1;
	if (n > 1) {
		qsort(len, n - 1, sizeof(*len), cmp_double);
		ws->interval_ns_median = gsl_stats_median_from_sorted_data(len, 1, n - 1);
	}
	free(len);
	return 0;
}

int cb_waves_analyze(const char *cell_dir, const struct cb_stalls *st, uint64_t win_start,
		     uint64_t win_end, struct cb_waves *out, char *err, size_t errlen)
{
	struct cb_sample_free *s = NULL;
	char path[PATH_MAX], *text;
	int bad = 0;
	bool thp;
	long n;

	if (cb_waves_read(cell_dir, out, err, errlen))
		return -1;
	if (out->present)
		cb_waves_cut(out, st);
	if (cb_path(path, sizeof(path), "%s/samples.csv", cell_dir) < 0)
		return 0;
	text = cb_read_file(path, NULL);
	if (!text)
		return 0;	/* no samples (agentdata.c says so when that is an error) */
	n = cb_samples_free_parse(text, win_start, win_end, &s, &bad);
	free(text);
	if (n < 0) {
		snprintf(err, errlen, "%s: line %d: not a samples.csv row (t_ns, o0..o%d, "
			 "thp_alloc: whole numbers, times and thp_alloc not going back)", path, bad,
			 CB_WAVES_MAX_ORDER);
		cb_waves_free(out);
		return -1;
	}
	/*
	 * the allocations that explain a drop: the trace's, else the THP counters the sampler
	 * read with each sample; with neither the drop cannot be told from them: no estimate
	 */
	thp = n > 0;
	for (long k = 0; k < n; k++)
		thp = thp && s[k].has_thp;
	if (cb_stalls_recorded(st, "kmem:mm_page_alloc") && n > 1)
		cb_waves_breakup(out, s, (size_t)n, st);
	else if (thp && n > 1)
		cb_waves_breakup(out, s, (size_t)n, NULL);
	else if (n > 0)
		set_ready(out, s, (size_t)n);
	free(s);
	return 0;
}

/* the value @what of wave @w; false when it has none */
static bool wave_value(const struct cb_wave *w, int what, double *v)
{
	switch (what) {
	case 0:
		*v = (double)w->stalls;
		return true;
	case 1:
		*v = w->stall_ns;
		return true;
	case 2:
		*v = w->faults ? (double)w->thp / (double)w->faults : 0;
		return w->faults > 0;
	case 3:
		*v = w->lat[0][1];
		return w->has_lat[0][1];
	default:
		*v = cb_free_units9(w->free);
		return w->has_ready;
	}
}

int cb_waves_stat(const struct cb_waves *ws, size_t from, size_t to, int what,
		  enum cb_wave_agg agg, double *out)
{
	double *x;
	size_t k = 0;

	if (to > ws->n)
		to = ws->n;
	if (from >= to)
		return -1;
	x = malloc((to - from) * sizeof(*x));
	if (!x)
		cb_oom();
	for (size_t i = from; i < to; i++)
		if (wave_value(&ws->w[i], what, &x[k]))
			k++;
	if (agg == CB_WAVE_SD && k < 2)
		k = 0;
	if (k) {
		gsl_sort(x, 1, k);
		*out = agg == CB_WAVE_MEDIAN ? gsl_stats_median_from_sorted_data(x, 1, k) :
		       agg == CB_WAVE_SD ? gsl_stats_sd(x, 1, k) : gsl_stats_mean(x, 1, k);
	}
	free(x);
	return k ? 0 : -1;
}

int cb_waves_first_last(const struct cb_waves *ws, size_t *first_end, size_t *last_from)
{
	if (!ws->present || ws->n < 4)
		return -1;
	*first_end = (ws->n + 3) / 4;
	*last_from = ws->n / 2;
	return 0;
}
