/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * collector_int.h - the collector's insides, shared by collector.c (setup, events, stop,
 * stale instances) and collector_drain.c (the drain thread, the spool files, the final
 * drain and the per-CPU stats). Not for other modules: they use collector.h.
 */
#ifndef CB_COLLECTOR_INT_H
#define CB_COLLECTOR_INT_H

#include "collector.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct tracefs_instance;
struct tracefs_cpu;
struct cb_probes;

struct cb_collector_cpu {
	struct tracefs_cpu *tcpu;
	int fd;
	char path[PATH_MAX];
	uint64_t bytes;
	char *stats_text;	/* per_cpu/cpuN/stats after the final drain */
};

struct cb_collector {
	struct tracefs_instance *inst;
	char name[64];
	char err[512];
	int nr_cpus;
	struct cb_collector_cpu *cpu;
	int page_size;
	unsigned int poll_ms;
	size_t buffer_kb;
	char clock[32];
	bool kallsyms;
	enum cb_collector_spool spool;
	char spool_dir[PATH_MAX];
	char **enabled;
	char **missing;
	/* the allocator probes (NULL: tracepoint mode) and why there are none */
	struct cb_probes *probes;
	char probe_why[512];
	char probe_desc[512];
	/* the drain thread */
	pthread_t thread;
	bool thread_started;
	int wake_fd;
	atomic_bool stop;
	int drain_errno;
	char drain_err[PATH_MAX + 128];
	uint64_t drain_cpu_ns;
	uint64_t t_on, t_off;
	/* results */
	struct cb_collector_cpu_stats *cstats;
	struct cb_collector_stats stats;
	bool done;	/* torn down */
};

/*
 * cb_collector_set_err - format the message of @c;
 * @err >= 0: errno = @err; @err < 0: keep errno (-@err if it is 0) and append strerror.
 * Returns -1.
 */
int cb_collector_set_err(struct cb_collector *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* cb_collector_drain_start - start the drain thread (wake_fd and spools are open); 0 or -1 */
int cb_collector_drain_start(struct cb_collector *c);

/* cb_collector_drain_stop - stop and join the drain thread (nothing if not running) */
void cb_collector_drain_stop(struct cb_collector *c);

/*
 * cb_collector_final_drain - once tracing is off and the thread joined: read "entries",
 * move every page left (partial ones too), read each CPU's stats, count the pages the
 * kernel flagged with missed events, and fill c->cstats and the loss totals of c->stats.
 * Returns 0, or -1 with the error set.
 */
int cb_collector_final_drain(struct cb_collector *c);

#endif
