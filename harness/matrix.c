// SPDX-License-Identifier: GPL-2.0-only
/*
 * matrix.c - expand a config into cells in an interleaved run order (see matrix.h).
 */
#include "matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
					const struct cb_setting *s =
						&cfg->settings[(i + (size_t)(r - 1)) % ns];
					struct cb_cell *c = &cells[n];

					if (!cb_setting_on_kernel(s, &cfg->kernels[k]))
						continue;
					c->index = n++;
					c->kernel = &cfg->kernels[k];
					c->setting = s;
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

size_t cb_matrix_skipped(const struct cb_config *cfg, long reps, char *why, size_t len)
{
	size_t total = 0;

	if (why && len)
		why[0] = '\0';
	for (size_t i = 0; i < cfg->nr_settings; i++) {
		const struct cb_setting *s = &cfg->settings[i];
		size_t off = 0, n = 0;

		for (size_t k = 0; k < cfg->nr_kernels; k++)
			n += !cb_setting_on_kernel(s, &cfg->kernels[k]);
		n *= cfg->nr_workloads * (size_t)reps;
		if (!n)
			continue;
		total += n;
		if (!why || !len)
			continue;
		off = strlen(why);
		off += snprintf(why + off, off < len ? len - off : 0, "%ssetting '%s' runs only on "
				"kernel%s ", off ? "; " : "", s->name, s->kernels[1] ? "s" : "");
		for (size_t j = 0; s->kernels[j] && off < len; j++)
			off += snprintf(why + off, len - off, "%s%s", j ? ", " : "", s->kernels[j]);
		if (off < len)
			snprintf(why + off, len - off, " (%zu cell%s)", n, n == 1 ? "" : "s");
	}
	return total;
}
