/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pc_tree.h - the file tree frag-pagecache makes and removes.
 *
 * The tree is DIR/frag-pagecache.XXXXXX (mkdtemp): data files d00000000, d00000001, ... at
 * its top, empty "small" files in subdirectories of 4096 (s000000/0000). Every file is made
 * with O_CREAT|O_EXCL relative to a directory descriptor the tree opened itself and counted
 * as soon as it exists, and the removal unlinks exactly the names counted, through the same
 * descriptors, then rmdirs: it cannot remove anything it did not create, and what it finds
 * in addition stays (counted as "left").
 */
#ifndef CB_PC_TREE_H
#define CB_PC_TREE_H

#include <limits.h>
#include <stdint.h>

#define PC_TREE_PREFIX "frag-pagecache."
#define PC_SMALL_PER_DIR 4096

struct pc_tree {
	char path[PATH_MAX];	/* DIR/frag-pagecache.XXXXXX, "" until made */
	int parent_fd;		/* DIR */
	int dfd;		/* the tree's top directory */
	int subfd;		/* the subdirectory small files go to now */
	uint64_t ndata;		/* data files created */
	uint64_t nsmall;	/* small files created */
	uint64_t nsubdirs;	/* subdirectories created */
	uint64_t removed;	/* entries removed by pc_tree_remove */
	uint64_t left;		/* entries pc_tree_remove found and left (not ours) or failed on */
};

/* pc_tree_init - a tree not made yet (every fd -1) */
void pc_tree_init(struct pc_tree *t);

/* pc_tree_create - make the tree in @dir (mode 0700); returns 0, or -1 with errno set */
int pc_tree_create(struct pc_tree *t, const char *dir);

/* pc_tree_new_data - create the next data file; returns its fd (O_WRONLY) or -1 with errno */
int pc_tree_new_data(struct pc_tree *t);

/* pc_tree_new_small - create the next empty file; returns 0, or -1 with errno set */
int pc_tree_new_small(struct pc_tree *t);

/*
 * pc_tree_remove - remove what the tree created (see above) and close its descriptors;
 * safe to call on a tree never made. Returns 0 when the tree is gone, -1 with errno set
 * when something stays (t->left says how many entries).
 */
int pc_tree_remove(struct pc_tree *t);

/* pc_tree_stale - how many other PC_TREE_PREFIX entries @dir holds (left by a killed run) */
int pc_tree_stale(const char *dir, const struct pc_tree *mine);

#endif
