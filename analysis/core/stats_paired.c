// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats_paired.c - the signed-rank test on paired repetitions and its power (stats_paired.h).
 */
#include "stats_paired.h"
#include "stats.h"
#include "xalloc.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>

/*
 * the null distribution of V with @n ranks: the number of the 2^n sign patterns giving each
 * V in 0..n(n+1)/2, counted by adding one rank at a time (exact in a double up to 2^53)
 */
static double *v_counts(size_t n)
{
	size_t max = n * (n + 1) / 2;
	double *c = calloc(max + 1, sizeof(*c));

	if (!c)
		cb_oom();
	c[0] = 1;
	for (size_t r = 1; r <= n; r++)
		for (size_t s = r * (r + 1) / 2 + 1; s-- > r;)
			c[s] += c[s - r];
	return c;
}

static int cmp_abs(const void *a, const void *b)
{
	double x = fabs(*(const double *)a), y = fabs(*(const double *)b);

	return (x > y) - (x < y);
}

double cb_stats_signed_rank(const double *d, size_t n, double *v)
{
	double *x = malloc((n + 1) * sizeof(*x)), sum = 0, ties = 0, mean, var, z;
	size_t m = 0;
	bool tied = false;

	if (!x)
		cb_oom();
	for (size_t i = 0; i < n; i++)
		if (d[i] != 0 && !isnan(d[i]))
			x[m++] = d[i];
	if (v)
		*v = NAN;
	if (!m) {
		free(x);
		return NAN;
	}
	qsort(x, m, sizeof(*x), cmp_abs);
	/* average ranks over runs of equal |d| */
	for (size_t i = 0; i < m;) {
		size_t j = i;
		double rank;

		while (j + 1 < m && fabs(x[j + 1]) == fabs(x[i]))
			j++;
		rank = (double)(i + j + 2) / 2;
		for (size_t k = i; k <= j; k++)
			if (x[k] > 0)
				sum += rank;
		if (j > i) {
			double t = (double)(j - i + 1);

			tied = true;
			ties += t * t * t - t;
		}
		i = j + 1;
	}
	free(x);
	if (v)
		*v = sum;
	if (!tied && m <= CB_STATS_SR_EXACT_MAX) {
		double *c = v_counts(m), lower = 0, upper = 0, total = ldexp(1, (int)m);
		size_t max = m * (m + 1) / 2;

		for (size_t s = 0; s <= max; s++) {
			if ((double)s <= sum)
				lower += c[s];
			if ((double)s >= sum)
				upper += c[s];
		}
		free(c);
		return fmin(1.0, 2 * fmin(lower, upper) / total);
	}
	mean = (double)m * (double)(m + 1) / 4;
	var = (double)m * (double)(m + 1) * (double)(2 * m + 1) / 24 - ties / 48;
	if (var <= 0)
		return 1.0;
	z = sum - mean;
	z = (z - (z > 0 ? 0.5 : z < 0 ? -0.5 : 0)) / sqrt(var);
	return fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fabs(z)));
}

double cb_stats_min_p_paired(size_t n)
{
	return n ? fmin(1.0, ldexp(2, -(int)(n > 1000 ? 1000 : n))) : 1.0;
}

/*
 * The power of the exact test against a shift of d standard deviations, simulated. V of
 * differences z_i + d is the number of Walsh averages (z_i + z_j) / 2, i <= j, above -d, so
 * a sample rejects exactly when d > -w[M - chi] (V >= chi, the upper critical value) or
 * d <= -w[M - clo - 1] (V <= clo), w its M sorted Walsh averages: two thresholds a sample,
 * found once, and the power at any d is a count (as stats.c's mw_sim).
 */
struct sr_sim {
	double *up_at, *lo_at;
	size_t iters;
};

