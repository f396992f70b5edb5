// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracecheck.c - the pre-check of a trace.dat (see tracecheck.h): the file header, the
 * version 6 layout, and every ring-buffer page of every CPU (version 7's are found by
 * tracecheck_v7.c and decompressed here).
 */
#include "rb_page.h"
#include "tracecheck_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define TYPE_PADDING 29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP 31
#define MIN_EVENT 8		/* common_type, flags, preempt_count, pid */
#define MIN_PAGE 256U
#define MAX_PAGE (16U << 20)
#define CHUNK (256U << 10)	/* bytes of CPU data read at a time */

static uint32_t rd4(const unsigned char *p, int big)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return big ? __builtin_bswap32(v) : v;	/* this code runs on little-endian hosts */
}

static uint64_t rdlong(const unsigned char *p, int size, int big)
{
	uint64_t v8;

	if (size == 4)
		return rd4(p, big);
	memcpy(&v8, p, 8);
	return big ? __builtin_bswap64(v8) : v8;
}

/*
 * the records of a page's @commit data bytes (@cap in the page), counted; -1 with @why.
 * Inlined twice, for each byte order, so the loop tests no byte order per record; the
 * common record (type 2..28: 8 to 112 bytes of data) is counted before the switch.
 */
static inline __attribute__((always_inline)) long walk(const unsigned char *data,
						      unsigned int cap, unsigned int commit,
						      const int big, char *why, size_t whylen)
{
	long events = 0;
	int64_t off = 0;

	while (off < commit) {
		const unsigned char *d = data + off;
		uint32_t tl = rd4(d, big);
		unsigned int type = big ? tl >> 27 : tl & 31;
		int64_t len, next;

		if (type - 2 < TYPE_PADDING - 2 && off + 4 + type * 4 <= commit) {
			off += 4 + type * 4;
			events++;
			continue;
		}
		if (type >= TYPE_PADDING || type == 0) {
			if (off + 8 > cap) {
				snprintf(why, whylen, "event at data offset %lld runs past the page",
					 (long long)off);
				return -1;
			}
		}
		switch (type) {
		case TYPE_PADDING:
			next = off + 4 + (int32_t)rd4(d + 4, big);
			if (next <= off) {
				snprintf(why, whylen, "padding at data offset %lld does not advance",
					 (long long)off);
				return -1;
			}
			break;
		case TYPE_TIME_EXTEND:
		case TYPE_TIME_STAMP:
			next = off + 8;
			break;
		default:
			if (type == 0) {
				len = (int64_t)(int32_t)rd4(d + 4, big) - 4;
				len = (len + 3) & ~(int64_t)3;
				next = off + 8 + len;
			} else {
				len = type * 4;
				next = off + 4 + len;
			}
			if (len < MIN_EVENT || next > commit) {
				snprintf(why, whylen, "event at data offset %lld has length %lld "
					 "(commit %u)", (long long)off, (long long)len, commit);
				return -1;
			}
			events++;
			break;
		}
		off = next;
	}
	return events;
}

long cb_tracecheck_page(const unsigned char *page, unsigned int page_size, int csize,
			int big, char *why, size_t whylen)
{
	unsigned int start = 8 + csize, cap, commit;
	uint64_t flags;

	if (page_size < start + 8 || (csize != 4 && csize != 8)) {
		snprintf(why, whylen, "page size %u is too small", page_size);
		return -1;
	}
	cap = page_size - start;
	flags = rdlong(page + 8, csize, big);
	commit = (unsigned int)flags & RB_COMMIT_MASK_KBUFFER;
	if (commit > cap) {
		snprintf(why, whylen, "page header commit %u exceeds the page's %u data bytes",
			 commit, cap);
		return -1;
	}
	if ((flags & RB_MISSED_EVENTS) && (flags & RB_MISSED_STORED) && commit + csize > cap) {
		snprintf(why, whylen, "the missed-events count after commit %u lies past the page",
			 commit);
		return -1;
	}
	if (big)
		return walk(page + start, cap, commit, 1, why, whylen);
	return walk(page + start, cap, commit, 0, why, whylen);
}

