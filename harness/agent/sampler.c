// SPDX-License-Identifier: GPL-2.0-only
/*
 * sampler.c - zoneinfo/pagetypeinfo/CPU/energy snapshots and the buddyinfo sampling thread.
 */
#include "sampler.h"
#include "cpustat.h"
#include "energy.h"
#include "frag.h"
#include "util.h"
#include "vmstat.h"
#include "xalloc.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct cb_sampler {
	char root[PATH_MAX], tmp[PATH_MAX], final[PATH_MAX];
	char etmp[PATH_MAX], efinal[PATH_MAX];
	FILE *out;
	FILE *eout;		/* energy.csv, where powercap has RAPL zones */
	unsigned int period_ms;
	int hpage_order;
	int norders;		/* columns o0..o<norders-1>, fixed by the first sample */
	bool thp;		/* column thp_alloc: /proc/vmstat had thp_fault_alloc at the first */
	struct cb_zone_info zi[CB_FRAG_MAX_ZONES];
	int nz;
	int samples, errors;
	int first_errno;
	char first_err[512];
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop, started;
};

/* the RAPL counters, a row per zone in energy.csv: the cell's energy is summed per interval */
static int sample_energy(struct cb_sampler *s, char *err, size_t errlen)
{
	struct cb_energy_snap e;
	int i;

	if (cb_energy_read(s->root, &e, err, errlen) < 0)
		return -1;
	for (i = 0; i < e.n; i++)
		fprintf(s->eout, "%llu,%s,%s,%llu,%llu\n", (unsigned long long)e.t_ns, e.z[i].zone,
			e.z[i].name, (unsigned long long)e.z[i].uj,
			(unsigned long long)e.z[i].max_uj);
	if (fflush(s->eout)) {
		cb_set_err(err, errlen, "%s: cannot write: %s", s->etmp, strerror(errno));
		return -1;
	}
	return 0;
}

/* the THP counters summed into samples.csv's thp_alloc, where the kernel has them */
static const char *const thp_allocs[] = { "thp_fault_alloc", "thp_collapse_alloc",
					  "thp_file_alloc", NULL };

/*
 * huge pages the kernel handed out so far (/proc/vmstat): the break-up estimate's
 * order >= 9 allocations when the trace has no kmem:mm_page_alloc. -1 without
 * thp_fault_alloc (a kernel without THP, or a fake tree without vmstat).
 */
static long long thp_alloc_count(const struct cb_sampler *s)
{
	struct cb_vmstat v = { 0 };
	char path[PATH_MAX];
	long long sum, x;

	if (cb_path(path, sizeof(path), "%s/proc/vmstat", s->root) < 0 ||
	    cb_vmstat_read(path, &v, NULL, 0) < 0)
		return -1;
	sum = cb_vmstat_get(&v, thp_allocs[0], &x) < 0 ? -1 : 0;
	for (int i = 0; sum >= 0 && thp_allocs[i]; i++)
		if (cb_vmstat_get(&v, thp_allocs[i], &x) == 0)
			sum += x;
	cb_vmstat_free(&v);
	return sum;
}

