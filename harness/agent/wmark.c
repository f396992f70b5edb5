// SPDX-License-Identifier: GPL-2.0-only
/*
 * wmark.c - the user-space emulation of the watermark compaction policy (see wmark.h).
 */
#include "wmark.h"
#include "util.h"
#include "wl_mm.h"

#include <errno.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_ZONES 64

/* free blocks of @order on each node, a block of order o > @order counting 2^(o - order) */
static int blocks_per_node(const char *root, int order, struct cb_wmark_check *c)
{
	struct wl_buddy_zone z[MAX_ZONES];
	int n = wl_buddyinfo_read(root, z, MAX_ZONES), columns = 0;

	if (n < 0)
		return -1;
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < n; i++) {
		if (z[i].node < 0 || z[i].node >= CB_WMARK_MAX_NODES)
			continue;
		for (int o = order; o < z[i].norders; o++)
			c->blocks[z[i].node] += z[i].free[o] << (o - order);
		if (z[i].node + 1 > c->nnodes)
			c->nnodes = z[i].node + 1;
		if (z[i].norders > columns)
			columns = z[i].norders;
	}
	/* an order this kernel has no column for could never be met: compaction every period */
	if (order >= columns) {
		errno = ERANGE;
		return -1;
	}
	return 0;
}

static int node_file(const char *root, int node, char *path, size_t size)
{
	return cb_path(path, size, "%s/sys/devices/system/node/node%d/compact", root, node);
}

int cb_wmark_step(const struct cb_wmark_opts *o, struct cb_wmark_check *out)
{
	struct cb_wmark_check local, *c = out ? out : &local;
	char path[4096];
	int node, done = 0, below = 0, e;

	if (blocks_per_node(o->root, o->order, c) < 0) {
		cb_path(path, sizeof(path), "%s/proc/buddyinfo", o->root);
		goto failed;
	}
	for (node = 0; node < c->nnodes; node++) {
		c->below[node] = c->blocks[node] < o->count;
		below += c->below[node];
	}
	if (!below)
		return 0;
	/* no per-node file (a kernel without NUMA): the global one compacts every node, once */
	if (node_file(o->root, 0, path, sizeof(path)) < 0)
		return -1;
	if (access(path, F_OK) < 0) {
		c->global = true;
		if (cb_path(path, sizeof(path), "%s/proc/sys/vm/compact_memory", o->root) < 0)
			return -1;
		if (cb_write_string(path, "1") < 0)
			goto failed;
		return 1;
	}
	for (node = 0; node < c->nnodes; node++) {
		if (!c->below[node])
			continue;
		if (node_file(o->root, node, path, sizeof(path)) < 0 || cb_write_string(path, "1") < 0)
			goto failed;
		done++;
	}
	return done;
failed:
	e = errno;
	snprintf(c->failed, sizeof(c->failed), "%s", path);
	errno = e;
	return -1;
}

struct cb_wmark {
	struct cb_wmark_opts o;
	char root[4096];
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;
	struct cb_wmark_stats st;
};

static void add_ns(struct timespec *ts, uint64_t ns)
{
	ns += (uint64_t)ts->tv_nsec;
	ts->tv_sec += (time_t)(ns / 1000000000ULL);
	ts->tv_nsec = (long)(ns % 1000000000ULL);
}

/* one step and its bookkeeping; false when the loop must end (a failed step) */
static bool one_step(struct cb_wmark *w)
{
	struct cb_wmark_check c;
	int n = cb_wmark_step(&w->o, &c);

	pthread_mutex_lock(&w->lock);
	w->st.checks++;
	if (n < 0) {
		snprintf(w->st.err, sizeof(w->st.err), "%s: %s%s", c.failed, strerror(errno),
			 errno == ERANGE ?
			 " (wmark.order is beyond buddyinfo's orders)" : "");
	} else {
		w->st.triggers += (uint64_t)n;
		w->st.global |= c.global;
		if (c.nnodes > w->st.nnodes)
			w->st.nnodes = c.nnodes;
		for (int node = 0; node < c.nnodes; node++)
			w->st.node_triggers[node] += c.below[node];
	}
	pthread_mutex_unlock(&w->lock);
	return n >= 0;
}

/*
 * Steps run on a fixed grid start + k * period; a step that outlasts periods (a long
 * compaction) skips them (counted as missed) rather than running them back to back.
 */
