// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_record - integration tests of `compactbench record` on the real tracefs (root).
 *
 * a) --help, bad options, no command: usage and exit 2
 * b) the exit status is CMD's; a missing CMD is 127; tracefs not mounted where we point it
 *    is a clear error (125)
 * c) the same workload (forkexec: 40 fork+exec of /bin/true, then 64 MiB of THP faults)
 *    recorded by us and by `trace-cmd record` (through trace-cmd-here; skipped without it)
 *    on the same events: sched_process_fork of the workload and its /bin/true execs match
 *    exactly; its order-9 mm_page_alloc within max(2, 10%) (a THP fault that finds no free
 *    2 MiB block falls back to base pages, which the other run may not have to do)
 * d) SIGINT and SIGTERM mid-record: passed on to CMD, exit 128+N, a readable trace, and no
 *    instance, probe or changed top-level event left; SIGKILL: the instance stays until the
 *    next start, which removes and names it
 *
 *   test_record COMPACTBENCH FORKEXEC TRACE_CMD_HERE
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <trace-cmd.h>
#include <tracefs.h>

#include "util.h"

static const char *cb, *forkexec, *tc_here;
static char dir[] = "/tmp/cbrecord-XXXXXX";
static const char *tdir;
static char out[65536];

/* spawn @argv with stdout+stderr to a pipe; returns the pid, the pipe in *@fd */
static pid_t spawn(char *const argv[], int *fd)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		execv(argv[0], argv);
		_exit(126);
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

