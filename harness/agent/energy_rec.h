/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * energy_rec.h - the agent's energy sources for one cell, and meta.json's "energy":
 *
 *   r = cb_energy_rec_start(dir, root, err, n)   which sources exist; perf's power PMU
 *                                                counters opened, perf-power.before written
 *   ... the cell (energy.before/after and energy.csv come from the sampler, sampler.h) ...
 *   cb_energy_rec_stop(r, dir, err, n)           perf-power.after written, counters closed
 *   cb_energy_rec_meta(r)                        {"source", "powercap", "perf_power", ...}
 *
 * "source" is the figure the analyzer reports as energy_rapl_j: "powercap" where
 * /sys/class/powercap has package (and DRAM) zones, else "perf-power" where the power PMU's
 * energy-pkg (energy-ram) counters opened, else "modeled" (the CPU-time model only). Where
 * both exist both are recorded, and the analyzer shows perf-power beside powercap.
 */
#ifndef CB_ENERGY_REC_H
#define CB_ENERGY_REC_H

#include <json-c/json.h>
#include <stddef.h>

struct cb_energy_rec;

/*
 * cb_energy_rec_start - probe powercap and the power PMU of @root ("" or NULL: the real
 * /sys) and start the perf counters. A PMU that exists but cannot be opened is no error
 * (meta.json says why under "perf_power_error"); a powercap zone that cannot be read, or a
 * perf-power.before that cannot be written, is: NULL with a message naming the file in @err.
 */
struct cb_energy_rec *cb_energy_rec_start(const char *cell_dir, const char *root, char *err,
					  size_t errlen);

/*
 * cb_energy_rec_stop - read the perf counters into perf-power.after and close them.
 * Returns 0, or -1 with a message in @err. @r stays valid for cb_energy_rec_meta.
 */
int cb_energy_rec_stop(struct cb_energy_rec *r, const char *cell_dir, char *err, size_t errlen);

/*
 * cb_energy_rec_meta - meta.json's "energy": {"source", "powercap": [zone names],
 * "perf_power": [event names], "perf_power_error": text or null}. A new object.
 */
struct json_object *cb_energy_rec_meta(const struct cb_energy_rec *r);

/* cb_energy_rec_source - "powercap", "perf-power" or "modeled" */
const char *cb_energy_rec_source(const struct cb_energy_rec *r);

/* cb_energy_rec_free - close what is open and free @r (NULL: nothing) */
void cb_energy_rec_free(struct cb_energy_rec *r);

#endif
