// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_headroom.c - a cell whose fragmenter left enough free high-order blocks for its THP
 * demand measures nothing, and analyze says so (issue 22): in its summary.json
 * ("warnings"), in analyze's output and in report.md's Warnings section; a cell whose free
 * blocks fall short of the demand gets no warning. The numbers: 177 free order-10 blocks
 * of 4 KiB pages are 177 x 4 MiB = 708 MiB, enough for 384 MiB of 2 MiB regions (the host
 * cell of the issue); 20 order-10 and 10 order-9 blocks are 80 + 20 = 100 MiB, not enough.
 * Recurring demand is judged per wave from its readiness sample, not from the fragmenter's
 * buddyinfo (a false warning on every thp-recur cell of the pilot, whose waves found ~40 MiB
 * free in order-9 blocks for 64 MiB waves and stalled).
 *
 * A guest cell whose host gave 30% of its CPU time to other work (meta.json
 * qemu.host_other_share, written by the qemu target) is warned about too, unless its clock
 * counts instructions (qemu.clock icount); one at 4% (an idle host) is not, and a cell
 * without the figure has null in summary.json.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "headroom.h"
#include "report.h"
#include "runfix.h"
#include "util.h"
#include "waves.h"

static char tmp[] = "/tmp/cb-test-headroom-XXXXXX";

