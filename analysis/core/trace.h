/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace.h - read a trace-cmd trace.dat (version 6 or 7, compressed or not) with libtracecmd.
 *
 * Events come out in timestamp order across CPUs (tracecmd_iterate_events merges the per-CPU
 * streams), one record at a time: memory does not grow with the number of events. Event ids
 * and fields are looked up by name in the file's own formats, never by offset, so a trace
 * from another kernel (6.1 in a guest, 6.18 here) reads the same way.
 *
 * Functions return -1 (or NULL) on failure and leave a message naming the file (and the
 * event and field) in the caller's @err buffer; nothing here prints or exits.
 */
#ifndef CB_TRACE_H
#define CB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <traceevent/event-parse.h>

struct cb_trace;
struct tep_record;
struct tep_format_field;

/*
 * a field of one event, resolved by name; @f is NULL when the event is not in the file.
 * Numeric fields of 1, 2, 4 or 8 bytes are read directly (swapped when the file's byte
 * order is not the host's); others through libtraceevent.
 */
struct cb_trace_field {
	struct tep_format_field *f;
	unsigned int offset, size;
	bool swap;
};

/*
 * cb_trace_open - open @path and read its headers (formats, cmdlines, CPU data offsets)
 * Every ring-buffer page of a version 6 file is checked first (tracecheck.h).
 * Returns the handle, or NULL with a message naming @path in @err (missing, not a trace.dat,
 * truncated headers or data). libtracecmd's log level is set to none, though it still
 * prints a line or two of its own on some bad files. It runs in the caller's process and
 * can crash on a corrupt format section: cb_stalls_from_trace() isolates it.
 */
struct cb_trace *cb_trace_open(const char *path, char *err, size_t errlen);

/* cb_trace_close - close what cb_trace_open opened; NULL is fine */
void cb_trace_close(struct cb_trace *t);

/* cb_trace_path - the path the trace was opened from */
const char *cb_trace_path(const struct cb_trace *t);

/*
 * cb_trace_event_id - the id of @system:@name in this file's formats
 * Returns the id (>= 0), or -1 with errno ENOENT when the file has no such event (the
 * kernel lacks it or the recorder did not enable it).
 */
int cb_trace_event_id(struct cb_trace *t, const char *system, const char *name);

/*
 * cb_trace_field - resolve @field of @system:@event by name
 * An event missing from the file is not an error: @out->f is set to NULL and 0 returned
 * (callers then never see records of it). An event present without the field is an error:
 * returns -1 with "FILE: event SYSTEM:EVENT has no field FIELD in this kernel's format".
 */
int cb_trace_field(struct cb_trace *t, const char *system, const char *event, const char *field,
		   struct cb_trace_field *out, char *err, size_t errlen);

/*
 * cb_trace_symbol - the numeric value that the event's print format maps to the symbol
 * @name for @field (e.g. the "ret" field of compaction:mm_compaction_suitable, "success").
 * Returns 0 and the value in @val, or -1 with errno ENOENT if the file does not say.
 */
int cb_trace_symbol(struct cb_trace *t, const char *system, const char *event, const char *field,
		    const char *name, long long *val);

/*
 * cb_trace_flag - the numeric value of flag @name in the __print_flags() table that prints
 * @field (e.g. "__GFP_COMP" of the gfp_mask field of try_to_compact_pages). libtraceevent
 * evaluates the kernel's constant expressions ("((gfp_t)((((1UL))) << (18)))") when it
 * parses the format. Returns 0 and the value in @val, or -1 with errno ENOENT.
 */
int cb_trace_flag(struct cb_trace *t, const char *system, const char *event, const char *field,
		  const char *name, unsigned long long *val);

/*
 * cb_trace_foreach_event - call @fn(id, system, name, @data) for every event format in the
 * file; stops at the first non-zero return and returns it (0 when all were visited)
 */
int cb_trace_foreach_event(struct cb_trace *t,
			   int (*fn)(int id, const char *system, const char *name, void *data),
			   void *data);

