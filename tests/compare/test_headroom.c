// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_headroom.c - a cell whose fragmenter left enough free high-order blocks for its THP
 * demand measures nothing, and analyze says so (issue 22): in its summary.json
 * ("warnings"), in analyze's output and in report.md's Warnings section; a cell whose free
 * blocks fall short of the demand gets no warning. The numbers: 177 free order-10 blocks
 * of 4 KiB pages are 177 x 4 MiB = 708 MiB, enough for 384 MiB of 2 MiB regions (the host
 * cell of the issue); 20 order-10 and 10 order-9 blocks are 80 + 20 = 100 MiB, not enough.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "headroom.h"
#include "report.h"
#include "runfix.h"
#include "util.h"

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
	};

	if (!mkdtemp(tmp))
		return 1;
	return cmocka_run_group_tests(tests, NULL, teardown);
}
