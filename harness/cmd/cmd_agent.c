// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_agent.c - `compactbench agent CONFIG CELL_ID OUTDIR`: one cell of a matrix, run on
 * the kernel this program runs on. Inside a qemu guest this is what /init starts; it is
 * the host target's own code (knobs through the journal, start state, cb_agent_run_cell),
 * so a guest cell produces the same files as a host cell.
 */
#include "cmd.h"
#include "agent.h"
#include "cmd.h"
#include "cmd_opt.h"
#include "collector.h"
#include "guest_state.h"
#include "isolation.h"
#include "matrix.h"
#include "meta.h"
#include "run.h"
#include "target.h"
#include "target_class.h"
#include "util.h"

#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char agent_usage[] =
	"usage: compactbench agent [--quick] [--target NAME] [--isolation FILE] [--saved-state TTY]\n"
	"                          CONFIG CELL_ID OUTDIR\n"
	"\n"
	"Run the one cell CELL_ID (<kernel>.<setting>.<workload>.r<rep>) of the matrix CONFIG\n"
	"on the running kernel and write its directory OUTDIR/CELL_ID: the setting's knobs are\n"
	"set through the restore journal and put back after, exactly as the host target does.\n"
	"This is what runs inside a qemu guest and, over ssh, on a lab machine; it works on the\n"
	"host too (as root). SIGINT, SIGTERM, SIGHUP (the ssh session died) and SIGPIPE stop\n"
	"the cell and restore the knobs. --target names the target that started it (qemu,\n"
	"ssh; default host) for meta.json's \"target\".\n"
	"--isolation FILE: this kernel ran other cells before (a qemu guest of [global] boot =\n"
	"per-kernel): first drop caches, compact and read free memory, free order-9 blocks\n"
	"and pageblock types; the first cell writes them to FILE, a later one compares and\n"
	"declines (exit 3) if they are not back near FILE's (meta.json \"isolation\").\n"
	"--saved-state TTY: a qemu guest of [kernel] guest_state = saved: run CELL_ID's fragment\n"
	"phase (with the knobs all settings share and vm.compaction_proactiveness 0), unmount\n"
	"OUTDIR, print \"cb-state: ready\" for the host to save the guest, then read from TTY\n"
	"the id of the cell to run (one of the same kernel, workload and repetition), mount\n"
	"OUTDIR again and run it with the fragmenter it has (meta.json \"saved_state\").\n"
	"\n"
	"Exit: 0 the cell completed, 1 it failed, 2 bad input, 3 declined (--isolation).\n";

enum { OPT_QUICK = 256, OPT_TARGET, OPT_ISOLATION, OPT_SAVED_STATE };

/*
 * the options, once: getopt's tables (cmd_opt.h); the usage above says what they do. An
 * option is a row here and a case in parse_agent_args.
 */
static const struct cb_opt agent_opts[] = {
	{ "quick", OPT_QUICK, NULL, NULL },
	{ "target", OPT_TARGET, "NAME", NULL },
	{ "isolation", OPT_ISOLATION, "FILE", NULL },
	{ "saved-state", OPT_SAVED_STATE, "TTY", NULL },
	{ "help", 'h', NULL, NULL },
};

static void on_signal(int sig)
{
	cb_interrupted = sig;
}

/* the repetition is the id's ".r<N>" tail: expanding that many reps yields the cell */
static const struct cb_cell *find_cell(const struct cb_config *cfg, const char *id,
				       struct cb_cell **cells, size_t *nr)
{
	const char *r = strrchr(id, '.');
	long long reps;

	if (!r || r[1] != 'r' || cb_parse_long(r + 2, 1, 100000, &reps) < 0)
		return NULL;
	*cells = cb_matrix_expand(cfg, (long)reps, nr);
	for (size_t i = 0; i < *nr; i++)
		if (!strcmp((*cells)[i].id, id))
			return &(*cells)[i];
	return NULL;
}

/*
 * --isolation: the state between two cells of one guest (isolation.h) into *@iso; 1 if
 * the cell is declined, else 0 (an error reading the state is logged: the cell runs,
 * meta.json says the check could not be made)
 */
static int isolate(struct cb_run *run, const struct cb_cell *cell, struct json_object **iso)
{
	int rc;

	*iso = NULL;
	if (!run->isolation)
		return 0;
	cb_timing_lap(&run->timing, CB_PART_SETUP);
	rc = cb_iso_step(run, run->isolation, iso);
	cb_timing_lap(&run->timing, CB_PART_START_STATE);
	if (rc > 0) {
		cb_log("agent: cell %s declined: %s", cell->id, run->err);
		json_object_put(*iso);
		return 1;
	}
	if (rc < 0) {
		cb_log("agent: cell %s: the isolation check failed: %s", cell->id, run->err);
		*iso = json_object_new_object();
		json_object_object_add(*iso, "error", json_object_new_string(run->err));
	}
	run->err[0] = '\0';
	return 0;
}

/* meta.json "isolation" from @iso (taken) */
static void add_isolation(const char *cell_dir, struct json_object *iso)
{
	struct json_object *meta;
	char path[PATH_MAX];

	if (!iso)
		return;
	if (cb_path(path, sizeof(path), "%s/meta.json", cell_dir) == 0 &&
	    (meta = json_object_from_file(path))) {
		json_object_object_add(meta, "isolation", json_object_get(iso));
		cb_json_write_atomic(path, meta);
		json_object_put(meta);
	}
	json_object_put(iso);
}

