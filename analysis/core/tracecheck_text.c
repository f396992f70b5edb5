// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracecheck_text.c - the metadata sections of a trace.dat (man 5 trace-cmd.dat.v6, .v7),
 * checked before libtracecmd hands them to libtraceevent: the header_page (whose commit size
 * and data offset kbuffer will use), the event formats, the printk formats, kallsyms and the
 * saved command lines. Each check mirrors what the library does with the text and refuses
 * what would make it read outside its buffer, loop, or size the ring-buffer pages
 * differently from what tracecheck.c checks them with.
 */
#include "tracecheck_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HEADER 65536		/* header_page, header_event */
#define MAX_FORMAT (1U << 20)		/* one event format */
#define MAX_KALLSYMS (256U << 20)

/* one "field: TYPE NAME; offset:N; size:N; ..." line: its name, offset and size */
static int field_line(const char *line, char *name, size_t namelen, int *off, int *size)
{
	const char *semi, *p, *end;

	while (*line == ' ' || *line == '\t')
		line++;
	if (strncmp(line, "field:", 6))
		return -1;
	semi = strchr(line, ';');
	if (!semi)
		return -1;
	end = semi;
	while (end > line && end[-1] == ' ')
		end--;
	if (end > line && end[-1] == ']') {	/* an array: "caller[8]" */
		while (end > line && end[-1] != '[')
			end--;
		if (end > line)
			end--;
	}
	for (p = end; p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_'); p--)
		;
	if (p == end || (size_t)(end - p) >= namelen)
		return -1;
	memcpy(name, p, end - p);
	name[end - p] = 0;
	if (sscanf(semi + 1, " offset:%d; size:%d;", off, size) != 2 || *off < 0 || *size < 0)
		return -1;
	return 0;
}

/*
 * the header_page text: timestamp (offset 0, 8 bytes), commit (offset 8, 4 or 8 bytes: the
 * size kbuffer reads the commit word with), data right after the commit. libtraceevent
 * takes any number for the commit size and libtracecmd then reads pages with a 4-byte
 * commit for any value but 8: only the two real layouts are accepted here.
 */
static int header_page(struct tc_rd *r, const char *text, uint64_t at)
{
	int ts_off = -1, ts_size = -1, c_off = -1, c_size = -1, d_off = -1, d_size = -1;
	char *copy = strdup(text), *line, *save = NULL, name[64];
	int off, size, ret = 0;

	if (!copy)
		return tc_bad(r, at, "out of memory");
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (field_line(line, name, sizeof(name), &off, &size)) {
			ret = tc_bad(r, at, "header_page line '%.60s' is not 'field: TYPE NAME; "
				     "offset:N; size:N;'", line);
			break;
		}
		if (!strcmp(name, "timestamp"))
			ts_off = off, ts_size = size;
		else if (!strcmp(name, "commit"))
			c_off = off, c_size = size;
		else if (!strcmp(name, "data"))
			d_off = off, d_size = size;
	}
	free(copy);
	if (ret)
		return ret;
	if (ts_off != 0 || ts_size != 8)
		return tc_bad(r, at, "header_page: the timestamp is not 8 bytes at offset 0");
	if (c_off != 8 || (c_size != 4 && c_size != 8))
		return tc_bad(r, at, "header_page: the commit field (offset %d, size %d) is not 4 "
			      "or 8 bytes at offset 8", c_off, c_size);
	if (d_off != 8 + c_size || d_size < 0)
		return tc_bad(r, at, "header_page: the data offset %d is not right after the "
			      "%d-byte commit", d_off, c_size);
	r->csize = c_size;
	return 0;
}

