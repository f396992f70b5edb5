/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * origin.h - where a direct compaction stall came from: THP fault, slab/kmalloc, network or
 * other, decided from the allocation's gfp flags (try_to_compact_pages's gfp_mask), its
 * order and the task. The rules are one table (origin.c) and are explained in
 * analysis/README.md with the kernel functions they follow.
 *
 * The gfp bit values differ between kernels (6.10 made them enum-generated), so they are
 * taken from the trace's own __print_flags table of the gfp_mask field; cb_gfp_map
 * translates a raw mask into the abstract bits below.
 */
#ifndef CB_ORIGIN_H
#define CB_ORIGIN_H

#include <stdbool.h>
#include <stdint.h>

enum cb_origin {
	CB_ORIGIN_THP_FAULT,
	CB_ORIGIN_SLAB,
	CB_ORIGIN_NETWORK,
	CB_ORIGIN_OTHER,
	CB_ORIGIN_NR
};

extern const char *const cb_origin_names[CB_ORIGIN_NR];

/* the gfp bits the rules look at, kernel-independent */
enum cb_gfp_bit {
	CB_GFP_MOVABLE = 1 << 0,
	CB_GFP_COMP = 1 << 1,
	CB_GFP_NOMEMALLOC = 1 << 2,
	CB_GFP_DIRECT_RECLAIM = 1 << 3,
	CB_GFP_HARDWALL = 1 << 4,
	CB_GFP_NBITS = 5
};

/* the raw value of each abstract bit in one kernel's gfp_t */
struct cb_gfp_map {
	unsigned long long raw[CB_GFP_NBITS];
	bool from_trace; /* false: the 5.x-6.x defaults (the trace did not say) */
};

/* the kernel flag names of the abstract bits, as __print_flags prints them */
extern const char *const cb_gfp_names[CB_GFP_NBITS];

/* cb_gfp_map_default - the values of 5.x to 6.18 x86_64 (the same in 6.1 and 6.18) */
void cb_gfp_map_default(struct cb_gfp_map *m);

/* cb_gfp_abstract - the abstract bits (enum cb_gfp_bit) set in @raw */
unsigned int cb_gfp_abstract(const struct cb_gfp_map *m, unsigned long long raw);

/*
 * cb_origin_classify - the origin of an allocation with abstract gfp bits @gfp, @order,
 * made by a task named @comm (NULL: unknown)
 */
enum cb_origin cb_origin_classify(unsigned int gfp, int order, const char *comm);

/* one rule of the table, for the documentation and `analyze --metrics` */
struct cb_origin_rule {
	const char *comm;	/* the task's comm must equal this (NULL: any) */
	unsigned int need;	/* abstract bits that must be set */
	unsigned int forbid;	/* abstract bits that must be clear */
	int min_order;		/* the order must be at least this */
	enum cb_origin origin;
	const char *why;
};

extern const struct cb_origin_rule cb_origin_rules[];
extern const int cb_origin_nrules;

#endif
