// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench-collector - our collector against `trace-cmd record`: the fixed start/stop cost and
 * the steady-state cost per event, apart.
 *
 *   bench-collector [-t TRACE_CMD] [-n PAIRS] [-d SECONDS] [-m MB] [-b KB] [-e EVENT]...
 *
 * Each round runs, in an order that rotates from round to round (a drift of the machine
 * falls on both recorders alike), both recorders (`compactbench record --no-probes` and
 * `TRACE_CMD record`, same events, same per-CPU buffer size) around two loads:
 *   idle  `sleep SECONDS`: the recorder's CPU here is its fixed cost (start, SECONDS of
 *         waiting with almost nothing to move, stop and the trace file);
 *   load  `faultburst base MB SECONDS`: page faults for SECONDS, one kmem:mm_page_alloc
 *         per 4 KiB touched (millions of events).
 * A recorder's CPU is user+sys of it and its helpers (wait4's rusage) less the workload's own
 * CPU (which faultburst reports). Its cost per event is
 *   (CPU under load - CPU idle, the same round) / events kept in the file (libtracecmd),
 * so the fixed part is out of it. Lost events are what each trace file's per-CPU stats say
 * (overrun + commit overrun + dropped events, `TRACE_CMD report --stat`).
 * Printed: every run, then the medians over the rounds of each recorder's figures and of the
 * paired ratios ours / trace-cmd's, with a 95% percentile-bootstrap CI of the median ratio
 * (cb_stats_bootstrap_median, the code the verdicts use).
 *
 * TRACE_CMD (-t, or $CB_TRACE_CMD) is the trace-cmd to compare with, e.g. a wrapper for
 * machines that forbid function tracing; without one the benchmark says so and exits 77.
 * Needs root and tracefs; take the host's tracing lock around it. Not a test: run by hand,
 * see bench/collector/README.md.
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

#include "stats.h"
#include "util.h"

#define MAX_PAIRS 50
#define MAX_EVENTS 16
#define SKIP 77

enum { OURS, TRACECMD, NR_RECS };
enum { IDLE, LOAD, NR_LOADS };

static const char *const rec_name[NR_RECS] = { "compactbench", "trace-cmd" };
static const char *const load_name[NR_LOADS] = { "idle", "load" };

struct result {
	double wall_s;		/* the recorder from fork to exit */
	double wl_cpu_s;	/* the workload's CPU time (its own rusage; idle: 0) */
	double rec_cpu_s;	/* wait4 rusage of what we started, less the workload */
	long long lost;
	long long events;
};

struct setup {
	char compactbench[PATH_MAX], faultburst[PATH_MAX], dir[64];
	const char *tracecmd;
	const char *events[MAX_EVENTS];
	int nr_events;
	char mb[16], kb[16], secs[16];
};

static char out[1 << 16];

