// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracedat.c - a hand-written trace.dat version 6 writer.
 *
 * libtracecmd 3.1 reads trace.dat files but exports no writer (tracecmd_output_* are
 * private to trace-cmd), so this file writes the format of man 5 trace-cmd.dat.v6 itself:
 *
 *   magic "\x17\x08\x44tracing" "6\0", endianness (1 byte), long size (1), page size (4)
 *   "header_page\0" size(8) data, "header_event\0" size(8) data
 *   ftrace formats: count(4) { size(8) format }
 *   event systems: count(4) { "system\0" count(4) { size(8) format } }
 *   kallsyms: size(4) data; printk formats: size(4) data; saved cmdlines: size(8) data
 *   nr_cpus(4)
 *   "options  \0" { id(2) size(4) data } 0(2)
 *   "flyrecord\0" { offset(8) size(8) } x nr_cpus, [size(8) "[clock]" if TRACECLOCK]
 *   page-aligned raw ring-buffer pages of every CPU
 *
 * The option ids are those of trace-cmd's trace-cmd-private.h (stable since 2010 for the
 * ones used here). All numbers are written in the host's byte order, which the header
 * declares.
 */
#include "tracedat.h"
#include "util.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

enum {
	OPT_DONE = 0,
	OPT_CPUSTAT = 2,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_CPUCOUNT = 8,
	OPT_VERSION = 9,
};

#define PAGE_HDR_SIZE 16	/* u64 timestamp + u64 commit (64-bit kernel) */
#define TS_BITS 27
#define TYPE_TIME_EXTEND 30
#define MAX_SMALL_DATA (28 * 4)

struct out {
	int fd;
	unsigned long long pos;
	const char *path;
	int head_fd;		/* adopted: the file the header was written to first */
	const char *adopted;	/* adopted: the CPU file that became the trace */
	int adopted_cpu;	/* its CPU, or -1 */
	char *err;		/* the caller's message buffer */
	size_t errlen;
};

/* cb_fail() into the buffer of the write @o */
static int __attribute__((format(printf, 3, 4)))
ofail(struct out *o, int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cb_vfail(o->err, o->errlen, e, fmt, ap);
	va_end(ap);
	return -1;
}

static int put(struct out *o, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t w = write(o->fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return ofail(o, errno, "writing %s: %s", o->path, strerror(errno));
		}
		p += w;
		len -= w;
		o->pos += w;
	}
	return 0;
}

static int put2(struct out *o, uint16_t v)
{
	return put(o, &v, 2);
}

static int put4(struct out *o, uint32_t v)
{
	return put(o, &v, 4);
}

static int put8(struct out *o, uint64_t v)
{
	return put(o, &v, 8);
}

/* a size-prefixed blob; @width is 4 or 8 */
static int put_blob(struct out *o, int width, const void *data, size_t len)
{
	if (width == 4 ? put4(o, len) : put8(o, len))
		return -1;
	return put(o, data, len);
}

static char *dir_file(const char *dir, const char *name, char *buf, size_t size, char *err,
		      size_t errlen)
{
	if (cb_path(buf, size, "%s/%s", dir, name) < 0) {
		cb_fail(err, errlen, ENAMETOOLONG, "path too long: %s/%s", dir, name);
		return NULL;
	}
	return buf;
}

/* a file of the tracing tree; @optional: a missing file reads as empty */
static char *read_tree(const char *dir, const char *name, size_t *len, bool optional,
		       char *err, size_t errlen)
{
	char path[PATH_MAX];
	char *s;

	if (!dir_file(dir, name, path, sizeof(path), err, errlen))
		return NULL;
	s = cb_read_file(path, len);
	if (!s && optional && errno == ENOENT) {
		*len = 0;
		return strdup("");
	}
	if (!s)
		cb_fail(err, errlen, errno, "cannot read %s: %s", path, strerror(errno));
	return s;
}

