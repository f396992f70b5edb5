// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_synth_probe.c - the probe method on a trace.dat written by the collector's writer
 * (harness/collector/tracedat.h) with chosen timestamps, against the 6.18 formats of
 * tests/fixtures/analysis-tracing-6.18 and the kprobe/kretprobe formats of the collector's
 * probes there (events/compactbench_4242, shaped as the kernel writes them): exactly the
 * stalls written come back (count, duration, direct compaction and reclaim time, pid, comm,
 * order, gfp), a call cut by the end of the trace is truncated, a call open at a loss is
 * not a stall, a call whose return never came is counted as such, and the tracepoint
 * method still runs beside it, with the comparison of the two in summary.json's sections.
 *
 *   test_synth_probe   (environment: FIXTURES)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "stalls.h"
#include "summary_json.h"
#include "tracedat.h"
#include "util.h"

/* the message of the last failing call under test */
static char cberr[1024];

#define PAGE 4096
#define NPAGES 4
#define T0 1000000000ULL

/* ids of the fixture formats */
enum { ID_TRY = 668, ID_BEGIN = 670, ID_END = 669, ID_ALLOC = 653, ID_RECLAIM = 637,
       ID_RECLAIM_END = 634, ID_SLOW = 2001, ID_SLOW_RET = 2002, ID_DC = 2003,
       ID_DC_RET = 2004 };

#define GFP_KERNEL 0xcc0U
#define GFP_TRANSHUGE 0x1c2ccaU

static const char *fixtures;
static char tmp[] = "/tmp/cb-test-probe-XXXXXX";
static const char *const events[] = {
	"compaction:mm_compaction_try_to_compact_pages", "compaction:mm_compaction_begin",
	"compaction:mm_compaction_end", "kmem:mm_page_alloc",
	"vmscan:mm_vmscan_direct_reclaim_begin", "vmscan:mm_vmscan_direct_reclaim_end",
	"compactbench_4242:alloc_slowpath", "compactbench_4242:alloc_slowpath_ret",
	"compactbench_4242:direct_compact", "compactbench_4242:direct_compact_ret", NULL,
};

struct synth {
	unsigned char data[2][NPAGES * PAGE];
	struct cb_tracedat_page pg[2];
	int page[2];
};

static struct synth syn;

static void add(int cpu, uint64_t ts, int id, int pid, unsigned char *rec, size_t len)
{
	uint16_t type = id;

	memcpy(rec, &type, 2);
	rec[2] = rec[3] = 0;
	memcpy(rec + 4, &pid, 4);
	if (cb_tracedat_page_add(&syn.pg[cpu], ts, rec, len) < 0) {
		assert_int_equal(errno, ENOSPC);
		syn.page[cpu]++;
		assert_true(syn.page[cpu] < NPAGES);
		assert_int_equal(cb_tracedat_page_init(&syn.pg[cpu], syn.data[cpu] +
						       syn.page[cpu] * PAGE, PAGE, ts), 0);
		assert_int_equal(cb_tracedat_page_add(&syn.pg[cpu], ts, rec, len), 0);
	}
}

static void put(unsigned char *r, int off, uint64_t v, int size)
{
	memcpy(r + off, &v, size);	/* little-endian host, as the fixture formats */
}

/* kprobe entry: common, __probe_ip, gfp (u32), order (u32) [, prio (s32)] */
static void e_entry(int cpu, uint64_t ts, int id, int pid, int order, unsigned int gfp)
{
	unsigned char r[28] = { 0 };

	put(r, 8, 0xffffffff81234560ULL, 8);
	put(r, 16, gfp, 4);
	put(r, 20, order, 4);
	if (id == ID_DC)
		put(r, 24, 2, 4);
	add(cpu, ts, id, pid, r, id == ID_DC ? 28 : 24);
}

/* kretprobe: common, __probe_func, __probe_ret_ip, ret (u64) */
static void e_ret(int cpu, uint64_t ts, int id, int pid, uint64_t ret)
{
	unsigned char r[32] = { 0 };

	put(r, 8, 0xffffffff81234560ULL, 8);
	put(r, 16, 0xffffffff81200000ULL, 8);
	put(r, 24, ret, 8);
	add(cpu, ts, id, pid, r, sizeof(r));
}

