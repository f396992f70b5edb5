// SPDX-License-Identifier: GPL-2.0-only
/*
 * stalls_trace.c - feed the stall state machine (stalls.c) from a trace.dat (read in a
 * forked child with limits: stalls_child.c).
 */
#include "stalls.h"
#include "util.h"
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

/* the events read, by name */
enum ev_idx {
	E_TRY, E_BEGIN, E_END, E_DEFERRED, E_SUITABLE, E_KC_WAKE, E_KC_SLEEP, E_RECLAIM,
	E_ALLOC, E_ISO_MIGRATE, E_ISO_FREE, E_ISO_FREE_FAST, E_MIGRATE, E_EXTFRAG, E_DEMAND_TARGET,
	E_DEMAND, E_NR
};

static const struct {
	const char *system, *name;
	enum cb_sev_kind kind;
	bool required;
	bool patched; /* only a patched kernel has it: its absence is not worth a mention */
} wanted[E_NR] = {
	[E_TRY] = { "compaction", "mm_compaction_try_to_compact_pages", CB_SEV_TRY, true },
	[E_BEGIN] = { "compaction", "mm_compaction_begin", CB_SEV_BEGIN, true },
	[E_END] = { "compaction", "mm_compaction_end", CB_SEV_END, false },
	[E_DEFERRED] = { "compaction", "mm_compaction_deferred", CB_SEV_DEFERRED, false },
	[E_SUITABLE] = { "compaction", "mm_compaction_suitable", CB_SEV_SUITABLE, false },
	[E_KC_WAKE] = { "compaction", "mm_compaction_kcompactd_wake", CB_SEV_KCOMPACTD, false },
	[E_KC_SLEEP] = { "compaction", "mm_compaction_kcompactd_sleep", CB_SEV_KCOMPACTD_SLEEP,
			 false },
	[E_RECLAIM] = { "vmscan", "mm_vmscan_direct_reclaim_begin", CB_SEV_RECLAIM_BEGIN, false },
	[E_ALLOC] = { "kmem", "mm_page_alloc", CB_SEV_PAGE_ALLOC, false },
	[E_ISO_MIGRATE] = { "compaction", "mm_compaction_isolate_migratepages",
			    CB_SEV_ISOLATE_MIGRATE, false },
	[E_ISO_FREE] = { "compaction", "mm_compaction_isolate_freepages", CB_SEV_ISOLATE_FREE,
			 false },
	[E_ISO_FREE_FAST] = { "compaction", "mm_compaction_fast_isolate_freepages",
			      CB_SEV_ISOLATE_FREE, false },
	[E_MIGRATE] = { "compaction", "mm_compaction_migratepages", CB_SEV_MIGRATE, false },
	[E_EXTFRAG] = { "kmem", "mm_page_alloc_extfrag", CB_SEV_EXTFRAG, false },
	/* configs/kernels/patches/demand-kcompactd: marks kcompactd's demand pass */
	[E_DEMAND_TARGET] = { "compaction", "mm_compaction_demand_target", CB_SEV_DEMAND_TARGET,
			      false, true },
	/*
	 * the same series: the slow path of an allocation counts its demand (once, after its
	 * first attempt failed), so the task's previous attempt is over; as other compaction
	 * work it would have stretched that stall to the next allocation's slow path
	 */
	[E_DEMAND] = { "compaction", "mm_compaction_demand", CB_SEV_SLOWPATH, false, true },
};

/* what an event id is: one of enum ev_idx, other compaction work, or nothing to us */
#define K_IGNORE -1
#define K_COMPACTION -2

/* the compaction:mm_compaction_end status symbols; 5.x-6.18 values as the fallback */
static const struct {
	const char *sym;
	long long dflt;
	enum cb_end end;
} end_syms[] = {
	{ "success", 8, CB_END_SUCCESS },
	{ "complete", 5, CB_END_COMPLETE },
	{ "partial_skipped", 6, CB_END_PARTIAL },
	{ "contended", 7, CB_END_CONTENDED },
};

#define NEND (sizeof(end_syms) / sizeof(end_syms[0]))

