// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_recur.c - the recurring-demand workload on the host at small size (issue 18):
 *   thp-demand and kernel-demand --waves: every wave recorded once, in index order, start < end, no overlap,
 *     starting at or after its arrival; periodic arrivals exactly --period apart; Poisson
 *     arrivals the gaps GSL draws from the same seed (recomputed here with gsl_rng_mt19937 and
 *     gsl_ran_exponential, not read from the program); the waves' counts add up to the
 *     summary's (faults and THP hits; kernel calls, failures and bytes);
 *   frag-anon --churn-rate/--churn-pagecache: the rate held within 10% of the set one, by the
 *     program's own churn_summary AND independently by this process: the program's minor
 *     faults (/proc/PID/stat: one per base page the churn allocates) and bytes written
 *     (/proc/PID/io wchar) over a window timed here (each reading bracketed by two clock
 *     readings, so that this process being stalled widens the range instead of biasing
 *     it); freed matches allocated (memory held
 *     stays the same); its page-cache directory is gone after it ends; the free target's
 *     pool grows to its bound when MemFree is far above the target, stays empty below it.
 * Memory stays small (at most 64 MiB), nothing here changes host settings.
 *
 * Usage: test_recur PATH/PROGRAM... (thp-demand, kernel-demand and frag-anon among them)
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "wlt.h"

#define NWAVES 20
#define CHURN_BPS (16.0 * 1048576)
#define PC_BPS (4.0 * 1048576)
#define WINDOW_S 6.0

static const char *thp_demand, *frag_anon, *kernel_demand;

static double get_real(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no \"%s\" in %s", key, json_object_to_json_string(o));
	return json_object_get_double(v);
}

static void assert_near(double got, double want, double tol, const char *what)
{
	if (got < want * (1 - tol) || got > want * (1 + tol))
		fail_msg("%s: %.0f, set %.0f (more than %.0f%% off)", what, got, want, tol * 100);
}

/* the "wave" lines of @r, in output order, into @w (at most @max); returns how many */
static size_t wave_lines(const struct wlt_result *r, struct json_object **w, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < r->nlines; i++) {
		const char *t = wlt_get_str(r->lines[i], "type");

		if (t && !strcmp(t, "wave") && n < max)
			w[n++] = r->lines[i];
	}
	return n;
}

/*
 * what every recurring program's output shares: the header before the first wave, NWAVES
 * wave lines in index order, each starting at or after its arrival and after the one before
 * ended; the arrivals go to @arrival[], the lines to @w[]
 */
static void check_waves(const struct wlt_result *r, const char *prog, const char *kind,
			const char *scheme, const char *seed, long long requested,
			long long arrival[NWAVES], struct json_object *w[NWAVES + 1])
{
	struct json_object *hdr;
	size_t i, n;

	assert_int_equal(r->status, 0);
	assert_true(r->json_ok);
	assert_true(wlt_stderr_clean(r, prog));
	hdr = wlt_find(r, "waves", NULL);
	assert_non_null(hdr);
	assert_string_equal(wlt_get_str(hdr, "arrival"), scheme);
	assert_string_equal(wlt_get_str(hdr, "clock"), "CLOCK_MONOTONIC");
	assert_int_equal(wlt_get_int(hdr, "count"), NWAVES);
	assert_int_equal(wlt_get_int(hdr, "seed"), atoll(seed));
	n = wave_lines(r, w, NWAVES + 1);
	assert_int_equal(n, NWAVES);
	/* the header comes before the first wave */
	for (i = 0; i < r->nlines && r->lines[i] != w[0]; i++)
		;
	while (i < r->nlines)
		assert_ptr_not_equal(r->lines[i++], hdr);
	for (i = 0; i < n; i++) {
		long long s = wlt_get_int(w[i], "start_ns"), e = wlt_get_int(w[i], "end_ns");

		assert_int_equal(wlt_get_int(w[i], "index"), (long long)i);
		assert_string_equal(wlt_get_str(w[i], "kind"), kind);
		assert_int_equal(wlt_get_int(w[i], "requested_bytes"), requested);
		assert_true(wlt_get_bool(w[i], "complete"));
		arrival[i] = wlt_get_int(w[i], "arrival_ns");
		assert_true(s >= arrival[i]);
		assert_true(e > s);
		if (i)
			assert_true(s >= wlt_get_int(w[i - 1], "end_ns"));
		assert_true(wlt_get_int(w[i], "fault_ns_p50") <= wlt_get_int(w[i], "fault_ns_p99"));
		assert_true(wlt_get_int(w[i], "fault_ns_p99") <= wlt_get_int(w[i], "fault_ns_max"));
	}
}

