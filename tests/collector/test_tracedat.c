// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tracedat - unit tests of the trace.dat v6 writer (no root, no tracefs).
 *
 * Synthetic pages with chosen timestamps are written against the fixture tree
 * (fixtures/tracing: the header files of a 6.18 x86_64 kernel, two made-up events and one
 * corrupt format),
 * then read back with libtracecmd and, when installed, `trace-cmd report`.
 *
 *   test_tracedat FIXTURE_TRACING_DIR
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "tracedat.h"
#include "util.h"

/* the message of the last failing call under test */
static char cberr[1024];

#define PAGE 4096

static const char *fixture;
static char tmpdir[] = "/tmp/cbtracedat-XXXXXX";
static const char *const events[] = { "cbtest:small", "cbtest:big", NULL };

struct small {
	uint16_t common_type;
	uint8_t flags, preempt;
	int32_t pid;
	uint32_t order;
	uint32_t pad;
	uint64_t seq;
};

struct big {
	uint16_t common_type;
	uint8_t flags, preempt;
	int32_t pid;
	uint64_t seq;
	char blob[200];
};

/* what a test expects back, in file order per CPU */
struct seen {
	int n;
	uint64_t ts[64];
	int cpu[64];
	unsigned long long seq[64];
	int id[64];
	char comm[64][16];
};

static int collect(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	struct seen *s = data;
	unsigned long long v = 0;
	int pid;

	assert_non_null(ev);
	assert_true(s->n < 64);
	assert_int_equal(tep_get_field_val(NULL, ev, "seq", rec, &v, 0), 0);
	pid = tep_data_pid(tep, rec);
	snprintf(s->comm[s->n], sizeof(s->comm[0]), "%s", tep_data_comm_from_pid(tep, pid));
	s->ts[s->n] = rec->ts;
	s->cpu[s->n] = cpu;
	s->seq[s->n] = v;
	s->id[s->n] = ev->id;
	s->n++;
	return 0;
}

static int read_back(const char *path, struct seen *s)
{
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);

	memset(s, 0, sizeof(*s));
	if (!h)
		return -1;
	tracecmd_iterate_events(h, NULL, 0, collect, s);
	tracecmd_close(h);
	return 0;
}

/* lines of `trace-cmd report` that are events (" [CPU] SECS.USECS:"), -1 if unavailable */
static int report_lines(const char *path)
{
	char cmd[512], line[1024];
	int n = 0;
	FILE *p;

	if (access("/usr/bin/trace-cmd", X_OK))
		return -1;
	snprintf(cmd, sizeof(cmd), "/usr/bin/trace-cmd report %s 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		char *b = strstr(line, "] ");
		if (b && strchr(line, '[') && strchr(b, ':'))
			n++;
	}
	return pclose(p) == 0 ? n : -1;
}

static void small_ev(struct small *e, int id, int pid, uint32_t order, uint64_t seq)
{
	memset(e, 0, sizeof(*e));
	e->common_type = id;
	e->pid = pid;
	e->order = order;
	e->seq = seq;
}

static void test_page_size_and_ids(void **state)
{
	assert_int_equal(cb_tracedat_page_size(fixture, cberr, sizeof(cberr)), 4096);
	assert_int_equal(cb_tracedat_event_id(fixture, "cbtest", "small",
					      cberr, sizeof(cberr)), 901);
	assert_int_equal(cb_tracedat_event_id(fixture, "cbtest", "big", cberr, sizeof(cberr)), 902);
	assert_int_equal(cb_tracedat_event_id(fixture, "cbtest", "nosuch",
					      cberr, sizeof(cberr)), -1);
	assert_non_null(strstr(cberr, "cbtest/nosuch/format"));
}

static void test_page_builder_limits(void **state)
{
	static unsigned char page[PAGE];
	struct cb_tracedat_page p;
	struct small e;
	int n = 0;

	assert_int_equal(cb_tracedat_page_init(&p, page, 8, 0), -1);
	assert_int_equal(cb_tracedat_page_init(&p, page, PAGE, 1000), 0);
	small_ev(&e, 901, 1, 1, 0);
	assert_int_equal(cb_tracedat_page_add(&p, 999, &e, sizeof(e)), -1);
	assert_int_equal(errno, EINVAL);
	while (cb_tracedat_page_add(&p, 1000 + n, &e, sizeof(e)) == 0)
		n++;
	assert_int_equal(errno, ENOSPC);
	/* 24-byte events with a 4-byte header in the 4080 bytes after the page header */
	assert_int_equal(sizeof(e), 24);
	assert_int_equal(n, (PAGE - 16) / (4 + sizeof(e)));
}