static void sr_sim_make(struct sr_sim *sim, size_t n, double alpha)
{
	size_t max = n * (n + 1) / 2, clo = 0, chi = max + 1, k;
	double *c = v_counts(n), total = ldexp(1, (int)n), lower = 0, *w;
	double *z = malloc(n * sizeof(*z));
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	bool any_lo = false;

	w = malloc(max * sizeof(*w));
	sim->iters = CB_STATS_MDE_ITERS;
	sim->up_at = malloc(sim->iters * sizeof(double));
	sim->lo_at = malloc(sim->iters * sizeof(double));
	if (!w || !z || !r || !sim->up_at || !sim->lo_at)
		cb_oom();
	/* the null distribution is symmetric: V <= clo rejects iff V >= max - clo does */
	for (k = 0; k <= max / 2; k++) {
		lower += c[k];
		if (2 * lower / total < alpha) {
			clo = k;
			any_lo = true;
		}
	}
	if (any_lo)
		chi = max - clo;
	gsl_rng_set(r, CB_STATS_MDE_SEED);
	for (size_t i = 0; i < sim->iters; i++) {
		size_t m = 0;

		for (k = 0; k < n; k++)
			z[k] = gsl_ran_gaussian_ziggurat(r, 1);
		for (size_t a = 0; a < n; a++)
			for (size_t b = a; b < n; b++)
				w[m++] = (z[a] + z[b]) / 2;
		gsl_sort(w, 1, max);
		sim->up_at[i] = chi <= max ? -w[max - chi] : INFINITY;
		sim->lo_at[i] = any_lo ? -w[max - clo - 1] : -INFINITY;
	}
	gsl_rng_free(r);
	free(c);
	free(z);
	free(w);
}

static double sr_sim_power(const void *arg, double d)
{
	const struct sr_sim *sim = arg;
	size_t hits = 0;

	for (size_t i = 0; i < sim->iters; i++)
		hits += d > sim->up_at[i] || d <= sim->lo_at[i];
	return (double)hits / (double)sim->iters;
}

static double mde_sr_sim(size_t n, double alpha, double power)
{
	struct sr_sim sim;
	double d;

	sr_sim_make(&sim, n, alpha);
	d = cb_stats_bisect_power(sr_sim_power, &sim, power);
	free(sim.up_at);
	free(sim.lo_at);
	return d;
}

double cb_stats_mde_paired(size_t n, double alpha, double power)
{
	/* deterministic and ~0.1 s each: keep what was asked (n <= CB_STATS_SR_EXACT_MAX) */
	static struct {
		bool set;
		double alpha, power, mde;
	} cache[CB_STATS_SR_EXACT_MAX + 1];

	if (n < 2 || !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
		return NAN;
	if (cb_stats_min_p_paired(n) >= alpha)
		return INFINITY;
	if (n > CB_STATS_SR_EXACT_MAX)
		return (gsl_cdf_ugaussian_Qinv(alpha / 2) + gsl_cdf_ugaussian_Pinv(power)) /
		       sqrt((double)n * CB_STATS_ARE_MW);
	if (!cache[n].set || cache[n].alpha != alpha || cache[n].power != power) {
		cache[n].mde = mde_sr_sim(n, alpha, power);
		cache[n].alpha = alpha;
		cache[n].power = power;
		cache[n].set = true;
	}
	return cache[n].mde;
}

long cb_stats_reps_for_paired(double delta, double sd, double alpha, double power, long max)
{
	long n = 2;

	if (!(delta > 0) || max < 2)
		return -1;
	while (n <= max && cb_stats_min_p_paired((size_t)n) >= alpha)
		n++;
	if (n > max)
		return -1;
	if (sd == 0)
		return n;
	if (cb_stats_mde_paired((size_t)max, alpha, power) * sd > delta)
		return -1;
	/* the MDE falls as n grows: bisect for the first n that is enough */
	for (long hi = max; n < hi;) {
		long mid = n + (hi - n) / 2;

		if (cb_stats_mde_paired((size_t)mid, alpha, power) * sd <= delta)
			hi = mid;
		else
			n = mid + 1;
	}
	return n;
}
