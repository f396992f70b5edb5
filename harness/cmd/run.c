// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - `compactbench run` and `compactbench restore`: a matrix cell by cell, knobs
 * restored at the end, on error and on SIGINT/SIGTERM.
 */
#include "cmd.h"
#include "xalloc.h"
#include "analyze.h"
#include "config_verify.h"
#include "cmd.h"
#include "cmd_opt.h"
#include "compare.h"
#include "gate.h"
#include "plot.h"
#include "collector.h"
#include "boot_plan.h"
#include "jobs_plan.h"
#include "matrix.h"
#include "report.h"
#include "meta.h"
#include "run_json.h"
#include "run.h"
#include "run_jobs.h"
#include "run_progress.h"
#include "runjson.h"
#include "target.h"
#include "util.h"
#include "version.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void on_signal(int sig)
{
	cb_interrupted = sig;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	/* no SA_RESTART: a wait in poll() or nanosleep() returns and sees the flag */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static const char run_usage[] =
	"usage: compactbench run CONFIG [-o DIR] [--resume] [--shard I/N] [--reps N] [--quick]\n"
	"                        [--target host|qemu] [--jobs N]\n"
	"\n"
	"Run every cell of the matrix in CONFIG (kernels x settings x workloads x reps, reps\n"
	"interleaved), write results/<name>-<time>/ (or DIR), restore every knob, then analyze:\n"
	"print the per-setting table and the verdict (each setting against the first, per kernel\n"
	"and workload: stall time and stalls that did compaction work, a difference only where\n"
	"it is significant, else the change the repetitions could have seen), one gate line per\n"
	"setting (on stall time, --max-mde 100%), and where the rest is: report.md, compare.txt,\n"
	"gate-SETTING.txt/.xml, charts.\n"
	"\n"
	"Cells of a host kernel whose `release` is not the booted kernel are not run: they are\n"
	"listed as pending. Boot that kernel and continue the same run with -o DIR --resume.\n"
	"\n";

static const char run_usage_tail[] =
	"\n"
	"Exit: 0 every cell that can run on this machine completed (pending kernels are listed),\n"
	"1 a cell failed or the run stopped, 2 bad input (also: DIR not empty without --resume,\n"
	"--resume of a run of another config, or no cell of the booted kernel and no --resume),\n"
	"130 interrupted (SIGINT/SIGTERM; knobs are restored first).\n";

enum { OPT_RESUME = 256, OPT_SHARD, OPT_REPS, OPT_QUICK, OPT_TARGET, OPT_JOBS };

/* the options, once: getopt's tables and the usage's option lines (cmd_opt.h) */
static const struct cb_opt run_opts[] = {
	{ "output", 'o', "DIR", "the run directory (must be new or empty, unless --resume)" },
	{ "resume", OPT_RESUME, NULL, "continue the run in DIR (same config, tool version, reps, "
	  "shard):\nskip its complete cells, run the booted kernel's, list the rest" },
	{ "shard", OPT_SHARD, "I/N", "run only shard I of N: the cells whose position in the full "
	  "run\norder (from 0) modulo N is I-1 (1/3: the 1st, 4th, 7th... cell of\n`config check`; "
	  "the cells of one saved guest count as one); join shards\nwith `compactbench merge`" },
	{ "reps", OPT_REPS, "N", "repetitions of every cell (overrides [global] reps)" },
	{ "quick", OPT_QUICK, NULL, "[global] quick_reps repetitions and the workloads' quick.* "
	  "options" },
	{ "target", OPT_TARGET, "T", "run every kernel's cells on target T (host, or qemu: needs a "
	  "recipe)" },
	{ "jobs", OPT_JOBS, "N", "up to N QEMU cells at once, each guest pinned to host CPUs of "
	  "its\nown; refused (exit 2) if N x vCPUs is more than the host's CPUs.\nHost cells still "
	  "run alone. Default 1" },
	{ "help", 'h', NULL, "this text" },
};

static void run_usage_print(FILE *out)
{
	fputs(run_usage, out);
	cb_opt_usage_style(out, run_opts, CB_ARRAY_SIZE(run_opts), 18, CB_OPT_USAGE_FLUSH);
	fputs(run_usage_tail, out);
}

static int check_programs(const struct cb_run *run)
{
	const struct cb_config *cfg = run->cfg;
	char prog[PATH_MAX];

	for (size_t w = 0; w < cfg->nr_workloads; w++) {
		for (int p = 0; p < CB_NR_PHASES; p++) {
			const struct wl_info *wl = cfg->workloads[w].phase[p].wl;

			if (!wl)
				continue;
			if (cb_workload_program(run, wl, prog, sizeof(prog)) < 0 ||
			    access(prog, X_OK) < 0) {
				cb_log("workload program %s: %s (built? set COMPACTBENCH_WORKLOADS)", prog,
				       strerror(errno));
				return -1;
			}
		}
	}
	return 0;
}

static void iso_now(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* run->dir: DIR, or <output>/<name>-<local time> */
static int choose_run_dir(struct cb_run *run, const char *out)
{
	char stamp[32];
	time_t t = time(NULL);
	struct tm tm;

	if (out)
		return cb_path(run->dir, sizeof(run->dir), "%s", out);
	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	return cb_path(run->dir, sizeof(run->dir), "%s/%s-%s", run->cfg->output, run->cfg->name,
		       stamp);
}

/* the run directory holds the run being continued, or nothing yet */
static int check_run_dir(const struct cb_run *run, bool resume)
{
	int full = cb_dir_nonempty(run->dir);
	char path[PATH_MAX];

	if (full < 0) {
		cb_log("%s: %s (the run directory must be a directory)", run->dir, strerror(errno));
		return -1;
	}
	if (!full)
		return 0;
	if (cb_path(path, sizeof(path), "%s/run.json", run->dir) < 0)
		return -1;
	if (!resume) {
		cb_log("%s: not empty%s: continue that run with --resume, or choose another -o",
		       run->dir, access(path, F_OK) == 0 ? " (holds a run)" : "");
		return -1;
	}
	if (access(path, F_OK) < 0) {
		cb_log("%s: not empty, but no run.json: not a run to resume; choose another -o",
		       run->dir);
		return -1;
	}
	return 0;
}

/* the number of a run.json field, or @def if absent */
static long long json_int(struct json_object *o, const char *key, long long def)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !x)
		return def;
	return json_object_get_int64(x);
}

