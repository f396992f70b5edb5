// SPDX-License-Identifier: GPL-2.0-only
/*
 * energy.c - powercap RAPL counters (package and DRAM) with wrap-around, and the modeled
 * energy.
 */
#include "energy.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cb_energy_domain_of(const char *name)
{
	if (!strncmp(name, "package-", 8))
		return CB_ENERGY_PKG;
	if (!strcmp(name, "dram"))
		return CB_ENERGY_DRAM;
	return -1;
}

const char *cb_energy_domain_name(int domain)
{
	return domain == CB_ENERGY_PKG ? "package" : domain == CB_ENERGY_DRAM ? "dram" : "?";
}

/* "intel-rapl:<n>" or "intel-rapl:<n>:<m>" (not intel-rapl-mmio:<n>) */
static bool rapl_zone(const char *name)
{
	return !strncmp(name, "intel-rapl:", 11);
}

static int read_u64(const char *path, uint64_t *v, char *err, size_t errlen)
{
	char buf[64], *end;
	unsigned long long x;

	if (cb_read_trimmed(path, buf, sizeof(buf)) < 0) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	errno = 0;
	x = strtoull(buf, &end, 10);
	if (errno || end == buf || *end || buf[0] == '-') {
		snprintf(err, errlen, "%s: not a number of microjoules: '%s'", path, buf);
		errno = EINVAL;
		return -1;
	}
	*v = x;
	return 0;
}

static int cmp_zone(const void *a, const void *b)
{
	return strcmp(((const struct cb_energy_zone *)a)->zone,
		      ((const struct cb_energy_zone *)b)->zone);
}

int cb_energy_read(const char *root, struct cb_energy_snap *out, char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX], name[64];
	struct dirent *de;
	DIR *d;
	int i;

	memset(out, 0, sizeof(*out));
	if (cb_path(dir, sizeof(dir), "%s/sys/class/powercap", root ? root : "") < 0) {
		snprintf(err, errlen, "%s/sys/class/powercap: path too long", root);
		return -1;
	}
	d = opendir(dir);
	if (!d) {
		out->t_ns = cb_now_ns();
		return 0;	/* no powercap at all */
	}
	while ((de = readdir(d))) {
		struct cb_energy_zone *z;

		if (!rapl_zone(de->d_name) || strlen(de->d_name) >= sizeof(z->zone))
			continue;
		if (cb_path(path, sizeof(path), "%s/%s/name", dir, de->d_name) < 0 ||
		    cb_read_trimmed(path, name, sizeof(name)) < 0)
			continue;	/* not a zone (no name) */
		if (cb_energy_domain_of(name) < 0 || strlen(name) >= sizeof(z->name))
			continue;	/* core, uncore, psys: inside or overlapping the package */
		if (out->n == CB_ENERGY_MAX_ZONES) {
			snprintf(err, errlen, "%s: more than %d package/dram zones", dir,
				 CB_ENERGY_MAX_ZONES);
			closedir(d);
			errno = E2BIG;
			return -1;
		}
		z = &out->z[out->n++];
		snprintf(z->zone, sizeof(z->zone), "%s", de->d_name);
		snprintf(z->name, sizeof(z->name), "%s", name);
	}
	closedir(d);
	qsort(out->z, out->n, sizeof(out->z[0]), cmp_zone);
	out->t_ns = cb_now_ns();
	for (i = 0; i < out->n; i++) {
		struct cb_energy_zone *z = &out->z[i];

		if (cb_path(path, sizeof(path), "%s/%s/max_energy_range_uj", dir, z->zone) < 0 ||
		    read_u64(path, &z->max_uj, err, errlen) < 0)
			return -1;
		if (!z->max_uj) {
			snprintf(err, errlen, "%s: 0: no counter range", path);
			errno = EINVAL;
			return -1;
		}
		if (cb_path(path, sizeof(path), "%s/%s/energy_uj", dir, z->zone) < 0 ||
		    read_u64(path, &z->uj, err, errlen) < 0)
			return -1;
		if (z->uj > z->max_uj) {
			snprintf(err, errlen, "%s: %llu is above max_energy_range_uj %llu", path,
				 (unsigned long long)z->uj, (unsigned long long)z->max_uj);
			errno = EINVAL;
			return -1;
		}
	}
	return out->n;
}

int cb_energy_format(const struct cb_energy_snap *s, char **text)
{
	size_t len = 0;
	FILE *out = open_memstream(text, &len);
	int i;

	if (!out)
		return -1;
	fprintf(out, "# compactbench energy 2: zone name energy_uj max_energy_range_uj\n");
	fprintf(out, "# t_ns %llu\n", (unsigned long long)s->t_ns);
	for (i = 0; i < s->n; i++)
		fprintf(out, "%s %s %llu %llu\n", s->z[i].zone, s->z[i].name,
			(unsigned long long)s->z[i].uj, (unsigned long long)s->z[i].max_uj);
	return fclose(out) ? -1 : 0;
}

