// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.c - analyze one cell directory into metrics and summary.json.
 */
#include "agentdata.h"
#include "summary.h"
#include "runjson.h"
#include "headroom.h"
#include "summary_json.h"
#include "util.h"
#include "vmstat.h"
#include "waves_json.h"
#include "cruns_json.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

static double watts_per_core = CB_WATTS_PER_CORE_DEFAULT;

void cb_summary_set_watts_per_core(double watts)
{
	watts_per_core = watts > 0 ? watts : CB_WATTS_PER_CORE_DEFAULT;
}

double cb_summary_watts_per_core(void)
{
	return watts_per_core;
}

long long cb_crosscheck_tolerance(long long vmstat_compact_stall)
{
	long long pct = (vmstat_compact_stall + 99) / 100;

	return pct > 2 ? pct : 2;
}

/* ---- the workload's own summary ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *cb_wl_find_jsonl(const char *dir, const char *what)
{
	struct dirent *de;
	char **names = NULL, *best = NULL;
	size_t n = 0, cap = 0, i;
	DIR *d = opendir(dir);

	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (!strstr(de->d_name, what) || len < 6 ||
		    strcmp(de->d_name + len - 6, ".jsonl"))
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 8) * sizeof(*nn));

			if (!nn)
				break;
			names = nn;
		}
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	if (n) {
		qsort(names, n, sizeof(*names), cmp_str);
		best = names[n - 1];
		names[n - 1] = NULL;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return best;
}

static bool get_cb_json_num(struct json_object *o, const char *key, double *v)
{
	struct json_object *x;
	enum json_type t;

	if (!o || !json_object_object_get_ex(o, key, &x))
		return false;
	t = json_object_get_type(x);
	if (t != json_type_int && t != json_type_double)
		return false;
	*v = json_object_get_double(x);
	return isfinite(*v);
}

/* the number at the dotted @path ("fault_ns.p50") in @o; false when absent or not a number */
static bool get_json_path_num(struct json_object *o, const char *path, double *v)
{
	char key[64];
	const char *dot;

	while ((dot = strchr(path, '.'))) {
		if ((size_t)(dot - path) >= sizeof(key))
			return false;
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		if (!o || !json_object_object_get_ex(o, key, &o))
			return false;
		path = dot + 1;
	}
	return get_cb_json_num(o, path, v);
}

int cb_wl_read_summary(const char *cell_dir, struct cb_wl_summary *out, char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX], *name, *line = NULL;
	struct json_object *last = NULL;
	size_t cap = 0;
	FILE *f;

	memset(out, 0, sizeof(*out));
	if (cb_path(dir, sizeof(dir), "%s/workload", cell_dir) < 0)
		return 0;
	name = cb_wl_find_jsonl(dir, "thp-demand");
	if (!name)
		return 0;
	snprintf(out->file, sizeof(out->file), "workload/%s", name);
	if (cb_path(path, sizeof(path), "%s/%s", dir, name) < 0 || !(f = fopen(path, "re"))) {
		snprintf(err, errlen, "%s/%s: cannot read: %s", dir, name, strerror(errno));
		free(name);
		return -1;
	}
	free(name);
	while (getline(&line, &cap, f) > 0) {
		struct json_object *o, *type;

		if (!strstr(line, "\"summary\""))
			continue;
		o = json_tokener_parse(line);
		if (o && json_object_object_get_ex(o, "type", &type) &&
		    json_object_is_type(type, json_type_string) &&
		    !strcmp(json_object_get_string(type), "summary")) {
			json_object_put(last);
			last = o;
		} else {
			json_object_put(o);
		}
	}
	free(line);
	fclose(f);
	if (!last)
		return 0;	/* the workload died before its summary: its metrics are null */
	out->present = true;
	/* each workload metric at the JSON path its row names */
	for (int m = 0; m < CB_M_NR; m++)
		if (cb_metrics[m].wl_path)
			out->has[m] = get_json_path_num(last, cb_metrics[m].wl_path, &out->v[m]);
	json_object_put(last);
	return 0;
}

/* ---- JSON ---- */

struct json_object *cb_summary_metrics_json(const struct cb_values *val, bool only_trace)
{
	struct json_object *m = json_object_new_object();
	int i;

	for (i = 0; i < CB_M_NR; i++) {
		if (only_trace && cb_metrics[i].source != CB_SRC_TRACE)
			continue;
		json_object_object_add(m, cb_metrics[i].name, val->set[i] ? cb_json_num(val->v[i]) : NULL);
	}
	return m;
}