/* the probe method's events (harness/collector/probes.h), by name inside the collector's system */
static const struct {
	const char *name;
	enum cb_pev_kind kind;
} probe_evs[] = {
	{ "alloc_slowpath", CB_PEV_SLOW },
	{ "alloc_slowpath_ret", CB_PEV_SLOW_RET },
	{ "direct_compact", CB_PEV_DC },
	{ "direct_compact_ret", CB_PEV_DC_RET },
};

#define NPROBE (sizeof(probe_evs) / sizeof(probe_evs[0]))
#define PROBE_SYSTEM_PREFIX "compactbench_" /* CB_PROBES_SYSTEM_PREFIX of harness/collector/probes.h */

struct adapter {
	struct cb_stalls *s;
	int id[E_NR];
	signed char *kind_of; /* by event id */
	signed char *pkind_of; /* by event id: enum cb_pev_kind, or -1 */
	char psys[64];	      /* the probes' system, the first one found */
	unsigned int pseen;   /* bit i: probe_evs[i] found in psys */
	struct cb_trace_field p_order, p_gfp, p_ret;
	int max_id;
	struct cb_trace_field try_order, try_gfp, suit_ret, suit_order, alloc_order, alloc_pfn,
		alloc_page, end_status, iso_m[2], iso_f[2], iso_ff[2], mig[2], xf[4], dt_after;
	long long end_val[NEND];
	struct cb_gfp_map gfp;
	char *err;
	size_t errlen;
};

static int map_event(int id, const char *system, const char *name, void *data)
{
	struct adapter *a = data;
	int i;

	if (id < 0 || id > a->max_id)
		return 0;
	for (i = 0; i < E_NR; i++)
		if (!strcmp(system, wanted[i].system) && !strcmp(name, wanted[i].name))
			break;
	if (!strcmp(system, "vmscan") && !strcmp(name, "mm_vmscan_direct_reclaim_end"))
		a->pkind_of[id] = CB_PEV_RECLAIM_END;
	if (i == E_RECLAIM)
		a->pkind_of[id] = CB_PEV_RECLAIM;
	if (!strncmp(system, PROBE_SYSTEM_PREFIX, strlen(PROBE_SYSTEM_PREFIX)) &&
	    (!a->psys[0] || !strcmp(a->psys, system))) {
		size_t k;

		for (k = 0; k < NPROBE; k++)
			if (!strcmp(name, probe_evs[k].name)) {
				snprintf(a->psys, sizeof(a->psys), "%s", system);
				a->pkind_of[id] = probe_evs[k].kind;
				a->pseen |= 1u << k;
			}
	}
	if (i < E_NR)
		a->kind_of[id] = (signed char)i;
	/* the waker of kcompactd is kswapd or an allocator: not its own compaction work */
	else if (!strcmp(system, "compaction") && strcmp(name, "mm_compaction_wakeup_kcompactd"))
		a->kind_of[id] = K_COMPACTION;
	return 0;
}

static int max_id_of(int id, const char *system, const char *name, void *data)
{
	int *max = data;

	if (id > *max && id < 1 << 20)
		*max = id;
	return 0;
}

static unsigned long long u64f(const struct cb_trace_field *f, struct tep_record *rec)
{
	unsigned long long u;

	cb_trace_u64(f, rec, &u);
	return u;
}

static long long s64f(const struct cb_trace_field *f, struct tep_record *rec)
{
	long long v;

	cb_trace_s64(f, rec, &v);
	return v;
}

/* the allocated page: "pfn" (-1 when it failed) since 4.x, "page" (NULL) before */
static bool page_ok(const struct adapter *a, struct tep_record *rec)
{
	if (a->alloc_pfn.f) {
		unsigned int bits = a->alloc_pfn.f->size * 8;
		unsigned long long all = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;

		return u64f(&a->alloc_pfn, rec) != all;
	}
	return u64f(&a->alloc_page, rec) != 0;
}

static enum cb_end end_of(const struct adapter *a, long long status)
{
	size_t i;

	for (i = 0; i < NEND; i++)
		if (status == a->end_val[i])
			return end_syms[i].end;
	return CB_END_OTHER;
}