/* two CPUs, chosen timestamps, a time extend, a big event, a second page */
static void test_synthetic_roundtrip(void **state)
{
	static unsigned char cpu0[2 * PAGE], cpu1[PAGE];
	const uint64_t t0 = 5000000000ULL;
	struct cb_tracedat_cpu cpus[3] = {
		{ .data = cpu0, .size = sizeof(cpu0) },
		{ .data = cpu1, .size = sizeof(cpu1) },
		{ .data = NULL, .size = 0 },	/* an idle CPU */
	};
	const char *stats[3] = { "entries: 0\nread events: 5\n", "entries: 0\nread events: 3\n", "" };
	struct cb_tracedat_src src = {
		.tracing_dir = fixture, .events = events, .nr_cpus = 3, .cpu = cpus,
		.trace_clock = "mono", .extra_cmdlines = "4444 cbextra\n", .cpustats = stats,
		.uname = "Linux synth 6.18 #1 SMP x86_64",
	};
	uint64_t want_ts[8] = { t0, t0 + 10, t0 + 500, t0 + 600, t0 + (1ULL << 30) + 7,
				t0 + 2000000000ULL, t0 + 2000000001ULL, t0 + 3000000000ULL };
	struct cb_tracedat_page p;
	char path[512];
	struct small e;
	struct big b;
	struct seen s;
	long long size;
	int i;

	/* CPU 0: t0, t0+500, t0+2^30+7 (time extend) on page 1; a big event on page 2 */
	assert_int_equal(cb_tracedat_page_init(&p, cpu0, PAGE, t0), 0);
	small_ev(&e, 901, 4242, 9, 0);
	assert_int_equal(cb_tracedat_page_add(&p, want_ts[0], &e, sizeof(e)), 0);
	small_ev(&e, 901, 4242, 9, 2);
	assert_int_equal(cb_tracedat_page_add(&p, want_ts[2], &e, sizeof(e)), 0);
	small_ev(&e, 901, 4242, 4, 4);
	assert_int_equal(cb_tracedat_page_add(&p, want_ts[4], &e, sizeof(e)), 0);
	assert_int_equal(cb_tracedat_page_init(&p, cpu0 + PAGE, PAGE, want_ts[5]), 0);
	memset(&b, 0, sizeof(b));
	b.common_type = 902;
	b.pid = 4444;
	b.seq = 5;
	memset(b.blob, 'x', sizeof(b.blob));
	assert_int_equal(cb_tracedat_page_add(&p, want_ts[5], &b, sizeof(b)), 0);
	small_ev(&e, 901, 4242, 2, 7);
	assert_int_equal(cb_tracedat_page_add(&p, want_ts[7], &e, sizeof(e)), 0);
	/* CPU 1: t0+10, t0+600, t0+2s+1 */
	assert_int_equal(cb_tracedat_page_init(&p, cpu1, PAGE, t0), 0);
	small_ev(&e, 901, 4343, 1, 1);
	assert_int_equal(cb_tracedat_page_add(&p, want_ts[1], &e, sizeof(e)), 0);
	small_ev(&e, 901, 4343, 1, 3);
	assert_int_equal(cb_tracedat_page_add(&p, want_ts[3], &e, sizeof(e)), 0);
	small_ev(&e, 901, 4343, 1, 6);
	assert_int_equal(cb_tracedat_page_add(&p, want_ts[6], &e, sizeof(e)), 0);

	snprintf(path, sizeof(path), "%s/synth.dat", tmpdir);
	size = cb_tracedat_write(path, &src, NULL, cberr, sizeof(cberr));
	assert_true(size > 3 * PAGE);
	{
		struct stat st;

		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, size);
	}
	assert_int_equal(read_back(path, &s), 0);
	assert_int_equal(s.n, 8);
	/* merged in time order across CPUs: seq i is the i-th event */
	for (i = 0; i < 8; i++) {
		assert_int_equal(s.seq[i], i);
		assert_int_equal(s.ts[i], want_ts[i]);
		assert_int_equal(s.id[i], i == 5 ? 902 : 901);
		assert_int_equal(s.cpu[i], (i == 1 || i == 3 || i == 6) ? 1 : 0);
	}
	assert_string_equal(s.comm[0], "cbsynth");
	assert_string_equal(s.comm[1], "cbother");
	assert_string_equal(s.comm[5], "cbextra");	/* from extra_cmdlines */
	i = report_lines(path);
	if (i >= 0)
		assert_int_equal(i, 8);
	unlink(path);
}