struct json_object *cb_summary_trace_json(const char *file, const struct cb_stalls *st)
{
	struct json_object *t = json_object_new_object(), *miss = json_object_new_array();
	struct json_object *ord = json_object_new_object();
	const char *p = st->missing;
	int i;

	while (*p) {
		size_t len = strcspn(p, ",");

		json_object_array_add(miss, json_object_new_string_len(p, (int)len));
		p += len + (p[len] == ',');
	}
	for (i = 0; i <= CB_STALLS_MAX_ORDER; i++) {
		char k[8];

		if (!st->by_order[i])
			continue;
		snprintf(k, sizeof(k), "%d", i);
		json_object_object_add(ord, k, json_object_new_int64((int64_t)st->by_order[i]));
	}
	json_object_object_add(t, "file", json_object_new_string(file));
	json_object_object_add(t, "method", json_object_new_string(cb_stalls_method(st)));
	json_object_object_add(t, "events", json_object_new_int64((int64_t)st->events));
	json_object_object_add(t, "missed_events", json_object_new_int64((int64_t)st->missed));
	json_object_object_add(t, "missed_unknown",
			       json_object_new_int64((int64_t)st->missed_unknown));
	json_object_object_add(t, "missing_events", miss);
	json_object_object_add(t, "duration_ns",
			       json_object_new_int64((int64_t)(st->last_ts - st->first_ts)));
	json_object_object_add(t, "stall_end_by_alloc",
			       json_object_new_int64((int64_t)st->end_alloc));
	json_object_object_add(t, "stall_end_by_last_event",
			       json_object_new_int64((int64_t)st->end_last));
	json_object_object_add(t, "stalls_by_order", ord);
	json_object_object_add(t, "window_ns", st->win_end ? json_object_new_int64(
			       (int64_t)(st->win_end - st->win_start)) : NULL);
	json_object_object_add(t, "stalls_outside_window",
			       json_object_new_int64((int64_t)st->outside));
	return t;
}

/* ---- meta.json ---- */

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *x;

	if (!o || !json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_string))
		return NULL;
	return json_object_get_string(x);
}

/* meta.json "saved_state" (guest_state = saved): the state's name and id, else "" */
static void read_start_state(struct json_object *meta, struct cb_cell_summary *cs)
{
	struct json_object *st, *name, *id;

	cs->start_state[0] = '\0';
	if (!json_object_object_get_ex(meta, "saved_state", &st) ||
	    !json_object_object_get_ex(st, "state", &name) ||
	    !json_object_is_type(name, json_type_string))
		return;
	if (!json_object_object_get_ex(st, "id", &id) || !json_object_is_type(id, json_type_string))
		id = NULL; /* no id: the name alone */
	snprintf(cs->start_state, sizeof(cs->start_state), "%s%s%s", json_object_get_string(name),
		 id ? "/" : "", id ? json_object_get_string(id) : "");
}

/*
 * the vmstat window, when the trace's clock is the one the agent timed it with (the
 * collector's "mono" is CLOCK_MONOTONIC); 0, 0 otherwise
 */
static void read_window(struct json_object *meta, uint64_t *start, uint64_t *end)
{
	struct json_object *col = NULL, *win = NULL, *a, *b;
	const char *clock;

	*start = *end = 0;
	if (!json_object_object_get_ex(meta, "collector", &col) ||
	    !json_object_object_get_ex(meta, "window", &win))
		return;
	clock = jstr(col, "clock");
	if (!clock || strcmp(clock, "mono") || strcmp(jstr(win, "clock") ? : "", "CLOCK_MONOTONIC"))
		return;
	if (json_object_object_get_ex(win, "start_ns", &a) &&
	    json_object_object_get_ex(win, "end_ns", &b) && json_object_get_int64(b) > 0) {
		*start = (uint64_t)json_object_get_int64(a);
		*end = (uint64_t)json_object_get_int64(b);
	}
}

