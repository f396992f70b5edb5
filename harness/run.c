// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - `compactbench run` and `compactbench restore`: a matrix cell by cell, knobs
 * restored at the end, on error and on SIGINT/SIGTERM.
 */
#include "analyze.h"
#include "compare.h"
#include "collector.h"
#include "matrix.h"
#include "meta.h"
#include "run.h"
#include "target.h"
#include "util.h"
#include "version.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t cb_interrupted;

void cb_log(const char *fmt, ...)
{
	va_list ap;

	fputs("compactbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cb_log_line(const char *msg)
{
	cb_log("%s", msg);
}

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
	"usage: compactbench run CONFIG [-o DIR] [--reps N] [--quick] [--target host|qemu]\n"
	"\n"
	"Run every cell of the matrix in CONFIG (kernels x settings x workloads x reps, reps\n"
	"interleaved), write results/<name>-<time>/ (or DIR), restore every knob, then analyze:\n"
	"print the per-setting table and the verdict, and write report.md.\n"
	"\n"
	"  -o, --output DIR   the run directory (must not hold a run already)\n"
	"  --reps N           repetitions of every cell (overrides [global] reps)\n"
	"  --quick            [global] quick_reps repetitions and the workloads' quick.* options\n"
	"  --target T         run every kernel's cells on target T (host, or qemu: needs a recipe)\n"
	"  -h, --help         this text\n"
	"\n"
	"Exit: 0 every cell completed, 1 a cell failed or the run stopped, 2 bad input,\n"
	"130 interrupted (SIGINT/SIGTERM; knobs are restored first).\n";

/* where the workload programs are: $COMPACTBENCH_WORKLOADS, else beside our binary */
int cb_find_workloads(struct cb_run *run)
{
	const char *env = getenv("COMPACTBENCH_WORKLOADS");
	char self[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return cb_path(run->workloads_dir, sizeof(run->workloads_dir), "%s", env);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return -1;
	self[n] = '\0';
	return cb_path(run->workloads_dir, sizeof(run->workloads_dir), "%s/workloads", dirname(self));
}

int cb_workload_program(const struct cb_run *run, const struct wl_info *wl, char *buf, size_t size)
{
	if (wl->path)
		return cb_path(buf, size, "%s", wl->path);
	return cb_path(buf, size, "%s/%s", run->workloads_dir, wl->name);
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

static int write_run_json(const struct cb_run *run, const struct cb_cell *cells, size_t nr,
			  const char *started, bool finished, bool complete)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	char path[PATH_MAX], now[32];
	int ret;

	json_object_object_add(o, "schema", json_object_new_int(CB_META_SCHEMA));
	json_object_object_add(o, "config", json_object_new_string(run->cfg->path));
	json_object_object_add(o, "config_sha256", json_object_new_string(run->cfg->sha256));
	json_object_object_add(o, "name", json_object_new_string(run->cfg->name));
	json_object_object_add(o, "tool_version", json_object_new_string(CB_VERSION));
	json_object_object_add(o, "quick", json_object_new_boolean(run->quick));
	json_object_object_add(o, "started", json_object_new_string(started));
	iso_now(now, sizeof(now));
	json_object_object_add(o, "finished", finished ? json_object_new_string(now) : NULL);
	json_object_object_add(o, "complete", json_object_new_boolean(complete));
	for (size_t i = 0; i < nr; i++) {
		struct json_object *c = json_object_new_object();

		json_object_object_add(c, "id", json_object_new_string(cells[i].id));
		json_object_object_add(c, "kernel", json_object_new_string(cells[i].kernel->name));
		json_object_object_add(c, "target", json_object_new_string(
					       cb_target_find(cells[i].kernel->target)->name));
		if (cells[i].kernel->target == CB_TARGET_SSH) /* which machine ran it */
			json_object_object_add(c, "host", json_object_new_string(cells[i].kernel->host));
		json_object_object_add(c, "setting", json_object_new_string(cells[i].setting->name));
		json_object_object_add(c, "workload", json_object_new_string(cells[i].workload->name));
		json_object_object_add(c, "rep", json_object_new_int64(cells[i].rep));
		json_object_object_add(c, "index", json_object_new_int64((int64_t)cells[i].index));
		json_object_array_add(arr, c);
	}
	json_object_object_add(o, "cells", arr);
	ret = cb_path(path, sizeof(path), "%s/run.json", run->dir);
	if (ret == 0)
		ret = cb_json_write_atomic(path, o);
	json_object_put(o);
	return ret;
}

static int make_run_dir(struct cb_run *run, const char *out)
{
	char path[PATH_MAX], stamp[32], *data;
	time_t t = time(NULL);
	struct tm tm;
	size_t len;

	if (out) {
		if (cb_path(run->dir, sizeof(run->dir), "%s", out) < 0)
			return -1;
	} else {
		localtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		if (cb_path(run->dir, sizeof(run->dir), "%s/%s-%s", run->cfg->output, run->cfg->name,
			    stamp) < 0)
			return -1;
	}
	if (cb_path(path, sizeof(path), "%s/run.json", run->dir) < 0)
		return -1;
	if (access(path, F_OK) == 0) {
		cb_log("%s: holds a run already; choose another -o", run->dir);
		errno = EEXIST;
		return -1;
	}
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
	long reps;
	bool quick;
};

static int parse_run_args(int argc, char **argv, struct run_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' }, { "reps", required_argument, NULL, 'r' },
		{ "quick", no_argument, NULL, 'q' },	    { "target", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },	    { NULL, 0, NULL, 0 },
	};
	long long v;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case 'r':
			if (cb_parse_long(optarg, 1, 1000, &v) < 0) {
				fprintf(stderr, "compactbench run: --reps '%s': not a number in 1..1000\n",
					optarg);
				return 2;
			}
			o->reps = v;
			break;
		case 'q':
			o->quick = true;
			break;
		case 't':
			if (strcmp(optarg, "host") && strcmp(optarg, "qemu")) {
				fprintf(stderr, "compactbench run: --target '%s': host or qemu\n", optarg);
				return 2;
			}
			o->target = optarg;
			break;
		case 'h':
			fputs(run_usage, stdout);
			return 0;
		default:
			fputs(run_usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(run_usage, stderr);
		return 2;
	}
	o->config = argv[optind];
	return -1;
}

/* the figures of a finished cell for its progress line, from its fresh summary.json */
static void cell_figures(const char *cell_dir, char *buf, size_t size)
{
	char path[PATH_MAX], err[1024];
	struct json_object *sum, *m, *x;
	double v[3] = { -1, -1, -1 };
	static const char *const keys[] = { "dc_stalls", "vm_compact_stall", "wl_thp_success_rate" };

	buf[0] = '\0';
	if (cb_analyze_cell(cell_dir, err, sizeof(err)) < 0) {
		snprintf(buf, size, " (not analyzed: %s)", err);
		return;
	}
	if (cb_path(path, sizeof(path), "%s/summary.json", cell_dir) < 0)
		return;
	sum = json_object_from_file(path);
	if (sum && json_object_object_get_ex(sum, "metrics", &m)) {
		for (int i = 0; i < 3; i++)
			if (json_object_object_get_ex(m, keys[i], &x) && x)
				v[i] = json_object_get_double(x);
	}
	json_object_put(sum);
	snprintf(buf, size, ": %.0f direct-compaction stalls (compact_stall +%.0f)", v[0], v[1]);
	if (v[2] >= 0)
		snprintf(buf + strlen(buf), size - strlen(buf), ", THP success %.1f%%", 100 * v[2]);
}

/*
 * the gate's verdict for each setting against the first one, on the default metrics: what
 * a CI job would say if the first setting were the baseline and this one the candidate
 */
static void gate_settings(const struct cb_run *run)
{
	char base[PATH_MAX + CB_NAME_MAX + 2], cand[PATH_MAX + CB_NAME_MAX + 2];

	for (size_t i = 1; i < run->cfg->nr_settings; i++) {
		char *args[] = { "gate", "--baseline", base, "--candidate", cand, NULL };

		snprintf(base, sizeof(base), "%s:%s", run->dir, run->cfg->settings[0].name);
		snprintf(cand, sizeof(cand), "%s:%s", run->dir, run->cfg->settings[i].name);
		printf("\ngate: '%s' as candidate against '%s' as baseline\n",
		       run->cfg->settings[i].name, run->cfg->settings[0].name);
		fflush(stdout);
		cmd_gate(5, args);
		fflush(stdout);
	}
}

static int run_cells(struct cb_run *run, const struct cb_cell *cells, size_t nr, size_t *failed)
{
	for (size_t i = 0; i < nr && !cb_interrupted; i++) {
		const struct cb_target_ops *ops = cb_target_find(cells[i].kernel->target);
		char cell_dir[PATH_MAX], figures[1200];
		uint64_t t0 = cb_now_ns();

		if (cb_path(cell_dir, sizeof(cell_dir), "%s/%s", run->dir, cells[i].id) < 0)
			return -1;
		fprintf(stderr, "[%zu/%zu] %s: running\n", i + 1, nr, cells[i].id);
		if (ops->run_cell(run, &cells[i], cell_dir) < 0 || ops->fetch(run, &cells[i], cell_dir) < 0) {
			(*failed)++;
			fprintf(stderr, "[%zu/%zu] %s: %s after %.1f s: %s\n", i + 1, nr, cells[i].id,
				cb_interrupted ? "interrupted" : "FAILED", (cb_now_ns() - t0) / 1e9,
				run->err);
			continue;
		}
		cell_figures(cell_dir, figures, sizeof(figures));
		fprintf(stderr, "[%zu/%zu] %s: done in %.1f s%s\n", i + 1, nr, cells[i].id,
			(cb_now_ns() - t0) / 1e9, figures);
	}
	return 0;
}

static bool target_used(const struct cb_config *cfg, enum cb_target_kind kind)
{
	for (size_t i = 0; i < cfg->nr_kernels; i++)
		if (cfg->kernels[i].target == kind)
			return true;
	return false;
}

/* prepare every target some kernel runs on (the qemu target builds its kernels here) */
static int prepare_targets(struct cb_run *run)
{
	for (int kind = CB_TARGET_HOST; kind < CB_NR_TARGETS; kind++) {
		if (!target_used(run->cfg, kind))
			continue;
		if (cb_target_find(kind)->prepare(run) < 0) {
			cb_log("%s", run->err);
			return -1;
		}
	}
	return 0;
}

static void teardown_targets(struct cb_run *run)
{
	for (int kind = CB_TARGET_HOST; kind < CB_NR_TARGETS; kind++)
		if (target_used(run->cfg, kind))
			cb_target_find(kind)->teardown(run);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct cb_run run = { .root = "" };
	struct cb_config *cfg;
	struct cb_cell *cells;
	size_t nr, failed = 0;
	char err[2048], started[32];
	int rc;

	rc = parse_run_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	cfg = cb_config_load(o.config, err, sizeof(err));
	if (!cfg) {
		fprintf(stderr, "compactbench: %s\n", err);
		return 2;
	}
	for (size_t i = 0; o.target && i < cfg->nr_kernels; i++)
		cfg->kernels[i].target = strcmp(o.target, "host") ? CB_TARGET_QEMU : CB_TARGET_HOST;
	for (size_t i = 0; i < cfg->nr_kernels; i++) {
		if (!cb_target_find(cfg->kernels[i].target)) {
			cb_log("%s:%d: [kernel %s]: target qemu is not yet available", cfg->path,
			       cfg->kernels[i].line, cfg->kernels[i].name);
			cb_config_free(cfg);
			return 2;
		}
	}
	run.cfg = cfg;
	run.quick = o.quick;
	cells = cb_matrix_expand(cfg, o.reps ? o.reps : o.quick ? cfg->quick_reps : cfg->reps, &nr);
	rc = 1;
	if (cb_find_workloads(&run) < 0 || check_programs(&run) < 0)
		goto out_cfg;
	if (geteuid() != 0) {
		cb_log("run: the host target changes sysctls and traces the kernel: run as root");
		goto out_cfg;
	}
	if (cb_journal_open(&run.journal, NULL) < 0) {
		cb_log("cannot create the state directory for the restore journal: %s", strerror(errno));
		goto out_cfg;
	}
	install_signals();
	if (cb_collector_cleanup_stale(cb_log_line) < 0)
		cb_log("could not look for stale tracefs instances: %s", strerror(errno));
	if (prepare_targets(&run) < 0)
		goto out_cfg;
	if (make_run_dir(&run, o.out) < 0)
		goto out_cfg;
	iso_now(started, sizeof(started));
	write_run_json(&run, cells, nr, started, false, false);
	cb_log("%s: %zu cells (%zu kernels x %zu settings x %zu workloads x %ld reps) into %s",
	       cfg->path, nr, cfg->nr_kernels, cfg->nr_settings, cfg->nr_workloads,
	       nr / (cfg->nr_kernels * cfg->nr_settings * cfg->nr_workloads), run.dir);
	run_cells(&run, cells, nr, &failed);
	teardown_targets(&run);
	write_run_json(&run, cells, nr, started, true, !failed && !cb_interrupted);
	if (cb_interrupted) {
		cb_log("interrupted: knobs restored; the run in %s is incomplete", run.dir);
		rc = 130;
		goto out_cfg;
	}
	fflush(stderr);
	cb_analyze_run(run.dir, stdout);
	fflush(stdout);
	if (cfg->nr_settings > 1) {
		char *cmp[] = { "compare", run.dir, NULL };

		printf("\n");
		fflush(stdout);
		cmd_compare(2, cmp);
		gate_settings(&run);
	}
	{
		char *plot[] = { "plot", run.dir, NULL };
		FILE *saved = stdout;

		/* the chart paths are for `plot`'s own users; here one line says where they are */
		fflush(stdout);
		stdout = fopen("/dev/null", "w");
		if (stdout && cmd_plot(2, plot) != 0)
			cb_log("the charts could not be drawn (see %s/charts/gnuplot.log)", run.dir);
		if (stdout)
			fclose(stdout);
		stdout = saved;
	}
	printf("\nresults: %s\nreport:  %s/report.md (and report.html)\ncharts:  %s/charts/\n",
	       run.dir, run.dir, run.dir);
	rc = failed ? 1 : 0;
out_cfg:
	json_object_put(run.knobs);
	free(cells);
	cb_config_free(cfg);
	return rc;
}

static const char restore_usage[] =
	"usage: compactbench restore\n"
	"\n"
	"Put back every knob a run changed and did not restore (a run killed with SIGKILL, a\n"
	"crash): the values are in the restore journal ($COMPACTBENCH_STATE_DIR or\n"
	"/run/compactbench/restore.journal). Also removes tracefs instances left by a killed\n"
	"collector. A run does the same at its start.\n";

int cmd_restore(int argc, char **argv)
{
	struct cb_journal j;
	char err[1024];
	int n;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(restore_usage, stdout);
		return 0;
	}
	if (argc != 1) {
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
