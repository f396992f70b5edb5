// SPDX-License-Identifier: GPL-2.0-only
/*
 * matrix.c - expand a config into cells in an interleaved run order (see matrix.h).
 */
#include "matrix.h"
#include "target_class.h"
#include "xalloc.h"

#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cb_cell *cb_matrix_expand(const struct cb_config *cfg, long reps, size_t *nr)
{
	size_t ns = cfg->nr_settings, total = cfg->nr_kernels * ns * cfg->nr_workloads * reps;
	struct cb_cell *cells = calloc(total ? total : 1, sizeof(*cells));
	size_t n = 0;

	if (!cells)
		cb_oom();
	for (long r = 1; r <= reps; r++) {
		for (size_t k = 0; k < cfg->nr_kernels; k++) {
			for (size_t w = 0; w < cfg->nr_workloads; w++) {
				for (size_t i = 0; i < ns; i++) {
					const struct cb_setting *s =
						&cfg->settings[(i + (size_t)(r - 1)) % ns];
					struct cb_cell *c = &cells[n];

					if (!cb_cell_wanted(&cfg->kernels[k], s, &cfg->workloads[w]))
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

int cb_shard_parse(const char *text, long *index, long *count, char *err, size_t errlen)
{
	const char *slash = strchr(text, '/');
	char num[32];
	long long i, n;

	if (!slash || (size_t)(slash - text) >= sizeof(num)) {
		snprintf(err, errlen, "--shard '%s': not I/N (e.g. 2/4: the second of four shards)",
			 text);
		errno = EINVAL;
		return -1;
	}
	memcpy(num, text, (size_t)(slash - text));
	num[slash - text] = '\0';
	if (cb_parse_long(slash + 1, 1, CB_SHARD_MAX, &n) < 0) {
		snprintf(err, errlen, "--shard '%s': N must be a number in 1..%d", text, CB_SHARD_MAX);
		errno = EINVAL;
		return -1;
	}
	if (cb_parse_long(num, 1, n, &i) < 0) {
		snprintf(err, errlen, "--shard '%s': I must be a number in 1..%lld", text, n);
		errno = EINVAL;
		return -1;
	}
	*index = (long)i;
	*count = (long)n;
	return 0;
}

/* whether @c's kernel keeps a state between its cells (target_class.h: serial) */
static bool shares_state(const struct cb_cell *c)
{
	return c->kernel && c->kernel->cls && c->kernel->cls->serial &&
	       c->kernel->cls->serial(c->kernel);
}

size_t cb_matrix_shard(struct cb_cell *cells, size_t nr, long index, long count)
{
	size_t kept = 0, units = 0, *unit = cb_xcalloc(nr + 1, sizeof(*unit));

	/* a cell's unit: its own, or the first earlier cell's with which it shares a state */
	for (size_t i = 0; i < nr; i++) {
		size_t j = 0;

		while (j < i && !(shares_state(&cells[i]) && cells[j].kernel == cells[i].kernel &&
				  cells[j].workload == cells[i].workload &&
				  cells[j].rep == cells[i].rep))
			j++;
		unit[i] = j < i ? unit[j] : units++;
	}
	for (size_t i = 0; i < nr; i++)
		if (unit[i] % (size_t)count == (size_t)(index - 1))
			cells[kept++] = cells[i];
	free(unit);
	return kept;
}

/* append "; what 'name' runs only on kernel(s) a, b (n cells)" to @why */
static void say_skipped(char *why, size_t len, const char *what, const char *name, char **kernels,
			size_t n)
{
	size_t off;

	if (!why || !len)
		return;
	off = strlen(why);
	off += snprintf(why + off, off < len ? len - off : 0, "%s%s '%s' runs only on kernel%s ",
			off ? "; " : "", what, name, kernels[1] ? "s" : "");
	for (size_t j = 0; kernels[j] && off < len; j++)
		off += snprintf(why + off, len - off, "%s%s", j ? ", " : "", kernels[j]);
	if (off < len)
		snprintf(why + off, len - off, " (%zu cell%s)", n, n == 1 ? "" : "s");
}

/*
 * A cell left out is counted once: against its setting if the setting excludes the kernel,
 * else against its workload.
 */
size_t cb_matrix_skipped(const struct cb_config *cfg, long reps, char *why, size_t len)
{
	size_t total = 0;

	if (why && len)
		why[0] = '\0';
	for (size_t i = 0; i < cfg->nr_settings; i++) {
		const struct cb_setting *s = &cfg->settings[i];
		size_t n = 0;

		for (size_t k = 0; k < cfg->nr_kernels; k++)
			n += !cb_setting_on_kernel(s, &cfg->kernels[k]);
		n *= cfg->nr_workloads * (size_t)reps;
		total += n;
		if (n)
			say_skipped(why, len, "setting", s->name, s->kernels, n);
	}
	for (size_t w = 0; w < cfg->nr_workloads; w++) {
		const struct cb_workload *wl = &cfg->workloads[w];
		size_t n = 0;

		for (size_t k = 0; k < cfg->nr_kernels; k++)
			for (size_t i = 0; i < cfg->nr_settings; i++)
				n += cb_setting_on_kernel(&cfg->settings[i], &cfg->kernels[k]) &&
				     !cb_workload_on_kernel(wl, &cfg->kernels[k]);
		n *= (size_t)reps;
		total += n;
		if (n)
			say_skipped(why, len, "workload", wl->name, wl->kernels, n);
	}
	return total;
}

/* which kernels a setting or workload runs on (`kernels =`; config.h declares these) */
static bool kernel_listed(char **list, const struct cb_kernel *k)
{
	if (!list)
		return true;
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i], k->name))
			return true;
	return false;
}

bool cb_setting_on_kernel(const struct cb_setting *s, const struct cb_kernel *k)
{
	return kernel_listed(s->kernels, k);
}

bool cb_workload_on_kernel(const struct cb_workload *w, const struct cb_kernel *k)
{
	return kernel_listed(w->kernels, k);
}

bool cb_cell_wanted(const struct cb_kernel *k, const struct cb_setting *s,
		    const struct cb_workload *w)
{
	return cb_setting_on_kernel(s, k) && cb_workload_on_kernel(w, k);
}
