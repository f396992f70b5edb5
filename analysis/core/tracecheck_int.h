/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracecheck_int.h - the pieces of the trace.dat pre-check (tracecheck.h) shared by its
 * files: a bounded reader over the file or over a decompressed section, the section and
 * option checks, the v7 walk. Not for use outside tracecheck*.c.
 */
#ifndef CB_TRACECHECK_INT_H
#define CB_TRACECHECK_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracecheck.h"

#define TC_MAX_CPUS 8192		/* CPUs a file may describe */
#define TC_MAX_TEXT (16U << 20)		/* one format, printk, kallsyms or cmdlines text */
#define TC_MAX_COUNT 100000		/* event systems, formats in one system */
#define TC_MAX_SECTION (256U << 20)	/* one decompressed metadata section */
#define TC_MAX_CHUNK (64U << 20)	/* one decompressed chunk of CPU data */

enum tc_zip { TC_ZIP_NONE, TC_ZIP_ZSTD, TC_ZIP_ZLIB };

/*
 * a bounded reader: over the file (@mem NULL) or over a decompressed section (@mem, whose
 * byte 0 was at file offset @base's section); @what names the section for messages
 */
struct tc_rd {
	int fd;
	const unsigned char *mem;
	uint64_t size, pos, base;
	bool swap;			/* the file is big-endian (this host is little) */
	int version;
	enum tc_zip zip;
	int long_size, csize;		/* the header's long size; the page commit size */
	unsigned int psize;
	int header_seen;
	uint32_t cpus;			/* v6 header CPU count */
	const char *path, *sect;
	char *err;
	size_t errlen;
	struct cb_tracecheck *info;
	struct tc_texts *texts;		/* what libtraceevent will parse (tracecheck_trial.c) */
};

enum { TC_TEXT_HEADER, TC_TEXT_FORMAT, TC_TEXT_PRINTK, TC_TEXT_KALLSYMS, TC_TEXT_CMDLINES };

struct tc_texts;
struct tc_texts *tc_texts_new(void);
void tc_texts_free(struct tc_texts *t);
/* keep @text (malloc'ed, @len bytes and a NUL; taken over) of @kind for the trial */
int tc_keep_text(struct tc_rd *r, int kind, const char *sys, char *text, size_t len,
		 uint64_t at);
/* parse the kept texts with libtraceevent in a child: -1 if that crashes or hangs */
int tc_trial(struct tc_rd *r);

int tc_bad(struct tc_rd *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int tc_get(struct tc_rd *r, void *buf, size_t len, const char *what);
int tc_get2(struct tc_rd *r, uint16_t *v, const char *what);
int tc_get4(struct tc_rd *r, uint32_t *v, const char *what);
int tc_get8(struct tc_rd *r, uint64_t *v, const char *what);
int tc_skip(struct tc_rd *r, uint64_t len, const char *what);
int tc_get_str(struct tc_rd *r, char *out, size_t max, const char *what);
/* @len bytes at the reader's position into a new NUL-terminated buffer (free() it) */
char *tc_get_blob(struct tc_rd *r, uint64_t len, uint64_t max, const char *what);
uint32_t tc_num4(const struct tc_rd *r, const void *p);
uint64_t tc_num8(const struct tc_rd *r, const void *p);
/*
 * decompress @in (@inlen) into @out of exactly @outlen bytes; -1 unless all of it came out,
 * -2 when the library could not allocate its memory
 */
int tc_unzip(enum tc_zip zip, const void *in, size_t inlen, void *out, size_t outlen);

/* sections (tracecheck_text.c): each reads from @r's position and checks what it reads */
int tc_header_info(struct tc_rd *r);
int tc_ftrace_formats(struct tc_rd *r);
int tc_event_formats(struct tc_rd *r);
int tc_kallsyms(struct tc_rd *r);
int tc_printk(struct tc_rd *r);
int tc_cmdlines(struct tc_rd *r);
int tc_format_text(struct tc_rd *r, const char *text, size_t len, uint64_t off);

#define TC_MAX_BUFFERS 256		/* BUFFER options (trace instances) */

/* what the options said: where the v7 sections are, the instances' CPU data */
struct tc_buffer {
	uint64_t section;		/* the BUFFER section's offset (v7) */
	uint32_t cpus;
	uint32_t *cpu;			/* each CPU's id, offset and size */
	uint64_t *off, *size;
	bool top;			/* the top instance (name "") */
};

struct tc_opts {
	uint64_t sect[6];		/* offsets of sections 16..21 (v7), 0 when not given */
	struct tc_buffer buf[TC_MAX_BUFFERS];
	int nbuf;
	uint64_t next;			/* DONE (v7): the next options section, 0 = none */
	int done;
	int64_t cpucount;		/* CPUCOUNT, -1 when not given */
};

void tc_opts_free(struct tc_opts *o);
/* one option's data (@id, @size bytes in @buf, at file offset @off); tracecheck_opt.c */
/* tc_clock_text - refuse a trace_clock text libtracecmd's parser would crash on */
int tc_clock_text(struct tc_rd *r, const char *t, size_t len, uint64_t at, const char *what);
int tc_option(struct tc_rd *r, struct tc_opts *o, uint16_t id, const unsigned char *buf,
	      uint32_t size, uint64_t off);

/* the CPU data at @off, @size bytes: pages, or compressed chunks of pages (tracecheck.c) */
int tc_cpu_data(struct tc_rd *r, int cpu, uint64_t off, uint64_t size);

/* version 7: everything after the page size (tracecheck_v7.c) */
int tc_check_v7(struct tc_rd *r);

#endif
