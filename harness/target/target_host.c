// SPDX-License-Identifier: GPL-2.0-only
/*
 * target_host.c - the host target: cells run on the booted kernel of this machine.
 *
 * Every knob goes through the restore journal. Before each cell the journal is replayed,
 * so each cell starts from the machine's own values plus exactly its setting's knobs (a
 * knob set by one setting never leaks into the next), then memory is brought to the start
 * state and the memory limit is reserved.
 */
#include "agent.h"
#include "config_verify.h"
#include "knobs.h"
#include "meta.h"
#include "target.h"
#include "util.h"
#include "wl_mm.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int proc_write(struct cb_run *run, const char *rel, const char *value)
{
	char path[PATH_MAX];

	if (cb_path(path, sizeof(path), "%s%s", run->root, rel) < 0 ||
	    cb_write_string(path, value) < 0) {
		snprintf(run->err, sizeof(run->err), "%s%s: cannot write '%s': %s", run->root, rel,
			 value, strerror(errno));
		return -1;
	}
	return 0;
}

static int host_prepare(struct cb_run *run)
{
	char path[PATH_MAX], err[1024];

	if (cb_journal_pending(&run->journal)) {
		cb_log("a previous run did not restore its knobs (%s): restoring them first",
		       run->journal.path);
		if (cb_journal_restore(&run->journal, cb_log_line, err, sizeof(err)) < 0) {
			snprintf(run->err, sizeof(run->err), "%s", err);
			return -1;
		}
	}
	/* the start state and the read-back need these; fail early with the file's name */
	if (cb_path(path, sizeof(path), "%s/proc/sys/vm/compact_memory", run->root) == 0 &&
	    access(path, W_OK) < 0) {
		snprintf(run->err, sizeof(run->err), "%s: %s (the host target needs root and a kernel "
			 "with CONFIG_COMPACTION)", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int set_knob(struct cb_run *run, const char *name, const char *path, const char *value)
{
	char readback[512], err[1024];

	if (cb_journal_set(&run->journal, path, value, readback, sizeof(readback), err,
			   sizeof(err)) < 0) {
		snprintf(run->err, sizeof(run->err), "knob %s: %s", name, err);
		return -1;
	}
	json_object_object_add(run->knobs, name, json_object_new_string(readback));
	return 0;
}

/*
 * reserve all but memory_limit of MemAvailable as hugetlb pages, and tell the workloads
 * their window: fractions of their sizes are of memory_limit (WL_WINDOW_HELP)
 */
static int reserve_memory(struct cb_run *run)
{
	char path[PATH_MAX], val[32];
	long long avail = cb_meminfo_kb(run->root, "MemAvailable");
	long long hp = cb_meminfo_kb(run->root, "Hugepagesize");
	uint64_t limit;

	if (avail < 0 || hp <= 0) {
		snprintf(run->err, sizeof(run->err), "%s/proc/meminfo: no MemAvailable or Hugepagesize "
			 "(memory_limit needs hugetlb pages)", run->root);
		return -1;
	}
	if (cb_parse_size(run->cfg->memory_limit, (uint64_t)cb_meminfo_kb(run->root, "MemTotal") * 1024,
			  &limit) < 0)
		return -1;
	snprintf(val, sizeof(val), "%llu", (unsigned long long)limit);
	if (setenv(WL_WINDOW_ENV, val, 1) < 0)
		return -1;
	json_object_object_add(run->knobs, "memory_window_bytes", json_object_new_int64((int64_t)limit));
	if ((long long)(limit / 1024) >= avail)
		return 0;
	snprintf(val, sizeof(val), "%lld", (avail - (long long)(limit / 1024)) / hp);
	if (cb_path(path, sizeof(path), "%s/proc/sys/vm/nr_hugepages", run->root) < 0)
		return -1;
	if (set_knob(run, "vm.nr_hugepages", path, val) < 0)
		return -1;
	json_object_object_add(run->knobs, "memory_available_kb",
			       json_object_new_int64(cb_meminfo_kb(run->root, "MemAvailable")));
	return 0;
}

static int check_release(struct cb_run *run, const struct cb_kernel *k)
{
	char booted[512];

	if (cb_kernel_booted(k, booted, sizeof(booted)))
		return 0;
	snprintf(run->err, sizeof(run->err), "[kernel %s] wants release %s but %s is booted",
		 k->name, k->release, booted);
	return -1;
}

/* back to the machine's own values, then the start state (drop caches, compact) */
static int start_state(struct cb_run *run, const struct cb_cell *cell)
{
	char err[1024];

	if (check_release(run, cell->kernel) < 0)
		return -1;
	if (cb_journal_restore(&run->journal, NULL, err, sizeof(err)) < 0) {
		snprintf(run->err, sizeof(run->err), "%s", err);
		return -1;
	}
	json_object_put(run->knobs);
	run->knobs = json_object_new_object();
	cb_timing_lap(&run->timing, CB_PART_SETUP);
	if (run->cfg->start_state != CB_START_NONE) {
		sync();
		if (proc_write(run, "/proc/sys/vm/drop_caches", "3") < 0)
			return -1;
	}
	if (run->cfg->start_state == CB_START_DROP_COMPACT &&
	    proc_write(run, "/proc/sys/vm/compact_memory", "1") < 0)
		return -1;
	cb_timing_lap(&run->timing, CB_PART_START_STATE);
	return 0;
}

/* one knob of setting @s, which must exist on this kernel */
static int setting_knob(struct cb_run *run, const struct cb_setting *s,
			const struct cb_knob_setting *ks)
{
	char path[PATH_MAX];

	if (cb_knob_path(ks->knob, ks->arg, run->root, path, sizeof(path)) < 0)
		return -1;
	if (access(path, F_OK) < 0) {
		snprintf(run->err, sizeof(run->err), "[setting %s] knob %s: %s does not exist on "
			 "this kernel", s->name, ks->key, path);
		return -1;
	}
	return set_knob(run, ks->key, path, ks->value);
}

/* the memory limit: reserved and the window set, or the workloads' own default window */
static int memory_window(struct cb_run *run)
{
	if (run->cfg->memory_limit)
		return reserve_memory(run);
	unsetenv(WL_WINDOW_ENV);
	return 0;
}

/*
 * @cell's setting's knobs, the memory limit (unless @reserved: a saved guest's fragment
 * half reserved it before it fragmented, and this process still has its window), the
 * cooldown
 */
static int setting_knobs(struct cb_run *run, const struct cb_cell *cell, bool reserved)
{
	const struct cb_setting *s = cell->setting;
	const char *window = getenv(WL_WINDOW_ENV);

	for (size_t i = 0; i < s->nr_knobs; i++)
		if (setting_knob(run, s, &s->knobs[i]) < 0)
			return -1;
	if (!reserved && memory_window(run) < 0)
		return -1;
	if (reserved && window)
		json_object_object_add(run->knobs, "memory_window_bytes",
				       json_object_new_int64(strtoll(window, NULL, 10)));
	cb_timing_lap(&run->timing, CB_PART_SETUP);
	if (run->cfg->cooldown_s > 0) {
		struct timespec ts = { (time_t)run->cfg->cooldown_s,
				       (long)((run->cfg->cooldown_s - (time_t)run->cfg->cooldown_s) * 1e9) };

		nanosleep(&ts, NULL);
		cb_timing_lap(&run->timing, CB_PART_START_STATE);
	}
	return 0;
}

/* the cell's machine state: the journal replayed, the start state, its knobs, the window */
static int host_setup_cell(struct cb_run *run, const struct cb_cell *cell)
{
	return start_state(run, cell) < 0 ? -1 : setting_knobs(run, cell, false);
}

/* whether every setting of @cell's kernel and workload sets knob @ks to the same value */
static bool knob_shared(const struct cb_config *cfg, const struct cb_cell *cell,
			const struct cb_knob_setting *ks)
{
	for (size_t i = 0; i < cfg->nr_settings; i++) {
		const struct cb_setting *s = &cfg->settings[i];
		bool same = false;

		if (!cb_cell_wanted(cell->kernel, s, cell->workload))
			continue;
		for (size_t j = 0; j < s->nr_knobs && !same; j++)
			same = !strcmp(s->knobs[j].key, ks->key) &&
			       !strcmp(s->knobs[j].value, ks->value);
		if (!same)
			return false;
	}
	return true;
}

int cb_host_setup_fragment(struct cb_run *run, const struct cb_cell *cell)
{
	const struct cb_setting *s = cell->setting;
	char path[PATH_MAX];
	bool proactiveness = false;

	if (start_state(run, cell) < 0)
		return -1;
	for (size_t i = 0; i < s->nr_knobs; i++) {
		if (!knob_shared(run->cfg, cell, &s->knobs[i]))
			continue;
		if (setting_knob(run, s, &s->knobs[i]) < 0)
			return -1;
		proactiveness |= !strcmp(s->knobs[i].key, "vm.compaction_proactiveness");
	}
	/* a kernel before 5.9 has no proactive compaction to hold back */
	if (!proactiveness &&
	    cb_path(path, sizeof(path), "%s/proc/sys/vm/compaction_proactiveness", run->root) == 0 &&
	    access(path, F_OK) == 0 && set_knob(run, "vm.compaction_proactiveness", path, "0") < 0)
		return -1;
	/* before the fragmenter, as for a booted cell: it fills a share of the window */
	if (memory_window(run) < 0)
		return -1;
	cb_timing_lap(&run->timing, CB_PART_SETUP);
	return 0;
}

int cb_host_setup_loaded(struct cb_run *run, const struct cb_cell *cell)
{
	json_object_put(run->knobs);
	run->knobs = json_object_new_object();
	return setting_knobs(run, cell, true);
}

/*
 * a cell that failed before its agent started still says so in its meta.json (status
 * "failed", the error, the knobs set so far), as every failed cell does (issue 22)
 */
static void host_cell_failed(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir)
{
	struct json_object *meta;

	if (cb_mkdir_p(cell_dir) < 0)
		return;
	meta = cb_meta_new(run, cell, run->target_name ? run->target_name : "host");
	json_object_object_add(meta, "knobs", json_object_get(run->knobs));
	if (cb_meta_write(cell_dir, meta, "failed", run->err) < 0)
		cb_log("%s/meta.json: cannot write: %s", cell_dir, strerror(errno));
	json_object_put(meta);
}

static int host_run_cell(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir)
{
	if (host_setup_cell(run, cell) < 0) {
		host_cell_failed(run, cell, cell_dir);
		return -1;
	}
	return cb_agent_run_cell(run, cell, cell_dir);
}

static int host_fetch(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir)
{
	return 0; /* the agent wrote straight into the cell directory */
}

static void host_teardown(struct cb_run *run)
{
	char err[1024];

	if (cb_journal_restore(&run->journal, cb_log_line, err, sizeof(err)) < 0)
		cb_log("could not restore every knob: %s; run `compactbench restore` (journal %s)", err,
		       run->journal.path);
}

const struct cb_target_ops cb_target_host = {
	.name = "host",
	.prepare = host_prepare,
	.run_cell = host_run_cell,
	.fetch = host_fetch,
	.teardown = host_teardown,
};

/* the knobs of a kernel that is the booted one; another's wait until it is booted */
static int host_check(const struct cb_config *cfg, const struct cb_kernel *k, const char *root,
		      FILE *out, FILE *notes)
{
	char booted[512];

	if (cb_kernel_booted(k, booted, sizeof(booted)))
		return cb_config_verify_knobs(cfg, k, root, out);
	if (notes)
		fprintf(notes, "note: [kernel %s]: its knobs are checked when it is booted (wants "
			"'%s', booted is '%s')\n", k->name, k->release, booted);
	return 0;
}

const struct cb_target_class cb_target_host_class = {
	.name = "host",
	.check = host_check,
	.ops = &cb_target_host,
};
