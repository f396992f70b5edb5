/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf_power.h - RAPL energy through perf's "power" PMU, the second measured source
 * (energy.h is powercap).
 *
 * The PMU is described in @root/sys/bus/event_source/devices/power:
 *
 *   type                      the perf_event_attr.type to open it with
 *   cpumask                   one CPU per package ("0" or "0,28"): the counters are per package
 *   format/event              "config:0-7": where the event term goes in attr.config
 *   events/energy-pkg         "event=0x02"
 *   events/energy-pkg.scale   "2.3283064365386962890625e-10" (joules per count)
 *   events/energy-pkg.unit    "Joules"
 *
 * Only energy-pkg and energy-ram are opened (the package and DRAM domains, as with
 * powercap): energy-cores and energy-gpu are inside the package, energy-psys overlaps it.
 * Counts are 64 bits (the kernel accumulates the 32-bit MSR), so they do not wrap in
 * practice; a count that went down is an error, never a negative energy.
 *
 * The agent writes perf-power.before and perf-power.after:
 *
 *   # compactbench perf-power 1: event cpu count scale unit
 *   energy-pkg 0 1234567890 2.3283064365386962890625e-10 Joules
 */
#ifndef CB_PERF_POWER_H
#define CB_PERF_POWER_H

#include <stddef.h>
#include <stdint.h>

#include "energy.h"

#define CB_PP_MAX_EVENTS 2
#define CB_PP_MAX_CPUS 16
#define CB_PP_MAX_COUNTERS (CB_PP_MAX_EVENTS * CB_PP_MAX_CPUS)

struct cb_pp_event {
	char name[32];		/* energy-pkg, energy-ram */
	int domain;		/* CB_ENERGY_PKG, CB_ENERGY_DRAM */
	uint64_t config;
	double scale;		/* joules per count */
	char scale_text[64];	/* as the kernel wrote it */
	char unit[16];
};

struct cb_pp_pmu {
	int type;
	int nev, ncpu;
	struct cb_pp_event ev[CB_PP_MAX_EVENTS];
	int cpu[CB_PP_MAX_CPUS];
};

struct cb_pp_counter {
	char event[32];
	int domain, cpu;
	uint64_t count;
	double scale;
	char scale_text[64];
	char unit[16];
};

struct cb_pp_snap {
	int n;
	struct cb_pp_counter c[CB_PP_MAX_COUNTERS];
};

/*
 * cb_pp_parse_event - an events/<name> file ("event=0x02", terms separated by commas) into
 * attr.config, each term placed where @root's PMU format/<term> ("config:0-7") says. Returns
 * 0, or -1 with a message naming the bad term or format file in @err.
 */
int cb_pp_parse_event(const char *pmu_dir, const char *text, uint64_t *config, char *err,
		      size_t errlen);

/* cb_pp_parse_scale - "2.3283064365386962890625e-10" into @scale; -1 if not a positive number */
int cb_pp_parse_scale(const char *text, double *scale);

/* cb_pp_parse_cpumask - a CPU list ("0", "0,28", "0-1") into @cpus; their number, or -1 */
int cb_pp_parse_cpumask(const char *text, int *cpus, int max);

/*
 * cb_pp_probe - read the power PMU of @root (NULL or "" for the real /sys). Returns 1 with
 * @pmu filled when it exists and has energy-pkg or energy-ram, 0 when it does not exist
 * (VMs, AMD before Zen) or has neither event (a note in @err: a guest with energy-psys
 * only, like the development host), -1 with a message naming the file in @err when a file
 * of it is missing or does not parse.
 */
int cb_pp_probe(const char *root, struct cb_pp_pmu *pmu, char *err, size_t errlen);

/* cb_pp_joules - @count counts at @scale joules per count */
double cb_pp_joules(uint64_t count, double scale);

struct cb_pp;

/*
 * cb_pp_open - perf_event_open(2) every event of @pmu system-wide on each CPU of its cpumask.
 * Returns the open counters, or NULL with a message in @err.
 */
struct cb_pp *cb_pp_open(const struct cb_pp_pmu *pmu, char *err, size_t errlen);

/* cb_pp_read - read every counter into @out; 0, or -1 with a message in @err */
int cb_pp_read(struct cb_pp *pp, struct cb_pp_snap *out, char *err, size_t errlen);

/* cb_pp_close - close the counters and free @pp (NULL: nothing) */
void cb_pp_close(struct cb_pp *pp);

/* cb_pp_format - @s as the text of a perf-power.* file (malloc'ed); -1 with errno */
int cb_pp_format(const struct cb_pp_snap *s, char **text);

/* cb_pp_parse - a perf-power.* file; -1 with EINVAL and the bad line in @bad_line */
int cb_pp_parse(const char *text, struct cb_pp_snap *out, int *bad_line);

/*
 * cb_pp_delta - the joules per domain between @b and @a (the same counters), added into
 * @j. Returns the number of counters, or -1 with a message in @err: different counters, or
 * a count that went down.
 */
int cb_pp_delta(const struct cb_pp_snap *b, const struct cb_pp_snap *a,
		double j[CB_ENERGY_NR_DOMAINS], char *err, size_t errlen);

#endif
