// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - read a trace.dat with libtracecmd: open, resolve events and fields by name,
 * iterate every record in timestamp order.
 */
#include "trace.h"
#include "shed.h"
#include "tracecheck.h"
#include "tep_print.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

struct cb_trace {
	struct tracecmd_input *in;
	struct tep_handle *tep;
	struct cb_shed *shed;	/* v6: drop pages read (shed.h) */
	struct cb_tracecheck info; /* what the page check found */
	struct cb_trace_field type_f, pid_f; /* common_type, common_pid; f NULL: ask tep */
	unsigned char *want;	/* cb_trace_select: by event id; NULL: every record */
	int nwant, pos_type;
	struct cb_trace_field pos;
	bool type_le2;		/* common_type: 2 bytes at offset 0, host order */
	bool pos_le4;		/* pos: 4 bytes, host order */
	char path[PATH_MAX];
};

/* the first bytes of every trace.dat: "\027\010\104tracing" */
static int check_magic(const char *path, char *err, size_t errlen)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	char buf[sizeof(magic)];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cb_set_err(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		cb_set_err(err, errlen, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n != (ssize_t)sizeof(buf) || memcmp(buf, magic, sizeof(buf))) {
		cb_set_err(err, errlen, "%s: not a trace-cmd trace.dat (bad magic%s)", path,
			   n < (ssize_t)sizeof(buf) ? ", file too short" : "");
		return -1;
	}
	return 0;
}

/*
 * the pages were checked with the commit size and byte order tracecheck.c read from the
 * headers: refuse the file if libtraceevent parsed them otherwise (kbuffer uses its values)
 */
static int agrees(struct cb_trace *t, const struct cb_tracecheck *info, char *err,
		  size_t errlen)
{
	int csize = tep_get_header_page_size(t->tep), big = tep_is_file_bigendian(t->tep);

	if (info->checked && (csize != info->commit_size || big != info->big_endian)) {
		cb_set_err(err, errlen, "%s: corrupt trace: libtraceevent read the header_page as a "
			   "%d-byte commit%s, the check as %d bytes%s", t->path, csize,
			   big ? " big-endian" : "", info->commit_size,
			   info->big_endian ? " big-endian" : "");
		return -1;
	}
	return 0;
}

/*
 * tracecmd_init_data, quiet: libtracecmd 3.1.6 prints "mmap: ..." and "Can not mmap file,
 * will read instead" to stderr (not through its log level) when the CPU data is not aligned
 * to this machine's pages; for such a file (the check says which) stderr is /dev/null here
 */
static int init_data(struct cb_trace *t)
{
	int saved = -1, null, ret;

	if (t->info.unaligned) {
		fflush(stderr);
		saved = dup(2);
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (saved >= 0 && null >= 0)
			dup2(null, 2);
		if (null >= 0)
			close(null);
	}
	ret = tracecmd_init_data(t->in);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
	return ret;
}

static void resolve_common(struct cb_trace *t);

struct cb_trace *cb_trace_open(const char *path, char *err, size_t errlen)
{
	struct cb_tracecheck info;
	struct cb_trace *t;

