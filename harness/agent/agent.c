// SPDX-License-Identifier: GPL-2.0-only
/*
 * agent.c - one cell inside the target: collector on, snapshots, the fragment phase (held),
 * the demand phase, snapshots, collector off, meta.json.
 */
#include "agent.h"
#include "xalloc.h"
#include "collector.h"
#include "energy_rec.h"
#include "meta.h"
#include "proc.h"
#include "sampler.h"
#include "util.h"
#include "policy.h"
#include "registry.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* how long a fragmenter gets to free its memory after SIGTERM before SIGKILL */
#define FRAGMENTER_GRACE_S 60.0

static const char *const phase_names[CB_NR_PHASES] = { "fragment", "demand", "background",
							      "companion" };

/* copy the file @src to @dst (atomically); -1 with run->err set */
static int copy_file(struct cb_run *run, const char *src, const char *dst)
{
	char *data;
	size_t len;
	int ret;

	data = cb_read_file(src, &len);
	if (!data) {
		cb_run_set_err(run, "%s: cannot read: %s", src, strerror(errno));
		return -1;
	}
	ret = cb_write_file_atomic(dst, data, len);
	if (ret < 0)
		cb_run_set_err(run, "%s: cannot write: %s", dst, strerror(errno));
	free(data);
	return ret;
}

/* copy a /proc file into the cell (atomically) */
static int snapshot(struct cb_run *run, const char *cell_dir, const char *rel, const char *name)
{
	char src[PATH_MAX], dst[PATH_MAX];

	if (cb_path(src, sizeof(src), "%s%s", run->root, rel) < 0 ||
	    cb_path(dst, sizeof(dst), "%s/%s", cell_dir, name) < 0)
		return -1;
	return copy_file(run, src, dst);
}

static int snapshots(struct cb_run *run, const char *cell_dir, const char *when)
{
	char name[64];

	snprintf(name, sizeof(name), "vmstat.%s", when);
	if (snapshot(run, cell_dir, "/proc/vmstat", name) < 0)
		return -1;
	snprintf(name, sizeof(name), "buddyinfo.%s", when);
	return snapshot(run, cell_dir, "/proc/buddyinfo", name);
}

static int spawn_phase(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir,
		       int p, struct cb_proc *proc, struct json_object *wl_meta)
{
	const struct cb_phase *ph = &cell->workload->phase[p];
	char prog[PATH_MAX], out[PATH_MAX], err[PATH_MAX], rel[128];
	struct json_object *entry, *jargv;
	char **argv;
	int ret;

	/* an installed program (stress-ng) prints text, ours print JSON lines */
	const char *ext = ph->wl->path ? "log" : "jsonl";
	size_t n;

	if (cb_workload_program(run, ph->wl, prog, sizeof(prog)) < 0)
		return -1;
	snprintf(rel, sizeof(rel), "workload/%d-%s-%s", p + 1, phase_names[p], ph->wl->name);
	if (cb_path(out, sizeof(out), "%s/%s.%s", cell_dir, rel, ext) < 0 ||
	    cb_path(err, sizeof(err), "%s/%s.stderr", cell_dir, rel) < 0)
		return -1;
	argv = cb_phase_argv(ph, prog, run->quick);
	if (p == CB_PHASE_BACKGROUND) {
		/* stress-ng's scratch files go into the cell, and go with its directory */
		for (n = 0; argv[n]; n++)
			;
		argv = cb_xrealloc(argv, (n + 3) * sizeof(*argv));
		argv[n] = cb_xstrdup("--temp-path");
		argv[n + 1] = cb_xasprintf("%s/workload", cell_dir);
		argv[n + 2] = NULL;
	}
	ret = cb_proc_spawn(proc, argv, out, err);
	if (ret < 0)
		cb_run_set_err(run, "%s: cannot start: %s", prog, strerror(errno));
	entry = json_object_new_object();
	json_object_object_add(entry, "phase", json_object_new_string(phase_names[p]));
	json_object_object_add(entry, "program", json_object_new_string(ph->wl->name));
	jargv = json_object_new_array();
	for (size_t i = 0; argv[i]; i++)
		json_object_array_add(jargv, json_object_new_string(i ? argv[i] : ph->wl->name));
	json_object_object_add(entry, "argv", jargv);
	strcat(rel, ph->wl->path ? ".log" : ".jsonl");
	json_object_object_add(entry, "output", json_object_new_string(rel));
	json_object_array_add(wl_meta, entry);
	cb_argv_free(argv);
	return ret;
}