/* options up to the DONE id (v6: no size after it); at most 100,000 in the file */
static int opt_list(struct tc_rd *r, struct tc_opts *o, int *n)
{
	for (;;) {
		uint64_t at = r->pos;
		unsigned char *p;
		uint16_t id;
		uint32_t sz;
		int ret;

		if (tc_get2(r, &id, "option id"))
			return -1;
		if (!id)
			return 0;
		if (++*n > TC_MAX_COUNT)
			return tc_bad(r, at, "more than %d options", TC_MAX_COUNT);
		if (tc_get4(r, &sz, "option size"))
			return -1;
		p = (unsigned char *)tc_get_blob(r, sz, TC_MAX_TEXT, "option");
		if (!p)
			return -1;
		ret = tc_option(r, o, id, p, sz, at);
		free(p);
		if (ret)
			return -1;
	}
}

/*
 * the options sections of a v6 file up to its "flyrecord" label (0; -1 for anything else,
 * a "latency" label included); each option is read whole and checked by id and size
 * (tracecheck_opt.c)
 */
static int v6_options(struct tc_rd *r)
{
	struct tc_opts o = { .cpucount = -1 };
	char label[10];
	int ret = -1, n = 0;

	for (;;) {
		if (tc_get(r, label, 10, "section label"))
			break;
		if (!memcmp(label, "flyrecord", 10)) {
			ret = 0;
			break;
		}
		/*
		 * trace-cmd's latency format is the text of a latency tracer (irqsoff and the
		 * like): no per-CPU ring buffers, so no events, and libtracecmd 3.1's event
		 * iterator dereferences the missing CPU data (a fuzzer find).
		 */
		if (!memcmp(label, "latency  ", 10)) {
			tc_bad(r, r->pos - 10, "latency-format trace (a latency tracer's text, no "
			       "per-CPU event data): not a trace of events");
			break;
		}
		if (memcmp(label, "options  ", 10)) {
			tc_bad(r, r->pos - 10, "unknown section label");
			break;
		}
		if (opt_list(r, &o, &n))
			break;
	}
	tc_opts_free(&o);
	return ret;
}

/* the pages in @pages (@len bytes, a multiple of the page size) of @cpu from @at */
static int check_pages(struct tc_rd *r, int cpu, const unsigned char *pages, size_t len,
		       uint64_t at, uint64_t first)
{
	char why[160];
	size_t k;

	for (k = 0; k < len; k += r->psize) {
		long ev = cb_tracecheck_page(pages + k, r->psize, r->csize, r->swap, why,
					     sizeof(why));

		if (ev < 0)
			return tc_bad(r, at + k, "CPU %d page %llu: %s", cpu,
				      (unsigned long long)(first + k / r->psize), why);
		r->info->pages++;
		r->info->events += ev;
	}
	return 0;
}

/*
 * uncompressed CPU data: read in CHUNK blocks into one buffer that stays in the cache
 * (cheaper than mapping and populating each window, and the same for any alignment)
 */
static int cpu_plain(struct tc_rd *r, int cpu, uint64_t off, uint64_t size, unsigned char *buf)
{
	uint64_t done = 0;
	unsigned int psize = r->psize;

	if (off % sysconf(_SC_PAGESIZE) || psize % sysconf(_SC_PAGESIZE))
		r->info->unaligned = 1;
	if (size % psize)
		return tc_bad(r, off, "CPU %d data size %llu is not a multiple of the page size %u",
			      cpu, (unsigned long long)size, psize);
	while (done < size) {
		size_t want = size - done > CHUNK ? CHUNK - CHUNK % psize : size - done;

		if (want < psize)
			want = psize;
		if (pread(r->fd, buf, want, (off_t)(off + done)) != (ssize_t)want)
			return tc_bad(r, off + done, "short read of CPU %d data", cpu);
		if (check_pages(r, cpu, buf, want, off + done, done / psize))
			return -1;
		done += want;
	}
	return 0;
}