/* the workload lines of a cell: frag-anon's buddyinfo after fragmenting, thp-demand's start */
static void workload(const char *run, const char *id, int o9, int o10)
{
	char path[900], text[1024];

	snprintf(path, sizeof(path), "%s/%s/workload", run, id);
	assert_int_equal(cb_mkdir_p(path), 0);
	snprintf(text, sizeof(text), "{\"type\":\"phase\",\"phase\":\"start\",\"workload\":"
		 "\"frag-anon\",\"page_size\":4096}\n{\"type\":\"buddyinfo\",\"when\":\"before\","
		 "\"zones\":[{\"node\":0,\"zone\":\"DMA32\",\"free\":[0,0,0,0,0,0,0,0,0,0,500]}]}\n"
		 "{\"type\":\"buddyinfo\",\"when\":\"after\",\"zones\":[{\"node\":0,\"zone\":\"DMA\","
		 "\"free\":[1,1,1,1,1,1,1,1,1,0,0]},{\"node\":0,\"zone\":\"DMA32\",\"free\":"
		 "[9000,0,0,0,0,0,0,0,0,%d,%d]}]}\n", o9, o10);
	snprintf(path, sizeof(path), "%s/%s/workload/1-fragment-frag-anon.jsonl", run, id);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
	snprintf(text, sizeof(text), "{\"type\":\"phase\",\"phase\":\"start\",\"workload\":"
		 "\"thp-demand\",\"size_bytes\":%d,\"region_bytes\":2097152}\n", 384 << 20);
	snprintf(path, sizeof(path), "%s/%s/workload/2-demand-thp-demand.jsonl", run, id);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

static void test_free_bytes(void **state)
{
	struct json_object *b = json_tokener_parse("{\"zones\":[{\"free\":[5,0,0,0,0,0,0,0,0,10,"
						   "20]},{\"free\":[0,0,0,0,0,0,0,0,0,1,0]}]}");

	assert_non_null(b);
	/* order 9: 11 x 2 MiB + 20 x 4 MiB = 102 MiB; order 10: 80 MiB; order 0 adds 5 pages */
	assert_true(cb_headroom_free_bytes(b, 9, 4096) == 102.0 * 1048576);
	assert_true(cb_headroom_free_bytes(b, 10, 4096) == 80.0 * 1048576);
	assert_true(cb_headroom_free_bytes(b, 0, 4096) == 102.0 * 1048576 + 5 * 4096);
	json_object_put(b);
}

static void test_warned(void **state)
{
	static const char *const k[] = { "host", NULL }, *const s[] = { "none", NULL };
	static const char *const w[] = { "thp-frag", NULL };
	struct runfix_cell cells[2];
	struct runfix rf = { .fixtures = getenv("FIXTURES") };
	char run[700], path[900], *out, *err, *md, *sum;
	size_t n = runfix_grid(cells, 2, k, s, w, 2);

	if (!rf.fixtures)
		skip();
	for (size_t i = 0; i < n; i++)
		cells[i].trace = "analysis-thp-compact";
	snprintf(run, sizeof(run), "%s/run", tmp);
	assert_int_equal(runfix_write(run, &rf, cells, n), 0);
	workload(run, "host.none.thp-frag.r1", 0, 177);	/* 708 MiB free: enough */
	workload(run, "host.none.thp-frag.r2", 10, 20);	/* 100 MiB free: not enough */
	assert_int_equal(runfix_capture(cmd_analyze, (char *[]){ "analyze", run, NULL }, tmp, &out,
					&err), 0);
	assert_non_null(strstr(out, "WARNING: 1 cell(s) of host/none/thp-frag, first "
				    "host.none.thp-frag.r1: the fragmenter left 708 MiB free in "
				    "blocks of order 9 or more (its buddyinfo after fragmenting), "
				    "enough for the demand's 384 MiB"));
	snprintf(path, sizeof(path), "%s/report.md", run);
	md = cb_read_file(path, NULL);
	assert_non_null(md);
	assert_non_null(strstr(md, "## Warnings\n\n- **1 cell(s) of `host/none/thp-frag`**, first "
				   "`host.none.thp-frag.r1`: the fragmenter left 708 MiB free"));
	snprintf(path, sizeof(path), "%s/host.none.thp-frag.r1/summary.json", run);
	sum = cb_read_file(path, NULL);
	assert_non_null(sum);
	assert_non_null(strstr(sum, "enough for the demand's 384 MiB"));
	free(sum);
	snprintf(path, sizeof(path), "%s/host.none.thp-frag.r2/summary.json", run);
	sum = cb_read_file(path, NULL);
	assert_non_null(sum);
	assert_null(strstr(sum, "enough for the demand"));
	free(sum);
	free(md);
	free(out);
	free(err);
}

/* two 64 MiB THP waves: warned only when both found >= 64 MiB in order >= 9 blocks */
static void test_waves(void **state)
{
	struct cb_wave w[2] = { 0 };
	struct cb_waves ws = { .present = true, .w = w, .n = 2 };
	char run[700], cell[800], why[512] = "";

	(void)state;
	snprintf(run, sizeof(run), "%s/wrun", tmp);
	/* the fragmenter left 708 MiB: the single-burst rule would warn */
	workload(run, "c", 0, 177);
	snprintf(cell, sizeof(cell), "%s/c", run);
	for (int i = 0; i < 2; i++) {
		w[i].kinds = CB_WAVE_THP;
		w[i].has_ready = true;
		w[i].requested_bytes = 64 << 20;
		w[i].free[9] = 20;	/* 40 MiB */
		w[i].free[10] = 6;	/* + 24 MiB = 64 MiB: just enough */
		w[i].free[8] = 1000;	/* order 8 does not count */
	}
	assert_int_equal(cb_headroom_check(cell, &ws, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "every one of the 2 THP waves found enough free blocks of "
				    "order 9 or more at its start for its demand (at least 64 MiB"));
	w[1].free[10] = 5;		/* 60 MiB: wave 1 had to compact */
	assert_int_equal(cb_headroom_check(cell, &ws, why, sizeof(why)), 0);
	w[1].free[10] = 6;
	w[0].has_ready = false;		/* no sample before wave 0: not known served */
	assert_int_equal(cb_headroom_check(cell, &ws, why, sizeof(why)), 0);
	ws.present = false;		/* without waves: the fragmenter's 708 MiB warns */
	assert_int_equal(cb_headroom_check(cell, &ws, why, sizeof(why)), 1);
	assert_int_equal(cb_headroom_check(cell, NULL, why, sizeof(why)), 1);
}

/* @id's meta.json (runfix's) with a "qemu" object holding @share and @clock (NULL: none) */
static void host_share(const char *run, const char *id, const char *share, const char *clock)
{
	char path[900], text[1024], *meta;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s/meta.json", run, id);
	meta = cb_read_file(path, &len);
	assert_non_null(meta);
	while (len && meta[len - 1] != '}')
		len--;
	assert_true(len > 1);
	snprintf(text, sizeof(text), "%.*s,\"qemu\":{\"accel\":\"tcg\",\"host_other_share\":%s%s%s%s}}\n",
		 (int)len - 1, meta, share, clock ? ",\"clock\":\"" : "", clock ? clock : "",
		 clock ? "\"" : "");
	free(meta);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

/*
 * rep @rep's summary.json in @run: its host_other_share (NAN for null), whether it warns,
 * its guest_clock into @clock ("" for null)
 */
#define CLOCK_LEN 8	/* "host", "icount" and the NUL */
static double share_of(const char *run, int rep, bool *warned, char (*clock)[CLOCK_LEN])
{
	char path[900], *sum;
	struct json_object *o, *x;
	double v = NAN;

	snprintf(path, sizeof(path), "%s/vm.none.thp-frag.r%d/summary.json", run, rep);
	sum = cb_read_file(path, NULL);
	assert_non_null(sum);
	*warned = strstr(sum, "other work took") && strstr(sum, "stall times included, stretches");
	o = json_tokener_parse(sum);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "host_other_share", &x));
	if (x)
		v = json_object_get_double(x);
	assert_true(json_object_object_get_ex(o, "guest_clock", &x));
	snprintf(*clock, sizeof(*clock), "%s", x ? json_object_get_string(x) : "");
	json_object_put(o);
	free(sum);
	return v;
}

