/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracecheck.h - check the ring-buffer pages of a trace.dat before libtracecmd reads them.
 *
 * libtraceevent's kbuffer trusts a page header's commit size and each event's length: a
 * corrupt page makes it read past the page (or loop on a zero-length padding event). This
 * pre-pass walks the file's own layout (man 5 trace-cmd.dat.v6: the headers up to the
 * flyrecord CPU offsets), then every page of every CPU the way kbuffer_load_subbuffer()
 * and translate_data() do, and refuses a page whose commit exceeds the page's data area,
 * whose "missed events" count would lie past it, or whose events run past the commit or
 * do not advance. Version 7 files are walked through their options and sections, and the
 * compressed ones (zstd, zlib) decompressed, so that their pages are checked the same way.
 * Every metadata section libtracecmd passes to libtraceevent is checked first as well
 * (tracecheck_text.c), and every option by its id and size (tracecheck_opt.c).
 *
 * The CPU data is mapped (else read) in 1 MiB windows: memory does not grow with the file.
 */
#ifndef CB_TRACECHECK_H
#define CB_TRACECHECK_H

#include <stddef.h>
#include <stdint.h>

struct cb_tracecheck {
	int version;		/* the file's version (6 or 7, or what it says) */
	int checked;		/* 1: the pages were checked (v6 flyrecord) */
	int nr_cpus;
	int commit_size;	/* the page header's commit word: 4 or 8 bytes */
	int big_endian;		/* the file's byte order is big-endian */
	unsigned int page_size;
	uint64_t pages;		/* pages checked */
	uint64_t events;	/* data events seen in them */
	int events_exact;	/* 1: libtracecmd must deliver exactly @events (one instance) */
	int unaligned;		/* CPU data libtracecmd cannot mmap (it says so on stderr) */
};

/*
 * cb_tracecheck_file - check @path; @info (may be NULL) receives what was found.
 * Returns 0 (good, or a version not checked), or -1 with a message naming the file and the
 * offset (and CPU) of the first problem in @err.
 */
int cb_tracecheck_file(const char *path, struct cb_tracecheck *info, char *err, size_t errlen);

/*
 * cb_tracecheck_page - check one ring-buffer page of @page_size bytes whose commit word
 * (@commit_size bytes: 4 or 8) follows the 8-byte timestamp and whose data starts right
 * after it, in the byte order @big_endian. Returns the number of data events, or -1 with
 * a reason in @why.
 */
long cb_tracecheck_page(const unsigned char *page, unsigned int page_size, int commit_size,
			int big_endian, char *why, size_t whylen);

#endif