/* cb_trace_u64_slow - cb_trace_u64 for sizes other than 1, 2, 4 and 8 (libtraceevent) */
int cb_trace_u64_slow(const struct cb_trace_field *fld, const struct tep_record *rec,
		      unsigned long long *val);

/*
 * cb_trace_u64 - read a numeric field of @rec; returns 0, or -1 if the record is too short
 * or the field is unresolved (then @val is 0). Inline: the analyzer reads one or two fields
 * of millions of records.
 */
static inline int cb_trace_u64(const struct cb_trace_field *fld, const struct tep_record *rec,
			       unsigned long long *val)
{
	const unsigned char *p;
	uint16_t v2;
	uint32_t v4;

	*val = 0;
	if (__builtin_expect(!fld->f || fld->offset + fld->size > (unsigned int)rec->size, 0))
		return -1;
	p = (const unsigned char *)rec->data + fld->offset;
	switch (fld->size) {
	case 1:
		*val = *p;
		return 0;
	case 2:
		__builtin_memcpy(&v2, p, 2);
		*val = fld->swap ? __builtin_bswap16(v2) : v2;
		return 0;
	case 4:
		__builtin_memcpy(&v4, p, 4);
		*val = fld->swap ? __builtin_bswap32(v4) : v4;
		return 0;
	case 8:
		__builtin_memcpy(val, p, 8);
		if (fld->swap)
			*val = __builtin_bswap64(*val);
		return 0;
	default:
		return cb_trace_u64_slow(fld, rec, val);
	}
}

/* cb_trace_s64 - as cb_trace_u64, sign-extended by the field's size and signedness */
int cb_trace_s64(const struct cb_trace_field *fld, const struct tep_record *rec, long long *val);

/* cb_trace_type - the event id of @rec (-1 if unreadable) */
int cb_trace_type(struct cb_trace *t, struct tep_record *rec);

/* cb_trace_event_system - the system ("compaction", "kmem") of event id @type, or NULL */
const char *cb_trace_event_system(struct cb_trace *t, int type);

/* cb_trace_pid - the common_pid of @rec (-1 if unreadable) */
int cb_trace_pid(struct cb_trace *t, struct tep_record *rec);

/*
 * cb_trace_comm - the command name the trace saved for @pid, or NULL if it has none
 * (a trace made without saved_cmdlines, or a pid that exited before the save)
 */
const char *cb_trace_comm(struct cb_trace *t, int pid);

typedef int (*cb_trace_fn)(struct cb_trace *t, struct tep_record *rec, int type, void *data);

/* what a full pass over the events saw */
struct cb_trace_stats {
	uint64_t events;	/* records delivered to the callback */
	uint64_t missed;	/* events the ring buffer reported lost before some record */
	uint64_t missed_unknown; /* records preceded by a loss of unknown size */
	uint64_t first_ts, last_ts; /* timestamps of the first and last record (ns) */
	int nr_cpus;
};

/*
 * cb_trace_select - hand cb_trace_iterate's callback only the records it uses: those whose
 * event id @type has @want[type] != 0 (@n ids, others are not wanted), and of event id
 * @pos_type (-1: none) only those whose field @pos reads as an int > 0 (e.g. the order of
 * kmem:mm_page_alloc: order-0 allocations are most of such a trace and tell nothing). A
 * record that follows a loss is always handed over, and every record is still counted in
 * the stats. Call it again with @want NULL to hand over everything. Returns 0, or -1 with
 * errno ENOMEM.
 */
int cb_trace_select(struct cb_trace *t, const unsigned char *want, int n, int pos_type,
		    const struct cb_trace_field *pos);

/*
 * cb_trace_iterate - call @fn for every record of every CPU in timestamp order
 * @fn returns 0 to go on, or a negative number to stop (it then returns -1 with its own
 * message in @err). @stats (may be NULL) receives what the pass saw.
 * Returns 0, or -1 with a message naming the file in @err (a callback failure, or a data
 * section that is shorter than its header says: a truncated trace).
 */
int cb_trace_iterate(struct cb_trace *t, cb_trace_fn fn, void *data, struct cb_trace_stats *stats,
		     char *err, size_t errlen);

#endif