/* run @argv with stdout+stderr into out[]; rusage of it and its reaped children */
static int run(char *const argv[], struct rusage *ru, double *wall)
{
	uint64_t t0 = cb_now_ns();
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
	if (wall)
		*wall = (cb_now_ns() - t0) / 1e9;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static double tv(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
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

/* events in @path (libtracecmd) and lost ones (TRACE_CMD report --stat) */
static int read_trace(const struct setup *s, const char *path, struct result *r)
{
	char *argv[] = { (char *)s->tracecmd, "report", "--stat", (char *)path, NULL };
	struct tracecmd_input *h = tracecmd_open(path, 0);
	struct rusage ru;

	if (!h)
		return -1;
	r->events = 0;
	tracecmd_iterate_events(h, NULL, 0, count_cb, &r->events);
	tracecmd_close(h);
	if (run(argv, &ru, NULL) != 0)
		return -1;
	r->lost = sum_key(out, "overrun: ") + sum_key(out, "commit overrun: ") +
		  sum_key(out, "dropped events: ");
	return 0;
}

/* the recorder's part of argv[] for @rec writing @path; returns the next free slot */
static int recorder_args(const struct setup *s, int rec, const char *path, char **argv)
{
	int i, n = 0;

	if (rec == OURS) {
		argv[n++] = (char *)s->compactbench;
		argv[n++] = "record";
		argv[n++] = "--no-probes";
	} else {
		argv[n++] = (char *)s->tracecmd;
		argv[n++] = "record";
		argv[n++] = "-q";
	}
	argv[n++] = "-b";
	argv[n++] = (char *)s->kb;
	argv[n++] = "-o";
	argv[n++] = (char *)path;
	for (i = 0; i < s->nr_events; i++) {
		argv[n++] = "-e";
		argv[n++] = (char *)s->events[i];
	}
	if (rec == OURS)
		argv[n++] = "--";
	return n;
}

/* one run of recorder @rec around @load into @r; returns 0 or -1 after a message */
static int one(const struct setup *s, int rec, int load, struct result *r)
{
	char path[PATH_MAX], *argv[64];
	const char *c;
	struct rusage ru;
	int n, ret;

	snprintf(path, sizeof(path), "%s/%s-%s.dat", s->dir, rec_name[rec], load_name[load]);
	n = recorder_args(s, rec, path, argv);
	if (load == IDLE) {
		argv[n++] = "sleep";
		argv[n++] = (char *)s->secs;
	} else {
		argv[n++] = (char *)s->faultburst;
		argv[n++] = "base";
		argv[n++] = (char *)s->mb;
		argv[n++] = (char *)s->secs;
	}
	argv[n] = NULL;
	memset(r, 0, sizeof(*r));
	ret = run(argv, &ru, &r->wall_s);
	c = strstr(out, "\"cpu_s\":");
	if (ret != 0 || (load == LOAD && !c)) {
		fprintf(stderr, "bench-collector: %s around %s failed (%d):\n%s\n", rec_name[rec],
			load_name[load], ret, out);
		return -1;
	}
	r->wl_cpu_s = c ? strtod(c + 8, NULL) : 0;
	r->rec_cpu_s = tv(ru.ru_utime) + tv(ru.ru_stime) - r->wl_cpu_s;
	if (read_trace(s, path, r) < 0) {
		fprintf(stderr, "bench-collector: cannot read %s:\n%s\n", path, out);
		return -1;
	}
	unlink(path);
	return 0;
}

/* paths beside this program in the build tree */
static int find_tools(struct setup *s)
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
	return access(s->compactbench, X_OK) || access(s->faultburst, X_OK) ? -1 : 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: bench-collector [-t TRACE_CMD] [-n PAIRS] [-d SECONDS] [-m MB] "
		"[-b KB] [-e EVENT]...\n");
	return 2;
}

static int parse_args(int argc, char **argv, struct setup *s, int *pairs)
{
	static const char *const def_events[] = { "kmem:mm_page_alloc", "sched:sched_process_fork",
						  "sched:sched_process_exec" };
	long long mb = 256, kb = 16384, secs = 5, x;
	int opt, k;

	*pairs = 11;
	s->tracecmd = getenv("CB_TRACE_CMD");
	while ((opt = getopt(argc, argv, "t:n:d:m:e:b:")) != -1) {
		if (opt == 't')
			s->tracecmd = optarg;
		else if (opt == 'n' && cb_parse_long(optarg, 2, MAX_PAIRS, &x) == 0)
			*pairs = x;
		else if (opt == 'd' && cb_parse_long(optarg, 1, 600, &x) == 0)
			secs = x;
		else if (opt == 'm' && cb_parse_long(optarg, 16, 1 << 20, &x) == 0)
			mb = x;
		else if (opt == 'b' && cb_parse_long(optarg, 64, 1 << 22, &x) == 0)
			kb = x;
		else if (opt == 'e' && s->nr_events < MAX_EVENTS)
			s->events[s->nr_events++] = optarg;
		else
			return usage();
	}
	for (k = 0; !s->nr_events && k < 3; k++)
		s->events[k] = def_events[k];
	if (!s->nr_events)
		s->nr_events = 3;
	snprintf(s->mb, sizeof(s->mb), "%lld", mb);
	snprintf(s->kb, sizeof(s->kb), "%lld", kb);
	snprintf(s->secs, sizeof(s->secs), "%lld", secs);
	return 0;
}

/* the median of @x[0..n) and its 95% bootstrap CI, printed after @label */
static void print_median(const char *label, const double *x, int n, double scale, const char *unit)
{
	struct cb_ci ci = { NAN, NAN };

	cb_stats_bootstrap_median(x, n, 0.95, 1, 10000, &ci);
	printf("  %-34s %10.3f %s  CI [%.3f, %.3f]\n", label, scale * cb_stats_median(x, n), unit,
	       scale * ci.lo, scale * ci.hi);
}

struct figures {
	double fixed[NR_RECS][MAX_PAIRS], per_ev[NR_RECS][MAX_PAIRS];
	double fixed_ratio[MAX_PAIRS], per_ev_ratio[MAX_PAIRS], events[NR_RECS][MAX_PAIRS];
	long long lost[NR_RECS], lost_max[NR_RECS];
};

