/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * waves.h - recurring demand cut into waves (analysis/README.md: "Waves"): the wave lines
 * of a cell's workload/ *.jsonl read as untrusted input, its direct compaction stalls cut
 * by wave (a post-processing of the stall records: the trace is not read again), the free
 * blocks at the start of each wave from samples.csv (readiness), and the break-up estimate:
 * a lower bound on order >= 9 blocks broken up, from the buddyinfo samples against the
 * order >= 9 allocations the trace saw between them (waste).
 */
#ifndef CB_WAVES_H
#define CB_WAVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stalls.h"

/* waves one cell may hold: ~1.2 KB each in summary.json, which compare reads up to 4 MiB */
#define CB_WAVES_MAX 2000
#define CB_WAVES_MAX_ORDER 10		/* o0..o10 of samples.csv (MAX_ORDER 10 on x86) */
#define CB_WAVES_TIME_MAX (1ULL << 62)	/* ns: larger start_ns/end_ns are refused */
#define CB_WAVES_COUNT_MAX (1ULL << 48)	/* faults, thp, allocs, failed, requested_bytes */

enum { CB_WAVE_THP = 1, CB_WAVE_KERNEL = 2 };

/* one wave, as the workload recorded it, and what the analyzer found in it */
struct cb_wave {
	long index;
	uint64_t start, end;		/* [start, end), CLOCK_MONOTONIC ns (the trace's "mono") */
	unsigned int kinds;		/* CB_WAVE_THP | CB_WAVE_KERNEL: the lines merged into it */
	double requested_bytes;		/* summed over its lines */
	uint64_t faults, thp;		/* thp line */
	uint64_t allocs, failed;	/* kernel line */
	bool has_lat[2][3];		/* [thp, kernel][p50, p99, max] */
	double lat[2][3];		/* fault/allocation latency as the workload timed it, ns */
	/* the cut */
	uint64_t stalls;		/* stalls whose start lies in [start, end) */
	double stall_ns;		/* their summed duration */
	/* readiness: the last sample at or before start (has_ready false: none) */
	bool has_ready;
	uint64_t ready_t;		/* that sample's t_ns */
	uint64_t free[CB_WAVES_MAX_ORDER + 1];	/* free blocks per order, summed over zones */
	/* waste: the break-up estimate over the sample intervals ending in the wave's time */
	bool has_breakup;
	double breakup_before;		/* intervals ending in [previous wave's end, start) */
	double breakup_during;		/* intervals ending in [start, end) */
	/* where its last line was read (for messages) */
	int file, line;
};

/* the reading state of one workload file */
struct cb_waves_file {
	const char *name;		/* for messages: "workload/NAME" */
	int idx;			/* its number in name order */
	bool header;			/* its "waves" line was read */
	long last;			/* the last wave index it gave, -1 before the first */
	uint64_t prev_end;		/* that wave's end_ns */
};

/* the waves of a cell */
struct cb_waves {
	bool present;			/* the cell has wave lines */
	char file[256];			/* the first file with a waves line, relative to the cell */
	char arrival[16];		/* "periodic" or "poisson" */
	double period_s;
	long count;			/* the waves line's count (what was asked) */
	long long seed;
	struct cb_wave *w;		/* by index, ascending; w[i].index == i is not assumed */
	size_t n, cap;
	uint64_t outside;		/* stalls in no wave */
	double outside_ns;
	/* the break-up estimate over the whole window (independent of waves) */
	bool has_breakup;
	double breakup;			/* in order-9 blocks; a lower bound, an estimate */
	size_t intervals;		/* sample intervals it summed */
	double interval_ns_median;	/* their median length */
	uint64_t big_allocs;		/* order >= 9 allocations (A_k summed), in order-9 units */
	bool big_allocs_vmstat;		/* A_k from samples.csv's thp_alloc, not the trace */
};

/*
 * cb_waves_read - every "waves" and "wave" line of @cell_dir/workload/ *.jsonl (files in
 * name order). Lines of the same index from two files (a THP and a kernel program) are
 * one wave of both kinds; the same index and kind twice, overlapping waves, end before
 * start, a missing or out-of-range key, a wave before its file's "waves" line or a clock
 * other than CLOCK_MONOTONIC are bad input. No workload directory or no wave line: 0 with
 * @out->present false. Returns 0, or -1 with "FILE: line N: why" in @err.
 */
int cb_waves_read(const char *cell_dir, struct cb_waves *out, char *err, size_t errlen);