	if (check_magic(path, err, errlen))
		return NULL;
	/* kbuffer trusts page headers: refuse a corrupt page before libtracecmd sees it */
	if (cb_tracecheck_file(path, &info, err, errlen))
		return NULL;
	/* libtracecmd and libtraceevent print warnings about odd input: we report instead */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	t = calloc(1, sizeof(*t));
	if (!t) {
		cb_set_err(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	snprintf(t->path, sizeof(t->path), "%s", path);
	t->info = info;
	errno = 0;
	t->in = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!t->in) {
		int e = errno < 0 ? -errno : errno;

		cb_set_err(err, errlen,
			   "%s: cannot read as a trace.dat (truncated or corrupt headers%s%s)", path,
			   e ? ": " : "", e ? strerror(e) : "");
		free(t);
		return NULL;
	}
	if (init_data(t) < 0) {
		cb_set_err(err, errlen, "%s: truncated or corrupt trace data (the CPU data sections "
			   "do not match the header)", path);
		/*
		 * libtracecmd 3.1.6 crashes in tracecmd_close() on a handle whose data failed to
		 * initialize (tracecmd_open does exactly that on a truncated v6 file): leak the
		 * handle instead. It is a few kilobytes, once per bad file.
		 */
		free(t);
		return NULL;
	}
	if (info.checked && info.version == 6)
		t->shed = cb_shed_new(path, info.nr_cpus);
	t->tep = tracecmd_get_tep(t->in);
	if (!t->tep) {
		cb_set_err(err, errlen, "%s: no event formats in the file", path);
		cb_trace_close(t);
		return NULL;
	}
	if (agrees(t, &info, err, errlen)) {
		cb_trace_close(t);
		return NULL;
	}
	resolve_common(t);
	return t;
}

void cb_trace_close(struct cb_trace *t)
{
	if (!t)
		return;
	if (t->in)
		tracecmd_close(t->in);
	cb_shed_free(t->shed);
	free(t->want);
	free(t);
}

const char *cb_trace_path(const struct cb_trace *t)
{
	return t->path;
}

int cb_trace_event_id(struct cb_trace *t, const char *system, const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(t->tep, system, name);

	if (!ev) {
		errno = ENOENT;
		return -1;
	}
	return ev->id;
}

int cb_trace_field(struct cb_trace *t, const char *system, const char *event, const char *field,
		   struct cb_trace_field *out, char *err, size_t errlen)
{
	struct tep_event *ev = tep_find_event_by_name(t->tep, system, event);

