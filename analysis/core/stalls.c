// SPDX-License-Identifier: GPL-2.0-only
/*
 * stalls.c - the per-pid state machine behind the tracepoint method. The rules are in
 * analysis/README.md; in short:
 *
 *   attempt  = try_to_compact_pages of a pid .. that pid's next try_to_compact_pages,
 *              direct reclaim begin, mm_compaction_demand (the demand series: the next
 *              allocation's slow path), mm_page_alloc of the attempt's order, or end of trace
 *   stall    = an attempt holding a mm_compaction_begin or mm_compaction_deferred of the
 *              same pid (or, on 6.1-era kernels, mm_compaction_suitable ret=success):
 *              exactly when __alloc_pages_direct_compact counts COMPACTSTALL
 *   duration = try_to_compact_pages .. the attempt's mm_page_alloc, else its last
 *              compaction event
 *   run      = mm_compaction_begin .. mm_compaction_end of one pid, attributed at its begin:
 *              inside an attempt direct (khugepaged if the task is), else kcompactd after
 *              kcompactd_wake, proactive after kcompactd_sleep without a wake, else manual;
 *              a kcompactd run begun after mm_compaction_demand_target(before) and followed
 *              by mm_compaction_demand_target(after) is demand (decided at that "after");
 *              each run begun in the window is also listed with its times (cruns.h)
 */
#include "stalls.h"
#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

const char *const cb_bg_names[CB_BG_NR] = {
	[CB_BG_KCOMPACTD] = "kcompactd",
	[CB_BG_KHUGEPAGED] = "khugepaged",
	[CB_BG_OTHER] = "other",
};

const char *const cb_attr_names[CB_ATTR_NR] = {
	[CB_ATTR_DIRECT] = "direct",
	[CB_ATTR_KCOMPACTD] = "kcompactd",
	[CB_ATTR_PROACTIVE] = "proactive",
	[CB_ATTR_DEMAND] = "demand",
	[CB_ATTR_KHUGEPAGED] = "khugepaged",
	[CB_ATTR_MANUAL] = "manual",
	[CB_ATTR_UNKNOWN] = "unknown",
};

const char *const cb_end_names[CB_END_NR] = {
	[CB_END_SUCCESS] = "success",
	[CB_END_COMPLETE] = "complete",
	[CB_END_PARTIAL] = "partial_skipped",
	[CB_END_CONTENDED] = "contended",
	[CB_END_OTHER] = "other",
};

/* what a kcompactd pid did last: kcompactd() sleeps, then either wakes for work or not */
enum { KC_UNKNOWN, KC_WOKEN, KC_SLEPT };

/* one pid's state; the table is open addressing with linear probing */
struct pst {
	int pid;
	bool used;
	bool active;	/* inside an attempt */
	bool qual;	/* the attempt counts as a stall */
	bool ran;	/* ... and compacted a zone (mm_compaction_begin) */
	bool kcompactd; /* emitted kcompactd_wake/sleep */
	bool khugepaged;
	bool outside;	/* the attempt began outside the window */
	bool has_hint;	/* saw mm_compaction_suitable outside an attempt ... */
	bool run_in_win;
	bool cut;	/* events were lost while the attempt was open */
	int hint_order; /* ... of this order (-1: compact_memory / proactive, 6.1) */
	int kc_state;
	int order;
	uint8_t origin;
	int run_attr;	/* the open run's attribution, -1: none */
	bool demand_mark; /* kcompactd: demand_target(before) since its last begin/wake/sleep */
	bool demand_cand; /* the open run began under the mark */
	int await_attr; /* an ended candidate: demand_target(after) next makes it demand, else
			 * it keeps this attribution; -1: none */
	bool run_policy; /* the open run's task is the watermark policy (CB_CRUNS_POLICY_COMM) */
	struct cb_work cur; /* the open (or awaiting) run's work, until it is committed */
	uint64_t start, last, run_start, run_end;
};

