// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c - comparison statistics on per-repetition values (see stats.h).
 */
#include "stats.h"
#include "xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

static double *sorted_copy(const double *x, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof(*c));

	if (!c)
		cb_oom();
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

/* the central @conf interval of @n resampled values, sorted here (the percentile bootstrap) */
static void percentile_ci(double *v, size_t n, double tail, struct cb_ci *ci)
{
	gsl_sort(v, 1, n);
	ci->lo = gsl_stats_quantile_from_sorted_data(v, 1, n, tail);
	ci->hi = gsl_stats_quantile_from_sorted_data(v, 1, n, 1 - tail);
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
		cb_oom();
	gsl_rng_set(r, seed);
	for (size_t i = 0; i < iters; i++) {
		double ma = resample_median(r, a, na, ba), mb = resample_median(r, b, nb, bb);

		d[i] = mb - ma;
		if (ma != 0)
			q[nq++] = (mb - ma) / fabs(ma);
	}
	percentile_ci(d, iters, tail, diff);
	rel->lo = rel->hi = NAN;
	/* the relative change is defined only when every resampled baseline median is not 0 */
	if (nq == iters)
		percentile_ci(q, nq, tail, rel);
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
		cb_oom();
	gsl_rng_set(r, seed);
	for (size_t i = 0; i < iters; i++)
		m[i] = resample_median(r, x, n, buf);
	percentile_ci(m, iters, tail, ci);
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
		cb_oom();
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
		cb_oom();
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

int cb_stats_trend(const double *y, size_t n, double *slope, double *p)
{
	double *x, c0, c1, cov00, cov01, cov11, sumsq, t;

	if (n < 3) {
		errno = EINVAL;
		return -1;
	}
	x = malloc(n * sizeof(*x));
	if (!x)
		cb_oom();
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

double cb_stats_correlation(const double *x, const double *y, size_t n, double *p)
{
	double r = NAN, t;

	if (p)
		*p = NAN;
	if (n < 3 || gsl_stats_sd(x, 1, n) == 0 || gsl_stats_sd(y, 1, n) == 0)
		return NAN;
	r = fmax(-1, fmin(1, gsl_stats_correlation(x, 1, y, 1, n)));
	if (p && fabs(r) == 1) {
		*p = 0;
	} else if (p) {
		t = r * sqrt((double)(n - 2) / (1 - r * r));
		*p = 2 * gsl_cdf_tdist_Q(fabs(t), (double)n - 2);
	}
	return r;
}

int cb_stats_correlation_ci(double r, size_t n, double conf, struct cb_ci *ci)
{
	double z, h;

	if (n < 4 || isnan(r)) {
		errno = EINVAL;
		return -1;
	}
	z = atanh(r);
	h = gsl_cdf_ugaussian_Pinv(1 - (1 - conf) / 2) / sqrt((double)n - 3);
	ci->lo = tanh(z - h);
	ci->hi = tanh(z + h);
	return 0;
}

struct nct {
	double tc, df, ncp;
};

/* the integrand: P(Z > tc sqrt(v/df) - ncp) times the chi-square density of v */
static double nct_integrand(double v, void *arg)
{
	const struct nct *p = arg;

	return gsl_cdf_ugaussian_Q(p->tc * sqrt(v / p->df) - p->ncp) * gsl_ran_chisq_pdf(v, p->df);
}

double cb_stats_power_t(double d, double na, double nb, double alpha)
{
	struct nct p = { .df = na + nb - 2 };
	gsl_integration_workspace *w;
	gsl_function f = { .function = nct_integrand, .params = &p };
	gsl_error_handler_t *old;
	double res = NAN, err;
	int rc;

	if (!(na >= 2 && nb >= 2) || !(alpha > 0 && alpha < 1) || isnan(d))
		return NAN;
	p.tc = gsl_cdf_tdist_Qinv(alpha / 2, p.df);
	p.ncp = fabs(d) / sqrt(1 / na + 1 / nb);
	w = gsl_integration_workspace_alloc(1000);
	if (!w)
		cb_oom();
	old = gsl_set_error_handler_off();
	/* the chi-square's mass lies within df +- 12 sd (sd = sqrt(2 df)); beyond it, < 1e-10 */
	rc = gsl_integration_qags(&f, fmax(0, p.df - 12 * sqrt(2 * p.df)),
				  p.df + 12 * sqrt(2 * p.df) + 20, 1e-12, 1e-10, 1000, w, &res, &err);
	gsl_set_error_handler(old);
	gsl_integration_workspace_free(w);
	return rc && rc != GSL_EROUND ? NAN : fmin(1.0, res);
}

struct mde_arg {
	double na, nb, alpha, power;
};

static double mde_fn(double d, void *arg)
{
	const struct mde_arg *a = arg;

	return cb_stats_power_t(d, a->na, a->nb, a->alpha) - a->power;
}

double cb_stats_mde_t(double na, double nb, double alpha, double power)
{
	struct mde_arg a = { na, nb, alpha, power };
	gsl_function f = { .function = mde_fn, .params = &a };
	gsl_root_fsolver *s;
	double lo = 1e-6, hi = 1.0, d = NAN;
	int i, rc = GSL_CONTINUE;

	if (!(na >= 2 && nb >= 2) || !(power > alpha / 2 && power < 1))
		return NAN;
	/* bracket the root: power grows with d; 60 doublings is far past any real case */
	for (i = 0; i < 60 && mde_fn(hi, &a) < 0; i++)
		hi *= 2;
	if (i == 60)
		return NAN;
	s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	if (!s)
		cb_oom();
	gsl_root_fsolver_set(s, &f, lo, hi);
	for (i = 0; i < 200 && rc == GSL_CONTINUE; i++) {
		gsl_root_fsolver_iterate(s);
		d = gsl_root_fsolver_root(s);
		rc = gsl_root_test_interval(gsl_root_fsolver_x_lower(s), gsl_root_fsolver_x_upper(s),
					    0, 1e-10);
	}
	gsl_root_fsolver_free(s);
	return rc == GSL_SUCCESS ? d : NAN;
}

double cb_stats_min_p(size_t na, size_t nb)
{
	if (!na || !nb)
		return 1.0;
	/* 2 / C(na + nb, na), through the log of the binomial coefficient (no overflow) */
	return fmin(1.0, 2 * exp(-gsl_sf_lnchoose((unsigned)(na + nb), (unsigned)na)));
}

/* which values of U the exact two-sided rank test rejects at @alpha (no ties) */
static bool *mw_reject_table(size_t na, size_t nb, double alpha)
{
	size_t umax = na * nb, k;
	double *c = u_counts(na, nb), total = 0, lower = 0, *up = calloc(umax + 2, sizeof(*up));
	bool *rej = calloc(umax + 1, sizeof(*rej));

	if (!up || !rej)
		cb_oom();
	for (k = 0; k <= umax; k++)
		total += c[k];
	for (k = umax + 1; k-- > 0;)
		up[k] = up[k + 1] + c[k];
	for (k = 0; k <= umax; k++) {
		lower += c[k];
		rej[k] = 2 * fmin(lower, up[k]) / total < alpha;
	}
	free(c);
	free(up);
	return rej;
}

/*
 * The power of the exact rank test against a shift of d standard deviations of normal data,
 * simulated: CB_STATS_MDE_ITERS pairs of samples from mt19937 seeded with CB_STATS_MDE_SEED,
 * the same draws for every d. With the candidate sample shifted by d, U (pairs with a > b)
 * is the number of differences a_j - b_k greater than d, so one pair of samples rejects
 * exactly when d >= its (lo + 1)-th largest difference (U <= lo, the lower critical value)
 * or d < its hi-th largest (U >= hi): two thresholds per pair, found once; the power at
 * any d is then a count, and the MDE a bisection on it.
 */
struct mw_sim {
	double *lo_at, *hi_at;	/* per pair of samples: rejects for d >= lo_at or d < hi_at */
	size_t iters;
};

static void mw_sim_make(struct mw_sim *sim, size_t na, size_t nb, double alpha)
{
	size_t umax = na * nb, clo = 0, chi = umax + 1, u;
	bool *rej = mw_reject_table(na, nb, alpha);
	double *x = malloc((na + nb) * sizeof(*x)), *diff = malloc(umax * sizeof(*diff));
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	bool any_lo = false;

	sim->iters = CB_STATS_MDE_ITERS;
	sim->lo_at = malloc(sim->iters * sizeof(double));
	sim->hi_at = malloc(sim->iters * sizeof(double));
	if (!x || !diff || !r || !sim->lo_at || !sim->hi_at)
		cb_oom();
	for (u = 0; u <= umax / 2; u++)	/* the largest rejected U of the lower tail */
		if (rej[u]) {
			clo = u;
			any_lo = true;
		}
	for (u = umax + 1; u-- > (umax + 1) / 2;)	/* the smallest of the upper tail */
		if (rej[u])
			chi = u;
	gsl_rng_set(r, CB_STATS_MDE_SEED);
	for (size_t i = 0; i < sim->iters; i++) {
		for (size_t k = 0; k < na + nb; k++)
			x[k] = gsl_ran_gaussian_ziggurat(r, 1);
		for (size_t j = 0; j < na; j++)
			for (size_t k = 0; k < nb; k++)
				diff[j * nb + k] = x[j] - x[na + k];
		gsl_sort(diff, 1, umax);	/* ascending: the m-th largest is diff[umax - m] */
		sim->lo_at[i] = any_lo ? diff[umax - clo - 1] : INFINITY;
		sim->hi_at[i] = chi <= umax ? diff[umax - chi] : -INFINITY;
	}
	gsl_rng_free(r);
	free(rej);
	free(x);
	free(diff);
}

static double mw_sim_power(const void *arg, double d)
{
	const struct mw_sim *sim = arg;
	size_t hits = 0;

	for (size_t i = 0; i < sim->iters; i++)
		hits += d >= sim->lo_at[i] || d < sim->hi_at[i];
	return (double)hits / (double)sim->iters;
}

double cb_stats_bisect_power(double (*power_at)(const void *sim, double d), const void *sim,
			     double power)
{
	double lo = 0, hi = 1;

	while (hi < 1e3 && power_at(sim, hi) < power)
		hi *= 2;
	for (int i = 0; i < 40 && hi < 1e3; i++) {
		double mid = (lo + hi) / 2;

		if (power_at(sim, mid) < power)
			lo = mid;
		else
			hi = mid;
	}
	return hi < 1e3 ? hi : INFINITY;
}

static double mde_mw_sim(size_t na, size_t nb, double alpha, double power)
{
	struct mw_sim sim;
	double d;

	mw_sim_make(&sim, na, nb, alpha);
	d = cb_stats_bisect_power(mw_sim_power, &sim, power);
	free(sim.lo_at);
	free(sim.hi_at);
	return d;
}

double cb_stats_mde_mw(size_t na, size_t nb, double alpha, double power)
{
	/*
	 * the simulation is deterministic (seeded) and costs ~0.1 s: keep each (na, nb) it
	 * can be asked for (na * nb <= CB_STATS_MDE_SIM_MAX <= 200: each under 201)
	 */
	static struct {
		bool set;
		double alpha, power, mde;
	} cache[201][201];

	if (na < 2 || nb < 2)
		return NAN;
	if (cb_stats_min_p(na, nb) >= alpha)
		return INFINITY;
	if (na * nb > CB_STATS_MDE_SIM_MAX)	/* large samples: the asymptotic (ARE) answer */
		return cb_stats_mde_t(na * CB_STATS_ARE_MW, nb * CB_STATS_ARE_MW, alpha, power);
	if (!cache[na][nb].set || cache[na][nb].alpha != alpha || cache[na][nb].power != power) {
		cache[na][nb].mde = mde_mw_sim(na, nb, alpha, power);
		cache[na][nb].alpha = alpha;
		cache[na][nb].power = power;
		cache[na][nb].set = true;
	}
	return cache[na][nb].mde;
}

/* the MDE of the t test with n * ARE repetitions a side: the rank test's, asymptotically */
static double mde_are(long n, double alpha, double power)
{
	return cb_stats_mde_t(n * CB_STATS_ARE_MW, n * CB_STATS_ARE_MW, alpha, power);
}

long cb_stats_reps_for(double delta, double sd, double alpha, double power, long max)
{
	long lo = 2, hi = max, mid;

	if (!(delta > 0) || max < 2)
		return -1;
	/* the fewest repetitions at which the exact rank test can reach alpha at all */
	while (lo <= max && cb_stats_min_p((size_t)lo, (size_t)lo) >= alpha)
		lo++;
	if (lo > max)
		return -1;
	if (sd == 0 || cb_stats_mde_mw((size_t)lo, (size_t)lo, alpha, power) * sd <= delta)
		return lo;
	if (mde_are(max, alpha, power) * sd > delta)
		return -1;
	/*
	 * bisect on the asymptotic MDE (cheap), then step up on the simulated one, which is
	 * larger at small n: one or two simulations instead of one per bisection step
	 */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (mde_are(mid, alpha, power) * sd <= delta)
			hi = mid;
		else
			lo = mid;
	}
	while (hi < max && cb_stats_mde_mw((size_t)hi, (size_t)hi, alpha, power) * sd > delta)
		hi++;
	return hi;
}

double cb_stats_pooled_sd(const double *a, size_t na, const double *b, size_t nb)
{
	double va, vb;

	if (na < 2 || nb < 2)
		return NAN;
	va = gsl_stats_variance(a, 1, na);
	vb = gsl_stats_variance(b, 1, nb);
	return sqrt(((na - 1) * va + (nb - 1) * vb) / (double)(na + nb - 2));
}

double cb_stats_cv(const double *x, size_t n)
{
	double mean;

	if (n < 2)
		return NAN;
	mean = gsl_stats_mean(x, 1, n);
	if (mean == 0)
		return NAN;
	return gsl_stats_sd_m(x, 1, n, mean) / fabs(mean);
}

double cb_stats_cv_waves(const double *total, const double *waves, const double *sd, size_t n)
{
	double var = 0, mean;

	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (isnan(total[i]) || isnan(waves[i]) || isnan(sd[i]))
			return NAN;
		var += waves[i] * sd[i] * sd[i];
	}
	mean = gsl_stats_mean(total, 1, n);
	return mean == 0 ? NAN : sqrt(var / (double)n) / fabs(mean);
}

double cb_stats_cv_rest(double cv, double cv_waves)
{
	/* the part of the variance the waves do not explain; never below 0 */
	return sqrt(fmax(cv * cv - cv_waves * cv_waves, 0));
}

long cb_stats_waves_for(double cv, double cv_waves, double waves, double target, long max)
{
	double rest = cb_stats_cv_rest(cv, cv_waves), need;

	if (isnan(cv) || isnan(cv_waves) || isnan(waves) || !(waves > 0))
		return -1;
	if (cv <= target)
		return (long)ceil(waves);
	if (rest >= target)
		return -1;
	need = ceil(waves * cv_waves * cv_waves / (target * target - rest * rest));
	return need > (double)max ? -1 : (long)need;
}
