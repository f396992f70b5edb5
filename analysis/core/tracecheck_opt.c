// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracecheck_opt.c - the options of a trace.dat (man 5 trace-cmd.dat.v7, "OPTIONS"), each
 * checked by its id and size before libtracecmd's handle_options() sees it: that function
 * trusts both (it writes buf[size - 1] for CPUSTAT, reads an int from a CPUCOUNT of any
 * size, strdup()s strings that need not end, sizes arrays from counts in the data).
 */
#include "tracecheck_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	O_DONE, O_DATE, O_CPUSTAT, O_BUFFER, O_TRACECLOCK, O_UNAME, O_HOOK, O_OFFSET,
	O_CPUCOUNT, O_VERSION, O_PROCMAPS, O_TRACEID, O_TIME_SHIFT, O_GUEST, O_TSC2NSEC,
	O_HEADER_INFO = 16, O_CMDLINES = 21, O_BUFFER_TEXT = 22,
};

void tc_opts_free(struct tc_opts *o)
{
	int i;

	for (i = 0; i < o->nbuf; i++) {
		free(o->buf[i].cpu);
		free(o->buf[i].off);
		free(o->buf[i].size);
	}
	o->nbuf = 0;
}

/* a NUL within the @size bytes at @p+@at: returns the offset after it, or -1 */
static long str_end(const unsigned char *p, uint32_t size, uint32_t at)
{
	const unsigned char *z = at < size ? memchr(p + at, 0, size - at) : NULL;

	return z ? z - p + 1 : -1;
}

/* BUFFER: offset, name, (v7:) clock, page size, CPU count, then CPU id, offset, size each */
static int buffer(struct tc_rd *r, struct tc_opts *o, const unsigned char *p, uint32_t size,
		  uint64_t at, int text)
{
	struct tc_buffer *b;
	long pos;
	uint32_t i, j;

	if (size < 8 || (pos = str_end(p, size, 8)) < 0)
		return tc_bad(r, at, "BUFFER option: no offset and name");
	if (r->version < 7)
		return 0;
	if ((pos = str_end(p, size, pos)) < 0)
		return tc_bad(r, at, "BUFFER option: no clock name");
	if (text)
		return 0;
	if (o->nbuf >= TC_MAX_BUFFERS)
		return tc_bad(r, at, "more than %d BUFFER options", TC_MAX_BUFFERS);
	b = &o->buf[o->nbuf];
	memset(b, 0, sizeof(*b));
	b->section = tc_num8(r, p);
	b->top = !p[8];
	if (size - pos < 8)
		return tc_bad(r, at, "BUFFER option: no page size and CPU count");
	if (tc_num4(r, p + pos) != r->psize)
		return tc_bad(r, at, "BUFFER option: page size %u is not the file's %u",
			      tc_num4(r, p + pos), r->psize);
	b->cpus = tc_num4(r, p + pos + 4);
	pos += 8;
	if (b->cpus > TC_MAX_CPUS || (uint64_t)b->cpus * 20 != (uint64_t)(size - pos))
		return tc_bad(r, at, "BUFFER option: %u CPUs in %u bytes", b->cpus, size);
	b->cpu = calloc(b->cpus + 1, sizeof(*b->cpu));
	b->off = calloc(b->cpus + 1, sizeof(*b->off));
	b->size = calloc(b->cpus + 1, sizeof(*b->size));
	o->nbuf++;
	if (!b->cpu || !b->off || !b->size)
		return tc_bad(r, at, "out of memory");
	for (i = 0; i < b->cpus; i++, pos += 20) {
		b->cpu[i] = tc_num4(r, p + pos);
		b->off[i] = tc_num8(r, p + pos + 4);
		b->size[i] = tc_num8(r, p + pos + 12);
		if (b->cpu[i] >= TC_MAX_CPUS)
			return tc_bad(r, at, "BUFFER option: CPU id %u", b->cpu[i]);
		for (j = 0; j < i; j++)
			if (b->cpu[j] == b->cpu[i])
				return tc_bad(r, at, "BUFFER option: CPU %u twice", b->cpu[i]);
	}
	return 0;
}

/* TIME_SHIFT: peer id, flags, CPU count, per CPU a count and 3 arrays, maybe fractions */
static int time_shift(struct tc_rd *r, const unsigned char *p, uint32_t size, uint64_t at)
{
	uint64_t pos = 16, need;
	uint32_t cpus, i, n, total = 0;

	if (size < 16)
		return 0;	/* libtracecmd ignores it */
	cpus = tc_num4(r, p + 12);
	if (cpus > TC_MAX_CPUS)
		return tc_bad(r, at, "TIME_SHIFT option: %u CPUs", cpus);
	for (i = 0; i < cpus; i++) {
		if (pos + 4 > size)
			return tc_bad(r, at, "TIME_SHIFT option: CPU %u past its end", i);
		n = tc_num4(r, p + pos);
		need = 4 + 24ULL * n;
		if (n > size || pos + need > size)
			return tc_bad(r, at, "TIME_SHIFT option: %u samples past its end", n);
		pos += need;
		total += n;
	}
	if (pos != size && pos + 8ULL * total != size)
		return tc_bad(r, at, "TIME_SHIFT option: %u bytes, not what its counts say", size);
	return 0;
}