/* pump until @until says stop; returns 0, or -1 on timeout / interrupt with run->err set */
static int wait_for(struct cb_run *run, struct cb_proc *const procs[], struct cb_proc *p,
		    bool want_ready, double timeout_s, const char *what)
{
	uint64_t deadline = cb_now_ns() + (uint64_t)(timeout_s * 1e9);

	while (!(want_ready ? p->ready : p->exited)) {
		if (cb_interrupted) {
			cb_run_set_err(run, "interrupted while %s", what);
			return -1;
		}
		if (want_ready && p->exited) {
			cb_run_set_err(run, "%s ended before it said ready", what);
			return -1;
		}
		if (cb_now_ns() > deadline) {
			cb_run_set_err(run, "%s: timed out after %.0f s", what, timeout_s);
			return -1;
		}
		cb_proc_pump(procs, CB_NR_PHASES, 100);
	}
	return 0;
}

/* let background compaction work between fragmentation and demand, output still pumped */
static int settle(struct cb_run *run, struct cb_proc *const procs[], struct cb_proc *frag,
		  double secs)
{
	uint64_t end = cb_now_ns() + (uint64_t)(secs * 1e9);

	while (cb_now_ns() < end) {
		if (cb_interrupted) {
			cb_run_set_err(run, "interrupted while settling");
			return -1;
		}
		if (frag->exited) {
			cb_run_set_err(run, "the fragmenter ended while settling");
			return -1;
		}
		cb_proc_pump(procs, CB_NR_PHASES, 100);
	}
	return 0;
}

/* a process stopped by our SIGTERM may exit 0, 143 or die of the signal */
static bool stopped_ok(const struct cb_proc *p)
{
	if (WIFSIGNALED(p->status))
		return WTERMSIG(p->status) == SIGTERM;
	return WIFEXITED(p->status) && (WEXITSTATUS(p->status) == 0 ||
					WEXITSTATUS(p->status) == 128 + SIGTERM);
}

static struct json_object *collector_json(struct cb_collector *col,
					  const struct cb_collector_stats *st)
{
	struct json_object *c = json_object_new_object(), *arr, *cpus;
	uint64_t lost;

	json_object_object_add(c, "instance", json_object_new_string(cb_collector_instance_name(col)));
	json_object_object_add(c, "mode", cb_json_str(st->probe_mode));
	json_object_object_add(c, "probe_why", cb_json_str(st->probe_why));
	json_object_object_add(c, "probe_symbols", cb_json_str(st->probe_symbols));
	arr = json_object_new_array();
	for (size_t i = 0; st->enabled && st->enabled[i]; i++)
		json_object_array_add(arr, json_object_new_string(st->enabled[i]));
	json_object_object_add(c, "events", arr);
	arr = json_object_new_array();
	for (size_t i = 0; st->missing && st->missing[i]; i++)
		json_object_array_add(arr, json_object_new_string(st->missing[i]));
	json_object_object_add(c, "missing", arr);
	/*
	 * Lost events: the buffers' counters plus what pages flagged as missed; a flagged page
	 * of unknown count still makes the trace lossy (at least 1), never silently whole.
	 */
	lost = st->lost + st->missed_events;
	if (!lost && cb_collector_stats_lost(st))
		lost = 1;
	json_object_object_add(c, "lost", json_object_new_int64((int64_t)lost));
	json_object_object_add(c, "missed_pages", json_object_new_int64((int64_t)st->missed_pages));
	cpus = json_object_new_array();
	for (int i = 0; i < st->nr_cpus; i++) {
		const struct cb_collector_cpu_stats *s = &st->cpu[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "cpu", json_object_new_int(i));
		json_object_object_add(o, "entries", json_object_new_int64((int64_t)s->entries));
		json_object_object_add(o, "overrun", json_object_new_int64((int64_t)s->overrun));
		json_object_object_add(o, "commit_overrun",
				       json_object_new_int64((int64_t)s->commit_overrun));
		json_object_object_add(o, "dropped_events",
				       json_object_new_int64((int64_t)s->dropped_events));
		json_object_object_add(o, "read_events", json_object_new_int64((int64_t)s->read_events));
		json_object_object_add(o, "bytes", json_object_new_int64((int64_t)s->bytes_written));
		json_object_array_add(cpus, o);
	}
	json_object_object_add(c, "per_cpu", cpus);
	json_object_object_add(c, "trace_bytes", json_object_new_int64((int64_t)st->trace_bytes));
	json_object_object_add(c, "clock", cb_json_str(st->clock));
	json_object_object_add(c, "buffer_kb", json_object_new_int64((int64_t)st->buffer_kb));
	json_object_object_add(c, "drain_cpu_ns", json_object_new_int64((int64_t)st->drain_cpu_ns));
	return c;
}

