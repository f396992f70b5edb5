/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * energy.h - RAPL energy through powercap, and the modeled figure where there is none
 * (perf's power PMU, the other measured source, is perf_power.h).
 *
 * Domains: the package zones /sys/class/powercap/intel-rapl:<n> whose name is package-<n>,
 * and their DRAM subzones intel-rapl:<n>:<m> named "dram" (DRAM energy is not part of the
 * package's). Not read: the core/uncore subzones (inside the package), psys (the whole SoC,
 * it overlaps the package) and intel-rapl-mmio (the same package through MMIO).
 *
 * The agent writes energy.before and energy.after:
 *
 *   # compactbench energy 2: zone name energy_uj max_energy_range_uj
 *   # t_ns 123456789000
 *   intel-rapl:0 package-0 123456789 262143328850
 *   intel-rapl:0:0 dram 2345678 65712999613
 *
 * (no zone line when the machine has none: VMs, this host; version 1 files have no t_ns
 * line and package zones only), and its sampler appends the same readings every 250 ms to
 * energy.csv while the cell runs:
 *
 *   t_ns,zone,name,energy_uj,max_energy_range_uj
 *
 * Wrap-around: energy_uj counts in [0, max_energy_range_uj] and starts again at 0, so a
 * counter that went down between two readings wrapped, and the delta is
 * after + max_energy_range_uj + 1 - before. That assumes at most one wrap per interval:
 * true while the interval is shorter than the wrap period at the largest power a domain can
 * draw, max_energy_range_uj / CB_ENERGY_MAX_W (262 s for the common 262143328850 uJ range).
 * The cell's energy is therefore the sum of the wrap-corrected deltas between consecutive
 * readings (energy.before, every energy.csv row, energy.after), and a figure whose longest
 * interval exceeds that bound is not given (cb_energy_chain).
 */
#ifndef CB_ENERGY_H
#define CB_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#define CB_ENERGY_MAX_ZONES 16

/* the largest power one RAPL domain is assumed to draw, for the wrap bound (W) */
#define CB_ENERGY_MAX_W 1000.0

enum cb_energy_domain {
	CB_ENERGY_PKG,
	CB_ENERGY_DRAM,
	CB_ENERGY_NR_DOMAINS,
};

struct cb_energy_zone {
	char zone[32], name[32];
	uint64_t uj, max_uj;
};

struct cb_energy_snap {
	uint64_t t_ns;		/* CLOCK_MONOTONIC of the reading; 0: unknown (version 1) */
	int n;
	struct cb_energy_zone z[CB_ENERGY_MAX_ZONES];
};

/* the energy of a sequence of readings, per domain (cb_energy_chain) */
struct cb_energy_sum {
	int zones;				/* zones summed; 0: no RAPL */
	int nz[CB_ENERGY_NR_DOMAINS];		/* zones per domain (0: no DRAM zone) */
	double j[CB_ENERGY_NR_DOMAINS];		/* joules per domain */
	double total_j;				/* package + DRAM */
	int wraps;				/* counter wrap-arounds corrected */
	double max_gap_s;			/* the longest interval; -1: unknown */
	double wrap_s;				/* the shortest wrap period at CB_ENERGY_MAX_W */
};

/* cb_energy_domain_of - the domain of a powercap zone's name ("package-0", "dram"), or -1 */
int cb_energy_domain_of(const char *name);

/* cb_energy_domain_name - "package" or "dram" */
const char *cb_energy_domain_name(int domain);

/*
 * cb_energy_read - read the package and DRAM zones of @root/sys/class/powercap into @out
 * (zone names sorted, @out->t_ns the time of reading). Returns the number of zones (0: no
 * powercap RAPL), or -1 with errno and a message naming the file in @err: a zone whose
 * energy_uj or max_energy_range_uj is missing, unreadable or not a number.
 */
int cb_energy_read(const char *root, struct cb_energy_snap *out, char *err, size_t errlen);

/* cb_energy_format - @s as the text of an energy.* file (malloc'ed); -1 with errno */
int cb_energy_format(const struct cb_energy_snap *s, char **text);

/*
 * cb_energy_snapshot - cb_energy_read and cb_energy_format: the text of an energy.* file in
 * *@text. Returns the number of zones, or -1 (errno, @err).
 */
int cb_energy_snapshot(const char *root, char **text, char *err, size_t errlen);

/* cb_energy_parse - parse an energy.* file; -1 with EINVAL and the bad line in @bad_line */
int cb_energy_parse(const char *text, struct cb_energy_snap *out, int *bad_line);

/*
 * cb_energy_csv_parse - parse an energy.csv into readings grouped by t_ns (*@snaps,
 * malloc'ed, in file order). Returns their number, or -1 with errno EINVAL and the bad line.
 */
int cb_energy_csv_parse(const char *text, struct cb_energy_snap **snaps, int *bad_line);

/* cb_energy_delta_uj - @after - @before of one counter that wraps after @max_uj */
uint64_t cb_energy_delta_uj(uint64_t before, uint64_t after, uint64_t max_uj);

/*
 * cb_energy_chain - the energy of @n readings in time order: per zone, the sum of the
 * wrap-corrected deltas between consecutive readings. Every reading must have the same
 * zones (else -1 with EINVAL). Returns the number of zones, 0 without RAPL; -1 with ERANGE
 * (and @out filled) when the longest interval between two timed readings is longer than
 * the wrap period at CB_ENERGY_MAX_W, so that a second wrap cannot be excluded.
 */
int cb_energy_chain(const struct cb_energy_snap *s, int n, struct cb_energy_sum *out);

/*
 * cb_energy_delta - cb_energy_chain of two readings, in joules (package + DRAM). Returns
 * the number of zones summed (0: no RAPL), or -1.
 */
int cb_energy_delta(const struct cb_energy_snap *before, const struct cb_energy_snap *after,
		    double *joules);

/*
 * cb_energy_modeled - the modeled energy of @busy_ns of CPU time at @watts per busy core,
 * in joules (labeled "modeled" wherever it is shown)
 */
double cb_energy_modeled(double busy_ns, double watts);

#endif
