// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpustat.c - CPU time of kcompactd and khugepaged from /proc/<pid>/schedstat or stat; of a
 * whole process and of the whole host from /proc/<pid>/stat and /proc/stat.
 */
#include "cpustat.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool cb_cpu_is_background(const char *comm)
{
	return !strncmp(comm, "kcompactd", 9) || !strcmp(comm, "khugepaged");
}

/* clock ticks (USER_HZ) to ns */
static uint64_t ticks_ns(unsigned long long ticks)
{
	long hz = sysconf(_SC_CLK_TCK);

	return ticks * (1000000000ULL / (unsigned long long)(hz > 0 ? hz : 100));
}

/* utime + stime (fields 14 and 15) of a /proc/<pid>/stat line, in clock ticks */
static int stat_ticks(const char *text, unsigned long long *ticks)
{
	const char *p = strrchr(text, ')');	/* comm may hold spaces and parentheses */
	unsigned long long ut, st;

	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2) {
		errno = EINVAL;
		return -1;
	}
	*ticks = ut + st;
	return 0;
}

int cb_cpu_process_ns(const char *root, int pid, uint64_t *ns)
{
	char path[PATH_MAX], *text;
	unsigned long long v;
	int rc;

	if (cb_path(path, sizeof(path), "%s/proc/%d/stat", root ? root : "", pid) < 0 ||
	    !(text = cb_read_file(path, NULL)))
		return -1;
	rc = stat_ticks(text, &v);
	free(text);
	if (rc == 0)
		*ns = ticks_ns(v);
	return rc;
}

int cb_cpu_task_ns(const char *root, int pid, uint64_t *ns, char *source)
{
	char path[PATH_MAX], *text;
	unsigned long long v;

	root = root ? root : "";
	if (cb_path(path, sizeof(path), "%s/proc/%d/schedstat", root, pid) == 0 &&
	    (text = cb_read_file(path, NULL))) {
		int ok = sscanf(text, "%llu", &v) == 1;

		free(text);
		if (ok) {
			*ns = v;
			if (source)
				snprintf(source, 12, "schedstat");
			return 0;
		}
	}
	/* the coarser fallback: /proc/<pid>/stat, all of a kernel thread's time */
	if (cb_cpu_process_ns(root, pid, ns) < 0)
		return -1;
	if (source)
		snprintf(source, 12, "stat");
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int cb_cpu_snapshot(const char *root, char **text)
{
	char path[PATH_MAX], comm[64], src[12];
	int pids[CB_CPU_MAX_TASKS], n = 0, i;
	struct dirent *de;
	size_t len = 0;
	FILE *out;
	DIR *d;

	root = root ? root : "";
	if (cb_path(path, sizeof(path), "%s/proc", root) < 0 || !(d = opendir(path)))
		return -1;
	while ((de = readdir(d)) && n < CB_CPU_MAX_TASKS) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (cb_path(path, sizeof(path), "%s/proc/%s/comm", root, de->d_name) < 0 ||
		    cb_read_trimmed(path, comm, sizeof(comm)) < 0 || !cb_cpu_is_background(comm))
			continue;
		pids[n++] = atoi(de->d_name);
	}
	closedir(d);
	qsort(pids, n, sizeof(pids[0]), cmp_int);	/* the same order every time */
	out = open_memstream(text, &len);
	if (!out)
		return -1;
	fprintf(out, "# compactbench cpu 1: pid comm source ns\n");
	for (i = 0; i < n; i++) {
		uint64_t ns;

		if (cb_path(path, sizeof(path), "%s/proc/%d/comm", root, pids[i]) < 0 ||
		    cb_read_trimmed(path, comm, sizeof(comm)) < 0 ||
		    cb_cpu_task_ns(root, pids[i], &ns, src) < 0)
			continue;	/* it exited meanwhile */
		fprintf(out, "%d %s %s %llu\n", pids[i], comm, src, (unsigned long long)ns);
	}
	if (fclose(out))
		return -1;
	return n;
}

int cb_cpu_parse(const char *text, struct cb_cpu_snap *out, int *bad_line)
{
	const char *p = text;
	char line[256];
	int ln = 0;

	memset(out, 0, sizeof(*out));
	while (cb_next_line(&p, line, sizeof(line), &ln)) {
		struct cb_cpu_task *t;
		unsigned long long ns;

		if (cb_line_skip(line))
			continue;
		if (out->n == CB_CPU_MAX_TASKS)
			return cb_bad_line(bad_line, ln);
		t = &out->t[out->n];
		if (sscanf(line, "%d %31s %11s %llu", &t->pid, t->comm, t->source, &ns) != 4 ||
		    t->pid <= 0)
			return cb_bad_line(bad_line, ln);
		t->ns = ns;
		out->n++;
	}
	return 0;
}

void cb_cpu_delta(const struct cb_cpu_snap *b, const struct cb_cpu_snap *a, struct cb_cpu_delta *d)
{
	int i, j;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < a->n; i++) {
		for (j = 0; j < b->n; j++)
			if (b->t[j].pid == a->t[i].pid && !strcmp(b->t[j].comm, a->t[i].comm))
				break;
		if (j == b->n || a->t[i].ns < b->t[j].ns)
			continue;
		if (!d->tasks)
			snprintf(d->source, sizeof(d->source), "%s", a->t[i].source);
		else if (strcmp(d->source, a->t[i].source))
			snprintf(d->source, sizeof(d->source), "mixed");
		d->tasks++;
		if (!strcmp(a->t[i].comm, "khugepaged"))
			d->khugepaged_ns += a->t[i].ns - b->t[j].ns;
		else
			d->kcompactd_ns += a->t[i].ns - b->t[j].ns;
	}
}

int cb_cpu_host_busy_ns(const char *root, uint64_t *busy_ns, long *ncpu)
{
	unsigned long long user, nice, sys, idle, iowait, irq, softirq, steal;
	char path[PATH_MAX], *text, *line;
	long n = 0;

	if (cb_path(path, sizeof(path), "%s/proc/stat", root ? root : "") < 0 ||
	    !(text = cb_read_file(path, NULL)))
		return -1;
	if (strncmp(text, "cpu ", 4) ||
	    sscanf(text + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys, &idle,
		   &iowait, &irq, &softirq, &steal) != 8) {
		free(text);
		errno = EINVAL;
		return -1;
	}
	for (line = strchr(text, '\n'); line; line = strchr(line + 1, '\n'))
		n += !strncmp(line + 1, "cpu", 3) && isdigit((unsigned char)line[4]);
	free(text);
	*busy_ns = ticks_ns(user + nice + sys + irq + softirq + steal);
	if (ncpu)
		*ncpu = n;
	return 0;
}
