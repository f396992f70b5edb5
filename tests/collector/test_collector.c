// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_collector - integration tests of the collector on the real tracefs (root).
 *
 * a) a THP fault burst + fork/exec: libtracecmd's event count == `trace-cmd report`'s
 *    event lines == the kernel's "read events" (both spool methods), nothing lost
 * b) 20 forks of our own: 20 sched_process_fork events with our pid as parent
 * c) instance name, nothing left after stop/abort, a SIGKILLed collector's instance is
 *    removed (and named) by cb_collector_cleanup_stale
 * d) missing events listed, all missing / bad spec / bad filter / bad spool dir: errors
 * e) beside the top-level buffer: its event enable and tracing_on stay as they were
 * f) the defaults: khugepaged events, probe mode ("tracepoint" and why where the kernel has no
 *    kprobes); an overrun shows in the counters and in the pages' missed-events flags
 *
 * Skipped (exit 77) when not root or without tracefs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>
#include <tracefs.h>

#include "collector.h"
#include "util.h"

/* the message of the last failing call under test */
static char cberr[1024];

static char spool[] = "/tmp/cbcollector-XXXXXX";
static char top_on[16];
static const char *tdir;

static bool instance_exists(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/instances/%s", tdir, name);
	return stat(path, &st) == 0;
}

static bool spool_empty(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A %s)\"", spool);
	return system(cmd) == 0;
}

static void trace_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s.dat", spool, name);
}

/* fork a child that faults @mb MiB of MADV_HUGEPAGE memory */
static void thp_child(size_t mb)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		size_t len = mb << 20, off;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			_exit(1);
		madvise(p, len, MADV_HUGEPAGE);
		for (off = 0; off < len; off += 4096)
			p[off] = 1;
		_exit(0);
	}
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

static void run_true(int times)
{
	int i, st;

	for (i = 0; i < times; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_int_equal(st, 0);
	}
}

struct counts {
	long total, alloc, alloc_order0, exec_true, forks_ours;
	pid_t parent;
	pid_t children[64];
	int nchildren;
};

static int count_cb(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	struct counts *c = data;
	unsigned long long v;
	int len;

	c->total++;
	if (!ev)
		return 0;
	if (!strcmp(ev->name, "mm_page_alloc")) {
		c->alloc++;
		if (tep_get_field_val(NULL, ev, "order", rec, &v, 0) == 0 && v == 0)
			c->alloc_order0++;
	} else if (!strcmp(ev->name, "sched_process_exec")) {
		const char *f = tep_get_field_raw(NULL, ev, "filename", rec, &len, 0);

		if (f && !strcmp(f, "/bin/true"))
			c->exec_true++;
	} else if (!strcmp(ev->name, "sched_process_fork")) {
		if (tep_get_field_val(NULL, ev, "parent_pid", rec, &v, 0) == 0 && (pid_t)v == c->parent &&
		    c->nchildren < 64) {
			tep_get_field_val(NULL, ev, "child_pid", rec, &v, 0);
			c->children[c->nchildren++] = v;
			c->forks_ours++;
		}
	}
	return 0;
}

static void read_trace(const char *path, struct counts *c)
{
	struct tracecmd_input *h = tracecmd_open(path, 0);

	assert_non_null(h);
	c->parent = getpid();
	assert_int_equal(tracecmd_iterate_events(h, NULL, 0, count_cb, c), 0);
	tracecmd_close(h);
}

