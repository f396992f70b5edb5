/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * boot_plan.h - which cells of a run share one qemu guest ([global] boot = per-kernel):
 * each run of consecutive cells of one qemu kernel in the run order (with the interleaved
 * order of matrix.h, the cells of that kernel in one repetition). Pure functions of the
 * config and the cells, so they are tested without a guest.
 */
#ifndef CB_BOOT_PLAN_H
#define CB_BOOT_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "matrix.h"

/* the most cells one guest runs: a bound on the batch's list and on a guest's age */
#define CB_BOOT_BATCH_MAX 64

/*
 * cb_boot_check - whether [global] boot of @cfg goes with `run --jobs @jobs`: per-kernel
 * with @jobs above 1 is refused (each --jobs cell runs in its own process, which cannot
 * keep a guest for the next cell), and so is a kernel whose target says its cells must run
 * one after another (struct cb_target_class's serial). Returns 0, or -1 with @err.
 */
int cb_boot_check(const struct cb_config *cfg, long jobs, char *err, size_t errlen);

/*
 * cb_boot_batches - whether the qemu cells of a run of @cfg with --jobs @jobs share
 * guests: boot = per-kernel, or auto with @jobs <= 1 and start_state = drop-compact
 */
bool cb_boot_batches(const struct cb_config *cfg, long jobs);

/*
 * cb_boot_batch_len - how many cells from @cells[@i] on run in one guest: @cells[@i] and
 * the cells right after it of the same kernel, if that kernel's target is qemu (else 1),
 * at most CB_BOOT_BATCH_MAX, never past @nr. 0 if @i >= @nr.
 */
size_t cb_boot_batch_len(const struct cb_cell *cells, size_t nr, size_t i);

#endif