static void test_writer_errors(void **state)
{
	static unsigned char half[PAGE / 2];
	const char *bad_events[] = { "cbtest:small", "cbtest:nosuch", NULL };
	const char *no_colon[] = { "nocolon", NULL };
	const char *corrupt[] = { "cbtest:small", "cbtest:corrupt", NULL };
	struct cb_tracedat_cpu cpu = { .data = half, .size = sizeof(half) };
	struct cb_tracedat_src src = { .tracing_dir = fixture, .events = events, .nr_cpus = 1,
				       .cpu = &cpu };
	char path[512];

	snprintf(path, sizeof(path), "%s/bad.dat", tmpdir);
	/* not whole pages */
	assert_int_equal(cb_tracedat_write(path, &src, NULL, cberr, sizeof(cberr)), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(cberr, "whole"));
	assert_int_not_equal(access(path, F_OK), 0);	/* partial file removed */
	/* an event without a format */
	cpu.size = 0;
	src.events = bad_events;
	assert_int_equal(cb_tracedat_write(path, &src, NULL, cberr, sizeof(cberr)), -1);
	assert_non_null(strstr(cberr, "cbtest/nosuch/format"));
	/* a corrupt format: no ID line */
	src.events = corrupt;
	assert_int_equal(cb_tracedat_write(path, &src, NULL, cberr, sizeof(cberr)), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(cberr, "cbtest/corrupt/format is corrupt"));
	assert_int_not_equal(access(path, F_OK), 0);
	src.events = no_colon;
	assert_int_equal(cb_tracedat_write(path, &src, NULL, cberr, sizeof(cberr)), -1);
	assert_int_equal(errno, EINVAL);
	/* a missing data file */
	cpu.path = "/nonexistent/cpu0";
	src.events = events;
	assert_int_equal(cb_tracedat_write(path, &src, NULL, cberr, sizeof(cberr)), -1);
	assert_non_null(strstr(cberr, "/nonexistent/cpu0"));
	/* no tree */
	cpu.path = NULL;
	src.tracing_dir = "/nonexistent";
	assert_int_equal(cb_tracedat_write(path, &src, NULL, cberr, sizeof(cberr)), -1);
	assert_non_null(strstr(cberr, "/nonexistent/events/header_page"));
	assert_int_not_equal(access(path, F_OK), 0);
}

/* an empty trace (all CPUs idle) is still a valid file */
static void test_empty_trace(void **state)
{
	struct cb_tracedat_cpu cpus[2] = { { 0 }, { 0 } };
	struct cb_tracedat_src src = { .tracing_dir = fixture, .events = events, .nr_cpus = 2,
				       .cpu = cpus, .trace_clock = "local" };
	char path[512];
	struct seen s;

	snprintf(path, sizeof(path), "%s/empty.dat", tmpdir);
	assert_true(cb_tracedat_write(path, &src, NULL, cberr, sizeof(cberr)) > 0);
	assert_int_equal(read_back(path, &s), 0);
	assert_int_equal(s.n, 0);
	unlink(path);
}

/* write @n pages of events with seq from *@seq into @path (a CPU spool file) */
static void spool_file(const char *path, int n, uint64_t *seq, uint64_t t0)
{
	static unsigned char page[PAGE];
	struct cb_tracedat_page p;
	struct small e;
	FILE *f = fopen(path, "w");
	int i;

	assert_non_null(f);
	for (i = 0; i < n; i++) {
		assert_int_equal(cb_tracedat_page_init(&p, page, PAGE, t0 + *seq), 0);
		small_ev(&e, 901, 4242, 0, *seq);
		assert_int_equal(cb_tracedat_page_add(&p, t0 + *seq, &e, sizeof(e)), 0);
		(*seq)++;
		assert_int_equal(fwrite(page, PAGE, 1, f), 1);
	}
	assert_int_equal(fclose(f), 0);
}

