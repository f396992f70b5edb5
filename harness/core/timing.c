// SPDX-License-Identifier: GPL-2.0-only
/*
 * timing.c - the stopwatch of a cell's parts (see timing.h).
 */
#include "timing.h"
#include "util.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const part_names[CB_NR_PARTS] = {
	[CB_PART_BOOT] = "boot",	   [CB_PART_SETUP] = "setup",
	[CB_PART_START_STATE] = "start_state", [CB_PART_FRAGMENT] = "fragment",
	[CB_PART_SETTLE] = "settle",	   [CB_PART_DEMAND] = "demand",
	[CB_PART_STOP] = "stop",	   [CB_PART_SHUTDOWN] = "shutdown",
	[CB_PART_FETCH] = "fetch",	   [CB_PART_ANALYSIS] = "analysis",
};

const char *cb_timing_name(enum cb_part p)
{
	return p < CB_NR_PARTS ? part_names[p] : "?";
}

void cb_timing_start(struct cb_timing *t)
{
	memset(t, 0, sizeof(*t));
	t->start_ns = t->mark_ns = cb_now_ns();
}

void cb_timing_start_at_exec(struct cb_timing *t)
{
	char *stat = cb_read_file("/proc/self/stat", NULL), *p;
	unsigned long long start_ticks = 0;
	struct timespec boot, mono;
	long hz = sysconf(_SC_CLK_TCK);
	int64_t ago_ns;

	cb_timing_start(t);
	/* field 22, counted after the ")" that ends the command name (which may hold spaces) */
	p = stat ? strrchr(stat, ')') : NULL;
	if (!p || hz <= 0 ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
		   "%*d %*d %llu", &start_ticks) != 1 ||
	    clock_gettime(CLOCK_BOOTTIME, &boot) < 0 || clock_gettime(CLOCK_MONOTONIC, &mono) < 0) {
		free(stat);
		return;
	}
	free(stat);
	ago_ns = (int64_t)boot.tv_sec * 1000000000 + boot.tv_nsec -
		 (int64_t)(start_ticks * (1000000000ULL / (unsigned long long)hz));
	if (ago_ns > 0 && (uint64_t)ago_ns < t->start_ns)
		t->start_ns = t->mark_ns = t->start_ns - (uint64_t)ago_ns;
}

/* seconds since the last lap, and the lap moved to now */
static double since_mark(struct cb_timing *t)
{
	uint64_t now = cb_now_ns();
	double s;

	if (!t->mark_ns) {
		t->start_ns = t->mark_ns = now;
		return 0;
	}
	s = (double)(now - t->mark_ns) / 1e9;
	t->mark_ns = now;
	return s;
}

void cb_timing_lap(struct cb_timing *t, enum cb_part p)
{
	double s = since_mark(t);

	if (p < CB_NR_PARTS)
		t->s[p] += s;
}

void cb_timing_lap_remote(struct cb_timing *t)
{
	t->remote_s += since_mark(t);
}

struct json_object *cb_timing_parts_json(const struct cb_timing *t)
{
	struct json_object *o = json_object_new_object();

	for (int p = 0; p < CB_NR_PARTS; p++)
		if (t->s[p] > 0)
			json_object_object_add(o, part_names[p], json_object_new_double(t->s[p]));
	return o;
}

int cb_timing_add_parts(struct cb_timing *t, struct json_object *parts)
{
	struct json_object *x;
	int found = 0;

	for (int p = CB_PART_AGENT_FIRST; p <= CB_PART_AGENT_LAST; p++) {
		double v;

		if (!json_object_object_get_ex(parts, part_names[p], &x) ||
		    !(json_object_is_type(x, json_type_double) || json_object_is_type(x, json_type_int)))
			continue;
		v = json_object_get_double(x);
		if (!(v >= 0) || isinf(v))
			continue;
		t->s[p] += v;
		found++;
	}
	return found;
}

double cb_timing_sum(const struct cb_timing *t)
{
	double sum = 0;

	for (int p = 0; p < CB_NR_PARTS; p++)
		sum += t->s[p];
	return sum;
}

struct json_object *cb_timing_json(const struct cb_timing *t, double wall_s)
{
	struct json_object *o = json_object_new_object(), *parts = json_object_new_object();
	double sum = cb_timing_sum(t);

	for (int p = 0; p < CB_NR_PARTS; p++)
		json_object_object_add(parts, part_names[p], json_object_new_double(t->s[p]));
	json_object_object_add(o, "clock", json_object_new_string("CLOCK_MONOTONIC"));
	json_object_object_add(o, "wall_s", json_object_new_double(wall_s));
	json_object_object_add(o, "parts", parts);
	json_object_object_add(o, "sum_s", json_object_new_double(sum));
	json_object_object_add(o, "unaccounted_s", json_object_new_double(wall_s - sum));
	json_object_object_add(o, "unaccounted_fraction",
			       json_object_new_double(wall_s > 0 ? (wall_s - sum) / wall_s : 0));
	json_object_object_add(o, "remote_agent_s",
			       t->remote_s > 0 ? json_object_new_double(t->remote_s) : NULL);
	return o;
}
