// SPDX-License-Identifier: GPL-2.0-only
/*
 * thp-demand - THP/mTHP fault demand with the application's own timing (phase: demand).
 *
 * Fault MADV_HUGEPAGE regions one by one, time each region's first touch, tell whether the
 * kernel gave a huge page or fell back to base pages, and report the success rate and the
 * latency distribution. Regions stay mapped until the end (unless --release), so the
 * memory they take makes later faults harder. With --waves the demand recurs: --size in
 * each wave, released when the wave ends (waves.h). `thp-demand --help` says more.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"
#include "waves.h"
#include "wl_args.h"
#include "wl_json.h"
#include "wl_mm.h"
#include "wl_signal.h"
#include "wl_stats.h"

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"
#define MAX_SHARE_OF_AVAILABLE 0.95 /* no swap here: more than this invites the OOM killer */
#define PROGRESS_BYTES (1ULL << 30)
#define MAX_MEASURED (1ULL << 24) /* regions timed over all waves: 9 bytes of record each */

enum method { METHOD_PAGEMAP, METHOD_SMAPS };
static const char *const method_names[] = { "pagemap+kpageflags", "smaps_rollup" };

/* system-wide counters, reported as deltas over the run (other processes count too) */
static const char *const vm_keys[] = {
	"thp_fault_alloc", "thp_fault_fallback", "thp_fault_fallback_charge",
	"compact_stall", "compact_fail", "compact_success", NULL,
};
#define NVM (CB_ARRAY_SIZE(vm_keys) - 1)

struct demand {
	/* what was asked, resolved */
	uint64_t size, region, nregions;
	struct wl_mem win;	/* the window, MemAvailable at the start */
	bool clamped;		/* --size was lowered to fit */
	size_t page;
	double rate, limit_s;
	bool release;
	struct waves waves;	/* --waves: recurring demand; count 0: one burst */
	uint64_t ntimed;	/* regions the latency records have room for */
	char mthp[32];	/* "64kB" with --mthp-size, "" without */
	char mthp_enabled[32], thp_enabled[32], thp_defrag[32];
	struct json_object *larger_enabled; /* mTHP sizes above ours that may take a fault */
	enum method method;
	/* state */
	struct wl_pagemap pm;
	char *map, *base;
	size_t map_len;
	uint64_t *lat;	/* first-touch ns of each measured region */
	bool *huge;	/* whether that region got a huge page */
	/* what happened */
	uint64_t measured, nhuge, prefaulted, faulted_bytes;
	const char *stopped; /* "done", "duration" or "signal" */
	long long vm_before[NVM], vm_after[NVM];
	char error[256];
};

static bool power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* the region size from --mthp-size: it must be a size this kernel has */
static int resolve_mthp(struct demand *d, const struct wl_args *a, uint64_t total)
{
	char path[512];

	wl_arg_size(a, "mthp-size", total, &d->region);
	snprintf(d->mthp, sizeof(d->mthp), "%llukB", (unsigned long long)(d->region >> 10));
	snprintf(path, sizeof(path), THP_DIR "/hugepages-%s/enabled", d->mthp);
	if (cb_read_choice(path, d->mthp_enabled, sizeof(d->mthp_enabled)) < 0)
		return wl_args_error(a, "mthp-size", "this kernel has no mTHP size %s (%s: %s)",
				     d->mthp, path, strerror(errno));
	if (!strcmp(d->mthp_enabled, "never"))
		fprintf(stderr, "thp-demand: %s is \"never\": no fault will get a %s folio\n",
			path, d->mthp);
	if (wl_arg_given(a, "region")) {
		uint64_t r;

		wl_arg_size(a, "region", total, &r);
		if (r != d->region)
			return wl_args_error(a, "region", "differs from --mthp-size; give one");
	}
	return WL_ARGS_OK;
}