/*
 * cb_waves_parse_line - one line (@line, NUL-terminated) of the file @fs into @ws. Returns
 * 0 (also for a line that is not a wave line), or -1 with the reason in @err (without the
 * file and line, which the caller adds).
 */
int cb_waves_parse_line(const char *line, struct cb_waves *ws, struct cb_waves_file *fs,
			char *err, size_t errlen);

/*
 * cb_waves_check - after every file: waves in index order must not overlap. Returns 0, or
 * -1 with "@names[file]: line N: why" in @err.
 */
int cb_waves_check(const struct cb_waves *ws, char *const *names, char *err, size_t errlen);

/*
 * cb_waves_cut - give each stall record of @st to the wave whose [start, end) holds its
 * start (stalls in no wave go to ->outside). Returns 0.
 */
int cb_waves_cut(struct cb_waves *ws, const struct cb_stalls *st);

/* one sample time of samples.csv: free blocks per order summed over the zones */
struct cb_sample_free {
	uint64_t t;
	uint64_t free[CB_WAVES_MAX_ORDER + 1];
	bool has_thp;		/* the row had thp_alloc */
	uint64_t thp;		/* huge pages allocated so far (/proc/vmstat THP counters) */
};

/*
 * cb_samples_free_parse - the free blocks per order of each sample time of a samples.csv
 * text (columns t_ns and o0..o10; missing order columns count 0; the optional thp_alloc,
 * the same in every zone's row of a time, must not go down) in [@ws, @we] (0, 0: all)
 * into a new array @out (free with free()). Returns the number of sample times, or -1 with
 * errno EINVAL and the bad line in @bad_line (a row that does not parse, times going back).
 */
long cb_samples_free_parse(const char *text, uint64_t ws, uint64_t we,
			   struct cb_sample_free **out, int *bad_line);

/* cb_free_units9 - free blocks of order >= 9 of @free, in order-9 blocks (o9 + 2 o10) */
double cb_free_units9(const uint64_t *free);

/*
 * cb_waves_breakup - the break-up estimate (analysis/README.md): over each interval between
 * consecutive samples, max(0, F(t_k) - F(t_k+1) - A_k), F the free order >= 9 blocks in
 * order-9 units, A_k the order >= 9 allocations of @st with t_k < ts <= t_k+1 in order-9
 * units (@st NULL: the rise of the samples' thp_alloc, which every sample must have);
 * summed into @ws (and per wave when @ws has waves). Also sets each wave's readiness.
 * @samples must be in time order. Returns 0.
 */
int cb_waves_breakup(struct cb_waves *ws, const struct cb_sample_free *samples, size_t n,
		     const struct cb_stalls *st);

/*
 * cb_waves_analyze - read @cell_dir's waves and samples.csv, cut @st's stalls and compute
 * readiness and the break-up estimate (samples in [@win_start, @win_end]; 0, 0: all) into
 * @out. The break-up estimate takes its allocations from the trace's kmem:mm_page_alloc,
 * else from samples.csv's thp_alloc; a cell with neither, or without samples.csv, has none.
 * Without wave lines, no waves. Returns 0, or -1 with @err.
 */
int cb_waves_analyze(const char *cell_dir, const struct cb_stalls *st, uint64_t win_start,
		     uint64_t win_end, struct cb_waves *out, char *err, size_t errlen);

/* cb_waves_free - free what cb_waves_read allocated */
void cb_waves_free(struct cb_waves *ws);

/* what cb_waves_stat makes of the waves' values */
enum cb_wave_agg {
	CB_WAVE_MEAN,
	CB_WAVE_MEDIAN,
	CB_WAVE_SD,	/* the sample standard deviation (n - 1): needs 2 values */
};

/*
 * cb_waves_stat - over the waves [@from, @to): the mean, median or sd (@agg) of the stall
 * count (@what 0), the stall time (1), the THP success ratio thp/faults of the waves with
 * faults (2), the THP fault p99 (3), the free order >= 9 blocks at the start (4). Returns 0,
 * or -1 when no wave in the range has the value (the sd: fewer than 2 have it).
 */
int cb_waves_stat(const struct cb_waves *ws, size_t from, size_t to, int what,
		  enum cb_wave_agg agg, double *out);

/*
 * cb_waves_first_last - the learning curve's two ends: [0, ceil(n/4)) and [n/2, n) (the
 * first quarter and the last half of the waves); -1 with fewer than 4 waves
 */
int cb_waves_first_last(const struct cb_waves *ws, size_t *first_end, size_t *last_from);

#endif
