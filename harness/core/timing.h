/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * timing.h - where a cell's time goes: laps of one CLOCK_MONOTONIC stopwatch.
 *
 * The run loop starts the stopwatch when a cell starts; each step of the cell ends with a
 * lap naming its part, so the parts follow each other with no gap in the process that
 * measures them. An agent that runs elsewhere (the qemu guest) keeps its own stopwatch on
 * its own clock and writes its laps into the cell's meta.json; the host marks the interval
 * it saw that agent run as "remote" (not a part) and takes the agent's parts in its place.
 * The parts are checked against the cell's wall time measured apart (cb_timing_json):
 * what no lap covers, or a guest clock that disagrees with the host's, shows as
 * "unaccounted".
 */
#ifndef CB_TIMING_H
#define CB_TIMING_H

#include <stdbool.h>
#include <stdint.h>

struct json_object;

enum cb_part {
	CB_PART_BOOT,	     /* qemu: QEMU started (a KVM probe included) to the agent's start */
	CB_PART_SETUP,	     /* journal replay, knobs, memory window, collector on, snapshots */
	CB_PART_START_STATE, /* start_state: drop caches, compact memory; cooldown */
	CB_PART_FRAGMENT,    /* background load and fragmenter started, to the fragmenter's ready */
	CB_PART_SETTLE,	     /* settle: background compaction before the demand */
	CB_PART_DEMAND,	     /* the demand phase (and its companion) to their end */
	CB_PART_STOP,	     /* sampler, snapshots after, workloads stopped, trace.dat written */
	CB_PART_SHUTDOWN,    /* the agent's end to the target's: guest poweroff, last meta.json */
	CB_PART_FETCH,	     /* copy-back: the cell's files and meta.json's target fields */
	CB_PART_ANALYSIS,    /* the cell's summary.json */
	CB_NR_PARTS
};

/* the parts an agent measures (setup to stop); the rest are the host's */
#define CB_PART_AGENT_FIRST CB_PART_SETUP
#define CB_PART_AGENT_LAST CB_PART_STOP

struct cb_timing {
	double s[CB_NR_PARTS]; /* seconds per part */
	double remote_s;       /* host-measured time of an agent elsewhere, 0 if none */
	uint64_t start_ns;     /* when the stopwatch started */
	uint64_t mark_ns;      /* the last lap (0: not started) */
};

/* cb_timing_name - the part's name in meta.json and run.json ("boot", "setup", ...) */
const char *cb_timing_name(enum cb_part p);

/* cb_timing_start - zero @t and start it now */
void cb_timing_start(struct cb_timing *t);

/*
 * cb_timing_start_at_exec - start @t at this process's start (/proc/self/stat starttime, a
 * 10 ms tick, moved from CLOCK_BOOTTIME to CLOCK_MONOTONIC): an agent counts its own exec
 * and loading. Falls back to now.
 */
void cb_timing_start_at_exec(struct cb_timing *t);

/* cb_timing_lap - the time since the last lap belongs to @p; a stopwatch not started starts */
void cb_timing_lap(struct cb_timing *t, enum cb_part p);

/* cb_timing_lap_remote - the time since the last lap was an agent elsewhere (see above) */
void cb_timing_lap_remote(struct cb_timing *t);

/*
 * cb_timing_parts_json - {"NAME": seconds} of the parts with a lap (> 0), for the agent's
 * meta.json "timing" {"parts": ...}
 */
struct json_object *cb_timing_parts_json(const struct cb_timing *t);

/*
 * cb_timing_add_parts - add to @t the agent parts (setup..stop) of @parts, a "parts" object
 * as cb_timing_parts_json writes it. Returns how many parts were found; an unknown name or a
 * negative or non-number value is skipped.
 */
int cb_timing_add_parts(struct cb_timing *t, struct json_object *parts);

/*
 * cb_timing_json - the cell's breakdown: {"wall_s", "parts": {every part}, "sum_s",
 * "unaccounted_s" (wall - sum), "unaccounted_fraction", "remote_agent_s" (or null),
 * "clock": "CLOCK_MONOTONIC"}. @wall_s: the cell's wall time, measured apart.
 */
struct json_object *cb_timing_json(const struct cb_timing *t, double wall_s);

/* cb_timing_sum - the sum of the parts, in seconds */
double cb_timing_sum(const struct cb_timing *t);

#endif