static const char *tree_root(const char *dir, char *err, size_t errlen)
{
	const char *d = dir ? dir : tracefs_tracing_dir();

	if (!d)
		cb_fail(err, errlen, ENODEV,
		        "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
	return d;
}

int cb_tracedat_page_size(const char *tracing_dir, char *err, size_t errlen)
{
	const char *dir = tree_root(tracing_dir, err, errlen);
	char *hp, *f;
	size_t len;
	int off, size;

	if (!dir)
		return -1;
	hp = read_tree(dir, "events/header_page", &len, false, err, errlen);
	if (!hp)
		return -1;
	f = strstr(hp, "char data;");
	if (!f || sscanf(f, "char data;\toffset:%d;\tsize:%d;", &off, &size) != 2 ||
	    off <= 0 || size <= 0) {
		free(hp);
		return cb_fail(err, errlen, EINVAL, "%s/events/header_page: no \"data\" field", dir);
	}
	free(hp);
	return off + size;
}

int cb_tracedat_event_id(const char *tracing_dir, const char *system, const char *event,
			 char *err, size_t errlen)
{
	const char *dir = tree_root(tracing_dir, err, errlen);
	char name[PATH_MAX];
	char *fmt, *id;
	size_t len;
	int v;

	if (!dir)
		return -1;
	if (cb_path(name, sizeof(name), "events/%s/%s/format", system, event) < 0)
		return cb_fail(err, errlen, ENAMETOOLONG, "event name too long");
	fmt = read_tree(dir, name, &len, false, err, errlen);
	if (!fmt)
		return -1;
	id = strstr(fmt, "\nID: ");
	if (!id || sscanf(id, "\nID: %d", &v) != 1) {
		free(fmt);
		return cb_fail(err, errlen, EINVAL, "%s/%s: format has no ID line", dir, name);
	}
	free(fmt);
	return v;
}

static int put_tree_blob(struct out *o, const char *dir, const char *name, int width, bool optional)
{
	size_t len;
	char *s = read_tree(dir, name, &len, optional, o->err, o->errlen);
	int ret;

	if (!s)
		return -1;
	ret = put_blob(o, width, s, len);
	free(s);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every events/ftrace/<event>/format (sorted), count first; none is fine */
static int put_ftrace_formats(struct out *o, const char *dir)
{
	char path[PATH_MAX], **names = NULL;
	struct dirent *de;
	size_t n = 0, i;
	int ret = 0;
	DIR *d;

	if (!dir_file(dir, "events/ftrace", path, sizeof(path), o->err, o->errlen))
		return -1;
	d = opendir(path);
	while (d && (de = readdir(d))) {
		char fmt[PATH_MAX], **nn;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		if (cb_path(fmt, sizeof(fmt), "%s/%s/format", path, de->d_name) < 0 ||
		    stat(fmt, &st) < 0)
			continue;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn || !(nn[n] = strdup(de->d_name))) {
			names = nn ? nn : names;
			ret = ofail(o, ENOMEM, "out of memory");
			break;
		}
		names = nn;
		n++;
	}
	if (d)
		closedir(d);
	if (!ret && n)
		qsort(names, n, sizeof(*names), cmp_str);
	if (!ret)
		ret = put4(o, n);
	for (i = 0; i < n; i++) {
		char rel[PATH_MAX];

		if (!ret && cb_path(rel, sizeof(rel), "events/ftrace/%s/format", names[i]) < 0)
			ret = ofail(o, ENAMETOOLONG, "path too long");
		if (!ret)
			ret = put_tree_blob(o, dir, rel, 8, false);
		free(names[i]);
	}
	free(names);
	return ret;
}

/* split "system:event" into @sys/@ev; returns -1 on a malformed name (the message in @o) */
static int split_event(struct out *o, const char *name, char *sys, size_t ssz, char *ev,
		       size_t esz)
{
	const char *colon = strchr(name, ':');

	if (!colon || colon == name || !colon[1] || (size_t)(colon - name) >= ssz ||
	    strlen(colon + 1) >= esz)
		return ofail(o, EINVAL, "bad event name \"%s\" (want system:event)", name);
	memcpy(sys, name, colon - name);
	sys[colon - name] = '\0';
	strcpy(ev, colon + 1);
	return 0;
}

/*
 * one event format, checked first: a reader that cannot parse it would drop every event
 * of that type, so a format without its name, ID or field list is an error here
 */
static int put_format(struct out *o, const char *dir, const char *rel)
{
	size_t len;
	char *s = read_tree(dir, rel, &len, false, o->err, o->errlen);
	int ret, id;
	const char *p;

	if (!s)
		return -1;
	p = strstr(s, "\nID: ");
	if (strncmp(s, "name: ", 6) || !p || sscanf(p, "\nID: %d", &id) != 1 || id <= 0 ||
	    !strstr(s, "\nformat:\n") || strlen(s) != len) {
		free(s);
		return ofail(o, EINVAL, "%s/%s is corrupt: want \"name:\", \"ID:\" and "
			     "\"format:\" lines as the kernel writes them", dir, rel);
	}
	ret = put_blob(o, 8, s, len);
	free(s);
	return ret;
}

/* the event formats grouped by system in order of first appearance */
static int put_event_formats(struct out *o, const char *dir, const char *const *events)
{
	size_t n = 0, i, j, nsys = 0;
	char sys[256], ev[256], sys2[256], ev2[256];

	for (i = 0; events && events[i]; i++) {
		if (split_event(o, events[i], sys, sizeof(sys), ev, sizeof(ev)) < 0)
			return -1;
		n++;
	}
	/* count distinct systems */
	for (i = 0; i < n; i++) {
		split_event(o, events[i], sys, sizeof(sys), ev, sizeof(ev));
		for (j = 0; j < i; j++) {
			split_event(o, events[j], sys2, sizeof(sys2), ev2, sizeof(ev2));
			if (!strcmp(sys, sys2))
				break;
		}
		nsys += j == i;
	}
	if (put4(o, nsys))
		return -1;
	for (i = 0; i < n; i++) {
		uint32_t count = 0;

		split_event(o, events[i], sys, sizeof(sys), ev, sizeof(ev));
		for (j = 0; j < i; j++) {
			split_event(o, events[j], sys2, sizeof(sys2), ev2, sizeof(ev2));
			if (!strcmp(sys, sys2))
				break;
		}
		if (j < i)
			continue;	/* system already written */
		for (j = i; j < n; j++) {
			split_event(o, events[j], sys2, sizeof(sys2), ev2, sizeof(ev2));
			count += !strcmp(sys, sys2);
		}
		if (put(o, sys, strlen(sys) + 1) || put4(o, count))
			return -1;
		for (j = i; j < n; j++) {
			char rel[PATH_MAX];

			split_event(o, events[j], sys2, sizeof(sys2), ev2, sizeof(ev2));
			if (strcmp(sys, sys2))
				continue;
			if (cb_path(rel, sizeof(rel), "events/%s/%s/format", sys2, ev2) < 0)
				return ofail(o, ENAMETOOLONG, "event name too long");
			if (put_format(o, dir, rel))
				return -1;
		}
	}
	return 0;
}

static int put_cmdlines(struct out *o, const char *dir, const char *extra)
{
	size_t len, elen = extra ? strlen(extra) : 0;
	char *s = read_tree(dir, "saved_cmdlines", &len, true, o->err, o->errlen);
	int ret;

	if (!s)
		return -1;
	if (len && s[len - 1] != '\n' && elen) {
		ret = put8(o, len + 1 + elen) || put(o, s, len) || put(o, "\n", 1);
	} else {
		ret = put8(o, len + elen) || put(o, s, len);
	}
	if (!ret && elen)
		ret = put(o, extra, elen);
	free(s);
	return ret ? -1 : 0;
}

static int put_option(struct out *o, uint16_t id, const void *data, uint32_t len)
{
	if (put2(o, id) || put4(o, len))
		return -1;
	return put(o, data, len);
}

static int put_options(struct out *o, const struct cb_tracedat_src *src, const char *clock)
{
	char buf[1024];
	struct utsname u;
	int i;

	if (put(o, "options  ", 10))
		return -1;
	/*
	 * The clock itself follows the CPU offsets; libtracecmd 3.1 also parses the option's
	 * data (and leaks the first result), so the option carries just an empty string.
	 */
	if (clock && put_option(o, OPT_TRACECLOCK, "", 1))
		return -1;
	if (src->uname) {
		snprintf(buf, sizeof(buf), "%s", src->uname);
	} else if (uname(&u) == 0) {
		snprintf(buf, sizeof(buf), "%s %s %s %s", u.sysname, u.release, u.version,
			 u.machine);
	} else {
		buf[0] = '\0';
	}
	if (buf[0] && put_option(o, OPT_UNAME, buf, strlen(buf) + 1))
		return -1;
	snprintf(buf, sizeof(buf), "compactbench");
	if (put_option(o, OPT_VERSION, buf, strlen(buf) + 1))
		return -1;
	for (i = 0; src->cpustats && i < src->nr_cpus; i++) {
		const char *st = src->cpustats[i] ? src->cpustats[i] : "";
		char *text;
		int len = asprintf(&text, "CPU: %d\n%s", i, st), r;

		if (len < 0)
			return ofail(o, ENOMEM, "out of memory");
		r = put_option(o, OPT_CPUSTAT, text, len + 1);
		free(text);
		if (r)
			return -1;
	}
	return put2(o, OPT_DONE);
}

/* copy @size bytes of @fd to the output, by copy_file_range when it can */
static int copy_fd(struct out *o, int fd, unsigned long long size, const char *name)
{
	char buf[65536];

	while (size) {
		size_t chunk = size > (1 << 30) ? (1 << 30) : size;
		ssize_t n = copy_file_range(fd, NULL, o->fd, NULL, chunk, 0);

		if (n > 0) {
			size -= n;
			o->pos += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			return ofail(o, EIO, "%s is shorter than its size", name);
		if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
			return ofail(o, errno, "copying %s: %s", name, strerror(errno));
		break;	/* fall back to read/write */
	}
	while (size) {
		ssize_t n = read(fd, buf, size > sizeof(buf) ? sizeof(buf) : size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ofail(o, errno, "reading %s: %s", name, strerror(errno));
		if (n == 0)
			return ofail(o, EIO, "%s is shorter than its size", name);
		if (put(o, buf, n))
			return -1;
		size -= n;
	}
	return 0;
}

static int pad_to(struct out *o, unsigned long long target)
{
	static const char zero[4096];

	while (o->pos < target) {
		size_t n = target - o->pos > sizeof(zero) ? sizeof(zero) : target - o->pos;

		if (put(o, zero, n))
			return -1;
	}
	return 0;
}

/*
 * make the CPU file @path (@size bytes) the trace itself: insert room for what is written so
 * far (o->pos, page-aligned) in front of its data, copy that in, and go on writing behind its
 * data. Returns 1 when adopted, 0 when the filesystem refuses (nothing changed: copy it),
 * -1 on an error.
 */
static int adopt(struct out *o, const char *path, unsigned long long size)
{
	struct stat a, b;
	loff_t in = 0, to = 0;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (fstat(fd, &a) < 0 || fstat(o->fd, &b) < 0 || a.st_dev != b.st_dev ||
	    (unsigned long long)a.st_size != size ||
	    fallocate(fd, FALLOC_FL_INSERT_RANGE, 0, o->pos) < 0) {
		close(fd);
		return 0;
	}
	while (in < (loff_t)o->pos) {
		ssize_t n = copy_file_range(o->fd, &in, fd, &to, o->pos - in, 0);

		if (n <= 0) {
			close(fd);
			return ofail(o, n < 0 ? errno : EIO, "copying the header into %s: %s", path,
				     n < 0 ? strerror(errno) : "short copy");
		}
	}
	if (lseek(fd, o->pos + size, SEEK_SET) < 0) {
		close(fd);
		return ofail(o, errno, "seeking in %s: %s", path, strerror(errno));
	}
	o->head_fd = o->fd;
	o->fd = fd;
	o->pos += size;
	o->adopted = path;
	return 1;
}

static int put_cpu_data(struct out *o, const struct cb_tracedat_src *src, unsigned int psize,
			const char *clock)
{
	unsigned long long *size, off;
	int i, ret = -1, big = -1;

	size = calloc(src->nr_cpus, sizeof(*size));
	if (!size)
		return ofail(o, ENOMEM, "out of memory");
	for (i = 0; i < src->nr_cpus; i++) {
		const struct cb_tracedat_cpu *c = &src->cpu[i];
		struct stat st;

		if (c->path && stat(c->path, &st) < 0) {
			ofail(o, errno, "cannot stat %s: %s", c->path, strerror(errno));
			goto out;
		}
		size[i] = c->path ? (unsigned long long)st.st_size : c->size;
		if (size[i] % psize) {
			ofail(o, EINVAL, "CPU %d data is %llu bytes, not whole %u-byte pages", i,
			      size[i], psize);
			goto out;
		}
		if (src->adopt && c->path && size[i] && (big < 0 || size[i] > size[big]))
			big = i;
	}
	if (put(o, "flyrecord", 10))
		goto out;
	/* the data starts page-aligned after the offset table and the clock */
	off = o->pos + 16ULL * src->nr_cpus + (clock ? 8 + strlen(clock) : 0);
	for (i = 0; i < src->nr_cpus; i++) {
		off = (off + psize - 1) / psize * psize;
		if (put8(o, size[i] ? off : 0) || put8(o, size[i]))
			goto out;
		off += size[i];
	}
	if (clock && put_blob(o, 8, clock, strlen(clock)))
		goto out;
	for (i = 0; i < src->nr_cpus; i++) {
		const struct cb_tracedat_cpu *c = &src->cpu[i];
		int fd;

		if (!size[i])
			continue;
		if (pad_to(o, (o->pos + psize - 1) / psize * psize))
			goto out;
		if (!c->path) {
			if (put(o, c->data, size[i]))
				goto out;
			continue;
		}
		if (i == big) {
			int r = adopt(o, c->path, size[i]);

			if (r < 0)
				goto out;
			if (r > 0) {
				o->adopted_cpu = i;
				continue;
			}
		}
		fd = open(c->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ofail(o, errno, "cannot open %s: %s", c->path, strerror(errno));
			goto out;
		}
		if (copy_fd(o, fd, size[i], c->path) < 0) {
			close(fd);
			goto out;
		}
		close(fd);
	}
	ret = 0;
out:
	free(size);
	return ret;
}

static int write_all_sections(struct out *o, const struct cb_tracedat_src *src, const char *dir)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	char clock[64], *clk = NULL;
	unsigned char endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	unsigned char lsize = sizeof(long);
	int psize = src->page_size;

	if (!psize)
		psize = cb_tracedat_page_size(dir, o->err, o->errlen);
	if (psize <= 0)
		return -1;
	if (psize < PAGE_HDR_SIZE + 8 || (psize & (psize - 1)))
		return ofail(o, EINVAL, "bad page size %d", psize);
	if (src->nr_cpus <= 0 || !src->cpu)
		return ofail(o, EINVAL, "no CPU data");
	if (src->trace_clock) {
		snprintf(clock, sizeof(clock), "[%s]", src->trace_clock);
		clk = clock;
	}
	if (put(o, magic, sizeof(magic)) || put(o, "6", 2) || put(o, &endian, 1) ||
	    put(o, &lsize, 1) || put4(o, psize))
		return -1;
	if (put(o, "header_page", 12) || put_tree_blob(o, dir, "events/header_page", 8, false))
		return -1;
	if (put(o, "header_event", 13) || put_tree_blob(o, dir, "events/header_event", 8, false))
		return -1;
	if (put_ftrace_formats(o, dir) || put_event_formats(o, dir, src->events))
		return -1;
	if (src->kallsyms_path) {
		size_t len;
		char *ks = cb_read_file(src->kallsyms_path, &len);
		int r;

		if (!ks)
			return ofail(o, errno, "cannot read %s: %s", src->kallsyms_path,
				     strerror(errno));
		r = put_blob(o, 4, ks, len);
		free(ks);
		if (r)
			return -1;
	} else if (put4(o, 0)) {
		return -1;
	}
	if (put_tree_blob(o, dir, "printk_formats", 4, true) ||
	    put_cmdlines(o, dir, src->extra_cmdlines))
		return -1;
	if (put4(o, src->nr_cpus) || put_options(o, src, clk))
		return -1;
	return put_cpu_data(o, src, psize, clk);
}

/* the end of a write: the adopted CPU file, fsync'ed, takes the name @path */
static int finish(struct out *o, const char *path)
{
	if (o->adopted && fchmod(o->fd, 0644) < 0)
		return ofail(o, errno, "chmod %s: %s", o->adopted, strerror(errno));
	if (fsync(o->fd) < 0)
		return ofail(o, errno, "fsync %s: %s", o->adopted ? o->adopted : path,
			     strerror(errno));
	if (o->adopted && rename(o->adopted, path) < 0)
		return ofail(o, errno, "renaming %s to %s: %s", o->adopted, path,
			     strerror(errno));
	if (close(o->fd) < 0) {
		o->fd = -1;
		return ofail(o, errno, "closing %s: %s", path, strerror(errno));
	}
	o->fd = -1;
	return 0;
}

long long cb_tracedat_write(const char *path, const struct cb_tracedat_src *src, int *adopted,
			     char *err, size_t errlen)
{
	const char *dir = tree_root(src ? src->tracing_dir : NULL, err, errlen);
	struct out o = { .path = path, .head_fd = -1, .adopted_cpu = -1, .err = err,
			 .errlen = errlen };
	int saved;

	if (adopted)
		*adopted = -1;
	if (!src)
		return cb_fail(err, errlen, EINVAL, "no source");
	if (!dir)
		return -1;
	/* readable too: an adopted CPU file copies the header from it */
	o.fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (o.fd < 0)
		return cb_fail(err, errlen, errno, "cannot create %s: %s", path, strerror(errno));
	if (write_all_sections(&o, src, dir) < 0 || finish(&o, path) < 0)
		goto fail;
	if (o.head_fd >= 0)
		close(o.head_fd);
	if (adopted)
		*adopted = o.adopted_cpu;
	return o.pos;
fail:
	saved = errno;
	if (o.fd >= 0)
		close(o.fd);
	if (o.head_fd >= 0)
		close(o.head_fd);
	unlink(path);
	errno = saved;
	return -1;
}

int cb_tracedat_page_init(struct cb_tracedat_page *p, void *buf, size_t size, uint64_t ts)
{
	if (!p || !buf || size < PAGE_HDR_SIZE + 8) {
		errno = EINVAL;
		return -1;
	}
	memset(buf, 0, size);
	p->buf = buf;
	p->size = size;
	p->used = 0;
	p->ts = ts;
	memcpy(p->buf, &ts, 8);
	return 0;
}

/* an event header word: type_len and time_delta, as kbuffer decodes them on this host */
static uint32_t ev_hdr(uint32_t type_len, uint64_t delta)
{
	delta &= (1u << TS_BITS) - 1;
	if (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
		return type_len << TS_BITS | (uint32_t)delta;
	return type_len | (uint32_t)delta << 5;
}

static void page_put4(struct cb_tracedat_page *p, uint32_t v)
{
	memcpy(p->buf + PAGE_HDR_SIZE + p->used, &v, 4);
	p->used += 4;
}

int cb_tracedat_page_add(struct cb_tracedat_page *p, uint64_t ts, const void *payload, size_t len)
{
	uint64_t delta, commit;
	size_t need, plen = (len + 3) & ~(size_t)3;
	bool small = plen <= MAX_SMALL_DATA;

	if (!p || !payload || !len || ts < p->ts) {
		errno = EINVAL;
		return -1;
	}
	delta = ts - p->ts;
	need = 4 + (small ? 0 : 4) + plen + (delta >> TS_BITS ? 8 : 0);
	if (PAGE_HDR_SIZE + p->used + need > p->size) {
		errno = ENOSPC;
		return -1;
	}
	if (delta >> TS_BITS) {
		/* time extend: low 27 bits in the header, the rest in array[0] */
		page_put4(p, ev_hdr(TYPE_TIME_EXTEND, delta));
		page_put4(p, (uint32_t)(delta >> TS_BITS));
		delta = 0;
	}
	if (small) {
		page_put4(p, ev_hdr(plen / 4, delta));
	} else {
		page_put4(p, ev_hdr(0, delta));
		page_put4(p, (uint32_t)(len + 4));
	}
	memcpy(p->buf + PAGE_HDR_SIZE + p->used, payload, len);
	p->used += plen;
	p->ts = ts;
	commit = p->used;
	memcpy(p->buf + 8, &commit, 8);
	return 0;
}