/* event lines of `trace-cmd report` ("comm-pid [CPU] SECS.USECS: ...") */
static long report_lines(const char *path)
{
	char cmd[PATH_MAX + 64], line[4096];
	regex_t re;
	long n = 0;
	FILE *p;

	if (access("/usr/bin/trace-cmd", X_OK)) {
		print_message("no /usr/bin/trace-cmd: report comparison skipped\n");
		return -1;
	}
	assert_int_equal(regcomp(&re, "\\[[0-9]+\\] +[0-9]+\\.[0-9]+: ", REG_EXTENDED | REG_NOSUB), 0);
	snprintf(cmd, sizeof(cmd), "/usr/bin/trace-cmd report %s 2>/dev/null", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		n += regexec(&re, line, 0, NULL, 0) == 0;
	assert_int_equal(pclose(p), 0);
	regfree(&re);
	return n;
}

static void record_burst(enum cb_collector_spool method, const char *name)
{
	const char *ev[] = { "kmem:mm_page_alloc if order > 0", "sched:sched_process_fork",
			     "sched:sched_process_exec", NULL };
	struct cb_collector_opts o = { .events = ev, .spool_dir = spool, .spool = method,
				       .poll_ms = 50 };
	struct cb_collector_stats st;
	struct counts cnt = { 0 };
	struct cb_collector *c;
	uint64_t left = 0, bytes = 0;
	char path[PATH_MAX];
	long n;
	int i;

	trace_path(path, sizeof(path), name);
	c = cb_collector_start(&o, cberr, sizeof(cberr));
	assert_non_null(c);
	thp_child(128);
	run_true(5);
	assert_int_equal(cb_collector_stop(c, path, &st), 0);
	assert_string_equal(st.spool, method == CB_SPOOL_READ ? "read" : "splice");
	assert_int_equal(st.lost, 0);
	for (i = 0; i < st.nr_cpus; i++) {
		left += st.cpu[i].entries;
		bytes += st.cpu[i].bytes_written;
	}
	read_trace(path, &cnt);
	print_message("%s: %ld events (%ld mm_page_alloc), %llu read by the kernel, %llu left at "
		      "stop, %llu spool bytes, trace %llu bytes\n", name, cnt.total, cnt.alloc,
		      (unsigned long long)st.entries_read, (unsigned long long)left,
		      (unsigned long long)bytes, (unsigned long long)st.trace_bytes);
	/* the three counts agree: libtracecmd, trace-cmd report, the kernel's read events */
	assert_int_equal(cnt.total, st.entries_read);
	n = report_lines(path);
	if (n >= 0)
		assert_int_equal(n, cnt.total);
	/* what was left in the buffers at stop was read by the final drain */
	assert_true(left <= st.entries_read);
	assert_true(bytes >= 4096 && bytes < st.trace_bytes);
	/* 128 MiB of THP faults: ~64 order-9 allocations; the filter held everything else */
	assert_true(cnt.alloc >= 32);
	assert_int_equal(cnt.alloc_order0, 0);
	assert_true(cnt.exec_true >= 5);
	unlink(path);
	assert_true(spool_empty());	/* the spool files are gone */
	assert_false(instance_exists(cb_collector_instance_name(c)));
	cb_collector_free(c);
}

static void test_burst_splice(void **state)
{
	record_burst(CB_SPOOL_SPLICE, "burst-splice");
}

static void test_burst_read(void **state)
{
	record_burst(CB_SPOOL_READ, "burst-read");
}

/* fork a child that faults @mb MiB of base pages @rounds times */
static void base_child(size_t mb, int rounds)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		size_t len = mb << 20, off;

		while (rounds--) {
			char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				_exit(1);
			madvise(p, len, MADV_NOHUGEPAGE);
			for (off = 0; off < len; off += 4096)
				p[off] = 1;
			munmap(p, len);
		}
		_exit(0);
	}
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

/*
 * every order-0 allocation of a base-page fault loop: more data than the buffers hold, so
 * the drain thread must have moved pages during the run; with a sleeping drain thread
 * and a small buffer the overrun is counted. Either way the three counts agree.
 */
static void big_burst(size_t buffer_kb, unsigned int poll_ms, bool expect_lost)
{
	const char *ev[] = { "kmem:mm_page_alloc", NULL };
	struct cb_collector_opts o = { .events = ev, .spool_dir = spool, .buffer_kb = buffer_kb,
				       .poll_ms = poll_ms };
	struct cb_collector_stats st;
	struct counts cnt = { 0 };
	struct cb_collector *c;
	uint64_t bytes = 0;
	char path[PATH_MAX];
	long n;
	int i;

	trace_path(path, sizeof(path), "big");
	c = cb_collector_start(&o, cberr, sizeof(cberr));
	assert_non_null(c);
	base_child(256, 2);
	assert_int_equal(cb_collector_stop(c, path, &st), 0);
	for (i = 0; i < st.nr_cpus; i++)
		bytes += st.cpu[i].bytes_written;
	read_trace(path, &cnt);
	print_message("buffer %zu KiB poll %u ms: %ld events in %.2f s, %llu lost, %llu pages "
		      "flagged with %llu missed events, %llu spool bytes, drain thread %.1f ms CPU\n",
		      st.buffer_kb, poll_ms, cnt.total, st.duration_s, (unsigned long long)st.lost,
		      (unsigned long long)st.missed_pages, (unsigned long long)st.missed_events,
		      (unsigned long long)bytes, st.drain_cpu_ns / 1e6);
	assert_int_equal(cnt.total, st.entries_read);
	n = report_lines(path);
	if (n >= 0)
		assert_int_equal(n, cnt.total);
	/* two rounds of 256 MiB of 4 KiB faults: 131072 allocations, read or lost */
	assert_true(cnt.alloc + st.lost >= 2 * 65536);
	if (expect_lost) {
		/* the counters and the pages' missed-events flags both say so */
		assert_true(st.lost > 0);
		assert_true(st.missed_pages > 0);
		assert_true(cb_collector_stats_lost(&st));
	} else {
		assert_int_equal(st.lost, 0);
		assert_int_equal(st.missed_pages, 0);
		assert_false(cb_collector_stats_lost(&st));
		assert_true(bytes > (uint64_t)st.nr_cpus * st.buffer_kb * 1024);
	}
	unlink(path);
	cb_collector_free(c);
}

