// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tracecheck.c - hostile trace.dat files (issue 20): each finding of the fuzzing
 * campaign made into a file from a good fixture with one structure changed, which the
 * reader must refuse with a message naming the file and the section or option (before the
 * fix each one was read into wrong numbers, hung, or touched memory outside its buffer);
 * the good files (v6, big-endian v6, v7 zstd and uncompressed) read the same stalls; the
 * reader child's watchdog and address-space limit named in their messages.
 *
 * Environment: FIXTURES (the fixture directory).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stalls.h"
#include "tracecheck.h"
#include "util.h"

static const char *fixtures;
static char tmpdir[] = "/tmp/cb-tracecheck-XXXXXX";

struct tfile {
	unsigned char *d;
	size_t len;
};

static struct tfile load(const char *name)
{
	char path[PATH_MAX];
	struct tfile t;

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	t.d = (unsigned char *)cb_read_file(path, &t.len);
	assert_non_null(t.d);
	return t;
}

/* write @t to a file of the temporary directory and read it as analyze does (forked) */
static int read_as_analyze(const struct tfile *t, const char *name, struct cb_stalls *s,
			   char *err, size_t errlen)
{
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	assert_int_equal(cb_write_file_atomic(path, t->d, t->len), 0);
	ret = cb_stalls_from_trace(path, s, err, errlen);
	unlink(path);
	return ret;
}

/* @t must be refused, by a message naming the file and holding @what */
static void refused(struct tfile *t, const char *name, const char *what)
{
	char err[1024] = "";
	struct cb_stalls s;

	if (!read_as_analyze(t, name, &s, err, sizeof(err))) {
		cb_stalls_free(&s);
		fail_msg("%s: read (%zu stalls), not refused", name, s.n);
	}
	if (!strstr(err, name) || !strstr(err, what))
		fail_msg("%s: message '%s' lacks '%s'", name, err, what);
	free(t->d);
}

static unsigned char *find(struct tfile *t, const void *pat, size_t len)
{
	unsigned char *p = memmem(t->d, t->len, pat, len);

	assert_non_null(p);
	return p;
}

