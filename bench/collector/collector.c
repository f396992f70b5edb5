// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench-collector - our collector against `trace-cmd record`, side by side in one run.
 *
 *   bench-collector [-r REPS] [-m MB] [-w base|thp] [-e EVENT]... [-b KB]
 *
 * Each repetition runs the same workload (faultburst base MB 0: one order-0 mm_page_alloc per
 * 4 KiB touched, several 100k events/s; -w thp: MADV_HUGEPAGE faults, for the cost of the
 * default-like events on a THP workload) three ways, in a rotating order: untraced, under
 * `compactbench record --no-probes`, and under `trace-cmd record` (through
 * ../shared/tools/trace-cmd-here where it exists, for machines that forbid function
 * tracing; plain trace-cmd elsewhere), both on the same events with the same per-CPU buffer
 * size. It prints per repetition and as medians:
 *  - each recorder's CPU time (user+sys of the recorder and its helpers, from wait4's
 *    rusage, less the workload's own CPU time, which it reports itself),
 *  - each recorder's lost events (`trace-cmd report --stat`: overrun + commit overrun +
 *    dropped events, which both files store) and the events in each file (libtracecmd),
 *  - the workload's wall and CPU time against the untraced run (its own clock and rusage,
 *    so the recorders' start and stop are not in it; the cost of writing the events is in
 *    the workload's system time),
 * as ratios: our CPU / trace-cmd's, and each slowdown. The trace-cmd-here wrapper adds a
 * bash start (a few ms) to trace-cmd's CPU time. Not a test: run by hand.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "util.h"

#define MAX_REPS 50
#define MAX_EVENTS 16

enum { UNTRACED, OURS, TRACECMD, NR_MODES };

static const char *const mode_name[NR_MODES] = { "untraced", "compactbench", "trace-cmd" };

struct result {
	double wl_s;		/* the workload's wall time (its own clock) */
	double wl_cpu_s;	/* the workload's CPU time (its own rusage) */
	double total_cpu_s;	/* wait4 rusage of what we started */
	double rec_cpu_s;	/* total less the workload */
	long long lost;
	long long events;
};

static char out[1 << 16];