/* the setting's policies (policy.h) while they run: the first n started */
struct running {
	void *state[CB_REGISTRY_MAX];
	size_t n;
};

/* start every policy of the cell's setting; -1 with run->err set if one cannot start */
static int policies_start(struct cb_run *run, const struct cb_cell *cell, struct running *r)
{
	const struct cb_setting *s = cell->setting;

	for (r->n = 0; r->n < s->nr_policies && r->n < CB_REGISTRY_MAX; r->n++) {
		const struct cb_policy_conf *pc = &s->policies[r->n];

		if (!pc->ops->start) { /* a policy of keys only: nothing runs */
			r->state[r->n] = NULL;
			continue;
		}
		r->state[r->n] = pc->ops->start(run, cell, pc->priv);
		if (!r->state[r->n])
			return -1;
	}
	return 0;
}

/*
 * stop every started policy, last first; each writes its files into @cell_dir. Returns 0,
 * or -1 with run->err set to the first failure's message.
 */
static int policies_stop(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir,
			 struct running *r)
{
	char first[sizeof(run->err)];
	int ret = 0;

	while (r->n > 0) {
		const struct cb_policy_conf *pc = &cell->setting->policies[--r->n];

		if (r->state[r->n] && pc->ops->stop(run, cell, cell_dir, pc->priv,
						    r->state[r->n]) < 0 && !ret++)
			memcpy(first, run->err, sizeof(first));
		r->state[r->n] = NULL;
	}
	if (ret)
		memcpy(run->err, first, sizeof(first));
	return ret ? -1 : 0;
}

/* the workload phases; returns 0, or -1 with run->err set */
static int run_phases(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir,
		      struct cb_proc *pr, struct json_object *wl_meta, struct running *pol)
{
	const struct cb_workload *w = cell->workload;
	struct cb_proc *frag = &pr[CB_PHASE_FRAGMENT], *dem = &pr[CB_PHASE_DEMAND];
	struct cb_proc *bg = &pr[CB_PHASE_BACKGROUND], *comp = &pr[CB_PHASE_COMPANION];
	struct cb_proc *const procs[CB_NR_PHASES] = { frag, dem, bg, comp };
	uint64_t demand_start;
	char how[64];