static int read_meta(const char *cell_dir, struct cb_cell_summary *cs, long long *lost,
		     uint64_t *win_start, uint64_t *win_end, struct json_object **cell, char *err,
		     size_t errlen)
{
	char path[PATH_MAX];
	struct json_object *meta, *c = NULL, *col = NULL, *q, *x;
	const char *status, *s;

	if (cb_path(path, sizeof(path), "%s/meta.json", cell_dir) < 0) {
		snprintf(err, errlen, "%s: path too long", cell_dir);
		return -1;
	}
	if (access(path, R_OK) < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(e));
		return e == ENOENT ? -2 : -1;	/* no meta.json: the cell never ran */
	}
	meta = cb_json_read_bounded(path, CB_META_MAX_BYTES, err, errlen);
	if (!meta || !json_object_is_type(meta, json_type_object)) {
		snprintf(err, errlen, "%s: not a JSON object", path);
		json_object_put(meta);
		return -1;
	}
	status = jstr(meta, "status");
	if (!status || strcmp(status, "complete")) {
		s = jstr(meta, "error");
		snprintf(err, errlen, "%s: status is \"%s\", not \"complete\"%s%s", path,
			 status ? status : "(missing)", s ? ": " : "", s ? s : "");
		json_object_put(meta);
		return -2;
	}
	json_object_object_get_ex(meta, "cell", &c);
	snprintf(cs->id, sizeof(cs->id), "%s", jstr(c, "id") ? : "");
	snprintf(cs->kernel, sizeof(cs->kernel), "%s", jstr(c, "kernel") ? : "");
	snprintf(cs->setting, sizeof(cs->setting), "%s", jstr(c, "setting") ? : "");
	snprintf(cs->workload, sizeof(cs->workload), "%s", jstr(c, "workload") ? : "");
	cs->rep = c && json_object_object_get_ex(c, "rep", &x) ? json_object_get_int(x) : 0;
	*lost = 0;
	if (json_object_object_get_ex(meta, "collector", &col) &&
	    json_object_object_get_ex(col, "lost", &x))
		*lost = json_object_get_int64(x);
	read_window(meta, win_start, win_end);
	cs->host_other_share = NAN;
	if (json_object_object_get_ex(meta, "qemu", &q) &&
	    json_object_object_get_ex(q, "host_other_share", &x) &&
	    (json_object_is_type(x, json_type_double) || json_object_is_type(x, json_type_int)))
		cs->host_other_share = json_object_get_double(x);
	cs->guest_clock[0] = '\0';
	if (q && json_object_object_get_ex(q, "clock", &x) && json_object_is_type(x, json_type_string))
		snprintf(cs->guest_clock, sizeof(cs->guest_clock), "%s", json_object_get_string(x));
	read_start_state(meta, cs);
	*cell = c ? json_object_get(c) : json_object_new_object();
	json_object_put(meta);
	return 0;
}

static struct json_object *crosscheck_json(const struct cb_values *v, struct cb_cell_summary *cs)
{
	struct json_object *x = json_object_new_object();
	long long tol;

	cs->has_xcheck = v->set[CB_M_DC_STALLS] && v->set[CB_M_VM_COMPACT_STALL];
	if (!cs->has_xcheck) {
		json_object_object_add(x, "trace_stalls", NULL);
		json_object_object_add(x, "vmstat_compact_stall", NULL);
		json_object_object_add(x, "agree", NULL);
		return x;
	}
	tol = cb_crosscheck_tolerance((long long)v->v[CB_M_VM_COMPACT_STALL]);
	cs->agree = fabs(v->v[CB_M_DC_STALLS] - v->v[CB_M_VM_COMPACT_STALL]) <= (double)tol;
	json_object_object_add(x, "trace_stalls", cb_json_num(v->v[CB_M_DC_STALLS]));
	json_object_object_add(x, "vmstat_compact_stall", cb_json_num(v->v[CB_M_VM_COMPACT_STALL]));
	json_object_object_add(x, "agree", json_object_new_boolean(cs->agree));
	json_object_object_add(x, "tolerance", json_object_new_int64(tol));
	json_object_object_add(x, "tolerance_rule",
			       json_object_new_string("|trace_stalls - vmstat_compact_stall| <= "
						      "max(2, ceil(1% of vmstat_compact_stall))"));
	json_object_object_add(x, "trace_success", v->set[CB_M_DC_SUCCESS] ?
			       cb_json_num(v->v[CB_M_DC_SUCCESS]) : NULL);
	json_object_object_add(x, "vmstat_compact_success", v->set[CB_M_VM_COMPACT_SUCCESS] ?
			       cb_json_num(v->v[CB_M_VM_COMPACT_SUCCESS]) : NULL);
	json_object_object_add(x, "trace_fail",
			       v->set[CB_M_DC_FAIL] ? cb_json_num(v->v[CB_M_DC_FAIL]) : NULL);
	json_object_object_add(x, "vmstat_compact_fail", v->set[CB_M_VM_COMPACT_FAIL] ?
			       cb_json_num(v->v[CB_M_VM_COMPACT_FAIL]) : NULL);
	return x;
}