/* mTHP sizes above @d->region that are on for MADV_HUGEPAGE memory: one fault may fill more */
static void find_larger_enabled(struct demand *d)
{
	struct dirent *de;
	DIR *dir = opendir(THP_DIR);
	unsigned long kb;

	d->larger_enabled = json_object_new_array();
	while (dir && (de = readdir(dir))) {
		char path[512], v[32];

		if (sscanf(de->d_name, "hugepages-%lukB", &kb) != 1 || (uint64_t)kb << 10 <= d->region)
			continue;
		snprintf(path, sizeof(path), THP_DIR "/%s/enabled", de->d_name);
		if (cb_read_choice(path, v, sizeof(v)) < 0)
			continue;
		if (!strcmp(v, "inherit"))
			snprintf(v, sizeof(v), "%s", d->thp_enabled);
		if (strcmp(v, "never"))
			json_object_array_add(d->larger_enabled, json_object_new_string(de->d_name));
	}
	if (dir)
		closedir(dir);
	if (d->mthp[0] && json_object_array_length(d->larger_enabled))
		fprintf(stderr, "thp-demand: larger THP sizes are on too (%s): one fault may map "
			"several regions; those count as \"prefaulted\"\n",
			json_object_to_json_string_ext(d->larger_enabled, JSON_C_TO_STRING_PLAIN));
}

/* PFNs are visible (root) and kpageflags is readable: the exact method */
static bool pfns_visible(const struct wl_pagemap *pm)
{
	volatile char probe = 1; /* on the stack: present */
	uint64_t pfn = 0;

	return pm->kpageflags_fd >= 0 && wl_pagemap_pfn(pm, (const void *)&probe, &pfn) == 1 &&
	       pfn && probe;
}

/* turn the parsed options into @d; returns WL_ARGS_OK, or an exit status (message printed) */
static int resolve(struct demand *d, const struct wl_args *a)
{
	uint64_t total, pmd = 0;
	char text[64];
	int ret;

	if (wl_mem_resolve("thp-demand", &d->win) < 0)
		return 1;
	if (cb_read_trimmed(THP_DIR "/hpage_pmd_size", text, sizeof(text)) < 0) {
		fprintf(stderr, "thp-demand: cannot read THP settings (no THP?): %s\n",
			strerror(errno));
		return 1;
	}
	pmd = strtoull(text, NULL, 10);
	total = d->win.window;
	d->page = (size_t)sysconf(_SC_PAGESIZE);
	cb_read_choice(THP_DIR "/enabled", d->thp_enabled, sizeof(d->thp_enabled));
	cb_read_choice(THP_DIR "/defrag", d->thp_defrag, sizeof(d->thp_defrag));
	if (wl_arg_given(a, "mthp-size")) {
		ret = resolve_mthp(d, a, total);
		if (ret != WL_ARGS_OK)
			return ret;
	} else if (wl_arg_given(a, "region")) {
		wl_arg_size(a, "region", total, &d->region);
	} else {
		d->region = pmd;
	}
	if (!power_of_two(d->region) || d->region < d->page)
		return wl_args_error(a, d->mthp[0] ? "mthp-size" : "region",
				     "%llu bytes is not a power of two of at least one page",
				     (unsigned long long)d->region);
	d->release = wl_arg_bool(a, "release");
	/*
	 * what is kept must fit in what is available now; with --release one region at a time;
	 * with --waves the memory of a wave comes when it starts, maybe from a fragmenter's pool
	 * that gives it back (frag-anon --churn-free-target), so only the window bounds it
	 */
	if (wl_arg_size_fit(a, "size", &d->win, d->release || wl_arg_long(a, "waves") ? 0 :
			    MAX_SHARE_OF_AVAILABLE, &d->size, &d->clamped))
		return WL_ARGS_ERROR;
	d->size -= d->size % d->region;
	if (!d->size)
		return wl_args_error(a, "size", "smaller than one region (%llu bytes)",
				     (unsigned long long)d->region);
	d->nregions = d->size / d->region;
	if (waves_resolve(&d->waves, a) < 0) {
		perror("thp-demand: waves");
		return 1;
	}
	d->ntimed = d->nregions * (d->waves.count ? d->waves.count : 1);
	if (d->ntimed / (d->waves.count ? d->waves.count : 1) != d->nregions ||
	    d->ntimed > MAX_MEASURED)
		return wl_args_error(a, "waves", "%llu regions in all: more than %llu",
				     (unsigned long long)d->ntimed, MAX_MEASURED);
	d->rate = wl_arg_real(a, "rate");
	d->limit_s = wl_arg_duration(a, "duration");
	if (wl_pagemap_open(&d->pm) < 0) {
		fprintf(stderr, "thp-demand: /proc/self/pagemap: %s\n", strerror(errno));
		return 1;
	}
	d->method = pfns_visible(&d->pm) ? METHOD_PAGEMAP : METHOD_SMAPS;
	if (d->method == METHOD_SMAPS && d->region != pmd)
		return wl_args_error(a, d->mthp[0] ? "mthp-size" : "region", "telling mTHP from "
				     "base pages needs PFNs in pagemap: run as root");
	find_larger_enabled(d);
	return WL_ARGS_OK;
}