void cb_stalls_init(struct cb_stalls *s, long long suitable_success)
{
	memset(s, 0, sizeof(*s));
	s->suitable_success = suitable_success;
	s->pageblock_order = 9;
}

void cb_stalls_set_window(struct cb_stalls *s, uint64_t start, uint64_t end)
{
	s->win_start = start;
	s->win_end = end;
	s->probe.win_start = start;
	s->probe.win_end = end;
}

static bool in_window(const struct cb_stalls *s, uint64_t ts)
{
	return !s->win_end || (ts >= s->win_start && ts <= s->win_end);
}

static size_t hash_pid(int pid, size_t cap)
{
	return ((unsigned int)pid * 2654435761u) & (cap - 1);
}

static struct pst *lookup(struct cb_stalls *s, int pid, bool create)
{
	struct pst *tab = s->pids;
	size_t i;

	if (create && (s->npids + 1) * 2 > s->pcap) {
		size_t ncap = s->pcap ? s->pcap * 2 : 256, j;
		struct pst *nt = calloc(ncap, sizeof(*nt));

		if (!nt)
			return NULL;
		for (j = 0; j < s->pcap; j++) {
			if (!tab[j].used)
				continue;
			for (i = hash_pid(tab[j].pid, ncap); nt[i].used; i = (i + 1) & (ncap - 1))
				;
			nt[i] = tab[j];
		}
		free(tab);
		s->pids = tab = nt;
		s->pcap = ncap;
	}
	if (!s->pcap)
		return NULL;
	for (i = hash_pid(pid, s->pcap); tab[i].used; i = (i + 1) & (s->pcap - 1))
		if (tab[i].pid == pid)
			return &tab[i];
	if (!create)
		return NULL;
	memset(&tab[i], 0, sizeof(tab[i]));
	tab[i].used = true;
	tab[i].pid = pid;
	tab[i].run_attr = -1;
	tab[i].await_attr = -1;
	s->npids++;
	return &tab[i];
}

static int add_stall(struct cb_stalls *s, const struct pst *p, uint64_t ns)
{
	struct cb_stall_rec *r;

	s->rec = cb_xgrow(s->rec, &s->cap, s->n, sizeof(*s->rec), 1024);
	r = &s->rec[s->n++];
	r->ns = (double)ns;
	r->start = p->start;
	r->order = (int16_t)p->order;
	r->origin = p->origin;
	r->khugepaged = p->khugepaged;
	s->total_ns += ns;
	return 0;
}

/* close @p's attempt; @end_ts is its mm_page_alloc, or 0 to use the last event seen */
static int close_attempt(struct cb_stalls *s, struct pst *p, uint64_t end_ts, bool got_page)
{
	uint64_t end = end_ts ? end_ts : p->last;

	p->active = false;
	if (p->cut) {
		s->cut_by_loss++;	/* its events may be missing: counted apart */
		return 0;
	}
	if (!p->qual) {
		s->skipped++;
		return 0;
	}
	if (p->outside) {
		s->outside++;
		return 0;
	}
	s->stalls++;
	if (!p->ran)
		s->no_run++;
	if (end_ts)
		s->end_alloc++;
	else
		s->end_last++;
	if (got_page)
		s->success++;
	else
		s->fail++;
	if (p->order >= 0 && p->order <= CB_STALLS_MAX_ORDER)
		s->by_order[p->order]++;
	if (p->origin < CB_ORIGIN_NR)
		s->by_origin[p->origin]++;
	if (p->khugepaged)
		s->khugepaged++;
	return add_stall(s, p, end > p->start ? end - p->start : 0);
}

static bool is_kcompactd(const struct pst *p, const char *comm)
{
	return (comm && !strncmp(comm, "kcompactd", 9)) || (p && p->kcompactd);
}

static bool is_khugepaged(const struct pst *p, const char *comm)
{
	return (comm && !strcmp(comm, "khugepaged")) || (p && p->khugepaged);
}

