// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_probes - unit tests of the probe module and of the collector's tracefs check, with
 * no root and no kprobes: libtracefs is pointed (tracefs_set_tracing_dir) at a scratch
 * directory whose kprobe_events and dynamic_events are FIFOs read by a thread each (every
 * write at offset 0, as libtracefs does, is kept) or plain files for what is read, so what
 * the module writes there is what it would write to the kernel. (libtracefs 1.6.4 writes
 * kprobes to dynamic_events when the kernel has one, 1.7 and later to kprobe_events: the
 * tests take both.)
 *
 * a) symbols from a kallsyms fixture: exact name first, then .constprop, .isra, .part,
 *    never .cold, data or module symbols; a missing one is an error naming it
 * b) create writes the two kprobe/kretprobe pairs with the documented fetch args in a
 *    "compactbench_<pid>" system; destroy removes all four
 * c) a missing symbol, no kprobe_events, lockdown: NULL, the errno and a message saying why,
 *    nothing written
 * d) stale probes of a dead pid are removed and named; a live pid's and foreign ones stay
 * e) a directory that is not tracefs is refused by the collector with a clear message
 *
 *   test_probes FIXTURES_DIR
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracefs.h>

#include "collector.h"
#include "probes.h"
#include "util.h"

/* the message of the last failing call under test */
static char cberr[1024];

static const char *fixtures;
static char kallsyms[PATH_MAX];
static char scratch[] = "/tmp/cbprobes-XXXXXX";
static char kpe[PATH_MAX + 32], dyn[PATH_MAX + 32], lockdown[PATH_MAX + 32];

static pthread_mutex_t cap_lock = PTHREAD_MUTEX_INITIALIZER;
static char captured[16384];
static size_t caplen;

/* a FIFO's reader: everything written to it goes to captured[] */
static void *fifo_reader(void *arg)
{
	char buf[1024];
	ssize_t n;

	while ((n = read((int)(long)arg, buf, sizeof(buf))) > 0) {
		pthread_mutex_lock(&cap_lock);
		if (caplen + n < sizeof(captured)) {
			memcpy(captured + caplen, buf, n);
			caplen += n;
			captured[caplen] = '\0';
		}
		pthread_mutex_unlock(&cap_lock);
	}
	return NULL;
}

/* @path as a FIFO with a reader thread (left running until the process ends) */
static void make_fifo(const char *path)
{
	pthread_t t;
	int fd;

	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	fd = open(path, O_RDWR | O_CLOEXEC);	/* never EOF, never a blocked writer */
	assert_true(fd >= 0);
	assert_int_equal(pthread_create(&t, NULL, fifo_reader, (void *)(long)fd), 0);
	pthread_detach(t);
}

/* what was written to kprobe_events and dynamic_events since the setup */
static char *read_kpe(void)
{
	char *s;

	usleep(50000);	/* let the readers catch up */
	pthread_mutex_lock(&cap_lock);
	s = strdup(captured);
	pthread_mutex_unlock(&cap_lock);
	assert_non_null(s);
	return s;
}

