/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpustat.h - CPU time of the background compaction threads (kcompactd*, khugepaged).
 *
 * The agent writes cpu.before and cpu.after, one line per thread:
 *
 *   # compactbench cpu 1
 *   <pid> <comm> <source> <ns>
 *
 * where <source> is "schedstat" (the first field of /proc/<pid>/schedstat: time on a CPU,
 * ns; needs CONFIG_SCHED_INFO) or "stat" (utime + stime of /proc/<pid>/stat, clock ticks
 * converted to ns: a coarser fallback). The analyzer takes after - before per (pid, comm).
 *
 * And, for the qemu target, the host's side: the busy CPU time of the whole host
 * (/proc/stat) and of one process with all its threads (QEMU's vCPUs), so that what other
 * work took from a TCG guest's host can be told (cb_cpu_host_busy_ns, cb_cpu_process_ns).
 */
#ifndef CB_CPUSTAT_H
#define CB_CPUSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CB_CPU_MAX_TASKS 64

struct cb_cpu_task {
	int pid;
	char comm[32];
	char source[12];
	uint64_t ns;
};

struct cb_cpu_snap {
	int n;
	struct cb_cpu_task t[CB_CPU_MAX_TASKS];
};

/* cb_cpu_is_background - whether @comm is a thread the CPU cost counts (kcompactd*, khugepaged) */
bool cb_cpu_is_background(const char *comm);

/*
 * cb_cpu_task_ns - the CPU time of task @pid under @root ("" or NULL: the real /proc):
 * schedstat, else stat. @source (may be NULL, 12 bytes) receives which. Returns 0, or -1
 * with errno set.
 */
int cb_cpu_task_ns(const char *root, int pid, uint64_t *ns, char *source);

/*
 * cb_cpu_snapshot - every background thread of @root/proc with its CPU time, as the text of
 * a cpu.* file (malloc'ed, in *@text). Returns the number of threads, or -1 with errno.
 */
int cb_cpu_snapshot(const char *root, char **text);

/*
 * cb_cpu_parse - parse a cpu.* file. Returns 0, or -1 with errno EINVAL and the 1-based bad
 * line in @bad_line.
 */
int cb_cpu_parse(const char *text, struct cb_cpu_snap *out, int *bad_line);

/* the CPU time the threads spent between two snapshots */
struct cb_cpu_delta {
	uint64_t kcompactd_ns, khugepaged_ns;
	int tasks;		/* threads found in both */
	char source[12];	/* "schedstat", "stat" or "mixed" */
};

/* cb_cpu_delta - after - before per (pid, comm) present in both, summed by thread kind */
void cb_cpu_delta(const struct cb_cpu_snap *before, const struct cb_cpu_snap *after,
		  struct cb_cpu_delta *d);

/*
 * cb_cpu_process_ns - the CPU time of process @pid under @root ("" or NULL: the real /proc)
 * with all its threads: utime + stime of /proc/<pid>/stat (clock ticks, in ns; schedstat
 * would count the main thread only). Returns 0, or -1 with errno set.
 */
int cb_cpu_process_ns(const char *root, int pid, uint64_t *ns);

/*
 * cb_cpu_host_busy_ns - the busy CPU time of the whole machine so far, from the "cpu" line
 * of @root/proc/stat: user + nice + system + irq + softirq + steal (guest time is part of
 * user; idle and iowait are not busy), in ns; @ncpu (may be NULL) receives the number of
 * "cpuN" lines. Returns 0, or -1 with errno set (EINVAL: no "cpu" line of 8 numbers).
 */
int cb_cpu_host_busy_ns(const char *root, uint64_t *busy_ns, long *ncpu);

#endif
