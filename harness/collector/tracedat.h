/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracedat.h - a small writer of trace-cmd "trace.dat" files, version 6.
 *
 * libtracecmd 3.1 can read trace.dat files but has no public API to write one, so
 * compactbench writes its own (the layout is man 5 trace-cmd.dat.v6). The writer takes
 * everything from a tracefs-like directory tree (events/header_page, events/header_event,
 * events/<system>/<event>/format, printk_formats, saved_cmdlines) and raw ring-buffer
 * pages per CPU, from files or from memory. A test can hand it a fixture tree and
 * synthetic pages built with cb_tracedat_page_*(), so traces with chosen timestamps can
 * be made without a kernel.
 *
 * Functions return -1 and set errno on failure; those that read or write files also take
 * a caller's buffer (@err, @errlen; an @errlen of 0 asks for no message) and write into it
 * one line saying what failed.
 */
#ifndef CB_TRACEDAT_H
#define CB_TRACEDAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the raw ring-buffer pages of one CPU: a file (@path) or memory (@data, @size) */
struct cb_tracedat_cpu {
	const char *path;	/* file of whole pages; NULL: use data/size */
	const void *data;	/* whole pages in memory */
	size_t size;		/* bytes at data (a multiple of the page size) */
};

struct cb_tracedat_src {
	/* tracefs root, or a fixture tree with the same layout; NULL: the mounted tracefs */
	const char *tracing_dir;
	/* "system:event" whose formats go into the file, NULL-terminated */
	const char *const *events;
	int nr_cpus;
	const struct cb_tracedat_cpu *cpu;	/* nr_cpus entries */
	/* ring-buffer page (sub-buffer) size; 0: from events/header_page */
	unsigned int page_size;
	/* the clock the timestamps come from ("mono", "local", ...); NULL: no clock option */
	const char *trace_clock;
	/* a kallsyms file to embed (e.g. "/proc/kallsyms"); NULL: none (0-sized section) */
	const char *kallsyms_path;
	/* extra "pid comm" lines appended to tracing_dir/saved_cmdlines; may be NULL */
	const char *extra_cmdlines;
	/* per-CPU text of per_cpu/cpuN/stats, stored as CPUSTAT options; NULL: none */
	const char *const *cpustats;
	/* the UNAME option; NULL: uname(2) of this machine */
	const char *uname;
	/*
	 * may turn the largest CPU file into the trace itself instead of copying it: room for
	 * the header (and the CPUs before it) is inserted in front of its data
	 * (FALLOC_FL_INSERT_RANGE), the CPUs after it are appended, and it is renamed to the
	 * output path; the result is byte for byte what copying writes. Where the filesystem
	 * refuses (tmpfs, blocks bigger than a page, another filesystem) it is copied as usual.
	 * The CPU file is gone afterwards when adopted (cb_tracedat_write() says which).
	 */
	bool adopt;
};

/*
 * cb_tracedat_write - write a version 6 trace.dat to @path
 *
 * The file is written in place (callers wanting atomicity write to a temporary name and
 * rename). Every CPU's data must be whole pages. @adopted (may be NULL) gets the CPU whose
 * file was adopted as the trace (src.adopt), or -1 when every CPU's data was copied or the
 * write failed. Returns the size of the file written, or -1 with errno set and the message
 * in @err (the partial file is removed).
 */
long long cb_tracedat_write(const char *path, const struct cb_tracedat_src *src, int *adopted,
			     char *err, size_t errlen);

/*
 * cb_tracedat_page_size - the ring-buffer page size a tracefs tree describes
 * (events/header_page: offset + size of the "data" field). Returns it, or -1 with errno
 * set and the message in @err.
 */
int cb_tracedat_page_size(const char *tracing_dir, char *err, size_t errlen);

/*
 * cb_tracedat_event_id - the numeric id ("ID:" line of the format) of system:event in
 * @tracing_dir (NULL: the mounted tracefs). Returns it, or -1 with errno set and the
 * message in @err.
 */
int cb_tracedat_event_id(const char *tracing_dir, const char *system, const char *event,
			 char *err, size_t errlen);

/*
 * A builder of synthetic ring-buffer pages for a 64-bit little- or big-endian host (the
 * page header is a u64 timestamp and a u64 commit, as events/header_page says on 64-bit
 * kernels). The payload of an event is its whole record as the format describes it,
 * starting with common_type.
 */
struct cb_tracedat_page {
	unsigned char *buf;	/* the page */
	size_t size;		/* page size */
	size_t used;		/* bytes of events after the 16-byte header */
	uint64_t ts;		/* timestamp of the last event added */
};

/*
 * cb_tracedat_page_init - start an empty page in @buf (@size bytes, zeroed here) whose
 * time base is @ts. Returns 0, or -1 with EINVAL if @size is too small.
 */
int cb_tracedat_page_init(struct cb_tracedat_page *p, void *buf, size_t size, uint64_t ts);

/*
 * cb_tracedat_page_add - append an event at time @ts (>= the previous one) with a
 * @len-byte payload; adds a time-extend record when the delta needs more than 27 bits.
 * Returns 0, or -1 with errno ENOSPC (page full: start a new one) or EINVAL (time goes
 * backwards, empty payload).
 */
int cb_tracedat_page_add(struct cb_tracedat_page *p, uint64_t ts, const void *payload, size_t len);

#endif