/* the attribution of a run that @p (with @comm) begins now */
static enum cb_attr attribute(const struct pst *p, const char *comm)
{
	if (p->active)
		return is_khugepaged(p, comm) ? CB_ATTR_KHUGEPAGED : CB_ATTR_DIRECT;
	if (is_kcompactd(p, comm)) {
		if (p->kc_state == KC_WOKEN)
			return CB_ATTR_KCOMPACTD;	/* kcompactd_do_work() */
		if (p->kc_state == KC_SLEPT)
			return CB_ATTR_PROACTIVE;	/* woke by timeout or trigger */
		if (p->has_hint && p->hint_order < 0)
			return CB_ATTR_PROACTIVE;	/* 6.1: compaction_suitable(order -1) */
		return CB_ATTR_KCOMPACTD;
	}
	if (is_khugepaged(p, comm))
		return CB_ATTR_KHUGEPAGED;
	return CB_ATTR_MANUAL;
}

static const enum cb_bg_kind attr_bg[CB_ATTR_NR] = {
	[CB_ATTR_KCOMPACTD] = CB_BG_KCOMPACTD,
	[CB_ATTR_PROACTIVE] = CB_BG_KCOMPACTD,
	[CB_ATTR_DEMAND] = CB_BG_KCOMPACTD,
	[CB_ATTR_KHUGEPAGED] = CB_BG_KHUGEPAGED,
	[CB_ATTR_MANUAL] = CB_BG_OTHER,
};

/* the timeline lane of a run of @attr; @policy: its task is the watermark policy */
static enum cb_lane lane_of(int attr, bool policy)
{
	static const enum cb_lane lanes[CB_ATTR_NR] = {
		[CB_ATTR_DIRECT] = CB_LANE_DIRECT, [CB_ATTR_KCOMPACTD] = CB_LANE_KCOMPACTD,
		[CB_ATTR_PROACTIVE] = CB_LANE_PROACTIVE, [CB_ATTR_DEMAND] = CB_LANE_DEMAND,
		[CB_ATTR_KHUGEPAGED] = CB_LANE_KHUGEPAGED, [CB_ATTR_MANUAL] = CB_LANE_MANUAL,
		[CB_ATTR_UNKNOWN] = CB_LANE_NR,
	};

	if (attr == CB_ATTR_MANUAL && policy)
		return CB_LANE_POLICY;
	return lanes[attr];
}

/*
 * @p's run (its work in p->cur) counts for @attr; @open: it had no end (it is listed as
 * ending at the last event seen: the next begin of its pid, or the end of the trace)
 */
static void commit_run(struct cb_stalls *s, struct pst *p, int attr, bool open)
{
	struct cb_work *w = &s->work[attr], *c = &p->cur;
	int i;

	if (p->run_in_win) {
		cb_cruns_add(s->cruns, lane_of(attr, p->run_policy), p->run_start,
			     open ? s->feed_ts : p->run_end, open);
		w->runs++;
		w->open += open;
		w->run_ns += c->run_ns;
		w->migrate_scanned += c->migrate_scanned;
		w->migrate_isolated += c->migrate_isolated;
		w->free_scanned += c->free_scanned;
		w->free_isolated += c->free_isolated;
		w->migrated += c->migrated;
		w->migrate_failed += c->migrate_failed;
		for (i = 0; i < CB_END_NR; i++)
			w->end[i] += c->end[i];
	}
	memset(c, 0, sizeof(*c));
	p->run_attr = -1;
	p->await_attr = -1;
	p->demand_cand = false;
}

/* an ended demand candidate that is not confirmed keeps its attribution */
static void commit_awaiting(struct cb_stalls *s, struct pst *p)
{
	if (p->await_attr >= 0)
		commit_run(s, p, p->await_attr, false);
}

