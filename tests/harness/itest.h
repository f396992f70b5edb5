/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * itest.h - helpers of the integration tests: run the compactbench binary, read knobs and
 * tracefs. Header-only: each integration test is one program.
 */
#ifndef CB_ITEST_H
#define CB_ITEST_H

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "testenv.h"
#include "util.h"

#define PROACTIVENESS "/proc/sys/vm/compaction_proactiveness"

/* start `compactbench ARGS...` with stdout and stderr into @log; returns the pid */
static inline pid_t itest_spawn(const char *log, char *const args[])
{
	const char *cb = getenv("COMPACTBENCH");
	char *argv[16];
	pid_t pid;
	int n = 0;

	testenv_require_cb();
	argv[n++] = (char *)cb;
	while (args[n - 1] && n < 15) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	pid = fork();
	if (pid == 0) {
		FILE *f = freopen(log, "w", stdout);

		if (!f)
			_exit(127);
		dup2(1, 2);
		execv(cb, argv);
		_exit(127);
	}
	return pid;
}

/* wait for @pid and return its exit status (128+signal if killed) */
static inline int itest_wait(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* KEY's value in the /proc/vmstat copy @cell/@file (vmstat.before, vmstat.after), or -1 */
static inline long itest_vmstat(const char *cell, const char *file, const char *key)
{
	char path[1400], *text, *p;
	size_t klen = strlen(key);
	long v = -1;

	snprintf(path, sizeof(path), "%s/%s", cell, file);
	text = cb_read_file(path, NULL);
	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, klen) && p[klen] == ' ') {
			v = strtol(p + klen + 1, NULL, 10);
			break;
		}
	}
	free(text);
	return v;
}

static inline long itest_read_long(const char *path)
{
	char buf[64];

	if (cb_read_trimmed(path, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* poll until @path reads @want or @secs pass; returns true if it did */
static inline bool itest_wait_value(const char *path, long want, double secs)
{
	uint64_t end = cb_now_ns() + (uint64_t)(secs * 1e9);

	while (cb_now_ns() < end) {
		if (itest_read_long(path) == want)
			return true;
		usleep(50000);
	}
	return false;
}

/* whether the tracefs instance of the compactbench process @pid exists */
static inline bool itest_instance_of(pid_t pid)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/kernel/tracing/instances/compactbench-%d", (int)pid);
	return access(path, F_OK) == 0;
}

/* whether tracefs is usable here (root, mounted); integration tests skip with 77 if not */
static inline bool itest_can_trace(void)
{
	return geteuid() == 0 && access("/sys/kernel/tracing/instances", W_OK) == 0 &&
	       access(PROACTIVENESS, W_OK) == 0;
}

/* the value at @key (a dotted path, "collector.lost") of the JSON file @path, as text */
static inline const char *itest_json(const char *path, const char *key, char *buf, size_t size)
{
	struct json_object *root = json_object_from_file(path), *o = root;
	char k[256], *save = NULL, *tok;

	snprintf(k, sizeof(k), "%s", key);
	for (tok = strtok_r(k, ".", &save); o && tok; tok = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(o, tok, &o))
			o = NULL;
	snprintf(buf, size, "%s", o ? json_object_get_string(o) : "(missing)");
	json_object_put(root);
	return buf;
}

/*
 * the number at @key of the JSON file @path; a missing or null value fails the test, naming
 * the file and key (needs cmocka.h included before this header)
 */
static inline double itest_json_num(const char *path, const char *key)
{
	char v[64];

	itest_json(path, key, v, sizeof(v));
	if (!strcmp(v, "(missing)") || !strcmp(v, "null"))
		fail_msg("%s: no %s", path, key);
	return strtod(v, NULL);
}

#endif