/* one sample: read buddyinfo (and the THP counters), write a row per zone; the energy counters */
static int sample(struct cb_sampler *s, char *err, size_t errlen)
{
	struct cb_zone_free bz[CB_FRAG_MAX_ZONES];
	struct cb_frag_zone_score sc[CB_FRAG_MAX_ZONES];
	char path[PATH_MAX], *text;
	uint64_t t = cb_now_ns();
	int nb, i, k, bad = 0;
	long long thp;

	if (cb_path(path, sizeof(path), "%s/proc/buddyinfo", s->root) < 0)
		return -1;
	text = cb_read_file(path, NULL);
	if (!text) {
		cb_set_err(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	nb = cb_buddyinfo_parse(text, bz, CB_FRAG_MAX_ZONES, &bad);
	free(text);
	if (nb <= 0) {
		errno = EINVAL;
		cb_set_err(err, errlen, "%s: line %d: not a buddyinfo line", path, bad);
		return -1;
	}
	/* the first sample decides whether there is a column; without one, no more reading */
	thp = !s->norders || s->thp ? thp_alloc_count(s) : -1;
	if (!s->norders) {
		s->norders = bz[0].norders;
		s->thp = thp >= 0;
		fprintf(s->out, "t_ns,node,zone,present,score,weighted,node_score");
		for (k = 0; k < s->norders; k++)
			fprintf(s->out, ",o%d", k);
		fprintf(s->out, "%s\n", s->thp ? ",thp_alloc" : "");
	}
	if (s->thp && thp < 0) {
		errno = EIO;
		cb_set_err(err, errlen, "%s/proc/vmstat: cannot read thp_fault_alloc, which the "
			   "first sample had", s->root);
		return -1;
	}
	cb_frag_scores(bz, nb, s->zi, s->nz, s->hpage_order, sc);
	for (i = 0; i < nb; i++) {
		fprintf(s->out, "%llu,%d,%s,%llu,%u,%u,%u", (unsigned long long)t, sc[i].node,
			sc[i].zone, (unsigned long long)sc[i].present, sc[i].score, sc[i].weighted,
			sc[i].node_score);
		for (k = 0; k < s->norders; k++)
			fprintf(s->out, ",%llu", k < bz[i].norders ?
				(unsigned long long)bz[i].nr_free[k] : 0ULL);
		if (s->thp)
			fprintf(s->out, ",%lld", thp);
		fprintf(s->out, "\n");
	}
	if (fflush(s->out)) {
		cb_set_err(err, errlen, "%s: cannot write: %s", s->tmp, strerror(errno));
		return -1;
	}
	if (s->eout && sample_energy(s, err, errlen) < 0)
		return -1;
	s->samples++;
	return 0;
}

/* a failed sample: keep the first failure's errno and line for cb_sampler_stop() */
static void note_error(struct cb_sampler *s, const char *err)
{
	if (!s->errors++) {
		s->first_errno = errno;
		snprintf(s->first_err, sizeof(s->first_err), "%s", err);
	}
}

static void *run(void *arg)
{
	struct cb_sampler *s = arg;
	struct timespec next;
	char err[512];

	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		next.tv_nsec += (long)(s->period_ms % 1000) * 1000000L;
		next.tv_sec += s->period_ms / 1000 + next.tv_nsec / 1000000000L;
		next.tv_nsec %= 1000000000L;
		while (!s->stop && pthread_cond_timedwait(&s->cond, &s->lock, &next) != ETIMEDOUT)
			;
		if (s->stop)
			break;
		pthread_mutex_unlock(&s->lock);
		if (sample(s, err, sizeof(err)))
			note_error(s, err);
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* zoneinfo's present pages weigh the scores; without it the weighted scores are 0 */
static void read_zones(struct cb_sampler *s)
{
	char path[PATH_MAX], *text;

	s->nz = 0;
	if (cb_path(path, sizeof(path), "%s/proc/zoneinfo", s->root) < 0)
		return;
	text = cb_read_file(path, NULL);
	if (!text)
		return;
	s->nz = cb_zoneinfo_parse(text, s->zi, CB_FRAG_MAX_ZONES, NULL);
	if (s->nz < 0)
		s->nz = 0;
	free(text);
}

static void destroy(struct cb_sampler *s)
{
	if (s->out)
		fclose(s->out);
	if (s->eout)
		fclose(s->eout);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

/* energy.csv, only where powercap has package or DRAM zones */
static int open_energy(struct cb_sampler *s, const char *cell_dir, char *err, size_t errlen)
{
	struct cb_energy_snap e;
	int n = cb_energy_read(s->root, &e, err, errlen);

	if (n < 0)
		return -1;
	if (!n)
		return 0;
	if (cb_path(s->efinal, sizeof(s->efinal), "%s/energy.csv", cell_dir) < 0 ||
	    cb_path(s->etmp, sizeof(s->etmp), "%s/energy.csv.tmp", cell_dir) < 0) {
		cb_set_err(err, errlen, "%s: path too long", cell_dir);
		return -1;
	}
	s->eout = fopen(s->etmp, "we");
	if (!s->eout) {
		cb_set_err(err, errlen, "%s: cannot create: %s", s->etmp, strerror(errno));
		return -1;
	}
	fprintf(s->eout, "t_ns,zone,name,energy_uj,max_energy_range_uj\n");
	return 0;
}

struct cb_sampler *cb_sampler_start(const char *cell_dir, const char *root, unsigned int period_ms,
				    char *err, size_t errlen)
{
	struct cb_sampler *s = cb_xcalloc(1, sizeof(*s));
	pthread_condattr_t ca;

	snprintf(s->root, sizeof(s->root), "%s", root ? root : "");
	s->period_ms = period_ms ? period_ms : CB_SAMPLER_DEFAULT_MS;
	s->hpage_order = cb_hpage_order(s->root);
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (cb_path(s->final, sizeof(s->final), "%s/samples.csv", cell_dir) < 0 ||
	    cb_path(s->tmp, sizeof(s->tmp), "%s/samples.csv.tmp", cell_dir) < 0) {
		cb_set_err(err, errlen, "%s: path too long", cell_dir);
		destroy(s);
		return NULL;
	}
	s->out = fopen(s->tmp, "we");
	if (!s->out) {
		cb_set_err(err, errlen, "%s: cannot create: %s", s->tmp, strerror(errno));
		destroy(s);
		return NULL;
	}
	read_zones(s);
	if (open_energy(s, cell_dir, err, errlen) < 0 || sample(s, err, errlen)) {
		unlink(s->tmp);
		if (s->eout)
			unlink(s->etmp);
		destroy(s);
		return NULL;
	}
	errno = pthread_create(&s->thread, NULL, run, s);
	if (errno) {
		cb_set_err(err, errlen, "cannot start the sampler thread: %s", strerror(errno));
		unlink(s->tmp);
		if (s->eout)
			unlink(s->etmp);
		destroy(s);
		return NULL;
	}
	s->started = true;
	return s;
}

int cb_sampler_stop(struct cb_sampler *s, char *err, size_t errlen)
{
	char last[512];
	int ret, fd;

	if (!s) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (s->started)
		pthread_join(s->thread, NULL);
	if (sample(s, last, sizeof(last)))
		note_error(s, last);
	ret = s->samples;
	fd = fileno(s->out);
	if (fflush(s->out) || fsync(fd) || fclose(s->out)) {
		cb_set_err(err, errlen, "%s: cannot write: %s", s->tmp, strerror(errno));
		s->out = NULL;
		ret = -1;
	}
	s->out = NULL;
	if (s->eout) {
		fd = fileno(s->eout);
		if (fflush(s->eout) || fsync(fd) || fclose(s->eout)) {
			cb_set_err(err, errlen, "%s: cannot write: %s", s->etmp, strerror(errno));
			ret = -1;
		}
		s->eout = NULL;
		if (rename(s->etmp, s->efinal) < 0) {
			cb_set_err(err, errlen, "%s: cannot rename into place: %s", s->efinal,
				   strerror(errno));
			ret = -1;
		}
	}
	if (ret >= 0 && s->errors) {
		/* a sample that failed leaves a gap; say so rather than hide it */
		snprintf(err, errlen, "%d of %d samples failed, the first: %s", s->errors,
			 s->errors + s->samples, s->first_err);
		errno = s->first_errno;
		ret = -1;
	}
	if (rename(s->tmp, s->final) < 0) {
		cb_set_err(err, errlen, "%s: cannot rename into place: %s", s->final,
			   strerror(errno));
		ret = -1;
	}
	destroy(s);
	return ret;
}

/* write @text as @cell_dir/@name.@when atomically */
static int put(const char *cell_dir, const char *name, const char *when, const char *text,
	       size_t len, char *err, size_t errlen)
{
	char path[PATH_MAX];

	if (cb_path(path, sizeof(path), "%s/%s.%s", cell_dir, name, when) < 0) {
		cb_set_err(err, errlen, "%s/%s.%s: path too long", cell_dir, name, when);
		return -1;
	}
	if (cb_write_file_atomic(path, text, len) < 0) {
		cb_set_err(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* copy @root/@rel into @cell_dir/@name.@when */
static int copy(const char *cell_dir, const char *root, const char *rel, const char *name,
		const char *when, char *err, size_t errlen)
{
	char src[PATH_MAX], *text;
	size_t len;
	int ret;

	if (cb_path(src, sizeof(src), "%s%s", root, rel) < 0) {
		cb_set_err(err, errlen, "%s%s: path too long", root, rel);
		return -1;
	}
	text = cb_read_file(src, &len);
	if (!text) {
		cb_set_err(err, errlen, "%s: cannot read: %s", src, strerror(errno));
		return -1;
	}
	ret = put(cell_dir, name, when, text, len, err, errlen);
	free(text);
	return ret;
}

/* a step of cb_snapshot_extra() failed with @cur: keep the first one's line and errno */
static void keep_first(int *ret, int *first_errno, const char *cur, char *err, size_t errlen)
{
	if (!*ret) {
		*first_errno = errno;
		snprintf(err, errlen, "%s", cur);
	}
	*ret = -1;
}

int cb_snapshot_extra(const char *cell_dir, const char *root, const char *when, char *err,
		      size_t errlen)
{
	char cur[512], *text = NULL;
	int ret = 0, e = 0;

	root = root ? root : "";
	if (copy(cell_dir, root, "/proc/zoneinfo", "zoneinfo", when, cur, sizeof(cur)))
		keep_first(&ret, &e, cur, err, errlen);
	if (copy(cell_dir, root, "/proc/pagetypeinfo", "pagetypeinfo", when, cur, sizeof(cur)))
		keep_first(&ret, &e, cur, err, errlen);
	if (cb_cpu_snapshot(root, &text) < 0) {
		cb_set_err(cur, sizeof(cur),
			   "%s/proc: cannot list the kcompactd/khugepaged threads: %s", root,
			   strerror(errno));
		keep_first(&ret, &e, cur, err, errlen);
	} else if (put(cell_dir, "cpu", when, text, strlen(text), cur, sizeof(cur))) {
		keep_first(&ret, &e, cur, err, errlen);
	}
	free(text);
	text = NULL;
	if (cb_energy_snapshot(root, &text, cur, sizeof(cur)) < 0 ||
	    put(cell_dir, "energy", when, text, strlen(text), cur, sizeof(cur)))
		keep_first(&ret, &e, cur, err, errlen);
	free(text);
	if (ret)
		errno = e;
	return ret;
}
