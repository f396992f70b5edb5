// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench-observer - what recording costs the workload it records (the observer effect).
 *
 *   bench-observer [-n ROUNDS] [-w thp|kernel] [-s SIZE] [-d DURATION]
 *                  [-g RECIPE [-c CPUS] [-i] [-u]]
 *
 * Each round runs the same workload four ways, in an order that rotates from round to
 * round (so a drift of the machine falls on every mode alike): untraced; under
 * `compactbench record --no-probes` with the collector's default events; with the default
 * events and CB_COLLECTOR_ALLOC_EVENT (the filtered kmem:mm_page_alloc the default leaves
 * out: what that one event costs); and with kmem:mm_page_alloc of every order added (one
 * event per page the kernel hands out).
 * The figure is the workload's own, from its summary line, so the recorder's start and stop
 * are not in it:
 *   -w thp     thp-demand --size SIZE: faults per second, first-touch latency p50 and p99;
 *   -w kernel  kernel-demand --duration DURATION: bytes moved through the kernel per second.
 * For each traced mode it prints the median over the rounds of the paired ratio traced /
 * untraced (the round's two runs sit side by side) with a 95% percentile-bootstrap CI
 * (analysis/core/stats.h, the same code the verdicts use). Needs root and tracefs; run it
 * alone on the machine (other load widens the CI, not the median's bias, since the modes
 * are interleaved). Not a test: run by hand, see bench/observer/README.md.
 *
 * -g RECIPE measures in a QEMU guest booted from a kernel recipe (configs/kernels/), where the
 * allocator probes run (guests we build have kprobes): each round is four one-cell
 * `compactbench run`s of a fragmented THP cell (frag-anon 0.9 every other page, then
 * thp-demand 0.3), in rotating order: one with `[collector] events =
 * sched:sched_process_exec, probes = off` (as near to untraced as a cell gets: the agent
 * always records), one with the default events and probes, one with the default events
 * and `probes = off` (so the probes' share of the cost is told from the events'), and one
 * without probes but with the filtered kmem:mm_page_alloc added (that tracepoint runs with
 * its filter for every page the kernel hands out, order 0 too); the figure is
 * thp-demand's summary line in the cell's workload/ folder.
 *
 * -i gives the guest a clock that counts instructions (`clock = icount`, one vCPU: -c 1), so
 * what the guest times is the work done and not the host's load; -u leaves its memory
 * unfragmented (thp-demand 0.6 alone, as on the host): the fragmented layout sets how many
 * faults get huge pages and stall (bench/start-state), which differs from cell to cell, so
 * a round's two cells may not be the same work.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "collector.h"
#include "stats.h"
#include "util.h"
#include "xalloc.h"

#define MAX_ROUNDS 100
#define MAX_ARGS 64

extern char **environ;

/*
 * the modes of a round; EXTRA_SET is the one the host and the guest (-g) use apart: the host's
 * has kmem:mm_page_alloc of every order added, the guest's is the default without probes
 */
enum mode { UNTRACED, DEFAULT_SET, ALLOC_SET, EXTRA_SET, NR_MODES };
static const char *const mode_name[NR_MODES] = {
	"untraced", "default events", "default + mm_page_alloc", "default + mm_page_alloc (all orders)",
};
/*
 * -g: the modes a guest round runs. ALLOC_SET adds the filtered mm_page_alloc, whose
 * tracepoint runs with its filter on every page the guest's kernel hands out.
 */
static const char *const guest_mode_name[NR_MODES] = {
	"one event, no probes", "default events + probes", "default + mm_page_alloc, no probes",
	"default events, no probes",
};

enum figure { F_RATE, F_P50, F_P99, NR_FIGURES };

struct opts {
	int rounds;
	bool kernel; /* -w kernel */
	const char *size, *duration;
	const char *recipe; /* -g: a guest booted from this kernel recipe */
	int cpus; /* -c: the guest's vCPUs (2, as every shipped config) */
	bool icount; /* -i: the guest's clock counts instructions */
	bool unfragmented; /* -u: no fragment phase in the guest */
	char dir[64]; /* a mkdtemp() directory for the traces, removed at the end */
};

/* mode @m's name: the guest's under -g (NULL: a mode -g does not run) */
static const char *name_of(const struct opts *o, enum mode m)
{
	return o->recipe ? guest_mode_name[m] : mode_name[m];
}

/* the figures of one run of the workload; NAN where the workload has none */
struct sample {
	double f[NR_FIGURES];
};

/*
 * run @argv with its stdout into @out (NUL-terminated, truncated at @size) and its stderr
 * into the file @errpath (the progress lines of a run that went well are not wanted; those
 * of one that failed are printed); returns its exit status (128+N for signal N), or -1
 */
static int run_capture(char *const argv[], char *out, size_t size, const char *errpath)
{
	posix_spawn_file_actions_t fa;
	size_t len = 0;
	int p[2], st;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, errpath, O_WRONLY | O_CREAT | O_TRUNC,
					 0600);
	errno = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (errno) {
		close(p[0]);
		return -1;
	}
	while ((n = read(p[0], out + len, size - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(p[0]);
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static double num(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v) : NAN;
}

/* the workload's {"type":"summary",...} line in @text into @s; -1 if there is none */
static int parse_summary(const char *text, bool kernel, struct sample *s)
{
	const char *line = strstr(text, "{\"type\":\"summary\"");
	struct json_object *o, *lat;
	double secs;

	if (!line || !(o = json_tokener_parse(line)))
		return -1;
	secs = num(o, "duration_s");
	for (int i = 0; i < NR_FIGURES; i++)
		s->f[i] = NAN;
	if (kernel) {
		s->f[F_RATE] = num(o, "bytes") / secs;
	} else {
		s->f[F_RATE] = num(o, "regions") / secs;
		if (json_object_object_get_ex(o, "fault_ns", &lat)) {
			s->f[F_P50] = num(lat, "p50");
			s->f[F_P99] = num(lat, "p99");
		}
	}
	json_object_put(o);
	return isfinite(s->f[F_RATE]) && s->f[F_RATE] > 0 ? 0 : -1;
}

/* the argv of one run of @m into @argv (strings owned by @keep, freed by the caller) */
static void build_argv(const struct opts *o, enum mode m, char **argv, char **keep)
{
	int n = 0, k = 0;

	if (m != UNTRACED) {
		argv[n++] = keep[k++] = cb_xstrdup(CB_BUILD_ROOT "/compactbench");
		argv[n++] = "record";
		argv[n++] = "--no-probes";
		argv[n++] = "-o";
		argv[n++] = keep[k++] = cb_xasprintf("%s/trace.dat", o->dir);
		for (int i = 0; m != DEFAULT_SET && cb_collector_default_events[i]; i++) {
			argv[n++] = "-e";
			argv[n++] = (char *)cb_collector_default_events[i];
		}
		if (m != DEFAULT_SET) {
			argv[n++] = "-e";
			argv[n++] = m == ALLOC_SET ? CB_COLLECTOR_ALLOC_EVENT : "kmem:mm_page_alloc";
		}
		argv[n++] = "--";
	}
	if (o->kernel) {
		argv[n++] = keep[k++] = cb_xstrdup(CB_BUILD_ROOT "/workloads/kernel-demand");
		argv[n++] = "--duration";
		argv[n++] = (char *)o->duration;
	} else {
		argv[n++] = keep[k++] = cb_xstrdup(CB_BUILD_ROOT "/workloads/thp-demand");
		argv[n++] = "--size";
		argv[n++] = (char *)o->size;
		argv[n++] = "--release";
	}
	argv[n] = NULL;
	keep[k] = NULL;
}

/* the guest cell's config for mode @m (guest_mode_name[@m]) at @path */
static int write_guest_cfg(const struct opts *o, enum mode m, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "[global]\nreps = 1\ntarget = qemu\nstart_state = drop-compact\n"
		   "[kernel guest]\nrecipe = %s\nmemory = 1G\ncpus = %d\nboot_timeout = 300\n%s"
		   "[setting none]\nvm.compaction_proactiveness = 0\nthp.enabled = madvise\n"
		   "thp.defrag = madvise\n"
		   "[workload thp-frag]\n%sdemand = thp-demand\ndemand.size = %s\n"
		   "timeout = 10m\nready_timeout = 10m\n",
		o->recipe, o->cpus, o->icount ? "clock = icount\n" : "",
		o->unfragmented ? "" : "fragment = frag-anon\nfragment.size = 0.9\n"
				       "fragment.pattern = every-other\n",
		o->unfragmented ? "0.6" : "0.3");
	if (m == UNTRACED)
		fprintf(f, "[collector]\nevents = sched:sched_process_exec\nprobes = off\n");
	else if (m == EXTRA_SET)
		fprintf(f, "[collector]\nprobes = off\n");
	if (m != ALLOC_SET)
		return fclose(f);
	/* one event a line: the list is longer than a config line may be */
	fprintf(f, "[collector]\nprobes = off\nevents =");
	for (int i = 0; cb_collector_default_events[i]; i++)
		fprintf(f, " %s,\n", cb_collector_default_events[i]);
	fprintf(f, " %s\n", CB_COLLECTOR_ALLOC_EVENT);
	return fclose(f);
}

static char found[PATH_MAX];

static int find_demand(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t n = strlen(path);
	const char *tail = "-demand-thp-demand.jsonl";

	if (type == FTW_F && n > strlen(tail) && !strcmp(path + n - strlen(tail), tail)) {
		snprintf(found, sizeof(found), "%s", path);
		return 1;
	}
	return 0;
}

/* one cell in a guest: its thp-demand summary into @s */
static int run_guest(const struct opts *o, enum mode m, int round, struct sample *s)
{
	char *cfg = cb_xasprintf("%s/%d.ini", o->dir, m), *out = cb_xasprintf("%s/r%d-m%d", o->dir,
									     round, m);
	char *errpath = cb_xasprintf("%s/stderr", o->dir), *text = NULL;
	char *argv[] = { CB_BUILD_ROOT "/compactbench", "run", cfg, "-o", out, NULL };
	static char buf[1 << 16];
	int rc = write_guest_cfg(o, m, cfg) ? -1 : run_capture(argv, buf, sizeof(buf), errpath);

	found[0] = '\0';
	if (rc == 0 && nftw(out, find_demand, 16, FTW_PHYS) == 1)
		text = cb_read_file(found, NULL);
	if (rc != 0 || !text) {
		char *why = cb_read_file(errpath, NULL);

		fprintf(stderr, "%sbench-observer: guest %s run (%s) exited %d%s\n", why ? why : "",
			guest_mode_name[m], out, rc, rc ? "" : ", no thp-demand output in it");
		free(why);
		rc = -1;
	} else if (parse_summary(text, false, s) < 0) {
		fprintf(stderr, "bench-observer: %s: no summary line with a rate\n", found);
		rc = -1;
	}
	free(text);
	free(cfg);
	free(errpath);
	if (!rc)
		cb_rm_rf(out); /* its trace is up to hundreds of MiB */
	free(out);
	return rc;
}

static int run_one(const struct opts *o, enum mode m, struct sample *s)
{
	static char out[1 << 20];
	char *argv[MAX_ARGS], *keep[8], *errpath = cb_xasprintf("%s/stderr", o->dir), *text;
	int rc;

	build_argv(o, m, argv, keep);
	rc = run_capture(argv, out, sizeof(out), errpath);
	for (int i = 0; keep[i]; i++)
		free(keep[i]);
	if (rc != 0) {
		text = cb_read_file(errpath, NULL);
		fprintf(stderr, "%sbench-observer: %s run exited %d\n", text ? text : "",
			mode_name[m], rc);
		free(text);
	}
	free(errpath);
	if (rc != 0)
		return -1;
	if (parse_summary(out, o->kernel, s) < 0) {
		fprintf(stderr, "bench-observer: %s run: no summary line with a rate\n", mode_name[m]);
		return -1;
	}
	return 0;
}

static const char *const fig_name[NR_FIGURES] = { "rate", "fault p50", "fault p99" };

/* one row: figure @f of mode @num over mode @den, paired by round, median and its 95% CI */
static void ratio_row(const struct opts *o, struct sample (*s)[NR_MODES], enum mode num,
		      enum mode den, int f, const char *name)
{
	double r[MAX_ROUNDS];
	struct cb_ci ci;

	for (int i = 0; i < o->rounds; i++)
		r[i] = s[i][num].f[f] / s[i][den].f[f];
	if (cb_stats_bootstrap_median(r, (size_t)o->rounds, 0.95, 1, 10000, &ci) < 0)
		ci.lo = ci.hi = NAN;
	printf("%-40s %-10s %15.4f      [%.4f, %.4f]\n", name, fig_name[f],
	       cb_stats_median(r, (size_t)o->rounds), ci.lo, ci.hi);
}

static void report(const struct opts *o, struct sample (*s)[NR_MODES])
{
	double base[MAX_ROUNDS];
	char guest[80] = "";

	for (int i = 0; i < o->rounds; i++)
		base[i] = s[i][UNTRACED].f[F_RATE];
	if (o->recipe)
		snprintf(guest, sizeof(guest), ", guest of %d vCPU%s%s%s", o->cpus,
			 o->cpus > 1 ? "s" : "", o->icount ? ", icount clock" : "",
			 o->unfragmented ? ", unfragmented" : "");
	printf("\n%d rounds, workload %s%s; untraced %s median %.4g /s\n", o->rounds,
	       o->kernel ? "kernel-demand (bytes/s)" : "thp-demand (faults/s)", guest,
	       fig_name[F_RATE], cb_stats_median(base, (size_t)o->rounds));
	printf("%-40s %-10s %9s %21s\n", "mode", "figure", "traced/untraced", "95% CI");
	for (int m = DEFAULT_SET; m < NR_MODES; m++) {
		if (!name_of(o, (enum mode)m))
			continue;
		for (int f = 0; f < NR_FIGURES; f++)
			if (!isnan(s[0][UNTRACED].f[f]))
				ratio_row(o, s, (enum mode)m, UNTRACED, f, name_of(o, (enum mode)m));
	}
	/* -g: the probes' share, then mm_page_alloc's, each from two modes that differ in it */
	for (int f = 0; o->recipe && f < NR_FIGURES; f++)
		ratio_row(o, s, DEFAULT_SET, EXTRA_SET, f, "probes: with / without (default events)");
	for (int f = 0; o->recipe && f < NR_FIGURES; f++)
		ratio_row(o, s, ALLOC_SET, EXTRA_SET, f, "mm_page_alloc: with / without (no probes)");
	printf("(rate: < 1 is a slowdown; latency: > 1 is slower)\n");
}

static void usage(FILE *f)
{
	fprintf(f, "usage: bench-observer [-n ROUNDS] [-w thp|kernel] [-s SIZE] [-d DURATION] "
		   "[-g RECIPE [-c CPUS] [-i] [-u]]\n"
		   "  -n ROUNDS    rounds of the four modes (untraced, default, default + "
		   "mm_page_alloc filtered and of every order), "
		   "rotating order (default 10, at most %d)\n"
		   "  -w WORKLOAD  thp: thp-demand --size SIZE --release (default); kernel: "
		   "kernel-demand --duration DURATION\n"
		   "  -s SIZE      thp-demand's --size (default 1G)\n"
		   "  -d DURATION  kernel-demand's --duration (default 3s)\n"
		   "  -g RECIPE    in a QEMU guest of this kernel recipe: a fragmented THP cell "
		   "with the\n"
		   "               default events and probes, without the probes, and without "
		   "them but with\n"
		   "               mm_page_alloc, against one rare event and no probes "
		   "(\"untraced\"; see the\n"
		   "               source's header)\n"
		   "  -c CPUS      the guest's vCPUs (default 2, as configs/*.ini; at most the "
		   "host's)\n"
		   "  -i           the guest's clock counts instructions (clock = icount; needs "
		   "-c 1)\n"
		   "  -u           no fragmentation in the guest: thp-demand 0.6 of its memory "
		   "alone\n",
		MAX_ROUNDS);
}

int main(int argc, char **argv)
{
	struct opts o = { .rounds = 10, .size = "1G", .duration = "3s",
			  .cpus = 2, .dir = "/tmp/bench-observer.XXXXXX" };
	struct sample (*s)[NR_MODES];
	static char recipe[PATH_MAX];
	int c, rc = 0;

	while ((c = getopt(argc, argv, "n:w:s:d:g:c:iuh")) != -1) {
		switch (c) {
		case 'n':
			o.rounds = atoi(optarg);
			break;
		case 'w':
			o.kernel = !strcmp(optarg, "kernel");
			if (!o.kernel && strcmp(optarg, "thp")) {
				fprintf(stderr, "bench-observer: -w takes thp or kernel, not %s\n",
					optarg);
				return 2;
			}
			break;
		case 's':
			o.size = optarg;
			break;
		case 'd':
			o.duration = optarg;
			break;
		case 'g':
			/* the cell's config is in a temporary directory: no relative path */
			o.recipe = realpath(optarg, recipe);
			if (!o.recipe) {
				fprintf(stderr, "bench-observer: -g %s: %s\n", optarg, strerror(errno));
				return 2;
			}
			break;
		case 'c':
			o.cpus = atoi(optarg);
			if (o.cpus < 1 || o.cpus > sysconf(_SC_NPROCESSORS_ONLN)) {
				fprintf(stderr, "bench-observer: -c takes 1 to %ld vCPUs, not %s\n",
					sysconf(_SC_NPROCESSORS_ONLN), optarg);
				return 2;
			}
			break;
		case 'i':
			o.icount = true;
			break;
		case 'u':
			o.unfragmented = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || o.rounds < 2 || o.rounds > MAX_ROUNDS) {
		usage(stderr);
		return 2;
	}
	if ((o.icount || o.unfragmented) && !o.recipe) {
		fprintf(stderr, "bench-observer: -i and -u are for a guest (-g RECIPE)\n");
		return 2;
	}
	if (o.icount && o.cpus != 1) {
		fprintf(stderr, "bench-observer: -i needs -c 1 (QEMU 7.2 hangs at the second "
			"vCPU's bring-up when it counts instructions)\n");
		return 2;
	}
	for (c = 0; cb_collector_default_events[c]; c++) {
		if (strncmp(cb_collector_default_events[c], "kmem:mm_page_alloc", 18) ||
		    cb_collector_default_events[c][18] == '_')
			continue;
		/* the "+ mm_page_alloc" modes would ask for it twice */
		fprintf(stderr, "bench-observer: the collector's default events hold \"%s\" again: "
			"the modes that add it need a rework\n", cb_collector_default_events[c]);
		return 1;
	}
	if (!mkdtemp(o.dir)) {
		fprintf(stderr, "bench-observer: %s: %s\n", o.dir, strerror(errno));
		return 1;
	}
	s = cb_xcalloc((size_t)o.rounds, sizeof(*s));
	for (int i = 0; i < o.rounds && !rc; i++) {
		for (int k = 0; k < NR_MODES && !rc; k++) {
			enum mode m = (enum mode)((i + k) % NR_MODES);

			if (o.recipe && o.kernel) {
				fprintf(stderr, "bench-observer: -g measures THP faults only\n");
				rc = 2;
			} else if (o.recipe && name_of(&o, m)) {
				rc = run_guest(&o, m, i, &s[i][m]);
			} else if (!o.recipe) {
				rc = run_one(&o, m, &s[i][m]);
			}
		}
		if (rc)
			break;
		if (o.recipe) {
			fprintf(stderr, "round %d/%d (guest): rate one event %.4g, default + probes "
				"%.4g, default no probes %.4g, + mm_page_alloc %.4g\n", i + 1,
				o.rounds, s[i][UNTRACED].f[F_RATE], s[i][DEFAULT_SET].f[F_RATE],
				s[i][EXTRA_SET].f[F_RATE], s[i][ALLOC_SET].f[F_RATE]);
			continue;
		}
		fprintf(stderr, "round %d/%d: rate untraced %.4g, default %.4g, +alloc %.4g, "
			"+alloc all orders %.4g\n", i + 1, o.rounds, s[i][UNTRACED].f[F_RATE],
			s[i][DEFAULT_SET].f[F_RATE], s[i][ALLOC_SET].f[F_RATE],
			s[i][EXTRA_SET].f[F_RATE]);
	}
	if (!rc)
		report(&o, s);
	free(s);
	cb_rm_rf(o.dir);
	return rc ? 1 : 0;
}
