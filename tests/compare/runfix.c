// SPDX-License-Identifier: GPL-2.0-only
/*
 * runfix.c - synthetic run directories (runfix.h)
 */
#include "runfix.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

const char *runfix_id(const struct runfix_cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s.%s.r%d", c->kernel, c->setting, c->workload, c->rep);
	return buf;
}

/* a fixture file: written plainly, without cb_write_file_atomic's fsync (nothing to keep) */
static int put(const char *dir, const char *id, const char *name, const char *text, size_t len)
{
	char path[4200];
	FILE *f;
	int rc;

	if (cb_path(path, sizeof(path), "%s/%s/%s", dir, id, name) < 0 || !(f = fopen(path, "w")))
		return -1;
	rc = fwrite(text, 1, len, f) == len ? 0 : -1;
	return fclose(f) == 0 ? rc : -1;
}

/* copy fixture @stem's file with @suffix to the cell's @name */
static int copy_fixture(const char *fixtures, const char *stem, const char *suffix,
			const char *dir, const char *id, const char *name)
{
	char path[4200], *data;
	size_t len;
	int rc;

	if (cb_path(path, sizeof(path), "%s/%s%s", fixtures, stem, suffix) < 0)
		return -1;
	data = cb_read_file(path, &len);
	if (!data)
		return -1;
	rc = put(dir, id, name, data, len);
	free(data);
	return rc;
}

/* the fixture's trace (v6 or v7), its vmstat files and a meta.json of status complete */
static int write_trace(const struct runfix *rf, const struct runfix_cell *c, const char *dir,
		       const char *id)
{
	char meta[1024];

	if (copy_fixture(rf->fixtures, c->trace, ".v6.dat", dir, id, "trace.dat") < 0 &&
	    copy_fixture(rf->fixtures, c->trace, ".v7.dat", dir, id, "trace.dat") < 0)
		return -1;
	if (copy_fixture(rf->fixtures, c->trace, ".vmstat.before", dir, id, "vmstat.before") < 0 ||
	    copy_fixture(rf->fixtures, c->trace, ".vmstat.after", dir, id, "vmstat.after") < 0)
		return -1;
	snprintf(meta, sizeof(meta), "{\"schema\":1,\"status\":\"complete\",\"cell\":{\"id\":\"%s\","
		 "\"kernel\":\"%s\",\"setting\":\"%s\",\"workload\":\"%s\",\"rep\":%d}}\n", id,
		 c->kernel, c->setting, c->workload, c->rep);
	return put(dir, id, "meta.json", meta, strlen(meta));
}

static int write_cell(const char *dir, const struct runfix *rf, const struct runfix_cell *c)
{
	char id[300], path[4200], text[1024];

	runfix_id(c, id, sizeof(id));
	if (cb_path(path, sizeof(path), "%s/%s", dir, id) < 0 || cb_mkdir_p(path) < 0)
		return -1;
	if (c->trace && write_trace(rf, c, dir, id) < 0)
		return -1;
	if (!c->metrics[0])
		return 0;
	/* written last: newer than the cell's inputs, so compare and gate take it as it is */
	snprintf(text, sizeof(text), "{\"schema\":1,\"lost_events\":%s,%s%s%s\"metrics\":{%s}}\n",
		 c->lost ? "true" : "false", c->start_state ? "\"start_state\":\"" : "",
		 c->start_state ? c->start_state : "", c->start_state ? "\"," : "", c->metrics);
	return put(dir, id, "summary.json", text, strlen(text));
}

int runfix_write(const char *dir, const struct runfix *rf, const struct runfix_cell *cells,
		 size_t n)
{
	char path[4200], id[300];
	FILE *f;

	cb_rm_rf(dir);
	if (cb_mkdir_p(dir) < 0 || cb_path(path, sizeof(path), "%s/run.json", dir) < 0)
		return -1;
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "{\"schema\":1,\"config_sha256\":\"%s\",\"tool_version\":\"t\",%s%s\"cells\":[",
		rf->sha ? rf->sha : "same", rf->head ? rf->head : "", rf->head ? "," : "");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s{\"id\":\"%s\",\"kernel\":\"%s\",\"setting\":\"%s\",\"workload\":\"%s\","
			   "\"rep\":%d,\"index\":%d}", i ? "," : "",
			runfix_id(&cells[i], id, sizeof(id)), cells[i].kernel, cells[i].setting,
			cells[i].workload, cells[i].rep, cells[i].index);
	fprintf(f, "%s%s]}\n", rf->extra_cells && n ? "," : "",
		rf->extra_cells ? rf->extra_cells : "");
	if (fclose(f) != 0)
		return -1;
	if (rf->config && put(dir, ".", "config.ini", rf->config, strlen(rf->config)) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!cells[i].no_dir && write_cell(dir, rf, &cells[i]) < 0)
			return -1;
	return 0;
}

size_t runfix_grid(struct runfix_cell *out, size_t max, const char *const *kernels,
		   const char *const *settings, const char *const *workloads, int reps)
{
	size_t n = 0;

	for (size_t k = 0; kernels[k]; k++)
		for (size_t s = 0; settings[s]; s++)
			for (size_t w = 0; workloads[w]; w++)
				for (int r = 1; r <= reps && n < max; r++, n++)
					out[n] = (struct runfix_cell){ .kernel = kernels[k],
						.setting = settings[s], .workload = workloads[w],
						.rep = r, .index = (int)n };
	return n;
}

/* point fd @fd at a new file @path; returns a dup of the old one, or -1 */
static int redirect(int fd, const char *path)
{
	int saved = dup(fd), f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (saved < 0 || f < 0 || dup2(f, fd) < 0) {
		if (saved >= 0)
			close(saved);
		if (f >= 0)
			close(f);
		return -1;
	}
	close(f);
	return saved;
}

int runfix_capture(int (*fn)(int, char **), char **argv, const char *tmp, char **out,
		   char **err)
{
	char po[4200], pe[4200];
	int so, se, argc = 0, rc;

	while (argv[argc])
		argc++;
	if (cb_path(po, sizeof(po), "%s/runfix.out", tmp) < 0 ||
	    cb_path(pe, sizeof(pe), "%s/runfix.err", tmp) < 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	so = redirect(1, po);
	se = redirect(2, pe);
	if (so < 0 || se < 0)
		return -1;
	rc = fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	*out = cb_read_file(po, NULL);
	*err = cb_read_file(pe, NULL);
	if (!*out || !*err)
		return -1;
	printf("%s%s", *out, *err);
	return rc;
}
