// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_kernel.c - `compactbench kernel build RECIPE`: a cached bzImage for the qemu target.
 */
#include "cmd.h"
#include "cmd_opt.h"
#include "kernel_build.h"
#include "run.h"
#include "util.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static const char kernel_usage[] =
	"usage: compactbench kernel build RECIPE\n"
	"\n"
	"Build the kernel a recipe (configs/kernels/NAME.ini) describes: unpack its source,\n"
	"apply its patches in order (patch -p1), merge its config fragments onto tinyconfig,\n"
	"olddefconfig, check every fragment option is really set, make bzImage. The result\n"
	"is cached under $COMPACTBENCH_CACHE (default /var/cache/compactbench)/kernels/ by a\n"
	"hash of source, patches, fragments and compiler; a cached build is reused. Prints\n"
	"the bzImage's path on stdout.\n"
	"\n"
	"A recipe without patches keeps its built tree in the cache (kernels/tree-HASH, about\n"
	"1.5 GB for 6.1; COMPACTBENCH_KEEP_TREE=0 does not). A recipe that differs from it only\n"
	"by its patches is then built incrementally from a hard-linked clone of that tree: only\n"
	"what the patches touch recompiles, and its .config is compared with the baseline's.\n"
	"\n"
	"Exit: 0 built or cached, 1 the build failed (the message names the step), 2 bad usage\n"
	"or a recipe that does not load (unreadable, unknown key, a patch or fragment missing).\n";

static void on_signal(int sig)
{
	cb_interrupted = sig;
}

int cmd_kernel(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };

	char image[PATH_MAX], err[2048];
	struct cb_recipe *recipe;
	const char *path;
	int rc = cb_opt_help_only("kernel", kernel_usage, argc, argv);

	if (rc >= 0)
		return rc;
	if (argc - optind != 2 || strcmp(argv[optind], "build")) {
		fputs(kernel_usage, stderr);
		return 2;
	}
	path = argv[optind + 1];
	/* a recipe that does not load is bad input (2); a build that fails is a failure (1) */
	recipe = cb_recipe_load(path, err, sizeof(err));
	if (!recipe) {
		fprintf(stderr, "compactbench kernel build: %s\n", err);
		return 2;
	}
	cb_recipe_free(recipe);
	/* the build stops its make and removes its tree before we exit */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (cb_kernel_build(path, image, sizeof(image), err, sizeof(err)) < 0) {
		fprintf(stderr, "compactbench kernel build: %s\n", err);
		return 1;
	}
	printf("%s\n", image);
	return 0;
}
