// SPDX-License-Identifier: GPL-2.0-only
/*
 * cbrecord - a manual test of the collector: record while a command runs.
 *
 *   cbrecord [-o trace.dat] [-e EVENT]... [-b KB] [-p MS] [-s read|splice] [-k] -- CMD [ARG]...
 *
 * Prints the stats as "key value" lines. Not installed; used by hand and by the benchmark
 * figures in the collector's report.
 */
#include "collector.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* the message of the last failing call under test */
static char cberr[1024];

static void log_line(const char *msg)
{
	fprintf(stderr, "cbrecord: %s\n", msg);
}

int main(int argc, char **argv)
{
	struct cb_collector_opts o = { .spool_dir = "/tmp" };
	struct cb_collector_stats st;
	const char *out = "trace.dat";
	const char *ev[64];
	int nev = 0, opt, status = 0, i;
	struct cb_collector *c;
	pid_t pid;

	while ((opt = getopt(argc, argv, "o:e:b:p:s:kd:")) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'e':
			if (nev < 63)
				ev[nev++] = optarg;
			break;
		case 'b':
			o.buffer_kb = strtoul(optarg, NULL, 10);
			break;
		case 'p':
			o.poll_ms = strtoul(optarg, NULL, 10);
			break;
		case 's':
			o.spool = !strcmp(optarg, "read") ? CB_SPOOL_READ : CB_SPOOL_SPLICE;
			break;
		case 'k':
			o.kallsyms = true;
			break;
		case 'd':
			o.spool_dir = optarg;
			break;
		default:
			fprintf(stderr, "usage: cbrecord [-o F] [-e EV]... [-b KB] [-p MS] [-s read|splice] [-k] [-d DIR] -- CMD\n");
			return 2;
		}
	}
	ev[nev] = NULL;
	if (nev)
		o.events = ev;
	cb_collector_cleanup_stale(log_line);
	c = cb_collector_start(&o, cberr, sizeof(cberr));
	if (!c) {
		fprintf(stderr, "cbrecord: %s\n", cberr);
		return 1;
	}
	if (optind < argc) {
		pid = fork();
		if (pid == 0) {
			execvp(argv[optind], argv + optind);
			_exit(127);
		}
		waitpid(pid, &status, 0);
	} else {
		sleep(1);
	}
	if (cb_collector_stop(c, out, &st) < 0) {
		fprintf(stderr, "cbrecord: %s\n", cb_collector_error(c));
		cb_collector_free(c);
		return 1;
	}
	printf("instance %s\nspool %s\nclock %s\nbuffer_kb %zu\nduration_s %.3f\n",
	       cb_collector_instance_name(c), st.spool, st.clock, st.buffer_kb, st.duration_s);
	printf("events %llu\nlost %llu\ntrace_bytes %llu\ndrain_cpu_ms %.1f\nevents_per_s %.0f\n",
	       (unsigned long long)st.entries_read, (unsigned long long)st.lost,
	       (unsigned long long)st.trace_bytes, st.drain_cpu_ns / 1e6,
	       st.duration_s > 0 ? st.entries_read / st.duration_s : 0);
	for (i = 0; i < st.nr_cpus; i++)
		printf("cpu%d entries %llu read %llu overrun %llu commit_overrun %llu dropped %llu bytes %llu\n",
		       i, (unsigned long long)st.cpu[i].entries, (unsigned long long)st.cpu[i].read_events,
		       (unsigned long long)st.cpu[i].overrun, (unsigned long long)st.cpu[i].commit_overrun,
		       (unsigned long long)st.cpu[i].dropped_events,
		       (unsigned long long)st.cpu[i].bytes_written);
	printf("missed_pages %llu\nmissed_events %llu\nprobe_mode %s\nprobe_why %s\n",
	       (unsigned long long)st.missed_pages, (unsigned long long)st.missed_events,
	       st.probe_mode, st.probe_why);
	for (i = 0; st.missing && st.missing[i]; i++)
		printf("missing %s\n", st.missing[i]);
	cb_collector_free(c);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