/* thp-demand with NWAVES waves of 4 MiB: the common checks, then its own counts */
static void run_waves(const char *scheme, const char *period, const char *seed,
		      long long arrival[NWAVES], struct wlt_result *r)
{
	char *argv[] = { (char *)thp_demand, (char *)"--size", (char *)"4M", (char *)"--waves",
			 (char *)"20", (char *)"--arrival", (char *)scheme, (char *)"--period",
			 (char *)period, (char *)"--seed", (char *)seed, (char *)"--duration",
			 (char *)"60s", NULL };
	struct json_object *w[NWAVES + 1], *sum, *lat;
	long long faults = 0, thp = 0;
	double ns = 0;

	assert_int_equal(wlt_run(argv, NULL, r), 0);
	check_waves(r, "thp-demand", "thp", scheme, seed, 4 << 20, arrival, w);
	for (size_t i = 0; i < NWAVES; i++) {
		/* 4 MiB = 2 PMD regions, each measured once (no larger mTHP size on x86) */
		assert_int_equal(wlt_get_int(w[i], "faults") + wlt_get_int(w[i], "prefaulted"), 2);
		assert_true(wlt_get_int(w[i], "thp") <= wlt_get_int(w[i], "faults"));
		faults += wlt_get_int(w[i], "faults");
		thp += wlt_get_int(w[i], "thp");
		ns += (double)wlt_get_int(w[i], "fault_ns_sum");
	}
	sum = r->lines[r->nlines - 1];
	assert_string_equal(wlt_get_str(sum, "type"), "summary");
	assert_int_equal(wlt_get_int(sum, "regions"), faults);
	assert_int_equal(wlt_get_int(sum, "huge"), thp);
	assert_int_equal(wlt_get_int(sum, "faulted_bytes"), (long long)NWAVES * (4 << 20));
	/* the waves' fault time adds up to the summary's mean over all regions */
	assert_true(json_object_object_get_ex(sum, "fault_ns", &lat));
	assert_near(ns, get_real(lat, "mean") * (double)faults, 1e-6, "sum of fault_ns_sum");
}

/* the arrivals of a poisson run against GSL's draws from @seed with mean @mean_s */
static void check_poisson(const long long arrival[NWAVES], unsigned long seed, double mean_s)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int differ = 0;

	assert_non_null(rng);
	gsl_rng_set(rng, seed);
	for (int i = 1; i < NWAVES; i++) {
		long long gap = llround(gsl_ran_exponential(rng, mean_s) * 1e9);

		assert_int_equal(arrival[i] - arrival[i - 1], gap);
		differ += gap != llround(mean_s * 1e9);
	}
	assert_true(differ > NWAVES / 2); /* not periodic in disguise */
	gsl_rng_free(rng);
}

static void test_waves_periodic(void **state)
{
	long long arrival[NWAVES];
	struct wlt_result r;

	run_waves("periodic", "30ms", "1", arrival, &r);
	for (int i = 1; i < NWAVES; i++)
		assert_int_equal(arrival[i] - arrival[i - 1], 30000000LL);
	wlt_free(&r);
}

static void test_waves_poisson(void **state)
{
	long long arrival[NWAVES];
	struct wlt_result r;

	run_waves("poisson", "20ms", "12345", arrival, &r);
	check_poisson(arrival, 12345, 0.020);
	wlt_free(&r);
}

/*
 * kernel-demand's waves: the same record and arrivals, each wave moving at least its
 * bytes, and every call of the run made inside a wave (the waves' allocs add up to the
 * summary's ops)
 */
static void test_waves_kernel(void **state)
{
	char *argv[] = { (char *)kernel_demand, (char *)"--size", (char *)"2M", (char *)"--waves",
			 (char *)"20", (char *)"--arrival", (char *)"poisson", (char *)"--period",
			 (char *)"20ms", (char *)"--seed", (char *)"3", (char *)"--wave-bytes",
			 (char *)"1M", (char *)"--duration", (char *)"60s", NULL };
	struct json_object *w[NWAVES + 1], *sum;
	long long arrival[NWAVES], allocs = 0, failed = 0, bytes = 0;
	struct wlt_result r;

	assert_int_equal(wlt_run(argv, NULL, &r), 0);
	check_waves(&r, "kernel-demand", "kernel", "poisson", "3", 1 << 20, arrival, w);
	check_poisson(arrival, 3, 0.020);
	for (size_t i = 0; i < NWAVES; i++) {
		assert_true(wlt_get_int(w[i], "bytes") >= 1 << 20);
		assert_true(wlt_get_int(w[i], "rounds") >= 1);
		allocs += wlt_get_int(w[i], "allocs");
		failed += wlt_get_int(w[i], "failed");
		bytes += wlt_get_int(w[i], "bytes");
	}
	sum = r.lines[r.nlines - 1];
	assert_string_equal(wlt_get_str(sum, "type"), "summary");
	assert_int_equal(wlt_get_int(sum, "ops"), allocs);
	assert_int_equal(wlt_get_int(sum, "errors"), failed);
	assert_int_equal(wlt_get_int(sum, "bytes"), bytes);
	assert_string_equal(wlt_get_str(sum, "stopped"), "done");
	wlt_free(&r);
}