static void e_reclaim(int cpu, uint64_t ts, int pid, bool end)
{
	unsigned char r[24] = { 0 };

	add(cpu, ts, end ? ID_RECLAIM_END : ID_RECLAIM, pid, r, end ? 16 : 24);
}

static void e_tp(int cpu, uint64_t ts, int id, int pid, int order)
{
	unsigned char r[48] = { 0 };

	if (id == ID_TRY) {
		put(r, 8, order, 4);
		put(r, 16, GFP_TRANSHUGE, 8);
		put(r, 24, 2, 4);
		add(cpu, ts, id, pid, r, 28);
	} else if (id == ID_BEGIN) {
		r[40] = 1;
		add(cpu, ts, id, pid, r, 44);
	} else if (id == ID_END) {
		put(r, 44, 8, 4);	/* success */
		add(cpu, ts, id, pid, r, 48);
	} else {
		put(r, 8, 0x123400, 8);
		put(r, 16, order, 4);
		put(r, 24, GFP_TRANSHUGE, 8);
		put(r, 32, 1, 4);
		add(cpu, ts, id, pid, r, 40);
	}
}

/*
 * The scenario (ns after T0), each pid's events spread over both CPUs:
 *   200 papp   o9  slow 1000, dc 1100 .. 1400, ret 1600 (page)   -> 600, dc 300
 *              (tracepoints: try 1150, begin 1160, end 1390, alloc o9 1550 -> tp stall 400)
 *   201 papp2  o3  slow 2000, reclaim 2100 .. 2500, dc 2600 .. 2700, ret 3000 (NULL)
 *                                                              -> 1000, dc 100, reclaim 400
 *   202 papp3  o1  slow 3500, ret 3600                         -> a call, no stall
 *   203 papp4  o2  slow 4000, reclaim 4100 .. 4300, ret 4350   -> 350, reclaim 200
 *   199 early      ret 900 without entry                       -> unmatched
 *   204 papp5  o9  slow 5000, dc 5100 and the trace ends        -> truncated
 */
static void write_scenario(const char *path)
{
	struct cb_tracedat_cpu cpus[2] = { { .data = syn.data[0] }, { .data = syn.data[1] } };
	struct cb_tracedat_src src = {
		.events = events, .nr_cpus = 2, .cpu = cpus, .trace_clock = "mono",
		.extra_cmdlines = "200 papp\n201 papp2\n202 papp3\n203 papp4\n204 papp5\n",
		.uname = "Linux synth 6.18 #1 SMP x86_64",
	};
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/analysis-tracing-6.18", fixtures);
	src.tracing_dir = dir;
	memset(&syn, 0, sizeof(syn));
	assert_int_equal(cb_tracedat_page_init(&syn.pg[0], syn.data[0], PAGE, T0), 0);
	assert_int_equal(cb_tracedat_page_init(&syn.pg[1], syn.data[1], PAGE, T0), 0);
	e_ret(1, T0 + 900, ID_SLOW_RET, 199, 0);
	e_entry(0, T0 + 1000, ID_SLOW, 200, 9, GFP_TRANSHUGE);
	e_entry(1, T0 + 1100, ID_DC, 200, 9, GFP_TRANSHUGE);
	e_tp(1, T0 + 1150, ID_TRY, 200, 9);
	e_tp(0, T0 + 1160, ID_BEGIN, 200, 9);
	e_tp(0, T0 + 1390, ID_END, 200, 9);
	e_ret(0, T0 + 1400, ID_DC_RET, 200, 0);
	e_tp(1, T0 + 1550, ID_ALLOC, 200, 9);
	e_ret(1, T0 + 1600, ID_SLOW_RET, 200, 0xffffea0004000000ULL);
	e_entry(1, T0 + 2000, ID_SLOW, 201, 3, GFP_KERNEL);
	e_reclaim(0, T0 + 2100, 201, false);
	e_reclaim(1, T0 + 2500, 201, true);
	e_entry(0, T0 + 2600, ID_DC, 201, 3, GFP_KERNEL);
	e_ret(1, T0 + 2700, ID_DC_RET, 201, 0);
	e_ret(0, T0 + 3000, ID_SLOW_RET, 201, 0);
	e_entry(0, T0 + 3500, ID_SLOW, 202, 1, GFP_KERNEL);
	e_ret(1, T0 + 3600, ID_SLOW_RET, 202, 0xffffea0004000040ULL);
	e_entry(1, T0 + 4000, ID_SLOW, 203, 2, GFP_KERNEL);
	e_reclaim(1, T0 + 4100, 203, false);
	e_reclaim(0, T0 + 4300, 203, true);
	e_ret(0, T0 + 4350, ID_SLOW_RET, 203, 0xffffea0004000080ULL);
	e_entry(0, T0 + 5000, ID_SLOW, 204, 9, GFP_TRANSHUGE);
	e_entry(1, T0 + 5100, ID_DC, 204, 9, GFP_TRANSHUGE);
	cpus[0].size = (syn.page[0] + 1) * PAGE;
	cpus[1].size = (syn.page[1] + 1) * PAGE;
	assert_true(cb_tracedat_write(path, &src, NULL, cberr, sizeof(cberr)) > 0);
}

