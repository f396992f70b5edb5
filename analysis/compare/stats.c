// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c - comparison statistics on per-repetition values (see stats.h).
 */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

static double *sorted_copy(const double *x, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof(*c));

	if (!c)
		abort();
	memcpy(c, x, n * sizeof(*c));
	gsl_sort(c, 1, n);
	return c;
}

double cb_stats_median(const double *x, size_t n)
{
	double *c = sorted_copy(x, n), m = gsl_stats_median_from_sorted_data(c, 1, n);

	free(c);
	return m;
}

static double resample_median(const gsl_rng *r, const double *x, size_t n, double *buf)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = x[gsl_rng_uniform_int(r, n)];
	gsl_sort(buf, 1, n);
	return gsl_stats_median_from_sorted_data(buf, 1, n);
}

int cb_stats_bootstrap(const double *a, size_t na, const double *b, size_t nb, double conf,
		       unsigned long seed, size_t iters, struct cb_ci *diff, struct cb_ci *rel)
{
	double *d, *q, *ba, *bb, tail = (1 - conf) / 2;
	size_t nq = 0;
	gsl_rng *r;

	if (!na || !nb || !iters || !(conf > 0 && conf < 1)) {
		errno = EINVAL;
		return -1;
	}
	d = malloc(iters * sizeof(*d));
	q = malloc(iters * sizeof(*q));
	ba = malloc(na * sizeof(*ba));
	bb = malloc(nb * sizeof(*bb));
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!d || !q || !ba || !bb || !r)
		abort();
	gsl_rng_set(r, seed);
	for (size_t i = 0; i < iters; i++) {
		double ma = resample_median(r, a, na, ba), mb = resample_median(r, b, nb, bb);

		d[i] = mb - ma;
		if (ma != 0)
			q[nq++] = (mb - ma) / fabs(ma);
	}
	gsl_sort(d, 1, iters);
	diff->lo = gsl_stats_quantile_from_sorted_data(d, 1, iters, tail);
	diff->hi = gsl_stats_quantile_from_sorted_data(d, 1, iters, 1 - tail);
	rel->lo = rel->hi = NAN;
	/* the relative change is defined only when every resampled baseline median is not 0 */
	if (nq == iters) {
		gsl_sort(q, 1, nq);
		rel->lo = gsl_stats_quantile_from_sorted_data(q, 1, nq, tail);
		rel->hi = gsl_stats_quantile_from_sorted_data(q, 1, nq, 1 - tail);
	}
	gsl_rng_free(r);
	free(d);
	free(q);
	free(ba);
	free(bb);
	return 0;
}

int cb_stats_bootstrap_median(const double *x, size_t n, double conf, unsigned long seed,
			      size_t iters, struct cb_ci *ci)
{
	double *m, *buf, tail = (1 - conf) / 2;
	gsl_rng *r;

	if (!n || !iters || !(conf > 0 && conf < 1)) {
		errno = EINVAL;
		return -1;
	}
	m = malloc(iters * sizeof(*m));
	buf = malloc(n * sizeof(*buf));
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!m || !buf || !r)
		abort();
	gsl_rng_set(r, seed);
	for (size_t i = 0; i < iters; i++)
		m[i] = resample_median(r, x, n, buf);
	gsl_sort(m, 1, iters);
	ci->lo = gsl_stats_quantile_from_sorted_data(m, 1, iters, tail);
	ci->hi = gsl_stats_quantile_from_sorted_data(m, 1, iters, 1 - tail);
	gsl_rng_free(r);
	free(m);
	free(buf);
	return 0;
}

