// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracecheck.c - the page pre-pass of a version 6 trace.dat (see tracecheck.h).
 */
#include "tracecheck.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MISSING_EVENTS (1ULL << 31)	/* kbuffer-parse.c */
#define MISSING_STORED (1ULL << 30)
#define COMMIT_MASK ((1U << 27) - 1)
#define TYPE_PADDING 29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP 31
#define MIN_EVENT 8		/* common_type, flags, preempt_count, pid */
#define MAX_PAGE (16U << 20)
#define CHUNK (1U << 20)

struct rd {
	int fd;
	uint64_t size, pos;
	bool swap;
	const char *path;
	char *err;
	size_t errlen;
};

static int bad(struct rd *r, uint64_t off, const char *what)
{
	snprintf(r->err, r->errlen, "%s: corrupt trace at offset %llu (0x%llx): %s", r->path,
		 (unsigned long long)off, (unsigned long long)off, what);
	errno = EINVAL;
	return -1;
}

static int get(struct rd *r, void *buf, size_t len, const char *what)
{
	ssize_t n;

	if (r->pos > r->size || len > r->size - r->pos)
		return bad(r, r->pos, what);
	n = pread(r->fd, buf, len, (off_t)r->pos);
	if (n != (ssize_t)len)
		return bad(r, r->pos, what);
	r->pos += len;
	return 0;
}

static uint32_t sw32(uint32_t v)
{
	return __builtin_bswap32(v);
}

static uint64_t sw64(uint64_t v)
{
	return __builtin_bswap64(v);
}

static int get4(struct rd *r, uint32_t *v, const char *what)
{
	if (get(r, v, 4, what))
		return -1;
	if (r->swap)
		*v = sw32(*v);
	return 0;
}

static int get8(struct rd *r, uint64_t *v, const char *what)
{
	if (get(r, v, 8, what))
		return -1;
	if (r->swap)
		*v = sw64(*v);
	return 0;
}

/* skip @len bytes (a section whose size the file gave) */
static int skip(struct rd *r, uint64_t len, const char *what)
{
	if (r->pos > r->size || len > r->size - r->pos)
		return bad(r, r->pos, what);
	r->pos += len;
	return 0;
}

/* a NUL-terminated string of at most @max bytes; @out (may be NULL) gets a copy */
static int get_str(struct rd *r, char *out, size_t max, const char *what)
{
	uint64_t start = r->pos;
	size_t i;
	char c;

	for (i = 0; i < max; i++) {
		if (get(r, &c, 1, what))
			return -1;
		if (out)
			out[i] = c;
		if (!c)
			return 0;
	}
	return bad(r, start, what);
}

/* the size of the commit field in the header_page text (8 on 64-bit kernels) */
static int commit_size(const char *text, int long_size)
{
	const char *p = strstr(text, " commit;");
	const char *s = p ? strstr(p, "size:") : NULL;
	int v;

	if (s && sscanf(s, "size:%d", &v) == 1 && (v == 4 || v == 8))
		return v;
	return long_size == 4 ? 4 : 8;
}

static uint32_t rd4(const unsigned char *p, int big)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return big ? sw32(v) : v;	/* this code runs on little-endian hosts */
}

static uint64_t rdlong(const unsigned char *p, int size, int big)
{
	uint64_t v8;

	if (size == 4)
		return rd4(p, big);
	memcpy(&v8, p, 8);
	return big ? sw64(v8) : v8;
}