static int64_t jint(struct json_object *o, const char *a, const char *b)
{
	struct json_object *x, *y;

	assert_true(json_object_object_get_ex(o, a, &x));
	if (!b)
		return json_object_get_int64(x);
	assert_true(json_object_object_get_ex(x, b, &y));
	return json_object_get_int64(y);
}

/* the summary.json sections: the probe's stalls and the comparison of the methods */
static void check_json(const struct cb_stalls *st)
{
	struct json_object *p = cb_summary_probe_json(st);
	struct json_object *c = cb_summary_method_comparison_json(st);

	assert_non_null(p);
	assert_non_null(c);
	assert_int_equal(jint(p, "stalls", NULL), 3);
	assert_int_equal(jint(p, "truncated", NULL), 1);
	assert_int_equal(jint(p, "direct_reclaim_ns", NULL), 600);
	assert_int_equal(jint(p, "all", "count"), 3);
	assert_int_equal(jint(p, "all", "p50_ns"), 600);
	/* probe stalls with compaction: 600 and 1000; tracepoint: one of 400 */
	assert_int_equal(jint(c, "count", "probe"), 2);
	assert_int_equal(jint(c, "count", "tracepoint"), 1);
	assert_int_equal(jint(c, "p50_ns", "probe"), 800);
	assert_int_equal(jint(c, "p50_ns", "diff"), 400 - 800);
	assert_int_equal(jint(c, "p99_ns", "probe"), 996);
	json_object_put(p);
	json_object_put(c);
}

