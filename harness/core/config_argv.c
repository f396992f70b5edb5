// SPDX-License-Identifier: GPL-2.0-only
/*
 * config_argv.c - a workload phase's command line from its config keys (config.h:
 * cb_phase_argv): each `phase.option = value` becomes `--option value`, a boolean option a
 * bare `--option` when true; `quick.` keys replace their plain twins under `run --quick`.
 * Values go into argv as they are, never through a shell.
 */
#include "config_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char **cb_phase_argv(const struct cb_phase *ph, const char *program_path, bool quick)
{
	char **argv = cb_xrealloc(NULL, (2 * ph->nr_args + 2) * sizeof(*argv));
	size_t n = 0, i, j;

	argv[n++] = cb_xstrdup(program_path);
	for (i = 0; i < ph->nr_args; i++) {
		const struct cb_wl_arg *a = &ph->args[i];
		bool overridden = false;

		if (a->quick && !quick)
			continue;
		for (j = 0; quick && !a->quick && j < ph->nr_args; j++)
			overridden |= ph->args[j].quick && !strcmp(ph->args[j].name, a->name);
		if (overridden)
			continue;
		if (a->opt && a->opt->type == WL_OPT_BOOL) {
			/* a flag: present when true, absent when false */
			if (!strcmp(a->value, "1") || !strcmp(a->value, "true") ||
			    !strcmp(a->value, "yes")) {
				argv[n++] = cb_xasprintf("--%s", a->name);
			}
			continue;
		}
		argv[n++] = cb_xasprintf("--%s", a->name);
		argv[n++] = cb_xstrdup(a->value);
	}
	argv[n] = NULL;
	return argv;
}

void cb_argv_free(char **argv)
{
	if (!argv)
		return;
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}