long cb_tracecheck_page(const unsigned char *page, unsigned int page_size, int csize,
			int big, char *why, size_t whylen)
{
	unsigned int start = 8 + csize, cap, commit;
	uint64_t flags;
	long events = 0;
	int64_t off = 0;

	if (page_size < start + 8) {
		snprintf(why, whylen, "page size %u is too small", page_size);
		return -1;
	}
	cap = page_size - start;
	flags = rdlong(page + 8, csize, big);
	commit = (unsigned int)flags & COMMIT_MASK;
	if (commit > cap) {
		snprintf(why, whylen, "page header commit %u exceeds the page's %u data bytes",
			 commit, cap);
		return -1;
	}
	if ((flags & MISSING_EVENTS) && (flags & MISSING_STORED) && commit + csize > cap) {
		snprintf(why, whylen, "the missed-events count after commit %u lies past the page",
			 commit);
		return -1;
	}
	while (off < commit) {
		const unsigned char *d = page + start + off;
		uint32_t tl = rd4(d, big);
		unsigned int type = big ? tl >> 27 : tl & 31;
		int64_t len, next;

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

/* everything up to the per-CPU offsets of a v6 file */
static int read_v6_headers(struct rd *r, int long_size, int *csize, uint32_t *nr_cpus)
{
	char label[16], name[64], *hp;
	uint32_t n, m, i, j;
	uint64_t len;

	if (get_str(r, name, sizeof(name), "header_page label") || strcmp(name, "header_page") ||
	    get8(r, &len, "header_page size"))
		return bad(r, r->pos, "no header_page section");
	if (len > 65536)
		return bad(r, r->pos, "header_page larger than 64 KiB");
	hp = calloc(1, len + 1);
	if (!hp || get(r, hp, len, "header_page")) {
		free(hp);
		return hp ? -1 : bad(r, r->pos, "out of memory");
	}
	*csize = commit_size(hp, long_size);
	free(hp);
	if (get_str(r, name, sizeof(name), "header_event label") || strcmp(name, "header_event") ||
	    get8(r, &len, "header_event size") || skip(r, len, "header_event"))
		return bad(r, r->pos, "no header_event section");
	if (get4(r, &n, "ftrace format count"))
		return -1;
	for (i = 0; i < n; i++)
		if (get8(r, &len, "ftrace format size") || skip(r, len, "ftrace format"))
			return -1;
	if (get4(r, &n, "event system count"))
		return -1;
	for (i = 0; i < n; i++) {
		if (get_str(r, NULL, 4096, "event system name") ||
		    get4(r, &m, "event format count"))
			return -1;
		for (j = 0; j < m; j++)
			if (get8(r, &len, "event format size") || skip(r, len, "event format"))
				return -1;
	}
	if (get4(r, &m, "kallsyms size") || skip(r, m, "kallsyms") ||
	    get4(r, &m, "printk formats size") || skip(r, m, "printk formats") ||
	    get8(r, &len, "saved cmdlines size") || skip(r, len, "saved cmdlines") ||
	    get4(r, nr_cpus, "CPU count"))
		return -1;
	if (*nr_cpus > 8192)
		return bad(r, r->pos - 4, "implausible CPU count");
	for (;;) {
		uint16_t id;
		uint32_t osz;

		if (get(r, label, 10, "section label"))
			return -1;
		if (!memcmp(label, "flyrecord", 10))
			return 0;
		if (!memcmp(label, "latency  ", 10))
			return 1;
		if (memcmp(label, "options  ", 10))
			return bad(r, r->pos - 10, "unknown section label");
		do {
			if (get(r, &id, 2, "option id"))
				return -1;
			if (r->swap)
				id = __builtin_bswap16(id);
			if (!id)
				break;
			if (get4(r, &osz, "option size") || skip(r, osz, "option"))
				return -1;
		} while (1);
	}
}

static int check_cpu(struct rd *r, int cpu, uint64_t off, uint64_t size, unsigned int psize,
		     int csize, unsigned char *buf, struct cb_tracecheck *info)
{
	char why[160], msg[256];
	uint64_t done = 0;

	if (off > r->size || size > r->size - off) {
		snprintf(msg, sizeof(msg), "CPU %d data (%llu bytes) runs past the end of the file",
			 cpu, (unsigned long long)size);
		return bad(r, off, msg);
	}
	if (size % psize) {
		snprintf(msg, sizeof(msg), "CPU %d data size %llu is not a multiple of the page "
			 "size %u", cpu, (unsigned long long)size, psize);
		return bad(r, off, msg);
	}
	while (done < size) {
		size_t want = size - done > CHUNK ? CHUNK - CHUNK % psize : size - done, k;
		const unsigned char *pages = buf;
		void *map = MAP_FAILED;
		ssize_t got;

		if (want < psize)
			want = psize;
		/* a window of the file mapped (no copy) when aligned, else read */
		if (!((off + done) % sysconf(_SC_PAGESIZE)))
			map = mmap(NULL, want, PROT_READ, MAP_PRIVATE | MAP_POPULATE, r->fd,
				   (off_t)(off + done));
		if (map != MAP_FAILED) {
			pages = map;
		} else {
			got = pread(r->fd, buf, want, (off_t)(off + done));
			if (got != (ssize_t)want)
				return bad(r, off + done, "short read of CPU data");
		}
		for (k = 0; k < want; k += psize) {
			long ev = cb_tracecheck_page(pages + k, psize, csize, !!r->swap, why,
						     sizeof(why));

			if (ev < 0) {
				if (map != MAP_FAILED)
					munmap(map, want);
				snprintf(msg, sizeof(msg), "CPU %d page %llu: %s", cpu,
					 (unsigned long long)((done + k) / psize), why);
				return bad(r, off + done + k, msg);
			}
			info->pages++;
			info->events += ev;
		}
		if (map != MAP_FAILED)
			munmap(map, want);
		done += want;
	}
	return 0;
}

int cb_tracecheck_file(const char *path, struct cb_tracecheck *info, char *err, size_t errlen)
{
	struct cb_tracecheck local;
	struct rd r = { .path = path, .err = err, .errlen = errlen };
	unsigned char magic[10], hdr[2], *buf = NULL;
	char ver[16];
	uint32_t psize, nr_cpus, c;
	struct stat st;
	int csize = 8, ret = -1;

	info = info ? info : &local;
	memset(info, 0, sizeof(*info));
	r.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r.fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(r.fd, &st) < 0)
		goto io;
	r.size = st.st_size;
	if (get(&r, magic, 10, "magic") || get_str(&r, ver, sizeof(ver), "version"))
		goto out;
	info->version = atoi(ver);
	if (info->version != 6) {
		ret = 0;	/* v7 and others: not checked here */
		goto out;
	}
	if (get(&r, hdr, 2, "endianness and long size") || get4(&r, &psize, "page size"))
		goto out;
	r.swap = hdr[0] != 0;
	if (psize < 64 || psize > MAX_PAGE) {
		bad(&r, r.pos - 4, "implausible page size");
		goto out;
	}
	info->page_size = psize;
	ret = read_v6_headers(&r, hdr[1], &csize, &nr_cpus);
	if (ret) {
		ret = ret > 0 ? 0 : -1;	/* latency format: no pages */
		goto out;
	}
	info->nr_cpus = nr_cpus;
	buf = malloc(CHUNK > psize ? CHUNK : psize);
	if (!buf) {
		bad(&r, r.pos, "out of memory");
		ret = -1;
		goto out;
	}
	for (c = 0; c < nr_cpus; c++) {
		uint64_t off, size, save;

		ret = -1;
		if (get8(&r, &off, "CPU data offset") || get8(&r, &size, "CPU data size"))
			goto out;
		save = r.pos;
		if (size && check_cpu(&r, c, off, size, psize, csize, buf, info))
			goto out;
		r.pos = save;
	}
	info->checked = 1;
	ret = 0;
	goto out;
io:
	snprintf(err, errlen, "%s: %s", path, strerror(errno));
out:
	free(buf);
	close(r.fd);
	return ret;
}