/* GUEST: name, trace id, CPU count, then CPU id and host pid each (ids below the count) */
static int guest(struct tc_rd *r, const unsigned char *p, uint32_t size, uint64_t at)
{
	long pos = str_end(p, size, 0);
	uint32_t n, i;

	if (pos < 0 || size - pos < 12)
		return tc_bad(r, at, "GUEST option: no name, trace id and CPU count");
	n = tc_num4(r, p + pos + 8);
	pos += 12;
	if (n > TC_MAX_CPUS || (uint64_t)n * 8 > (uint64_t)(size - pos))
		return tc_bad(r, at, "GUEST option: %u CPUs in %u bytes", n, size);
	for (i = 0; i < n; i++)
		if (tc_num4(r, p + pos + 8 * i) >= n)
			return tc_bad(r, at, "GUEST option: CPU id %u of %u",
				      tc_num4(r, p + pos + 8 * i), n);
	return 0;
}

/* PROCMAPS (read only when it ends in a NUL): "PID COUNT NAME" then COUNT lines */
static int procmaps(struct tc_rd *r, const unsigned char *p, uint32_t size, uint64_t at)
{
	unsigned int pid, n, lines = 0;
	uint32_t i;

	if (!size || p[size - 1])
		return 0;
	for (i = 0; i < size; i++)
		lines += p[i] == '\n';
	if (sscanf((const char *)p, "%x %x", &pid, &n) == 2 && n > lines)
		return tc_bad(r, at, "PROCMAPS option: %u maps in %u lines", n, lines);
	return 0;
}

static int string_opt(struct tc_rd *r, const unsigned char *p, uint32_t size, uint64_t at,
		      const char *name)
{
	if (str_end(p, size, 0) < 0)
		return tc_bad(r, at, "%s option of %u bytes is not a string", name, size);
	return 0;
}

/*
 * libtracecmd's tracecmd_parse_trace_clock() takes the first space-separated word of a
 * trace_clock text that begins with '[' and sscanf()s what strtok_r(word, "[]") returns:
 * NULL, and a crash, when the word is nothing but brackets (a fuzzer find: "[]").
 */
int tc_clock_text(struct tc_rd *r, const char *t, size_t len, uint64_t at, const char *what)
{
	size_t i = 0, s;

	while (i < len && t[i]) {
		while (i < len && t[i] == ' ')
			i++;
		for (s = i; i < len && t[i] && t[i] != ' '; i++)
			;
		if (s == i || t[s] != '[')
			continue;
		for (size_t j = s; j < i; j++)
			if (t[j] != '[' && t[j] != ']')
				return 0;
		return tc_bad(r, at, "%s: the current clock '[...]' has no name", what);
	}
	return 0;
}

int tc_option(struct tc_rd *r, struct tc_opts *o, uint16_t id, const unsigned char *p,
	      uint32_t size, uint64_t at)
{
	switch (id) {
	case O_DONE:
		if (size != 8)
			return tc_bad(r, at, "DONE option of %u bytes (not 8)", size);
		o->next = tc_num8(r, p);
		o->done = 1;
		return 0;
	case O_DATE:
		return string_opt(r, p, size, at, "DATE");
	case O_OFFSET:
		return string_opt(r, p, size, at, "OFFSET");
	case O_TRACECLOCK:
		return string_opt(r, p, size, at, "TRACECLOCK") ||
		       tc_clock_text(r, (const char *)p, size, at, "TRACECLOCK option");
	case O_UNAME:
		return string_opt(r, p, size, at, "UNAME");
	case O_VERSION:
		return string_opt(r, p, size, at, "VERSION");
	case O_CPUSTAT:
		return size ? 0 : tc_bad(r, at, "empty CPUSTAT option");
	case O_BUFFER:
	case O_BUFFER_TEXT:
		return buffer(r, o, p, size, at, id == O_BUFFER_TEXT);
	case O_HOOK:
		/* libtracecmd 3.1.6 keeps a pointer to the option after freeing it */
		return tc_bad(r, at, "HOOK option (trace-cmd record -H) is not supported");
	case O_CPUCOUNT:
		if (size != 4 || tc_num4(r, p) > TC_MAX_CPUS)
			return tc_bad(r, at, "CPUCOUNT option of %u bytes or over %d CPUs", size,
				      TC_MAX_CPUS);
		if (r->version < 7 && tc_num4(r, p) != r->cpus)
			return tc_bad(r, at, "CPUCOUNT option says %u CPUs, the header %u",
				      tc_num4(r, p), r->cpus);
		o->cpucount = tc_num4(r, p);
		return 0;
	case O_PROCMAPS:
		return procmaps(r, p, size, at);
	case O_TIME_SHIFT:
		return time_shift(r, p, size, at);
	case O_GUEST:
		return guest(r, p, size, at);
	case O_TSC2NSEC:
		if (size >= 16 && tc_num4(r, p + 4) >= 64)
			return tc_bad(r, at, "TSC2NSEC option: shift %u", tc_num4(r, p + 4));
		return 0;
	default:
		if (id >= O_HEADER_INFO && id <= O_CMDLINES) {
			if (r->version < 7)
				return tc_bad(r, at, "section option %u in a version 6 file", id);
			if (size < 8)
				return 0;	/* libtracecmd ignores it */
			o->sect[id - O_HEADER_INFO] = tc_num8(r, p);
		}
		return 0;	/* TRACEID and unknown ids: libtracecmd reads no further */
	}
}