static void *wmark_thread(void *arg)
{
	struct cb_wmark *w = arg;
	uint64_t period_ns = (uint64_t)(w->o.period_s * 1e9), start = cb_now_ns(), k = 0;
	struct timespec next, cpu;
	bool ok = true;

	pthread_setname_np(pthread_self(), "cb-wmark");
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		uint64_t now, due;

		pthread_mutex_lock(&w->lock);
		if (w->stop) {
			pthread_mutex_unlock(&w->lock);
			break;
		}
		pthread_mutex_unlock(&w->lock);
		if ((w->o.max_checks && w->st.checks >= w->o.max_checks) ||
		    (w->o.max_s > 0 && cb_now_ns() - start >= (uint64_t)(w->o.max_s * 1e9))) {
			w->st.bounded = true;
			break;
		}
		ok = one_step(w);
		if (!ok)
			break;
		/* the next grid point still ahead */
		now = cb_now_ns();
		due = start + ++k * period_ns;
		if (now > due) {
			uint64_t skip = (now - due) / period_ns + 1;

			w->st.missed += skip;
			k += skip;
		}
		next.tv_sec = 0;
		next.tv_nsec = 0;
		add_ns(&next, start + k * period_ns);
		pthread_mutex_lock(&w->lock);
		while (!w->stop && pthread_cond_timedwait(&w->cond, &w->lock, &next) != ETIMEDOUT)
			;
		pthread_mutex_unlock(&w->lock);
	}
	pthread_mutex_lock(&w->lock);
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0)
		w->st.cpu_ns = (uint64_t)cpu.tv_sec * 1000000000ULL + (uint64_t)cpu.tv_nsec;
	w->st.wall_ns = cb_now_ns() - start;
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct cb_wmark *cb_wmark_start(const struct cb_wmark_opts *o)
{
	struct cb_wmark *w;
	pthread_condattr_t ca;
	int err;

	if (o->period_s < 1e-3 || o->order < 0 || o->order >= WL_BUDDY_MAX_ORDERS) {
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
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
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		free(w);
		errno = err;
		return NULL;
	}
	return w;
}

int cb_wmark_stop(struct cb_wmark *w, struct cb_wmark_stats *st)
{
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	*st = w->st;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
	return st->err[0] ? -1 : 0;
}

struct json_object *cb_wmark_json(const struct cb_wmark_opts *o, const struct cb_wmark_stats *st)
{
	struct json_object *j = json_object_new_object(), *nodes = json_object_new_array();

	json_object_object_add(j, "policy", json_object_new_string(CB_WMARK_WHAT));
	json_object_object_add(j, "period_s", json_object_new_double(o->period_s));
	json_object_object_add(j, "order", json_object_new_int(o->order));
	json_object_object_add(j, "count", json_object_new_int64((int64_t)o->count));
	json_object_object_add(j, "max_checks", json_object_new_int64((int64_t)o->max_checks));
	json_object_object_add(j, "max_s", json_object_new_double(o->max_s));
	json_object_object_add(j, "checks", json_object_new_int64((int64_t)st->checks));
	json_object_object_add(j, "triggers", json_object_new_int64((int64_t)st->triggers));
	json_object_object_add(j, "missed_periods", json_object_new_int64((int64_t)st->missed));
	json_object_object_add(j, "via", !st->triggers ? NULL : json_object_new_string(
		st->global ? "/proc/sys/vm/compact_memory" : "/sys/devices/system/node/nodeN/compact"));
	for (int n = 0; n < st->nnodes; n++)
		json_object_array_add(nodes, json_object_new_int64((int64_t)st->node_triggers[n]));
	json_object_object_add(j, "node_triggers", nodes);
	json_object_object_add(j, "cpu_ns", json_object_new_int64((int64_t)st->cpu_ns));
	json_object_object_add(j, "cpu_clock", json_object_new_string("CLOCK_THREAD_CPUTIME_ID"));
	json_object_object_add(j, "wall_ns", json_object_new_int64((int64_t)st->wall_ns));
	json_object_object_add(j, "bounded", json_object_new_boolean(st->bounded));
	json_object_object_add(j, "error", st->err[0] ? json_object_new_string(st->err) : NULL);
	return j;
}