static void test_big_burst_drained(void **state)
{
	big_burst(2048, 10, false);
}

static void test_big_burst_overrun(void **state)
{
	big_burst(1024, 60000, true);
}

static void test_forks_of_ours(void **state)
{
	const char *ev[] = { "sched:sched_process_fork", NULL };
	struct cb_collector_opts o = { .events = ev, .spool_dir = spool, .probes = CB_PROBES_OFF };
	struct cb_collector_stats st;
	struct counts cnt = { 0 };
	pid_t kids[20];
	struct cb_collector *c;
	char path[PATH_MAX];
	int i, j;

	trace_path(path, sizeof(path), "forks");
	c = cb_collector_start(&o, cberr, sizeof(cberr));
	assert_non_null(c);
	for (i = 0; i < 20; i++) {
		kids[i] = fork();
		assert_true(kids[i] >= 0);
		if (kids[i] == 0)
			_exit(0);
		assert_int_equal(waitpid(kids[i], NULL, 0), kids[i]);
	}
	assert_int_equal(cb_collector_stop(c, path, &st), 0);
	read_trace(path, &cnt);
	assert_int_equal(cnt.forks_ours, 20);
	assert_string_equal(st.probe_mode, "tracepoint");
	assert_string_equal(st.probe_why, "probes turned off");
	for (i = 0; i < 20; i++) {
		for (j = 0; j < cnt.nchildren && cnt.children[j] != kids[i]; j++)
			;
		assert_true(j < cnt.nchildren);
	}
	unlink(path);
	cb_collector_free(c);
}

static char logged[1024];

static void log_cb(const char *msg)
{
	snprintf(logged + strlen(logged), sizeof(logged) - strlen(logged), "%s\n", msg);
}

