// SPDX-License-Identifier: GPL-2.0-only
/*
 * journal.c - the restore journal (see journal.h for why it exists and where it lives).
 */
#include "journal.h"
#include "xalloc.h"
#include "knobs.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct entry {
	char *path;
	char *value;
};

int cb_journal_open(struct cb_journal *j, const char *state_dir)
{
	const char *dir = state_dir;

	if (!dir)
		dir = getenv("COMPACTBENCH_STATE_DIR");
	if (!dir || !*dir)
		dir = CB_STATE_DIR_DEFAULT;
	if (cb_mkdir_p(dir) < 0)
		return -1;
	return cb_path(j->path, sizeof(j->path), "%s/restore.journal", dir);
}

bool cb_journal_pending(const struct cb_journal *j)
{
	size_t len = 0;
	char *s = cb_read_file(j->path, &len);

	free(s);
	return s && len > 0;
}

/* read the journal into entries; a missing journal is an empty one */
static int load(const struct cb_journal *j, struct entry **out, size_t *nr)
{
	char *buf = cb_read_file(j->path, NULL), *line, *next;
	struct entry *e = NULL;
	size_t n = 0;

	*out = NULL;
	*nr = 0;
	if (!buf)
		return errno == ENOENT ? 0 : -1;
	for (line = buf; *line; line = next) {
		char *tab;

		next = strchr(line, '\n');
		if (!next) /* a torn last line: the write before it never happened either */
			break;
		*next++ = '\0';
		tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = '\0';
		e = realloc(e, (n + 1) * sizeof(*e));
		if (!e)
			cb_oom();
		e[n].path = strdup(line);
		e[n].value = strdup(tab + 1);
		n++;
	}
	free(buf);
	*out = e;
	*nr = n;
	return 0;
}

static void free_entries(struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].path);
		free(e[i].value);
	}
	free(e);
}

static int append(const struct cb_journal *j, const char *path, const char *value)
{
	char line[8192];
	int fd, n, ret = -1;

	n = snprintf(line, sizeof(line), "%s\t%s\n", path, value);
	if (n < 0 || (size_t)n >= sizeof(line)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(j->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (write(fd, line, n) == n && fsync(fd) == 0)
		ret = 0;
	close(fd);
	return ret;
}

int cb_journal_set(struct cb_journal *j, const char *path, const char *value, char *readback,
		   size_t rbsize, char *err, size_t errlen)
{
	char old[512];
	struct entry *e;
	size_t n, i;
	bool known = false;

	if (strpbrk(value, "\t\n")) {
		snprintf(err, errlen, "%s: value contains a tab or newline", path);
		return -1;
	}
	if (cb_read_choice(path, old, sizeof(old)) < 0) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (load(j, &e, &n) < 0) {
		snprintf(err, errlen, "%s: cannot read the journal: %s", j->path, strerror(errno));
		return -1;
	}
	for (i = 0; i < n && !known; i++)
		known = !strcmp(e[i].path, path);
	free_entries(e, n);
	if (!known && append(j, path, old) < 0) {
		snprintf(err, errlen, "%s: cannot journal the old value of %s: %s", j->path, path,
			 strerror(errno));
		return -1;
	}
	if (cb_write_string(path, value) < 0) {
		snprintf(err, errlen, "%s: cannot write '%s': %s", path, value, strerror(errno));
		return -1;
	}
	if (readback && cb_read_choice(path, readback, rbsize) < 0) {
		snprintf(err, errlen, "%s: cannot read back: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int cb_journal_restore(struct cb_journal *j, void (*log)(const char *msg), char *err,
		       size_t errlen)
{
	struct entry *e;
	size_t n, i, k;
	int restored = 0, failed = 0;
	char msg[8192], *left = NULL;
	size_t leftlen = 0;
	FILE *lf;

	if (load(j, &e, &n) < 0) {
		snprintf(err, errlen, "%s: cannot read the journal: %s", j->path, strerror(errno));
		return -1;
	}
	lf = open_memstream(&left, &leftlen);
	if (!lf)
		cb_oom();
	/* newest first; only the first value journaled for a file is its original */
	for (i = n; i-- > 0;) {
		bool first = true;

		for (k = 0; k < i && first; k++)
			first = strcmp(e[k].path, e[i].path) != 0;
		if (!first)
			continue;
		if (cb_write_string(e[i].path, e[i].value) < 0) {
			if (!failed++)
				snprintf(err, errlen, "%s: cannot restore '%s': %s", e[i].path,
					 e[i].value, strerror(errno));
			fprintf(lf, "%s\t%s\n", e[i].path, e[i].value);
			continue;
		}
		restored++;
		if (log) {
			snprintf(msg, sizeof(msg), "restored %s = %s", e[i].path, e[i].value);
			log(msg);
		}
	}
	fclose(lf);
	free_entries(e, n);
	if (failed) {
		cb_write_file_atomic(j->path, left, leftlen);
		free(left);
		return -1;
	}
	free(left);
	if (unlink(j->path) < 0 && errno != ENOENT) {
		snprintf(err, errlen, "%s: cannot remove: %s", j->path, strerror(errno));
		return -1;
	}
	return restored;
}
