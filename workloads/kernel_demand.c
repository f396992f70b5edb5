// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-demand - make the kernel allocate pages of order 1-4 on our behalf (phase: demand).
 *
 * The paths (kd_sock.c, kd_pipe.c) are driven in turn, round after round, for --duration;
 * at the end each path reports what it did and which orders it expects, and a summary line
 * follows. With --waves the rounds come in waves (waves.h), each until --wave-bytes moved.
 * `kernel-demand --help` describes the options, the output and the exit status.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "waves.h"
#include "kd_paths.h"
#include "wl_args.h"
#include "wl_json.h"
#include "wl_mm.h"
#include "wl_res.h"
#include "wl_signal.h"

#define MAX_SHARE_OF_AVAILABLE 0.25 /* held in unmovable kernel memory: keep it modest */
#define MAX_WAVE_TIMES (1u << 20)   /* path rounds timed per wave, at most */

static const struct kd_path *const all_paths[] = {
	&kd_unix_stream, &kd_unix_dgram, &kd_tcp, &kd_cmsg, &kd_pipe_resize, &kd_unix_dgram_big,
	NULL,
};

#define NR_PATHS (sizeof(all_paths) / sizeof(all_paths[0]) - 1)

struct demand {
	uint64_t size;
	struct wl_mem win;	/* the window, MemAvailable at the start */
	bool clamped;		/* --size was lowered to fit */
	double rate, duration_s;
	struct kd_state st[NR_PATHS];
	int npaths;
	uint64_t rounds;
	struct waves waves;	/* --waves; count 0: one run */
	uint64_t wave_bytes;
	uint64_t *times;	/* ns of each path round of the current wave */
	size_t ntimes;
	const char *stopped;
	char error[256];
};

static const struct kd_path *find_path(const char *name, size_t len)
{
	size_t i;

	for (i = 0; all_paths[i]; i++)
		if (strlen(all_paths[i]->name) == len && !strncmp(all_paths[i]->name, name, len))
			return all_paths[i];
	return NULL;
}

/* the --paths list into d->st (budgets come later); WL_ARGS_ERROR names a bad entry */
static int parse_paths(struct demand *d, const struct wl_args *a)
{
	const char *p = wl_arg_str(a, "paths");
	int i;

	while (*p) {
		size_t len = strcspn(p, ",");
		const struct kd_path *path = find_path(p, len);

		if (!path)
			return wl_args_error(a, "paths", "unknown path '%.*s' (paths: unix-stream, "
					     "unix-dgram, tcp, cmsg, pipe-resize, unix-dgram-big)",
					     (int)len, p);
		for (i = 0; i < d->npaths; i++)
			if (d->st[i].path == path)
				return wl_args_error(a, "paths", "'%s' is named twice", path->name);
		kd_state_init(&d->st[d->npaths++], path, 0);
		p += len;
		if (*p == ',' && !*++p)
			return wl_args_error(a, "paths", "ends with a comma");
	}
	if (!d->npaths)
		return wl_args_error(a, "paths", "names no path");
	return WL_ARGS_OK;
}

/* turn the parsed options into @d; returns WL_ARGS_OK or WL_ARGS_ERROR (message printed) */
static int resolve(struct demand *d, const struct wl_args *a)
{
	int ret, i;

	if (wl_mem_resolve("kernel-demand", &d->win) < 0)
		return WL_ARGS_ERROR;
	if (wl_arg_size_fit(a, "size", &d->win, MAX_SHARE_OF_AVAILABLE, &d->size, &d->clamped))
		return WL_ARGS_ERROR;
	ret = parse_paths(d, a);
	if (ret != WL_ARGS_OK)
		return ret;
	for (i = 0; i < d->npaths; i++)
		d->st[i].budget = d->size / d->npaths;
	d->rate = wl_arg_real(a, "rate");
	d->duration_s = wl_arg_duration(a, "duration");
	if (wl_arg_size(a, "wave-bytes", d->win.window, &d->wave_bytes) < 0)
		return wl_args_error(a, "wave-bytes", "not a size");
	if (waves_resolve(&d->waves, a) < 0) {
		perror("kernel-demand: waves");
		return WL_ARGS_ERROR;
	}
	if (d->waves.count) {
		d->times = malloc(MAX_WAVE_TIMES * sizeof(*d->times));
		if (!d->times) {
			perror("kernel-demand");
			return WL_ARGS_ERROR;
		}
	}
	return WL_ARGS_OK;
}

