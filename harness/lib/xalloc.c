// SPDX-License-Identifier: GPL-2.0-only
/*
 * xalloc.c - allocation that cannot fail: out of memory ends the program with a message
 * (the policy is in xalloc.h).
 */
#include "xalloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cb_oom(void)
{
	static const char msg[] = ": out of memory\n";
	const char *prog = program_invocation_short_name;

	/* write(2), not stdio: stdio may need the memory that just ran out */
	if (write(STDERR_FILENO, prog, strlen(prog)) < 0 ||
	    write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		errno = ENOMEM;
	abort();
}

void *cb_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		cb_oom();
	return p;
}

void *cb_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		cb_oom();
	return p;
}

void *cb_xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		cb_oom();
	return p;
}

void *cb_xgrow(void *p, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t ncap;

	if (n < *cap)
		return p;
	ncap = *cap ? *cap * 2 : first ? first : 1;
	if (ncap < *cap || (size && ncap > SIZE_MAX / size))
		cb_oom();
	p = cb_xrealloc(p, ncap * size);
	*cap = ncap;
	return p;
}

char *cb_xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		cb_oom();
	return d;
}

char *cb_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		cb_oom();
	return s;
}

int cb_vfail(char *err, size_t errlen, int e, const char *fmt, va_list ap)
{
	if (err && errlen)
		vsnprintf(err, errlen, fmt, ap);
	errno = e;
	return -1;
}

int cb_fail(char *err, size_t errlen, int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cb_vfail(err, errlen, e, fmt, ap);
	va_end(ap);
	return -1;
}

void cb_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cb_vfail(err, errlen, errno, fmt, ap);
	va_end(ap);
}
