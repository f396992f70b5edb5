// SPDX-License-Identifier: GPL-2.0-only
/*
 * idle - do nothing for --duration (phase: demand).
 *
 * With a fragmenter holding its state, what happens meanwhile is the kernel's own doing:
 * kcompactd, proactive compaction, khugepaged. The harness measures their CPU and energy;
 * this program only stays out of the way and reports the compaction counters it saw move.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "wl_args.h"
#include "wl_json.h"
#include "wl_mm.h"
#include "wl_signal.h"

/* the counters of background work (and of direct work, which should stay at 0) */
static const char *const vm_keys[] = {
	"compact_daemon_wake", "compact_daemon_migrate_scanned", "compact_daemon_free_scanned",
	"compact_migrate_scanned", "compact_free_scanned", "compact_isolated", "compact_stall",
	"compact_success", "compact_fail", "thp_collapse_alloc", NULL,
};

#define NR_KEYS (sizeof(vm_keys) / sizeof(vm_keys[0]) - 1)

static void emit_start(double duration_s)
{
	struct json_object *o = wl_json_new("phase");

	wl_json_str(o, "phase", "start");
	wl_json_str(o, "workload", "idle");
	wl_json_real(o, "duration_s", duration_s);
	wl_json_int(o, "pid", getpid());
	wl_json_emit(o);
}

static void emit_summary(const long long *before, const long long *after, bool have_vmstat,
			 double slept_s)
{
	struct json_object *o = wl_json_new("summary"), *delta = json_object_new_object();
	size_t i;

	wl_json_str(o, "workload", "idle");
	wl_json_real(o, "slept_s", slept_s);
	for (i = 0; i < NR_KEYS; i++) {
		if (!have_vmstat || before[i] < 0 || after[i] < 0)
			json_object_object_add(delta, vm_keys[i], NULL);
		else
			wl_json_int(delta, vm_keys[i], after[i] - before[i]);
	}
	json_object_object_add(o, "vmstat_delta", delta);
	wl_json_bool(o, "interrupted", wl_stopping());
	wl_json_str(o, "signal", wl_signal_name());
	wl_json_real(o, "duration_s", slept_s);
	wl_json_emit(o);
}

int main(int argc, char **argv)
{
	long long before[NR_KEYS], after[NR_KEYS];
	struct wl_args a;
	bool have_vmstat;
	double duration_s;
	uint64_t t0;
	int ret;

	wl_json_init();
	ret = wl_args_parse(&a, &wl_idle, argc, argv);
	if (ret != WL_ARGS_OK)
		return ret == WL_ARGS_HELP ? 0 : 2;
	if (wl_signal_install() < 0) {
		perror("idle: sigaction");
		return 1;
	}
	duration_s = wl_arg_duration(&a, "duration");
	emit_start(duration_s);
	if (wl_buddyinfo_emit("before") < 0)
		fprintf(stderr, "idle: cannot read /proc/buddyinfo: %s\n", strerror(errno));
	have_vmstat = wl_vmstat_read(NULL, vm_keys, before) == 0;
	t0 = cb_now_ns();
	wl_sleep_until(t0 + (uint64_t)(duration_s * 1e9));
	t0 = cb_now_ns() - t0;
	have_vmstat = have_vmstat && wl_vmstat_read(NULL, vm_keys, after) == 0;
	if (wl_buddyinfo_emit("after") < 0)
		fprintf(stderr, "idle: cannot read /proc/buddyinfo: %s\n", strerror(errno));
	emit_summary(before, after, have_vmstat, (double)t0 / 1e9);
	return wl_signal_exit_code();
}