/* one compressed chunk at r->pos: sizes, then the data, decompressed and its pages checked */
static int cpu_chunk(struct tc_rd *r, int cpu, uint64_t end, uint64_t *page)
{
	uint64_t at = r->pos;
	uint32_t zsize, usize;
	unsigned char *z, *u;
	int ret;

	if (tc_get4(r, &zsize, "chunk compressed size") || tc_get4(r, &usize, "chunk size"))
		return -1;
	if (!usize || usize % r->psize || usize > TC_MAX_CHUNK)
		return tc_bad(r, at, "CPU %d chunk of %u bytes: not a multiple of the page size "
			      "%u up to %u", cpu, usize, r->psize, TC_MAX_CHUNK);
	if (zsize > end - r->pos)
		return tc_bad(r, at, "CPU %d chunk of %u compressed bytes runs past its data",
			      cpu, zsize);
	z = (unsigned char *)tc_get_blob(r, zsize, TC_MAX_CHUNK, "compressed chunk");
	if (!z)
		return -1;
	u = malloc(usize);
	if (!u) {
		free(z);
		return tc_bad(r, at, "out of memory");
	}
	ret = tc_unzip(r->zip, z, zsize, u, usize);
	if (ret)
		ret = tc_bad(r, at, "CPU %d chunk %s %u bytes", cpu, ret == -2 ?
			     "out of memory decompressing to" : "does not decompress to its", usize);
	else
		ret = check_pages(r, cpu, u, usize, at, *page);
	*page += usize / r->psize;
	free(z);
	free(u);
	return ret;
}

int tc_cpu_data(struct tc_rd *r, int cpu, uint64_t off, uint64_t size)
{
	uint64_t save = r->pos, save_size = r->size, page = 0;
	uint32_t n, i;
	unsigned char *buf;
	int ret = 0;

	if (off > r->size || size > r->size - off)
		return tc_bad(r, off, "CPU %d data (%llu bytes) runs past the end of the file",
			      cpu, (unsigned long long)size);
	if (!size)
		return 0;
	if (r->zip == TC_ZIP_NONE) {
		buf = malloc(CHUNK > r->psize ? CHUNK : r->psize);
		if (!buf)
			return tc_bad(r, off, "out of memory");
		ret = cpu_plain(r, cpu, off, size, buf);
		free(buf);
		return ret;
	}
	/* trace-cmd 3.1.6 gives the size of the chunks, without the count before them */
	if (off + 4 > r->size || size > r->size - off - 4)
		return tc_bad(r, off, "CPU %d compressed data (%llu bytes after the chunk count) "
			      "runs past the end of the file", cpu, (unsigned long long)size);
	if (r->psize % sysconf(_SC_PAGESIZE))
		r->info->unaligned = 1;	/* libtracecmd maps the decompressed copy by pages */
	r->pos = off;
	r->size = off + 4 + size;
	if (tc_get4(r, &n, "chunk count"))
		ret = -1;
	else if (n > size / 8)
		ret = tc_bad(r, off, "CPU %d: %u chunks in %llu bytes", cpu, n,
			     (unsigned long long)size);
	for (i = 0; !ret && i < n; i++)
		ret = cpu_chunk(r, cpu, off + 4 + size, &page);
	r->pos = save;
	r->size = save_size;
	return ret;
}

