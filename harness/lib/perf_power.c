// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf_power.c - perf's power PMU: its sysfs description, the counters, the perf-power.*
 * files.
 */
#include "perf_power.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PMU_DIR "/sys/bus/event_source/devices/power"

/* the events read, and their domains */
static const struct {
	const char *name;
	int domain;
} wanted[CB_PP_MAX_EVENTS] = {
	{ "energy-pkg", CB_ENERGY_PKG },
	{ "energy-ram", CB_ENERGY_DRAM },
};

/* "config:0-7" or "config:5" into the bit range */
static int parse_format(const char *text, int *lo, int *hi)
{
	char extra;

	if (sscanf(text, "config:%d-%d %c", lo, hi, &extra) == 2 && *lo >= 0 && *hi < 64 &&
	    *lo <= *hi)
		return 0;
	if (sscanf(text, "config:%d %c", lo, &extra) == 1 && *lo >= 0 && *lo < 64) {
		*hi = *lo;
		return 0;
	}
	return -1;
}

int cb_pp_parse_event(const char *pmu_dir, const char *text, uint64_t *config, char *err,
		      size_t errlen)
{
	char buf[256], path[PATH_MAX], fmt[64], *save = NULL, *term;

	*config = 0;
	snprintf(buf, sizeof(buf), "%s", text);
	buf[strcspn(buf, "\n")] = '\0';
	for (term = strtok_r(buf, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '='), *end;
		unsigned long long v;
		uint64_t mask;
		int lo, hi;

		if (!eq || eq == term) {
			snprintf(err, errlen, "'%s': not a term=value", term);
			errno = EINVAL;
			return -1;
		}
		*eq = '\0';
		errno = 0;
		v = strtoull(eq + 1, &end, 0);
		if (errno || end == eq + 1 || *end) {
			snprintf(err, errlen, "'%s=%s': not a number", term, eq + 1);
			errno = EINVAL;
			return -1;
		}
		if (cb_path(path, sizeof(path), "%s/format/%s", pmu_dir, term) < 0 ||
		    cb_read_trimmed(path, fmt, sizeof(fmt)) < 0) {
			snprintf(err, errlen, "%s/format/%s: cannot read: %s", pmu_dir, term,
				 strerror(errno));
			return -1;
		}
		if (parse_format(fmt, &lo, &hi) < 0) {
			snprintf(err, errlen, "%s: '%s': not config:<lo>-<hi>", path, fmt);
			errno = EINVAL;
			return -1;
		}
		mask = hi - lo == 63 ? ~0ULL : ((1ULL << (hi - lo + 1)) - 1);
		if (v & ~mask) {
			snprintf(err, errlen, "'%s=%s': does not fit %s", term, eq + 1, fmt);
			errno = EINVAL;
			return -1;
		}
		*config |= (uint64_t)v << lo;
	}
	return 0;
}

int cb_pp_parse_scale(const char *text, double *scale)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	while (*end == '\n' || *end == ' ')
		end++;
	if (errno || end == text || *end || !isfinite(v) || v <= 0)
		return -1;
	*scale = v;
	return 0;
}

int cb_pp_parse_cpumask(const char *text, int *cpus, int max)
{
	const char *p = text;
	int n = 0;

	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0)
			return -1;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				return -1;
		}
		for (; a <= b; a++) {
			if (n == max)
				return -1;
			cpus[n++] = (int)a;
		}
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	return n;
}

double cb_pp_joules(uint64_t count, double scale)
{
	return (double)count * scale;
}

/* read @dir/@name trimmed; -1 with a message naming it */
static int read_text(const char *dir, const char *name, char *buf, size_t size, char *err,
		     size_t errlen)
{
	char path[PATH_MAX];

	if (cb_path(path, sizeof(path), "%s/%s", dir, name) < 0 ||
	    cb_read_trimmed(path, buf, size) < 0) {
		snprintf(err, errlen, "%s/%s: cannot read: %s", dir, name, strerror(errno));
		return -1;
	}
	return 0;
}