static void begin_run(struct cb_stalls *s, struct pst *p, const struct cb_sev *ev)
{
	enum cb_attr a = attribute(p, ev->comm);

	if (p->active) {
		s->direct_runs++;
		p->qual = true;
		p->ran = true;
	} else {
		s->bg_runs[attr_bg[a]]++;
	}
	p->has_hint = false;
	commit_awaiting(s, p);
	if (p->run_attr >= 0)
		commit_run(s, p, p->run_attr, true);	/* a begin without the previous end */
	p->demand_cand = !p->active && p->demand_mark && is_kcompactd(p, ev->comm);
	p->demand_mark = false;
	p->run_attr = a;
	p->run_policy = ev->comm && !strcmp(ev->comm, CB_CRUNS_POLICY_COMM);
	p->run_start = ev->ts;
	p->run_in_win = in_window(s, ev->ts);
}

static void end_run(struct cb_stalls *s, struct pst *p, const struct cb_sev *ev)
{
	if (p->run_attr < 0)
		return;
	p->cur.run_ns += ev->ts > p->run_start ? ev->ts - p->run_start : 0;
	p->run_end = ev->ts;
	p->cur.end[ev->end < CB_END_NR ? ev->end : CB_END_OTHER]++;
	if (!p->demand_cand) {
		commit_run(s, p, p->run_attr, false);
		return;
	}
	p->await_attr = p->run_attr;	/* decided by what kcompactd emits next */
	p->run_attr = -1;
}

/* demand_target: "before" marks the demand pass's next run, "after" confirms the last */
static void demand_target(struct cb_stalls *s, struct pst *p, bool after)
{
	p->kcompactd = true;
	if (p->await_attr >= 0)
		commit_run(s, p, after ? CB_ATTR_DEMAND : p->await_attr, false);
	p->demand_mark = !after;
}

/* isolation and migration counts go to the run they belong to */
static void add_work(struct cb_stalls *s, struct pst *p, const struct cb_sev *ev)
{
	struct cb_work *w;

	if (p && p->run_attr >= 0) {
		if (!p->run_in_win)
			return;
		w = &p->cur;
	} else {
		if (!in_window(s, ev->ts))
			return;
		w = &s->work[CB_ATTR_UNKNOWN];
	}
	switch (ev->kind) {
	case CB_SEV_ISOLATE_MIGRATE:
		w->migrate_scanned += ev->a;
		w->migrate_isolated += ev->b;
		break;
	case CB_SEV_ISOLATE_FREE:
		w->free_scanned += ev->a;
		w->free_isolated += ev->b;
		break;
	case CB_SEV_MIGRATE:
		w->migrated += ev->a;
		w->migrate_failed += ev->b;
		break;
	default:
		break;
	}
}

/* counts; and the time of each order >= 9 allocation that got a page. -1: ENOMEM */
static int count_alloc(struct cb_stalls *s, const struct cb_sev *ev)
{
	if (ev->order <= 0 || !in_window(s, ev->ts))
		return 0;
	s->alloc_hi++;
	if (!ev->ok)
		s->alloc_hi_failed++;
	s->alloc_by_order[ev->order <= CB_STALLS_MAX_ORDER ? ev->order : CB_STALLS_MAX_ORDER]++;
	if (!ev->ok || ev->order < 9)
		return 0;
	s->big = cb_xgrow(s->big, &s->bigcap, s->nbig, sizeof(*s->big), 256);
	s->big[s->nbig++] = (struct cb_big_alloc){ .ts = ev->ts, .order = ev->order };
	return 0;
}

static void count_extfrag(struct cb_stalls *s, const struct cb_sev *ev)
{
	struct cb_extfrag *x;

	if (!in_window(s, ev->ts))
		return;
	x = &s->extfrag[ev->a < CB_MT_NR ? ev->a : CB_MT_NR - 1]
		       [ev->b < CB_MT_NR ? ev->b : CB_MT_NR - 1];
	s->extfrag_events++;
	x->events++;
	x->change_ownership += ev->ok;
	x->fragmenting += ev->order < s->pageblock_order;
}