/* the probe method's share of a record (a loss is fed by on_record) */
static int on_probe(struct cb_trace *t, struct adapter *a, struct tep_record *rec, int pk)
{
	struct cb_pev ev = { .kind = pk, .ts = rec->ts, .pid = cb_trace_pid(t, rec) };

	if (pk == CB_PEV_SLOW) {
		ev.order = (int)u64f(&a->p_order, rec);
		ev.gfp = (unsigned int)u64f(&a->p_gfp, rec);
		ev.comm = cb_trace_comm(t, ev.pid);
	} else if (pk == CB_PEV_SLOW_RET) {
		ev.ok = a->p_ret.f && u64f(&a->p_ret, rec) != 0;
	}
	if (cb_pstalls_feed(&a->s->probe, &ev)) {
		snprintf(a->err, a->errlen, "%s: out of memory", cb_trace_path(t));
		return -1;
	}
	return 0;
}

static int on_record(struct cb_trace *t, struct tep_record *rec, int type, void *data)
{
	struct adapter *a = data;
	struct cb_sev ev;
	int k = type >= 0 && type <= a->max_id ? a->kind_of[type] : K_IGNORE;

	if (__builtin_expect(rec->missed_events != 0, 0)) {
		struct cb_sev loss = { .kind = CB_SEV_LOSS, .ts = rec->ts };

		struct cb_pev ploss = { .kind = CB_PEV_LOSS, .ts = rec->ts };

		cb_stalls_feed(a->s, &loss);
		if (a->s->probe.present)
			cb_pstalls_feed(&a->s->probe, &ploss);
	}
	if (a->s->probe.present && type >= 0 && type <= a->max_id && a->pkind_of[type] >= 0 &&
	    on_probe(t, a, rec, a->pkind_of[type]))
		return -1;
	if (k == K_IGNORE)
		return 0;
	/* most records of a trace with kmem:mm_page_alloc are order 0: drop them first */
	if (k == E_ALLOC && (int)u64f(&a->alloc_order, rec) <= 0)
		return 0;	/* no attempt waits for order 0, nor is it counted */
	ev = (struct cb_sev){ .ts = rec->ts, .order = -1 };
	ev.kind = k == K_COMPACTION ? CB_SEV_COMPACTION : wanted[k].kind;
	switch (k) {
	case E_TRY:
		ev.order = (int)s64f(&a->try_order, rec);
		ev.gfp = cb_gfp_abstract(&a->gfp, u64f(&a->try_gfp, rec));
		ev.comm = cb_trace_comm(t, cb_trace_pid(t, rec));
		break;
	case E_BEGIN:
		ev.comm = cb_trace_comm(t, cb_trace_pid(t, rec));
		break;
	case E_END:
		ev.end = a->end_status.f ? end_of(a, s64f(&a->end_status, rec)) : CB_END_OTHER;
		break;
	case E_SUITABLE:
		ev.ret = s64f(&a->suit_ret, rec);
		ev.order = a->suit_order.f ? (int)s64f(&a->suit_order, rec) : 0;
		break;
	case E_ALLOC:
		ev.order = (int)u64f(&a->alloc_order, rec);
		ev.ok = page_ok(a, rec);
		break;
	case E_ISO_MIGRATE:
		ev.a = u64f(&a->iso_m[0], rec);
		ev.b = u64f(&a->iso_m[1], rec);
		break;
	case E_ISO_FREE:
		ev.a = u64f(&a->iso_f[0], rec);
		ev.b = u64f(&a->iso_f[1], rec);
		break;
	case E_ISO_FREE_FAST:
		ev.a = u64f(&a->iso_ff[0], rec);
		ev.b = u64f(&a->iso_ff[1], rec);
		break;
	case E_MIGRATE:
		ev.a = u64f(&a->mig[0], rec);
		ev.b = u64f(&a->mig[1], rec);
		break;
	case E_DEMAND_TARGET:
		ev.ok = s64f(&a->dt_after, rec) != 0;
		break;
	case E_EXTFRAG:
		ev.a = (uint64_t)s64f(&a->xf[0], rec);
		ev.b = (uint64_t)s64f(&a->xf[1], rec);
		ev.order = (int)s64f(&a->xf[2], rec);
		ev.ok = s64f(&a->xf[3], rec) != 0;
		break;
	default:
		break;
	}
	ev.pid = cb_trace_pid(t, rec);
	if (cb_stalls_feed(a->s, &ev)) {
		snprintf(a->err, a->errlen, "%s: out of memory", cb_trace_path(t));
		return -1;
	}
	return 0;
}

