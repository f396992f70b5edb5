// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_tree.c - clone the baseline's built kernel tree for an incremental patched
 * build; compare two .configs. See kernel_tree.h.
 */
#include "kernel_tree.h"
#include "xalloc.h"
#include "kernel_build.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STAMP_KEY "built in: "

int cb_ktree_stamp(const char *tree)
{
	char path[PATH_MAX], real[PATH_MAX], text[PATH_MAX + 64];
	int len;

	if (!realpath(tree, real) || cb_path(path, sizeof(path), "%s/%s", tree, CB_KTREE_STAMP) < 0)
		return -1;
	len = snprintf(text, sizeof(text), "sources unpacked; newer files are build outputs\n"
		       STAMP_KEY "%s\n", real);
	return cb_write_file_atomic(path, text, (size_t)len);
}

int cb_ktree_build_path(const char *tree, char *buf, size_t size, char *err, size_t errlen)
{
	char path[PATH_MAX], *text, *p;

	cb_path(path, sizeof(path), "%s/%s", tree, CB_KTREE_STAMP);
	text = cb_read_file(path, NULL);
	p = text ? strstr(text, "\n" STAMP_KEY) : NULL;
	if (!p) {
		snprintf(err, errlen, "%s: %s", path, text ? "no '" STAMP_KEY "' line (an older "
			 "stamp)" : strerror(errno));
		free(text);
		return -1;
	}
	p += strlen("\n" STAMP_KEY);
	snprintf(buf, size, "%.*s", (int)strcspn(p, "\n"), p);
	free(text);
	return 0;
}

/* @to gets @from's bytes, mode and times, under a name of its own (so no link is shared) */
static int copy_private(const char *path, const struct stat *s)
{
	char tmp[PATH_MAX];
	struct timespec times[2] = { s->st_atim, s->st_mtim };
	int in, out, rc = -1;
	ssize_t n = 1;

	if (cb_path(tmp, sizeof(tmp), "%s.cb-private", path) < 0)
		return -1;
	in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, s->st_mode & 07777);
	if (out < 0)
		goto close_in;
	while (n > 0)
		n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0);
	/* make decides by mtime: the copy must look exactly as old as the original */
	if (n == 0 && fchmod(out, s->st_mode & 07777) == 0 && futimens(out, times) == 0)
		rc = rename(tmp, path);
	close(out);
	if (rc < 0)
		unlink(tmp);
close_in:
	close(in);
	return rc;
}

/* nftw has no user pointer: the walk's state (one walk at a time) */
static struct timespec walk_stamp;
static long walk_copied;
static char walk_failed[PATH_MAX];

static bool newer_or_same(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec >= b->tv_nsec);
}

static int unshare_output(const char *path, const struct stat *s, int type, struct FTW *f)
{
	(void)f;
	if (type != FTW_F || !S_ISREG(s->st_mode) || s->st_nlink < 2 ||
	    !newer_or_same(&s->st_mtim, &walk_stamp))
		return 0;
	if (copy_private(path, s) < 0) {
		snprintf(walk_failed, sizeof(walk_failed), "%s: %s", path, strerror(errno));
		return 1;
	}
	walk_copied++;
	return 0;
}

long cb_ktree_clone(const char *from, const char *to, int log_fd, char *err, size_t errlen)
{
	char stamp[PATH_MAX];
	char src[PATH_MAX];
	char *cp[] = { "cp", "-al", src, (char *)to, NULL };
	struct stat s;
	int rc;

	if (cb_path(src, sizeof(src), "%s/.", from) < 0 ||
	    cb_path(stamp, sizeof(stamp), "%s/%s", from, CB_KTREE_STAMP) < 0 || stat(stamp, &s) < 0) {
		snprintf(err, errlen, "kept tree %s: no %s (not a tree compactbench kept): %s",
			 from, CB_KTREE_STAMP, strerror(errno));
		return -1;
	}
	rc = cb_exec(cp, NULL, log_fd);
	if (rc) {
		snprintf(err, errlen, "cp -al %s %s: %s", from, to,
			 rc < 0 ? strerror(errno) : "failed (see the log)");
		return -1;
	}
	walk_stamp = s.st_mtim;
	walk_copied = 0;
	walk_failed[0] = '\0';
	if (nftw(to, unshare_output, 64, FTW_PHYS) != 0) {
		snprintf(err, errlen, "unsharing the build outputs of %s: %s", to,
			 walk_failed[0] ? walk_failed : strerror(errno));
		return -1;
	}
	return walk_copied;
}

/*
 * the value @cfg (which starts with a newline) gives CONFIG_@sym: "y", "\"str\"", "n" for
 * "is not set", NULL for absent; into @buf
 */
static const char *config_value(const char *cfg, const char *sym, size_t symlen, char *buf,
				size_t size)
{
	char want[256];
	const char *p;

	snprintf(want, sizeof(want), "\n%.*s=", (int)symlen, sym);
	p = strstr(cfg, want);
	if (p) {
		p += strlen(want);
		snprintf(buf, size, "%.*s", (int)strcspn(p, "\n"), p);
		return buf;
	}
	snprintf(want, sizeof(want), "\n# %.*s is not set\n", (int)symlen, sym);
	return strstr(cfg, want) ? "n" : NULL;
}

/* the option a .config line is about (its length in @len), or NULL for other lines */
static const char *config_symbol(const char *line, size_t *len)
{
	if (!strncmp(line, "# CONFIG_", 9) && strstr(line, " is not set"))
		line += 2;
	else if (strncmp(line, "CONFIG_", 7))
		return NULL;
	*len = strcspn(line, "= \n");
	return line;
}

int cb_ktree_config_diff(const char *base, const char *cand, int *nr_new, char *out,
			 size_t outlen)
{
	char *b, *c, va[256], vb[256];
	const char *p, *sym, *x, *y;
	size_t len;
	int nr = 0;

	if (asprintf(&b, "\n%s", base) < 0 || asprintf(&c, "\n%s", cand) < 0)
		cb_oom();
	out[0] = '\0';
	*nr_new = 0;
	for (p = b + 1; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		sym = config_symbol(p, &len);
		if (!sym || len >= 200)
			continue;
		x = config_value(b, sym, len, va, sizeof(va));
		y = config_value(c, sym, len, vb, sizeof(vb));
		if (y && !strcmp(x, y))
			continue;
		nr++;
		snprintf(out + strlen(out), outlen - strlen(out), "%s%.*s: %s -> %s",
			 nr > 1 ? ", " : "", (int)len, sym, x, y ? y : "absent");
	}
	for (p = c + 1; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		sym = config_symbol(p, &len);
		if (sym && len < 200 && !config_value(b, sym, len, va, sizeof(va)))
			(*nr_new)++;
	}
	free(b);
	free(c);
	return nr;
}
