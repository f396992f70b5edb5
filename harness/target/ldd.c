// SPDX-License-Identifier: GPL-2.0-only
/*
 * ldd.c - the shared libraries of a program, from /usr/bin/ldd. See ldd.h.
 */
#include "kernel_build.h"
#include "ldd.h"

#include <string.h>

int cb_ldd_parse(char *text, cb_ldd_fn fn, void *arg)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *path = strstr(line, "=> "), *end;
		int rc;

		path = path ? path + 3 : line + strspn(line, " \t");
		if (*path != '/')
			continue; /* linux-vdso.so.1 has no file */
		end = strchr(path, ' ');
		if (end)
			*end = '\0';
		rc = fn(path, arg);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int cb_ldd_libs(const char *elf, cb_ldd_fn fn, void *arg)
{
	char *argv[] = { "ldd", (char *)elf, NULL }, out[8192];

	if (cb_exec_capture(argv, out, sizeof(out)) != 0)
		return 0; /* a static program: "not a dynamic executable", exit 1 */
	return cb_ldd_parse(out, fn, arg);
}