	if (w->phase[CB_PHASE_BACKGROUND].wl &&
	    spawn_phase(run, cell, cell_dir, CB_PHASE_BACKGROUND, bg, wl_meta) < 0)
		return -1;
	/* the policies run from the fragment phase's start (else the demand's) to the demand's end */
	if (policies_start(run, cell, pol) < 0)
		return -1;
	if (w->phase[CB_PHASE_FRAGMENT].wl) {
		/* a held fragmenter (saved state) said ready before the guest was saved */
		if (frag->pid <= 0 &&
		    (spawn_phase(run, cell, cell_dir, CB_PHASE_FRAGMENT, frag, wl_meta) < 0 ||
		     wait_for(run, procs, frag, true, w->ready_timeout_s,
			      "waiting for the fragmenter") < 0))
			return -1;
		cb_timing_lap(&run->timing, CB_PART_FRAGMENT);
		if (settle(run, procs, frag, w->settle_s) < 0)
			return -1;
		cb_timing_lap(&run->timing, CB_PART_SETTLE);
	}
	cb_timing_lap(&run->timing, CB_PART_FRAGMENT); /* the background's start, if no fragmenter */
	demand_start = cb_now_ns();
	if (spawn_phase(run, cell, cell_dir, CB_PHASE_DEMAND, dem, wl_meta) < 0)
		return -1;
	if (w->phase[CB_PHASE_COMPANION].wl &&
	    spawn_phase(run, cell, cell_dir, CB_PHASE_COMPANION, comp, wl_meta) < 0)
		return -1;
	if (wait_for(run, procs, dem, false, w->timeout_s, "running the demand phase") < 0)
		return -1;
	/* the companion gets what is left of the same timeout */
	if (comp->pid > 0 &&
	    wait_for(run, procs, comp, false,
		     w->timeout_s - (double)(cb_now_ns() - demand_start) / 1e9,
		     "running the demand phase's companion") < 0)
		return -1;
	if (policies_stop(run, cell, cell_dir, pol) < 0)
		return -1;
	cb_timing_lap(&run->timing, CB_PART_DEMAND);
	for (int p = CB_PHASE_DEMAND; p < CB_NR_PHASES; p += CB_PHASE_COMPANION - CB_PHASE_DEMAND) {
		if (pr[p].pid > 0 && (!WIFEXITED(pr[p].status) || WEXITSTATUS(pr[p].status))) {
			cb_run_set_err(run, "%s: %s (see its .stderr in %s/workload)",
				       w->phase[p].wl->name,
				       cb_proc_describe(&pr[p], how, sizeof(how)), cell_dir);
			return -1;
		}
	}
	for (int p = CB_PHASE_FRAGMENT; p <= CB_PHASE_BACKGROUND; p += CB_PHASE_BACKGROUND) {
		if (pr[p].pid > 0 && pr[p].exited) {
			cb_run_set_err(run, "%s ended during the demand phase: %s",
				       w->phase[p].wl->name,
				       cb_proc_describe(&pr[p], how, sizeof(how)));
			return -1;
		}
	}
	return 0;
}

/*
 * the agent's laps so far into meta.json "timing" {"parts"}: where it runs elsewhere (the
 * guest) the host takes them from there; the host's run loop rewrites "timing" whole
 */
static void agent_timing(struct cb_run *run, struct json_object *meta)
{
	struct json_object *t = json_object_new_object();

	cb_timing_lap(&run->timing, CB_PART_STOP); /* the collector's abort on a failure */
	json_object_object_add(t, "parts", cb_timing_parts_json(&run->timing));
	json_object_object_add(t, "clock", json_object_new_string("CLOCK_MONOTONIC"));
	json_object_object_add(meta, "timing", t);
}

void cb_agent_timing_final(struct cb_run *run, const char *cell_dir)
{
	struct json_object *meta;
	char path[PATH_MAX];

	if (cb_path(path, sizeof(path), "%s/meta.json", cell_dir) < 0 ||
	    !(meta = json_object_from_file(path)))
		return;
	agent_timing(run, meta);
	cb_json_write_atomic(path, meta);
	json_object_put(meta);
}

/* stop what still runs: the demand, the background load, then the fragmenter's memory */
static void end_procs(struct cb_proc *pr)
{
	cb_proc_stop(&pr[CB_PHASE_DEMAND], 10.0);
	cb_proc_stop(&pr[CB_PHASE_COMPANION], 10.0);
	cb_proc_stop(&pr[CB_PHASE_BACKGROUND], 10.0);
	cb_proc_stop(&pr[CB_PHASE_FRAGMENT], FRAGMENTER_GRACE_S);
	for (int p = 0; p < CB_NR_PHASES; p++)
		if (pr[p].pid > 0)
			cb_proc_finish(&pr[p]);
}

/* what one cell holds open between its steps; torn down by cell_end() */
struct cell_state {
	struct cb_sampler *smp;
	struct cb_energy_rec *erec;
	struct cb_collector *col;
	struct cb_proc pr[CB_NR_PHASES];
	struct json_object *meta, *wl_meta;
	char spool[PATH_MAX], trace[PATH_MAX];
	uint64_t start_ns, end_ns;
};