static void emit_start(const struct demand *d)
{
	struct json_object *o = wl_json_new("phase");

	wl_json_str(o, "phase", "start");
	wl_json_str(o, "workload", "thp-demand");
	wl_json_int(o, "size_bytes", (int64_t)d->size);
	wl_json_int(o, "region_bytes", (int64_t)d->region);
	wl_json_int(o, "regions_planned", (int64_t)d->nregions);
	wl_json_real(o, "rate", d->rate);
	wl_json_real(o, "duration_limit_s", d->limit_s);
	wl_json_bool(o, "release", d->release);
	wl_json_int(o, "waves", (int64_t)d->waves.count);
	wl_json_str(o, "method", method_names[d->method]);
	wl_json_str(o, "thp_enabled", d->thp_enabled);
	wl_json_str(o, "thp_defrag", d->thp_defrag);
	wl_json_str(o, "mthp_size", d->mthp[0] ? d->mthp : NULL);
	wl_json_str(o, "mthp_enabled", d->mthp[0] ? d->mthp_enabled : NULL);
	json_object_object_add(o, "larger_mthp_enabled", json_object_get(d->larger_enabled));
	wl_mem_json(o, &d->win, d->clamped);
	wl_json_int(o, "pid", getpid());
	wl_json_emit(o);
}

/* room for the latency records of every region of every wave */
static int alloc_records(struct demand *d)
{
	d->lat = calloc(d->ntimed, sizeof(*d->lat));
	d->huge = calloc(d->ntimed, sizeof(*d->huge));
	if (!d->lat || !d->huge) {
		snprintf(d->error, sizeof(d->error), "records of %llu regions: %s",
			 (unsigned long long)d->ntimed, strerror(errno));
		return -1;
	}
	return 0;
}