static void test_host_busy(void **state)
{
	static const char *const k[] = { "vm", NULL }, *const s[] = { "none", NULL };
	static const char *const w[] = { "thp-frag", NULL };
	struct runfix_cell cells[4];
	struct runfix rf = { .fixtures = getenv("FIXTURES") };
	char run[700], clock[CLOCK_LEN], *out, *err;
	size_t n = runfix_grid(cells, 4, k, s, w, 4);
	bool warned;

	if (!rf.fixtures)
		skip();
	for (size_t i = 0; i < n; i++)
		cells[i].trace = "analysis-thp-compact";
	snprintf(run, sizeof(run), "%s/busy", tmp);
	assert_int_equal(runfix_write(run, &rf, cells, n), 0);
	host_share(run, "vm.none.thp-frag.r1", "0.3", "host");
	host_share(run, "vm.none.thp-frag.r2", "0.04", NULL);
	/* a guest clock that counts instructions does not stretch: no warning at 30% */
	host_share(run, "vm.none.thp-frag.r3", "0.3", "icount");
	assert_int_equal(runfix_capture(cmd_analyze, (char *[]){ "analyze", run, NULL }, tmp, &out,
					&err), 0);
	assert_non_null(strstr(out, "WARNING: 1 cell(s) of vm/none/thp-frag, first "
				    "vm.none.thp-frag.r1: other work took 30% of the host's CPU "
				    "time while the guest ran"));
	assert_null(strstr(out, "vm.none.thp-frag.r3: other work"));
	assert_true(share_of(run, 1, &warned, &clock) == 0.3 && warned);
	assert_string_equal(clock, "host");
	assert_true(share_of(run, 2, &warned, &clock) == 0.04 && !warned);
	assert_string_equal(clock, "");
	assert_true(share_of(run, 3, &warned, &clock) == 0.3 && !warned);
	assert_string_equal(clock, "icount");
	assert_true(isnan(share_of(run, 4, &warned, &clock)) && !warned);
	free(out);
	free(err);
}

static int teardown(void **state)
{
	cb_rm_rf(tmp);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_free_bytes),
		cmocka_unit_test(test_warned),
		cmocka_unit_test(test_waves),
		cmocka_unit_test(test_host_busy),
	};

	if (!mkdtemp(tmp))
		return 1;
	return cmocka_run_group_tests(tests, NULL, teardown);
}