static void test_instance_lifecycle(void **state)
{
	const char *ev[] = { "sched:sched_process_exec", NULL };
	struct cb_collector_opts o = { .events = ev, .spool_dir = spool };
	struct cb_collector_stats st;
	struct cb_collector *c;
	char name[64], path[PATH_MAX], buf[8];
	int pfd[2];
	pid_t pid;

	snprintf(name, sizeof(name), "compactbench-%d", (int)getpid());
	trace_path(path, sizeof(path), "life");
	/* stop */
	c = cb_collector_start(&o, cberr, sizeof(cberr));
	assert_non_null(c);
	assert_string_equal(cb_collector_instance_name(c), name);
	assert_true(instance_exists(name));
	/* a second collector in the same process is refused, the first stays intact */
	assert_null(cb_collector_start(&o, cberr, sizeof(cberr)));
	assert_int_equal(errno, EEXIST);
	assert_true(instance_exists(name));
	assert_int_equal(cb_collector_stop(c, path, &st), 0);
	assert_false(instance_exists(name));
	assert_int_equal(cb_collector_stop(c, path, &st), -1);	/* twice: refused */
	cb_collector_abort(c);					/* after stop: harmless */
	cb_collector_free(c);
	unlink(path);
	/* abort */
	c = cb_collector_start(&o, cberr, sizeof(cberr));
	assert_non_null(c);
	cb_collector_abort(c);
	assert_false(instance_exists(name));
	assert_true(spool_empty());
	cb_collector_free(c);
	/* a killed collector leaves its instance; cleanup_stale removes it */
	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct cb_collector *cc = cb_collector_start(&o, cberr, sizeof(cberr));

		if (write(pfd[1], cc ? "1" : "0", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	assert_int_equal(read(pfd[0], buf, 1), 1);
	assert_int_equal(buf[0], '1');
	close(pfd[0]);
	close(pfd[1]);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	snprintf(name, sizeof(name), "compactbench-%d", (int)pid);
	assert_true(instance_exists(name));
	logged[0] = '\0';
	assert_true(cb_collector_cleanup_stale(log_cb) >= 1);
	assert_non_null(strstr(logged, name));
	assert_false(instance_exists(name));
	/* our own live instance is never taken for a stale one */
	c = cb_collector_start(&o, cberr, sizeof(cberr));
	assert_non_null(c);
	assert_true(cb_collector_cleanup_stale(log_cb) >= 0);
	assert_true(instance_exists(cb_collector_instance_name(c)));
	cb_collector_abort(c);
	cb_collector_free(c);
	/* the spool files of the killed child stay: they are the caller's directory */
	cb_rm_rf(spool);
	assert_int_equal(mkdir(spool, 0700), 0);
}

static void test_missing_and_errors(void **state)
{
	const char *some[] = { "nosuchsys:nosuch", "kmem:nosuch_event", "sched:sched_process_fork",
			       "nosuchsys:*", NULL };
	const char *none[] = { "nosuchsys:*", "kmem:nosuch_event", NULL };
	const char *bad[] = { "nocolon", NULL };
	const char *badpath[] = { "sched:../../x", NULL };
	const char *badfilter[] = { "sched:sched_process_fork if nosuchfield > 3", NULL };
	struct cb_collector_opts o = { .events = some, .spool_dir = spool };
	char name[64], path[PATH_MAX];
	struct cb_collector_stats st;
	struct cb_collector *c;

	snprintf(name, sizeof(name), "compactbench-%d", (int)getpid());
	trace_path(path, sizeof(path), "missing");
	c = cb_collector_start(&o, cberr, sizeof(cberr));
	assert_non_null(c);
	assert_int_equal(cb_collector_stop(c, path, &st), 0);
	assert_string_equal(st.enabled[0], "sched:sched_process_fork");
	assert_null(st.enabled[1]);
	assert_string_equal(st.missing[0], "nosuchsys:nosuch");
	assert_string_equal(st.missing[1], "kmem:nosuch_event");
	assert_string_equal(st.missing[2], "nosuchsys:*");
	assert_null(st.missing[3]);
	cb_collector_free(c);
	unlink(path);

	o.events = none;
	assert_null(cb_collector_start(&o, cberr, sizeof(cberr)));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(cberr, "none of the requested events"));
	o.events = bad;
	assert_null(cb_collector_start(&o, cberr, sizeof(cberr)));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(cberr, "nocolon"));
	o.events = badpath;
	assert_null(cb_collector_start(&o, cberr, sizeof(cberr)));
	assert_int_equal(errno, EINVAL);
	o.events = badfilter;
	assert_null(cb_collector_start(&o, cberr, sizeof(cberr)));
	assert_non_null(strstr(cberr, "filter"));
	o.events = some;
	o.spool_dir = "/nonexistent/spool";
	assert_null(cb_collector_start(&o, cberr, sizeof(cberr)));
	assert_non_null(strstr(cberr, "/nonexistent/spool"));
	o.spool_dir = spool;
	o.clock = "nosuchclock";
	assert_null(cb_collector_start(&o, cberr, sizeof(cberr)));
	assert_non_null(strstr(cberr, "nosuchclock"));
	/* no failed start leaves anything */
	assert_false(instance_exists(name));
	assert_true(spool_empty());
}

