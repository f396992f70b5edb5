// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy_wmark.c - the wmark policy (wmark.h) as a struct cb_policy_ops: its three
 * [setting] keys and their private config, the all-or-none check, what meta.json says of
 * it, and its start and stop around a cell's phases (the thread of wmark.c, then
 * wmark.json).
 */
#include "policy.h"
#include "run.h"
#include "matrix.h"
#include "meta.h"
#include "util.h"
#include "wmark.h"
#include "xalloc.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* a setting's wmark keys: period_s, order and count all given, or none */
struct wmark_conf {
	double period_s;
	long order;
	long count;
	int period_line, order_line, count_line; /* where each was given, 0: not given */
};

#define WMARK_WHAT CB_WMARK_WHAT " (M. Hocko, LSF/MM 2017; harness/agent/wmark.h): "
#define WM(f) CB_KEY_PRIV(struct wmark_conf, f)
#define WM_LINE(f) CB_KEY_LINE(struct wmark_conf, f)

static const struct cfg_key wmark_keys[] = {
	{ SEC_SETTING, "wmark.period", KT_DURATION, NULL, 10, 3600000, NULL, WM(period_s),
	  WMARK_WHAT "how often the agent checks /proc/buddyinfo, from the fragment phase's start "
	  "to the demand's end (10ms..1h; wmark.period, wmark.order and wmark.count go together)",
	  WM_LINE(period_line) },
	{ SEC_SETTING, "wmark.order", KT_INT, NULL, 1, 10, NULL, WM(order),
	  WMARK_WHAT "the block order watched (a larger free block counts as the blocks of this "
	  "order it holds)", WM_LINE(order_line) },
	{ SEC_SETTING, "wmark.count", KT_INT, NULL, 1, 1000000000, NULL, WM(count),
	  WMARK_WHAT "a node with fewer free blocks of the order is compacted (its "
	  "/sys/devices/system/node/nodeN/compact, else /proc/sys/vm/compact_memory) in the "
	  "policy's thread, whose CPU time is the metric cpu_policy_ns", WM_LINE(count_line) },
	{ .name = NULL },
};

static void *wmark_alloc(void)
{
	return cb_xcalloc(1, sizeof(struct wmark_conf));
}

static void wmark_free(void *priv)
{
	cb_cfg_keys_free(wmark_keys, priv);
}

/* wmark.period, wmark.order and wmark.count go together */
static int wmark_verify(const struct cb_setting *s, const void *priv, char *why, size_t len,
			int *line)
{
	const struct wmark_conf *c = priv;
	const int lines[3] = { c->period_line, c->order_line, c->count_line };
	char missing[64] = "";
	int first = 0;

	if (lines[0] && lines[1] && lines[2])
		return 0;
	for (int i = 0; i < 3; i++) {
		if (!lines[i])
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), "%s%s",
				 missing[0] ? " and " : "", wmark_keys[i].name);
		else if (!first || lines[i] < first)
			first = lines[i];
	}
	snprintf(why, len, "[setting %s]: the wmark policy needs wmark.period, wmark.order and "
		 "wmark.count together (missing: %s)", s->name, missing);
	*line = first;
	return -1;
}

static struct json_object *wmark_meta(const void *priv)
{
	const struct wmark_conf *c = priv;
	struct json_object *p = json_object_new_object();

	json_object_object_add(p, "policy", json_object_new_string(CB_WMARK_WHAT));
	json_object_object_add(p, "period_s", json_object_new_double(c->period_s));
	json_object_object_add(p, "order", json_object_new_int64(c->order));
	json_object_object_add(p, "count", json_object_new_int64(c->count));
	json_object_object_add(p, "file", json_object_new_string("wmark.json"));
	return p;
}

/* the setting's wmark policy, bounded by the longest the phases may take (+1 min) */
static void wmark_opts(const struct cb_run *run, const struct cb_cell *cell,
		       const struct wmark_conf *c, struct cb_wmark_opts *o)
{
	const struct cb_workload *w = cell->workload;

	memset(o, 0, sizeof(*o));
	o->root = run->root;
	o->period_s = c->period_s;
	o->order = (int)c->order;
	o->count = (uint64_t)c->count;
	o->max_s = w->ready_timeout_s + w->settle_s + w->timeout_s + 60.0;
	o->max_checks = c->period_s > 0 ? (uint64_t)(o->max_s / c->period_s) + 1 : 0;
}

static void *wmark_start(struct cb_run *run, const struct cb_cell *cell, const void *priv)
{
	struct cb_wmark_opts o;
	struct cb_wmark *wm;

	wmark_opts(run, cell, priv, &o);
	wm = cb_wmark_start(&o);
	if (!wm)
		cb_run_set_err(run, "wmark policy: cannot start: %s", strerror(errno));
	return wm;
}

/* stop the policy and write wmark.json; -1 with run->err set if a step of it failed */
static int wmark_stop(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir,
		      const void *priv, void *state)
{
	struct cb_wmark_opts o;
	struct cb_wmark_stats st;
	struct json_object *j;
	char path[PATH_MAX];
	int failed, ret;

	wmark_opts(run, cell, priv, &o);
	failed = cb_wmark_stop(state, &st);
	j = cb_wmark_json(&o, &st);
	ret = cb_path(path, sizeof(path), "%s/wmark.json", cell_dir);
	if (ret == 0)
		ret = cb_json_write_atomic(path, j);
	json_object_put(j);
	if (ret < 0) {
		cb_run_set_err(run, "%s/wmark.json: cannot write: %s", cell_dir, strerror(errno));
		return -1;
	}
	if (failed) {
		cb_run_set_err(run, "wmark policy: %s (after %llu checks)", st.err,
			(unsigned long long)st.checks);
		return -1;
	}
	return 0;
}

const struct cb_policy_ops cb_policy_wmark = {
	.name = "wmark",
	.keys = wmark_keys,
	.priv_alloc = wmark_alloc,
	.priv_free = wmark_free,
	.verify = wmark_verify,
	.meta = wmark_meta,
	.start = wmark_start,
	.stop = wmark_stop,
};