	memset(out, 0, sizeof(*out));
	if (!ev)
		return 0;
	out->f = tep_find_field(ev, field);
	if (out->f) {
		out->offset = out->f->offset;
		out->size = out->f->size;
		out->swap = tep_is_file_bigendian(t->tep) != tep_is_local_bigendian(t->tep);
	}
	if (!out->f) {
		cb_set_err(err, errlen, "%s: event %s:%s has no field '%s' in this kernel's format",
			   t->path, system, event, field);
		errno = ENOENT;
		return -1;
	}
	return 0;
}

int cb_trace_symbol(struct cb_trace *t, const char *system, const char *event, const char *field,
		    const char *name, long long *val)
{
	struct tep_event *ev = tep_find_event_by_name(t->tep, system, event);
	unsigned long long u;

	if (!ev || !field) {
		errno = ENOENT;
		return -1;
	}
	if (cb_tep_print_value(cb_tep_print_table(ev, TEP_PRINT_SYMBOL, field), name, &u))
		return -1;
	*val = (long long)u;
	return 0;
}

int cb_trace_flag(struct cb_trace *t, const char *system, const char *event, const char *field,
		  const char *name, unsigned long long *val)
{
	struct tep_event *ev = tep_find_event_by_name(t->tep, system, event);

	if (!ev || !field) {
		errno = ENOENT;
		return -1;
	}
	return cb_tep_print_value(cb_tep_print_table(ev, TEP_PRINT_FLAGS, field), name, val);
}

int cb_trace_foreach_event(struct cb_trace *t,
			   int (*fn)(int id, const char *system, const char *name, void *data),
			   void *data)
{
	int i, n = tep_get_events_count(t->tep), ret;

	for (i = 0; i < n; i++) {
		struct tep_event *ev = tep_get_event(t->tep, i);

		if (!ev || !ev->system || !ev->name)
			continue;
		ret = fn(ev->id, ev->system, ev->name, data);
		if (ret)
			return ret;
	}
	return 0;
}

int cb_trace_u64_slow(const struct cb_trace_field *fld, const struct tep_record *rec,
		      unsigned long long *val)
{
	*val = 0;
	if (!fld->f || fld->offset + fld->size > (unsigned int)rec->size) {
		errno = EINVAL;
		return -1;
	}
	/* tep_read_number_field only reads; its prototype lacks the const */
	return tep_read_number_field(fld->f, rec->data, val) ? -1 : 0;
}

int cb_trace_s64(const struct cb_trace_field *fld, const struct tep_record *rec, long long *val)
{
	unsigned long long u;
	int ret = cb_trace_u64(fld, rec, &u);

	if (!ret && (fld->f->flags & TEP_FIELD_IS_SIGNED) && fld->f->size < 8) {
		unsigned int bits = fld->f->size * 8;

		if (u & (1ULL << (bits - 1)))
			u |= ~0ULL << bits;
	}
	*val = (long long)u;
	return ret;
}

/*
 * common_type and common_pid at the offsets the formats give (every event has them at the
 * same place), read as cb_trace_u64 reads a field: tep_data_type() and tep_data_pid()
 * look the field up again on every call. A record too short for them goes to libtraceevent
 * as before, so the value is the same either way.
 */
static void resolve_common(struct cb_trace *t)
{
	struct tep_event *ev = tep_get_events_count(t->tep) > 0 ? tep_get_event(t->tep, 0) : NULL;
	struct tep_format_field *ft = ev ? tep_find_common_field(ev, "common_type") : NULL;
	struct tep_format_field *fp = ev ? tep_find_common_field(ev, "common_pid") : NULL;
	bool swap = tep_is_file_bigendian(t->tep) != tep_is_local_bigendian(t->tep);

	if (ft && ft->size > 0 && ft->size <= 4 && (ft->size & (ft->size - 1)) == 0)
		t->type_f = (struct cb_trace_field){ ft, ft->offset, ft->size, swap };
	t->type_le2 = ft && ft->offset == 0 && ft->size == 2 && !swap;
	if (fp && fp->size > 0 && fp->size <= 4 && (fp->size & (fp->size - 1)) == 0)
		t->pid_f = (struct cb_trace_field){ fp, fp->offset, fp->size, swap };
}

static inline int rec_type(struct cb_trace *t, struct tep_record *rec)
{
	unsigned long long v;
	uint16_t v2;

	/* the usual layout: a 2-byte common_type first, in the host's byte order */
	if (t->type_le2 && rec->size >= 2) {
		memcpy(&v2, rec->data, 2);
		return v2;
	}
	if (!cb_trace_u64(&t->type_f, rec, &v))
		return (int)v;
	return tep_data_type(t->tep, rec);
}

int cb_trace_type(struct cb_trace *t, struct tep_record *rec)
{
	return rec_type(t, rec);
}

const char *cb_trace_event_system(struct cb_trace *t, int type)
{
	struct tep_event *ev = type >= 0 ? tep_find_event(t->tep, type) : NULL;

	return ev ? ev->system : NULL;
}

int cb_trace_pid(struct cb_trace *t, struct tep_record *rec)
{
	unsigned long long v;

	if (!cb_trace_u64(&t->pid_f, rec, &v))
		return (int)v;
	return tep_data_pid(t->tep, rec);
}

const char *cb_trace_comm(struct cb_trace *t, int pid)
{
	if (pid == 0)
		return "<idle>";
	if (!tep_is_pid_registered(t->tep, pid))
		return NULL;
	return tep_data_comm_from_pid(t->tep, pid);
}

int cb_trace_select(struct cb_trace *t, const unsigned char *want, int n, int pos_type,
		    const struct cb_trace_field *pos)
{
	free(t->want);
	t->want = NULL;
	t->nwant = 0;
	if (!want || n <= 0)
		return 0;
	t->want = malloc(n);
	if (!t->want) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(t->want, want, n);
	t->nwant = n;
	t->pos_type = pos_type;
	memset(&t->pos, 0, sizeof(t->pos));
	if (pos)
		t->pos = *pos;
	t->pos_le4 = t->pos.f && t->pos.size == 4 && !t->pos.swap;
	return 0;
}

/* what cb_trace_select asks for */
static inline bool wanted(const struct cb_trace *t, struct tep_record *rec, int type)
{
	unsigned long long v;

	if (type < 0 || type >= t->nwant || !t->want[type])
		return false;
	if (type != t->pos_type || !t->pos.f)
		return true;
	if (t->pos_le4 && t->pos.offset + 4 <= (unsigned int)rec->size) {
		int32_t v4;

		memcpy(&v4, (const char *)rec->data + t->pos.offset, 4);
		return v4 > 0;
	}
	cb_trace_u64(&t->pos, rec, &v);
	return (int)v > 0;
}

#define SHED_EVERY 64	/* records between two looks at where the reader is (a power of 2) */

struct iter {
	struct cb_trace *t;
	cb_trace_fn fn;
	void *data;
	struct cb_trace_stats *st;	/* events and last_ts are kept here, copied at the end */
	uint64_t events, last_ts;
	const unsigned char *want;	/* t's selection, NULL: every record */
	int nwant, pos_type;
	bool fast;		/* common_type 2 bytes at 0, pos (if any) 4 bytes, host order */
	int failed;
};

/* what a record rarely needs: a loss to count, the first timestamp, a look for the shed */
static void iter_rare(struct iter *it, struct tep_record *rec, int cpu)
{
	struct cb_trace_stats *st = it->st;

	if (rec->missed_events > 0)
		st->missed += rec->missed_events;
	else if (rec->missed_events < 0)
		st->missed_unknown++;
	if (it->events == 1)
		st->first_ts = rec->ts;
	/* a look every SHED_EVERY records keeps each CPU's resident tail to a few pages */
	if (it->t->shed && !(it->events & (SHED_EVERY - 1)))
		cb_shed_note(it->t->shed, cpu, rec->data);
}

/* whether @fn gets @rec: cb_trace_select's rule, with the usual layout read in one load */
static inline bool handed(const struct iter *it, struct tep_record *rec, int *type)
{
	const struct cb_trace *t = it->t;
	uint16_t v2;
	int32_t v4;

	if (it->fast && rec->size >= 2) {
		memcpy(&v2, rec->data, 2);
		*type = v2;
		if (!it->want)
			return true;
		if (*type >= it->nwant || !it->want[*type])
			return rec->missed_events != 0;
		if (*type != it->pos_type)
			return true;
		if (t->pos.offset + 4 <= (unsigned int)rec->size) {
			memcpy(&v4, (const char *)rec->data + t->pos.offset, 4);
			return v4 > 0 || rec->missed_events;
		}
	}
	*type = rec_type((struct cb_trace *)t, rec);
	return !it->want || rec->missed_events || wanted(t, rec, *type);
}

static int iter_one(struct tracecmd_input *in, struct tep_record *rec, int cpu, void *data)
{
	struct iter *it = data;
	int type;

	it->events++;
	it->last_ts = rec->ts;
	if (__builtin_expect(rec->missed_events != 0 || it->events == 1 ||
			     !(it->events & (SHED_EVERY - 1)), 0))
		iter_rare(it, rec, cpu);
	if (!it->fn || !handed(it, rec, &type))
		return 0;
	if (it->fn(it->t, rec, type, it->data) < 0) {
		it->failed = 1;
		return -1;
	}
	return 0;
}

int cb_trace_iterate(struct cb_trace *t, cb_trace_fn fn, void *data, struct cb_trace_stats *stats,
		     char *err, size_t errlen)
{
	struct cb_trace_stats local;
	struct iter it = { .t = t, .fn = fn, .data = data, .st = stats ? stats : &local };
	int ret;

	memset(it.st, 0, sizeof(*it.st));
	it.st->nr_cpus = tep_get_cpus(t->tep);
	it.want = t->want;
	it.nwant = t->nwant;
	it.pos_type = t->want && t->pos.f ? t->pos_type : -1;
	it.fast = t->type_le2 && (it.pos_type < 0 || t->pos_le4);
	errno = 0;
	ret = tracecmd_iterate_events(t->in, NULL, 0, iter_one, &it);
	it.st->events = it.events;
	it.st->last_ts = it.last_ts;
	if (it.failed)
		return -1;	/* the callback wrote its message */
	if (ret < 0) {
		int e = errno < 0 ? -errno : errno;

		cb_set_err(err, errlen, "%s: cannot read the event data%s%s", t->path,
			   e ? ": " : "", e ? strerror(e) : "");
		return -1;
	}
	/* kbuffer and the page check walked the same pages: they must agree on the events */
	if (t->info.events_exact && it.st->events != t->info.events) {
		cb_set_err(err, errlen, "%s: corrupt trace: libtracecmd read %llu events where the "
			   "pages hold %llu (the headers contradict the pages)", t->path,
			   (unsigned long long)it.st->events, (unsigned long long)t->info.events);
		return -1;
	}
	return 0;
}
