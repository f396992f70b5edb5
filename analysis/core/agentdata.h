/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * agentdata.h - the analyzer's reading of what the agent's sampler wrote into a cell
 * (harness/agent/sampler.h, energy_rec.h): samples.csv, cpu.before/after, energy.before/after
 * with energy.csv, perf-power.before/after; and wmark.json, the wmark policy's counters
 * (harness/agent/wmark.h), whose absence means no policy ran.
 *
 * Each pair is optional (cells recorded before the sampler existed have none, and their
 * metrics are null), but half a pair, or a file that does not parse, is bad input: an
 * error naming the file (and the line).
 */
#ifndef CB_AGENTDATA_H
#define CB_AGENTDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpustat.h"
#include "energy.h"

struct cb_agentdata {
	bool has_samples;
	int samples;		/* sample times in samples.csv */
	unsigned int score_start, score_end, score_max; /* the worst node's score */
	bool has_cpu;
	struct cb_cpu_delta cpu;
	bool has_energy;	/* energy.before/after (powercap) were recorded */
	int rapl_zones;		/* powercap package/DRAM zones; 0: none */
	bool powercap_ok;	/* powercap holds a figure (else powercap_note says why) */
	struct cb_energy_sum powercap;	/* per domain, wraps, longest interval */
	int powercap_readings;	/* energy.before, energy.csv's readings, energy.after */
	char powercap_note[256];
	bool has_perf;		/* perf-power.before/after were recorded */
	int perf_counters;
	int perf_n[CB_ENERGY_NR_DOMAINS];	/* counters per domain */
	double perf_j[CB_ENERGY_NR_DOMAINS], perf_total_j;
	/*
	 * The measured energy (package + DRAM) and where it comes from: "powercap", else
	 * "perf-power"; "modeled" when neither has a figure (rapl_j is then not valid).
	 */
	const char *source;
	double rapl_j;
	double rapl_domain_j[CB_ENERGY_NR_DOMAINS];	/* per domain, of source */
	int rapl_domain_n[CB_ENERGY_NR_DOMAINS];	/* its zones/counters per domain */
	bool measured;		/* source is powercap or perf-power: rapl_j is valid */
	bool has_policy;	/* wmark.json: the setting ran the wmark policy */
	uint64_t policy_cpu_ns;	/* its thread's CPU time (0 without a policy) */
	uint64_t policy_checks, policy_triggers;
};

/*
 * cb_agentdata_read - read the sampler's files of @cell_dir, counting samples only inside
 * [@ws, @we] (0, 0: all). Returns 0, or -1 with a message naming the file in @err.
 */
int cb_agentdata_read(const char *cell_dir, uint64_t ws, uint64_t we, struct cb_agentdata *out,
		      char *err, size_t errlen);

/*
 * cb_samples_parse - the fragmentation summary of the text of a samples.csv: per sample
 * time, the largest node_score; its first, last and largest value over the samples in
 * [@ws, @we]. Returns the number of samples, or -1 with errno EINVAL and the bad line.
 */
int cb_samples_parse(const char *text, uint64_t ws, uint64_t we, unsigned int *start,
		     unsigned int *end, unsigned int *max, int *bad_line);

/* cb_csv_column - the column index of @name in the CSV header @line, or -1 */
int cb_csv_column(const char *line, const char *name);

/* cb_csv_u64 - field @col of a CSV @line as an unsigned decimal number; 0, or -1 */
int cb_csv_u64(const char *line, int col, unsigned long long *v);

#endif