bool cb_summary_stretched(struct json_object *sum, double *share)
{
	struct json_object *x;

	*share = NAN;
	if (!sum || !json_object_object_get_ex(sum, "host_other_share", &x) || !x)
		return false;
	*share = json_object_get_double(x);
	if (json_object_object_get_ex(sum, "guest_clock", &x) && x &&
	    !strcmp(json_object_get_string(x), "icount"))
		return false;
	return *share > CB_HOST_OTHER_WARN;
}

/* warning @w into summary.json's "warnings" and after the cell's own in @cs->warning */
static void add_warning(struct json_object *root, struct cb_cell_summary *cs, const char *w)
{
	size_t len = strlen(cs->warning);

	json_object_array_add(json_object_object_get(root, "warnings"), json_object_new_string(w));
	snprintf(cs->warning + len, sizeof(cs->warning) - len, "%s%s", len ? "; " : "", w);
}

/*
 * A guest's host busy with other work (meta.json qemu.host_other_share): summary.json's
 * "host_other_share" and "guest_clock", and over CB_HOST_OTHER_WARN a warning, added to the
 * cell's own, unless the guest's clock counts instructions.
 */
static void host_warning(struct json_object *root, struct cb_cell_summary *cs)
{
	char w[300];
	double share;

	json_object_object_add(root, "host_other_share", isnan(cs->host_other_share) ? NULL :
			       json_object_new_double(cs->host_other_share));
	json_object_object_add(root, "guest_clock", cs->guest_clock[0] ?
			       json_object_new_string(cs->guest_clock) : NULL);
	if (!cb_summary_stretched(root, &share))
		return;
	snprintf(w, sizeof(w), "other work took %.0f%% of the host's CPU time while the guest "
		 "ran (meta.json qemu.host_other_share): the guest's clock is the host's, so what "
		 "it times, stall times included, stretches while its vCPUs wait for a CPU",
		 cs->host_other_share * 100);
	add_warning(root, cs, w);
}

/* summary.json's object for one cell, from what summarize() read and computed */
static struct json_object *summary_json(const char *cell_dir, struct json_object *cell,
					struct cb_cell_summary *cs, const struct cb_stalls *st,
					const struct cb_vmstat *before, const struct cb_vmstat *after,
					const struct cb_agentdata *ad, const struct cb_waves *waves,
					const struct cb_wl_summary *wl, long long lost)
{
	struct json_object *root = json_object_new_object();

	json_object_object_add(root, "schema", json_object_new_int(CB_SUMMARY_SCHEMA));
	json_object_object_add(root, "cell", json_object_get(cell));
	json_object_object_add(root, "method", json_object_new_string(cb_stalls_method(st)));
	json_object_object_add(root, "lost_events", json_object_new_boolean(cs->lost));
	json_object_object_add(root, "collector_lost", json_object_new_int64(lost));
	json_object_object_add(root, "trace", cb_summary_trace_json("trace.dat", st));
	json_object_object_add(root, "workload_summary",
			       wl->present ? json_object_new_string(wl->file) : NULL);
	json_object_object_add(root, "metrics", cb_summary_metrics_json(&cs->val, false));
	json_object_object_add(root, "crosscheck", crosscheck_json(&cs->val, cs));
	if (cb_headroom_check(cell_dir, waves, cs->warning, sizeof(cs->warning)) != 1)
		cs->warning[0] = '\0';
	json_object_object_add(root, "warnings", json_object_new_array());
	if (cs->warning[0])
		json_object_array_add(json_object_object_get(root, "warnings"),
				      json_object_new_string(cs->warning));
	host_warning(root, cs);
	/* the saved guest it started from: compare pairs settings by it (verdict.h) */
	json_object_object_add(root, "start_state", cs->start_state[0] ?
			       json_object_new_string(cs->start_state) : NULL);
	if (st->stalls && !cb_stalls_recorded(st, "kmem:mm_page_alloc"))
		add_warning(root, cs, "the trace has no kmem:mm_page_alloc: each stall ends at its "
			    "last compaction event, not at its allocation, and whether it got a "
			    "page (dc_success, dc_fail) is unknown");
	json_object_object_add(root, "stalls", cb_summary_stalls_json(st));
	if (st->probe.present) {
		json_object_object_add(root, "probe", cb_summary_probe_json(st));
		json_object_object_add(root, "method_comparison",
				       cb_summary_method_comparison_json(st));
	}
	json_object_object_add(root, "allocations", cb_summary_alloc_json(st));
	json_object_object_add(root, "compaction", cb_summary_work_json(st, before, after));
	json_object_object_add(root, "extfrag", cb_summary_extfrag_json(st));
	json_object_object_add(root, "fragmentation", cb_summary_frag_json(ad));
	json_object_object_add(root, "cpu", cb_summary_cpu_json(ad, st));
	json_object_object_add(root, "energy", cb_summary_energy_json(ad, st, watts_per_core));
	json_object_object_add(root, "compaction_runs", cb_cruns_json(st));
	/* absent, not null, for a cell without them: older summaries stay as they were */
	if (waves->present)
		json_object_object_add(root, "waves", cb_waves_json(waves));
	if (waves->has_breakup)
		json_object_object_add(root, "breakup", cb_breakup_json(waves));
	return root;
}

