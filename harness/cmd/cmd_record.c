// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_record.c - `compactbench record`: the collector around any command (cmd.h).
 *
 * CMD is forked first and waits on a pipe, so it never inherits the collector's
 * trace_pipe_raw descriptors (a CMD that outlives us could keep the instance busy); once
 * the collector runs it is told to go and execvp()s; an exec failure comes back through a
 * close-on-exec pipe. SIGINT, SIGTERM and SIGHUP are blocked and taken with sigwaitinfo():
 * sent to us alone they are passed on to CMD (a terminal's ^C reaches CMD by itself), and
 * the recording stops when CMD exits.
 */
#include "cmd.h"
#include "xalloc.h"
#include "cmd_opt.h"
#include "collector.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXIT_USAGE 2
#define EXIT_RECORD 125
#define MAX_EVENTS 128

/* the options, once: getopt's tables and the usage text come from here (cmd_opt.h) */
static const struct cb_opt record_opts[] = {
	{ "output", 'o', "FILE", "trace file to write (default trace.dat); spool files go beside it" },
	{ "event", 'e', "EVENT", "system:event or system:*, optionally \" if FILTER\"; repeatable "
	  "(default: the list below)" },
	{ "no-probes", 256, NULL, "no kprobes on the allocator: tracepoints only" },
	{ "buffer-kb", 'b', "N", "per-CPU ring buffer size in KiB (default 16384, at most 1/32 of "
	  "memory)" },
	{ "tracing-dir", 257, "DIR", "tracefs root (default: where libtracefs finds it)" },
	{ "help", 'h', NULL, "this text" },
};

#define NR_OPTS (sizeof(record_opts) / sizeof(record_opts[0]))

static void usage(FILE *out)
{
	fprintf(out, "usage: compactbench record [options] [--] CMD [ARGS]...\n\n"
		     "Runs CMD (no shell) while recording compaction and allocation events into a\n"
		     "trace-cmd trace.dat from its own tracefs instance; stops when CMD exits (SIGINT,\n"
		     "SIGTERM and SIGHUP are passed on to CMD) and exits with CMD's status: 128+N if\n"
		     "signal N ended it, 2 for a bad command line, 125 if recording failed, 126/127\n"
		     "if CMD could not be run. Instances and probes left by a killed collector are\n"
		     "removed first. Options:\n\n");
	cb_opt_usage(out, record_opts, NR_OPTS, 22);
	fprintf(out, "\nDefault events (any -e replaces them all):\n");
	for (int i = 0; cb_collector_default_events[i]; i++)
		fprintf(out, "  %s\n", cb_collector_default_events[i]);
	fprintf(out, "Not among them: kmem:mm_page_alloc, whose tracepoint runs for every page "
		     "the kernel\nhands out. For the analysis' allocation view (stalls ended at "
		     "their allocation,\nsuccess and fail) add them all and\n  -e '%s'\n",
		CB_COLLECTOR_ALLOC_EVENT);
}

static void log_line(const char *msg)
{
	fprintf(stderr, "compactbench record: %s\n", msg);
}

struct record_args {
	const char *out;
	const char *events[MAX_EVENTS + 1];
	int nr_events;
	struct cb_collector_opts copts;
	char **cmd;
};

/* parse into @a; returns 0, 1 for --help, or -1 after a message */
static int parse(int argc, char **argv, struct record_args *a)
{
	struct cb_opt_parser p;
	char msg[320];
	long long v;
	int c;

	/* stop at CMD: its options are its own */
	a->out = "trace.dat";
	cb_opt_parser_init(&p, record_opts, NR_OPTS, CB_OPT_STOP);
	while ((c = cb_opt_next(&p, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			a->out = optarg;
			break;
		case 'e':
			if (a->nr_events >= MAX_EVENTS) {
				log_line("too many -e options");
				return -1;
			}
			if (cb_collector_check_event(optarg, msg, sizeof(msg)) < 0) {
				log_line(msg);
				return -1;
			}
			a->events[a->nr_events++] = optarg;
			break;
		case 256:
			a->copts.probes = CB_PROBES_OFF;
			break;
		case 'b':
			if (cb_parse_long(optarg, 4, 4194304, &v) < 0) {
				fprintf(stderr, "compactbench record: --buffer-kb %s: want a whole number "
					"of KiB from 4 to 4194304\n", optarg);
				return -1;
			}
			a->copts.buffer_kb = v;
			break;
		case 257:
			a->copts.tracing_dir = optarg;
			break;
		case 'h':
			return 1;
		default:
			fprintf(stderr, "compactbench record: unknown option or missing value: %s\n\n",
				argv[optind - 1]);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "compactbench record: no command given\n\n");
		return -1;
	}
	a->cmd = argv + optind;
	if (a->nr_events)
		a->copts.events = a->events;
	return 0;
}

/*
 * fork CMD, held until go_fd sees a byte (EOF: give up); an exec error comes back on
 * err_fd as an errno. Returns the pid, or -1.
 */
static pid_t spawn_held(char **cmd, const sigset_t *oldmask, int *go_fd, int *err_fd)
{
	int go[2], err[2];
	pid_t pid;
	char b;

	if (pipe2(go, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(err, O_CLOEXEC) < 0) {
		close(go[0]);
		close(go[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		int e;

		close(go[1]);
		close(err[0]);
		if (read(go[0], &b, 1) != 1)
			_exit(EXIT_RECORD);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		sigprocmask(SIG_SETMASK, oldmask, NULL);
		execvp(cmd[0], cmd);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(err[1]);
	if (pid < 0) {
		close(go[1]);
		close(err[0]);
		return -1;
	}
	*go_fd = go[1];
	*err_fd = err[0];
	return pid;
}

/* wait for CMD, passing on the signals sent to us; returns its wait status */
static int wait_cmd(pid_t pid, const sigset_t *set)
{
	siginfo_t si;
	int status;

	for (;;) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		if (sigwaitinfo(set, &si) < 0)
			continue;
		/* a terminal's signal (SI_KERNEL) went to CMD's process group already */
		if (si.si_signo != SIGCHLD && si.si_code != SI_KERNEL)
			kill(pid, si.si_signo);
	}
}

static void summary(const char *out, const struct cb_collector_stats *st)
{
	char cpus[256] = "", missing[512] = "none", flagged[80] = "";
	size_t len = 0, i;

	for (i = 0; i < (size_t)st->nr_cpus && len < sizeof(cpus); i++)
		len += snprintf(cpus + len, sizeof(cpus) - len, "%s%llu", i ? "/" : "",
				(unsigned long long)st->cpu[i].read_events);
	for (i = 0, len = 0; st->missing && st->missing[i] && len < sizeof(missing); i++)
		len += snprintf(missing + len, sizeof(missing) - len, "%s%s", i ? "," : "",
				st->missing[i]);
	if (st->missed_pages)
		snprintf(flagged, sizeof(flagged), " (%llu pages flagged with missed events)",
			 (unsigned long long)st->missed_pages);
	fprintf(stderr, "compactbench record: %s: %llu events (per CPU %s), lost %llu%s, %.1f KiB, "
		"missing: %s, probes: %s%s%s%s\n", out, (unsigned long long)st->entries_read, cpus,
		(unsigned long long)st->lost, flagged, st->trace_bytes / 1024.0, missing,
		st->probe_mode, *st->probe_why ? " (" : "", st->probe_why,
		*st->probe_why ? ")" : "");
}

/* the tracefs root checked, stale instances removed, the collector started; NULL: @err */
static struct cb_collector *start_collector(const struct cb_collector_opts *copts, char *err,
					    size_t errlen)
{
	if (copts->tracing_dir && cb_collector_set_tracing_dir(copts->tracing_dir, err, errlen) < 0)
		return NULL;
	if (cb_collector_cleanup_stale(log_line) < 0) {
		snprintf(err, errlen, "tracefs is not mounted");
		return NULL;
	}
	return cb_collector_start(copts, err, errlen);
}

int cmd_record(int argc, char **argv)
{
	struct record_args a = { 0 };
	char spool[PATH_MAX], *tmp, err[512];
	struct cb_collector_stats st;
	struct cb_collector *c;
	sigset_t set, oldmask;
	int ret, go_fd, err_fd, status, e = 0;
	pid_t pid;

	ret = parse(argc, argv, &a);
	if (ret) {
		usage(ret > 0 ? stdout : stderr);
		return ret > 0 ? 0 : EXIT_USAGE;
	}
	tmp = cb_xstrdup(a.out);
	snprintf(spool, sizeof(spool), "%s", dirname(tmp));
	free(tmp);
	a.copts.spool_dir = spool;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &oldmask);
	pid = spawn_held(a.cmd, &oldmask, &go_fd, &err_fd);
	if (pid < 0) {
		fprintf(stderr, "compactbench record: cannot fork: %s\n", strerror(errno));
		return EXIT_RECORD;
	}
	c = start_collector(&a.copts, err, sizeof(err));
	if (!c) {
		fprintf(stderr, "compactbench record: %s\n", err);
		close(go_fd);
		close(err_fd);
		waitpid(pid, NULL, 0);
		return EXIT_RECORD;
	}
	ret = write(go_fd, "g", 1) == 1 ? 0 : -1;
	close(go_fd);
	if (ret == 0 && read(err_fd, &e, sizeof(e)) == sizeof(e))
		fprintf(stderr, "compactbench record: cannot run %s: %s\n", a.cmd[0], strerror(e));
	close(err_fd);
	status = wait_cmd(pid, &set);
	if (cb_collector_stop(c, a.out, &st) < 0) {
		fprintf(stderr, "compactbench record: %s\n", cb_collector_error(c));
		cb_collector_free(c);
		return EXIT_RECORD;
	}
	summary(a.out, &st);
	cb_collector_free(c);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