static void test_defaults(void **state)
{
	struct cb_collector_opts o = { .spool_dir = spool };
	struct cb_collector_stats st;
	struct cb_collector *c;
	char path[PATH_MAX];
	bool comp = false, alloc = false, khugepaged = false;
	int i;

	trace_path(path, sizeof(path), "defaults");
	c = cb_collector_start(&o, cberr, sizeof(cberr));
	assert_non_null(c);
	thp_child(32);
	assert_int_equal(cb_collector_stop(c, path, &st), 0);
	for (i = 0; st.enabled[i]; i++) {
		comp |= !strncmp(st.enabled[i], "compaction:mm_compaction_", 25);
		alloc |= !strcmp(st.enabled[i], "kmem:mm_page_alloc");
		khugepaged |= !strcmp(st.enabled[i], "huge_memory:mm_khugepaged_scan_pmd");
	}
	/* not mm_page_alloc: its tracepoint runs for every page (harness/collector/collector.c) */
	assert_true(comp && !alloc && khugepaged);
	assert_null(st.missing);	/* this host has them all */
	/* probes: where the kernel cannot take them, tracepoint mode and why */
	if (access("/sys/kernel/tracing/kprobe_events", F_OK)) {
		assert_string_equal(st.probe_mode, "tracepoint");
		assert_non_null(strstr(st.probe_why, "no kprobe events"));
	} else {
		print_message("probes: %s %s %s\n", st.probe_mode, st.probe_symbols, st.probe_why);
	}
	assert_string_equal(st.clock, "mono");
	assert_true(st.buffer_kb >= 1024);
	i = report_lines(path);
	if (i >= 0)
		assert_int_equal(i, st.entries_read);
	/* keep one for the report when asked to */
	if (getenv("CB_KEEP_TRACE"))
		rename(path, getenv("CB_KEEP_TRACE"));
	unlink(path);
	cb_collector_free(c);
}

/* the top-level buffer's settings are not ours: they stay as they were */
static void test_beside_top(void **state)
{
	const char *ev[] = { "sched:sched_process_exec", NULL };
	struct cb_collector_opts o = { .events = ev, .spool_dir = spool };
	char en_before[16], on_before[16], en_after[16], on_after[16], path[PATH_MAX], ep[PATH_MAX];
	struct cb_collector_stats st;
	struct counts cnt = { 0 };
	struct cb_collector *c;

	snprintf(ep, sizeof(ep), "%s/events/sched/sched_process_exec/enable", tdir);
	trace_path(path, sizeof(path), "beside");
	assert_int_equal(cb_read_trimmed(ep, en_before, sizeof(en_before)), 0);
	assert_int_equal(cb_write_string(ep, "1"), 0);
	assert_int_equal(cb_read_trimmed(ep, en_after, sizeof(en_after)), 0);
	assert_string_equal(en_after, "1");
	snprintf(on_before, sizeof(on_before), "%d", tracefs_trace_is_on(NULL));
	c = cb_collector_start(&o, cberr, sizeof(cberr));
	assert_non_null(c);
	run_true(3);
	assert_int_equal(cb_collector_stop(c, path, &st), 0);
	read_trace(path, &cnt);
	assert_true(cnt.exec_true >= 3);
	assert_int_equal(cb_read_trimmed(ep, en_after, sizeof(en_after)), 0);
	assert_string_equal(en_after, "1");
	snprintf(on_after, sizeof(on_after), "%d", tracefs_trace_is_on(NULL));
	assert_string_equal(on_after, on_before);
	/* restore */
	assert_int_equal(cb_write_string(ep, en_before), 0);
	unlink(path);
	cb_collector_free(c);
}

static int group_setup(void **state)
{
	tdir = tracefs_tracing_dir();
	if (!tdir)
		return -1;
	if (cb_read_trimmed("/sys/kernel/tracing/tracing_on", top_on, sizeof(top_on)) < 0)
		top_on[0] = '\0';
	return mkdtemp(spool) ? 0 : -1;
}

static int group_teardown(void **state)
{
	char on[16] = "";

	cb_rm_rf(spool);
	/* the top-level buffer must end on, as the brief of this project demands */
	cb_read_trimmed("/sys/kernel/tracing/tracing_on", on, sizeof(on));
	if (strcmp(on, "1")) {
		fprintf(stderr, "top-level tracing_on is %s (was %s): setting it back to 1\n", on, top_on);
		cb_write_string("/sys/kernel/tracing/tracing_on", "1");
		return -1;
	}
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_splice),
		cmocka_unit_test(test_burst_read),
		cmocka_unit_test(test_big_burst_drained),
		cmocka_unit_test(test_big_burst_overrun),
		cmocka_unit_test(test_forks_of_ours),
		cmocka_unit_test(test_instance_lifecycle),
		cmocka_unit_test(test_missing_and_errors),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_beside_top),
	};

	if (geteuid() != 0 || !tracefs_tracing_dir()) {
		fprintf(stderr, "test_collector: needs root and tracefs, skipped\n");
		return 77;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