/* everything after the page size of a v6 file, up to and with its CPU data */
static int check_v6(struct tc_rd *r)
{
	uint64_t off, size, at;
	uint32_t c;
	char *text;
	int ret;

	if (tc_header_info(r) || tc_ftrace_formats(r) || tc_event_formats(r) || tc_kallsyms(r) ||
	    tc_printk(r) || tc_cmdlines(r) || tc_get4(r, &r->cpus, "CPU count"))
		return -1;
	if (r->cpus > TC_MAX_CPUS)
		return tc_bad(r, r->pos - 4, "%u CPUs (at most %d)", r->cpus, TC_MAX_CPUS);
	r->info->nr_cpus = r->cpus;
	ret = v6_options(r);
	if (ret)
		return -1;
	for (c = 0; c < r->cpus; c++) {
		if (tc_get8(r, &off, "CPU data offset") || tc_get8(r, &size, "CPU data size"))
			return -1;
		at = r->pos;
		if (tc_cpu_data(r, c, off, size))
			return -1;
		r->pos = at;
	}
	/* the trace_clock text after the CPU table: libtracecmd mallocs its 8-byte size + 1 */
	if (r->pos <= r->size && r->size - r->pos >= 8) {
		if (tc_get8(r, &size, "trace_clock size"))
			return -1;
		if (size > TC_MAX_TEXT || size > r->size - r->pos)
			return tc_bad(r, r->pos - 8, "trace_clock of %llu bytes",
				      (unsigned long long)size);
		at = r->pos;
		text = tc_get_blob(r, size, TC_MAX_TEXT, "trace_clock");
		if (!text)
			return -1;
		ret = tc_clock_text(r, text, size, at, "trace_clock");
		free(text);
		if (ret)
			return ret;
	}
	r->info->checked = 1;
	r->info->events_exact = 1;
	return 0;
}

/* magic, version, endianness, long size, page size: what both versions begin with */
static int check_start(struct tc_rd *r)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	unsigned char m[10], hdr[2];
	char ver[16];

	if (tc_get(r, m, 10, "magic") || memcmp(m, magic, 10))
		return tc_bad(r, 0, "not a trace-cmd trace.dat (bad magic)");
	if (tc_get_str(r, ver, sizeof(ver), "version"))
		return -1;
	if (strcmp(ver, "6") && strcmp(ver, "7"))
		return tc_bad(r, 10, "version '%.15s' (6 and 7 are read)", ver);
	r->version = r->info->version = ver[0] - '0';
	if (tc_get(r, hdr, 2, "endianness and long size"))
		return -1;
	/* libtraceevent swaps numbers for any byte but 0, kbuffer only for 1: both or neither */
	if (hdr[0] > 1)
		return tc_bad(r, r->pos - 2, "endianness byte %u is neither 0 (little) nor 1 (big)",
			      hdr[0]);
	if (hdr[1] != 4 && hdr[1] != 8)
		return tc_bad(r, r->pos - 1, "long size %u is neither 4 nor 8", hdr[1]);
	r->swap = hdr[0];
	r->long_size = hdr[1];
	r->info->big_endian = hdr[0];
	/* the page size is in the file's byte order: read it after the flag is known */
	if (tc_get4(r, &r->psize, "page size"))
		return -1;
	if (r->psize < MIN_PAGE || r->psize > MAX_PAGE || (r->psize & (r->psize - 1)))
		return tc_bad(r, r->pos - 4, "page size %u is not a power of two from %u to %u",
			      r->psize, MIN_PAGE, MAX_PAGE);
	r->info->page_size = r->psize;
	return 0;
}

int cb_tracecheck_file(const char *path, struct cb_tracecheck *info, char *err, size_t errlen)
{
	struct cb_tracecheck local;
	struct tc_rd r = { .path = path, .err = err, .errlen = errlen };
	struct stat st;
	int ret = -1;

	r.info = info = info ? info : &local;
	memset(info, 0, sizeof(*info));
	r.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r.fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(r.fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		goto out;
	}
	r.size = st.st_size;
	if (check_start(&r))
		goto out;
	r.texts = tc_texts_new();
	if (!r.texts) {
		tc_bad(&r, 0, "out of memory");
		goto out;
	}
	ret = r.version == 6 ? check_v6(&r) : tc_check_v7(&r);
	if (!ret)
		ret = tc_trial(&r);
	info->commit_size = r.csize;
out:
	tc_texts_free(r.texts);
	close(r.fd);
	return ret;
}
