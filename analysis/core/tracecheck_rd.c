// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracecheck_rd.c - the bounded reader of the trace.dat pre-check (tracecheck_int.h): every
 * read is checked against the end of the file or of the decompressed section, and a refusal
 * names the file, the section and the offset.
 */
#include "tracecheck_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

int tc_bad(struct tc_rd *r, uint64_t off, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (r->mem)
		snprintf(r->err, r->errlen, "%s: corrupt trace: %s section (compressed, at file "
			 "offset %llu), offset %llu of its data: %s", r->path,
			 r->sect ? r->sect : "?", (unsigned long long)r->base,
			 (unsigned long long)off, what);
	else
		snprintf(r->err, r->errlen, "%s: corrupt trace at offset %llu (0x%llx)%s%s: %s",
			 r->path, (unsigned long long)off, (unsigned long long)off,
			 r->sect ? ", in the " : "", r->sect ? r->sect : "", what);
	errno = EINVAL;
	return -1;
}

int tc_get(struct tc_rd *r, void *buf, size_t len, const char *what)
{
	ssize_t n;

	if (r->pos > r->size || len > r->size - r->pos)
		return tc_bad(r, r->pos, "%s runs past the end (%zu bytes wanted, %llu left)",
			      what, len, (unsigned long long)(r->size - (r->pos < r->size ?
									   r->pos : r->size)));
	if (r->mem) {
		memcpy(buf, r->mem + r->pos, len);
	} else {
		n = pread(r->fd, buf, len, (off_t)r->pos);
		if (n != (ssize_t)len)
			return tc_bad(r, r->pos, "short read of %s", what);
	}
	r->pos += len;
	return 0;
}

uint32_t tc_num4(const struct tc_rd *r, const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return r->swap ? __builtin_bswap32(v) : v;	/* this code runs on little-endian hosts */
}

uint64_t tc_num8(const struct tc_rd *r, const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return r->swap ? __builtin_bswap64(v) : v;
}

int tc_get2(struct tc_rd *r, uint16_t *v, const char *what)
{
	if (tc_get(r, v, 2, what))
		return -1;
	if (r->swap)
		*v = __builtin_bswap16(*v);
	return 0;
}

int tc_get4(struct tc_rd *r, uint32_t *v, const char *what)
{
	if (tc_get(r, v, 4, what))
		return -1;
	*v = tc_num4(r, v);
	return 0;
}

int tc_get8(struct tc_rd *r, uint64_t *v, const char *what)
{
	if (tc_get(r, v, 8, what))
		return -1;
	*v = tc_num8(r, v);
	return 0;
}

int tc_skip(struct tc_rd *r, uint64_t len, const char *what)
{
	if (r->pos > r->size || len > r->size - r->pos)
		return tc_bad(r, r->pos, "%s (%llu bytes) runs past the end", what,
			      (unsigned long long)len);
	r->pos += len;
	return 0;
}

int tc_get_str(struct tc_rd *r, char *out, size_t max, const char *what)
{
	uint64_t start = r->pos;
	size_t i;
	char c;

	for (i = 0; i < max; i++) {
		if (tc_get(r, &c, 1, what))
			return -1;
		if (out)
			out[i] = c;
		if (!c)
			return 0;
	}
	return tc_bad(r, start, "%s is not a string of at most %zu bytes", what, max - 1);
}

char *tc_get_blob(struct tc_rd *r, uint64_t len, uint64_t max, const char *what)
{
	uint64_t at = r->pos;
	char *b;

	if (len > max) {
		tc_bad(r, at, "%s of %llu bytes is larger than %llu", what,
		       (unsigned long long)len, (unsigned long long)max);
		return NULL;
	}
	if (r->pos > r->size || len > r->size - r->pos) {
		tc_bad(r, at, "%s (%llu bytes) runs past the end", what, (unsigned long long)len);
		return NULL;
	}
	b = malloc(len + 1);
	if (!b) {
		tc_bad(r, at, "out of memory for %s", what);
		return NULL;
	}
	if (tc_get(r, b, len, what)) {
		free(b);
		return NULL;
	}
	b[len] = 0;
	return b;
}

/*
 * libtracecmd decompresses with libzstd's ZSTD_decompressDCtx and zlib's uncompress(); the
 * same calls here, so that a section or chunk it would read is one we checked
 */
int tc_unzip(enum tc_zip zip, const void *in, size_t inlen, void *out, size_t outlen)
{
	uLongf n = outlen;
	size_t z;	/* zstd's result, or zlib's status */

	switch (zip) {
	case TC_ZIP_ZSTD:
		z = ZSTD_decompress(out, outlen, in, inlen);
		if (ZSTD_isError(z) && ZSTD_getErrorCode(z) == ZSTD_error_memory_allocation)
			return -2;
		return ZSTD_isError(z) || z != outlen ? -1 : 0;
	case TC_ZIP_ZLIB:
		z = uncompress(out, &n, in, inlen);
		if (z == (size_t)Z_MEM_ERROR)
			return -2;
		return z != Z_OK || n != outlen ? -1 : 0;
	default:
		return -1;
	}
}
