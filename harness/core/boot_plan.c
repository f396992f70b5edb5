// SPDX-License-Identifier: GPL-2.0-only
/*
 * boot_plan.c - which cells share one qemu guest (see boot_plan.h).
 */
#include "boot_plan.h"
#include "target_class.h"

#include <stdio.h>

int cb_boot_check(const struct cb_config *cfg, long jobs, char *err, size_t errlen)
{
	for (size_t i = 0; jobs > 1 && i < cfg->nr_kernels; i++) {
		const struct cb_kernel *k = &cfg->kernels[i];
		const char *why = k->cls && k->cls->serial ? k->cls->serial(k) : NULL;

		if (why) {
			snprintf(err, errlen, "[kernel %s] with --jobs %ld: %s; use --jobs 1", k->name,
				 jobs, why);
			return -1;
		}
	}
	if (cfg->boot != CB_BOOT_PER_KERNEL || jobs <= 1)
		return 0;
	snprintf(err, errlen, "boot = per-kernel with --jobs %ld: a --jobs cell runs in a process "
		 "of its own and cannot hand its guest to the next cell; use --jobs 1, or boot = "
		 "per-cell (or auto: per-cell under --jobs)", jobs);
	return -1;
}

bool cb_boot_batches(const struct cb_config *cfg, long jobs)
{
	if (cfg->boot == CB_BOOT_PER_KERNEL)
		return true;
	return cfg->boot == CB_BOOT_AUTO && jobs <= 1 && cfg->start_state == CB_START_DROP_COMPACT;
}

size_t cb_boot_batch_len(const struct cb_cell *cells, size_t nr, size_t i)
{
	size_t n = 1;

	if (i >= nr)
		return 0;
	/* only a target that boots its own guest can keep it for the next cell */
	if (!cells[i].kernel->cls || !(cells[i].kernel->cls->flags & CB_TARGET_GUEST))
		return 1;
	while (i + n < nr && n < CB_BOOT_BATCH_MAX && cells[i + n].kernel == cells[i].kernel)
		n++;
	return n;
}