/* one aligned MADV_HUGEPAGE mapping for all regions (over-map by a region, trim the ends) */
static int map_arena(struct demand *d)
{
	uintptr_t start, aligned;

	d->map_len = d->size + d->region;
	d->map = mmap(NULL, d->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
		      MAP_NORESERVE, -1, 0);
	if (d->map == MAP_FAILED) {
		d->map = NULL;
		snprintf(d->error, sizeof(d->error), "mapping %llu regions: %s",
			 (unsigned long long)d->nregions, strerror(errno));
		return -1;
	}
	start = (uintptr_t)d->map;
	aligned = (start + d->region - 1) & ~(uintptr_t)(d->region - 1);
	if (aligned > start)
		munmap(d->map, aligned - start);
	if (aligned + d->size < start + d->map_len)
		munmap((char *)(aligned + d->size), start + d->map_len - aligned - d->size);
	d->map = d->base = (char *)aligned;
	d->map_len = d->size;
	if (madvise(d->base, d->size, MADV_HUGEPAGE) < 0) {
		snprintf(d->error, sizeof(d->error), "madvise(MADV_HUGEPAGE): %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* AnonHugePages of this process in kB (the fallback method), -1 if unreadable */
static long long anon_huge_kb(void)
{
	char *text = cb_read_file("/proc/self/smaps_rollup", NULL), *p;
	long long kb = -1;

	p = text ? strstr(text, "\nAnonHugePages:") : NULL;
	if (p)
		kb = strtoll(p + strlen("\nAnonHugePages:"), NULL, 10);
	free(text);
	return kb;
}

/*
 * fault region @i: time the first touch, classify it, then touch every other page so a
 * base-page fallback takes as much memory as a huge page. Returns 0 or -1 (d->error set).
 */
static int fault_region(struct demand *d, uint64_t i)
{
	volatile char *r = (volatile char *)d->base + i * d->region;
	uint64_t pfn, t0, t1, off;
	long long before = 0;
	int huge;

	if (wl_pagemap_pfn(&d->pm, (const void *)r, &pfn) == 1) {
		d->prefaulted++; /* a larger folio of an earlier fault covers it: no fault */
	} else {
		if (d->method == METHOD_SMAPS)
			before = anon_huge_kb();
		t0 = cb_now_ns();
		r[0] = 1;
		t1 = cb_now_ns();
		if (d->method == METHOD_PAGEMAP)
			huge = wl_region_huge(&d->pm, (const void *)r, d->region);
		else
			huge = anon_huge_kb() - before >= (long long)(d->region >> 10);
		if (huge < 0) {
			snprintf(d->error, sizeof(d->error), "pagemap: %s", strerror(errno));
			return -1;
		}
		d->lat[d->measured] = t1 - t0;
		d->huge[d->measured] = huge;
		d->nhuge += huge;
		d->measured++;
	}
	for (off = d->page; off < d->region; off += d->page)
		r[off] = 1;
	d->faulted_bytes += d->region;
	if (d->release)
		madvise((void *)r, d->region, MADV_DONTNEED);
	return 0;
}

/*
 * fault the regions of the arena at the asked rate (from @t0) until done, @end or a signal;
 * sets d->stopped when it stops early. Returns 0, or -1 on an error (d->error set).
 */
static int fault_all(struct demand *d, uint64_t t0, uint64_t end, bool progress)
{
	uint64_t next_progress = d->faulted_bytes + PROGRESS_BYTES, i;

	for (i = 0; i < d->nregions; i++) {
		if (d->rate > 0) {
			uint64_t due = t0 + (uint64_t)((double)i * 1e9 / d->rate);

			wl_sleep_until(due < end ? due : end);
		}
		if (wl_stopping()) {
			d->stopped = "signal";
			return 0;
		}
		if (cb_now_ns() >= end) {
			d->stopped = "duration";
			return 0;
		}
		if (fault_region(d, i) < 0)
			return -1;
		if (progress && d->faulted_bytes >= next_progress) {
			fprintf(stderr, "thp-demand: faulted %.1f of %.1f GiB, %llu huge of %llu\n",
				(double)d->faulted_bytes / (1ULL << 30),
				(double)d->size / (1ULL << 30), (unsigned long long)d->nhuge,
				(unsigned long long)d->measured);
			next_progress += PROGRESS_BYTES;
		}
	}
	return 0;
}

/* one burst: every region at the asked rate until done, --duration or a signal */
static void run(struct demand *d)
{
	uint64_t t0 = cb_now_ns();

	d->stopped = "done";
	if (map_arena(d) == 0)
		fault_all(d, t0, t0 + (uint64_t)(d->limit_s * 1e9), true);
}

/* wave @r->index: map, fault at the rate, hold, release, print its line; non-zero: stop */
static int run_wave(void *arg, struct wave_rec *r, uint64_t end)
{
	struct demand *d = arg;
	uint64_t m0 = d->measured, h0 = d->nhuge, p0 = d->prefaulted, b0 = d->faulted_bytes;
	uint64_t hold_end;
	struct json_object *o;
	int ret;

	d->stopped = "done";
	r->start_ns = cb_now_ns();
	ret = map_arena(d);
	if (ret == 0)
		ret = fault_all(d, r->start_ns, end, false);
	if (ret == 0 && !strcmp(d->stopped, "done") && d->waves.hold_s > 0) {
		hold_end = cb_now_ns() + (uint64_t)(d->waves.hold_s * 1e9);
		if (!wl_sleep_until(hold_end < end ? hold_end : end))
			d->stopped = "signal";
	}
	if (d->map)
		munmap(d->map, d->map_len);
	d->map = NULL;
	r->end_ns = cb_now_ns();
	o = wave_line(r);
	wl_json_int(o, "faults", (int64_t)(d->measured - m0));
	wl_json_int(o, "thp", (int64_t)(d->nhuge - h0));
	wave_latency_add(o, "fault_ns", d->lat + m0, d->measured - m0);
	wl_json_int(o, "prefaulted", (int64_t)(d->prefaulted - p0));
	wl_json_int(o, "faulted_bytes", (int64_t)(d->faulted_bytes - b0));
	wl_json_int(o, "late_ns", (int64_t)(r->start_ns - r->arrival_ns));
	wl_json_bool(o, "complete", ret == 0 && !strcmp(d->stopped, "done"));
	wl_json_emit(o);
	return ret < 0 || strcmp(d->stopped, "done");
}

/* recurring demand: --waves waves of --size each, arriving as --arrival says */
static void run_waves(struct demand *d)
{
	const char *why = waves_run(&d->waves, d->limit_s, "thp", d->size, run_wave, d);

	if (why)
		d->stopped = why;
}

/* log2 histogram of first-touch latency, huge and base counted apart */
static void emit_histogram(const struct demand *d)
{
	uint64_t counts[WL_LOG2_BUCKETS][2] = { { 0 } };
	struct json_object *o = wl_json_new("histogram"), *arr = json_object_new_array();
	unsigned int b;
	uint64_t i;

	for (i = 0; i < d->measured; i++)
		counts[wl_log2_bucket(d->lat[i])][d->huge[i]]++;
	for (b = 0; b < WL_LOG2_BUCKETS; b++) {
		struct json_object *e;

		if (!counts[b][0] && !counts[b][1])
			continue;
		e = json_object_new_object();
		wl_json_int(e, "ge", b ? (int64_t)(1ULL << b) : 0);
		wl_json_int(e, "lt", b < 63 ? (int64_t)(1ULL << (b + 1)) : INT64_MAX);
		wl_json_int(e, "huge", (int64_t)counts[b][1]);
		wl_json_int(e, "base", (int64_t)counts[b][0]);
		json_object_array_add(arr, e);
	}
	wl_json_str(o, "unit", "ns");
	wl_json_str(o, "buckets_are", "log2: ge <= first-touch ns < lt");
	json_object_object_add(o, "buckets", arr);
	wl_json_emit(o);
}

/* latency summaries of all regions, the huge ones and the base ones, into @o */
static void add_latencies(struct json_object *o, const struct demand *d)
{
	uint64_t *split = malloc((d->measured + 1) * sizeof(*split));
	uint64_t nh = 0, nb = 0, i;
	struct wl_latency all, huge, base;

	if (!split)
		return;
	/* huge latencies from the front, base ones from the back */
	for (i = 0; i < d->measured; i++) {
		if (d->huge[i])
			split[nh++] = d->lat[i];
		else
			split[d->measured - ++nb] = d->lat[i];
	}
	wl_latency_summarize(split, nh, &huge);
	wl_latency_summarize(split + nh, nb, &base);
	wl_latency_summarize(d->lat, d->measured, &all); /* last: it sorts d->lat */
	json_object_object_add(o, "fault_ns", wl_latency_json(&all));
	json_object_object_add(o, "fault_ns_huge", wl_latency_json(&huge));
	json_object_object_add(o, "fault_ns_base", wl_latency_json(&base));
	free(split);
}

/* whether a signal stopped the faulting (one that comes after it does not count) */
static bool interrupted(const struct demand *d)
{
	return d->stopped && !strcmp(d->stopped, "signal");
}

static void emit_summary(struct demand *d, double total_s)
{
	struct json_object *o = wl_json_new("summary"), *vm = json_object_new_object();
	size_t k;

	wl_json_str(o, "workload", "thp-demand");
	wl_json_int(o, "regions", (int64_t)d->measured);
	wl_json_int(o, "huge", (int64_t)d->nhuge);
	wl_json_int(o, "base", (int64_t)(d->measured - d->nhuge));
	wl_json_int(o, "prefaulted", (int64_t)d->prefaulted);
	wl_json_real(o, "thp_success_rate",
		     d->measured ? (double)d->nhuge / (double)d->measured : NAN);
	add_latencies(o, d);
	wl_json_int(o, "region_bytes", (int64_t)d->region);
	wl_json_int(o, "faulted_bytes", (int64_t)d->faulted_bytes);
	wl_json_str(o, "method", method_names[d->method]);
	for (k = 0; k < NVM; k++)
		if (d->vm_before[k] >= 0 && d->vm_after[k] >= 0)
			wl_json_int(vm, vm_keys[k], d->vm_after[k] - d->vm_before[k]);
	json_object_object_add(o, "vmstat_delta_system", vm);
	wl_json_str(o, "stopped", d->stopped);
	wl_json_bool(o, "interrupted", interrupted(d));
	wl_json_str(o, "signal", wl_signal_name());
	wl_json_str(o, "error", d->error[0] ? d->error : NULL);
	wl_json_real(o, "duration_s", total_s);
	wl_json_emit(o);
}

static void release_all(struct demand *d)
{
	if (d->map)
		munmap(d->map, d->map_len);
	d->map = NULL;
	wl_pagemap_close(&d->pm);
	json_object_put(d->larger_enabled);
	d->larger_enabled = NULL;
	waves_free(&d->waves);
}

int main(int argc, char **argv)
{
	struct demand d = { .pm = { .pagemap_fd = -1, .kpageflags_fd = -1 } };
	struct wl_args a;
	uint64_t t0 = cb_now_ns();
	int ret;

	wl_json_init();
	ret = wl_args_parse(&a, &wl_thp_demand, argc, argv);
	if (ret == WL_ARGS_OK)
		ret = resolve(&d, &a);
	if (ret != WL_ARGS_OK) {
		release_all(&d);
		return ret == WL_ARGS_HELP ? 0 : ret;
	}
	if (wl_signal_install() < 0) {
		perror("thp-demand: sigaction");
		return 1;
	}
	/* no swap: if memory runs out, a workload is the process to lose */
	cb_write_string("/proc/self/oom_score_adj", "1000");
	emit_start(&d);
	wl_vmstat_read(NULL, vm_keys, d.vm_before);
	if (alloc_records(&d) == 0) {
		if (d.waves.count)
			run_waves(&d);
		else
			run(&d);
	}
	wl_vmstat_read(NULL, vm_keys, d.vm_after);
	if (d.measured)
		emit_histogram(&d);
	release_all(&d); /* before the summary: all memory is back when it is printed */
	emit_summary(&d, (double)(cb_now_ns() - t0) / 1e9);
	free(d.lat);
	free(d.huge);
	if (d.error[0]) {
		fprintf(stderr, "thp-demand: %s\n", d.error);
		return 1;
	}
	return interrupted(&d) ? wl_signal_exit_code() : 0;
}
