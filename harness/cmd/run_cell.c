// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_cell.c - one attempt at one cell: run, fetch, analyze, and where its time went.
 */
#include "analyze.h"
#include "meta.h"
#include "metrics.h"
#include "run_cell.h"
#include "summary.h"
#include "target.h"
#include "timing.h"
#include "util.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* the figures of a finished cell for its progress line, from its fresh summary.json */
static void cell_figures(const char *cell_dir, char *buf, size_t size)
{
	char path[PATH_MAX], err[1024];
	struct json_object *sum, *m, *x;
	double v[3] = { -1, -1, -1 }, busy;
	bool stretched;
	int ids[3], n = cb_metrics_view(CB_VIEW_PROGRESS, ids, 3);	/* the line's figures */

	buf[0] = '\0';
	if (cb_analyze_cell(cell_dir, err, sizeof(err)) < 0) {
		snprintf(buf, size, " (not analyzed: %s)", err);
		return;
	}
	if (cb_path(path, sizeof(path), "%s/summary.json", cell_dir) < 0)
		return;
	sum = json_object_from_file(path);
	if (sum && json_object_object_get_ex(sum, "metrics", &m)) {
		for (int i = 0; i < n; i++)
			if (json_object_object_get_ex(m, cb_metrics[ids[i]].name, &x) && x)
				v[i] = json_object_get_double(x);
	}
	stretched = cb_summary_stretched(sum, &busy);
	json_object_put(sum);
	snprintf(buf, size, ": %.0f direct-compaction stalls (compact_stall +%.0f)", v[0], v[1]);
	if (v[2] >= 0)
		snprintf(buf + strlen(buf), size - strlen(buf), ", THP success %.1f%%", 100 * v[2]);
	/* said at once: a user can stop what else runs before the next cell */
	if (stretched)
		snprintf(buf + strlen(buf), size - strlen(buf), "; WARNING: other work took %.0f%% "
			 "of the host's CPU, the guest's times are stretched", 100 * busy);
}

/*
 * the breakdown into meta.json: the host's laps, and where the agent ran elsewhere (a
 * remote interval was lapped) the agent's own parts from the "timing" it wrote there
 */
static void record_timing(struct cb_run *run, const char *cell_dir, uint64_t t0, uint64_t t1,
			  const char *pinned)
{
	double wall_s = (double)(t1 - t0) / 1e9;
	struct json_object *meta, *t, *parts;
	char path[PATH_MAX];

	if (cb_path(path, sizeof(path), "%s/meta.json", cell_dir) < 0 ||
	    !(meta = json_object_from_file(path)))
		return; /* no meta.json: the cell failed before it had one */
	if (run->timing.remote_s > 0 && json_object_object_get_ex(meta, "timing", &t) &&
	    json_object_object_get_ex(t, "parts", &parts))
		cb_timing_add_parts(&run->timing, parts);
	t = cb_timing_json(&run->timing, wall_s);
	json_object_object_add(t, "host_start_ns", json_object_new_int64((int64_t)t0));
	json_object_object_add(t, "host_end_ns", json_object_new_int64((int64_t)t1));
	json_object_object_add(t, "pinned_cpus", cb_json_str(pinned));
	json_object_object_add(meta, "timing", t);
	if (cb_json_write_atomic(path, meta) < 0)
		cb_log("%s: cannot write the time breakdown: %s", path, strerror(errno));
	json_object_put(meta);
}

int cb_cell_attempt(struct cb_run *run, const struct cb_cell *cell, const char *pinned,
		    struct cb_cell_result *res)
{
	const struct cb_target_ops *ops = cb_target_find(cell->kernel->cls);
	char cell_dir[PATH_MAX];
	uint64_t t0, t1;

	memset(res, 0, sizeof(*res));
	if (cb_path(cell_dir, sizeof(cell_dir), "%s/%s", run->dir, cell->id) < 0)
		return -1;
	/* what an interrupted or failed attempt left (--resume): the cell starts afresh */
	if (access(cell_dir, F_OK) == 0 && cb_rm_rf(cell_dir) < 0) {
		cb_log("%s: cannot remove the previous attempt: %s", cell_dir, strerror(errno));
		return -1;
	}
	run->err[0] = '\0';
	t0 = cb_now_ns();
	cb_timing_start(&run->timing);
	res->ok = ops->run_cell(run, cell, cell_dir) == 0;
	cb_timing_lap(&run->timing, CB_PART_SHUTDOWN);
	res->ok = res->ok && ops->fetch(run, cell, cell_dir) == 0;
	cb_timing_lap(&run->timing, CB_PART_FETCH);
	if (res->ok)
		cell_figures(cell_dir, res->figures, sizeof(res->figures));
	cb_timing_lap(&run->timing, CB_PART_ANALYSIS);
	t1 = cb_now_ns();
	res->wall_s = (double)(t1 - t0) / 1e9;
	record_timing(run, cell_dir, t0, t1, pinned);
	res->interrupted = cb_interrupted != 0;
	snprintf(res->err, sizeof(res->err), "%s", run->err);
	return 0;
}

static void add_to(struct json_object *o, const char *key, double v)
{
	struct json_object *x;

	if (json_object_object_get_ex(o, key, &x))
		v += json_object_get_double(x);
	json_object_object_add(o, key, json_object_new_double(v));
}

struct json_object *cb_timing_run_sum(const char *run_dir, const struct cb_cell *cells, size_t nr)
{
	struct json_object *o = json_object_new_object(), *parts = json_object_new_object();
	struct json_object *meta, *t, *x, *cp;
	char path[PATH_MAX];
	long n = 0;

	json_object_object_add(o, "cell_wall_s", json_object_new_double(0));
	json_object_object_add(o, "unaccounted_s", json_object_new_double(0));
	for (int p = 0; p < CB_NR_PARTS; p++)
		json_object_object_add(parts, cb_timing_name(p), json_object_new_double(0));
	for (size_t i = 0; i < nr; i++) {
		if (cb_path(path, sizeof(path), "%s/%s/meta.json", run_dir, cells[i].id) < 0 ||
		    access(path, F_OK) < 0 || !(meta = json_object_from_file(path)))
			continue;
		if (json_object_object_get_ex(meta, "timing", &t) &&
		    json_object_object_get_ex(t, "wall_s", &x) &&
		    json_object_object_get_ex(t, "parts", &cp)) {
			n++;
			add_to(o, "cell_wall_s", json_object_get_double(x));
			if (json_object_object_get_ex(t, "unaccounted_s", &x))
				add_to(o, "unaccounted_s", json_object_get_double(x));
			for (int p = 0; p < CB_NR_PARTS; p++)
				if (json_object_object_get_ex(cp, cb_timing_name(p), &x))
					add_to(parts, cb_timing_name(p), json_object_get_double(x));
		}
		json_object_put(meta);
	}
	json_object_object_add(o, "cells", json_object_new_int64(n));
	json_object_object_add(o, "parts", parts);
	return o;
}
