// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_analyzer - the analyzer's speed and memory against its limits, side by side on one
 * trace.dat (not a test; run by hand, bench/analyzer/README.md):
 *
 *   bare       libtracecmd opening the file and iterating every record with a callback that
 *              does nothing: the limit no reader on top of libtracecmd can beat
 *   report     `trace-cmd report FILE > /dev/null`: what a developer runs today
 *   analyze    `compactbench analyze FILE > /dev/null`: the page check, the stall rule,
 *              attribution and the summary
 *
 * Each runs in its own process (so peak RSS is its own, from wait4's ru_maxrss, which
 * covers the analyzer's forked reader too), once to warm the page cache and then --reps
 * times; the fastest wall time and the smallest CPU time (user + system, children
 * included: less sensitive to other load on a shared machine) are reported. Ratios: report / analyze (how much faster the
 * analyzer is than trace-cmd report; the issue asks >= 5) and analyze / bare (its overhead
 * over the limit; the issue asks <= 1.5).
 *
 *   bench_analyzer [--reps N] [--only bare|report|analyze] [--compactbench PATH]
 *                  [--trace-cmd PATH] FILE.dat
 *   bench_analyzer --bare FILE.dat
 *
 * --only runs one of the three (no ratios); --bare runs the bare iteration once in this
 * process and prints the number of records, for a profiler or callgrind to count it
 * against `compactbench analyze` on the same file.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

extern char **environ;

struct result {
	double secs;	/* wall */
	double cpu;	/* user + system of the process and its waited-for children */
	long maxrss_kb;
	int status;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int count_one(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	(*(unsigned long long *)data)++;
	return 0;
}

/* the bare iteration, in this (child) process; prints the number of records to @fd */
static int bare(const char *path, int fd)
{
	struct tracecmd_input *h;
	unsigned long long n = 0;
	char buf[32];
	int len;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h)
		return 1;
	if (tracecmd_iterate_events(h, NULL, 0, count_one, &n) < 0)
		return 1;
	tracecmd_close(h);
	len = snprintf(buf, sizeof(buf), "%llu\n", n);
	return write(fd, buf, len) == len ? 0 : 1;
}

/* run @argv (NULL: the bare iteration of @path) with stdout to /dev/null; time it */
static int run(char *const *argv, const char *path, struct result *r, unsigned long long *events)
{
	struct rusage ru;
	int p[2] = { -1, -1 }, st;
	double t0;
	pid_t pid;

	if (!argv && pipe(p) < 0)
		return -1;
	fflush(NULL);
	t0 = now();
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int dn = open("/dev/null", O_WRONLY);

		dup2(dn, 1);
		dup2(dn, 2);
		if (!argv) {
			close(p[0]);
			_exit(bare(path, p[1]));
		}
		execve(argv[0], argv, environ);
		_exit(127);
	}
	if (!argv)
		close(p[1]);
	if (wait4(pid, &st, 0, &ru) != pid)
		return -1;
	r->secs = now() - t0;
	r->cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
		 ru.ru_stime.tv_usec / 1e6;
	r->maxrss_kb = ru.ru_maxrss;
	r->status = st;
	if (!argv) {
		char buf[32] = "";
		ssize_t n = read(p[0], buf, sizeof(buf) - 1);

		close(p[0]);
		if (n > 0 && events)
			*events = strtoull(buf, NULL, 10);
	}
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* the fastest of @reps runs after one warm-up; the largest RSS seen */
static int best(char *const *argv, const char *path, int reps, struct result *out,
		unsigned long long *events)
{
	struct result r;
	int i;

	if (run(argv, path, &r, events))
		return -1;
	*out = r;
	for (i = 0; i < reps; i++) {
		if (run(argv, path, &r, NULL))
			return -1;
		if (r.secs < out->secs)
			out->secs = r.secs;
		if (r.cpu < out->cpu)
			out->cpu = r.cpu;
		if (r.maxrss_kb > out->maxrss_kb)
			out->maxrss_kb = r.maxrss_kb;
	}
	return 0;
}

static void line(const char *name, const struct result *r, unsigned long long events)
{
	printf("%-10s %8.3f s wall %8.3f s CPU %12.0f events/s %8.1f MiB peak RSS\n", name,
	       r->secs, r->cpu, events / r->secs, r->maxrss_kb / 1024.0);
}

/* --only NAME: that one alone, its line and nothing else */
static int run_one(const char *name, const char *tc, const char *cb, const char *path, int reps)
{
	char *rep[] = { (char *)tc, (char *)"report", (char *)path, NULL };
	char *an[] = { (char *)cb, (char *)"analyze", (char *)path, NULL };
	char *const *argv = !strcmp(name, "bare") ? NULL : !strcmp(name, "report") ? rep : an;
	unsigned long long events = 0;
	struct result r;

	if (best(NULL, path, 0, &r, &events) ||
	    (argv && best(argv, path, reps, &r, NULL)) || (!argv && best(NULL, path, reps, &r, NULL))) {
		fprintf(stderr, "bench_analyzer: %s on %s failed\n", name, path);
		return 1;
	}
	printf("trace %s: %llu events; fastest of %d runs after a warm-up\n", path, events, reps);
	line(name, &r, events);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cb = "build/compactbench", *tc = "/usr/bin/trace-cmd", *path = NULL;
	struct result rb, rr, ra;
	unsigned long long events = 0;
	struct stat sb;
	const char *only = NULL;
	int reps = 3, i, in_proc = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--compactbench") && i + 1 < argc)
			cb = argv[++i];
		else if (!strcmp(argv[i], "--trace-cmd") && i + 1 < argc)
			tc = argv[++i];
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--bare"))
			in_proc = 1;
		else if (argv[i][0] == '-' || path)
			goto usage;
		else
			path = argv[i];
	}
	if (!path || stat(path, &sb) < 0)
		goto usage;
	if (only && strcmp(only, "bare") && strcmp(only, "report") && strcmp(only, "analyze"))
		goto usage;
	if (in_proc)
		return bare(path, 1);
	if (only)
		return run_one(only, tc, cb, path, reps);
	{
		char *rep[] = { (char *)tc, (char *)"report", (char *)path, NULL };
		char *an[] = { (char *)cb, (char *)"analyze", (char *)path, NULL };

		if (best(NULL, path, reps, &rb, &events)) {
			fprintf(stderr, "bench_analyzer: %s: libtracecmd cannot read it\n", path);
			return 1;
		}
		if (best(rep, path, reps, &rr, NULL)) {
			fprintf(stderr, "bench_analyzer: %s report %s failed\n", tc, path);
			return 1;
		}
		if (best(an, path, reps, &ra, NULL)) {
			fprintf(stderr, "bench_analyzer: %s analyze %s failed\n", cb, path);
			return 1;
		}
	}
	printf("trace %s: %.1f MiB, %llu events; fastest of %d runs after a warm-up\n", path,
	       sb.st_size / 1048576.0, events, reps);
	line("bare", &rb, events);
	line("report", &rr, events);
	line("analyze", &ra, events);
	printf("report / analyze = %.2fx wall, %.2fx CPU (target >= 5)\n", rr.secs / ra.secs,
	       rr.cpu / ra.cpu);
	printf("analyze / bare   = %.2fx wall, %.2fx CPU (target <= 1.5)\n", ra.secs / rb.secs,
	       ra.cpu / rb.cpu);
	printf("analyze peak RSS = %.1f MiB (target <= 64 MiB for a 1 GiB trace)\n",
	       ra.maxrss_kb / 1024.0);
	return 0;
usage:
	fprintf(stderr, "usage: bench_analyzer [--reps N] [--only bare|report|analyze] "
		"[--compactbench PATH] [--trace-cmd PATH] FILE.dat\n"
		"       bench_analyzer --bare FILE.dat\n");
	return 2;
}