/* the fields the rule needs; an event present without one is an error naming both */
static int resolve_fields(struct cb_trace *t, struct adapter *a, char *err, size_t errlen)
{
	static const char *const C = "compaction";
	const struct {
		const char *sys, *ev, *field;
		struct cb_trace_field *out;
	} f[] = {
		{ C, "mm_compaction_try_to_compact_pages", "order", &a->try_order },
		{ C, "mm_compaction_try_to_compact_pages", "gfp_mask", &a->try_gfp },
		{ C, "mm_compaction_suitable", "ret", &a->suit_ret },
		{ "kmem", "mm_page_alloc", "order", &a->alloc_order },
		{ C, "mm_compaction_isolate_migratepages", "nr_scanned", &a->iso_m[0] },
		{ C, "mm_compaction_isolate_migratepages", "nr_taken", &a->iso_m[1] },
		{ C, "mm_compaction_isolate_freepages", "nr_scanned", &a->iso_f[0] },
		{ C, "mm_compaction_isolate_freepages", "nr_taken", &a->iso_f[1] },
		{ C, "mm_compaction_fast_isolate_freepages", "nr_scanned", &a->iso_ff[0] },
		{ C, "mm_compaction_fast_isolate_freepages", "nr_taken", &a->iso_ff[1] },
		{ C, "mm_compaction_migratepages", "nr_migrated", &a->mig[0] },
		{ C, "mm_compaction_migratepages", "nr_failed", &a->mig[1] },
		{ "kmem", "mm_page_alloc_extfrag", "alloc_migratetype", &a->xf[0] },
		{ "kmem", "mm_page_alloc_extfrag", "fallback_migratetype", &a->xf[1] },
		{ "kmem", "mm_page_alloc_extfrag", "fallback_order", &a->xf[2] },
		{ "kmem", "mm_page_alloc_extfrag", "change_ownership", &a->xf[3] },
		{ C, "mm_compaction_demand_target", "after", &a->dt_after },
	};
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (cb_trace_field(t, f[i].sys, f[i].ev, f[i].field, f[i].out, err, errlen))
			return -1;
	/* optional fields: older kernels lack them (a NULL field reads as "unknown") */
	if (cb_trace_field(t, C, "mm_compaction_suitable", "order", &a->suit_order, NULL, 0))
		a->suit_order.f = NULL;
	if (cb_trace_field(t, C, "mm_compaction_end", "status", &a->end_status, NULL, 0))
		a->end_status.f = NULL;
	if (cb_trace_field(t, "kmem", "mm_page_alloc", "pfn", &a->alloc_pfn, NULL, 0) &&
	    cb_trace_field(t, "kmem", "mm_page_alloc", "page", &a->alloc_page, err, errlen)) {
		snprintf(err, errlen, "%s: event kmem:mm_page_alloc has neither field 'pfn' nor "
			 "'page' in this kernel's format", cb_trace_path(t));
		return -1;
	}
	return 0;
}

/* the file's own values: COMPACT_SUCCESS of suitable, end statuses, gfp bits */
static void resolve_symbols(struct cb_trace *t, struct adapter *a)
{
	unsigned long long v;
	long long succ;
	size_t i;
	int k;

	if (!cb_trace_symbol(t, "compaction", "mm_compaction_suitable", "ret", "success", &succ))
		a->s->suitable_success = succ;
	for (i = 0; i < NEND; i++)
		if (cb_trace_symbol(t, "compaction", "mm_compaction_end", "status", end_syms[i].sym,
				    &a->end_val[i]))
			a->end_val[i] = end_syms[i].dflt;
	cb_gfp_map_default(&a->gfp);
	for (k = 0; k < CB_GFP_NBITS; k++)
		if (cb_trace_flag(t, "compaction", "mm_compaction_try_to_compact_pages", "gfp_mask",
				  cb_gfp_names[k], &v))
			break;
	if (k == CB_GFP_NBITS) {
		for (k = 0; k < CB_GFP_NBITS; k++) {
			cb_trace_flag(t, "compaction", "mm_compaction_try_to_compact_pages",
				      "gfp_mask", cb_gfp_names[k], &v);
			a->gfp.raw[k] = v;
		}
		a->gfp.from_trace = true;
	}
	a->s->gfp_from_trace = a->gfp.from_trace;
}