/*
 * what this test measures of the churning program by itself: the counters at two instants,
 * each read between two clock readings (lo, hi), since a loaded machine may stall this
 * process between a read and the clock
 */
struct probe {
	double lo[2], hi[2];
	long long minflt[2], wchar[2];
};

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* field 10 of /proc/PID/stat (minflt) and wchar of /proc/PID/io, at one instant */
static void sample(pid_t pid, struct probe *p, int k)
{
	char path[64], buf[4096], *s;
	FILE *f;

	p->lo[k] = mono_s();
	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	p->wchar[k] = -1;
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "wchar: %lld", &p->wchar[k]) == 1)
			break;
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	s = strrchr(buf, ')'); /* the name may hold spaces; fields 3.. follow it */
	assert_non_null(s);
	/* fields 3-9: state ppid pgrp session tty_nr tpgid flags; 10: minflt */
	assert_int_equal(sscanf(s + 2, "%*c %*d %*d %*d %*d %*d %*u %lld", &p->minflt[k]), 1);
	p->hi[k] = mono_s();
}

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (long)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0)
		;
}

/* at "ready": let the churn start, then sample over WINDOW_S */
static void on_ready(pid_t pid, void *arg)
{
	struct probe *p = arg;

	sleep_s(0.5);
	sample(pid, p, 0);
	sleep_s(WINDOW_S);
	sample(pid, p, 1);
}


/*
 * @bytes counted between the two samples of @p, at a rate within 10% of @want: the counts
 * were taken somewhere inside [lo, hi] of each sample, so the rate lies between bytes over
 * the longest and over the shortest interval those allow; that range must meet the band
 */
static void assert_rate_in(const struct probe *p, double bytes, double want, const char *what)
{
	double slow = bytes / (p->hi[1] - p->lo[0]), fast = bytes / (p->lo[1] - p->hi[0]);

	if (slow > want * 1.10 || fast < want * 0.90)
		fail_msg("%s: %.0f..%.0f bytes/s, set %.0f (more than 10%% off)", what, slow, fast,
			 want);
}

static void test_churn_rate(void **state)
{
	char dir[] = "/tmp/test_recur.XXXXXX";
	struct probe p = { 0 };
	struct wlt_trigger trig = { .text = "\"phase\":\"ready\"", .on_stdout = true,
				    .sig = SIGTERM, .on_cue = on_ready, .arg = &p };
	struct json_object *cs, *sum;
	struct wlt_result r;
	double page = (double)sysconf(_SC_PAGESIZE), alloc, freed;

	assert_non_null(mkdtemp(dir));
	{
		char *argv[] = { (char *)frag_anon, (char *)"--size", (char *)"64M",
				 (char *)"--churn-rate", (char *)"16M", (char *)"--churn-pagecache",
				 (char *)"4M", (char *)"--churn-pagecache-hold", (char *)"2M",
				 (char *)"--churn-dir", dir, (char *)"--churn-report", (char *)"500ms",
				 (char *)"--max-hold", (char *)"60s", NULL };

		assert_int_equal(wlt_run(argv, &trig, &r), 0);
	}
	assert_true(r.sent);
	assert_int_equal(r.status, 0);
	assert_true(r.json_ok);
	assert_true(wlt_stderr_clean(&r, "frag-anon"));
	cs = wlt_find(&r, "churn_summary", NULL);
	assert_non_null(cs);
	assert_non_null(wlt_find(&r, "churn", NULL));
	assert_true(get_real(cs, "duration_s") >= WINDOW_S);
	assert_near(get_real(cs, "rate_set_bps"), CHURN_BPS, 1e-9, "rate_set_bps");
	assert_near(get_real(cs, "rate_bps"), CHURN_BPS, 0.10, "churn_summary rate_bps");
	assert_near(get_real(cs, "pagecache_rate_bps"), PC_BPS, 0.10,
		    "churn_summary pagecache_rate_bps");
	alloc = (double)wlt_get_int(cs, "allocated_bytes");
	freed = (double)wlt_get_int(cs, "freed_bytes");
	assert_near(alloc, get_real(cs, "rate_bps") * get_real(cs, "duration_s"), 0.01,
		    "allocated_bytes = rate_bps * duration_s");
	assert_near(freed, alloc, 0.05, "freed_bytes against allocated_bytes");
	/* 32 MiB held, 16 MiB/s: the ring was walked at least once */
	assert_true(wlt_get_int(cs, "cycles") >= 1);
	/* independently: one minor fault per page allocated, wchar counts every write(2) */
	assert_true(p.minflt[0] >= 0 && p.wchar[0] >= 0);
	assert_rate_in(&p, (double)(p.minflt[1] - p.minflt[0]) * page, CHURN_BPS,
		       "minor faults in /proc/PID/stat");
	assert_rate_in(&p, (double)(p.wchar[1] - p.wchar[0]), PC_BPS, "wchar in /proc/PID/io");
	sum = r.lines[r.nlines - 1];
	assert_string_equal(wlt_get_str(sum, "type"), "summary");
	assert_string_equal(wlt_get_str(sum, "hold_end"), "signal");
	assert_int_equal(rmdir(dir), 0); /* empty: the churn's directory is gone */
	wlt_free(&r);
}

