// SPDX-License-Identifier: GPL-2.0-only
/*
 * qemu_batch.c - the host's side of a guest that runs several cells (see qemu_batch.h).
 */
#include "qemu_batch.h"
#include "initramfs.h"
#include "run.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int cb_qbatch_begin(struct cb_qbatch *b, const char *run_dir, const struct cb_cell *cells,
		    size_t nr, char *err, size_t errlen)
{
	char path[PATH_MAX], *list;
	size_t len = 0;
	int rc;

	memset(b, 0, sizeof(*b));
	if (cb_path(b->dir, sizeof(b->dir), "%s/.batch/%s", run_dir, cells[0].id) < 0 ||
	    cb_path(b->console, sizeof(b->console), "%s/console.log", b->dir) < 0 ||
	    cb_path(path, sizeof(path), "%s/cells", b->dir) < 0 ||
	    cb_rm_rf(b->dir) < 0 || cb_mkdir_p(b->dir) < 0) {
		snprintf(err, errlen, "%s: cannot make the batch's directory: %s", b->dir,
			 strerror(errno));
		return -1;
	}
	list = malloc(nr * sizeof(cells[0].id) + 1);
	if (!list)
		return -1;
	for (size_t i = 0; i < nr; i++)
		len += (size_t)sprintf(list + len, "%s\n", cells[i].id);
	rc = cb_write_file_atomic(path, list, len);
	free(list);
	if (rc < 0) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	b->cells = cells;
	b->nr = nr;
	return 0;
}

const char *cb_qbatch_name(const struct cb_qbatch *b)
{
	return b->cells ? b->cells[0].id : "";
}

bool cb_qbatch_waits_for(const struct cb_qbatch *b, const struct cb_cell *cell)
{
	return b->cells && b->pid > 0 && b->next < b->nr && !strcmp(b->cells[b->next].id, cell->id);
}

bool cb_qbatch_last(const struct cb_qbatch *b, const struct cb_cell *cell)
{
	return !b->cells || !strcmp(b->cells[b->nr - 1].id, cell->id);
}

int cb_qbatch_go(struct cb_qbatch *b, const struct cb_cell *cell)
{
	char path[PATH_MAX];
	int fd;

	if (cb_path(path, sizeof(path), "%s/go.%s", b->dir, cell->id) < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	close(fd);
	for (size_t i = 0; i < b->nr; i++)
		if (!strcmp(b->cells[i].id, cell->id))
			b->next = i + 1;
	return 0;
}

void cb_qbatch_marker(const struct cb_cell *cell, bool end, char *buf, size_t size)
{
	snprintf(buf, size, "%s %s ", end ? CB_BATCH_END : CB_BATCH_START, cell->id);
}

/* the end of @cell's end line in @text, or NULL */
static const char *end_line(const char *text, const struct cb_cell *cell, const char **at)
{
	char mark[sizeof(cell->id) + 32];
	const char *p, *eol;

	cb_qbatch_marker(cell, true, mark, sizeof(mark));
	p = strstr(text, mark);
	if (!p || !(eol = strchr(p, '\n')))
		return NULL;
	if (at)
		*at = p + strlen(mark);
	return eol + 1;
}

int cb_qbatch_end_rc(const char *console, const struct cb_cell *cell)
{
	const char *num;

	if (!end_line(console, cell, &num))
		return -1;
	return atoi(num);
}

void cb_qbatch_console_split(struct cb_qbatch *b, const struct cb_cell *cell,
			     const char *cell_dir, bool to_eof)
{
	char path[PATH_MAX];
	size_t len;
	char *text = cb_read_file(b->console, &len);
	const char *end;
	size_t stop;

	if (!text || cb_path(path, sizeof(path), "%s/console.log", cell_dir) < 0) {
		free(text);
		return;
	}
	end = to_eof ? NULL : end_line(text, cell, NULL);
	stop = end ? (size_t)(end - text) : len;
	if (b->console_off > stop)
		b->console_off = stop;
	if (cb_write_file_atomic(path, text + b->console_off, stop - b->console_off) < 0)
		cb_log("%s: cannot write: %s", path, strerror(errno));
	b->console_off = stop;
	free(text);
}

void cb_qbatch_end(struct cb_qbatch *b)
{
	if (b->pid > 0) {
		kill(b->pid, SIGKILL);
		while (waitpid(b->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (b->cells && b->dir[0])
		cb_rm_rf(b->dir);
	memset(b, 0, sizeof(*b));
}
