/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * shed.h - keep the reader's resident memory from growing with the trace.
 *
 * For a version 6 file, libtracecmd 3.1 maps each CPU's whole data section (MAP_PRIVATE,
 * read-only) and reads it front to back, so the pages it has read stay resident: peak RSS
 * becomes the file size. As the iteration moves on, this module tells the kernel to drop
 * (madvise MADV_DONTNEED) the part of each CPU's mapping that lies more than a margin behind
 * the record being read. A read-only private file mapping loses nothing by that: a page
 * touched again is faulted back from the page cache.
 *
 * The range is only dropped when /proc/self/maps shows that the record's address lies in a
 * mapping of the trace file itself (same device and inode): never in memory libtracecmd
 * allocated (compressed v7 chunks, or its read() fallback).
 */
#ifndef CB_SHED_H
#define CB_SHED_H

struct cb_shed;

/* cb_shed_new - shedding for the mappings of @path, read by @nr_cpus CPUs; NULL: off */
struct cb_shed *cb_shed_new(const char *path, int nr_cpus);

/* cb_shed_note - the reader is at @addr of CPU @cpu's data; drop what lies far behind */
void cb_shed_note(struct cb_shed *s, int cpu, const void *addr);

/* cb_shed_free - free @s (NULL is fine) */
void cb_shed_free(struct cb_shed *s);

#endif
