/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel_tree.h - the baseline's kept build tree, and patched trees cloned from it.
 *
 * A recipe without patches keeps its built tree in the cache (kernels/tree-<hash>, about
 * 1.5 GB for 6.1 on tinyconfig). A recipe that differs from it only by its patches (same
 * source, fragments, compiler) clones that tree instead of unpacking and building from
 * scratch: every file is hard-linked except the build's outputs, which are copied so a
 * compiler writing over an object in place cannot touch the baseline's. The patches then
 * replace the files they touch (GNU patch writes a new file, which breaks the link and
 * gives it a new mtime), and make rebuilds only what depends on them. The result is the
 * same kernel a scratch build gives, cached under the same key (the hash of source,
 * patches, fragments), so either way of building it is interchangeable.
 *
 * The clone is built at the path where the baseline was built (recorded in the stamp):
 * tools/objtool records absolute paths, and an objtool rebuilt for a new path would make
 * every object rebuild (each .o depends on the objtool binary).
 */
#ifndef CB_KERNEL_TREE_H
#define CB_KERNEL_TREE_H

#include <stddef.h>

/* in a tree: made after unpacking, before anything is built: build outputs are newer */
#define CB_KTREE_STAMP ".compactbench-source-stamp"

/*
 * cb_ktree_stamp - mark @tree's sources as unpacked now, and record @tree's absolute path
 * (where it is built). 0, or -1 with errno.
 */
int cb_ktree_stamp(const char *tree);

/*
 * cb_ktree_build_path - where the kept tree @tree was built, into @buf; a clone built there
 * reuses its objects. 0, or -1 with a message in @err (no stamp, or an older one).
 */
int cb_ktree_build_path(const char *tree, char *buf, size_t size, char *err, size_t errlen);

/*
 * cb_ktree_clone - make @to (an empty directory) a copy of the built tree @from that
 * shares its source files (hard links) and owns copies of everything newer than the
 * stamp (the build's outputs), mtimes kept. @log_fd takes cp's messages. Returns the
 * number of files copied, or -1 with a message in @err.
 */
long cb_ktree_clone(const char *from, const char *to, int log_fd, char *err, size_t errlen);

/*
 * cb_ktree_config_diff - compare two .config texts: how many options @base sets that
 * @cand sets differently or not at all, named in @out ("CONFIG_A: y -> n, ...");
 * options only @cand has (a patch's new ones) are not differences. @nr_new gets their
 * number. Returns the number of differences.
 */
int cb_ktree_config_diff(const char *base, const char *cand, int *nr_new, char *out,
			 size_t outlen);

#endif
