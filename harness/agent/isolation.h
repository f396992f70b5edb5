/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * isolation.h - a guest that runs several cells ([global] boot = per-kernel) must hand
 * each cell the memory a fresh boot would: between cells every knob is back at its boot
 * value (the restore journal), caches are dropped, memory is compacted, the cell's
 * processes are new, and this module checks the result against the guest's first cell
 * (its baseline, taken the same way right after boot): free memory, free blocks of order
 * >= 9 (THP-sized), and how many pageblocks are not Movable (a block an unmovable or
 * reclaimable allocation stole keeps its type after it is freed, and steers later
 * fallbacks). A cell whose state is not back within the tolerances is declined: the host
 * boots a fresh guest for it.
 */
#ifndef CB_ISOLATION_H
#define CB_ISOLATION_H

#include <stdbool.h>
#include <stddef.h>

#include "run.h"

#define CB_ISO_TYPES 8

/* tolerances: free memory may be this fraction of MemTotal lower (at least 16 MiB) */
#define CB_ISO_FREE_FRACTION 0.02
/* free order-9 blocks this fraction fewer (at least 2) */
#define CB_ISO_BLOCKS9_FRACTION 0.10
/* pageblocks not Movable this fraction more (at least 8: measured 13 against 7 after a
 * thp-frag cell of a 1 GiB guest and the THP refill, blocks still holding unmovable pages) */
#define CB_ISO_UNMOVABLE_FRACTION 0.25

struct cb_iso_state {
	long long total_kb;  /* MemTotal */
	long long free_kb;   /* MemFree */
	long long blocks9;   /* free blocks of order >= 9 in order-9 units, every zone */
	long long unmovable; /* pageblocks whose type is not Movable, every zone */
	int nr_types;
	char type[CB_ISO_TYPES][16];	  /* pagetypeinfo's "Number of blocks type" columns */
	long long pageblocks[CB_ISO_TYPES]; /* summed over the zones */
};

/*
 * cb_iso_parse - fill @st from the texts of /proc/meminfo, /proc/buddyinfo and
 * /proc/pagetypeinfo. Returns 0, or -1 with errno EINVAL when a text lacks what is needed.
 */
int cb_iso_parse(const char *meminfo, const char *buddyinfo, const char *pagetypeinfo,
		 struct cb_iso_state *st);

/*
 * cb_iso_within - whether @now is back within the tolerances above of @base; if not, what
 * is off, with both numbers, in @why
 */
bool cb_iso_within(const struct cb_iso_state *base, const struct cb_iso_state *now, char *why,
		   size_t len);

/*
 * cb_iso_step - between two cells of one guest: sync, drop caches, compact memory, read
 * the state under run->root. If @baseline_path does not exist, the state becomes the
 * baseline (written there); else it is compared with it. *@json gets meta.json's
 * "isolation" object (the state, the baseline, the verdict). Returns 0 (the first cell, or
 * within the tolerances), 1 (not within: decline the cell, the reason in run->err), -1 on
 * an error (run->err).
 */
int cb_iso_step(struct cb_run *run, const char *baseline_path, struct json_object **json);

#endif
