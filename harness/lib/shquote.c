// SPDX-License-Identifier: GPL-2.0-only
/*
 * shquote.c - one shell word from any string (see shquote.h).
 */
#include "shquote.h"
#include "xalloc.h"

#include <stdlib.h>

int cb_sh_quote(FILE *out, const char *s)
{
	if (fputc('\'', out) == EOF)
		return -1;
	for (; *s; s++) {
		if (*s == '\'') {
			if (fputs("'\\''", out) == EOF)
				return -1;
		} else if (fputc(*s, out) == EOF) {
			return -1;
		}
	}
	return fputc('\'', out) == EOF ? -1 : 0;
}

char *cb_sh_quoted(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || cb_sh_quote(f, s) < 0 || fclose(f) != 0)
		cb_oom();
	return buf;
}
