/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * matrix.h - expand a config into cells: kernels x settings x workloads x repetitions.
 */
#ifndef CB_MATRIX_H
#define CB_MATRIX_H

#include "config.h"

struct cb_cell {
	size_t index; /* position in run order, from 0 */
	const struct cb_kernel *kernel;
	const struct cb_setting *setting;
	const struct cb_workload *workload;
	long rep;     /* from 1 */
	char id[4 * CB_NAME_MAX + 16]; /* "<kernel>.<setting>.<workload>.r<rep>" */
};

/*
 * cb_matrix_expand - the cells of @cfg in run order.
 * @reps: repetitions (the config's reps, quick_reps, or --reps)
 *
 * The order interleaves repetitions, so slow drift of the machine (memory aging, a
 * neighbour's load) spreads over every setting instead of biasing one: all cells of rep 1,
 * then rep 2, and so on. Within a rep, cells go kernel by kernel (with [global] boot =
 * per-kernel one guest runs a qemu kernel's cells of the rep), workload by workload, and the settings' order rotates by one per rep,
 * so no setting always runs first after the previous rep. A setting with a `kernels` list
 * has no cells on the other kernels. Returns a malloc'ed array of *nr cells (never NULL for
 * a valid config).
 */
struct cb_cell *cb_matrix_expand(const struct cb_config *cfg, long reps, size_t *nr);

#define CB_SHARD_MAX 10000

/*
 * cb_shard_parse - read "I/N" (--shard): shard I of N, 1 <= I <= N <= CB_SHARD_MAX.
 * Returns 0, or -1 with errno EINVAL and what is wrong in @err.
 */
int cb_shard_parse(const char *text, long *index, long *count, char *err, size_t errlen);

/*
 * cb_matrix_shard - keep, in place and in order, the cells of shard @index of @count: those
 * whose position in the full run order (cell->index, from 0) is congruent to @index - 1
 * modulo @count. The shards of one N are disjoint and together hold every cell; each has
 * floor or ceil(total / N) cells, and shards past the total have none. Returns how many
 * cells are kept (@cells must come from cb_matrix_expand, unfiltered).
 * Cells that share a state (a kernel whose target class is serial: guest_state = saved;
 * the cells of one kernel, workload and repetition) go to one shard together, so that
 * they still start from one saved guest: the position counted is then that of the group,
 * in the order of its first cell, and shards differ by up to a group's size.
 */
size_t cb_matrix_shard(struct cb_cell *cells, size_t nr, long index, long count);

/*
 * cb_matrix_skipped - the cells @reps repetitions leave out because of settings' and
 * workloads' `kernels` lists (a cell counted once, against its setting first); @why (if not NULL) gets e.g. "setting 'dd' runs only on kernels patched (2 cells)".
 * Returns the number of cells skipped.
 */
size_t cb_matrix_skipped(const struct cb_config *cfg, long reps, char *why, size_t len);

#endif
