/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel_build.h - kernels from recipes (configs/kernels/NAME.ini), built once and cached.
 *
 *   [kernel]
 *   name = linux-6.1
 *   source = /usr/src/linux-source-6.1.tar.xz     (a tarball or a tree; this is the default)
 *   patches = patches/a.patch, patches/b.patch    (applied in order with patch -p1)
 *   fragments = base.config                        (merged onto tinyconfig)
 *
 * Relative paths are relative to the recipe's directory. The cache lives outside the repo
 * ($COMPACTBENCH_CACHE, default /var/cache/compactbench): kernels/<hash>/bzImage, .config
 * and build.log, where the hash covers the source's identity, every patch and fragment
 * and the compiler's version. Every program is started with execvp, never a shell.
 *
 * A recipe without patches also keeps its built tree (kernels/tree-<hash>, ~1.5 GB for
 * 6.1; $COMPACTBENCH_KEEP_TREE=0 does not keep it), and a recipe that differs from it
 * only by patches is built incrementally from a clone of it (see kernel_tree.h): only
 * what the patches touch recompiles, the result is cached under its own full key.
 */
#ifndef CB_KERNEL_BUILD_H
#define CB_KERNEL_BUILD_H

#include <stddef.h>
#include <sys/types.h>

#define CB_DEFAULT_KERNEL_SOURCE "/usr/src/linux-source-6.1.tar.xz"

struct cb_recipe {
	char *path;	  /* the recipe file */
	char *name;
	char *source;	  /* resolved path */
	char **patches;	  /* resolved paths, NULL-terminated */
	char **fragments; /* resolved paths, NULL-terminated */
};

/* cb_recipe_load - read @path; NULL with "FILE:LINE: ..." in @err on any problem */
struct cb_recipe *cb_recipe_load(const char *path, char *err, size_t errlen);
void cb_recipe_free(struct cb_recipe *r);

/*
 * cb_kernel_build - the bzImage of @recipe_path: from the cache, or built (progress lines
 * on stderr). Writes its path to @image. Returns 0, or -1 with a message naming the
 * recipe and the step (and the patch or option at fault) in @err.
 */
int cb_kernel_build(const char *recipe_path, char *image, size_t size, char *err, size_t errlen);

/* cb_cache_root - $COMPACTBENCH_CACHE or /var/cache/compactbench */
const char *cb_cache_root(void);

/*
 * cb_exec - run @argv (execvp) in @cwd (NULL: here) with stdout and stderr to @out_fd
 * (-1: /dev/null) and stdin from /dev/null; wait for it. Returns its exit status (0..255,
 * 128+N for a signal), or -1 with errno if it could not be started.
 */
int cb_exec(char *const argv[], const char *cwd, int out_fd);

/* cb_exec_capture - cb_exec with stdout into @buf (NUL-terminated, truncated to fit) */
int cb_exec_capture(char *const argv[], char *buf, size_t size);

#endif