/*
 * --resume: the run.json already in the directory must be of the same config, tool
 * version, reps, quick and shard as this command, else its cells would not be the same
 * cells. Keeps its "started" time.
 */
static int check_resumed(const struct cb_run *run, struct cb_run_info *info)
{
	struct json_object *prev, *x, *sh = NULL;
	char err[2048], want[64], have[64];
	const char *field = NULL, *s;
	char path[PATH_MAX];

	if (cb_path(path, sizeof(path), "%s/run.json", run->dir) < 0 || access(path, F_OK) < 0)
		return 0;
	prev = cb_run_json_load(run->dir, err, sizeof(err));
	if (!prev) {
		cb_log("--resume: %s", err);
		return -1;
	}
	json_object_object_get_ex(prev, "shard", &sh);
	if (strcmp(json_object_get_string(json_object_object_get(prev, "config_sha256")),
		   run->cfg->sha256)) {
		field = "config_sha256";
		snprintf(want, sizeof(want), "%.12s...", run->cfg->sha256);
		snprintf(have, sizeof(have), "%.12s...",
			 json_object_get_string(json_object_object_get(prev, "config_sha256")));
	} else if (strcmp(json_object_get_string(json_object_object_get(prev, "tool_version")),
			  CB_VERSION)) {
		field = "tool_version";
		snprintf(want, sizeof(want), "%s", CB_VERSION);
		snprintf(have, sizeof(have), "%s",
			 json_object_get_string(json_object_object_get(prev, "tool_version")));
	} else if (json_int(prev, "reps", info->reps) != info->reps) {
		field = "reps";
		snprintf(want, sizeof(want), "%ld", info->reps);
		snprintf(have, sizeof(have), "%lld", json_int(prev, "reps", 0));
	} else if (json_object_object_get_ex(prev, "quick", &x) &&
		   json_object_get_boolean(x) != run->quick) {
		field = "quick";
		snprintf(want, sizeof(want), "%s", run->quick ? "true" : "false");
		snprintf(have, sizeof(have), "%s", run->quick ? "false" : "true");
	} else if (json_int(sh, "index", 0) != info->shard_index ||
		   json_int(sh, "count", 0) != info->shard_count) {
		field = "shard";
		snprintf(want, sizeof(want), info->shard_count ? "%ld/%ld" : "none", info->shard_index,
			 info->shard_count);
		snprintf(have, sizeof(have), sh ? "%lld/%lld" : "none", json_int(sh, "index", 0),
			 json_int(sh, "count", 0));
	}
	if (field) {
		cb_log("--resume: %s: field \"%s\" is %s, but this command's is %s: --resume "
		       "continues a run of the same config, tool version, reps, --quick and --shard; "
		       "choose another -o for this one", path, field, have, want);
		json_object_put(prev);
		return -1;
	}
	s = json_object_get_string(json_object_object_get(prev, "started"));
	if (s)
		snprintf(info->started, sizeof(info->started), "%s", s);
	json_object_put(prev);
	return 0;
}

