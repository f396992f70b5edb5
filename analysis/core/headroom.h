/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * headroom.h - whether a cell's fragmenter left enough free high-order blocks to serve its
 * THP demand without compaction (headroom.c): such a cell measures nothing.
 */
#ifndef CB_HEADROOM_H
#define CB_HEADROOM_H

#include <stddef.h>

struct json_object;
struct cb_waves;

/*
 * cb_headroom_free_bytes - the bytes free in blocks of @order or larger in a buddyinfo
 * line ({"zones":[{"free":[n0,...,n10]}]}) with pages of @page bytes; -1 if malformed
 */
double cb_headroom_free_bytes(struct json_object *buddy, int order, double page);

/*
 * cb_headroom_check - 1 with a sentence in @why when the free blocks of the THP demand's
 * order that @cell_dir's fragmenter left (its buddyinfo "after" line) hold at least the
 * demand's size (thp-demand's start line); 0 when they do not, or when the cell has no
 * such lines (another fragmenter or demand program: nothing to tell).
 *
 * Recurring demand (@waves present, analysis/core/waves.h): the fragmenter's buddyinfo says
 * nothing about the later waves, whose memory the churn re-fragments; the cell measures
 * nothing only if EVERY THP wave found, at its start (its readiness sample), free blocks
 * of the demand's order or more holding its requested bytes. A wave without a readiness
 * sample counts as not served. @waves may be NULL.
 */
int cb_headroom_check(const char *cell_dir, const struct cb_waves *waves, char *why,
		      size_t len);

#endif
