// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kd_trace.c - kernel-demand's proof: the collector records kmem:mm_page_alloc (order
 * > 0, filtered in the kernel) while kernel-demand runs, and the histogram of the orders
 * allocated in its pid must hold orders 1, 2 and 3 (and 4, which AF_UNIX datagram heads
 * and ancillary data reach), and, path by path, every order the path says it makes.
 * Root, tracefs, the real machine: suite integration, one at a time. Small: 4 MiB queued.
 *
 * Usage: test_kd_trace PATH/PROGRAM... (kernel-demand among them)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <trace-cmd/trace-cmd.h>

#include "collector.h"
#include "wlt.h"

/* the message of the last failing call under test */
static char cberr[1024];

#define MAX_ORDER 11

static const char *prog;

struct histogram {
	pid_t pid;
	int type;			/* the event id of mm_page_alloc */
	struct tep_format_field *order;
	uint64_t mine[MAX_ORDER];	/* allocations in the pid, by order */
	uint64_t others;		/* order > 0 allocations of other tasks */
};

static int count_event(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct histogram *hist = data;
	unsigned long long order;

	if (tep_data_type(tep, rec) != hist->type ||
	    tep_read_number_field(hist->order, rec->data, &order) < 0)
		return 0;
	if (tep_data_pid(tep, rec) == hist->pid && order < MAX_ORDER)
		hist->mine[order]++;
	else
		hist->others++;
	return 0;
}

static void read_trace(const char *path, struct histogram *hist)
{
	struct tracecmd_input *h = tracecmd_open(path, 0);
	struct tep_event *ev;

	assert_non_null(h);
	ev = tep_find_event_by_name(tracecmd_get_tep(h), "kmem", "mm_page_alloc");
	assert_non_null(ev);
	hist->type = ev->id;
	hist->order = tep_find_field(ev, "order");
	assert_non_null(hist->order);
	assert_int_equal(tracecmd_iterate_events(h, NULL, 0, count_event, hist), 0);
	tracecmd_close(h);
}

/* run kernel-demand on @paths under the collector; fills @hist and @r */
static void record(const char *paths, struct histogram *hist, struct wlt_result *r)
{
	static const char *const events[] = { "kmem:mm_page_alloc if order > 0", NULL };
	char *argv[] = { (char *)prog, (char *)"--paths", (char *)paths, (char *)"--size",
			 (char *)"4M", (char *)"--rate", (char *)"200", (char *)"--duration",
			 (char *)"500ms", NULL };
	char dir[] = "/tmp/wlt-kdtrace.XXXXXX", trace[64];
	struct cb_collector_opts o = { .events = events, .spool_dir = dir };
	struct cb_collector_stats st;
	struct cb_collector *c;
	int ret;

	if (geteuid() != 0 || access("/sys/kernel/tracing/events/kmem/mm_page_alloc", F_OK))
		skip();
	assert_non_null(mkdtemp(dir));
	c = cb_collector_start(&o, cberr, sizeof(cberr));
	if (!c)
		fail_msg("collector: %s", cberr);
	/* no assertion until the collector is stopped: a failure would leave its instance */
	ret = wlt_run(argv, NULL, r);
	snprintf(trace, sizeof(trace), "%s/trace.dat", dir);
	if (cb_collector_stop(c, trace, &st) < 0)
		fail_msg("collector stop: %s", cb_collector_error(c));
	assert_int_equal(ret, 0);
	if (st.lost)
		printf("# %llu events lost: the counts are lower bounds\n",
		       (unsigned long long)st.lost);
	cb_collector_free(c);
	assert_int_equal(r->status, 0);
	assert_true(r->json_ok);
	memset(hist, 0, sizeof(*hist));
	hist->pid = (pid_t)wlt_get_int(wlt_find(r, "phase", "start"), "pid");
	assert_true(hist->pid > 0);
	read_trace(trace, hist);
	unlink(trace);
	assert_int_equal(rmdir(dir), 0);
	printf("# %s (pid %d): order 1..5 = %llu %llu %llu %llu %llu; others' order>0: %llu\n",
	       paths, (int)hist->pid, (unsigned long long)hist->mine[1],
	       (unsigned long long)hist->mine[2], (unsigned long long)hist->mine[3],
	       (unsigned long long)hist->mine[4], (unsigned long long)hist->mine[5],
	       (unsigned long long)hist->others);
}

/* the orders the "path" line of @name claims, as a bit mask */
static unsigned int claimed(const struct wlt_result *r, const char *name)
{
	struct json_object *orders;
	unsigned int mask = 0;
	size_t i;

	for (i = 0; i < r->nlines; i++) {
		const char *p = wlt_get_str(r->lines[i], "path");

		if (!p || strcmp(p, name))
			continue;
		assert_true(json_object_object_get_ex(r->lines[i], "orders", &orders));
		for (size_t k = 0; k < json_object_array_length(orders); k++)
			mask |= 1u << json_object_get_int(json_object_array_get_idx(orders, k));
		if (wlt_get_str(r->lines[i], "note"))
			printf("# %s: %s\n", name, wlt_get_str(r->lines[i], "note"));
	}
	return mask;
}

static void test_all_paths(void **state)
{
	struct histogram hist;
	struct wlt_result r;
	int o;

	record("unix-stream,unix-dgram,tcp,cmsg,pipe-resize", &hist, &r);
	for (o = 1; o <= 3; o++)
		if (!hist.mine[o])
			fail_msg("no order-%d allocation in kernel-demand's pid", o);
	/* order 4: datagram heads of 32 KiB always, ancillary data within optmem_max */
	if ((claimed(&r, "unix-dgram") | claimed(&r, "cmsg")) & (1u << 4))
		assert_true(hist.mine[4] > 0);
	wlt_free(&r);
}

/* each path alone: every order it claims shows in the trace */
static void test_each_path(void **state)
{
	static const char *const paths[] = { "unix-stream", "unix-dgram", "tcp", "cmsg",
					     "pipe-resize", "unix-dgram-big", NULL };
	struct histogram hist;
	struct wlt_result r;
	size_t i;
	int o;

	for (i = 0; paths[i]; i++) {
		unsigned int want;

		record(paths[i], &hist, &r);
		want = claimed(&r, paths[i]);
		assert_true(want != 0);
		for (o = 1; o < MAX_ORDER; o++)
			if ((want & (1u << o)) && !hist.mine[o])
				fail_msg("%s claims order %d; the trace has none in its pid",
					 paths[i], o);
		wlt_free(&r);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_paths),
		cmocka_unit_test(test_each_path),
	};

	prog = wlt_path_of(argc, argv, "kernel-demand");
	if (!prog) {
		fprintf(stderr, "usage: %s PATH/PROGRAM... (kernel-demand among them)\n", argv[0]);
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
