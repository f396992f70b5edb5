// SPDX-License-Identifier: GPL-2.0-only
/*
 * energy.c - powercap RAPL counters with wrap-around, and the modeled energy.
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

/* "intel-rapl:<n>" with no second colon: a package zone, not a subzone */
static bool top_zone(const char *name)
{
	const char *c = strchr(name, ':');

	return !strncmp(name, "intel-rapl:", 11) && c && !strchr(c + 1, ':');
}

static int read_u64(const char *dir, const char *zone, const char *file, uint64_t *v)
{
	char path[PATH_MAX], buf[64];
	unsigned long long x;

	if (cb_path(path, sizeof(path), "%s/%s/%s", dir, zone, file) < 0 ||
	    cb_read_trimmed(path, buf, sizeof(buf)) < 0 || sscanf(buf, "%llu", &x) != 1)
		return -1;
	*v = x;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

int cb_energy_snapshot(const char *root, char **text)
{
	char dir[PATH_MAX], path[PATH_MAX], names[CB_ENERGY_MAX_ZONES][64], name[64];
	struct dirent *de;
	size_t len = 0;
	int n = 0, i, out_n = 0;
	FILE *out;
	DIR *d;

	if (cb_path(dir, sizeof(dir), "%s/sys/class/powercap", root ? root : "") < 0)
		return -1;
	d = opendir(dir);
	while (d && (de = readdir(d)) && n < CB_ENERGY_MAX_ZONES)
		if (top_zone(de->d_name))
			snprintf(names[n++], sizeof(names[0]), "%s", de->d_name);
	if (d)
		closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	out = open_memstream(text, &len);
	if (!out)
		return -1;
	fprintf(out, "# compactbench energy 1: zone name energy_uj max_energy_range_uj\n");
	for (i = 0; i < n; i++) {
		uint64_t uj, max;

		if (read_u64(dir, names[i], "energy_uj", &uj) ||
		    read_u64(dir, names[i], "max_energy_range_uj", &max))
			continue;	/* unreadable (not root): no figure rather than a wrong one */
		if (cb_path(path, sizeof(path), "%s/%s/name", dir, names[i]) < 0 ||
		    cb_read_trimmed(path, name, sizeof(name)) < 0 || !name[0] || strchr(name, ' '))
			snprintf(name, sizeof(name), "-");
		fprintf(out, "%s %s %llu %llu\n", names[i], name, (unsigned long long)uj,
			(unsigned long long)max);
		out_n++;
	}
	if (fclose(out))
		return -1;
	return out_n;
}

int cb_energy_parse(const char *text, struct cb_energy_snap *out, int *bad_line)
{
	const char *p = text;
	int ln = 0;

	memset(out, 0, sizeof(*out));
	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		unsigned long long uj, max;
		struct cb_energy_zone *z;
		char line[256];

		ln++;
		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p = e ? e + 1 : p + n;
		if (line[0] == '#' || !line[strspn(line, " \t\r")])
			continue;
		if (out->n == CB_ENERGY_MAX_ZONES)
			goto bad;
		z = &out->z[out->n];
		if (sscanf(line, "%31s %31s %llu %llu", z->zone, z->name, &uj, &max) != 4 || !max)
			goto bad;
		z->uj = uj;
		z->max_uj = max;
		out->n++;
	}
	return 0;
bad:
	if (bad_line)
		*bad_line = ln;
	errno = EINVAL;
	return -1;
}

uint64_t cb_energy_delta_uj(uint64_t before, uint64_t after, uint64_t max_uj)
{
	if (after >= before)
		return after - before;
	return after + max_uj - before;
}

int cb_energy_delta(const struct cb_energy_snap *b, const struct cb_energy_snap *a, double *j)
{
	int i, k, n = 0;

	*j = 0;
	for (i = 0; i < a->n; i++)
		for (k = 0; k < b->n; k++) {
			if (strcmp(a->z[i].zone, b->z[k].zone))
				continue;
			*j += cb_energy_delta_uj(b->z[k].uj, a->z[i].uj, a->z[i].max_uj) / 1e6;
			n++;
			break;
		}
	return n;
}

double cb_energy_modeled(double busy_ns, double watts)
{
	return busy_ns * 1e-9 * watts;
}
