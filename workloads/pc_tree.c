// SPDX-License-Identifier: GPL-2.0-only
/*
 * pc_tree.c - the file tree frag-pagecache makes and removes (see pc_tree.h for the rule:
 * only counted names, only through the tree's own descriptors).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "pc_tree.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

static void data_name(char *buf, size_t size, uint64_t i)
{
	snprintf(buf, size, "d%08llu", (unsigned long long)i);
}

static void subdir_name(char *buf, size_t size, uint64_t i)
{
	snprintf(buf, size, "s%06llu", (unsigned long long)i);
}

static void small_name(char *buf, size_t size, uint64_t i)
{
	snprintf(buf, size, "%04llu", (unsigned long long)(i % PC_SMALL_PER_DIR));
}

/* pc_tree_init - a tree not made yet (every fd -1) */
void pc_tree_init(struct pc_tree *t)
{
	memset(t, 0, sizeof(*t));
	t->parent_fd = t->dfd = t->subfd = -1;
}

/* pc_tree_create - make the tree in @dir (mode 0700); returns 0, or -1 with errno set */
int pc_tree_create(struct pc_tree *t, const char *dir)
{
	char tmpl[PATH_MAX];
	const char *base;

	if (cb_path(tmpl, sizeof(tmpl), "%s/" PC_TREE_PREFIX "XXXXXX", dir) < 0)
		return -1;
	t->parent_fd = open(dir, DIR_FLAGS & ~O_NOFOLLOW);
	if (t->parent_fd < 0)
		return -1;
	if (!mkdtemp(tmpl))
		return -1;
	snprintf(t->path, sizeof(t->path), "%s", tmpl);
	base = strrchr(t->path, '/') + 1;
	/* through the parent's descriptor and never a symlink: the directory mkdtemp made */
	t->dfd = openat(t->parent_fd, base, DIR_FLAGS);
	return t->dfd < 0 ? -1 : 0;
}

/* pc_tree_new_data - create the next data file; returns its fd (O_WRONLY) or -1 with errno */
int pc_tree_new_data(struct pc_tree *t)
{
	char name[32];
	int fd;

	data_name(name, sizeof(name), t->ndata);
	fd = openat(t->dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0)
		t->ndata++;
	return fd;
}

/* pc_tree_new_small - create the next empty file; returns 0, or -1 with errno set */
int pc_tree_new_small(struct pc_tree *t)
{
	char name[32];
	int fd;

	if (t->nsmall % PC_SMALL_PER_DIR == 0) {
		subdir_name(name, sizeof(name), t->nsubdirs);
		if (mkdirat(t->dfd, name, 0700) < 0)
			return -1;
		t->nsubdirs++;
		if (t->subfd >= 0)
			close(t->subfd);
		t->subfd = openat(t->dfd, name, DIR_FLAGS);
		if (t->subfd < 0)
			return -1;
	}
	small_name(name, sizeof(name), t->nsmall);
	fd = openat(t->subfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	t->nsmall++;
	close(fd);
	return 0;
}

/* unlinkat counted in t->removed; a name already gone is fine, other failures stay */
static void remove_entry(struct pc_tree *t, int dfd, const char *name, int flags)
{
	if (unlinkat(dfd, name, flags) == 0)
		t->removed++;
	else if (errno != ENOENT)
		t->left++;
}

static void remove_subdir(struct pc_tree *t, uint64_t s)
{
	uint64_t first = s * PC_SMALL_PER_DIR, i;
	char name[32];
	int sfd;

	subdir_name(name, sizeof(name), s);
	sfd = openat(t->dfd, name, DIR_FLAGS);
	if (sfd < 0) {
		if (errno != ENOENT)
			t->left++;
		return;
	}
	for (i = first; i < t->nsmall && i < first + PC_SMALL_PER_DIR; i++) {
		char f[32];

		small_name(f, sizeof(f), i);
		remove_entry(t, sfd, f, 0);
	}
	close(sfd);
	remove_entry(t, t->dfd, name, AT_REMOVEDIR);
}

/* entries still in the directory @dfd (what stopped its rmdir) */
static uint64_t count_entries(int dfd)
{
	int fd = openat(dfd, ".", DIR_FLAGS);
	struct dirent *de;
	uint64_t n = 0;
	DIR *d;

	if (fd < 0)
		return 0;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/*
 * pc_tree_remove - remove what the tree created (see above) and close its descriptors;
 * safe to call on a tree never made. Returns 0 when the tree is gone, -1 with errno set
 * when something stays (t->left says how many entries).
 */
int pc_tree_remove(struct pc_tree *t)
{
	char name[32];
	uint64_t i;
	int ret = 0;

	if (t->subfd >= 0)
		close(t->subfd);
	t->subfd = -1;
	if (t->dfd >= 0) {
		for (i = 0; i < t->ndata; i++) {
			data_name(name, sizeof(name), i);
			remove_entry(t, t->dfd, name, 0);
		}
		for (i = 0; i < t->nsubdirs; i++)
			remove_subdir(t, i);
		if (unlinkat(t->parent_fd, strrchr(t->path, '/') + 1, AT_REMOVEDIR) == 0) {
			t->removed++;
		} else {
			int err = errno;

			t->left += err == ENOTEMPTY ? count_entries(t->dfd) : 1;
			errno = err;
			ret = -1;
		}
		close(t->dfd);
		t->dfd = -1;
	}
	if (t->parent_fd >= 0)
		close(t->parent_fd);
	t->parent_fd = -1;
	if (!ret && t->left) {
		errno = EBUSY;
		ret = -1;
	}
	return ret;
}

/* pc_tree_stale - how many other PC_TREE_PREFIX entries @dir holds (left by a killed run) */
int pc_tree_stale(const char *dir, const struct pc_tree *mine)
{
	const char *base = mine->path[0] ? strrchr(mine->path, '/') + 1 : "";
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, PC_TREE_PREFIX, strlen(PC_TREE_PREFIX)) &&
		    strcmp(de->d_name, base))
			n++;
	closedir(d);
	return n;
}