/* @root as @cell_dir/summary.json, pretty-printed, written under a temporary name */
static int write_summary(const char *cell_dir, struct json_object *root, char *err,
			 size_t errlen)
{
	const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_NOSLASHESCAPE);
	char path[PATH_MAX], *buf = cb_xasprintf("%s\n", text);
	int ret = 0;

	if (cb_path(path, sizeof(path), "%s/summary.json", cell_dir) < 0 ||
	    cb_write_file_atomic(path, buf, strlen(buf)) < 0) {
		snprintf(err, errlen, "%s/summary.json: cannot write: %s", cell_dir, strerror(errno));
		ret = -1;
	}
	free(buf);
	return ret;
}

static int summarize(const char *cell_dir, struct cb_cell_summary *out, char *err, size_t errlen)
{
	struct cb_cell_summary local, *cs = out ? out : &local;
	struct cb_vmstat before = { 0 }, after = { 0 };
	struct json_object *root = NULL, *cell = NULL;
	struct cb_wl_summary wl;
	struct cb_agentdata ad;
	struct cb_waves waves = { 0 };
	struct cb_stalls st;
	struct cb_metric_in in;
	char path[PATH_MAX];
	uint64_t ws, we;
	long long lost;
	int ret = -1;

	memset(cs, 0, sizeof(*cs));
	memset(&st, 0, sizeof(st));
	ret = read_meta(cell_dir, cs, &lost, &ws, &we, &cell, err, errlen);
	if (ret)
		return ret;
	ret = -1;
	if (cb_path(path, sizeof(path), "%s/vmstat.before", cell_dir) < 0 ||
	    cb_vmstat_read(path, &before, err, errlen))
		goto out;
	if (cb_path(path, sizeof(path), "%s/vmstat.after", cell_dir) < 0 ||
	    cb_vmstat_read(path, &after, err, errlen))
		goto out;
	if (cb_path(path, sizeof(path), "%s/trace.dat", cell_dir) < 0 ||
	    cb_stalls_from_trace_window(path, ws, we, &st, err, errlen))
		goto out;
	if (cb_wl_read_summary(cell_dir, &wl, err, errlen))
		goto out;
	if (cb_agentdata_read(cell_dir, ws, we, &ad, err, errlen))
		goto out;
	if (cb_waves_analyze(cell_dir, &st, ws, we, &waves, err, errlen))
		goto out;
	in = (struct cb_metric_in){ .st = &st, .before = &before, .after = &after, .wl = &wl,
				    .agent = &ad, .waves = &waves, .watts_per_core = watts_per_core };
	cb_metrics_compute(&in, &cs->val);
	cs->lost = lost > 0 || st.missed > 0 || st.missed_unknown > 0;
	snprintf(cs->energy_source, sizeof(cs->energy_source), "%s",
		 ad.source ? ad.source : "modeled");

	root = summary_json(cell_dir, cell, cs, &st, &before, &after, &ad, &waves, &wl, lost);
	if (write_summary(cell_dir, root, err, errlen) < 0)
		goto out;
	ret = 0;
out:
	json_object_put(root);
	json_object_put(cell);
	cb_waves_free(&waves);
	cb_stalls_free(&st);
	cb_vmstat_free(&before);
	cb_vmstat_free(&after);
	return ret;
}

/*
 * A cell that cannot be summarized keeps no summary.json: an older one (from before its
 * trace was cut short or a file went missing) would otherwise be read by compare and gate
 * as if the cell were still good.
 */
int cb_summarize_cell(const char *cell_dir, struct cb_cell_summary *out, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int ret = summarize(cell_dir, out, err, errlen);

	if (ret && cb_path(path, sizeof(path), "%s/summary.json", cell_dir) == 0 &&
	    unlink(path) < 0 && errno != ENOENT)
		snprintf(err + strlen(err), errlen - strlen(err), " (and its old summary.json "
			 "cannot be removed: %s)", strerror(errno));
	return ret;
}
