/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * energy.h - RAPL energy through powercap, and the modeled figure where there is none.
 *
 * The agent writes energy.before and energy.after:
 *
 *   # compactbench energy 1: zone name energy_uj max_energy_range_uj
 *   intel-rapl:0 package-0 123456789 262143328850
 *
 * one line per top-level RAPL zone (/sys/class/powercap/intel-rapl:<n>, not its
 * subzones intel-rapl:<n>:<m>, which the package already contains); no line when the
 * machine has none (VMs, this host). energy_uj wraps at max_energy_range_uj: a counter that
 * went down between the snapshots wrapped once, and the delta is
 * after + max_energy_range_uj - before (the same rule as turbostat and perf's rapl PMU
 * users; a window longer than one wrap period, minutes at full load, cannot be told apart).
 */
#ifndef CB_ENERGY_H
#define CB_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#define CB_ENERGY_MAX_ZONES 16

struct cb_energy_zone {
	char zone[32], name[32];
	uint64_t uj, max_uj;
};

struct cb_energy_snap {
	int n;
	struct cb_energy_zone z[CB_ENERGY_MAX_ZONES];
};

/*
 * cb_energy_snapshot - the top-level RAPL zones of @root/sys/class/powercap as the text of
 * an energy.* file (malloc'ed, in *@text). Returns the number of zones (0: none), or -1 with
 * errno on a write error.
 */
int cb_energy_snapshot(const char *root, char **text);

/* cb_energy_parse - parse an energy.* file; -1 with EINVAL and the bad line in @bad_line */
int cb_energy_parse(const char *text, struct cb_energy_snap *out, int *bad_line);

/* cb_energy_delta_uj - @after - @before of one counter that wraps at @max_uj */
uint64_t cb_energy_delta_uj(uint64_t before, uint64_t after, uint64_t max_uj);

/*
 * cb_energy_delta - the energy of every zone present in both snapshots, summed, in joules.
 * Returns the number of zones summed (0: no RAPL).
 */
int cb_energy_delta(const struct cb_energy_snap *before, const struct cb_energy_snap *after,
		    double *joules);

/*
 * cb_energy_modeled - the modeled energy of @busy_ns of CPU time at @watts per busy core,
 * in joules (labeled "modeled" wherever it is shown)
 */
double cb_energy_modeled(double busy_ns, double watts);

#endif