/* one round: the four runs in a rotating order, its figures into @f */
static int round_run(const struct setup *s, int r, struct figures *f)
{
	struct result res[NR_RECS][NR_LOADS];
	int k, rec, load;

	for (k = 0; k < NR_RECS * NR_LOADS; k++) {
		int i = (k + r) % (NR_RECS * NR_LOADS);

		/* odd rounds take the recorders the other way round */
		rec = (r % 2 ? 1 - i % NR_RECS : i % NR_RECS);
		load = i / NR_RECS;
		if (one(s, rec, load, &res[rec][load]) < 0)
			return -1;
	}
	for (rec = 0; rec < NR_RECS; rec++) {
		struct result *id = &res[rec][IDLE], *ld = &res[rec][LOAD];

		for (load = 0; load < NR_LOADS; load++) {
			struct result *e = &res[rec][load];

			printf("%-3d %-12s %-4s %8.3f %9.3f %9.3f %10lld %8lld\n", r, rec_name[rec],
			       load_name[load], e->wall_s, e->wl_cpu_s, e->rec_cpu_s, e->events, e->lost);
			f->lost[rec] += e->lost;
			if (e->lost > f->lost_max[rec])
				f->lost_max[rec] = e->lost;
		}
		f->fixed[rec][r] = id->rec_cpu_s;
		f->events[rec][r] = ld->events;
		f->per_ev[rec][r] = ld->events > 0 ? (ld->rec_cpu_s - id->rec_cpu_s) / ld->events : NAN;
	}
	f->fixed_ratio[r] = f->fixed[OURS][r] / f->fixed[TRACECMD][r];
	f->per_ev_ratio[r] = f->per_ev[OURS][r] / f->per_ev[TRACECMD][r];
	fflush(stdout);
	return 0;
}

static void report(const struct figures *f, int pairs)
{
	int rec;

	printf("\nmedians over %d interleaved pairs (95%% bootstrap CI of the median):\n", pairs);
	for (rec = 0; rec < NR_RECS; rec++) {
		char label[64];

		snprintf(label, sizeof(label), "fixed cost, %s", rec_name[rec]);
		print_median(label, f->fixed[rec], pairs, 1e3, "ms CPU");
		snprintf(label, sizeof(label), "per event, %s", rec_name[rec]);
		print_median(label, f->per_ev[rec], pairs, 1e9, "ns CPU");
		snprintf(label, sizeof(label), "events kept, %s", rec_name[rec]);
		print_median(label, f->events[rec], pairs, 1e-6, "M");
	}
	print_median("fixed cost, ours / trace-cmd", f->fixed_ratio, pairs, 1, "x");
	print_median("per event, ours / trace-cmd", f->per_ev_ratio, pairs, 1, "x (goal <= 0.5)");
	printf("  lost events: compactbench %lld in all (at most %lld a run), trace-cmd %lld in all "
	       "(at most %lld a run)\n", f->lost[OURS], f->lost_max[OURS], f->lost[TRACECMD],
	       f->lost_max[TRACECMD]);
}

int main(int argc, char **argv)
{
	static struct figures f;
	struct setup s = { 0 };
	struct result warm;
	int pairs, r, k;

	if (parse_args(argc, argv, &s, &pairs))
		return 2;
	if (!s.tracecmd || !*s.tracecmd || access(s.tracecmd, X_OK)) {
		printf("bench-collector: skipped: no trace-cmd to compare with (give -t PATH or "
		       "CB_TRACE_CMD=PATH%s%s)\n", s.tracecmd ? "; not executable: " : "",
		       s.tracecmd ? s.tracecmd : "");
		return SKIP;
	}
	snprintf(s.dir, sizeof(s.dir), "/tmp/bench-collector-XXXXXX");
	if (geteuid() != 0 || find_tools(&s) < 0 || !mkdtemp(s.dir)) {
		fprintf(stderr, "bench-collector: needs root, %s and %s\n", s.compactbench,
			s.faultburst);
		return 1;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	printf("load: faultburst base %s %s; idle: sleep %s; events:", s.mb, s.secs, s.secs);
	for (k = 0; k < s.nr_events; k++)
		printf(" %s", s.events[k]);
	printf("; buffer %s KiB per CPU; trace-cmd: %s\n", s.kb, s.tracecmd);
	/* warm the memory up (this host backs it lazily) and whatever the wrapper builds */
	if (one(&s, TRACECMD, LOAD, &warm) < 0 || one(&s, OURS, LOAD, &warm) < 0)
		return 1;
	printf("%-3s %-12s %-4s %8s %9s %9s %10s %8s\n", "rnd", "recorder", "load", "wall_s",
	       "wl_cpu_s", "rec_cpu_s", "events", "lost");
	for (r = 0; r < pairs; r++)
		if (round_run(&s, r, &f) < 0)
			return 1;
	report(&f, pairs);
	cb_rm_rf(s.dir);
	return 0;
}