static int setup(struct demand *d)
{
	int i;

	for (i = 0; i < d->npaths; i++) {
		struct kd_state *s = &d->st[i];

		if (s->path->setup(s) < 0) {
			snprintf(d->error, sizeof(d->error), "%s: setup: %s", s->path->name,
				 strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void emit_start(const struct demand *d)
{
	struct json_object *o = wl_json_new("phase"), *paths = json_object_new_array();
	int i;

	wl_json_str(o, "phase", "start");
	wl_json_str(o, "workload", "kernel-demand");
	for (i = 0; i < d->npaths; i++)
		json_object_array_add(paths, json_object_new_string(d->st[i].path->name));
	json_object_object_add(o, "paths", paths);
	wl_json_int(o, "size_bytes", (int64_t)d->size);
	wl_mem_json(o, &d->win, d->clamped);
	wl_json_real(o, "rate", d->rate);
	wl_json_real(o, "duration_s", d->duration_s);
	wl_json_bool(o, "cap_sys_resource", wl_is_privileged());
	wl_json_int(o, "pid", getpid());
	wl_json_emit(o);
}

/* the sum over the paths of the kd_stats counter at @off (ops, bytes, errors) */
static uint64_t total(const struct demand *d, size_t off)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < d->npaths; i++)
		sum += *(const uint64_t *)((const char *)&d->st[i].st + off);
	return sum;
}

static uint64_t moved(const struct demand *d)
{
	return total(d, offsetof(struct kd_stats, bytes));
}

/* one round: each path once, each timed into d->times while there is room; -1 on an error */
static int one_round(struct demand *d)
{
	int i;

	for (i = 0; i < d->npaths && !wl_stopping(); i++) {
		struct kd_state *s = &d->st[i];
		uint64_t t0 = cb_now_ns();

		if (s->path->round(s) < 0) {
			snprintf(d->error, sizeof(d->error), "%s: %s", s->path->name,
				 strerror(errno));
			d->stopped = "error";
			return -1;
		}
		if (d->times && d->ntimes < MAX_WAVE_TIMES)
			d->times[d->ntimes++] = cb_now_ns() - t0;
	}
	if (!wl_stopping())
		d->rounds++;
	return 0;
}

/*
 * rounds from @t0 until @end, a signal, an error or (@bytes_to nonzero) the paths' bytes
 * reaching @bytes_to; paced by --rate. Sets d->stopped.
 */
static void rounds(struct demand *d, uint64_t t0, uint64_t end, uint64_t bytes_to)
{
	uint64_t n = 0;

	d->stopped = "duration";
	while (cb_now_ns() < end) {
		if (one_round(d) < 0)
			return;
		if (wl_stopping())
			break;
		n++;
		if (bytes_to && moved(d) >= bytes_to) {
			d->stopped = "done";
			return;
		}
		if (d->rate > 0) {
			uint64_t next = t0 + (uint64_t)((double)n / d->rate * 1e9);

			if (!wl_sleep_until(next < end ? next : end))
				break;
		}
	}
	if (wl_stopping())
		d->stopped = "signal";
}

/* run the rounds until --duration, a signal or an error */
static void run(struct demand *d)
{
	uint64_t t0 = cb_now_ns();

	rounds(d, t0, t0 + (uint64_t)(d->duration_s * 1e9), 0);
}

/* wave @r->index: rounds until --wave-bytes moved, then its line; non-zero: stop */
static int run_wave(void *arg, struct wave_rec *r, uint64_t end)
{
	struct demand *d = arg;
	uint64_t ops0 = total(d, offsetof(struct kd_stats, ops));
	uint64_t err0 = total(d, offsetof(struct kd_stats, errors)), b0 = moved(d), r0 = d->rounds;
	struct json_object *o;

	d->ntimes = 0;
	r->start_ns = cb_now_ns();
	rounds(d, r->start_ns, end, b0 + d->wave_bytes);
	r->end_ns = cb_now_ns();
	o = wave_line(r);
	wl_json_int(o, "allocs", (int64_t)(total(d, offsetof(struct kd_stats, ops)) - ops0));
	wl_json_int(o, "failed", (int64_t)(total(d, offsetof(struct kd_stats, errors)) - err0));
	wl_json_int(o, "bytes", (int64_t)(moved(d) - b0));
	wl_json_int(o, "rounds", (int64_t)(d->rounds - r0));
	wave_latency_add(o, "fault_ns", d->times, d->ntimes);
	wl_json_int(o, "late_ns", (int64_t)(r->start_ns - r->arrival_ns));
	wl_json_bool(o, "complete", !strcmp(d->stopped, "done"));
	wl_json_emit(o);
	return strcmp(d->stopped, "done") != 0;
}

/* recurring demand: --waves waves of --wave-bytes each */
static void run_waves(struct demand *d)
{
	const char *why = waves_run(&d->waves, d->duration_s, "kernel", d->wave_bytes, run_wave, d);

	if (why)
		d->stopped = why;
}

static struct json_object *int_array(const struct kd_state *s, bool orders)
{
	struct json_object *arr = json_object_new_array();
	int i;

	if (orders) {
		for (i = 0; i <= KD_MAX_ORDER; i++)
			if (s->orders & (1u << i))
				json_object_array_add(arr, json_object_new_int(i));
	} else {
		for (i = 0; i < s->nsizes; i++)
			json_object_array_add(arr, json_object_new_int64((int64_t)s->sizes[i]));
	}
	return arr;
}

static void emit_path(const struct kd_state *s)
{
	struct json_object *o = wl_json_new("path");

	wl_json_str(o, "path", s->path->name);
	wl_json_int(o, "ops", (int64_t)s->st.ops);
	wl_json_int(o, "bytes", (int64_t)s->st.bytes);
	wl_json_int(o, "errors", (int64_t)s->st.errors);
	wl_json_str(o, "last_error", s->st.errors ? strerror(s->st.last_errno) : NULL);
	json_object_object_add(o, "orders", int_array(s, true));
	json_object_object_add(o, "sizes", int_array(s, false));
	wl_json_int(o, "budget_bytes", (int64_t)s->budget);
	wl_json_str(o, "mechanism", s->path->mechanism);
	wl_json_str(o, "note", s->note[0] ? s->note : NULL);
	wl_json_emit(o);
}

static void emit_summary(const struct demand *d, double total_s)
{
	struct json_object *o = wl_json_new("summary");

	wl_json_str(o, "workload", "kernel-demand");
	wl_json_int(o, "paths", d->npaths);
	wl_json_int(o, "rounds", (int64_t)d->rounds);
	wl_json_int(o, "ops", (int64_t)total(d, offsetof(struct kd_stats, ops)));
	wl_json_int(o, "bytes", (int64_t)moved(d));
	wl_json_int(o, "errors", (int64_t)total(d, offsetof(struct kd_stats, errors)));
	wl_json_int(o, "waves", (int64_t)d->waves.count);
	wl_json_str(o, "stopped", d->stopped);
	wl_json_bool(o, "interrupted", wl_stopping());
	wl_json_str(o, "signal", wl_signal_name());
	wl_json_str(o, "error", d->error[0] ? d->error : NULL);
	wl_json_real(o, "duration_s", total_s);
	wl_json_emit(o);
}

int main(int argc, char **argv)
{
	struct demand d = { 0 };
	struct wl_args a;
	uint64_t t0 = cb_now_ns();
	int ret, i;

	wl_json_init();
	ret = wl_args_parse(&a, &wl_kernel_demand, argc, argv);
	if (ret == WL_ARGS_OK)
		ret = resolve(&d, &a);
	if (ret != WL_ARGS_OK)
		return ret == WL_ARGS_HELP ? 0 : 2;
	if (wl_signal_install() < 0) {
		perror("kernel-demand: sigaction");
		return 1;
	}
	cb_write_string("/proc/self/oom_score_adj", "1000");
	emit_start(&d);
	if (setup(&d) < 0)
		d.stopped = "error";
	else if (d.waves.count)
		run_waves(&d);
	else
		run(&d);
	for (i = 0; i < d.npaths; i++) {
		kd_state_close(&d.st[i]);
		emit_path(&d.st[i]);
	}
	emit_summary(&d, (double)(cb_now_ns() - t0) / 1e9);
	waves_free(&d.waves);
	free(d.times);
	if (d.error[0]) {
		fprintf(stderr, "kernel-demand: %s\n", d.error);
		return 1;
	}
	return wl_signal_exit_code();
}