static void put(const char *path, const char *text)
{
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

static int setup_fifo(void **state)
{
	make_fifo(kpe);
	make_fifo(dyn);
	usleep(50000);
	pthread_mutex_lock(&cap_lock);
	caplen = 0;
	captured[0] = '\0';
	pthread_mutex_unlock(&cap_lock);
	put(lockdown, "[none] integrity confidentiality");
	return tracefs_set_tracing_dir(scratch);
}

static int setup(void **state)
{
	put(kpe, "");
	put(dyn, "");
	put(lockdown, "[none] integrity confidentiality");
	return tracefs_set_tracing_dir(scratch);
}

static void test_resolve(void **state)
{
	char sym[256];

	assert_int_equal(cb_probes_resolve(kallsyms, "__alloc_pages_slowpath", sym, sizeof(sym),
					   cberr, sizeof(cberr)), 0);
	assert_string_equal(sym, "__alloc_pages_slowpath.constprop.0");
	assert_int_equal(cb_probes_resolve(kallsyms, "__alloc_pages_direct_compact", sym,
					   sizeof(sym), cberr, sizeof(cberr)), 0);
	assert_string_equal(sym, "__alloc_pages_direct_compact");
	assert_int_equal(cb_probes_resolve(kallsyms, "exact_wins", sym, sizeof(sym),
					   cberr, sizeof(cberr)), 0);
	assert_string_equal(sym, "exact_wins");
	assert_int_equal(cb_probes_resolve(kallsyms, "only_isra", sym, sizeof(sym),
					   cberr, sizeof(cberr)), 0);
	assert_string_equal(sym, "only_isra.isra.0");
	assert_int_equal(cb_probes_resolve(kallsyms, "only_part", sym, sizeof(sym),
					   cberr, sizeof(cberr)), 0);
	assert_string_equal(sym, "only_part.part.0");
	/* a data symbol, a prefix of a longer name: not a match */
	assert_int_equal(cb_probes_resolve(kallsyms, "__alloc_pages", sym, sizeof(sym),
					   cberr, sizeof(cberr)), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(cb_probes_resolve(kallsyms, "cb_no_such_function", sym, sizeof(sym),
					   cberr, sizeof(cberr)), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(cberr, "cb_no_such_function"));
	assert_non_null(strstr(cberr, kallsyms));
	assert_int_equal(cb_probes_resolve("/nonexistent/kallsyms", "x", sym, sizeof(sym),
					   cberr, sizeof(cberr)), -1);
	assert_non_null(strstr(cberr, "/nonexistent/kallsyms"));
}

static void test_create_destroy(void **state)
{
	struct cb_probes_opts o = { .kallsyms_path = kallsyms, .lockdown_path = lockdown };
	const char *const *ev;
	struct cb_probes *p;
	char want[512], sys[64];
	char *s;
	int n;

	snprintf(sys, sizeof(sys), "compactbench_%d", (int)getpid());
	p = cb_probes_create(&o, cberr, sizeof(cberr));
	if (!p)
		print_message("%s\n", cberr);
	assert_non_null(p);
	ev = cb_probes_events(p);
	for (n = 0; ev[n]; n++)
		assert_true(!strncmp(ev[n], sys, strlen(sys)) && ev[n][strlen(sys)] == ':');
	assert_int_equal(n, 4);
	snprintf(want, sizeof(want), "%s:alloc_slowpath", sys);
	assert_string_equal(ev[0], want);
	snprintf(want, sizeof(want), "%s:direct_compact_ret", sys);
	assert_string_equal(ev[3], want);
	assert_string_equal(cb_probes_describe(p), "alloc_slowpath=__alloc_pages_slowpath.constprop.0 "
			    "direct_compact=__alloc_pages_direct_compact");
	s = read_kpe();
#if defined(__x86_64__)
	snprintf(want, sizeof(want), "p:%s/alloc_slowpath __alloc_pages_slowpath.constprop.0 "
		 "gfp=%%di:x32 order=%%si:u32\n", sys);
	assert_non_null(strstr(s, want));
	snprintf(want, sizeof(want), "p:%s/direct_compact __alloc_pages_direct_compact "
		 "gfp=%%di:x32 order=%%si:u32 prio=%%r8:s32\n", sys);
	assert_non_null(strstr(s, want));
#endif
	snprintf(want, sizeof(want), "r:%s/alloc_slowpath_ret __alloc_pages_slowpath.constprop.0 "
		 "ret=$retval:x64\n", sys);
	assert_non_null(strstr(s, want));
	free(s);
	assert_int_equal(cb_probes_destroy(p, cberr, sizeof(cberr)), 0);
	s = read_kpe();
	snprintf(want, sizeof(want), "-:%s/alloc_slowpath", sys);
	assert_non_null(strstr(s, want));
	snprintf(want, sizeof(want), "-:%s/direct_compact_ret", sys);
	assert_non_null(strstr(s, want));
	free(s);
}

static void test_cannot(void **state)
{
	struct cb_probes_opts o = { .kallsyms_path = kallsyms, .lockdown_path = lockdown,
				    .slowpath_symbol = "cb_no_such_function" };
	char *s;

	/* a symbol that does not exist: named, nothing written */
	assert_null(cb_probes_create(&o, cberr, sizeof(cberr)));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(cberr, "symbol cb_no_such_function is not in"));
	s = read_kpe();
	assert_string_equal(s, "");
	free(s);
	/* lockdown */
	o.slowpath_symbol = NULL;
	put(lockdown, "none integrity [confidentiality]");
	assert_null(cb_probes_create(&o, cberr, sizeof(cberr)));
	assert_int_equal(errno, EPERM);
	assert_non_null(strstr(cberr, "lockdown"));
	/* no kprobe events in the kernel */
	assert_int_equal(unlink(kpe), 0);
	assert_null(cb_probes_create(&o, cberr, sizeof(cberr)));
	assert_int_equal(errno, ENOTSUP);
	assert_non_null(strstr(cberr, "no kprobe events"));
	assert_int_equal(cb_probes_cleanup_stale(NULL), 0);
}

static char logged[2048];

static void log_cb(const char *msg)
{
	snprintf(logged + strlen(logged), sizeof(logged) - strlen(logged), "%s\n", msg);
}

static void test_stale(void **state)
{
	char lines[1024], want[256];
	pid_t dead = fork();
	char *s, *t;

	assert_true(dead >= 0);
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	snprintf(lines, sizeof(lines),
		 "p:compactbench_%d/alloc_slowpath __alloc_pages_slowpath gfp=%%di:x32\n"
		 "r:compactbench_%d/alloc_slowpath_ret __alloc_pages_slowpath ret=$retval:x64\n"
		 "p:compactbench_%d/alloc_slowpath __alloc_pages_slowpath gfp=%%di:x32\n"
		 "p:kprobes/someone_elses do_exit\n", (int)dead, (int)dead, (int)getppid());
	put(kpe, lines);
	put(dyn, lines);
	logged[0] = '\0';
	assert_int_equal(cb_probes_cleanup_stale(log_cb), 2);
	snprintf(want, sizeof(want), "removed stale kprobe compactbench_%d:alloc_slowpath (pid",
		 (int)dead);
	assert_non_null(strstr(logged, want));
	snprintf(want, sizeof(want), "removed stale kprobe compactbench_%d:alloc_slowpath_ret",
		 (int)dead);
	assert_non_null(strstr(logged, want));
	snprintf(want, sizeof(want), "compactbench_%d:", (int)getppid());
	assert_null(strstr(logged, want));
	assert_null(strstr(logged, "kprobes:"));
	/* the files are plain here: each removal wrote "-:system/event" at offset 0 */
	s = read_kpe();
	free(s);
	s = cb_read_file(kpe, NULL);
	t = cb_read_file(dyn, NULL);
	snprintf(want, sizeof(want), "-:compactbench_%d/alloc_slowpath_ret", (int)dead);
	assert_true(!strncmp(s, want, strlen(want)) || !strncmp(t, want, strlen(want)));
	free(s);
	free(t);
}

/* tracefs not mounted where the collector is pointed: a clear error, nothing made */
static void test_not_tracefs(void **state)
{
	struct cb_collector_opts o = { .spool_dir = scratch, .tracing_dir = scratch };

	assert_int_equal(cb_collector_set_tracing_dir(scratch, cberr, sizeof(cberr)), -1);
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(cberr, "is not a tracefs mount"));
	assert_non_null(strstr(cberr, scratch));
	assert_null(cb_collector_start(&o, cberr, sizeof(cberr)));
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(cberr, "tracefs is not mounted there"));
	o.tracing_dir = "/nonexistent/tracing";
	assert_null(cb_collector_start(&o, cberr, sizeof(cberr)));
	assert_non_null(strstr(cberr, "/nonexistent/tracing"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_resolve, setup),
		cmocka_unit_test_setup(test_create_destroy, setup_fifo),
		cmocka_unit_test_setup(test_cannot, setup_fifo),
		cmocka_unit_test_setup(test_stale, setup),
		cmocka_unit_test_setup(test_not_tracefs, setup),
	};
	int ret;

	if (argc < 2) {
		fprintf(stderr, "usage: test_probes FIXTURES_DIR\n");
		return 2;
	}
	fixtures = argv[1];
	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", fixtures);
	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(kpe, sizeof(kpe), "%s/kprobe_events", scratch);
	snprintf(dyn, sizeof(dyn), "%s/dynamic_events", scratch);
	snprintf(lockdown, sizeof(lockdown), "%s/lockdown", scratch);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	cb_rm_rf(scratch);
	return ret;
}