static void put4(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put8(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* finding 1: "size:8" -> "size:9" of the commit in header_page gave 320 events, 3 stalls */
static void test_v6_commit_size(void **state)
{
	struct tfile t = load("analysis-thp-compact.v6.dat");
	unsigned char *p = find(&t, "commit;\toffset:8;\tsize:8;", 25);

	(void)state;
	p[23] = '9';
	refused(&t, "commit9.dat", "header_page: the commit field (offset 8, size 9)");
}

/* finding 1: an endian byte of 2 (swapped numbers, kbuffer little-endian) */
static void test_endian_byte(void **state)
{
	struct tfile t = load("analysis-thp-compact.v6.dat");

	(void)state;
	t.d[12] = 2;
	refused(&t, "endian2.dat", "endianness byte 2");
}

/* the stalls of @t read as analyze does (it must be read) */
static struct cb_stalls good_file(struct tfile *t, const char *name)
{
	char err[1024] = "";
	struct cb_stalls s;

	if (read_as_analyze(t, name, &s, err, sizeof(err)))
		fail_msg("%s: %s", name, err);
	free(t->d);
	return s;
}

/* the stalls of the fixture @name */
static struct cb_stalls good(const char *name)
{
	struct tfile t = load(name);

	return good_file(&t, strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
}

/*
 * finding 1: a well-formed big-endian v6 file was refused. The seed is the little-endian
 * seed made big-endian by tracedat_rewrite.py (trace-cmd report prints the same events:
 * tests/analysis/big_endian.sh): the same events and stalls must come out
 */
static void test_big_endian(void **state)
{
	struct cb_stalls le = good("fuzz-seeds/small.v6.dat");
	struct cb_stalls be = good("fuzz-seeds/small-big-endian.v6.dat");
	struct cb_stalls z = good("fuzz-seeds/small-zstd.v7.dat");
	struct cb_stalls n = good("fuzz-seeds/small-none.v7.dat");

	(void)state;
	assert_int_equal(le.events, 220);	/* trace-cmd report | wc -l */
	assert_int_equal(be.events, le.events);
	assert_int_equal(be.n, le.n);
	assert_int_equal(be.total_ns, le.total_ns);
	assert_int_equal(z.events, le.events);
	assert_int_equal(z.n, le.n);
	assert_int_equal(n.events, le.events);
	assert_int_equal(n.total_ns, le.total_ns);
	cb_stalls_free(&le);
	cb_stalls_free(&be);
	cb_stalls_free(&z);
	cb_stalls_free(&n);
}

/* v7 files recorded by trace-cmd-here, zstd and uncompressed: the 16 events report prints */
static void test_recorded_v7(void **state)
{
	struct cb_stalls z = good("fuzz-seeds/recorded-zstd.v7.dat");
	struct cb_stalls n = good("fuzz-seeds/recorded-none.v7.dat");

	(void)state;
	assert_int_equal(z.events, 16);
	assert_int_equal(n.events, 16);
	cb_stalls_free(&z);
	cb_stalls_free(&n);
}

/* finding 2: options by id and size (the v6 fixture's TRACECLOCK, UNAME, CPUSTAT) */
static void test_v6_options(void **state)
{
	unsigned char *p;
	static const unsigned char clock[] = { 4, 0, 67, 0, 0, 0 }, uname[] = { 5, 0, 33, 0, 0, 0 },
		cpustat[] = { 2, 0, 143, 0, 0, 0 };
	struct tfile t;

	(void)state;
	t = load("analysis-thp-compact.v6.dat");
	find(&t, clock, 6)[0] = 8;	/* TRACECLOCK -> CPUCOUNT: 13 GB calloc, 1.66e9 CPUs */
	refused(&t, "cpucount.dat", "CPUCOUNT option of 67 bytes");
	t = load("analysis-thp-compact.v6.dat");
	put4(find(&t, cpustat, 6) + 2, 0);	/* buf[0xffffffff] = '\n' */
	refused(&t, "cpustat0.dat", "empty CPUSTAT option");
	t = load("analysis-thp-compact.v6.dat");
	find(&t, uname, 6)[0] = 6;		/* HOOK: a write through NULL */
	refused(&t, "hook.dat", "HOOK option");
	t = load("analysis-thp-compact.v6.dat");
	put4(find(&t, uname, 6) + 2, 1);	/* strdup past the end */
	refused(&t, "uname1.dat", "UNAME option of 1 bytes is not a string");
	t = load("analysis-thp-compact.v6.dat");
	put4(find(&t, clock, 6) + 2, 1);
	refused(&t, "clock1.dat", "TRACECLOCK option of 1 bytes");
	t = load("analysis-thp-compact.v6.dat");
	/* session 4's find: libtracecmd's iterator read the absent CPU data (SIGSEGV) */
	memcpy(find(&t, "flyrecord", 10), "latency  ", 10);
	refused(&t, "latency.dat", "latency-format trace");
	/* session 4: a clock word of brackets only made libtracecmd sscanf(NULL) */
	t = load("analysis-thp-compact.v6.dat");
	memcpy(find(&t, "[local]", 7), "[]     ", 7);	/* the TRACECLOCK option */
	refused(&t, "clockopt.dat", "TRACECLOCK option: the current clock '[...]' has no name");
	t = load("analysis-thp-compact.v6.dat");
	p = find(&t, "[local]", 7) + 7;		/* the text after the CPU table */
	p = memmem(p, t.len - (size_t)(p - t.d), "[local]", 7);
	assert_non_null(p);
	memcpy(p, "[[     ", 7);
	refused(&t, "clocktext.dat", "trace_clock: the current clock '[...]' has no name");
}

/* the offset of the printk section of a v6 file: after the headers and the formats */
static size_t v6_printk(const struct tfile *t)
{
	size_t p = 18, i, j;
	uint64_t len;
	uint32_t n, m;

	for (i = 0; i < 2; i++) {	/* header_page, header_event */
		p += strlen((const char *)t->d + p) + 1;
		memcpy(&len, t->d + p, 8);
		p += 8 + len;
	}
	memcpy(&n, t->d + p, 4);
	for (p += 4, i = 0; i < n; i++, p += 8 + len)
		memcpy(&len, t->d + p, 8);
	memcpy(&n, t->d + p, 4);
	for (p += 4, i = 0; i < n; i++) {
		p += strlen((const char *)t->d + p) + 1;
		memcpy(&m, t->d + p, 4);
		for (p += 4, j = 0; j < m; j++, p += 8 + len)
			memcpy(&len, t->d + p, 8);
	}
	memcpy(&n, t->d + p, 4);	/* kallsyms */
	return p + 4 + n;
}

/* the printk text @text in place of the v6 fixture's (its size kept: empty lines after it) */
static struct tfile with_printk(const char *text)
{
	struct tfile t = load("analysis-thp-compact.v6.dat");
	size_t at = v6_printk(&t), k = strlen(text);
	uint32_t plen;

	memcpy(&plen, t.d + at, 4);
	assert_true(plen > k);
	memcpy(t.d + at + 4, text, k);
	memset(t.d + at + 4 + k, '\n', plen - k);
	return t;
}

/* finding 4: printk lines that libtraceevent strdup()s past or reads before */
static void test_printk(void **state)
{
	struct tfile t;
	struct cb_stalls s;

	(void)state;
	t = with_printk("0xffffffff81000000 : \"good\\n\"\n");
	s = good_file(&t, "printk-good.dat");
	assert_int_equal(s.events, 4133);
	cb_stalls_free(&s);
	t = with_printk("0xffffffff81000000\n");
	refused(&t, "printk-nocolon.dat", "printk format line 1");
	t = with_printk("0x1 :\n");
	refused(&t, "printk-empty.dat", "printk format line 1");
	t = with_printk("0x1 : \"a\n");
	refused(&t, "printk-short.dat", "printk format line 1");
}

/* finding 4: an event format libtraceevent's parser would be handed broken */
static void test_format(void **state)
{
	struct tfile t;

	(void)state;
	t = load("analysis-thp-compact.v6.dat");
	*find(&t, "print fmt: \"zone_start", 22) = 'X';
	refused(&t, "format-nofmt.dat", "event format mm_compaction_begin: field line 10");
	t = load("analysis-thp-compact.v6.dat");
	find(&t, "print fmt: \"zone_start", 22)[11] = '(';
	refused(&t, "format-quote.dat", "unbalanced quotes");
	t = load("analysis-thp-compact.v6.dat");
	*find(&t, "ID: 670", 7) = 'X';
	refused(&t, "format-noid.dat", "no 'ID: N'");
}

/* the first CPU's data of a v7 file: from its first BUFFER option (man 5 trace-cmd.dat.v7) */
static size_t v7_cpu0(const struct tfile *t, size_t *opt)
{
	size_t p = 18, end;
	uint64_t off, size;
	uint32_t osz;
	uint16_t id;

	p += strlen((const char *)t->d + p) + 1;	/* compression name, version */
	p += strlen((const char *)t->d + p) + 1;
	memcpy(&off, t->d + p, 8);
	memcpy(&size, t->d + off + 8, 8);
	for (p = off + 16, end = p + size; p < end; p += 6 + osz) {
		memcpy(&id, t->d + p, 2);
		memcpy(&osz, t->d + p + 2, 4);
		if (!id) {	/* DONE: the next options section */
			memcpy(&off, t->d + p + 6, 8);
			if (!off)
				break;
			memcpy(&size, t->d + off + 8, 8);
			p = off + 16 - 6 - 8;
			osz = 8;
			end = off + 16 + size;
			continue;
		}
		if (id != 3)
			continue;
		*opt = p;
		p += 6 + 8;
		p += strlen((const char *)t->d + p) + 1;
		p += strlen((const char *)t->d + p) + 1;
		memcpy(&off, t->d + p + 8 + 4, 8);
		return off;
	}
	fail_msg("no BUFFER option");
	return 0;
}

/* finding 3: v7 pages, uncompressed and compressed */
static void test_v7(void **state)
{
	struct tfile t;
	size_t cpu0, opt;

	(void)state;
	t = load("fuzz-seeds/small-none.v7.dat");
	put4(t.d + 14, 0);
	refused(&t, "v7-psize0.dat", "page size 0");		/* was SIGFPE */
	t = load("fuzz-seeds/small-none.v7.dat");
	cpu0 = v7_cpu0(&t, &opt);
	put4(t.d + cpu0 + 16, 29);		/* padding of -4: kbuffer loops */
	put4(t.d + cpu0 + 20, (uint32_t)-4);
	refused(&t, "v7-padding.dat", "CPU 0 page 0: padding at data offset 0 does not advance");
	t = load("fuzz-seeds/small-none.v7.dat");
	cpu0 = v7_cpu0(&t, &opt);
	put8(t.d + cpu0 + 8, 4096 - 16 + 1);	/* a commit just past the page */
	refused(&t, "v7-commit.dat", "exceeds the page's 4080 data bytes");
	t = load("fuzz-seeds/small-none.v7.dat");
	cpu0 = v7_cpu0(&t, &opt);
	put8(t.d + cpu0 + 8, (3ULL << 30) | (4096 - 16 - 4));	/* missed count past the page */
	refused(&t, "v7-missed.dat", "missed-events count");
	t = load("fuzz-seeds/small-none.v7.dat");
	cpu0 = v7_cpu0(&t, &opt);
	put8(t.d + opt + 6 + 8 + 1 + 6 + 8 + 4, 0xa7);	/* the BUFFER's CPU 0 offset */
	refused(&t, "v7-offset.dat", "CPU 0 page 0");
	t = load("fuzz-seeds/small-zstd.v7.dat");
	cpu0 = v7_cpu0(&t, &opt);
	put4(t.d + cpu0 + 8, 4096 * 3);	/* chunk 0 says 3 pages: it decompresses to fewer */
	refused(&t, "v7-chunk.dat", "does not decompress to its 12288 bytes");
}

/* finding 5: a reader that hangs is killed by the watchdog, and the message says so */
static void test_watchdog(void **state)
{
	char path[PATH_MAX], err[1024] = "";
	struct cb_stalls s;

	(void)state;
	/* a FIFO nobody writes: the child blocks opening it, as a hung libtracecmd would */
	snprintf(path, sizeof(path), "%s/hang.dat", tmpdir);
	assert_int_equal(mkfifo(path, 0600), 0);
	cb_stalls_reader_limits(1, 0);
	assert_int_equal(cb_stalls_from_trace(path, &s, err, sizeof(err)), -1);
	cb_stalls_reader_limits(0, 0);
	unlink(path);
	if (!strstr(err, "hang.dat") || !strstr(err, "1 s watchdog (analyze --reader-timeout)"))
		fail_msg("watchdog: '%s'", err);
}

/* finding 5: the address-space limit: a reader that needs more is stopped, and says so */
static void test_memory_limit(void **state)
{
	char path[PATH_MAX], err[1024] = "";
	struct cb_stalls s;

	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	skip();		/* no RLIMIT_AS under ASan (stalls.h) */
#endif
	snprintf(path, sizeof(path), "%s/analysis-thp-exhaust.v7.dat", fixtures);
	cb_stalls_reader_limits(0, 8ULL << 20);
	assert_int_equal(cb_stalls_from_trace(path, &s, err, sizeof(err)), -1);
	cb_stalls_reader_limits(0, 0);
	if (!strstr(err, "analysis-thp-exhaust.v7.dat") || !strstr(err, "limit"))
		fail_msg("memory limit: '%s'", err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v6_commit_size),
		cmocka_unit_test(test_endian_byte),
		cmocka_unit_test(test_big_endian),
		cmocka_unit_test(test_recorded_v7),
		cmocka_unit_test(test_v6_options),
		cmocka_unit_test(test_printk),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_v7),
		cmocka_unit_test(test_watchdog),
		cmocka_unit_test(test_memory_limit),
	};
	char cmd[PATH_MAX];
	int ret;

	fixtures = getenv("FIXTURES");
	if (!fixtures || !mkdtemp(tmpdir)) {
		fprintf(stderr, "test_tracecheck: FIXTURES not set or no temporary directory\n");
		return 1;
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "%s", tmpdir);
	rmdir(cmd);
	return ret;
}
