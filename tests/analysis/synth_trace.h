/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * synth_trace.h - the synthetic trace writer of the analysis tests: events with chosen
 * timestamps, pids and fields, written by the collector's writer (harness/collector/tracedat.h)
 * against the 6.18 event formats in tests/fixtures/analysis-tracing-6.18; put() for the
 * files of a cell around it and jget() to read its summary.json back. Included by
 * test_synth_trace.c and test_waves.c (each test is its own program).
 */
#ifndef CB_TEST_SYNTH_TRACE_H
#define CB_TEST_SYNTH_TRACE_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <stdlib.h>

#include "tracedat.h"
#include "util.h"

#define PAGE 4096
#define NPAGES 8

/* event ids and layouts of tests/fixtures/analysis-tracing-6.18 (the formats' offsets) */
enum { ID_TRY = 668, ID_BEGIN = 670, ID_END = 669, ID_DEFERRED = 665, ID_SUITABLE = 666,
       ID_KC_WAKE = 660, ID_KC_SLEEP = 662, ID_ISO_M = 674, ID_ISO_F = 673, ID_MIGRATE = 671,
       ID_ALLOC = 653, ID_EXTFRAG = 650, ID_RECLAIM = 637 };

/* gfp_t bits of 6.18 (the trace's own __print_flags table says the same) */
#define G_MOVABLE 0x08UL
#define G_IO 0x40UL
#define G_FS 0x80UL
#define G_RECLAIM 0xc00UL
#define G_NOWARN 0x2000UL
#define G_COMP 0x40000UL
#define G_NOMEMALLOC 0x80000UL
#define G_HARDWALL 0x100000UL
#define GFP_KERNEL (G_RECLAIM | G_IO | G_FS)
#define GFP_TRANSHUGE (GFP_KERNEL | G_HARDWALL | G_MOVABLE | G_COMP | G_NOMEMALLOC | G_NOWARN)

static const char *const events[] = {
	"compaction:mm_compaction_try_to_compact_pages", "compaction:mm_compaction_begin",
	"compaction:mm_compaction_end", "compaction:mm_compaction_deferred",
	"compaction:mm_compaction_suitable", "compaction:mm_compaction_kcompactd_wake",
	"compaction:mm_compaction_kcompactd_sleep", "compaction:mm_compaction_wakeup_kcompactd",
	"compaction:mm_compaction_isolate_migratepages",
	"compaction:mm_compaction_isolate_freepages",
	"compaction:mm_compaction_fast_isolate_freepages", "compaction:mm_compaction_migratepages",
	"compaction:mm_compaction_finished", "kmem:mm_page_alloc", "kmem:mm_page_alloc_extfrag",
	"vmscan:mm_vmscan_direct_reclaim_begin", "vmscan:mm_vmscan_direct_reclaim_end", NULL,
};

struct synth {
	unsigned char data[2][NPAGES * PAGE];
	struct cb_tracedat_page pg[2];
	int page[2];
	int events;
};

static inline void syn_init(struct synth *s, uint64_t t0)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(cb_tracedat_page_init(&s->pg[0], s->data[0], PAGE, t0), 0);
	assert_int_equal(cb_tracedat_page_init(&s->pg[1], s->data[1], PAGE, t0), 0);
}

/* one event: the common header (type, flags, preempt, pid) and then @len bytes of fields */
static inline void add(struct synth *s, int cpu, uint64_t ts, int id, int pid, unsigned char *rec,
		size_t len)
{
	uint16_t type = id;

	memcpy(rec, &type, 2);
	rec[2] = rec[3] = 0;
	memcpy(rec + 4, &pid, 4);
	if (cb_tracedat_page_add(&s->pg[cpu], ts, rec, len) < 0) {
		assert_int_equal(errno, ENOSPC);
		s->page[cpu]++;
		assert_true(s->page[cpu] < NPAGES);
		assert_int_equal(cb_tracedat_page_init(&s->pg[cpu], s->data[cpu] + s->page[cpu] *
						       PAGE, PAGE, ts), 0);
		assert_int_equal(cb_tracedat_page_add(&s->pg[cpu], ts, rec, len), 0);
	}
	s->events++;
}

static inline void p32(unsigned char *r, int off, uint32_t v)
{
	memcpy(r + off, &v, 4);
}

static inline void p64(unsigned char *r, int off, uint64_t v)
{
	memcpy(r + off, &v, 8);
}

static inline void e_try(struct synth *s, int cpu, uint64_t ts, int pid, int order, uint64_t gfp)
{
	unsigned char r[28] = { 0 };

	p32(r, 8, order);
	p64(r, 16, gfp);
	p32(r, 24, 2);
	add(s, cpu, ts, ID_TRY, pid, r, sizeof(r));
}

