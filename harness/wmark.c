// SPDX-License-Identifier: GPL-2.0-only
/*
 * wmark.c - the user-space emulation of the watermark compaction policy (see wmark.h).
 */
#include "wmark.h"
#include "util.h"
#include "wl_mm.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_ZONES 64
#define MAX_NODES 64

/* free blocks of @order on each node, a block of order o > @order counting 2^(o - order) */
static int blocks_per_node(const char *root, int order, uint64_t *blocks, int *nnodes)
{
	struct wl_buddy_zone z[MAX_ZONES];
	int n = wl_buddyinfo_read(root, z, MAX_ZONES);

	if (n < 0)
		return -1;
	memset(blocks, 0, MAX_NODES * sizeof(*blocks));
	*nnodes = 0;
	for (int i = 0; i < n; i++) {
		if (z[i].node < 0 || z[i].node >= MAX_NODES)
			continue;
		for (int o = order; o < z[i].norders; o++)
			blocks[z[i].node] += z[i].free[o] << (o - order);
		if (z[i].node + 1 > *nnodes)
			*nnodes = z[i].node + 1;
	}
	return 0;
}

static int compact_node(const char *root, int node)
{
	char path[4096];

	if (cb_path(path, sizeof(path), "%s/sys/devices/system/node/node%d/compact", root, node) < 0)
		return -1;
	if (access(path, F_OK) < 0) {
		/* no per-node file (a kernel without NUMA): the global one compacts every node */
		if (cb_path(path, sizeof(path), "%s/proc/sys/vm/compact_memory", root) < 0)
			return -1;
	}
	return cb_write_string(path, "1");
}

int cb_wmark_step(const struct cb_wmark_opts *o)
{
	uint64_t blocks[MAX_NODES];
	int nnodes, done = 0;

	if (blocks_per_node(o->root, o->order, blocks, &nnodes) < 0)
		return -1;
	for (int node = 0; node < nnodes; node++) {
		if (blocks[node] >= o->count)
			continue;
		if (compact_node(o->root, node) < 0)
			return -1;
		done++;
	}
	return done;
}

struct cb_wmark {
	struct cb_wmark_opts o;
	char root[4096];
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop, failed;
	struct cb_wmark_stats st;
};

static void *wmark_thread(void *arg)
{
	struct cb_wmark *w = arg;
	struct timespec ts, cpu;

	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		int n;

		pthread_mutex_unlock(&w->lock);
		n = cb_wmark_step(&w->o);
		pthread_mutex_lock(&w->lock);
		w->st.checks++;
		if (n < 0)
			w->failed = true;
		else
			w->st.triggers += n;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += (time_t)w->o.period_s;
		ts.tv_nsec += (long)((w->o.period_s - (time_t)w->o.period_s) * 1e9);
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		while (!w->stop && pthread_cond_timedwait(&w->cond, &w->lock, &ts) != ETIMEDOUT)
			;
	}
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0)
		w->st.cpu_ns = (uint64_t)cpu.tv_sec * 1000000000ULL + cpu.tv_nsec;
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct cb_wmark *cb_wmark_start(const struct cb_wmark_opts *o)
{
	struct cb_wmark *w = calloc(1, sizeof(*w));
	pthread_condattr_t ca;
	int err;

	if (!w)
		return NULL;
	if (o->period_s <= 0 || o->order < 0 || o->order > 20) {
		free(w);
		errno = EINVAL;
		return NULL;
	}
	w->o = *o;
	snprintf(w->root, sizeof(w->root), "%s", o->root ? o->root : "");
	w->o.root = w->root;
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
	err = pthread_create(&w->thread, NULL, wmark_thread, w);
	if (err) {
		free(w);
		errno = err;
		return NULL;
	}
	return w;
}

int cb_wmark_stop(struct cb_wmark *w, struct cb_wmark_stats *st)
{
	bool failed;

	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	*st = w->st;
	failed = w->failed;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
	return failed ? -1 : 0;
}