int tc_header_info(struct tc_rd *r)
{
	char label[13];
	uint64_t len, at;
	char *text;
	int ret;

	if (tc_get(r, label, 12, "header_page label") || memcmp(label, "header_page", 12))
		return tc_bad(r, r->pos, "no header_page section");
	if (tc_get8(r, &len, "header_page size"))
		return -1;
	if (!len)
		return tc_bad(r, r->pos - 8, "empty header_page (a pre-2.6.31 ring buffer: not "
			      "supported)");
	at = r->pos;
	text = tc_get_blob(r, len, MAX_HEADER, "header_page");
	if (!text)
		return -1;
	if (strlen(text) != len)
		ret = tc_bad(r, at, "header_page holds a NUL byte");
	else
		ret = header_page(r, text, at);
	if (ret) {
		free(text);
		return -1;
	}
	if (tc_keep_text(r, TC_TEXT_HEADER, NULL, text, len, at))
		return -1;
	if (tc_get(r, label, 13, "header_event label") || memcmp(label, "header_event", 13))
		return tc_bad(r, r->pos, "no header_event section");
	if (tc_get8(r, &len, "header_event size"))
		return -1;
	if (len > MAX_HEADER)
		return tc_bad(r, r->pos - 8, "header_event of %llu bytes", (unsigned long long)len);
	r->header_seen = 1;
	return tc_skip(r, len, "header_event");
}

static int ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * a '.' outside a string: member access (identifier, ')' or ']' before it, an identifier
 * after) or a decimal point. libtraceevent 1.7 dereferences NULL parsing '"x". f(...)'.
 */
static int dot_ok(const char *start, const char *p)
{
	const char *b = p;

	while (b > start && b[-1] == ' ')
		b--;
	if (b == start || !(ident(b[-1]) || b[-1] == ')' || b[-1] == ']'))
		return 0;
	return ident(p[1]) && (!isdigit((unsigned char)p[1]) || isdigit((unsigned char)b[-1]));
}

/*
 * the print fmt (to the end of the format: a string may hold a newline): string and
 * character literals closed, parentheses balanced outside them, no stray '.', no control
 * bytes but tab and newline
 */
static int print_fmt(const char *p)
{
	const char *start = p;
	int depth = 0;
	char quote = 0;

	for (; *p; p++) {
		if ((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n')
			return -1;
		if (quote) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == quote)
				quote = 0;
			continue;
		}
		if (*p == '"' || *p == '\'')
			quote = *p;
		else if (*p == '.' && !dot_ok(start, p))
			return -1;
		else if (*p == '(' && ++depth > 64)
			return -1;
		else if (*p == ')' && --depth < 0)
			return -1;
	}
	return quote || depth ? -1 : 0;
}

int tc_format_text(struct tc_rd *r, const char *text, size_t len, uint64_t off)
{
	const char *p = text, *nl, *pf;
	char name[128];
	int fo, fs, nfields = 0;
	unsigned int id;

	if (strlen(text) != len)
		return tc_bad(r, off, "event format holds a NUL byte");
	if (sscanf(p, "name: %127s", name) != 1 || !(nl = strchr(p, '\n')))
		return tc_bad(r, off, "event format does not start with 'name: '");
	p = nl + 1;
	if (sscanf(p, "ID: %u", &id) != 1 || id > 65535 || !(nl = strchr(p, '\n')))
		return tc_bad(r, off, "event format %s: no 'ID: N' (0-65535) line", name);
	p = nl + 1;
	if (strncmp(p, "format:\n", 8))
		return tc_bad(r, off, "event format %s: no 'format:' line", name);
	for (p += 8; *p && strncmp(p, "print fmt: ", 11); p = nl + 1) {
		char fname[128];

		nl = strchr(p, '\n');
		if (!nl)
			return tc_bad(r, off, "event format %s: no 'print fmt: ' line", name);
		if (nl == p)
			continue;
		if (field_line(p, fname, sizeof(fname), &fo, &fs) || fo > 65535 || fs > 65535)
			return tc_bad(r, off, "event format %s: field line %d is not 'field:TYPE "
				      "NAME; offset:N; size:N;' with offset and size below 64 KiB",
				      name, nfields + 1);
		nfields++;
	}
	pf = p + 11;
	if (!*p || print_fmt(pf))
		return tc_bad(r, off, "event format %s: the print fmt is missing, has unbalanced "
			      "quotes or parentheses, a stray '.', or control bytes", name);
	return 0;
}