/* read all of @fd into out[], wait for @pid; returns its wait status */
static int finish(pid_t pid, int fd)
{
	size_t len = 0;
	ssize_t n;
	int st;

	while ((n = read(fd, out + len, sizeof(out) - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(fd);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static int run(char *const argv[])
{
	int fd;
	pid_t pid = spawn(argv, &fd);

	return finish(pid, fd);
}

static int exit_code(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static bool instance_exists(pid_t pid)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/instances/compactbench-%d", tdir, (int)pid);
	return stat(path, &st) == 0;
}

/* our probes of @pid in kprobe_events or dynamic_events, where the kernel has them */
static bool probes_exist(pid_t pid)
{
	static const char *const files[] = { "kprobe_events", "dynamic_events" };
	char path[PATH_MAX], sys[64];
	bool found = false;
	size_t i;

	snprintf(sys, sizeof(sys), "compactbench_%d/", (int)pid);
	for (i = 0; i < 2; i++) {
		char *s;

		snprintf(path, sizeof(path), "%s/%s", tdir, files[i]);
		s = cb_read_file(path, NULL);
		found |= s && strstr(s, sys);
		free(s);
	}
	return found;
}

static char *top_set_event(void)
{
	char path[PATH_MAX], *s;

	snprintf(path, sizeof(path), "%s/set_event", tdir);
	s = cb_read_file(path, NULL);
	assert_non_null(s);
	return s;
}

static void test_usage(void **state)
{
	char *help[] = { (char *)cb, "record", "--help", NULL };
	char *bad[] = { (char *)cb, "record", "--bogus", "--", "/bin/true", NULL };
	char *nocmd[] = { (char *)cb, "record", "-o", "x.dat", NULL };
	char *badkb[] = { (char *)cb, "record", "--buffer-kb", "lots", "--", "/bin/true", NULL };

	assert_int_equal(exit_code(run(help)), 0);
	assert_non_null(strstr(out, "usage: compactbench record"));
	assert_non_null(strstr(out, "--no-probes"));
	assert_int_equal(exit_code(run(bad)), 2);
	assert_non_null(strstr(out, "--bogus"));
	assert_int_equal(exit_code(run(nocmd)), 2);
	assert_non_null(strstr(out, "no command"));
	assert_int_equal(exit_code(run(badkb)), 2);
	assert_non_null(strstr(out, "--buffer-kb lots"));
}

static void test_exit_status(void **state)
{
	char trace[PATH_MAX], notfs[PATH_MAX];
	char *seven[] = { (char *)cb, "record", "-o", trace, "--", (char *)forkexec, "2", "0", "7",
			  NULL };
	char *missing[] = { (char *)cb, "record", "-o", trace, "--", "/nonexistent/cmd", NULL };
	char *nottfs[] = { (char *)cb, "record", "-o", trace, "--tracing-dir", notfs, "--",
			   "/bin/true", NULL };
	struct tracecmd_input *h;

	snprintf(trace, sizeof(trace), "%s/status.dat", dir);
	snprintf(notfs, sizeof(notfs), "%s", dir);
	assert_int_equal(exit_code(run(seven)), 7);
	assert_non_null(strstr(out, "compactbench record: "));
	assert_non_null(strstr(out, "events (per CPU"));
	assert_non_null(strstr(out, "probes: "));
	h = tracecmd_open(trace, 0);
	assert_non_null(h);
	tracecmd_close(h);
	assert_int_equal(exit_code(run(missing)), 127);
	assert_non_null(strstr(out, "cannot run /nonexistent/cmd"));
	unlink(trace);
	assert_int_equal(exit_code(run(nottfs)), 125);
	assert_non_null(strstr(out, "is not a tracefs mount"));
	assert_int_not_equal(access(trace, F_OK), 0);
}

struct counts {
	long forks, execs, thp;
	pid_t wl;
	pid_t thp_pid[4096];
	int nthp;
};

static int count_cb(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	struct counts *c = data;
	unsigned long long v;
	const char *s;
	int len;

	if (!ev)
		return 0;
	if (!strcmp(ev->name, "sched_process_fork")) {
		s = tep_get_field_raw(NULL, ev, "parent_comm", rec, &len, 0);
		c->forks += s && !strcmp(s, "forkexec");
	} else if (!strcmp(ev->name, "sched_process_exec")) {
		s = tep_get_field_raw(NULL, ev, "filename", rec, &len, 0);
		if (s && !strcmp(s, "/bin/true"))
			c->execs++;
		else if (s && strstr(s, "/forkexec"))
			c->wl = tep_data_pid(tep, rec);
	} else if (!strcmp(ev->name, "mm_page_alloc")) {
		if (tep_get_field_val(NULL, ev, "order", rec, &v, 0) == 0 && v == 9 && c->nthp < 4096)
			c->thp_pid[c->nthp++] = tep_data_pid(tep, rec);
	}
	return 0;
}

static void count(const char *path, struct counts *c)
{
	struct tracecmd_input *h = tracecmd_open(path, 0);
	int i;

	assert_non_null(h);
	memset(c, 0, sizeof(*c));
	assert_int_equal(tracecmd_iterate_events(h, NULL, 0, count_cb, c), 0);
	tracecmd_close(h);
	for (i = 0; i < c->nthp; i++)
		c->thp += c->thp_pid[i] == c->wl;
}

static void test_same_as_trace_cmd(void **state)
{
	char ours[PATH_MAX], theirs[PATH_MAX];
	char *rec_ours[] = { (char *)cb, "record", "-o", ours, "--no-probes",
			     "-e", "sched:sched_process_fork", "-e", "sched:sched_process_exec",
			     "-e", "kmem:mm_page_alloc if order > 0", "--",
			     (char *)forkexec, "40", "64", NULL };
	char *rec_tc[] = { "/usr/bin/env", "bash", (char *)tc_here, "record", "-o", theirs,
			   "-e", "sched:sched_process_fork", "-e", "sched:sched_process_exec",
			   "-e", "kmem:mm_page_alloc", "-f", "order > 0",
			   (char *)forkexec, "40", "64", NULL };
	struct counts a, b;
	long tol;

	if (access(tc_here, X_OK) || access("/usr/bin/trace-cmd", X_OK)) {
		print_message("no %s or trace-cmd: comparison skipped\n", tc_here);
		skip();
	}
	snprintf(ours, sizeof(ours), "%s/ours.dat", dir);
	snprintf(theirs, sizeof(theirs), "%s/theirs.dat", dir);
	assert_int_equal(exit_code(run(rec_ours)), 0);
	assert_int_equal(exit_code(run(rec_tc)), 0);
	count(ours, &a);
	count(theirs, &b);
	print_message("ours: %ld forks, %ld execs, %ld order-9 (pid %d); trace-cmd: %ld, %ld, %ld "
		      "(pid %d)\n", a.forks, a.execs, a.thp, (int)a.wl, b.forks, b.execs, b.thp,
		      (int)b.wl);
	assert_true(a.wl > 0 && b.wl > 0);
	assert_int_equal(a.forks, 40);
	assert_int_equal(b.forks, 40);
	assert_int_equal(a.execs, 40);
	assert_int_equal(b.execs, 40);
	tol = a.thp / 10 > 2 ? a.thp / 10 : 2;
	assert_true(labs(a.thp - b.thp) <= tol);
	assert_true(a.thp >= 16);	/* 64 MiB of THP on a host with free memory */
}

/* wait until record (@pid) has its instance, at most 10 s */
static void wait_instance(pid_t pid)
{
	int i;

	for (i = 0; i < 1000 && !instance_exists(pid); i++)
		usleep(10000);
	assert_true(instance_exists(pid));
	usleep(100000);	/* CMD is told to go right after */
}

static void interrupted(int sig)
{
	char trace[PATH_MAX];
	char *argv[] = { (char *)cb, "record", "-o", trace, "--", "/bin/sleep", "20", NULL };
	char *before = top_set_event(), *after;
	struct tracecmd_input *h;
	struct timespec t0, t1;
	pid_t pid;
	int fd, st;

	snprintf(trace, sizeof(trace), "%s/sig%d.dat", dir, sig);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = spawn(argv, &fd);
	wait_instance(pid);
	assert_int_equal(kill(pid, sig), 0);
	st = finish(pid, fd);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* sleep got the signal and ended by it: record says so in its status */
	assert_int_equal(exit_code(st), 128 + sig);
	assert_true(t1.tv_sec - t0.tv_sec < 15);
	assert_false(instance_exists(pid));
	assert_false(probes_exist(pid));
	after = top_set_event();
	assert_string_equal(before, after);
	free(before);
	free(after);
	h = tracecmd_open(trace, 0);
	assert_non_null(h);
	tracecmd_close(h);
}

static void test_sigint(void **state)
{
	interrupted(SIGINT);
}

static void test_sigterm(void **state)
{
	interrupted(SIGTERM);
}

static void test_sigkill(void **state)
{
	char trace[PATH_MAX], name[64];
	char *argv[] = { (char *)cb, "record", "-o", trace, "--", "/bin/sleep", "1", NULL };
	char *next[] = { (char *)cb, "record", "-o", trace, "--", "/bin/true", NULL };
	pid_t pid;
	int fd;

	snprintf(trace, sizeof(trace), "%s/kill.dat", dir);
	pid = spawn(argv, &fd);
	wait_instance(pid);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(exit_code(finish(pid, fd)), 128 + SIGKILL);
	/* what a killed collector leaves: its instance (and probes, where there are kprobes) */
	assert_true(instance_exists(pid));
	while (waitpid(-1, NULL, 0) > 0)	/* its orphaned sleep, reaped by us (subreaper) */
		;
	assert_int_equal(exit_code(run(next)), 0);
	snprintf(name, sizeof(name), "removed stale tracefs instance compactbench-%d", (int)pid);
	assert_non_null(strstr(out, name));
	assert_false(instance_exists(pid));
	assert_false(probes_exist(pid));
}

static int group_teardown(void **state)
{
	char on[16] = "";
	char **names = tracefs_instances(NULL);
	int i, left = 0;

	for (i = 0; names && names[i]; i++)
		left += !strncmp(names[i], "compactbench-", 13);
	tracefs_list_free(names);
	cb_rm_rf(dir);
	cb_read_trimmed("/sys/kernel/tracing/tracing_on", on, sizeof(on));
	if (strcmp(on, "1")) {
		fprintf(stderr, "top-level tracing_on is %s: setting it back to 1\n", on);
		cb_write_string("/sys/kernel/tracing/tracing_on", "1");
		return -1;
	}
	if (left)
		fprintf(stderr, "%d compactbench instances left\n", left);
	return left ? -1 : 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_same_as_trace_cmd),
		cmocka_unit_test(test_sigint),
		cmocka_unit_test(test_sigterm),
		cmocka_unit_test(test_sigkill),
	};

	if (argc != 4) {
		fprintf(stderr, "usage: test_record COMPACTBENCH FORKEXEC TRACE_CMD_HERE\n");
		return 2;
	}
	cb = argv[1];
	forkexec = argv[2];
	tc_here = argv[3];
	tdir = tracefs_tracing_dir();
	if (geteuid() != 0 || !tdir) {
		fprintf(stderr, "test_record: needs root and tracefs, skipped\n");
		return 77;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	return cmocka_run_group_tests(tests, NULL, group_teardown);
}
