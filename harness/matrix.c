// SPDX-License-Identifier: GPL-2.0-only
/*
 * matrix.c - expand a config into cells in an interleaved run order (see matrix.h).
 */
#include "matrix.h"

#include <stdio.h>
#include <stdlib.h>

struct cb_cell *cb_matrix_expand(const struct cb_config *cfg, long reps, size_t *nr)
{
	size_t ns = cfg->nr_settings, total = cfg->nr_kernels * ns * cfg->nr_workloads * reps;
	struct cb_cell *cells = calloc(total ? total : 1, sizeof(*cells));
	size_t n = 0;

	if (!cells)
		abort();
	for (long r = 1; r <= reps; r++) {
		for (size_t k = 0; k < cfg->nr_kernels; k++) {
			for (size_t w = 0; w < cfg->nr_workloads; w++) {
				for (size_t i = 0; i < ns; i++) {
					struct cb_cell *c = &cells[n];

					c->index = n++;
					c->kernel = &cfg->kernels[k];
					c->setting = &cfg->settings[(i + (size_t)(r - 1)) % ns];
					c->workload = &cfg->workloads[w];
					c->rep = r;
					snprintf(c->id, sizeof(c->id), "%s.%s.%s.r%ld", c->kernel->name,
						 c->setting->name, c->workload->name, r);
				}
			}
		}
	}
	*nr = n;
	return cells;
}