/*
 * the probe method runs when the file has the slow-path pair (entry and return) in one
 * compactbench_<pid> system; its entry must then have order and gfp
 */
static int resolve_probes(struct cb_trace *t, struct adapter *a, char *err, size_t errlen)
{
	struct cb_pstalls *p = &a->s->probe;

	if ((a->pseen & 3) != 3)
		return 0;
	if (cb_trace_field(t, a->psys, "alloc_slowpath", "order", &a->p_order, err, errlen) ||
	    cb_trace_field(t, a->psys, "alloc_slowpath", "gfp", &a->p_gfp, err, errlen))
		return -1;
	if (cb_trace_field(t, a->psys, "alloc_slowpath_ret", "ret", &a->p_ret, NULL, 0))
		a->p_ret.f = NULL;
	p->present = true;
	snprintf(p->system, sizeof(p->system), "%s", a->psys);
	return 0;
}

/*
 * libtracecmd hands on_record only the events it reads (cb_trace_select): those of a kind,
 * the probes' when they run, and of kmem:mm_page_alloc those above order 0
 */
static int select_used(struct cb_trace *t, struct adapter *a)
{
	unsigned char *want = malloc(a->max_id + 1);
	int id, ret;

	if (!want)
		return -1;
	for (id = 0; id <= a->max_id; id++)
		want[id] = a->kind_of[id] != K_IGNORE ||
			   (a->s->probe.present && a->pkind_of[id] >= 0);
	ret = cb_trace_select(t, want, a->max_id + 1, a->id[E_ALLOC], &a->alloc_order);
	free(want);
	return ret;
}

int cb_stalls_read_trace(const char *path, struct cb_stalls *s, char *err, size_t errlen)
{
	struct adapter a = { .s = s, .err = err, .errlen = errlen, .max_id = -1 };
	struct cb_trace_stats st;
	struct cb_trace *t;
	int ret = -1, i;

	t = cb_trace_open(path, err, errlen);
	if (!t)
		return -1;
	for (i = 0; i < E_NR; i++) {
		a.id[i] = cb_trace_event_id(t, wanted[i].system, wanted[i].name);
		if (a.id[i] >= 0)
			continue;
		if (wanted[i].patched)
			continue;
		if (wanted[i].required) {
			snprintf(err, errlen, "%s: event %s:%s is not in the trace: direct compaction "
				 "stalls cannot be reconstructed", path, wanted[i].system,
				 wanted[i].name);
			goto out;
		}
		snprintf(s->missing + strlen(s->missing), sizeof(s->missing) - strlen(s->missing),
			 "%s%s:%s", s->missing[0] ? "," : "", wanted[i].system, wanted[i].name);
	}
	cb_trace_foreach_event(t, max_id_of, &a.max_id);
	a.kind_of = malloc(a.max_id + 1);
	a.pkind_of = malloc(a.max_id + 1);
	if (!a.kind_of || !a.pkind_of) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	memset(a.kind_of, K_IGNORE, a.max_id + 1);
	memset(a.pkind_of, -1, a.max_id + 1);
	cb_trace_foreach_event(t, map_event, &a);
	if (resolve_fields(t, &a, err, errlen))
		goto out;
	resolve_symbols(t, &a);
	if (resolve_probes(t, &a, err, errlen))
		goto out;
	if (select_used(t, &a)) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	if (cb_trace_iterate(t, on_record, &a, &st, err, errlen))
		goto out;
	if (cb_stalls_finish(s) || (s->probe.present && cb_pstalls_finish(&s->probe))) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	s->events = st.events;
	s->missed = st.missed;
	s->missed_unknown = st.missed_unknown;
	s->first_ts = st.first_ts;
	s->last_ts = st.last_ts;
	ret = 0;
out:
	free(a.kind_of);
	free(a.pkind_of);
	cb_trace_close(t);
	return ret;
}
