// SPDX-License-Identifier: GPL-2.0-only
/*
 * boot.c - bench/boot: time from QEMU's start to the agent's start in the guest (the
 * "cb-init: agent start" line /init prints just before it runs `compactbench agent`), with
 * the kernel and the initramfs cached, under TCG. Target: <= 10 s.
 *
 *   bench-boot [RUNS]      (default 3; root; builds the baseline kernel first if needed)
 *
 * Each run is `compactbench run` of a one-cell matrix whose workload idles 1 s; the figure
 * is the qemu.agent_start_s the qemu target records in meta.json. Prints one JSON line
 * per run and a summary line.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

static int run_once(const char *cb, const char *cfg, const char *out)
{
	char *argv[] = { (char *)cb, "run", (char *)cfg, "-o", (char *)out, NULL };
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		/* the run's own report is not what is measured */
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(127);
		execv(cb, argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static double agent_start(const char *out)
{
	char path[1200];
	struct json_object *meta, *q, *v;
	double s = -1;

	snprintf(path, sizeof(path), "%s/k61.none.idle.r1/meta.json", out);
	meta = json_object_from_file(path);
	if (meta && json_object_object_get_ex(meta, "qemu", &q) &&
	    json_object_object_get_ex(q, "agent_start_s", &v))
		s = json_object_get_double(v);
	json_object_put(meta);
	return s;
}

int main(int argc, char **argv)
{
	const char *cb = getenv("COMPACTBENCH"), *src = getenv("SOURCE_ROOT");
	char dir[] = "/tmp/cb-bench-boot-XXXXXX", cfg[1100], out[1100], text[2048];
	int runs = argc > 1 ? atoi(argv[1]) : 3, ok = 0;
	double sum = 0, max = 0;

	if (!cb || !src || runs < 1 || !mkdtemp(dir)) {
		fprintf(stderr, "usage: COMPACTBENCH=build/compactbench SOURCE_ROOT=. bench-boot [RUNS]\n");
		return 2;
	}
	setenv("COMPACTBENCH_QEMU_ACCEL", "tcg", 1);
	snprintf(cfg, sizeof(cfg), "%s/boot.ini", dir);
	snprintf(text, sizeof(text), "[global]\nreps = 1\ntarget = qemu\n\n[kernel k61]\n"
		 "recipe = %s/configs/kernels/linux-6.1.ini\nmemory = 1G\n\n[setting none]\n\n"
		 "[workload idle]\ndemand = idle\ndemand.duration = 1s\n", src);
	if (cb_write_file_atomic(cfg, text, strlen(text)) < 0)
		return 2;
	for (int i = 0; i < runs; i++) {
		double s;

		snprintf(out, sizeof(out), "%s/run%d", dir, i);
		if (run_once(cb, cfg, out) != 0 || (s = agent_start(out)) < 0) {
			printf("{\"run\":%d,\"error\":\"the run failed; see %s\"}\n", i, out);
			continue;
		}
		printf("{\"run\":%d,\"accel\":\"tcg\",\"agent_start_s\":%.2f}\n", i, s);
		fflush(stdout);
		sum += s;
		max = s > max ? s : max;
		ok++;
	}
	if (ok)
		printf("{\"runs\":%d,\"mean_s\":%.2f,\"max_s\":%.2f,\"target_s\":10,\"pass\":%s}\n", ok,
		       sum / ok, max, max <= 10 ? "true" : "false");
	cb_rm_rf(dir);
	return ok == runs ? 0 : 1;
}