/* meta.json's object for @cell as the agent starts it: knobs, the policy, the workloads */
static struct json_object *cell_meta(struct cb_run *run, const struct cb_cell *cell,
				     struct json_object **wl_meta)
{
	struct json_object *meta = cb_meta_new(run, cell, run->target_name ? run->target_name : "host");

	json_object_object_add(meta, "knobs", json_object_get(run->knobs));
	for (size_t i = 0; i < cell->setting->nr_policies; i++) {
		const struct cb_policy_conf *pc = &cell->setting->policies[i];

		if (pc->ops->meta)
			json_object_object_add(meta, pc->ops->name, pc->ops->meta(pc->priv));
	}
	*wl_meta = json_object_new_array();
	json_object_object_add(meta, "workload", *wl_meta);
	return meta;
}

/* the cell directory, its workload/ and .spool/, and meta.json saying "incomplete" */
static int cell_dirs(struct cb_run *run, const char *cell_dir, struct cell_state *c)
{
	char path[PATH_MAX];

	if (cb_path(path, sizeof(path), "%s/workload", cell_dir) < 0 || cb_mkdir_p(path) < 0 ||
	    cb_path(c->spool, sizeof(c->spool), "%s/.spool", cell_dir) < 0 ||
	    cb_mkdir_p(c->spool) < 0 ||
	    cb_path(c->trace, sizeof(c->trace), "%s/trace.dat", cell_dir) < 0) {
		cb_run_set_err(run, "%s: cannot create the cell directory: %s", cell_dir,
			       strerror(errno));
		return -1;
	}
	if (cb_meta_write(cell_dir, c->meta, "incomplete", NULL) < 0) {
		cb_run_set_err(run, "%s/meta.json: cannot write: %s", cell_dir, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * open the measured window: the collector, then the before-snapshots, the energy recorder
 * and the sampler. The window the analyzer counts trace events in is the one /proc/vmstat
 * covers: from just before vmstat.before is read to just after vmstat.after is read (the
 * trace clock is CLOCK_MONOTONIC). The collector runs a little longer on both sides.
 */
static int window_open(struct cb_run *run, const char *cell_dir, struct cell_state *c)
{
	struct cb_collector_opts copts = {
		.events = (const char *const *)run->cfg->events,
		.buffer_kb = run->cfg->buffer_kb,
		.poll_ms = run->cfg->poll_ms,
		.spool_dir = c->spool,
		.probes = run->cfg->probes == CB_CFG_PROBES_OFF	  ? CB_PROBES_OFF
			  : run->cfg->probes == CB_CFG_PROBES_REQUIRE ? CB_PROBES_REQUIRE
								      : CB_PROBES_AUTO,
	};
	char err[512];

	c->col = cb_collector_start(&copts, err, sizeof(err));
	if (!c->col) {
		cb_run_set_err(run, "collector: %s", err);
		return -1;
	}
	c->start_ns = cb_now_ns();
	if (snapshots(run, cell_dir, "before") < 0)
		return -1;
	/* zoneinfo, pagetypeinfo, kcompactd/khugepaged CPU, energy; then samples.csv over time */
	if (cb_snapshot_extra(cell_dir, run->root, "before", err, sizeof(err)) < 0) {
		cb_run_set_err(run, "sampler: %s", err);
		return -1;
	}
	/* powercap or perf's power PMU (perf-power.before), or neither: modeled */
	c->erec = cb_energy_rec_start(cell_dir, run->root, run->err, sizeof(run->err));
	if (!c->erec)
		return -1;
	c->smp = cb_sampler_start(cell_dir, run->root,
				  (unsigned int)lround(run->cfg->samples_period_s * 1000), err,
				  sizeof(err));
	if (!c->smp) {
		cb_run_set_err(run, "sampler: %s", err);
		return -1;
	}
	return 0;
}

/* the phases, and the policies' files (wmark.json) even when a phase failed */
static int cell_phases(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir,
		       struct cell_state *c)
{
	struct running pol = { .n = 0 };
	int rc = run_phases(run, cell, cell_dir, c->pr, c->wl_meta, &pol);

	if (pol.n) {
		/* a phase failed while policies ran: keep that error, still write their files */
		char saved[sizeof(run->err)];

		memcpy(saved, run->err, sizeof(saved));
		policies_stop(run, cell, cell_dir, &pol);
		memcpy(run->err, saved, sizeof(saved));
	}
	return rc;
}

/*
 * a held fragmenter's output, written on the guest's tmpfs while the results share was
 * unmounted for the save, into the cell's workload/ under the name it would have had
 */
static int held_output(struct cb_run *run, const char *cell_dir)
{
	const char *const rel[] = { run->held->out, run->held->err };

	for (size_t i = 0; i < CB_ARRAY_SIZE(rel); i++) {
		char src[PATH_MAX], dst[PATH_MAX];

		if (cb_path(src, sizeof(src), "%s/%s", run->held->dir, rel[i]) < 0 ||
		    cb_path(dst, sizeof(dst), "%s/%s", cell_dir, rel[i]) < 0 ||
		    copy_file(run, src, dst) < 0)
			return -1;
	}
	return 0;
}

/* close the window: sampler, after-snapshots, energy; then the phases' ends and the trace */
static int window_close(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir,
			struct cell_state *c)
{
	struct cb_collector_stats st = { 0 };
	struct json_object *win;
	char how[64], err[512];
	int rc = cb_sampler_stop(c->smp, err, sizeof(err));

	c->smp = NULL;
	if (rc < 0) {
		cb_run_set_err(run, "sampler: %s", err);
		return -1;
	}
	if (snapshots(run, cell_dir, "after") < 0)
		return -1;
	if (cb_snapshot_extra(cell_dir, run->root, "after", err, sizeof(err)) < 0) {
		cb_run_set_err(run, "sampler: %s", err);
		return -1;
	}
	if (cb_energy_rec_stop(c->erec, cell_dir, run->err, sizeof(run->err)) < 0)
		return -1;
	c->end_ns = cb_now_ns();
	/* the fragmenter's memory is freed only after the window: that is no demand */
	end_procs(c->pr);
	if (run->held && held_output(run, cell_dir) < 0)
		return -1;
	for (int p = CB_PHASE_FRAGMENT; p < CB_NR_PHASES; p += CB_PHASE_BACKGROUND) {
		if (c->pr[p].pid > 0 && !stopped_ok(&c->pr[p])) {
			cb_run_set_err(run, "%s: %s when stopped",
				       cell->workload->phase[p].wl->name,
				       cb_proc_describe(&c->pr[p], how, sizeof(how)));
			return -1;
		}
	}
	if (cb_collector_stop(c->col, c->trace, &st) < 0) {
		cb_run_set_err(run, "collector: %s", cb_collector_error(c->col));
		return -1;
	}
	json_object_object_add(c->meta, "collector", collector_json(c->col, &st));
	win = json_object_new_object();
	json_object_object_add(win, "start_ns", json_object_new_int64((int64_t)c->start_ns));
	json_object_object_add(win, "end_ns", json_object_new_int64((int64_t)c->end_ns));
	json_object_object_add(win, "clock", json_object_new_string("CLOCK_MONOTONIC"));
	json_object_object_add(c->meta, "window", win);
	return 0;
}

/* stop what is still running, remove the spool, write meta.json's final status; @ret or -1 */
static int cell_end(struct cb_run *run, const char *cell_dir, struct cell_state *c, int ret)
{
	char ignored[512];

	if (c->smp) /* the cell failed already: its error is the one to report */
		cb_sampler_stop(c->smp, ignored, sizeof(ignored));
	if (c->erec) {
		json_object_object_add(c->meta, "energy", cb_energy_rec_meta(c->erec));
		cb_energy_rec_free(c->erec);
	}
	end_procs(c->pr);
	if (c->col && ret < 0)
		cb_collector_abort(c->col);
	cb_collector_free(c->col);
	if (c->spool[0])
		cb_rm_rf(c->spool);
	agent_timing(run, c->meta);
	/* an interrupted cell is incomplete (it may be re-run); anything else that failed, failed */
	if (cb_meta_write(cell_dir, c->meta,
			  ret == 0 ? "complete" : cb_interrupted ? "incomplete" : "failed",
			  ret == 0 ? NULL : run->err) < 0 && ret == 0) {
		cb_run_set_err(run, "%s/meta.json: cannot write: %s", cell_dir, strerror(errno));
		ret = -1;
	}
	json_object_put(c->meta);
	return ret;
}

int cb_agent_fragment_hold(struct cb_run *run, const struct cb_cell *cell, const char *dir,
			   struct cb_held_fragment *h)
{
	const struct cb_workload *w = cell->workload;
	struct cb_proc none[CB_NR_PHASES] = { CB_PROC_INIT, CB_PROC_INIT, CB_PROC_INIT,
					      CB_PROC_INIT };
	struct cb_proc *procs[CB_NR_PHASES] = { &h->proc, &none[1], &none[2], &none[3] };
	struct json_object *arr = json_object_new_array();
	char path[PATH_MAX];
	int rc;

	h->proc = (struct cb_proc)CB_PROC_INIT;
	h->entry = NULL;
	if (!w->phase[CB_PHASE_FRAGMENT].wl) {
		cb_run_set_err(run, "[workload %s] has no fragment phase to save a guest after",
			       w->name);
		json_object_put(arr);
		return -1;
	}
	snprintf(h->dir, sizeof(h->dir), "%s", dir);
	if (cb_path(path, sizeof(path), "%s/workload", dir) < 0 || cb_mkdir_p(path) < 0) {
		cb_run_set_err(run, "%s/workload: cannot create: %s", dir, strerror(errno));
		json_object_put(arr);
		return -1;
	}
	rc = spawn_phase(run, cell, dir, CB_PHASE_FRAGMENT, &h->proc, arr);
	if (json_object_array_length(arr)) {
		struct json_object *out;
		const char *name;

		h->entry = json_object_get(json_object_array_get_idx(arr, 0));
		json_object_object_get_ex(h->entry, "output", &out);
		name = json_object_get_string(out);
		snprintf(h->out, sizeof(h->out), "%s", name);
		/* spawn_phase's stderr: the output's name (always .jsonl or .log) made .stderr */
		snprintf(h->err, sizeof(h->err), "%.*s.stderr", (int)(strrchr(name, '.') - name), name);
	}
	json_object_put(arr);
	if (rc < 0 || wait_for(run, procs, &h->proc, true, w->ready_timeout_s,
			       "waiting for the fragmenter") < 0)
		return -1;
	return 0;
}

void cb_agent_fragment_drop(struct cb_held_fragment *h)
{
	cb_proc_stop(&h->proc, FRAGMENTER_GRACE_S);
	if (h->proc.pid > 0)
		cb_proc_finish(&h->proc);
	json_object_put(h->entry);
	json_object_put(h->meta);
	h->entry = h->meta = NULL;
}

int cb_agent_run_cell(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir)
{
	struct cell_state c = {
		.pr = { CB_PROC_INIT, CB_PROC_INIT, CB_PROC_INIT, CB_PROC_INIT },
	};

	run->err[0] = '\0';
	c.meta = cell_meta(run, cell, &c.wl_meta);
	if (run->held) { /* the held fragmenter is the cell's from here on */
		c.pr[CB_PHASE_FRAGMENT] = run->held->proc;
		run->held->proc = (struct cb_proc)CB_PROC_INIT;
		json_object_array_add(c.wl_meta, json_object_get(run->held->entry));
		json_object_object_add(c.meta, "saved_state", json_object_get(run->held->meta));
	}
	if (cell_dirs(run, cell_dir, &c) < 0 || window_open(run, cell_dir, &c) < 0)
		return cell_end(run, cell_dir, &c, -1);
	cb_timing_lap(&run->timing, CB_PART_SETUP);
	if (cell_phases(run, cell, cell_dir, &c) < 0 || window_close(run, cell, cell_dir, &c) < 0)
		return cell_end(run, cell_dir, &c, -1);
	return cell_end(run, cell_dir, &c, 0);
}
