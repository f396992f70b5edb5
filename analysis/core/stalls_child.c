// SPDX-License-Identifier: GPL-2.0-only
/*
 * stalls_child.c - read a trace.dat in a forked child (cb_stalls_read_trace) so that a file
 * that crashes, hangs or exhausts libtracecmd/libtraceevent costs an error message, not the
 * analyzer: the child runs under an address-space limit, the parent under a wall-clock
 * watchdog, and the message says which limit stopped the reader or which signal killed it.
 */
#include "sanitizer.h"
#include "stalls.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


#define EXIT_SANITIZER 86	/* the child's exit status after a sanitizer report */
#define GIB (1ULL << 30)

static unsigned int reader_timeout = CB_READER_TIMEOUT;
static uint64_t reader_memory;	/* 0: the default for the file's size */

void cb_stalls_reader_limits(unsigned int timeout_s, uint64_t memory)
{
	reader_timeout = timeout_s ? timeout_s : CB_READER_TIMEOUT;
	reader_memory = memory;
}

/* the address-space limit for reading @path: as set, else 4 GiB and twice the file */
static uint64_t memory_for(const char *path)
{
	struct stat st;

	if (reader_memory)
		return reader_memory;
	return 4 * GIB + (stat(path, &st) ? 0 : 2 * (uint64_t)st.st_size);
}

/* what the reading child sends back: its result, its message, the counters */
struct reply {
	int ret;
	char err[1024];
	struct cb_stalls s;
};

#ifdef CB_ASAN
static void sanitizer_died(void)
{
	_exit(EXIT_SANITIZER);
}
#endif

/* the child's limits: no core, the address space (not under ASan: its shadow is terabytes) */
static void child_limits(uint64_t as)
{
	struct rlimit no_core = { 0, 0 };

	setrlimit(RLIMIT_CORE, &no_core);	/* a crash on a bad file is expected: no core */
#ifdef CB_ASAN
	(void)as;
	__sanitizer_set_death_callback(sanitizer_died);
#else
	struct rlimit lim = { as, as };

	setrlimit(RLIMIT_AS, &lim);
#endif
}

/* this process's peak address space (VmPeak), 0 if unknown */
static uint64_t peak_vm(void)
{
	char buf[4096];
	unsigned long long kb = 0;
	char *p;

	if (cb_read_trimmed("/proc/self/status", buf, sizeof(buf)) < 0)
		return 0;
	p = strstr(buf, "VmPeak:");
	if (!p || sscanf(p, "VmPeak: %llu kB", &kb) != 1)
		return 0;
	return kb << 10;
}

static void child(const char *path, int fd, struct reply *r, uint64_t as)
{
	struct cb_stall_rec *rec;
	int ret = 0;

	child_limits(as);
	errno = 0;
	r->ret = cb_stalls_read_trace(path, &r->s, r->err, sizeof(r->err));
	if (r->ret && (errno == ENOMEM || strstr(r->err, "out of memory") ||
		       peak_vm() + (64ULL << 20) >= as)) {
		char was[sizeof(r->err)];

		snprintf(was, sizeof(was), "%s", r->err);
		snprintf(r->err, sizeof(r->err), "%s: the trace reader reached its address-space "
			 "limit of %llu MiB (analyze --reader-memory) and failed: %s", path,
			 (unsigned long long)(as >> 20), was);
	}
	rec = r->s.rec;
	if (cb_write_all(fd, r, sizeof(*r)) || (!r->ret && r->s.n &&
					      cb_write_all(fd, rec, r->s.n * sizeof(*rec))) ||
	    (!r->ret && r->s.probe.n &&
	     cb_write_all(fd, r->s.probe.rec, r->s.probe.n * sizeof(*r->s.probe.rec))) ||
	    (!r->ret && r->s.nbig &&
	     cb_write_all(fd, r->s.big, r->s.nbig * sizeof(*r->s.big))) ||
	    (!r->ret && r->s.cruns && cb_write_all(fd, r->s.cruns, sizeof(*r->s.cruns))))
		ret = 1;
	cb_stalls_free(&r->s);
	free(r);
	_exit(ret);
}

