// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_analysis_fixtures.c - the analyzer on real traces recorded on this kind of machine
 * (tests/fixtures/analysis-*, see analysis-README.md there) against independent figures:
 * the /proc/vmstat deltas recorded with each trace, and `trace-cmd report`'s own reading
 * of the same file. Also bad input (truncated, corrupt, missing traces) and a whole run
 * directory with one incomplete cell, analyzed twice to the same bytes.
 *
 * Environment: FIXTURES (the fixture directory), TRACE_CMD (trace-cmd, optional: the
 * report comparison is skipped without it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze.h"
#include "report.h"
#include "stalls.h"
#include "summary.h"
#include "trace.h"
#include "util.h"

extern char **environ;

static const char *fixtures;

static const char *const traces[] = { "analysis-thp-exhaust.v7.dat", "analysis-thp-compact.v6.dat" };
static const char *const stems[] = { "analysis-thp-exhaust", "analysis-thp-compact" };

/*
 * compaction runs by attribution, read off `trace-cmd report` by hand: in the exhaust trace
 * kcompactd0 runs once after a kcompactd_wake, three times (DMA, DMA32, Normal, whole
 * zones) after a kcompactd_sleep with no wake (proactive), and compactbench writes
 * compact_memory (six runs: two compact_node passes over three zones); in the compact trace
 * kcompactd0's only runs are one proactive pass over the three zones.
 */
static const uint64_t runs_want[][CB_ATTR_NR] = {
	{ [CB_ATTR_DIRECT] = 1725, [CB_ATTR_KCOMPACTD] = 1, [CB_ATTR_PROACTIVE] = 3,
	  [CB_ATTR_MANUAL] = 6 },
	{ [CB_ATTR_DIRECT] = 336, [CB_ATTR_PROACTIVE] = 3 },
};

static const char *fx(const char *name)
{
	static char path[4][PATH_MAX];
	static int k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", fixtures, name);
	return path[k];
}

/* a /proc/vmstat counter, read with sscanf: independent of the analyzer's parser */
static long long counter(const char *file, const char *key)
{
	char line[256], k[128];
	long long v, found = -1;
	FILE *f = fopen(file, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %lld", k, &v) == 2 && !strcmp(k, key))
			found = v;
	fclose(f);
	assert_true(found >= 0);
	return found;
}

static long long vm_delta(const char *stem, const char *key)
{
	char b[PATH_MAX], a[PATH_MAX];

	snprintf(b, sizeof(b), "%s/%s.vmstat.before", fixtures, stem);
	snprintf(a, sizeof(a), "%s/%s.vmstat.after", fixtures, stem);
	return counter(a, key) - counter(b, key);
}

/* the stall rule: stalls found == compact_stall delta; success and fail match too */
static void test_stalls_vs_vmstat(void **state)
{
	size_t i;

	for (i = 0; i < CB_ARRAY_SIZE(traces); i++) {
		struct cb_stalls s;
		char err[512];
		double p50, p99;

		assert_int_equal(cb_stalls_from_trace(fx(traces[i]), &s, err, sizeof(err)), 0);
		cb_stalls_quantile(&s, 0.5, &p50);
		cb_stalls_quantile(&s, 0.99, &p99);
		printf("%s: %llu stalls (%llu success, %llu fail, %llu skipped attempts, %llu "
		       "truncated), compact_stall delta %lld; p50 %.0f ns, p99 %.0f ns\n", traces[i],
		       (unsigned long long)s.stalls, (unsigned long long)s.success,
		       (unsigned long long)s.fail, (unsigned long long)s.skipped,
		       (unsigned long long)s.truncated, vm_delta(stems[i], "compact_stall"), p50, p99);
		assert_true(s.stalls > 0);
		assert_int_equal(s.stalls, vm_delta(stems[i], "compact_stall"));
		assert_int_equal(s.success, vm_delta(stems[i], "compact_success"));
		assert_int_equal(s.fail, vm_delta(stems[i], "compact_fail"));
		assert_int_equal(s.truncated, 0);
		assert_int_equal(s.missed, 0);
		for (int a = 0; a < CB_ATTR_NR; a++)
			assert_int_equal(s.work[a].runs, runs_want[i][a]);
		/* every stall is a THP fault but nine hugetlb allocations (GFP_HIGHUSER_MOVABLE
		 * | __GFP_RETRY_MAYFAIL, no __GFP_NOMEMALLOC) of a concurrent compactbench test */
		assert_int_equal(s.by_origin[CB_ORIGIN_THP_FAULT] + s.by_origin[CB_ORIGIN_OTHER],
				 s.stalls);
		assert_true(s.by_origin[CB_ORIGIN_OTHER] == (i == 0 ? 9 : 0));
		assert_true(s.gfp_from_trace);
		cb_stalls_free(&s);
	}
}

/* `trace-cmd report FILE`'s output, to read; close it with report_close() */
static FILE *report_open(const char *tracecmd, const char *file, pid_t *pid)
{
	char *argv[] = { (char *)"trace-cmd", (char *)"report", (char *)file, NULL };
	posix_spawn_file_actions_t fa;
	int p[2];
	FILE *f;

	assert_int_equal(pipe(p), 0);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	assert_int_equal(posix_spawn(pid, tracecmd, &fa, NULL, argv, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	f = fdopen(p[0], "r");
	assert_non_null(f);
	return f;
}

static void report_close(FILE *f, pid_t pid)
{
	int st;

	fclose(f);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* the lines `trace-cmd report FILE` prints that are events (all but the cpus= header) */
static long long report_lines(const char *tracecmd, const char *file)
{
	long long n = 0;
	char line[4096];
	pid_t pid;
	FILE *f = report_open(tracecmd, file, &pid);

	while (fgets(line, sizeof(line), f)) {
		if (!strchr(line, '\n'))
			continue;	/* the rest of a long line: counted once below */
		if (strncmp(line, "cpus=", 5))
			n++;
	}
	report_close(f, pid);
	return n;
}

static void test_event_count_vs_report(void **state)
{
	const char *tracecmd = getenv("TRACE_CMD");
	size_t i;

	if (!tracecmd || !*tracecmd || access(tracecmd, X_OK)) {
		printf("no trace-cmd: skipped\n");
		skip();
	}
	for (i = 0; i < CB_ARRAY_SIZE(traces); i++) {
		struct cb_trace_stats st;
		struct cb_trace *t;
		char err[512];
		long long lines;

		t = cb_trace_open(fx(traces[i]), err, sizeof(err));
		assert_non_null(t);
		assert_int_equal(cb_trace_iterate(t, NULL, NULL, &st, err, sizeof(err)), 0);
		cb_trace_close(t);
		lines = report_lines(tracecmd, fx(traces[i]));
		printf("%s: analyzer %llu events, trace-cmd report %lld\n", traces[i],
		       (unsigned long long)st.events, lines);
		assert_true(st.events > 1000);
		assert_int_equal(st.events, lines);
	}
}

/*
 * a guest trace of the patched 6.1 with demand-driven kcompactd on and proactiveness 20
 * (analysis-demand-guest.dat, see analysis-README.md there): kcompactd's demand passes,
 * read off `trace-cmd report` by hand: DEMAND_RUNS runs between a zone's demand_target
 * "before" and "after" lines, PROACTIVE_RUNS runs after a kcompactd_sleep with no wake and
 * no "before" line (or one of a zone the demand pass skipped), KCOMPACTD_RUNS after a wake
 */
#define DEMAND_TRACE "analysis-demand-guest.dat"
#define DEMAND_RUNS 7
#define PROACTIVE_RUNS 6
#define KCOMPACTD_RUNS 14

/*
 * trace-cmd's reading of the demand runs: kcompactd's mm_compaction_end lines whose next
 * kcompactd begin/end/wake/sleep/demand_target line is a demand_target "after" line
 */
static long long report_demand_runs(const char *tracecmd, const char *file)
{
	char line[4096], task[64], name[64], last[64] = "";
	long long n = 0;
	const char *ev;
	pid_t pid;
	FILE *f = report_open(tracecmd, file, &pid);

	while (fgets(line, sizeof(line), f)) {
		ev = strstr(line, ": mm_compaction_");
		if (!ev || sscanf(line, " %63s", task) != 1 || strncmp(task, "kcompactd", 9) ||
		    sscanf(ev + 2, "%63[^:]", name) != 1)
			continue;
		if (!strcmp(name, "mm_compaction_demand_target")) {
			bool after = strstr(line, " after\n") != NULL;

			n += after && !strcmp(last, "mm_compaction_end");
			snprintf(last, sizeof(last), "%s", after ? "after" : "before");
		} else if (!strcmp(name, "mm_compaction_begin") ||
			   !strcmp(name, "mm_compaction_end") ||
			   !strncmp(name, "mm_compaction_kcompactd_", 24)) {
			snprintf(last, sizeof(last), "%s", name);
		}
	}
	report_close(f, pid);
	return n;
}

static void test_demand_guest(void **state)
{
	const char *tracecmd = getenv("TRACE_CMD");
	struct cb_stalls s;
	char err[512];
	long long by_report;

	assert_int_equal(cb_stalls_from_trace(fx(DEMAND_TRACE), &s, err, sizeof(err)), 0);
	printf("%s: runs demand %llu, proactive %llu, kcompactd %llu, direct %llu\n",
	       DEMAND_TRACE, (unsigned long long)s.work[CB_ATTR_DEMAND].runs,
	       (unsigned long long)s.work[CB_ATTR_PROACTIVE].runs,
	       (unsigned long long)s.work[CB_ATTR_KCOMPACTD].runs,
	       (unsigned long long)s.work[CB_ATTR_DIRECT].runs);
	assert_int_equal(s.missed, 0);
	assert_int_equal(s.work[CB_ATTR_DEMAND].runs, DEMAND_RUNS);
	assert_int_equal(s.work[CB_ATTR_PROACTIVE].runs, PROACTIVE_RUNS);
	assert_int_equal(s.work[CB_ATTR_KCOMPACTD].runs, KCOMPACTD_RUNS);
	cb_stalls_free(&s);
	if (!tracecmd || !*tracecmd || access(tracecmd, X_OK)) {
		printf("no trace-cmd: the report comparison skipped\n");
		return;
	}
	by_report = report_demand_runs(tracecmd, fx(DEMAND_TRACE));
	printf("trace-cmd report: %lld demand runs\n", by_report);
	assert_int_equal(by_report, DEMAND_RUNS);
}

/*
 * a guest trace of the patched 6.1 with demand-driven kcompactd on, its single THP burst
 * (analysis-demand-stalls.dat, see analysis-README.md): the series' mm_compaction_demand,
 * which the task emits at the start of its next allocation's slow path, ends the attempt
 * before it; read as other compaction work, it stretched each stall to the next fault
 * (940 ms of stall time here, 60 ms once it ends the attempt).
 */
#define DEMAND_STALLS_TRACE "analysis-demand-stalls.dat"

/*
 * trace-cmd's reading of the direct-compaction stalls of thp-demand: an attempt is a
 * mm_compaction_try_to_compact_pages line up to the pid's next try, direct reclaim begin or
 * mm_compaction_demand line; it is a stall if it holds a begin or deferred line (or suitable
 * ret=success), and lasts to its last compaction line. Sums @n and @total_ns, the max in @max_ns.
 */
static void report_stalls(const char *tracecmd, const char *file, long long *n, double *total_ns,
			  double *max_ns)
{
	char line[4096], task[64], name[64];
	double ts, start = 0, last = 0;
	bool active = false, qual = false;
	pid_t pid;
	FILE *f = report_open(tracecmd, file, &pid);

	*n = 0;
	*total_ns = *max_ns = 0;
	for (;;) {
		bool eof = !fgets(line, sizeof(line), f);
		const char *ev = eof ? NULL : strstr(line, "]");

		if (!eof && (sscanf(line, " %63s", task) != 1 || strncmp(task, "thp-demand-", 11) ||
			     !ev || sscanf(ev + 1, " %lf: %63[^:]", &ts, name) != 2))
			continue;
		if (eof || !strcmp(name, "mm_compaction_try_to_compact_pages") ||
		    !strcmp(name, "mm_vmscan_direct_reclaim_begin") ||
		    !strcmp(name, "mm_compaction_demand")) {
			if (active && qual) {
				double d = (last - start) * 1e9;

				(*n)++;
				*total_ns += d;
				*max_ns = d > *max_ns ? d : *max_ns;
			}
			if (eof)
				break;
			active = !strcmp(name, "mm_compaction_try_to_compact_pages");
			start = last = ts;
			qual = false;
		} else if (active && !strncmp(name, "mm_compaction_", 14) &&
			   strcmp(name, "mm_compaction_wakeup_kcompactd")) {
			last = ts;
			qual |= !strcmp(name, "mm_compaction_begin") ||
				!strcmp(name, "mm_compaction_deferred") ||
				(!strcmp(name, "mm_compaction_suitable") && strstr(line, "ret=success"));
		}
	}
	report_close(f, pid);
}

static void test_demand_stalls(void **state)
{
	const char *tracecmd = getenv("TRACE_CMD");
	double total, max, smax;
	struct cb_stalls s;
	char err[512];
	long long n;

	assert_int_equal(cb_stalls_from_trace(fx(DEMAND_STALLS_TRACE), &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, s.stalls);
	smax = s.n ? s.ns[s.n - 1] : 0;	/* sorted */
	printf("%s: %llu stalls, %.3f ms, max %.3f ms\n", DEMAND_STALLS_TRACE,
	       (unsigned long long)s.stalls, s.total_ns / 1e6, smax / 1e6);
	assert_int_equal(s.missed, 0);
	assert_int_equal(s.stalls, 246);	/* vmstat.after - before: compact_stall +246 */
	assert_true(s.total_ns < 100e6);	/* not 940 ms: no stall runs to the next fault */
	if (!tracecmd || !*tracecmd || access(tracecmd, X_OK)) {
		printf("no trace-cmd: the report comparison skipped\n");
		cb_stalls_free(&s);
		return;
	}
	report_stalls(tracecmd, fx(DEMAND_STALLS_TRACE), &n, &total, &max);
	printf("trace-cmd report: %lld stalls, %.3f ms, max %.3f ms\n", n, total / 1e6, max / 1e6);
	assert_int_equal(n, s.stalls);
	/* the report's timestamps are in us: within 1 us a stall */
	assert_true(fabs(total - s.total_ns) <= n * 1000.0);
	assert_true(fabs(max - smax) <= 1000.0);
	cb_stalls_free(&s);
}

/* run cmd_analyze in a child; returns its exit status (-signal if it crashed), stderr in @buf */
static int run_analyze(char *const *args, int nargs, char *buf, size_t len)
{
	int p[2], st;
	ssize_t n, got = 0;
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int dn = open("/dev/null", O_WRONLY);

		dup2(p[1], 2);
		dup2(dn, 1);
		close(p[0]);
		_exit(cmd_analyze(nargs, (char **)args));
	}
	close(p[1]);
	while ((n = read(p[0], buf + got, len - 1 - got)) > 0)
		got += n;
	buf[got] = '\0';
	close(p[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

static void write_bytes(const char *path, const char *src, size_t len)
{
	size_t n;
	char *d = cb_read_file(src, &n);

	assert_non_null(d);
	assert_true(len <= n);
	assert_int_equal(cb_write_file_atomic(path, d, len), 0);
	free(d);
}

static void test_bad_traces(void **state)
{
	char dir[] = "/tmp/cb-test-badtrace-XXXXXX", path[PATH_MAX], out[4096];
	static const size_t cuts[] = { 0, 5, 100, 4096, 60000, 150000 };
	size_t i, k, n;
	char *data;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/cut.dat", dir);
	for (k = 0; k < CB_ARRAY_SIZE(traces); k++) {
		data = cb_read_file(fx(traces[k]), &n);
		assert_non_null(data);
		free(data);
		for (i = 0; i < CB_ARRAY_SIZE(cuts) + 1; i++) {
			size_t len = i < CB_ARRAY_SIZE(cuts) ? cuts[i] : n - 1000;
			char *args[] = { (char *)"analyze", path, NULL };
			int rc;

			write_bytes(path, fx(traces[k]), len);
			rc = run_analyze(args, 2, out, sizeof(out));
			printf("%s cut at %zu: exit %d: %s", traces[k], len, rc, out);
			assert_int_equal(rc, 2);
			assert_non_null(strstr(out, path));
		}
	}
	/* random bytes after a good magic: no crash, an error naming the file */
	data = cb_read_file(fx(traces[1]), &n);
	assert_non_null(data);
	for (i = 0; i < 8; i++) {
		char *args[] = { (char *)"analyze", path, NULL };
		unsigned int seed = 7 + i;
		size_t j;
		int rc;

		for (j = 0; j < 64; j++)
			data[4096 + rand_r(&seed) % (n - 4096)] = (char)rand_r(&seed);
		assert_int_equal(cb_write_file_atomic(path, data, n), 0);
		rc = run_analyze(args, 2, out, sizeof(out));
		/* corruption inside the data pages may go unnoticed (no checksums): 0 or 2 */
		assert_true(rc == 0 || rc == 2);
		if (rc == 2)
			assert_non_null(strstr(out, path));
	}
	free(data);
	{
		char missing[PATH_MAX], *args[] = { (char *)"analyze", missing, NULL };

		snprintf(missing, sizeof(missing), "%s/none.dat", dir);
		assert_int_equal(run_analyze(args, 2, out, sizeof(out)), 2);
		assert_non_null(strstr(out, missing));
	}
	{
		char *args[] = { (char *)"analyze", (char *)"--frobnicate", NULL };

		assert_int_equal(run_analyze(args, 2, out, sizeof(out)), 2);
		assert_non_null(strstr(out, "usage:"));
	}
	assert_int_equal(cb_rm_rf(dir), 0);
}

/* ---- a run directory ---- */

static void put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

static void make_cell(const char *run, const char *id, const char *setting, int rep,
		      const char *status, const char *stem, const char *trace, int lost)
{
	char dir[PATH_MAX], src[PATH_MAX], dst[PATH_MAX], meta[1024];

	snprintf(dir, sizeof(dir), "%s/%s", run, id);
	assert_int_equal(cb_mkdir_p(dir), 0);
	snprintf(meta, sizeof(meta),
		 "{ \"schema\": 1, \"status\": \"%s\", \"error\": %s, \"cell\": { \"id\": \"%s\", "
		 "\"kernel\": \"host\", \"setting\": \"%s\", \"workload\": \"wl\", \"rep\": %d, "
		 "\"index\": 0 }, \"collector\": { \"lost\": %d } }\n", status,
		 strcmp(status, "complete") ? "\"the demand phase was interrupted\"" : "null",
		 id, setting, rep, lost);
	put(dir, "meta.json", meta);
	snprintf(src, sizeof(src), "%s/%s", fixtures, trace);
	snprintf(dst, sizeof(dst), "%s/trace.dat", dir);
	assert_int_equal(symlink(src, dst), 0);
	snprintf(src, sizeof(src), "%s/%s.vmstat.before", fixtures, stem);
	snprintf(dst, sizeof(dst), "%s/vmstat.before", dir);
	assert_int_equal(symlink(src, dst), 0);
	snprintf(src, sizeof(src), "%s/%s.vmstat.after", fixtures, stem);
	snprintf(dst, sizeof(dst), "%s/vmstat.after", dir);
	assert_int_equal(symlink(src, dst), 0);
}

static char *run_report(const char *run, int expect, char **md)
{
	char err[1024], path[PATH_MAX], *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(cb_report_run(run, out, err, sizeof(err)), expect);
	fclose(out);
	snprintf(path, sizeof(path), "%s/report.md", run);
	*md = cb_read_file(path, NULL);
	assert_non_null(*md);
	return buf;
}

#define CELLW(id, setting, wl, rep, index)                                              \
	"{ \"id\": \"" id "\", \"kernel\": \"host\", \"setting\": \"" setting "\", " \
	"\"workload\": \"" wl "\", \"rep\": " #rep ", \"index\": " #index " }"
#define CELL(id, setting, rep, index) CELLW(id, setting, "wl", rep, index)

/* the other verdict lines: no difference; no direct compaction at all */
static void verdicts(void)
{
	char run[] = "/tmp/cb-test-verdict-XXXXXX", *out, *md;

	assert_non_null(mkdtemp(run));
	put(run, "run.json",
	    "{ \"cells\": [" CELL("host.a.wl.r1", "a", 1, 0) "," CELL("host.a.wl.r2", "a", 2, 1) ","
	    CELL("host.b.wl.r1", "b", 1, 2) "," CELLW("host.a.q.r1", "a", "q", 1, 3) ","
	    CELLW("host.b.q.r1", "b", "q", 1, 4) "," CELLW("host.a.t.r1", "a", "t", 1, 5) ","
	    CELLW("host.b.t.r1", "b", "t", 1, 6) "] }\n");
	make_cell(run, "host.a.wl.r1", "a", 1, "complete", stems[1], traces[1], 0);
	make_cell(run, "host.a.wl.r2", "a", 2, "complete", stems[1], traces[1], 0);
	make_cell(run, "host.b.wl.r1", "b", 1, "complete", stems[1], traces[1], 0);
	make_cell(run, "host.a.q.r1", "a", 1, "complete", "analysis-quiet", "analysis-quiet.v7.dat",
		  0);
	make_cell(run, "host.b.q.r1", "b", 1, "complete", "analysis-quiet", "analysis-quiet.v7.dat",
		  0);
	/* THP faults (vmstat: 2048 served) without a stall in the trace: free blocks served them */
	make_cell(run, "host.a.t.r1", "a", 1, "complete", stems[1], "analysis-quiet.v7.dat", 0);
	make_cell(run, "host.b.t.r1", "b", 1, "complete", stems[1], "analysis-quiet.v7.dat", 0);
	out = run_report(run, 0, &md);
	printf("%s", out);
	/* 2 and 1 reps: no test can judge that, and the verdict says what it would take */
	assert_non_null(strstr(out, "verdict: wl: 'b' against 'a' (2 and 1 reps):\n  cannot judge "
				    "stall time: "));
	assert_non_null(strstr(out, "with 1 and 2 reps; the rank test needs at least 4 reps each "
				    "to reach p < 0.05"));
	assert_non_null(strstr(out, "  cannot judge stalls that did compaction work: "));
	assert_null(strstr(out, "fewer"));
	/* idle: no THP fault and no failed order>0 allocation in the quiet fixture's vmstat */
	assert_non_null(strstr(out, "verdict: q: no direct compaction in any setting: the verdict "
				    "is empty — there was no high-order demand to serve"));
	assert_non_null(strstr(out, "verdict: t: no direct compaction in any setting: the verdict "
				    "is empty — the THP faults found free huge pages"));
	assert_null(strstr(out, "did not fragment memory enough"));
	free(out);
	free(md);
	assert_int_equal(cb_rm_rf(run), 0);
}

static void test_run_dir(void **state)
{
	char run[] = "/tmp/cb-test-run-XXXXXX", path[PATH_MAX];
	char *out1, *out2, *md1, *md2, *sum;
	struct stat sb;

	assert_non_null(mkdtemp(run));
	put(run, "run.json",
	    "{ \"schema\": 1, \"config\": \"configs/test.ini\", \"tool_version\": \"test\", "
	    "\"complete\": false, \"cells\": ["
	    CELL("host.s0.wl.r1", "s0", 1, 0) ","
	    CELL("host.s1.wl.r1", "s1", 1, 1) ","
	    CELL("host.s1.wl.r2", "s1", 2, 2) ","
	    CELL("host.s0.wl.r2", "s0", 2, 3)
	    "] }\n");
	make_cell(run, "host.s0.wl.r1", "s0", 1, "complete", stems[0], traces[0], 0);
	make_cell(run, "host.s1.wl.r1", "s1", 1, "complete", stems[1], traces[1], 0);
	make_cell(run, "host.s1.wl.r2", "s1", 2, "incomplete", stems[1], traces[1], 0);
	/* host.s0.wl.r2 has no directory at all */

	out1 = run_report(run, 1, &md1);
	printf("%s\n----- report.md -----\n%s", out1, md1);
	assert_non_null(strstr(out1, "4 cells, 2 analyzed, 2 left out"));
	assert_non_null(strstr(out1, "host.s1.wl.r2: host.s1.wl.r2/meta.json: status is "
				     "\"incomplete\", not \"complete\""));
	assert_non_null(strstr(md1, "`host.s1.wl.r2`"));
	assert_non_null(strstr(md1, "`host.s0.wl.r2`"));
	/* 336 against 4681 stalls, but one repetition each: no claim of "fewer" */
	assert_non_null(strstr(out1, "verdict: wl: 's1' against 's0' (1 rep each):\n  cannot judge "
				     "stall time: "));
	assert_null(strstr(out1, "fewer"));
	assert_non_null(strstr(md1, "- wl: `s1` against `s0` (1 rep each): cannot judge stall "
				    "time: "));
	/* the analyzed cells have a summary that cross-checks; the refused one has none */
	snprintf(path, sizeof(path), "%s/host.s0.wl.r1/summary.json", run);
	sum = cb_read_file(path, NULL);
	assert_non_null(sum);
	assert_non_null(strstr(sum, "\"agree\":true"));
	assert_non_null(strstr(sum, "\"dc_stalls\":4681"));
	assert_non_null(strstr(sum, "\"lost_events\":false"));
	free(sum);
	snprintf(path, sizeof(path), "%s/host.s1.wl.r2/summary.json", run);
	assert_int_equal(stat(path, &sb), -1);

	/* same input, same bytes */
	out2 = run_report(run, 1, &md2);
	assert_string_equal(out1, out2);
	assert_string_equal(md1, md2);
	free(out2);
	free(md2);

	/* a lost event flags the cell and the verdict */
	snprintf(path, sizeof(path), "%s/host.s0.wl.r1", run);
	assert_int_equal(cb_rm_rf(path), 0);
	make_cell(run, "host.s0.wl.r1", "s0", 1, "complete", stems[0], traces[0], 5);
	out2 = run_report(run, 1, &md2);
	assert_non_null(strstr(out2, "lost events in 1/1"));
	assert_non_null(strstr(out2, "[lost events in 1 cell: treat with care]"));
	snprintf(path, sizeof(path), "%s/host.s0.wl.r1/summary.json", run);
	sum = cb_read_file(path, NULL);
	assert_non_null(strstr(sum, "\"lost_events\":true"));
	free(sum);
	free(out2);
	free(out1);
	free(md1);

	/* the report names files relative to the run: another spelling, the same bytes */
	{
		char slash[PATH_MAX], *o, *m;

		snprintf(slash, sizeof(slash), "%s/", run);
		o = run_report(slash, 1, &m);
		assert_string_equal(m, md2);
		free(o);
		free(m);
	}
	free(md2);
	assert_int_equal(cb_rm_rf(run), 0);
	verdicts();

	/* no run.json: bad input */
	{
		char err[512];

		assert_int_equal(cb_report_run("/nonexistent-run", stdout, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "/nonexistent-run/run.json"));
	}
}

/*
 * a run filled one boot at a time (`run --resume`): kernel other's cells wait for that
 * kernel to be booted (run.json "pending"); they are listed as pending, not as cells left
 * out, and do not change the exit status; a cell of another kernel that is not pending and
 * has no directory is still left out
 */
static void test_pending_kernel(void **state)
{
	char run[] = "/tmp/cb-test-pending-XXXXXX", *out, *md;

	assert_non_null(mkdtemp(run));
	put(run, "run.json",
	    "{ \"schema\": 1, \"complete\": false, \"pending\": [ { \"kernel\": \"other\", "
	    "\"release\": \"0.0.0-not-booted\", \"booted\": \"6.1.0\", \"cells\": 2 } ], "
	    "\"cells\": [" CELL("host.s0.wl.r1", "s0", 1, 0) ","
	    "{ \"id\": \"other.s0.wl.r1\", \"kernel\": \"other\", \"setting\": \"s0\", "
	    "\"workload\": \"wl\", \"rep\": 1, \"index\": 1 },"
	    "{ \"id\": \"other.s0.wl.r2\", \"kernel\": \"other\", \"setting\": \"s0\", "
	    "\"workload\": \"wl\", \"rep\": 2, \"index\": 2 } ] }\n");
	make_cell(run, "host.s0.wl.r1", "s0", 1, "complete", stems[0], traces[0], 0);
	out = run_report(run, 0, &md);
	printf("%s\n----- report.md -----\n%s", out, md);
	assert_non_null(strstr(out, "3 cells, 1 analyzed, 0 left out, 2 pending"));
	assert_non_null(strstr(out, "  2 cell(s) of kernel other, first other.s0.wl.r1: pending "
				    "(kernel other not booted yet)"));
	assert_null(strstr(out, "left out:"));
	assert_null(strstr(out, "cannot read"));
	assert_non_null(strstr(md, "## Cells pending"));
	assert_non_null(strstr(md, "## Cells left out\n\nnone"));
	assert_non_null(strstr(out, "kernel host, workload wl"));
	assert_null(strstr(out, "kernel other, workload wl"));
	free(out);
	free(md);

	/* the same cells without the "pending" entry: a missing cell is left out, as before */
	put(run, "run.json",
	    "{ \"schema\": 1, \"complete\": false, \"cells\": [" CELL("host.s0.wl.r1", "s0", 1, 0)
	    "," "{ \"id\": \"other.s0.wl.r1\", \"kernel\": \"other\", \"setting\": \"s0\", "
	    "\"workload\": \"wl\", \"rep\": 1, \"index\": 1 } ] }\n");
	out = run_report(run, 1, &md);
	assert_non_null(strstr(out, "2 cells, 1 analyzed, 1 left out\n"));
	assert_non_null(strstr(out, "other.s0.wl.r1: other.s0.wl.r1/meta.json: cannot read"));
	free(out);
	free(md);
	assert_int_equal(cb_rm_rf(run), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stalls_vs_vmstat),
		cmocka_unit_test(test_event_count_vs_report),
		cmocka_unit_test(test_bad_traces),
		cmocka_unit_test(test_run_dir),
		cmocka_unit_test(test_pending_kernel),
		cmocka_unit_test(test_demand_guest),
		cmocka_unit_test(test_demand_stalls),
	};

	fixtures = getenv("FIXTURES");
	if (!fixtures) {
		fprintf(stderr, "FIXTURES is not set\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