static void start_attempt(struct cb_stalls *s, struct pst *p, const struct cb_sev *ev)
{
	s->attempts++;
	p->active = true;
	p->qual = false;
	p->ran = false;
	p->cut = false;
	p->order = ev->order;
	p->start = p->last = ev->ts;
	p->outside = s->win_end && (ev->ts < s->win_start || ev->ts > s->win_end);
	if (ev->comm && !strcmp(ev->comm, "khugepaged"))
		p->khugepaged = true;
	p->origin = cb_origin_classify(ev->gfp, ev->order, p->khugepaged ? "khugepaged" : ev->comm);
}

/* what an event means for the whole trace rather than its pid; true: nothing more to do */
static bool feed_global(struct cb_stalls *s, const struct cb_sev *ev)
{
	struct pst *tab = s->pids;
	size_t i;

	s->feed_ts = ev->ts;
	if (ev->kind == CB_SEV_EXTFRAG) {
		count_extfrag(s, ev);
		return true;
	}
	if (ev->kind != CB_SEV_LOSS)
		return false;
	for (i = 0; i < s->pcap; i++)
		if (tab[i].used && tab[i].active)
			tab[i].cut = true;
	return true;
}

int cb_stalls_feed(struct cb_stalls *s, const struct cb_sev *ev)
{
	bool creates = ev->kind == CB_SEV_TRY || ev->kind == CB_SEV_KCOMPACTD ||
		       ev->kind == CB_SEV_KCOMPACTD_SLEEP || ev->kind == CB_SEV_BEGIN ||
		       ev->kind == CB_SEV_DEMAND_TARGET ||
		       (ev->kind == CB_SEV_SUITABLE && ev->order < 0);
	struct pst *p;

	if (feed_global(s, ev))
		return 0;
	p = lookup(s, ev->pid, creates);
	if (creates && !p)
		goto nomem;
	switch (ev->kind) {
	case CB_SEV_TRY:
		if (p->active && close_attempt(s, p, 0, false))
			goto nomem;
		start_attempt(s, p, ev);
		return 0;
	case CB_SEV_KCOMPACTD:
	case CB_SEV_KCOMPACTD_SLEEP:
		commit_awaiting(s, p);
		p->demand_mark = false;
		p->kcompactd = true;
		p->kc_state = ev->kind == CB_SEV_KCOMPACTD ? KC_WOKEN : KC_SLEPT;
		return 0;
	case CB_SEV_DEMAND_TARGET:
		demand_target(s, p, ev->ok);
		return 0;
	case CB_SEV_RECLAIM_BEGIN:
	case CB_SEV_SLOWPATH:	/* a new allocation: the attempt ended at its last event */
		if (p && p->active && close_attempt(s, p, 0, false))
			goto nomem;
		return 0;
	case CB_SEV_PAGE_ALLOC:
		if (count_alloc(s, ev))
			goto nomem;
		if (p && p->active && ev->order == p->order &&
		    close_attempt(s, p, ev->ts, ev->ok))
			goto nomem;
		return 0;
	case CB_SEV_BEGIN:
		/* the run list is allocated with the first run in the window */
		if (!s->cruns && in_window(s, ev->ts) && !(s->cruns = calloc(1, sizeof(*s->cruns))))
			goto nomem;
		begin_run(s, p, ev);
		if (!p->active)
			return 0;
		break;
	case CB_SEV_END:
		if (p)
			end_run(s, p, ev);
		if (!p || !p->active)
			return 0;
		break;
	case CB_SEV_DEFERRED:
		if (!p || !p->active)
			return 0;
		s->deferred++;
		p->qual = true;
		break;
	case CB_SEV_SUITABLE:
		if (!p || !p->active) {
			/* reclaim calls compaction_suitable too: only a hint for the next run */
			if (p) {
				p->has_hint = true;
				p->hint_order = ev->order;
			}
			return 0;
		}
		if (s->suitable_success >= 0 && ev->ret == s->suitable_success)
			p->qual = true;
		break;
	case CB_SEV_ISOLATE_MIGRATE:
	case CB_SEV_ISOLATE_FREE:
	case CB_SEV_MIGRATE:
		add_work(s, p, ev);
		if (!p || !p->active)
			return 0;
		break;
	case CB_SEV_COMPACTION:
		if (!p || !p->active)
			return 0;
		break;
	case CB_SEV_EXTFRAG:
	case CB_SEV_LOSS:
		break;
	}
	p->last = ev->ts;
	return 0;
nomem:
	errno = ENOMEM;
	return -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int cb_stalls_finish(struct cb_stalls *s)
{
	/* without the allocation's event nothing closes a pid's last attempt but the end */
	bool no_alloc = !cb_stalls_recorded(s, "kmem:mm_page_alloc");
	struct pst *tab = s->pids;
	size_t i;

	for (i = 0; i < s->pcap; i++) {
		bool run_open = tab[i].run_attr >= 0;

		if (!tab[i].used)
			continue;
		commit_awaiting(s, &tab[i]);
		if (run_open)
			commit_run(s, &tab[i], tab[i].run_attr, true);
		if (!tab[i].active)
			continue;
		if (no_alloc && !run_open && !tab[i].cut) {
			/* its zones' runs all ended: as complete as the trace can tell */
			if (close_attempt(s, &tab[i], 0, false) < 0)
				return -1;
			continue;
		}
		tab[i].active = false;
		if (tab[i].cut) {
			s->cut_by_loss++;
			continue;
		}
		s->truncated++;
		if (tab[i].qual)
			s->truncated_stalls++;
	}
	free(s->ns);
	s->ns = NULL;
	if (!s->n)
		return 0;
	s->ns = malloc(s->n * sizeof(*s->ns));
	if (!s->ns) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < s->n; i++)
		s->ns[i] = s->rec[i].ns;
	qsort(s->ns, s->n, sizeof(*s->ns), cmp_double);
	return 0;
}