static inline void e_begin(struct synth *s, int cpu, uint64_t ts, int pid)
{
	unsigned char r[44] = { 0 };

	p64(r, 8, 0x100000);
	p64(r, 32, 0x640000);
	r[40] = 1;
	add(s, cpu, ts, ID_BEGIN, pid, r, sizeof(r));
}

static inline void e_end(struct synth *s, int cpu, uint64_t ts, int pid, int status)
{
	unsigned char r[48] = { 0 };

	p32(r, 44, status);
	add(s, cpu, ts, ID_END, pid, r, sizeof(r));
}

static inline void e_small(struct synth *s, int cpu, uint64_t ts, int id, int pid, int order, int ret)
{
	unsigned char r[32] = { 0 };	/* deferred (32), suitable (24), kcompactd_* (20, 12) */

	p32(r, 16, order);
	p32(r, 20, ret);
	if (id == ID_KC_WAKE)
		p32(r, 12, order);
	add(s, cpu, ts, id, pid, r, id == ID_DEFERRED ? 32 : id == ID_SUITABLE ? 24 :
	    id == ID_KC_WAKE ? 20 : 12);
}

static inline void e_work(struct synth *s, int cpu, uint64_t ts, int id, int pid, uint64_t a,
		   uint64_t b)
{
	unsigned char r[40] = { 0 };

	if (id == ID_MIGRATE) {
		p64(r, 8, a);
		p64(r, 16, b);
		add(s, cpu, ts, id, pid, r, 24);
		return;
	}
	p64(r, 24, a);
	p64(r, 32, b);
	add(s, cpu, ts, id, pid, r, sizeof(r));
}

static inline void e_alloc(struct synth *s, int cpu, uint64_t ts, int pid, int order, bool ok)
{
	unsigned char r[40] = { 0 };

	p64(r, 8, ok ? 0x123400 : ~0ULL);
	p32(r, 16, order);
	p64(r, 24, GFP_TRANSHUGE);
	p32(r, 32, 1);
	add(s, cpu, ts, ID_ALLOC, pid, r, sizeof(r));
}

static inline void e_extfrag(struct synth *s, int cpu, uint64_t ts, int pid, int amt, int fmt,
		      int forder, int changed)
{
	unsigned char r[36] = { 0 };

	p32(r, 16, 0);
	p32(r, 20, forder);
	p32(r, 24, amt);
	p32(r, 28, fmt);
	p32(r, 32, changed);
	add(s, cpu, ts, ID_EXTFRAG, pid, r, sizeof(r));
}

static inline void e_reclaim(struct synth *s, int cpu, uint64_t ts, int pid)
{
	unsigned char r[24] = { 0 };

	add(s, cpu, ts, ID_RECLAIM, pid, r, sizeof(r));
}

#define T0 1000000000ULL

/*
 * @s's events as a trace file at @path: the formats of @evs from @fixture_dir's
 * analysis-tracing-6.18 tree, @cmdlines ("pid comm\n" lines) for the tasks; its event count
 */
static inline int syn_write(struct synth *s, const char *path, const char *fixture_dir,
			    const char *const *evs, const char *cmdlines)
{
	struct cb_tracedat_cpu cpus[2] = {
		{ .data = s->data[0], .size = (s->page[0] + 1) * PAGE },
		{ .data = s->data[1], .size = (s->page[1] + 1) * PAGE },
	};
	struct cb_tracedat_src src = {
		.events = evs, .nr_cpus = 2, .cpu = cpus, .trace_clock = "mono",
		.extra_cmdlines = cmdlines, .uname = "Linux synth 6.18 #1 SMP x86_64",
	};
	char dir[PATH_MAX], err[1024] = "";

	snprintf(dir, sizeof(dir), "%s/analysis-tracing-6.18", fixture_dir);
	src.tracing_dir = dir;
	if (cb_tracedat_write(path, &src, NULL, err, sizeof(err)) <= 0)
		fail_msg("%s: %s", path, err);
	return s->events;
}

/* @dir/@name holds @text (a cell's file), written atomically */
static inline void put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

/* the value at the dotted @key of the JSON file @path ([N] indexes an array), as JSON text */
static inline const char *jget(const char *path, const char *key)
{
	static char buf[2048];
	struct json_object *root = json_object_from_file(path), *o = root;
	char k[256], *part, *save = NULL;

	assert_non_null(root);
	snprintf(k, sizeof(k), "%s", key);
	for (part = strtok_r(k, ".", &save); part; part = strtok_r(NULL, ".", &save)) {
		if (part[0] == '[') {
			o = json_object_array_get_idx(o, atoi(part + 1));
			assert_non_null(o);
		} else {
			assert_true(json_object_object_get_ex(o, part, &o));
		}
	}
	snprintf(buf, sizeof(buf), "%s", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(root);
	return buf;
}

#endif
