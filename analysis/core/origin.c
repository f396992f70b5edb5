// SPDX-License-Identifier: GPL-2.0-only
/*
 * origin.c - the table of stall origin rules; the first rule that matches wins, and an
 * allocation no rule matches is "other".
 */
#include "origin.h"

#include <string.h>

const char *const cb_origin_names[CB_ORIGIN_NR] = {
	[CB_ORIGIN_THP_FAULT] = "thp_fault",
	[CB_ORIGIN_SLAB] = "slab",
	[CB_ORIGIN_NETWORK] = "network",
	[CB_ORIGIN_OTHER] = "other",
};

const char *const cb_gfp_names[CB_GFP_NBITS] = {
	"__GFP_MOVABLE", "__GFP_COMP", "__GFP_NOMEMALLOC", "__GFP_DIRECT_RECLAIM", "__GFP_HARDWALL",
};

#define M CB_GFP_MOVABLE
#define C CB_GFP_COMP
#define N CB_GFP_NOMEMALLOC
#define R CB_GFP_DIRECT_RECLAIM

const struct cb_origin_rule cb_origin_rules[] = {
	{ "khugepaged", 0, 0, 0, CB_ORIGIN_OTHER,
	  "khugepaged's collapse allocations (GFP_TRANSHUGE from alloc_hugepage_khugepaged_gfpmask): "
	  "THP, but not a fault; they are also counted in dc_stalls_khugepaged" },
	{ NULL, M | C | N, 0, 1, CB_ORIGIN_THP_FAULT,
	  "GFP_TRANSHUGE / GFP_TRANSHUGE_LIGHT (GFP_HIGHUSER_MOVABLE | __GFP_COMP | "
	  "__GFP_NOMEMALLOC): vma_thp_gfp_mask() for anonymous and shmem THP and mTHP faults" },
	{ NULL, C | N | R, M, 1, CB_ORIGIN_NETWORK,
	  "kmalloc_reserve() in net/core/skbuff.c adds __GFP_NOMEMALLOC | __GFP_NOWARN to the "
	  "socket's reclaiming gfp for skb heads (kmalloc-8k slabs, kmalloc_large); SLUB's own "
	  "__GFP_NOMEMALLOC attempt drops __GFP_RECLAIM, so it never compacts" },
	{ NULL, C, M, 1, CB_ORIGIN_SLAB,
	  "unmovable compound pages: allocate_slab() (s->allocflags has __GFP_COMP; the min-order "
	  "retry keeps the caller's reclaim flags) and kmalloc_large()" },
};

const int cb_origin_nrules = sizeof(cb_origin_rules) / sizeof(cb_origin_rules[0]);

void cb_gfp_map_default(struct cb_gfp_map *m)
{
	/* include/linux/gfp_types.h: ___GFP_MOVABLE_BIT 3, DIRECT_RECLAIM 10, COMP 18, ... */
	m->raw[0] = 1ULL << 3;
	m->raw[1] = 1ULL << 18;
	m->raw[2] = 1ULL << 19;
	m->raw[3] = 1ULL << 10;
	m->raw[4] = 1ULL << 20;
	m->from_trace = false;
}

unsigned int cb_gfp_abstract(const struct cb_gfp_map *m, unsigned long long raw)
{
	unsigned int out = 0;
	int i;

	for (i = 0; i < CB_GFP_NBITS; i++)
		if (m->raw[i] && (raw & m->raw[i]) == m->raw[i])
			out |= 1u << i;
	return out;
}

enum cb_origin cb_origin_classify(unsigned int gfp, int order, const char *comm)
{
	int i;

	for (i = 0; i < cb_origin_nrules; i++) {
		const struct cb_origin_rule *r = &cb_origin_rules[i];

		if (r->comm && (!comm || strcmp(comm, r->comm)))
			continue;
		if ((gfp & r->need) != r->need || (gfp & r->forbid) || order < r->min_order)
			continue;
		return r->origin;
	}
	return CB_ORIGIN_OTHER;
}