int cb_energy_snapshot(const char *root, char **text, char *err, size_t errlen)
{
	struct cb_energy_snap s;
	int n = cb_energy_read(root, &s, err, errlen);

	if (n < 0)
		return -1;
	if (cb_energy_format(&s, text) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return n;
}

int cb_energy_parse(const char *text, struct cb_energy_snap *out, int *bad_line)
{
	const char *p = text;
	char line[256], extra;
	int ln = 0;

	memset(out, 0, sizeof(*out));
	while (cb_next_line(&p, line, sizeof(line), &ln)) {
		unsigned long long uj, max, t;
		struct cb_energy_zone *z;

		if (!strncmp(line, "# t_ns ", 7)) {
			if (sscanf(line + 7, "%llu %c", &t, &extra) != 1)
				return cb_bad_line(bad_line, ln);
			out->t_ns = t;
			continue;
		}
		if (cb_line_skip(line))
			continue;
		if (out->n == CB_ENERGY_MAX_ZONES)
			return cb_bad_line(bad_line, ln);
		z = &out->z[out->n];
		if (sscanf(line, "%31s %31s %llu %llu %c", z->zone, z->name, &uj, &max,
			   &extra) != 4 || !max || uj > max)
			return cb_bad_line(bad_line, ln);
		z->uj = uj;
		z->max_uj = max;
		out->n++;
	}
	return 0;
}

int cb_energy_csv_parse(const char *text, struct cb_energy_snap **snaps, int *bad_line)
{
	struct cb_energy_snap *s = NULL, *cur = NULL;
	const char *p = text;
	char line[256];
	int ln = 0, n = 0;

	*snaps = NULL;
	while (cb_next_line(&p, line, sizeof(line), &ln)) {
		unsigned long long t, uj, max;
		char zone[32], name[32], extra;
		struct cb_energy_zone *z;

		if (ln == 1) {
			if (strcmp(line, "t_ns,zone,name,energy_uj,max_energy_range_uj"))
				goto bad;
			continue;
		}
		if (!line[0])
			continue;
		if (sscanf(line, "%llu,%31[^,],%31[^,],%llu,%llu %c", &t, zone, name, &uj, &max,
			   &extra) != 5 || !max || uj > max)
			goto bad;
		if (!cur || cur->t_ns != t) {
			struct cb_energy_snap *ns;

			if (cur && t < cur->t_ns)
				goto bad;	/* time must not go back */
			ns = realloc(s, (n + 1) * sizeof(*s));
			if (!ns)
				goto bad;
			s = ns;
			cur = &s[n++];
			memset(cur, 0, sizeof(*cur));
			cur->t_ns = t;
		}
		if (cur->n == CB_ENERGY_MAX_ZONES)
			goto bad;
		z = &cur->z[cur->n++];
		snprintf(z->zone, sizeof(z->zone), "%s", zone);
		snprintf(z->name, sizeof(z->name), "%s", name);
		z->uj = uj;
		z->max_uj = max;
	}
	if (!ln)
		goto bad;
	*snaps = s;
	return n;
bad:
	free(s);
	return cb_bad_line(bad_line, ln);
}

uint64_t cb_energy_delta_uj(uint64_t before, uint64_t after, uint64_t max_uj)
{
	if (after >= before)
		return after - before;
	return after + max_uj + 1 - before;
}

/* the same zones, in the same order (both sorted by the reader and the writer) */
static bool same_zones(const struct cb_energy_snap *a, const struct cb_energy_snap *b)
{
	int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->z[i].zone, b->z[i].zone) || strcmp(a->z[i].name, b->z[i].name) ||
		    a->z[i].max_uj != b->z[i].max_uj)
			return false;
	return true;
}

int cb_energy_chain(const struct cb_energy_snap *s, int n, struct cb_energy_sum *out)
{
	int i, k;

	memset(out, 0, sizeof(*out));
	out->max_gap_s = 0;
	out->wrap_s = -1;
	if (n < 2 || !s[0].n)
		return 0;
	for (k = 0; k < s[0].n; k++) {
		double w = s[0].z[k].max_uj / 1e6 / CB_ENERGY_MAX_W;

		if (out->wrap_s < 0 || w < out->wrap_s)
			out->wrap_s = w;
	}
	for (i = 1; i < n; i++) {
		if (!same_zones(&s[i - 1], &s[i])) {
			errno = EINVAL;
			return -1;
		}
		if (out->max_gap_s >= 0 && s[i - 1].t_ns && s[i].t_ns >= s[i - 1].t_ns) {
			double gap = (s[i].t_ns - s[i - 1].t_ns) / 1e9;

			out->max_gap_s = gap > out->max_gap_s ? gap : out->max_gap_s;
		} else {
			out->max_gap_s = -1;	/* an untimed reading: the bound is unknown */
		}
		for (k = 0; k < s[i].n; k++) {
			const struct cb_energy_zone *a = &s[i].z[k], *b = &s[i - 1].z[k];
			double j = cb_energy_delta_uj(b->uj, a->uj, a->max_uj) / 1e6;
			int d = cb_energy_domain_of(a->name);

			if (d < 0)
				continue;	/* psys, "-" of a version 1 file: not summed */
			out->wraps += a->uj < b->uj;
			out->j[d] += j;
			out->total_j += j;
		}
	}
	for (k = 0; k < s[0].n; k++) {
		int d = cb_energy_domain_of(s[0].z[k].name);

		if (d >= 0) {
			out->nz[d]++;
			out->zones++;
		}
	}
	if (out->max_gap_s > out->wrap_s) {
		errno = ERANGE;
		return -1;
	}
	return out->zones;
}

int cb_energy_delta(const struct cb_energy_snap *b, const struct cb_energy_snap *a, double *j)
{
	struct cb_energy_snap s[2] = { *b, *a };
	struct cb_energy_sum sum;
	int n = cb_energy_chain(s, 2, &sum);

	*j = sum.total_j;
	return n;
}

double cb_energy_modeled(double busy_ns, double watts)
{
	return busy_ns * 1e-9 * watts;
}
