/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qtest.h - helpers of the qemu/kernel tests: run compactbench with its output in a file,
 * write small files. Header-only.
 */
#ifndef CB_QTEST_H
#define CB_QTEST_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testenv.h"
#include "util.h"

/* `compactbench ARGS...` with stdout+stderr into @log; its exit status (128+N if killed) */
static inline int qtest_run(const char *log, char *const args[])
{
	const char *cb = getenv("COMPACTBENCH");
	char *argv[16] = { (char *)cb };
	int n = 1, st;
	pid_t pid;

	testenv_require_cb();
	for (; args[n - 1] && n < 15; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(fd, 1);
		dup2(fd, 2);
		execv(cb, argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static inline void qtest_write(const char *path, const char *text, mode_t mode)
{
	if (cb_write_file_atomic(path, text, strlen(text)) < 0 || chmod(path, mode) < 0) {
		perror(path);
		exit(1);
	}
}

/* the whole log, for assertions and for the test's own output; caller frees */
static inline char *qtest_log(const char *log)
{
	char *text = cb_read_file(log, NULL);

	fprintf(stderr, "---- %s\n%s----\n", log, text ? text : "(none)\n");
	return text ? text : strdup("");
}

#endif