int cb_pp_probe(const char *root, struct cb_pp_pmu *pmu, char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX], buf[256], name[64];
	char *end;
	int i;

	memset(pmu, 0, sizeof(*pmu));
	if (cb_path(dir, sizeof(dir), "%s" PMU_DIR, root ? root : "") < 0) {
		snprintf(err, errlen, "%s" PMU_DIR ": path too long", root);
		return -1;
	}
	if (access(dir, F_OK))
		return 0;
	if (read_text(dir, "type", buf, sizeof(buf), err, errlen) < 0)
		return -1;
	errno = 0;
	pmu->type = (int)strtol(buf, &end, 10);
	if (errno || end == buf || *end || pmu->type < 0) {
		snprintf(err, errlen, "%s/type: '%s': not a PMU type number", dir, buf);
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < CB_PP_MAX_EVENTS; i++) {
		struct cb_pp_event *ev = &pmu->ev[pmu->nev];

		snprintf(name, sizeof(name), "events/%s", wanted[i].name);
		if (cb_path(path, sizeof(path), "%s/%s", dir, name) < 0 || access(path, F_OK))
			continue;	/* this machine has no such domain */
		if (read_text(dir, name, buf, sizeof(buf), err, errlen) < 0)
			return -1;
		if (cb_pp_parse_event(dir, buf, &ev->config, err, errlen) < 0) {
			char why[256];

			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, errlen, "%s: %s", path, why);
			return -1;
		}
		snprintf(name, sizeof(name), "events/%s.scale", wanted[i].name);
		if (read_text(dir, name, ev->scale_text, sizeof(ev->scale_text), err, errlen) < 0)
			return -1;
		if (cb_pp_parse_scale(ev->scale_text, &ev->scale) < 0) {
			snprintf(err, errlen, "%s/%s: '%s': not a positive number of joules per "
				 "count", dir, name, ev->scale_text);
			errno = EINVAL;
			return -1;
		}
		snprintf(name, sizeof(name), "events/%s.unit", wanted[i].name);
		if (read_text(dir, name, ev->unit, sizeof(ev->unit), err, errlen) < 0)
			return -1;
		if (strcmp(ev->unit, "Joules")) {
			snprintf(err, errlen, "%s/%s: '%s': not Joules", dir, name, ev->unit);
			errno = EINVAL;
			return -1;
		}
		snprintf(ev->name, sizeof(ev->name), "%s", wanted[i].name);
		ev->domain = wanted[i].domain;
		pmu->nev++;
	}
	if (!pmu->nev) {
		/* e.g. only energy-psys (a guest): nothing of ours, but say so */
		snprintf(err, errlen, "%s/events: no energy-pkg or energy-ram", dir);
		return 0;
	}
	if (read_text(dir, "cpumask", buf, sizeof(buf), err, errlen) < 0)
		return -1;
	pmu->ncpu = cb_pp_parse_cpumask(buf, pmu->cpu, CB_PP_MAX_CPUS);
	if (pmu->ncpu <= 0) {
		snprintf(err, errlen, "%s/cpumask: '%s': not a list of at most %d CPUs", dir, buf,
			 CB_PP_MAX_CPUS);
		errno = EINVAL;
		return -1;
	}
	return 1;
}

struct cb_pp {
	int n;
	int fd[CB_PP_MAX_COUNTERS];
	struct cb_pp_counter c[CB_PP_MAX_COUNTERS];
};

struct cb_pp *cb_pp_open(const struct cb_pp_pmu *pmu, char *err, size_t errlen)
{
	struct cb_pp *pp = calloc(1, sizeof(*pp));
	int e, k;

	if (!pp) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (e = 0; e < pmu->nev; e++)
		for (k = 0; k < pmu->ncpu; k++) {
			const struct cb_pp_event *ev = &pmu->ev[e];
			struct perf_event_attr attr = { 0 };
			struct cb_pp_counter *c = &pp->c[pp->n];
			int fd;

			if (pp->n == CB_PP_MAX_COUNTERS)
				break;
			attr.size = sizeof(attr);
			attr.type = (unsigned int)pmu->type;
			attr.config = ev->config;
			/* system-wide on the package's CPU: pid -1, cpu */
			fd = (int)syscall(SYS_perf_event_open, &attr, -1, pmu->cpu[k], -1,
					  PERF_FLAG_FD_CLOEXEC);
			if (fd < 0) {
				snprintf(err, errlen, "perf_event_open(type %d, config 0x%llx = %s, "
					 "cpu %d): %s", pmu->type, (unsigned long long)ev->config,
					 ev->name, pmu->cpu[k], strerror(errno));
				cb_pp_close(pp);
				return NULL;
			}
			pp->fd[pp->n] = fd;
			snprintf(c->event, sizeof(c->event), "%s", ev->name);
			c->domain = ev->domain;
			c->cpu = pmu->cpu[k];
			c->scale = ev->scale;
			snprintf(c->scale_text, sizeof(c->scale_text), "%s", ev->scale_text);
			snprintf(c->unit, sizeof(c->unit), "%s", ev->unit);
			pp->n++;
		}
	return pp;
}

