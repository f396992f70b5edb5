// SPDX-License-Identifier: GPL-2.0-only
/*
 * frag.c - buddyinfo and zoneinfo parsing, the kernel's fragmentation score.
 */
#include "frag.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int is_blank(const char *s)
{
	return s[strspn(s, " \t\r")] == '\0';
}

int cb_buddyinfo_parse(const char *text, struct cb_zone_free *z, int max, int *bad_line)
{
	char line[1024];
	const char *p = text;
	int n = 0, ln = 0;

	while (cb_next_line(&p, line, sizeof(line), &ln)) {
		struct cb_zone_free *cz;
		char *s, *end;
		int used;

		if (is_blank(line))
			continue;
		if (n == max)
			goto bad;
		cz = &z[n];
		memset(cz, 0, sizeof(*cz));
		if (sscanf(line, "Node %d, zone %15s%n", &cz->node, cz->zone, &used) != 2)
			goto bad;
		s = line + used;
		for (;;) {
			unsigned long long v;

			while (*s == ' ' || *s == '\t')
				s++;
			if (!*s || *s == '\r')
				break;
			errno = 0;
			v = strtoull(s, &end, 10);
			if (errno || end == s || cz->norders == CB_FRAG_MAX_ORDERS)
				goto bad;
			cz->nr_free[cz->norders++] = v;
			s = end;
		}
		if (!cz->norders)
			goto bad;
		n++;
	}
	return n;
bad:
	return cb_bad_line(bad_line, ln);
}

int cb_zoneinfo_parse(const char *text, struct cb_zone_info *z, int max, int *bad_line)
{
	char line[1024], key[64];
	const char *p = text;
	int n = 0, ln = 0;

	while (cb_next_line(&p, line, sizeof(line), &ln)) {
		unsigned long long v;
		int node;
		char name[16];

		if (sscanf(line, "Node %d, zone %15s", &node, name) == 2) {
			if (n == max)
				goto bad;
			memset(&z[n], 0, sizeof(z[n]));
			z[n].node = node;
			snprintf(z[n].zone, sizeof(z[n].zone), "%s", name);
			n++;
			continue;
		}
		if (!n)
			continue;
		if (sscanf(line, " pages free %llu", &v) == 1) {
			z[n - 1].free = v;
			continue;
		}
		if (sscanf(line, " %63s %llu", key, &v) != 2)
			continue;	/* "per-node stats", "protection: (...)", "pagesets" ... */
		if (!strcmp(key, "present"))
			z[n - 1].present = v;
		else if (!strcmp(key, "managed"))
			z[n - 1].managed = v;
	}
	if (!n && text && !is_blank(text))
		goto bad;
	return n;
bad:
	return cb_bad_line(bad_line, ln);
}

unsigned int cb_extfrag_for_order(const uint64_t *nr_free, int norders, int order)
{
	uint64_t free_pages = 0, suitable = 0;
	int o;

	for (o = 0; o < norders; o++) {
		free_pages += nr_free[o] << o;
		if (o >= order)
			suitable += nr_free[o] << (o - order);
	}
	if (!free_pages)
		return 0;
	return (unsigned int)((free_pages - (suitable << order)) * 100 / free_pages);
}

unsigned int cb_frag_weighted(unsigned int score, uint64_t present, uint64_t node_present)
{
	return (unsigned int)(present * score / (node_present + 1));
}

static const struct cb_zone_info *find_zone(const struct cb_zone_info *zi, int nz, int node,
					    const char *zone)
{
	int i;

	for (i = 0; i < nz; i++)
		if (zi[i].node == node && !strcmp(zi[i].zone, zone))
			return &zi[i];
	return NULL;
}

int cb_frag_scores(const struct cb_zone_free *bz, int nb, const struct cb_zone_info *zi, int nz,
		   int order, struct cb_frag_zone_score *out)
{
	int i, j;

	for (i = 0; i < nb; i++) {
		const struct cb_zone_info *info = find_zone(zi, nz, bz[i].node, bz[i].zone);
		uint64_t node_present = 0;

		for (j = 0; j < nz; j++)
			if (zi[j].node == bz[i].node)
				node_present += zi[j].present;
		out[i].node = bz[i].node;
		snprintf(out[i].zone, sizeof(out[i].zone), "%s", bz[i].zone);
		out[i].present = info ? info->present : 0;
		out[i].score = cb_extfrag_for_order(bz[i].nr_free, bz[i].norders, order);
		out[i].weighted = cb_frag_weighted(out[i].score, out[i].present, node_present);
	}
	for (i = 0; i < nb; i++) {
		out[i].node_score = 0;
		for (j = 0; j < nb; j++)
			if (out[j].node == out[i].node && out[j].present)
				out[i].node_score += out[j].weighted;
	}
	return nb;
}

int cb_hpage_order(const char *root)
{
	char path[PATH_MAX], buf[64];
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long size;
	int order = 0;

	if (cb_path(path, sizeof(path), "%s/sys/kernel/mm/transparent_hugepage/hpage_pmd_size",
		    root ? root : "") < 0 || cb_read_trimmed(path, buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%llu", &size) != 1 || page <= 0 || size <= (unsigned long long)page)
		return 9;
	while ((unsigned long long)page << order < size && order < 30)
		order++;
	return order;
}
