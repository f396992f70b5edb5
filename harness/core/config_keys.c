// SPDX-License-Identifier: GPL-2.0-only
/*
 * config_keys.c - the harness's table of config keys (section, name, type, default, range,
 * where it is stored, help): config.c parses with it, config_doc.c documents it. The keys
 * only one target or one policy reads are in that target's or policy's own table.
 */
#include "config_int.h"

const char *const cb_cfg_sec_names[] = { "global", "kernel", "setting", "workload", "collector" };
const bool cb_cfg_sec_named[] = { false, true, true, true, false };

static const char *const start_names[] = { "drop-compact", "drop", "none", NULL };
static const char *const probe_names[] = { "auto", "off", "require", NULL }; /* enum cb_cfg_probes */
static const char *const boot_names[] = { "auto", "per-cell", "per-kernel", NULL };

#define CFG(f) KB_CONFIG, offsetof(struct cb_config, f)
#define KRN(f) KB_KERNEL, offsetof(struct cb_kernel, f)
#define WKL(f) KB_WORKLOAD, offsetof(struct cb_workload, f)
#define SET(f) KB_SETTING, offsetof(struct cb_setting, f)

const struct cfg_key cb_cfg_keys[] = {
	{ SEC_GLOBAL, "name", KT_STRING, NULL, 0, 0, NULL, CFG(name),
	  "name of the matrix, used in the run directory's name (default: the file's base name)" },
	{ SEC_GLOBAL, "reps", KT_INT, "3", 1, 1000, NULL, CFG(reps),
	  "repetitions of every cell; runs are interleaved: rep 1 of every cell, then rep 2, ..." },
	{ SEC_GLOBAL, "quick_reps", KT_INT, "1", 1, 1000, NULL, CFG(quick_reps),
	  "repetitions with `run --quick`" },
	{ SEC_GLOBAL, "target", KT_TARGET, "host", 0, 0, NULL, CFG(target),
	  "default target of kernels that name none: host (the booted kernel), qemu or ssh" },
	{ SEC_GLOBAL, "start_state", KT_ENUM, "drop-compact", 0, 0, start_names, CFG(start_state),
	  "memory state before each cell: drop-compact (drop clean caches, compact every node), "
	  "drop, or none" },
	{ SEC_GLOBAL, "memory_limit", KT_SIZE, NULL, 64 << 20, 0, NULL, CFG(memory_limit),
	  "leave about this much memory available to the cell (fraction of MemTotal or bytes) by "
	  "reserving the rest as hugetlb pages (vm.nr_hugepages, restored after): fragmenting a "
	  "24 GiB machine then takes seconds, not minutes" },
	{ SEC_GLOBAL, "cooldown", KT_DURATION, "0", 0, 3600000, NULL, CFG(cooldown_s),
	  "pause after the start state is reached, before the cell starts" },
	{ SEC_GLOBAL, "boot", KT_ENUM, "per-cell", 0, 0, boot_names, CFG(boot),
	  "qemu target: per-cell boots a fresh guest for every cell; per-kernel boots one guest "
	  "for each run of consecutive cells of a kernel (the cells of one repetition) and, "
	  "between its cells, puts every knob back, drops caches, compacts, starts fresh "
	  "processes and checks that free memory, free order-9 blocks and the pageblocks' types "
	  "are back near the guest's first cell's, else boots a fresh guest for the cell (README: "
	  "how long a run takes); auto is per-kernel with --jobs 1 and start_state = "
	  "drop-compact, else per-cell; per-kernel with --jobs above 1 is refused" },
	{ SEC_GLOBAL, "samples.period", KT_DURATION, "250ms", 10, 10000, NULL, CFG(samples_period_s),
	  "how often the agent samples /proc/buddyinfo into samples.csv during the phases "
	  "(10ms..10s); the break-up estimate (analysis/README.md) wants 100ms or less. Each "
	  "sample reads buddyinfo under every zone's lock: measured here 66 us of CPU a sample, "
	  "0.17% of a CPU at 100ms, so the default stays 250ms and recurring-demand configs set "
	  "100ms" },
	{ SEC_GLOBAL, "output", KT_STRING, "results", 0, 0, NULL, CFG(output),
	  "directory under which run directories are made (run -o overrides)" },
	{ SEC_KERNEL, "target", KT_TARGET, NULL, 0, 0, NULL, KRN(cls),
	  "where this kernel's cells run (default: [global] target): host, qemu (needs recipe) or "
	  "ssh (needs host)" },
	{ SEC_KERNEL, "release", KT_STRING, NULL, 0, 0, NULL, KRN(release),
	  "host target: the `uname -r` of the kernel these cells need (`uname -rv` to tell two "
	  "builds of one release apart); with another kernel booted they are pending (run "
	  "--resume after booting it)" },
	{ SEC_SETTING, "kernels", KT_LIST, NULL, 0, 0, NULL, SET(kernels),
	  "comma-separated [kernel] names this setting runs on (default: every kernel); the "
	  "matrix skips its other cells and the run's first line says how many and why (for "
	  "knobs only some kernels have)" },
	{ SEC_WORKLOAD, "kernels", KT_LIST, NULL, 0, 0, NULL, WKL(kernels),
	  "comma-separated [kernel] names this workload runs on (default: every kernel), e.g. a "
	  "workload sized for the host next to ones sized for a 1 GiB guest" },
	{ SEC_WORKLOAD, "timeout", KT_DURATION, "30m", 1000, 0, NULL, WKL(timeout_s),
	  "a cell whose demand phase runs longer is stopped and marked failed" },
	{ SEC_WORKLOAD, "ready_timeout", KT_DURATION, "30m", 1000, 0, NULL, WKL(ready_timeout_s),
	  "a fragmenter must report ready within this, or the cell fails" },
	{ SEC_WORKLOAD, "settle", KT_DURATION, "0", 0, 3600000, NULL, WKL(settle_s),
	  "pause between the fragmenter's ready and the demand phase, so background compaction "
	  "(kcompactd, proactive) gets the time it would have between bursts of demand" },
	{ SEC_COLLECTOR, "events", KT_LIST, NULL, 0, 0, NULL, CFG(events),
	  "comma-separated events (system:event or system:*); default: the collector's list" },
	{ SEC_COLLECTOR, "buffer_kb", KT_INT, "0", 0, 4194304, NULL, CFG(buffer_kb),
	  "per-CPU ring buffer size in KiB (0: the collector's default)" },
	{ SEC_COLLECTOR, "poll_ms", KT_INT, "0", 0, 10000, NULL, CFG(poll_ms),
	  "how often the collector drains the buffers, in ms (0: the collector's default)" },
	{ SEC_COLLECTOR, "probes", KT_ENUM, "auto", 0, 0, probe_names, CFG(probes),
	  "the allocator probes (kprobes on the slow path: probe stalls and THP fallbacks): auto "
	  "(where the kernel has kprobes), off, or require (a cell without them fails)" },
	{ SEC_NONE },
};
