/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frag.h - free pages per order (/proc/buddyinfo), zone sizes (/proc/zoneinfo) and the
 * kernel's fragmentation score, computed the way mm/compaction.c does it (5.11 to 6.18):
 *
 *   fragmentation_score_zone(zone)  = extfrag_for_order(zone, COMPACTION_HPAGE_ORDER)
 *   extfrag_for_order (mm/vmstat.c) = (free_pages - (free_blocks_suitable << order)) * 100
 *                                     / free_pages, 0 when free_pages is 0 (integer division)
 *       with fill_contig_page_info(): free_pages = sum nr_free[o] << o over every order,
 *       free_blocks_suitable = sum nr_free[o] << (o - order) over o >= order
 *   fragmentation_score_zone_weighted = zone->present_pages * score
 *                                       / (pgdat->node_present_pages + 1)
 *   fragmentation_score_node        = sum of the weighted scores of the populated zones
 *
 * COMPACTION_HPAGE_ORDER is HPAGE_PMD_ORDER with THP (9 on x86_64 with 4 KiB pages). The
 * node score is what kcompactd compares with the proactiveness watermarks
 * (should_proactive_compact_node: score > min(100 - proactiveness + leeway, 100)).
 */
#ifndef CB_FRAG_H
#define CB_FRAG_H

#include <stdint.h>

#define CB_FRAG_MAX_ORDERS 16
#define CB_FRAG_MAX_ZONES 64

/* one line of /proc/buddyinfo */
struct cb_zone_free {
	int node;
	char zone[16];
	int norders;
	uint64_t nr_free[CB_FRAG_MAX_ORDERS];
};

/* one zone of /proc/zoneinfo */
struct cb_zone_info {
	int node;
	char zone[16];
	uint64_t present, managed, free;
};

/*
 * cb_buddyinfo_parse - parse the text of /proc/buddyinfo into @z (room for @max zones)
 * Returns the number of zones, or -1 with errno EINVAL and the 1-based bad line in @bad_line.
 */
int cb_buddyinfo_parse(const char *text, struct cb_zone_free *z, int max, int *bad_line);

/*
 * cb_zoneinfo_parse - the zones of /proc/zoneinfo (node, name, present, managed, free)
 * Returns the number of zones, or -1 with errno EINVAL and the bad line in @bad_line.
 */
int cb_zoneinfo_parse(const char *text, struct cb_zone_info *z, int max, int *bad_line);

/* cb_extfrag_for_order - mm/vmstat.c extfrag_for_order() on one zone's free counts (0..100) */
unsigned int cb_extfrag_for_order(const uint64_t *nr_free, int norders, int order);

/* cb_frag_weighted - fragmentation_score_zone_weighted(): @present * @score / (@node_present + 1) */
unsigned int cb_frag_weighted(unsigned int score, uint64_t present, uint64_t node_present);

/* a zone's and its node's score at one moment */
struct cb_frag_zone_score {
	int node;
	char zone[16];
	uint64_t present;
	unsigned int score, weighted, node_score;
};

/*
 * cb_frag_scores - the score of every buddyinfo zone, weighted by zoneinfo's present pages
 * (a zone zoneinfo lacks weighs 0), and each node's score. @out has room for @nb entries.
 * Returns the number written.
 */
int cb_frag_scores(const struct cb_zone_free *bz, int nb, const struct cb_zone_info *zi, int nz,
		   int order, struct cb_frag_zone_score *out);

/*
 * cb_hpage_order - COMPACTION_HPAGE_ORDER of the machine under @root: log2 of
 * /sys/kernel/mm/transparent_hugepage/hpage_pmd_size / page size, or 9 if unreadable
 */
int cb_hpage_order(const char *root);

#endif
