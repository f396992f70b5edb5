// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_state.c - what every layer above core shares about the run in progress: the log line,
 * the interrupt flag, the last error, where the workload programs are (run.h).
 */
#include "run.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t cb_interrupted;

void cb_run_set_err(struct cb_run *run, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(run->err, sizeof(run->err), fmt, ap);
	va_end(ap);
}

void cb_log(const char *fmt, ...)
{
	char msg[8192];
	va_list ap;

	/* one write per line: cells running at once (--jobs) must not mix their lines */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "compactbench: %s\n", msg);
}

void cb_log_line(const char *msg)
{
	cb_log("%s", msg);
}

/* where the workload programs are: $COMPACTBENCH_WORKLOADS, else beside our binary */
int cb_find_workloads(struct cb_run *run)
{
	const char *env = getenv("COMPACTBENCH_WORKLOADS");
	char self[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return cb_path(run->workloads_dir, sizeof(run->workloads_dir), "%s", env);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return -1;
	self[n] = '\0';
	return cb_path(run->workloads_dir, sizeof(run->workloads_dir), "%s/workloads", dirname(self));
}

int cb_workload_program(const struct cb_run *run, const struct wl_info *wl, char *buf, size_t size)
{
	if (wl->path)
		return cb_path(buf, size, "%s", wl->path);
	return cb_path(buf, size, "%s/%s", run->workloads_dir, wl->name);
}

int cb_dir_nonempty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return errno == ENOENT ? 0 : -1;
	while (!n && (e = readdir(d)))
		n = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}