int cb_pp_read(struct cb_pp *pp, struct cb_pp_snap *out, char *err, size_t errlen)
{
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < pp->n; i++) {
		uint64_t v;
		ssize_t r = read(pp->fd[i], &v, sizeof(v));

		if (r != (ssize_t)sizeof(v)) {
			snprintf(err, errlen, "perf %s cpu %d: cannot read the count: %s",
				 pp->c[i].event, pp->c[i].cpu, r < 0 ? strerror(errno) : "short read");
			if (r >= 0)
				errno = EIO;
			return -1;
		}
		out->c[i] = pp->c[i];
		out->c[i].count = v;
	}
	out->n = pp->n;
	return 0;
}

void cb_pp_close(struct cb_pp *pp)
{
	int i;

	if (!pp)
		return;
	for (i = 0; i < pp->n; i++)
		close(pp->fd[i]);
	free(pp);
}

int cb_pp_format(const struct cb_pp_snap *s, char **text)
{
	size_t len = 0;
	FILE *out = open_memstream(text, &len);
	int i;

	if (!out)
		return -1;
	fprintf(out, "# compactbench perf-power 1: event cpu count scale unit\n");
	for (i = 0; i < s->n; i++)
		fprintf(out, "%s %d %llu %s %s\n", s->c[i].event, s->c[i].cpu,
			(unsigned long long)s->c[i].count, s->c[i].scale_text, s->c[i].unit);
	return fclose(out) ? -1 : 0;
}

int cb_pp_parse(const char *text, struct cb_pp_snap *out, int *bad_line)
{
	const char *p = text;
	char line[256], extra;
	int ln = 0;

	memset(out, 0, sizeof(*out));
	while (cb_next_line(&p, line, sizeof(line), &ln)) {
		struct cb_pp_counter *c;
		unsigned long long count;

		if (cb_line_skip(line))
			continue;
		if (out->n == CB_PP_MAX_COUNTERS)
			return cb_bad_line(bad_line, ln);
		c = &out->c[out->n];
		if (sscanf(line, "%31s %d %llu %63s %15s %c", c->event, &c->cpu, &count,
			   c->scale_text, c->unit, &extra) != 5 ||
		    cb_pp_parse_scale(c->scale_text, &c->scale) < 0 || strcmp(c->unit, "Joules"))
			return cb_bad_line(bad_line, ln);
		c->count = count;
		c->domain = !strcmp(c->event, "energy-pkg") ? CB_ENERGY_PKG :
			    !strcmp(c->event, "energy-ram") ? CB_ENERGY_DRAM : -1;
		out->n++;
	}
	return 0;
}

int cb_pp_delta(const struct cb_pp_snap *b, const struct cb_pp_snap *a,
		double j[CB_ENERGY_NR_DOMAINS], char *err, size_t errlen)
{
	int i;

	if (a->n != b->n) {
		snprintf(err, errlen, "%d counters before, %d after", b->n, a->n);
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < a->n; i++) {
		const struct cb_pp_counter *x = &b->c[i], *y = &a->c[i];

		if (strcmp(x->event, y->event) || x->cpu != y->cpu || x->scale != y->scale) {
			snprintf(err, errlen, "counter %d: %s cpu %d before, %s cpu %d after", i + 1,
				 x->event, x->cpu, y->event, y->cpu);
			errno = EINVAL;
			return -1;
		}
		if (y->count < x->count) {
			snprintf(err, errlen, "%s cpu %d: the count went down from %llu to %llu",
				 x->event, x->cpu, (unsigned long long)x->count,
				 (unsigned long long)y->count);
			errno = ERANGE;
			return -1;
		}
	}
	for (i = 0; i < a->n; i++)
		if (a->c[i].domain >= 0)
			j[a->c[i].domain] += cb_pp_joules(a->c[i].count - b->c[i].count,
							  a->c[i].scale);
	return a->n;
}
