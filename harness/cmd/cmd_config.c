// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_config.c - `compactbench config`: check a config (and show its matrix), or print the
 * key reference that configs/README.md embeds.
 */
#include "cmd.h"
#include "cmd_opt.h"
#include "config.h"
#include "config_verify.h"
#include "matrix.h"
#include "runjson.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: compactbench config check CONFIG [--quick]\n"
	"   or: compactbench config doc\n"
	"\n"
	"check: parse CONFIG as `run` would, print its cells in run order; exit 2 with\n"
	"       FILE:LINE and the key on the first error. Also what `run` checks before a\n"
	"       cell runs: each qemu kernel's recipe loads, each knob a setting sets on the\n"
	"       booted host kernel exists there (notes say what waits for a boot).\n"
	"doc:   print the reference of every key (markdown), generated from the same tables\n"
	"       the parser uses; configs/README.md holds it.\n";

enum { OPT_QUICK = 256 };

/* the options, once: getopt's tables (cmd_opt.h); the usage above says what they do */
static const struct cb_opt config_opts[] = {
	{ "quick", OPT_QUICK, NULL, NULL },
	{ "help", 'h', NULL, NULL },
};

static int check(const char *path, bool quick)
{
	struct cb_config *cfg;
	struct cb_cell *cells;
	char err[2048], why[1024];
	size_t nr, skipped;
	long reps;

	cfg = cb_config_load(path, err, sizeof(err));
	if (!cfg) {
		fprintf(stderr, "compactbench: %s\n", err);
		return 2;
	}
	if (cb_config_verify(cfg, "", stderr, NULL) > 0) {
		cb_config_free(cfg);
		return 2;
	}
	reps = quick ? cfg->quick_reps : cfg->reps;
	skipped = cb_matrix_skipped(cfg, reps, why, sizeof(why));
	cells = cb_matrix_expand(cfg, reps, &nr);
	if (nr > CB_RUN_MAX_CELLS) {
		fprintf(stderr, "compactbench: %s: %zu cells, more than the %d a run may have\n",
			path, nr, CB_RUN_MAX_CELLS);
		free(cells);
		cb_config_free(cfg);
		return 2;
	}
	printf("%s: ok, %zu cells", path, nr);
	if (skipped)
		printf(" (%zu skipped: %s)", skipped, why);
	printf("\n");
	cb_config_verify(cfg, "", stderr, stdout);
	for (size_t i = 0; i < nr; i++)
		printf("%3zu %s\n", i + 1, cells[i].id);
	free(cells);
	cb_config_free(cfg);
	return 0;
}

int cmd_config(int argc, char **argv)
{
	struct cb_opt_parser p;
	bool quick = false;
	int c, nargs;

	cb_opt_parser_init(&p, config_opts, CB_ARRAY_SIZE(config_opts), 0);
	while ((c = cb_opt_next(&p, argc, argv)) != -1) {
		switch (c) {
		case OPT_QUICK:
			quick = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			cb_opt_bad("config", config_opts, CB_ARRAY_SIZE(config_opts), argv);
			fputs(usage, stderr);
			return 2;
		}
	}
	nargs = argc - optind;
	if (nargs == 1 && !quick && !strcmp(argv[optind], "doc")) {
		cb_config_doc(stdout);
		return 0;
	}
	if (nargs == 2 && !strcmp(argv[optind], "check"))
		return check(argv[optind + 1], quick);
	fputs(usage, stderr);
	return 2;
}