static char *slurp(const char *path, size_t *len)
{
	char *s = cb_read_file(path, len);

	assert_non_null(s);
	return s;
}

/*
 * in @dir (spools) and @outdir: CPU 0 in memory, CPU 1 (the biggest) and CPU 2 in files;
 * written copied and adopted, the two files must be the same bytes. Returns the CPU
 * adopted.
 */
static int adopt_case(const char *dir, const char *outdir)
{
	static unsigned char mem[PAGE];
	char f1[512], f2[512], copied[512], adopted[512], *a, *b;
	struct cb_tracedat_cpu cpus[3] = { { .data = mem, .size = PAGE }, { 0 }, { 0 } };
	struct cb_tracedat_src src = {
		.tracing_dir = fixture, .events = events, .nr_cpus = 3, .cpu = cpus,
		.trace_clock = "mono", .uname = "Linux synth 6.18 #1 SMP x86_64",
	};
	struct cb_tracedat_page p;
	uint64_t seq = 1;
	size_t la, lb;
	struct small e;
	struct seen s;
	int who;

	assert_int_equal(cb_tracedat_page_init(&p, mem, PAGE, 1000), 0);
	small_ev(&e, 901, 4242, 0, 0);
	assert_int_equal(cb_tracedat_page_add(&p, 1000, &e, sizeof(e)), 0);
	snprintf(f1, sizeof(f1), "%s/cb-spool.cpu1", dir);
	snprintf(f2, sizeof(f2), "%s/cb-spool.cpu2", dir);
	snprintf(copied, sizeof(copied), "%s/copied.dat", outdir);
	snprintf(adopted, sizeof(adopted), "%s/adopted.dat", outdir);
	spool_file(f1, 5, &seq, 2000);
	spool_file(f2, 3, &seq, 2000);
	cpus[1].path = f1;
	cpus[2].path = f2;
	assert_true(cb_tracedat_write(copied, &src, &who, cberr, sizeof(cberr)) > 9 * PAGE);
	assert_int_equal(who, -1);
	src.adopt = true;
	assert_true(cb_tracedat_write(adopted, &src, &who, cberr, sizeof(cberr)) > 9 * PAGE);
	a = slurp(copied, &la);
	b = slurp(adopted, &lb);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
	assert_int_equal(read_back(adopted, &s), 0);
	assert_int_equal(s.n, 9);
	if (report_lines(adopted) >= 0)
		assert_int_equal(report_lines(adopted), 9);
	/* the adopted file is the trace now; the others stay */
	assert_int_equal(access(f1, F_OK) == 0, who != 1);
	assert_int_equal(access(f2, F_OK), 0);
	unlink(f1);
	unlink(f2);
	unlink(copied);
	unlink(adopted);
	return who;
}

/* the biggest CPU file becomes the trace where the filesystem can insert a range */
static void test_adopt(void **state)
{
	char shm[] = "/dev/shm/cbtracedat-XXXXXX";

	/* /tmp here is ext4: adopted (a filesystem without INSERT_RANGE copies, as below) */
	if (adopt_case(tmpdir, tmpdir) != 1)
		print_message("INSERT_RANGE refused in %s: copied\n", tmpdir);
	if (!mkdtemp(shm))
		return;	/* no tmpfs here */
	/* tmpfs refuses INSERT_RANGE: copied, same bytes */
	assert_int_equal(adopt_case(shm, shm), -1);
	/* spool files on another filesystem than the trace: copied */
	assert_int_equal(adopt_case(shm, tmpdir), -1);
	cb_rm_rf(shm);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_size_and_ids),
		cmocka_unit_test(test_page_builder_limits),
		cmocka_unit_test(test_synthetic_roundtrip),
		cmocka_unit_test(test_writer_errors),
		cmocka_unit_test(test_empty_trace),
		cmocka_unit_test(test_adopt),
	};
	int ret;

	if (argc < 2) {
		fprintf(stderr, "usage: test_tracedat FIXTURE_TRACING_DIR\n");
		return 2;
	}
	fixture = argv[1];
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	cb_rm_rf(tmpdir);
	return ret;
}
