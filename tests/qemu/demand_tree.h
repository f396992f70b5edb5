/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * demand_tree.h - the kernel-source checks of test_qemu_demand (see demand_tree.c).
 */
#ifndef CB_DEMAND_TREE_H
#define CB_DEMAND_TREE_H

/*
 * demand_tree_check - unpack @tarball under @dir, configure it as the builder does with
 * @fragment, build mm/page_alloc.o with -g and read struct zone, pglist_data and
 * compact_control with pahole; apply every patch of @series (which @recipe must name) with
 * no fuzz, rebuild and read them again. Asserts the first two identical and the third the
 * same size. cmocka assertions; call from a test.
 */
void demand_tree_check(const char *dir, const char *tarball, const char *series,
		       const char *recipe, const char *fragment);

#endif