/* @n formats of system @sys, each 8-byte size and text */
static int formats(struct tc_rd *r, uint32_t n, const char *sys, const char *what)
{
	uint32_t i;

	if (n > TC_MAX_COUNT)
		return tc_bad(r, r->pos - 4, "%u %s", n, what);
	for (i = 0; i < n; i++) {
		uint64_t len, at;
		char *text;
		int ret;

		if (tc_get8(r, &len, "event format size"))
			return -1;
		at = r->pos;
		text = tc_get_blob(r, len, MAX_FORMAT, "event format");
		if (!text)
			return -1;
		ret = tc_format_text(r, text, len, at);
		if (ret) {
			free(text);
			return -1;
		}
		if (tc_keep_text(r, TC_TEXT_FORMAT, sys, text, len, at))
			return -1;
	}
	return 0;
}

int tc_ftrace_formats(struct tc_rd *r)
{
	uint32_t n;

	return tc_get4(r, &n, "ftrace format count") || formats(r, n, "ftrace", "ftrace formats");
}

int tc_event_formats(struct tc_rd *r)
{
	uint32_t n, m, i;
	char sys[256];

	if (tc_get4(r, &n, "event system count"))
		return -1;
	if (n > TC_MAX_COUNT)
		return tc_bad(r, r->pos - 4, "%u event systems", n);
	for (i = 0; i < n; i++) {
		if (tc_get_str(r, sys, sizeof(sys), "event system name") ||
		    tc_get4(r, &m, "event format count") || formats(r, m, sys, "event formats"))
			return -1;
	}
	return 0;
}

int tc_kallsyms(struct tc_rd *r)
{
	uint32_t n;
	uint64_t at;
	char *text;

	if (tc_get4(r, &n, "kallsyms size"))
		return -1;
	if (!n)
		return 0;	/* libtracecmd parses nothing */
	at = r->pos;
	text = tc_get_blob(r, n, MAX_KALLSYMS, "kallsyms");
	return text ? tc_keep_text(r, TC_TEXT_KALLSYMS, NULL, text, n, at) : -1;
}

/*
 * tep_parse_printk_formats() splits each line at its first ':' and copies from two bytes
 * on; tep_register_print_string() then looks two bytes before the end of what is left:
 * each line must be "ADDR : FMT" with at least 3 bytes of FMT (after a leading quote)
 */
static int printk_line(const char *line)
{
	const char *colon, *fmt;

	if (*line == ':')
		return -1;
	colon = strchr(line, ':');
	if (!colon || !colon[1])
		return -1;
	fmt = colon + 2;
	if (*fmt == '"')
		fmt++;
	return strlen(fmt) >= 3 ? 0 : -1;
}

int tc_printk(struct tc_rd *r)
{
	char *text, *line, *save = NULL;
	uint32_t n;
	uint64_t at;
	int nr = 0, ret = 0;

	if (tc_get4(r, &n, "printk formats size"))
		return -1;
	at = r->pos;
	text = tc_get_blob(r, n, TC_MAX_TEXT, "printk formats");
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		nr++;
		if (printk_line(line)) {
			ret = tc_bad(r, at, "printk format line %d ('%.40s') is not 'ADDR : \"FMT\"'",
				     nr, line);
			break;
		}
	}
	if (ret || !n) {
		free(text);
		return ret;
	}
	/* the lines were cut by strtok_r: keep the text as the file has it */
	free(text);
	r->pos = at;
	text = tc_get_blob(r, n, TC_MAX_TEXT, "printk formats");
	return text ? tc_keep_text(r, TC_TEXT_PRINTK, NULL, text, n, at) : -1;
}

int tc_cmdlines(struct tc_rd *r)
{
	uint64_t n, at;
	char *text;

	if (tc_get8(r, &n, "saved cmdlines size"))
		return -1;
	at = r->pos;
	text = tc_get_blob(r, n, TC_MAX_TEXT, "saved cmdlines");
	return text ? tc_keep_text(r, TC_TEXT_CMDLINES, NULL, text, n, at) : -1;
}