int cb_stalls_from_trace(const char *path, struct cb_stalls *s, char *err, size_t errlen)
{
	return cb_stalls_from_trace_window(path, 0, 0, s, err, errlen);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* read exactly @len bytes before @deadline; -1 (errno ETIMEDOUT at the deadline) */
static int read_by(int fd, void *buf, size_t len, double deadline)
{
	char *p = buf;

	while (len) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		double left = deadline - now();
		ssize_t n;
		int k;

		if (left <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		k = poll(&pfd, 1, left > 1000 ? 1000000 : (int)(left * 1000) + 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (!k)
			continue;
		n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			errno = n ? errno : EPIPE;
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

/* the parent's copy of the child's result: pointers are the child's, fetch the records */
static int take_reply(int fd, struct reply *r, struct cb_stalls *s, double deadline)
{
	bool cruns = r->s.cruns != NULL;

	*s = r->s;
	s->cruns = NULL;
	s->ns = NULL;
	s->pids = NULL;
	s->npids = s->pcap = 0;
	s->rec = NULL;
	s->cap = s->n;
	s->big = NULL;
	s->bigcap = s->nbig;
	s->probe.rec = NULL;
	s->probe.ns = NULL;
	s->probe.pids = NULL;
	s->probe.npids = s->probe.pcap = 0;
	s->probe.cap = s->probe.n;
	if (s->n) {
		s->rec = malloc(s->n * sizeof(*s->rec));
		if (!s->rec || read_by(fd, s->rec, s->n * sizeof(*s->rec), deadline))
			return -1;
	}
	if (s->probe.n) {
		s->probe.rec = malloc(s->probe.n * sizeof(*s->probe.rec));
		if (!s->probe.rec ||
		    read_by(fd, s->probe.rec, s->probe.n * sizeof(*s->probe.rec), deadline))
			return -1;
	}
	if (s->nbig) {
		s->big = malloc(s->nbig * sizeof(*s->big));
		if (!s->big || read_by(fd, s->big, s->nbig * sizeof(*s->big), deadline))
			return -1;
	}
	if (cruns) {
		s->cruns = malloc(sizeof(*s->cruns));
		if (!s->cruns || read_by(fd, s->cruns, sizeof(*s->cruns), deadline))
			return -1;
		/* the lists index fixed arrays: a count past them is a broken reply */
		for (int l = 0; l < CB_LANE_NR; l++)
			if (s->cruns->lane[l].n > CB_CRUNS_MAX) {
				errno = EPROTO;
				return -1;
			}
	}
	if (s->probe.present && cb_pstalls_finish(&s->probe))
		return -1;
	return cb_stalls_finish(s);
}

/* the message for a child that gave no result: the watchdog, a signal, a sanitizer, exit */
static void why_stopped(const char *path, int st, int timed_out, uint64_t as, char *err,
			size_t errlen)
{
	if (timed_out)
		snprintf(err, errlen, "%s: the trace reader ran past its %u s watchdog (analyze "
			 "--reader-timeout) and was killed: a corrupt trace or one too large for "
			 "the limit", path, reader_timeout);
	else if (WIFSIGNALED(st))
		snprintf(err, errlen, "%s: corrupt trace: reading it killed the reader with signal "
			 "%d (%s) in libtracecmd/libtraceevent%s", path, WTERMSIG(st),
			 strsignal(WTERMSIG(st)),
			 WTERMSIG(st) == SIGSEGV || WTERMSIG(st) == SIGBUS || WTERMSIG(st) == SIGABRT ?
			 " (or its address-space limit was reached)" : "");
	else if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_SANITIZER)
		snprintf(err, errlen, "%s: corrupt trace: the reader stopped on a sanitizer report "
			 "(on stderr) in libtracecmd/libtraceevent", path);
	else
		snprintf(err, errlen, "%s: the trace reader stopped before its result (exit %d; "
			 "address-space limit %llu MiB)", path,
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1, (unsigned long long)(as >> 20));
}

int cb_stalls_from_trace_window(const char *path, uint64_t ws, uint64_t we, struct cb_stalls *s,
				char *err, size_t errlen)
{
	uint64_t as = memory_for(path);
	double deadline = now() + reader_timeout;
	struct reply *r = NULL;
	int p[2], st = 0, got, timed_out;
	pid_t pid;

	cb_stalls_init(s, -1);
	cb_stalls_set_window(s, ws, we);
	r = calloc(1, sizeof(*r));
	if (r) {
		cb_stalls_init(&r->s, -1);
		cb_stalls_set_window(&r->s, ws, we);
	}
	if (!r || pipe2(p, O_CLOEXEC)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(r);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "%s: cannot fork the reader: %s", path, strerror(errno));
		close(p[0]);
		close(p[1]);
		free(r);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		child(path, p[1], r, as);
	}
	close(p[1]);
	got = !read_by(p[0], r, sizeof(*r), deadline);
	timed_out = !got && errno == ETIMEDOUT;
	if (got && !r->ret && take_reply(p[0], r, s, deadline)) {
		got = 0;
		timed_out = errno == ETIMEDOUT;
	}
	close(p[0]);
	if (timed_out)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (got && r->ret)
		snprintf(err, errlen, "%s", r->err);
	if (!got)
		why_stopped(path, st, timed_out, as, err, errlen);
	got = got && !r->ret && !WIFSIGNALED(st);
	free(r);
	if (!got) {
		cb_stalls_free(s);
		cb_stalls_init(s, -1);
		return -1;
	}
	return 0;
}