void cb_stalls_free(struct cb_stalls *s)
{
	free(s->ns);
	free(s->rec);
	free(s->pids);
	free(s->big);
	free(s->cruns);
	s->cruns = NULL;
	s->ns = NULL;
	s->rec = NULL;
	s->pids = NULL;
	s->big = NULL;
	s->n = s->cap = s->npids = s->pcap = s->nbig = s->bigcap = 0;
	cb_pstalls_free(&s->probe);
}

int cb_stalls_quantile(const struct cb_stalls *s, double q, double *out)
{
	if (!s->n || !s->ns) {
		errno = ENODATA;
		return -1;
	}
	*out = gsl_stats_quantile_from_sorted_data(s->ns, 1, s->n, q);
	return 0;
}

double cb_stalls_max(const struct cb_stalls *s)
{
	return s->n && s->ns ? s->ns[s->n - 1] : 0;
}

bool cb_stalls_recorded(const struct cb_stalls *s, const char *event)
{
	size_t len = strlen(event);
	const char *p = s->missing;

	while ((p = strstr(p, event))) {
		if ((p == s->missing || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return false;
		p += len;
	}
	return true;
}

int cb_stalls_dist(const struct cb_stalls *s, enum cb_split split, int value, struct cb_dist *d,
		   struct cb_hist *h)
{
	double *v = NULL;
	size_t i, k = 0;

	if (h)
		memset(h, 0, sizeof(*h));
	if (s->n) {
		v = malloc(s->n * sizeof(*v));
		if (!v) {
			errno = ENOMEM;
			return -1;
		}
	}
	for (i = 0; i < s->n; i++) {
		const struct cb_stall_rec *r = &s->rec[i];

		if ((split == CB_SPLIT_ORDER && r->order != value) ||
		    (split == CB_SPLIT_ORIGIN && r->origin != value) ||
		    (split == CB_SPLIT_COSTLY && (r->order > 3) != (value != 0)))
			continue;
		v[k++] = r->ns;
		if (h)
			cb_hist_add(h, (uint64_t)r->ns);
	}
	if (k)
		qsort(v, k, sizeof(*v), cmp_double);
	cb_dist_from_sorted(v, k, d);
	free(v);
	return 0;
}
