/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config.h - matrix config files (INI, read with libinih), in the spirit of fio job files.
 *
 *   [global]            reps, target, start state, memory limit, timeouts
 *   [kernel NAME]       where cells run (target: host, qemu, ssh) and which kernel that must be
 *   [setting NAME]      a set of knobs (see knobs.h)
 *   [workload NAME]     phases: fragment = PROGRAM, fragment.OPTION = VALUE, demand = ...
 *   [collector]         events, buffer size
 *
 * Key tables (config_key.h: the harness's own, and one per target class and per policy for
 * the keys only it reads) drive parsing, the FILE:LINE errors and the key reference in
 * configs/README.md (`compactbench config --doc`). Values are stored as text
 * and handed to programs as separate argv entries: nothing goes through a shell.
 */
#ifndef CB_CONFIG_H
#define CB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "knobs.h"
#include "wl_info.h"

#define CB_NAME_MAX 64

struct cb_target_class;
struct cb_policy_ops;

/* [collector] probes: the allocator probes where kprobes exist (collector.h's probe modes) */
enum cb_cfg_probes {
	CB_CFG_PROBES_AUTO,
	CB_CFG_PROBES_OFF,
	CB_CFG_PROBES_REQUIRE,
};

enum cb_start_state {
	CB_START_DROP_COMPACT, /* drop clean caches, then compact every node */
	CB_START_DROP,	       /* drop clean caches only */
	CB_START_NONE,	       /* leave memory as the previous cell left it */
};

/* [global] boot: how often the qemu target boots a guest (boot_plan.h) */
enum cb_boot_mode {
	CB_BOOT_AUTO,	    /* per-kernel with --jobs 1 and start_state drop-compact, else per-cell */
	CB_BOOT_PER_CELL,   /* a fresh guest for every cell */
	CB_BOOT_PER_KERNEL, /* one guest for consecutive cells of its kernel, checked between */
};

/*
 * A [kernel]: its name, its target and the keys every target reads; the keys only its target
 * reads are in @priv, that target's private config (target_class.h), which only the target's
 * own code reads.
 */
struct cb_kernel {
	char name[CB_NAME_MAX];
	const struct cb_target_class *cls; /* its target */
	void *priv;    /* @cls's private config (its keys), or NULL if @cls has none */
	char *release; /* expected `uname -r`, or NULL for whatever is booted */
	int line;
};

struct cb_knob_setting {
	const struct cb_knob *knob;
	char arg[32]; /* the SIZE of a pattern knob */
	char *key;
	char *value;
	int line;
};

/* a policy a setting runs (policy.h): its keys, parsed into its private config */
struct cb_policy_conf {
	const struct cb_policy_ops *ops;
	void *priv;
};

struct cb_setting {
	char name[CB_NAME_MAX];
	struct cb_knob_setting *knobs;
	size_t nr_knobs;
	char **kernels;	/* `kernels =`: the [kernel] names it runs on, NULL-terminated; NULL: all */
	int kernels_line;
	struct cb_policy_conf *policies; /* those whose keys it sets, in the order first given */
	size_t nr_policies;
	int line;
};

struct cb_wl_arg {
	const struct wl_option *opt;
	char *name;
	char *value;
	bool quick; /* a quick.PHASE.OPTION override, used with --quick */
	int line;
};

struct cb_phase {
	const struct wl_info *wl; /* NULL if the workload has no such phase */
	struct cb_wl_arg *args;
	size_t nr_args;
	int line;
};

/*
 * The phases of a workload. companion: a second demand program started with the demand
 * (THP faults and kernel order 1-4 allocations at once); the demand phase ends when both do.
 */
enum { CB_PHASE_FRAGMENT, CB_PHASE_DEMAND, CB_PHASE_BACKGROUND, CB_PHASE_COMPANION, CB_NR_PHASES };

struct cb_workload {
	char name[CB_NAME_MAX];
	struct cb_phase phase[CB_NR_PHASES];
	double timeout_s;	/* a demand phase running longer is stopped and the cell fails */
	double ready_timeout_s; /* a fragmenter must say ready within this */
	double settle_s;	/* pause between the fragmenter's ready and the demand */
	char **kernels;	/* `kernels =`: the [kernel] names it runs on, NULL-terminated; NULL: all */
	int kernels_line;
	int line;
};

struct cb_config {
	char *path;
	char *name;	      /* [global] name, default: the file's base name without .ini */
	char sha256[65];      /* of the file's bytes */
	long reps;
	long quick_reps;
	const struct cb_target_class *target; /* of kernels that name none */
	enum cb_start_state start_state;
	char *memory_limit;   /* size text, NULL: no limit */
	double cooldown_s;
	enum cb_boot_mode boot; /* qemu: a guest per cell or per run of cells of one kernel */
	double samples_period_s; /* the agent's samples.csv period (sampler.h) */
	char *output;	      /* results directory root */
	/* [collector] */
	char **events;	      /* NULL-terminated, NULL: the collector's defaults */
	long buffer_kb;
	long poll_ms;
	enum cb_cfg_probes probes;

	struct cb_kernel *kernels;
	size_t nr_kernels;
	struct cb_setting *settings;
	size_t nr_settings;
	struct cb_workload *workloads;
	size_t nr_workloads;
};

/*
 * cb_config_load - parse and check @path.
 * Returns the config, or NULL with "FILE:LINE: key 'K': what is wrong" in @err; nothing is
 * half-loaded: any error rejects the whole file.
 */
struct cb_config *cb_config_load(const char *path, char *err, size_t errlen);

/* cb_setting_on_kernel - true when @s runs on @k (its `kernels` list names it, or it has none) */
bool cb_setting_on_kernel(const struct cb_setting *s, const struct cb_kernel *k);

/* cb_workload_on_kernel - true when @w runs on @k (its `kernels` list names it, or it has none) */
bool cb_workload_on_kernel(const struct cb_workload *w, const struct cb_kernel *k);

/* cb_cell_wanted - true when both @s and @w run on @k: the matrix makes that cell */
bool cb_cell_wanted(const struct cb_kernel *k, const struct cb_setting *s,
		    const struct cb_workload *w);

/* cb_config_free - free a config from cb_config_load (NULL is fine) */
void cb_config_free(struct cb_config *cfg);

/*
 * cb_config_doc - write the key reference (markdown) generated from the key, knob and
 * workload tables to @out; configs/README.md embeds it and a test keeps the two equal.
 */
void cb_config_doc(FILE *out);

/*
 * cb_phase_argv - the argv of a phase: PROGRAM-PATH, then "--OPTION" "VALUE" per argument
 * (quick overrides replacing normal ones when @quick). NULL-terminated, malloc'ed; free
 * with cb_argv_free. @program_path is the program's file.
 */
char **cb_phase_argv(const struct cb_phase *ph, const char *program_path, bool quick);

/* cb_argv_free - free an argv from cb_phase_argv */
void cb_argv_free(char **argv);

#endif