/* number of arrangements of m a-values and n b-values whose U is u: c(m,n,u) */
static double *u_counts(size_t m, size_t n)
{
	size_t umax = m * n, i, j, u;
	/* table[j][u] for the current i, built up over i = 0..m (memory (n+1) * (umax+1)) */
	double *prev = calloc((n + 1) * (umax + 1), sizeof(double));
	double *cur = calloc((n + 1) * (umax + 1), sizeof(double)), *res;

	if (!prev || !cur)
		abort();
#define AT(t, jj, uu) ((t)[(jj) * (umax + 1) + (uu)])
	for (j = 0; j <= n; j++)
		AT(prev, j, 0) = 1; /* no a-values: one arrangement, U = 0 */
	for (i = 1; i <= m; i++) {
		memset(cur, 0, (n + 1) * (umax + 1) * sizeof(double));
		for (j = 0; j <= n; j++) {
			for (u = 0; u <= i * j; u++) {
				/* the largest value is an a (beats all j b's) or a b */
				double v = u >= j ? AT(prev, j, u - j) : 0;

				if (j)
					v += AT(cur, j - 1, u);
				AT(cur, j, u) = v;
			}
		}
		memcpy(prev, cur, (n + 1) * (umax + 1) * sizeof(double));
	}
	res = malloc((umax + 1) * sizeof(double));
	if (!res)
		abort();
	memcpy(res, &AT(prev, n, 0), (umax + 1) * sizeof(double));
#undef AT
	free(prev);
	free(cur);
	return res;
}

double cb_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u)
{
	size_t n = na + nb, i, j;
	double *all, U = 0, tie_sum = 0, mu, sigma, z, p;
	bool ties = false;

	if (!na || !nb)
		return NAN;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			U += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
	if (u)
		*u = U;
	all = sorted_copy(a, na);
	all = realloc(all, n * sizeof(*all));
	memcpy(all + na, b, nb * sizeof(*all));
	gsl_sort(all, 1, n);
	for (i = 0; i < n;) {
		size_t k = i;

		while (k < n && all[k] == all[i])
			k++;
		if (k - i > 1) {
			double t = (double)(k - i);

			ties = true;
			tie_sum += t * t * t - t;
		}
		i = k;
	}
	free(all);
	if (!ties && na * nb <= 2500) {
		double *c = u_counts(na, nb), total = 0, lower = 0, upper = 0;
		size_t umax = na * nb, k;

		for (k = 0; k <= umax; k++) {
			total += c[k];
			if ((double)k <= U)
				lower += c[k];
			if ((double)k >= U)
				upper += c[k];
		}
		free(c);
		p = 2 * fmin(lower, upper) / total;
		return fmin(p, 1.0);
	}
	mu = (double)na * nb / 2;
	sigma = sqrt((double)na * nb / 12 * ((double)n + 1 - tie_sum / ((double)n * (n - 1))));
	if (sigma == 0)
		return 1.0;
	z = U - mu;
	z = (z - copysign(fmin(0.5, fabs(z)), z)) / sigma; /* continuity correction */
	return fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fabs(z)));
}

long cb_stats_reps_needed(const double *a, size_t na, const double *b, size_t nb, double alpha,
			  double power)
{
	double va, vb, sd, delta, z, n;

	if (na < 2 || nb < 2)
		return -1;
	va = gsl_stats_variance(a, 1, na);
	vb = gsl_stats_variance(b, 1, nb);
	sd = sqrt(((na - 1) * va + (nb - 1) * vb) / (double)(na + nb - 2));
	delta = fabs(cb_stats_median(b, nb) - cb_stats_median(a, na));
	if (delta == 0 || sd == 0)
		return 0;
	z = gsl_cdf_ugaussian_Pinv(1 - alpha / 2) + gsl_cdf_ugaussian_Pinv(power);
	n = ceil(2 * pow(z * sd / delta, 2));
	/* NaN (a NaN or infinite value in a group) has no answer; a cast of it is undefined */
	if (isnan(n))
		return -1;
	return n >= CB_STATS_REPS_MAX ? CB_STATS_REPS_MAX : (long)n;
}

int cb_stats_trend(const double *y, size_t n, double *slope, double *p)
{
	double *x, c0, c1, cov00, cov01, cov11, sumsq, t;

	if (n < 3) {
		errno = EINVAL;
		return -1;
	}
	x = malloc(n * sizeof(*x));
	if (!x)
		abort();
	for (size_t i = 0; i < n; i++)
		x[i] = (double)(i + 1);
	gsl_fit_linear(x, 1, y, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
	free(x);
	*slope = c1;
	if (cov11 <= 0) {
		*p = c1 == 0 ? 1.0 : 0.0; /* a perfect line: no residual spread */
		return 0;
	}
	t = c1 / sqrt(cov11);
	*p = 2 * gsl_cdf_tdist_Q(fabs(t), (double)n - 2);
	return 0;
}