/* create the run directory and copy the config into it */
static int make_run_dir(struct cb_run *run)
{
	char path[PATH_MAX], *data;
	size_t len;

	if (cb_mkdir_p(run->dir) < 0) {
		cb_log("%s: cannot create: %s", run->dir, strerror(errno));
		return -1;
	}
	data = cb_read_file(run->cfg->path, &len);
	if (!data || cb_path(path, sizeof(path), "%s/config.ini", run->dir) < 0 ||
	    cb_write_file_atomic(path, data, len) < 0) {
		free(data);
		cb_log("%s: cannot copy the config: %s", run->dir, strerror(errno));
		return -1;
	}
	free(data);
	return 0;
}

struct run_opts {
	const char *config, *out, *target;
	long reps, shard_index, shard_count, jobs;
	bool quick, resume;
};

static int parse_run_args(int argc, char **argv, struct run_opts *o)
{
	struct cb_opt_parser p;
	char err[256];
	long long v;
	int c;

	cb_opt_parser_init(&p, run_opts, CB_ARRAY_SIZE(run_opts), false);
	optind = 1;
	opterr = 0;
	while ((c = cb_opt_next(&p, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case OPT_REPS:
			if (cb_parse_long(optarg, 1, 1000, &v) < 0) {
				fprintf(stderr, "compactbench run: --reps '%s': not a number in 1..1000\n",
					optarg);
				return 2;
			}
			o->reps = v;
			break;
		case OPT_JOBS:
			if (cb_parse_long(optarg, 1, CB_JOBS_MAX, &v) < 0) {
				fprintf(stderr, "compactbench run: --jobs '%s': not a number in 1..%d\n",
					optarg, CB_JOBS_MAX);
				return 2;
			}
			o->jobs = v;
			break;
		case OPT_QUICK:
			o->quick = true;
			break;
		case OPT_RESUME:
			o->resume = true;
			break;
		case OPT_SHARD:
			if (cb_shard_parse(optarg, &o->shard_index, &o->shard_count, err,
					   sizeof(err)) < 0) {
				fprintf(stderr, "compactbench run: %s\n", err);
				return 2;
			}
			break;
		case OPT_TARGET:
			if (strcmp(optarg, "host") && strcmp(optarg, "qemu")) {
				fprintf(stderr, "compactbench run: --target '%s': host or qemu\n", optarg);
				return 2;
			}
			o->target = optarg;
			break;
		case 'h':
			run_usage_print(stdout);
			return 0;
		default:
			cb_opt_bad("run", run_opts, CB_ARRAY_SIZE(run_opts), argv);
			run_usage_print(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		run_usage_print(stderr);
		return 2;
	}
	o->config = argv[optind];
	if (o->resume && !o->out) {
		fprintf(stderr, "compactbench run: --resume needs -o DIR: the run to continue\n");
		return 2;
	}
	return -1;
}

/*
 * open @path for a report of this run; NULL (and a line saying why) when it cannot be.
 * stdout is flushed first, so that what the report's maker says on stderr comes after it.
 */
static FILE *open_report(const char *path)
{
	FILE *f;

	fflush(stdout);
	f = fopen(path, "w");

	if (!f)
		cb_log("%s: cannot write: %s", path, strerror(errno));
	return f;
}

/*
 * the gate's verdict for each setting against the first one, on stall time: what a CI job
 * would say if the first setting were the baseline and this one the candidate. One line
 * each; the reasons go to gate-SETTING.txt (and .xml, JUnit) in the run. The run's gate asks
 * for the power to see a doubling (--max-mde 100%). It gates stall time, not the p99 stall:
 * on the default matrix's recurring demand under TCG the p99 of a repetition is a handful
 * of stalls the emulation stretched (log-sd 0.4-0.7 per group on a quiet host, 2026-12-05),
 * so 8 repetitions could only see changes of 123-190% of it and the gate was inconclusive
 * on every pair, the A/A included; stall time (log-sd 0.16-0.32) lets them see 44-60%.
 * `gate` itself still gates both by default (README: the default matrix).
 */
static void gate_settings(const struct cb_run *run)
{
	static const char *const names[] = { "pass", "REGRESSION", "bad input", "inconclusive" };
	char base[PATH_MAX + CB_NAME_MAX + 2], cand[PATH_MAX + CB_NAME_MAX + 2];
	char txt[PATH_MAX + CB_NAME_MAX + 16], xml[PATH_MAX + CB_NAME_MAX + 16];

	for (size_t i = 1; i < run->cfg->nr_settings; i++) {
		const char *s = run->cfg->settings[i].name;
		struct cb_gate_opts o = CB_GATE_OPTS_INIT;
		int rc = -1;
		FILE *f;

		snprintf(base, sizeof(base), "%s:%s", run->dir, run->cfg->settings[0].name);
		snprintf(cand, sizeof(cand), "%s:%s", run->dir, s);
		snprintf(txt, sizeof(txt), "%s/gate-%s.txt", run->dir, s);
		snprintf(xml, sizeof(xml), "%s/gate-%s.xml", run->dir, s);
		o.base = base;
		o.cand = cand;
		o.metrics[o.nm++] = CB_M_DC_STALL_TOTAL_NS;
		o.max_mde = 1.0;	/* --max-mde 100% */
		o.junit = xml;
		f = open_report(txt);
		if (f) {
			rc = cb_gate(&o, f);
			fclose(f);
		}
		printf("gate: '%s' against '%s': %s (why: %s)\n", s, run->cfg->settings[0].name,
		       rc >= 0 && rc <= 3 ? names[rc] : "not run", txt);
	}
}

static bool target_used(const struct cb_config *cfg, const struct cb_target_class *cls)
{
	for (size_t i = 0; i < cfg->nr_kernels; i++)
		if (cfg->kernels[i].cls == cls)
			return true;
	return false;
}

/* prepare every target some kernel runs on (the qemu target builds its kernels here) */
static int prepare_targets(struct cb_run *run)
{
	const struct cb_target_class *cls;

	for (size_t i = 0; (cls = cb_target_class_nth(i)); i++) {
		if (!target_used(run->cfg, cls))
			continue;
		if (cb_target_find(cls)->prepare(run) < 0) {
			cb_log("%s", run->err);
			return -1;
		}
	}
	return 0;
}

static void teardown_targets(struct cb_run *run)
{
	const struct cb_target_class *cls;

	for (size_t i = 0; (cls = cb_target_class_nth(i)); i++)
		if (target_used(run->cfg, cls))
			cb_target_find(cls)->teardown(run);
}

/* what this command does with the cells of its run directory */
struct plan {
	struct cb_cell *todo;	     /* the cells to run now */
	size_t nr_todo, nr_done, nr_pending;
	struct json_object *pending; /* [{ kernel, release, booted, cells }] */
};

static void add_pending(struct plan *p, const struct cb_kernel *k, const char *booted)
{
	struct json_object *e = NULL, *x;

	p->nr_pending++;
	for (size_t i = 0; i < json_object_array_length(p->pending); i++) {
		x = json_object_array_get_idx(p->pending, i);
		if (!strcmp(json_object_get_string(json_object_object_get(x, "kernel")), k->name))
			e = x;
	}
	if (!e) {
		e = json_object_new_object();
		json_object_object_add(e, "kernel", json_object_new_string(k->name));
		json_object_object_add(e, "release", json_object_new_string(k->release));
		json_object_object_add(e, "booted", json_object_new_string(booted));
		json_object_object_add(e, "cells", json_object_new_int64(0));
		json_object_array_add(p->pending, e);
	}
	x = json_object_object_get(e, "cells");
	json_object_set_int64(x, json_object_get_int64(x) + 1);
}

/* complete cells are skipped, cells of a kernel that is not the booted one are pending */
static int plan_cells(const struct cb_run *run, const struct cb_cell *cells, size_t nr,
		      struct plan *p)
{
	char cell_dir[PATH_MAX], booted[512];

	p->todo = cb_xcalloc(nr ? nr : 1, sizeof(*p->todo));
	p->pending = json_object_new_array();
	if (!p->pending)
		cb_oom();
	for (size_t i = 0; i < nr; i++) {
		if (cb_path(cell_dir, sizeof(cell_dir), "%s/%s", run->dir, cells[i].id) < 0)
			return -1;
		if (cb_cell_complete(cell_dir))
			p->nr_done++;
		else if (!cb_kernel_booted(cells[i].kernel, booted, sizeof(booted)))
			add_pending(p, cells[i].kernel, booted);
		else
			p->todo[p->nr_todo++] = cells[i];
	}
	return 0;
}

/* one line per kernel whose cells wait for a reboot */
static void log_pending(const struct cb_run *run, const struct plan *p, const char *how)
{
	for (size_t i = 0; i < json_object_array_length(p->pending); i++) {
		struct json_object *e = json_object_array_get_idx(p->pending, i);

		cb_log("pending: [kernel %s] %lld cell(s): wants release '%s', booted is '%s'%s",
		       json_object_get_string(json_object_object_get(e, "kernel")),
		       (long long)json_object_get_int64(json_object_object_get(e, "cells")),
		       json_object_get_string(json_object_object_get(e, "release")),
		       json_object_get_string(json_object_object_get(e, "booted")), how);
	}
	if (p->nr_pending && *how)
		cb_log("then: compactbench run %s -o %s --resume%s", run->cfg->path, run->dir,
		       run->quick ? " --quick" : "");
}

/* workloads, root, journal, signals, targets: what running cells here needs */
static int ready_to_run(struct cb_run *run)
{
	if (cb_find_workloads(run) < 0 || check_programs(run) < 0)
		return -1;
	if (geteuid() != 0) {
		cb_log("run: the host target changes sysctls and traces the kernel: run as root");
		return -1;
	}
	if (cb_journal_open(&run->journal, NULL) < 0) {
		cb_log("cannot create the state directory for the restore journal: %s", strerror(errno));
		return -1;
	}
	install_signals();
	if (cb_collector_cleanup_stale(cb_log_line) < 0)
		cb_log("could not look for stale tracefs instances: %s", strerror(errno));
	return prepare_targets(run);
}

/* the table, and for a whole matrix the comparison, the gates and the charts */
static void analyze_run(struct cb_run *run, bool whole)
{
	const struct cb_config *cfg = run->cfg;

	fflush(stderr);
	cb_analyze_run(run->dir, stdout);
	fflush(stdout);
	if (!whole) {
		printf("\nresults: %s (a shard: `compactbench merge` joins the shards, then compare, "
		       "gate and plot the merged run)\n", run->dir);
		return;
	}
	if (cfg->nr_settings > 1) {
		char *dirs[] = { run->dir }, path[PATH_MAX + 16];
		struct cb_compare_opts o = { .dirs = dirs, .nr_dirs = 1, .conf = 0.95 };
		FILE *f;

		/* the verdict above is the summary; the tables go to files, one line says where */
		printf("\n");
		snprintf(path, sizeof(path), "%s/compare.txt", run->dir);
		f = open_report(path);
		if (f) {
			cb_compare(&o, f);
			fclose(f);
			printf("compare: %s (the key metrics of every setting against '%s'; "
			       "`compactbench compare --all %s` for every metric)\n", path,
			       cfg->settings[0].name, run->dir);
		}
		gate_settings(run);
	}
	{
		char *dirs[] = { run->dir };
		struct cb_plot_opts o = { .dirs = dirs, .nr_dirs = 1 };

		/* the chart paths are for `plot`'s own users; here one line says where they are */
		fflush(stdout);
		if (cb_plot(&o, NULL) > 0)
			cb_log("the charts could not be drawn (see %s/charts/gnuplot.log)", run->dir);
	}
	printf("\nresults: %s\nreport:  %s/report.md (and report.html)\ncharts:  %s/charts/\n",
	       run->dir, run->dir, run->dir);
}

/*
 * the config of @o (*@cfgp, the caller frees it) and its cells (sharded as asked) into @run,
 * @info, @jobs, *@cells, *@nr;
 * 0, or 2 with the reason printed (what `config check` says, too many cells, --jobs)
 */
static int load_matrix(const struct run_opts *o, struct cb_run *run, struct cb_run_info *info,
		       struct cb_jobs *jobs, struct cb_config **cfgp, struct cb_cell **cells,
		       size_t *nr)
{
	struct cb_config *cfg;
	char err[2048];

	cfg = *cfgp = cb_config_load(o->config, err, sizeof(err));
	if (!cfg) {
		fprintf(stderr, "compactbench: %s\n", err);
		return 2;
	}
	run->cfg = cfg;
	for (size_t i = 0; o->target && i < cfg->nr_kernels; i++)
		cb_kernel_set_target(&cfg->kernels[i], cb_target_class_find(o->target));
	if (cb_config_verify(cfg, "", stderr, NULL) > 0) /* what config check says */
		return 2;
	if (cb_jobs_setup(jobs, cfg, o->jobs ? o->jobs : 1, err, sizeof(err)) < 0) {
		cb_log("%s: %s", cfg->path, err);
		return 2;
	}
	if (cb_boot_check(cfg, jobs->n, err, sizeof(err)) < 0) {
		cb_log("%s: %s", cfg->path, err);
		return 2;
	}
	info->jobs = jobs->n;
	run->quick = o->quick;
	info->reps = o->reps ? o->reps : o->quick ? cfg->quick_reps : cfg->reps;
	*cells = cb_matrix_expand(cfg, info->reps, nr);
	if (*nr > CB_RUN_MAX_CELLS) { /* compare, gate and merge would refuse its run.json */
		cb_log("%s: %zu cells, more than the %d a run may have (fewer reps or a shard of "
		       "it)", cfg->path, *nr, CB_RUN_MAX_CELLS);
		return 2;
	}
	info->total_cells = *nr;
	if (o->shard_count) {
		info->shard_index = o->shard_index;
		info->shard_count = o->shard_count;
		*nr = cb_matrix_shard(*cells, *nr, o->shard_index, o->shard_count);
	}
	iso_now(info->started, sizeof(info->started));
	return 0;
}

/* the line that says what the run will do, and where */
static void log_start(const struct cb_run *run, const struct run_opts *o,
		      const struct cb_run_info *info, const struct plan *plan, size_t nr)
{
	const struct cb_config *cfg = run->cfg;
	char why[1024], skip[1100] = "";
	size_t skipped = cb_matrix_skipped(cfg, info->reps, why, sizeof(why));

	if (skipped)
		snprintf(skip, sizeof(skip), ", %zu skipped: %s", skipped, why);
	if (o->shard_count)
		cb_log("%s: shard %ld/%ld: %zu of the %zu cells (%zu kernels x %zu settings x %zu "
		       "workloads x %ld reps%s) into %s", cfg->path, o->shard_index, o->shard_count,
		       nr, info->total_cells, cfg->nr_kernels, cfg->nr_settings, cfg->nr_workloads,
		       info->reps, skip, run->dir);
	else
		cb_log("%s: %zu cells (%zu kernels x %zu settings x %zu workloads x %ld reps%s) "
		       "into %s", cfg->path, nr, cfg->nr_kernels, cfg->nr_settings,
		       cfg->nr_workloads, info->reps, skip, run->dir);
	if (o->resume)
		cb_log("resume: %zu of %zu cells complete, %zu to run now, %zu pending",
		       plan->nr_done, nr, plan->nr_todo, plan->nr_pending);
	log_pending(run, plan, "");
}

/*
 * after the cells: an interrupted run says how to continue it, an empty shard says so, a
 * run analyzes its cells and lists the kernels still to boot. Returns the exit status.
 */
static int finish_run(struct cb_run *run, const struct run_opts *o,
		      const struct cb_run_info *info, const struct plan *plan, size_t nr,
		      size_t failed)
{
	if (cb_interrupted) {
		cb_log("interrupted: knobs restored; the run in %s is incomplete: continue it with "
		       "`compactbench run %s -o %s --resume`", run->dir, run->cfg->path, run->dir);
		return 130;
	}
	if (!nr) {
		cb_log("shard %ld/%ld has no cells (the matrix has %zu): nothing to run",
		       o->shard_index, o->shard_count, info->total_cells);
		return 0;
	}
	analyze_run(run, !o->shard_count);
	fflush(stdout);
	if (plan->nr_pending) {
		cb_log("still to run: %zu cell(s) of other kernels; boot each and continue the run "
		       "(README: A/B on real hardware):", plan->nr_pending);
		log_pending(run, plan, ": boot it");
	}
	return failed ? 1 : 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct cb_run run = { .root = "" };
	struct cb_run_info info = { 0 };
	struct plan plan = { 0 };
	struct cb_jobs jobs = { 0 };
	struct cb_config *cfg = NULL;
	struct cb_cell *cells = NULL;
	size_t nr = 0, failed = 0;
	int rc;

	rc = parse_run_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	rc = load_matrix(&o, &run, &info, &jobs, &cfg, &cells, &nr);
	if (rc)
		goto out;
	rc = 2;
	if (choose_run_dir(&run, o.out) < 0 || check_run_dir(&run, o.resume) < 0 ||
	    (o.resume && check_resumed(&run, &info) < 0))
		goto out;
	rc = 1;
	if (plan_cells(&run, cells, nr, &plan) < 0)
		goto out;
	if (!plan.nr_todo && plan.nr_pending && !o.resume) {
		/* a typo in `release` must not look like a run: nothing would be measured */
		cb_log("nothing to run: every one of the %zu cells belongs to a kernel that is not "
		       "the booted one", nr);
		log_pending(&run, &plan, "");
		cb_log("check each [kernel]'s `release` against `uname -r` (or `uname -rv`), or "
		       "boot one of them; no run directory was made");
		rc = 2;
		goto out;
	}
	if ((plan.nr_todo && ready_to_run(&run) < 0) || make_run_dir(&run) < 0)
		goto out;
	info.pending = plan.pending;
	cb_run_json_write(&run, &info, cells, nr, false, false);
	log_start(&run, &o, &info, &plan, nr);
	if (plan.nr_todo) {
		cb_run_todo(&run, plan.todo, plan.nr_todo, &jobs, &failed);
		teardown_targets(&run);
	}
	cb_run_json_write(&run, &info, cells, nr, true,
			  !failed && !cb_interrupted && !plan.nr_pending);
	rc = finish_run(&run, &o, &info, &plan, nr, failed);
out:
	json_object_put(run.knobs);
	json_object_put(plan.pending);
	free(plan.todo);
	free(cells);
	cb_jobs_free(&jobs);
	cb_config_free(cfg);
	return rc;
}

static const char restore_usage[] =
	"usage: compactbench restore\n"
	"\n"
	"Put back every knob a run changed and did not restore (a run killed with SIGKILL, a\n"
	"crash): the values are in the restore journal ($COMPACTBENCH_STATE_DIR or\n"
	"/run/compactbench/restore.journal). Also removes tracefs instances left by a killed\n"
	"collector. A run does the same at its start. Exit: 0 done, 1 a knob not put back.\n";

int cmd_restore(int argc, char **argv)
{
	struct cb_journal j;
	char err[1024];
	int n = cb_opt_help_only("restore", restore_usage, argc, argv);

	if (n >= 0)
		return n;
	if (optind != argc) {
		fputs(restore_usage, stderr);
		return 2;
	}
	if (cb_journal_open(&j, NULL) < 0) {
		cb_log("restore: cannot open the state directory: %s", strerror(errno));
		return 1;
	}
	if (cb_collector_cleanup_stale(cb_log_line) < 0)
		cb_log("could not look for stale tracefs instances: %s", strerror(errno));
	n = cb_journal_restore(&j, cb_log_line, err, sizeof(err));
	if (n < 0) {
		cb_log("restore: %s", err);
		return 1;
	}
	cb_log("restore: %d knob%s restored", n, n == 1 ? "" : "s");
	return 0;
}
