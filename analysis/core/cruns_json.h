/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cruns_json.h - summary.json's "compaction_runs" section (schema: analysis/README.md,
 * "Compaction runs in the window"): written from the analyzer's bounded run list
 * (cruns.h), read back as untrusted input by the loader and the timeline chart.
 */
#ifndef CB_CRUNS_JSON_H
#define CB_CRUNS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cruns.h"
#include "stalls.h"

struct json_object;

/*
 * cb_cruns_json - the "compaction_runs" section of @st: the window's start, the bound, and
 * per lane the kept runs as [start_s, end_s] pairs (seconds since the window began, sorted
 * by start), "dropped" and "open". Never NULL: a trace without runs has empty lists.
 */
struct json_object *cb_cruns_json(const struct cb_stalls *st);

/* the section as read back: times in seconds since window_start_ns */
struct cb_cruns_in {
	bool present;			/* the summary has the section (older ones do not) */
	uint64_t window_start_ns;
	struct cb_cruns_in_lane {
		double start[CB_CRUNS_MAX], end[CB_CRUNS_MAX];
		int n;
		uint64_t dropped, open;
	} lane[CB_LANE_NR];
};

#define CB_CRUNS_MAX_S 1e7	/* a run time beyond 10^7 s (115 days) is refused */

/*
 * cb_cruns_read - check the "compaction_runs" of @sum (the summary.json read from @path)
 * and, if @out is not NULL, fill it. Absent or null: out->present false, 0. A section that
 * is not an object, a window_start_ns that is not an integer >= 0, more than CB_CRUNS_MAX
 * runs in a lane, a run that is not [start_s, end_s] of finite numbers with
 * 0 <= start_s <= end_s <= CB_CRUNS_MAX_S, a "dropped" or "open" that is not an integer
 * >= 0: -1 with "PATH: field \"compaction_runs\"... is ...: why" in @err. Lanes of other
 * names are skipped (the schema grows by addition).
 */
int cb_cruns_read(const char *path, struct json_object *sum, struct cb_cruns_in *out, char *err,
		  size_t errlen);

#endif