/* frag-anon with a free target @target and a pool of at most 32 MiB, held 300 ms */
static struct json_object *pool_run(const char *target, struct wlt_result *r)
{
	char *argv[] = { (char *)frag_anon, (char *)"--size", (char *)"4M", (char *)"--hold",
			 (char *)"300ms", (char *)"--churn-free-target", (char *)target,
			 (char *)"--churn-pool-max", (char *)"32M", NULL };
	struct json_object *cs;

	assert_int_equal(wlt_run(argv, NULL, r), 0);
	assert_int_equal(r->status, 0);
	assert_true(r->json_ok);
	cs = wlt_find(r, "churn_summary", NULL);
	assert_non_null(cs);
	assert_int_equal(wlt_get_int(cs, "allocated_bytes"), 0); /* no --churn-rate */
	return cs;
}

/*
 * the pool: this machine has GiBs free, so a 16 MiB target grows it to its 32 MiB bound
 * and a 1024T target leaves it empty
 */
static void test_churn_pool(void **state)
{
	struct json_object *cs;
	struct wlt_result r;

	cs = pool_run("16M", &r);
	assert_true(wlt_get_int(cs, "mem_free_bytes") > 16 << 20);
	assert_int_equal(wlt_get_int(cs, "pool_resident_bytes"), 32 << 20);
	assert_int_equal(wlt_get_int(cs, "pool_peak_bytes"), 32 << 20);
	assert_int_equal(wlt_get_int(cs, "pool_grown_bytes"), 32 << 20);
	assert_int_equal(wlt_get_int(cs, "pool_shrunk_bytes"), 0);
	wlt_free(&r);
	cs = pool_run("1024T", &r);
	assert_int_equal(wlt_get_int(cs, "pool_resident_bytes"), 0);
	assert_int_equal(wlt_get_int(cs, "pool_grown_bytes"), 0);
	wlt_free(&r);
}

/* a churn directory it cannot write in is a bad argument, before anything is allocated */
static void test_churn_bad_dir(void **state)
{
	char *argv[] = { (char *)frag_anon, (char *)"--size", (char *)"4M",
			 (char *)"--churn-pagecache", (char *)"1M", (char *)"--churn-dir",
			 (char *)"/nonexistent/dir", NULL };
	struct wlt_result r;

	assert_int_equal(wlt_run(argv, NULL, &r), 0);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--churn-dir"));
	assert_int_equal(r.nlines, 0);
	wlt_free(&r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_waves_periodic),
		cmocka_unit_test(test_waves_poisson),
		cmocka_unit_test(test_waves_kernel),
		cmocka_unit_test(test_churn_rate),
		cmocka_unit_test(test_churn_pool),
		cmocka_unit_test(test_churn_bad_dir),
	};

	thp_demand = wlt_path_of(argc, argv, "thp-demand");
	frag_anon = wlt_path_of(argc, argv, "frag-anon");
	kernel_demand = wlt_path_of(argc, argv, "kernel-demand");
	if (!thp_demand || !frag_anon || !kernel_demand) {
		fprintf(stderr, "usage: %s PATH/thp-demand PATH/frag-anon PATH/kernel-demand ...\n",
			argv[0]);
		return 2;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