/* run @argv with stdout+stderr into out[]; rusage of it and its reaped children */
static int run(char *const argv[], struct rusage *ru)
{
	size_t len = 0;
	int p[2], st;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	while ((n = read(p[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(p[0]);
	if (pid < 0 || wait4(pid, &st, 0, ru) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static double tv(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
}

/* the workload's JSON line: "seconds" and "cpu_s" */
static int parse_wl(struct result *r)
{
	const char *s = strstr(out, "\"seconds\":"), *c = strstr(out, "\"cpu_s\":");

	if (!s || !c)
		return -1;
	r->wl_s = strtod(s + 10, NULL);
	r->wl_cpu_s = strtod(c + 8, NULL);
	return 0;
}

static long long sum_key(const char *text, const char *key)
{
	size_t klen = strlen(key);
	long long sum = 0;
	const char *p;

	for (p = text; (p = strstr(p, key)); p += klen)
		if (p == text || p[-1] == '\n')
			sum += strtoll(p + klen, NULL, 10);
	return sum;
}

static int count_cb(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	(*(long long *)data)++;
	return 0;
}

/* events in @path (libtracecmd) and lost ones (trace-cmd report --stat) */
static int read_trace(const char *path, const char *tracecmd, struct result *r)
{
	char *argv[] = { (char *)tracecmd, "report", "--stat", (char *)path, NULL };
	struct tracecmd_input *h = tracecmd_open(path, 0);
	struct rusage ru;

	if (!h)
		return -1;
	r->events = 0;
	tracecmd_iterate_events(h, NULL, 0, count_cb, &r->events);
	tracecmd_close(h);
	if (run(argv, &ru) != 0)
		return -1;
	r->lost = sum_key(out, "overrun: ") + sum_key(out, "commit overrun: ") +
		  sum_key(out, "dropped events: ");
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct setup {
	char compactbench[PATH_MAX], faultburst[PATH_MAX], tc_here[PATH_MAX], dir[64];
	const char *events[MAX_EVENTS];
	int nr_events;
	char mb[16], kb[16];
	const char *wl_mode;
};

/* one run of @mode into @r; returns 0 or -1 after a message */
static int one(const struct setup *s, int mode, struct result *r)
{
	char path[PATH_MAX], *argv[64];
	struct rusage ru;
	int i, n = 0, ret;

	snprintf(path, sizeof(path), "%s/%s.dat", s->dir, mode_name[mode]);
	if (mode == OURS) {
		argv[n++] = (char *)s->compactbench;
		argv[n++] = "record";
		argv[n++] = "--no-probes";
		argv[n++] = "-b";
		argv[n++] = (char *)s->kb;
		argv[n++] = "-o";
		argv[n++] = path;
		for (i = 0; i < s->nr_events; i++) {
			argv[n++] = "-e";
			argv[n++] = (char *)s->events[i];
		}
		argv[n++] = "--";
	} else if (mode == TRACECMD) {
		if (s->tc_here[0]) {
			argv[n++] = "bash";
			argv[n++] = (char *)s->tc_here;
		} else {
			argv[n++] = "trace-cmd";
		}
		argv[n++] = "record";
		argv[n++] = "-q";
		argv[n++] = "-b";
		argv[n++] = (char *)s->kb;
		argv[n++] = "-o";
		argv[n++] = path;
		for (i = 0; i < s->nr_events; i++) {
			argv[n++] = "-e";
			argv[n++] = (char *)s->events[i];
		}
	}
	argv[n++] = (char *)s->faultburst;
	argv[n++] = (char *)s->wl_mode;
	argv[n++] = (char *)s->mb;
	argv[n++] = "0";
	argv[n] = NULL;
	memset(r, 0, sizeof(*r));
	ret = run(argv, &ru);
	if (ret != 0 || parse_wl(r) < 0) {
		fprintf(stderr, "bench-collector: %s run failed (%d):\n%s\n", mode_name[mode], ret, out);
		return -1;
	}
	r->total_cpu_s = tv(ru.ru_utime) + tv(ru.ru_stime);
	r->rec_cpu_s = mode == UNTRACED ? 0 : r->total_cpu_s - r->wl_cpu_s;
	if (mode != UNTRACED) {
		if (read_trace(path, "trace-cmd", r) < 0) {
			fprintf(stderr, "bench-collector: cannot read %s:\n%s\n", path, out);
			return -1;
		}
		unlink(path);
	}
	return 0;
}

/* paths beside this program in the build tree, and the wrapper in the source tree */
static int find_tools(struct setup *s, const char *argv0)
{
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return -1;
	self[n] = '\0';
	slash = strrchr(self, '/');
	*slash = '\0';		/* .../build/bench */
	snprintf(s->compactbench, sizeof(s->compactbench), "%s/../compactbench", self);
	snprintf(s->faultburst, sizeof(s->faultburst), "%s/../tests/collector/faultburst", self);
	snprintf(s->tc_here, sizeof(s->tc_here), "%s/../shared/tools/trace-cmd-here",
		 CB_SOURCE_ROOT);
	if (access(s->tc_here, R_OK))
		s->tc_here[0] = '\0';	/* a machine where trace-cmd works unaided */
	return access(s->compactbench, X_OK) || access(s->faultburst, X_OK) ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const char *const def_events[] = { "kmem:mm_page_alloc", "sched:sched_process_fork",
						  "sched:sched_process_exec" };
	struct result res[MAX_REPS][NR_MODES], warm;
	double v[NR_MODES][MAX_REPS], cpu_ratio[MAX_REPS], slow[NR_MODES][MAX_REPS];
	double wall[NR_MODES][MAX_REPS], wcpu[NR_MODES][MAX_REPS], mw[NR_MODES], mc[NR_MODES];
	long long lost[NR_MODES] = { 0 };
	struct setup s = { 0 };
	int reps = 5, opt, r, k, m;
	long long mb = 1024, kb = 16384, x;

	s.wl_mode = "base";
	while ((opt = getopt(argc, argv, "r:m:e:b:w:")) != -1) {
		if (opt == 'r' && cb_parse_long(optarg, 1, MAX_REPS, &x) == 0)
			reps = x;
		else if (opt == 'm' && cb_parse_long(optarg, 16, 1 << 20, &x) == 0)
			mb = x;
		else if (opt == 'b' && cb_parse_long(optarg, 64, 1 << 22, &x) == 0)
			kb = x;
		else if (opt == 'w' && (!strcmp(optarg, "base") || !strcmp(optarg, "thp")))
			s.wl_mode = optarg;
		else if (opt == 'e' && s.nr_events < MAX_EVENTS)
			s.events[s.nr_events++] = optarg;
		else {
			fprintf(stderr, "usage: bench-collector [-r REPS] [-m MB] [-w base|thp] "
				"[-e EVENT]... [-b KB]\n");
			return 2;
		}
	}
	for (k = 0; !s.nr_events && k < 3; k++)
		s.events[k] = def_events[k];
	if (!s.nr_events)
		s.nr_events = 3;
	snprintf(s.mb, sizeof(s.mb), "%lld", mb);
	snprintf(s.kb, sizeof(s.kb), "%lld", kb);
	snprintf(s.dir, sizeof(s.dir), "/tmp/bench-collector-XXXXXX");
	if (geteuid() != 0 || find_tools(&s, argv[0]) < 0 || !mkdtemp(s.dir)) {
		fprintf(stderr, "bench-collector: needs root, %s and %s\n", s.compactbench,
			s.faultburst);
		return 1;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	printf("workload: faultburst %s %lld 0; events:", s.wl_mode, mb);
	for (k = 0; k < s.nr_events; k++)
		printf(" %s", s.events[k]);
	printf("; buffer %lld KiB per CPU; trace-cmd %s\n", kb, s.tc_here[0] ? s.tc_here : "(plain)");
	/* warm the memory up (this host backs it lazily) and build the shim */
	if (one(&s, UNTRACED, &warm) < 0 || one(&s, TRACECMD, &warm) < 0)
		return 1;
	printf("%-3s %-12s %8s %9s %9s %10s %10s %9s %9s\n", "rep", "recorder", "wl_s", "wl_cpu_s",
	       "rec_cpu_s", "events", "events/s", "lost", "slowdown");
	for (r = 0; r < reps; r++) {
		for (k = 0; k < NR_MODES; k++) {
			m = (k + r) % NR_MODES;	/* rotate the order */
			if (one(&s, m, &res[r][m]) < 0)
				return 1;
		}
		for (m = 0; m < NR_MODES; m++) {
			struct result *e = &res[r][m];

			slow[m][r] = e->wl_s / res[r][UNTRACED].wl_s - 1;
			printf("%-3d %-12s %8.3f %9.3f %9.3f %10lld %10.0f %9lld %8.1f%%\n", r, mode_name[m],
			       e->wl_s, e->wl_cpu_s, e->rec_cpu_s, e->events, e->events / e->wl_s,
			       e->lost, 100 * slow[m][r]);
			v[m][r] = e->rec_cpu_s;
			wall[m][r] = e->wl_s;
			wcpu[m][r] = e->wl_cpu_s;
			lost[m] += e->lost;
		}
		cpu_ratio[r] = res[r][OURS].rec_cpu_s / res[r][TRACECMD].rec_cpu_s;
	}
	printf("\nmedians over %d repetitions:\n", reps);
	printf("  recorder CPU: compactbench %.3f s, trace-cmd %.3f s, ratio %.2f (target <= 1.0, "
	       "aim 0.5)\n", median(v[OURS], reps), median(v[TRACECMD], reps),
	       median(cpu_ratio, reps));
	for (m = 0; m < NR_MODES; m++) {
		mw[m] = median(wall[m], reps);
		mc[m] = median(wcpu[m], reps);
	}
	printf("  workload wall time: untraced %.3f s, compactbench %.3f s (%+.1f%%), trace-cmd "
	       "%.3f s (%+.1f%%)\n", mw[UNTRACED], mw[OURS], 100 * (mw[OURS] / mw[UNTRACED] - 1),
	       mw[TRACECMD], 100 * (mw[TRACECMD] / mw[UNTRACED] - 1));
	printf("  workload CPU time: untraced %.3f s, compactbench %.3f s (%+.1f%%), trace-cmd "
	       "%.3f s (%+.1f%%)\n", mc[UNTRACED], mc[OURS], 100 * (mc[OURS] / mc[UNTRACED] - 1),
	       mc[TRACECMD], 100 * (mc[TRACECMD] / mc[UNTRACED] - 1));
	printf("  median of per-repetition slowdowns: compactbench %+.1f%%, trace-cmd %+.1f%%\n",
	       100 * median(slow[OURS], reps), 100 * median(slow[TRACECMD], reps));
	printf("  lost events (sum): compactbench %lld, trace-cmd %lld\n", lost[OURS], lost[TRACECMD]);
	cb_rm_rf(s.dir);
	return 0;
}