/* signals, the restore journal, stale tracefs instances, the host target's checks */
static int agent_prepare(struct cb_run *run)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/*
	 * The ssh target runs us as the leader of a pty session: a dead session (ssh killed,
	 * link down) is a SIGHUP, and writing to the hung-up terminal may raise SIGPIPE. Both
	 * stop the cell like SIGTERM, so the knobs are restored. Caught, not ignored: the
	 * workload programs get the default actions back at exec.
	 */
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	if (cb_journal_open(&run->journal, NULL) < 0) {
		cb_log("agent: cannot open the restore journal: %s", strerror(errno));
		return -1;
	}
	if (cb_collector_cleanup_stale(cb_log_line) < 0)
		cb_log("agent: could not look for stale tracefs instances: %s", strerror(errno));
	if (cb_target_host.prepare(run) < 0) {
		cb_log("agent: %s", run->err);
		return -1;
	}
	return 0;
}

static int run_one(struct cb_run *run, const struct cb_cell *cell, const char *outdir)
{
	struct json_object *iso;
	const struct cb_target_ops *ops = &cb_target_host;
	char cell_dir[PATH_MAX];
	int rc;

	if (cb_path(cell_dir, sizeof(cell_dir), "%s/%s", outdir, cell->id) < 0 ||
	    cb_mkdir_p(cell_dir) < 0) {
		cb_log("agent: %s/%s: cannot create: %s", outdir, cell->id, strerror(errno));
		return 1;
	}
	if (agent_prepare(run) < 0)
		return 1;
	if (isolate(run, cell, &iso) > 0)
		return 3;
	rc = ops->run_cell(run, cell, cell_dir);
	if (rc < 0)
		cb_log("agent: cell %s failed: %s", cell->id, run->err);
	ops->teardown(run);
	add_isolation(cell_dir, iso);
	cb_agent_timing_final(run, cell_dir);
	return rc < 0 ? 1 : 0;
}

/* --saved-state: fragment for @first's state, be saved, run the cell the host names */
static int run_saved(struct cb_run *run, const struct cb_cell *cells, size_t nr,
		     const struct cb_cell *first, const char *outdir, const char *tty)
{
	int rc;

	if (agent_prepare(run) < 0)
		return 1;
	rc = cb_guest_state_run(run, cells, nr, first, outdir, tty);
	cb_target_host.teardown(run);
	return rc;
}

/* argv into @run's options; returns the index of CONFIG, or -1 with the exit code in *@rc */
static int parse_agent_args(int argc, char **argv, struct cb_run *run, const char **saved_tty,
			    int *rc)
{
	struct cb_opt_parser p;
	int c;

	cb_opt_parser_init(&p, agent_opts, CB_ARRAY_SIZE(agent_opts), 0);
	while ((c = cb_opt_next(&p, argc, argv)) != -1) {
		switch (c) {
		case OPT_QUICK:
			run->quick = true;
			break;
		case OPT_TARGET:
			/* meta.json's "target" is read back by analyze: only a target's name */
			if (!cb_target_class_find(optarg)) {
				char names[256];

				cb_log("agent: --target %s: not a target (%s)", optarg,
				       cb_target_class_names(names, sizeof(names)));
				*rc = 2;
				return -1;
			}
			run->target_name = optarg;
			break;
		case OPT_ISOLATION:
			run->isolation = optarg;
			break;
		case OPT_SAVED_STATE:
			*saved_tty = optarg;
			break;
		case 'h':
			fputs(agent_usage, stdout);
			*rc = 0;
			return -1;
		default:
			cb_opt_bad("agent", agent_opts, CB_ARRAY_SIZE(agent_opts), argv);
			fputs(agent_usage, stderr);
			*rc = 2;
			return -1;
		}
	}
	if (argc - optind != 3) {
		fputs(agent_usage, stderr);
		*rc = 2;
		return -1;
	}
	return optind;
}

int cmd_agent(int argc, char **argv)
{
	struct cb_run run = { .root = "" };
	struct cb_cell *cells = NULL;
	const struct cb_cell *cell;
	const char *saved_tty = NULL;
	size_t nr = 0;
	struct cb_config *cfg;
	char err[2048];
	int a, rc = 2;

	/* the agent's own stopwatch (meta.json "timing"), from its exec on */
	cb_timing_start_at_exec(&run.timing);
	a = parse_agent_args(argc, argv, &run, &saved_tty, &rc);
	if (a < 0)
		return rc;
	cfg = cb_config_load(argv[a], err, sizeof(err));
	if (!cfg) {
		cb_log("%s", err);
		return 2;
	}
	cell = find_cell(cfg, argv[a + 1], &cells, &nr);
	if (!cell) {
		cb_log("agent: %s: no cell %s in this matrix", argv[a], argv[a + 1]);
		rc = 2;
		goto out;
	}
	run.cfg = cfg;
	if (cb_find_workloads(&run) < 0) {
		cb_log("agent: cannot find the workload programs: %s", strerror(errno));
		rc = 1;
		goto out;
	}
	/* the first line on the console: bench/boot measures the time to it */
	cb_log("agent: cell %s starting", cell->id);
	if (saved_tty)
		rc = run_saved(&run, cells, nr, cell, argv[a + 2], saved_tty);
	else
		rc = run_one(&run, cell, argv[a + 2]);
	cb_log("agent: cell %s %s", cell->id, rc == 3 ? "declined" : rc ? "failed" : "done");
out:
	json_object_put(run.knobs);
	free(cells);
	cb_config_free(cfg);
	return rc;
}
