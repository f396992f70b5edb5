// SPDX-License-Identifier: GPL-2.0-only
/*
 * headroom.c - did the fragmenter leave enough free high-order blocks to serve the cell's
 * THP demand without compaction? Then the cell measures nothing (issue 22: a host cell of
 * memory_limit 1-2G and 256-384M of THP demand left 177 free order-10 blocks in DMA32 and
 * had no stall at all). Read from what the workloads wrote: the fragmenter's /proc/buddyinfo
 * right after fragmenting ({"type":"buddyinfo","when":"after"}, frag-anon) and
 * thp-demand's start line (size_bytes, region_bytes); for recurring demand, each wave's
 * readiness sample instead (analysis/core/waves.h).
 */
#include "headroom.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "summary.h"
#include "util.h"
#include "waves.h"

/* the first line of @dir/@name whose "type" is @type (and "when" @when, if not NULL) */
static struct json_object *find_line(const char *dir, const char *name, const char *type,
				     const char *when)
{
	char path[PATH_MAX], *line = NULL;
	struct json_object *found = NULL, *x;
	size_t cap = 0;
	FILE *f;

	if (cb_path(path, sizeof(path), "%s/%s", dir, name) < 0 || !(f = fopen(path, "re")))
		return NULL;
	while (!found && getline(&line, &cap, f) > 0) {
		struct json_object *o;

		if (!strstr(line, type))
			continue;
		o = json_tokener_parse(line);
		if (o && json_object_object_get_ex(o, "type", &x) &&
		    !strcmp(json_object_get_string(x), type) &&
		    (!when || (json_object_object_get_ex(o, "when", &x) &&
			       !strcmp(json_object_get_string(x), when))))
			found = o;
		else
			json_object_put(o);
	}
	free(line);
	fclose(f);
	return found;
}

/* @o's member @key as a whole number > 0, or 0 */
static double positive(struct json_object *o, const char *key)
{
	struct json_object *x;
	double v;

	if (!json_object_object_get_ex(o, key, &x))
		return 0;
	v = json_object_get_double(x);
	return v > 0 ? v : 0;
}

double cb_headroom_free_bytes(struct json_object *buddy, int order, double page)
{
	struct json_object *zones, *z, *free;
	double bytes = 0;

	if (!json_object_object_get_ex(buddy, "zones", &zones) ||
	    !json_object_is_type(zones, json_type_array))
		return -1;
	for (size_t i = 0; i < json_object_array_length(zones); i++) {
		z = json_object_array_get_idx(zones, i);
		if (!json_object_object_get_ex(z, "free", &free) ||
		    !json_object_is_type(free, json_type_array))
			return -1;
		for (int o = order; o < (int)json_object_array_length(free) && o < 20; o++)
			bytes += json_object_get_double(json_object_array_get_idx(free, o)) *
				 page * (double)(1u << o);
	}
	return bytes;
}

/* the order of @region bytes in pages of @page bytes, or -1 if it is not a power of two */
static int order_of(double region, double page)
{
	for (int o = 0; o < 20; o++)
		if ((double)(1u << o) * page == region)
			return o;
	return -1;
}

/*
 * 1 with @why when every THP wave of @ws found free blocks of @order or more holding its
 * requested bytes at its start (pages of @page bytes)
 */
static int waves_served(const struct cb_waves *ws, int order, double page, char *why,
			size_t len)
{
	size_t thp = 0;
	double least = -1;

	for (size_t i = 0; i < ws->n; i++) {
		const struct cb_wave *w = &ws->w[i];
		double bytes = 0;

		if (!(w->kinds & CB_WAVE_THP))
			continue;
		if (!w->has_ready)
			return 0;
		for (int o = order; o <= CB_WAVES_MAX_ORDER; o++)
			bytes += (double)w->free[o] * page * (double)(1u << o);
		if (bytes < w->requested_bytes)
			return 0;
		if (least < 0 || bytes < least)
			least = bytes;
		thp++;
	}
	if (!thp)
		return 0;
	snprintf(why, len, "every one of the %zu THP waves found enough free blocks of order %d "
		 "or more at its start for its demand (at least %.0f MiB free): no wave needed "
		 "compaction, so this cell measures little (analysis/README.md: Waves, readiness)",
		 thp, order, least / 1048576);
	return 1;
}

int cb_headroom_check(const char *cell_dir, const struct cb_waves *waves, char *why,
		      size_t len)
{
	char dir[PATH_MAX], *frag = NULL, *demand = NULL;
	struct json_object *buddy = NULL, *fstart = NULL, *dstart = NULL;
	double page = 4096, size, region, free_bytes;
	int order, ret = 0;

	if (cb_path(dir, sizeof(dir), "%s/workload", cell_dir) < 0)
		return 0;
	frag = cb_wl_find_jsonl(dir, "-fragment-");
	demand = cb_wl_find_jsonl(dir, "thp-demand");
	if (!frag || !demand)
		goto out;
	buddy = find_line(dir, frag, "buddyinfo", "after");
	fstart = find_line(dir, frag, "phase", NULL);
	dstart = find_line(dir, demand, "phase", NULL);
	if (!dstart || (!buddy && !(waves && waves->present)))
		goto out;
	if (fstart && positive(fstart, "page_size"))
		page = positive(fstart, "page_size");
	size = positive(dstart, "size_bytes");
	region = positive(dstart, "region_bytes");
	order = order_of(region, page);
	if (!size || order < 0)
		goto out;
	if (waves && waves->present) {
		ret = waves_served(waves, order, page, why, len);
		goto out;
	}
	free_bytes = cb_headroom_free_bytes(buddy, order, page);
	if (free_bytes < size)
		goto out;
	snprintf(why, len, "the fragmenter left %.0f MiB free in blocks of order %d or more "
		 "(its buddyinfo after fragmenting), enough for the demand's %.0f MiB: the demand "
		 "needed no compaction, so this cell measures little (configs/README.md: what a "
		 "host cell needs)", free_bytes / 1048576, order, size / 1048576);
	ret = 1;
out:
	json_object_put(buddy);
	json_object_put(fstart);
	json_object_put(dstart);
	free(frag);
	free(demand);
	return ret;
}