static void test_probe_stalls(void **state)
{
	char path[PATH_MAX], err[512];
	const struct cb_pstall *r;
	struct cb_stalls st;
	struct cb_pstalls *p = &st.probe;
	double q;

	(void)state;
	snprintf(path, sizeof(path), "%s/probe.dat", tmp);
	write_scenario(path);
	assert_int_equal(cb_stalls_from_trace(path, &st, err, sizeof(err)), 0);
	assert_true(p->present);
	assert_string_equal(p->system, "compactbench_4242");
	assert_int_equal(p->calls, 4);
	assert_int_equal(p->stalls, 3);
	assert_int_equal(p->n, 3);
	assert_int_equal(p->truncated, 1);
	assert_int_equal(p->cut_by_loss, 0);
	assert_int_equal(p->unmatched, 1);
	assert_int_equal(p->dc_calls, 2);
	assert_int_equal(p->reclaims, 2);
	assert_int_equal(p->total_ns, 600 + 1000 + 350);
	assert_int_equal(p->dc_ns, 300 + 100);
	assert_int_equal(p->reclaim_ns, 400 + 200);
	r = &p->rec[0];
	assert_true(r->pid == 200 && r->order == 9 && r->gfp == GFP_TRANSHUGE && r->ok);
	assert_string_equal(r->comm, "papp");
	assert_true(r->start == T0 + 1000 && r->ns == 600 && r->dc_ns == 300 &&
		    r->reclaim_ns == 0);
	r = &p->rec[1];
	assert_true(r->pid == 201 && r->order == 3 && r->gfp == GFP_KERNEL && !r->ok);
	assert_string_equal(r->comm, "papp2");
	assert_true(r->ns == 1000 && r->dc_ns == 100 && r->reclaim_ns == 400);
	r = &p->rec[2];
	assert_true(r->pid == 203 && r->order == 2 && r->ns == 350 && r->dc_ns == 0 &&
		    r->reclaim_ns == 200);
	assert_true(p->ns[0] == 350 && p->ns[1] == 600 && p->ns[2] == 1000);
	assert_int_equal(cb_pstalls_quantile(p, 0.5, &q), 0);
	assert_true(q == 600);
	/* the tracepoint method beside it: pid 200's attempt, 1150 .. 1550 */
	assert_int_equal(st.stalls, 1);
	assert_int_equal(st.total_ns, 400);
	assert_string_equal(cb_stalls_method(&st), "probe");
	check_json(&st);
	if (getenv("CB_KEEP_PROBE_DAT")) {	/* for a look with `compactbench analyze` */
		size_t len;
		char *d = cb_read_file(path, &len);

		assert_non_null(d);
		assert_int_equal(cb_write_file_atomic(getenv("CB_KEEP_PROBE_DAT"), d, len), 0);
		free(d);
	}
	cb_stalls_free(&st);
}

/* a loss while calls are open: cut, not stalls; the state machine driven directly */
static void test_probe_loss(void **state)
{
	struct cb_pstalls p;
	struct cb_pev ev[] = {
		{ .kind = CB_PEV_SLOW, .ts = 10, .pid = 1, .order = 9 },
		{ .kind = CB_PEV_DC, .ts = 20, .pid = 1 },
		{ .kind = CB_PEV_LOSS, .ts = 30 },
		{ .kind = CB_PEV_DC_RET, .ts = 40, .pid = 1 },
		{ .kind = CB_PEV_SLOW_RET, .ts = 50, .pid = 1 },
		{ .kind = CB_PEV_SLOW, .ts = 60, .pid = 1, .order = 3 },
		{ .kind = CB_PEV_RECLAIM, .ts = 70, .pid = 1 },
		{ .kind = CB_PEV_RECLAIM_END, .ts = 75, .pid = 1 },
		{ .kind = CB_PEV_SLOW_RET, .ts = 80, .pid = 1 },
		{ .kind = CB_PEV_SLOW, .ts = 90, .pid = 2, .order = 9 },
		{ .kind = CB_PEV_SLOW, .ts = 95, .pid = 2, .order = 9 },	/* return lost */
	};
	size_t i;

	(void)state;
	cb_pstalls_init(&p, 0, 0);
	for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		assert_int_equal(cb_pstalls_feed(&p, &ev[i]), 0);
	assert_int_equal(cb_pstalls_finish(&p), 0);
	assert_int_equal(p.cut_by_loss, 1);
	assert_int_equal(p.unmatched, 1);
	assert_int_equal(p.stalls, 1);
	assert_true(p.rec[0].ns == 20 && p.rec[0].reclaim_ns == 5 && p.rec[0].order == 3);
	assert_int_equal(p.lost_ret, 1);
	assert_int_equal(p.truncated, 1);	/* pid 2's second call */
	cb_pstalls_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_stalls),
		cmocka_unit_test(test_probe_loss),
	};
	int ret;

	fixtures = getenv("FIXTURES");
	if (!fixtures || !mkdtemp(tmp)) {
		fprintf(stderr, "FIXTURES is not set, or no temporary directory\n");
		return 1;
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	cb_rm_rf(tmp);
	return ret;
}
