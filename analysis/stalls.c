// SPDX-License-Identifier: GPL-2.0-only
/*
 * stalls.c - direct compaction stalls from tracepoints: the per-pid attempt state machine
 * and the trace.dat adapter that feeds it. The rule is in analysis/README.md; in short:
 *
 *   attempt  = try_to_compact_pages of a pid .. that pid's next try_to_compact_pages,
 *              direct reclaim begin, mm_page_alloc of the attempt's order, or end of trace
 *   stall    = an attempt holding a mm_compaction_begin or mm_compaction_deferred of the
 *              same pid (or, on 6.1-era kernels, mm_compaction_suitable ret=success):
 *              exactly when __alloc_pages_direct_compact counts COMPACTSTALL
 *   duration = try_to_compact_pages .. the attempt's mm_page_alloc, else its last
 *              compaction event
 */
#include "stalls.h"
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_statistics_double.h>
#include <traceevent/event-parse.h>

const char *const cb_bg_names[CB_BG_NR] = {
	[CB_BG_KCOMPACTD] = "kcompactd",
	[CB_BG_KHUGEPAGED] = "khugepaged",
	[CB_BG_OTHER] = "other",
};

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
	int order;
	uint64_t start, last;
};

void cb_stalls_init(struct cb_stalls *s, long long suitable_success)
{
	memset(s, 0, sizeof(*s));
	s->suitable_success = suitable_success;
}

void cb_stalls_set_window(struct cb_stalls *s, uint64_t start, uint64_t end)
{
	s->win_start = start;
	s->win_end = end;
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
	tab[i].used = true;
	tab[i].pid = pid;
	s->npids++;
	return &tab[i];
}

static int add_duration(struct cb_stalls *s, uint64_t ns)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 1024;
		double *nv = realloc(s->ns, ncap * sizeof(*nv));

		if (!nv)
			return -1;
		s->ns = nv;
		s->cap = ncap;
	}
	s->ns[s->n++] = (double)ns;
	s->total_ns += ns;
	return 0;
}

/* close @p's attempt; @end_ts is its mm_page_alloc, or 0 to use the last event seen */
static int close_attempt(struct cb_stalls *s, struct pst *p, uint64_t end_ts, bool got_page)
{
	uint64_t end = end_ts ? end_ts : p->last;

	p->active = false;
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
	if (p->khugepaged)
		s->khugepaged++;
	return add_duration(s, end > p->start ? end - p->start : 0);
}

static enum cb_bg_kind bg_kind(const struct pst *p, const char *comm)
{
	if ((comm && !strncmp(comm, "kcompactd", 9)) || (p && p->kcompactd))
		return CB_BG_KCOMPACTD;
	if ((comm && !strcmp(comm, "khugepaged")) || (p && p->khugepaged))
		return CB_BG_KHUGEPAGED;
	return CB_BG_OTHER;
}

int cb_stalls_feed(struct cb_stalls *s, const struct cb_sev *ev)
{
	bool creates = ev->kind == CB_SEV_TRY || ev->kind == CB_SEV_KCOMPACTD;
	struct pst *p = lookup(s, ev->pid, creates);

	if (creates && !p) {
		errno = ENOMEM;
		return -1;
	}
	switch (ev->kind) {
	case CB_SEV_TRY:
		s->attempts++;
		if (p->active && close_attempt(s, p, 0, false))
			goto nomem;
		p->active = true;
		p->qual = false;
		p->ran = false;
		p->order = ev->order;
		p->start = p->last = ev->ts;
		p->outside = s->win_end && (ev->ts < s->win_start || ev->ts > s->win_end);
		if (ev->comm && !strcmp(ev->comm, "khugepaged"))
			p->khugepaged = true;
		return 0;
	case CB_SEV_KCOMPACTD:
		p->kcompactd = true;
		return 0;
	case CB_SEV_RECLAIM_BEGIN:
		if (p && p->active && close_attempt(s, p, 0, false))
			goto nomem;
		return 0;
	case CB_SEV_PAGE_ALLOC:
		if (p && p->active && ev->order == p->order &&
		    close_attempt(s, p, ev->ts, ev->ok))
			goto nomem;
		return 0;
	case CB_SEV_BEGIN:
		if (!p || !p->active) {
			s->bg_runs[bg_kind(p, ev->comm)]++;
			return 0;
		}
		s->direct_runs++;
		p->qual = true;
		p->ran = true;
		break;
	case CB_SEV_DEFERRED:
		if (!p || !p->active)
			return 0;
		s->deferred++;
		p->qual = true;
		break;
	case CB_SEV_SUITABLE:
		if (!p || !p->active)
			return 0;	/* reclaim calls compaction_suitable too */
		if (s->suitable_success >= 0 && ev->ret == s->suitable_success)
			p->qual = true;
		break;
	case CB_SEV_END:
	case CB_SEV_COMPACTION:
		if (!p || !p->active)
			return 0;
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

void cb_stalls_finish(struct cb_stalls *s)
{
	struct pst *tab = s->pids;
	size_t i;

	for (i = 0; i < s->pcap; i++) {
		if (!tab[i].used || !tab[i].active)
			continue;
		tab[i].active = false;
		s->truncated++;
		if (tab[i].qual)
			s->truncated_stalls++;
	}
	if (s->n)
		qsort(s->ns, s->n, sizeof(*s->ns), cmp_double);
}

void cb_stalls_free(struct cb_stalls *s)
{
	free(s->ns);
	free(s->pids);
	s->ns = NULL;
	s->pids = NULL;
	s->n = s->cap = s->npids = s->pcap = 0;
}

int cb_stalls_quantile(const struct cb_stalls *s, double q, double *out)
{
	if (!s->n) {
		errno = ENODATA;
		return -1;
	}
	*out = gsl_stats_quantile_from_sorted_data(s->ns, 1, s->n, q);
	return 0;
}

double cb_stalls_max(const struct cb_stalls *s)
{
	return s->n ? s->ns[s->n - 1] : 0;
}

/* ---- the trace.dat adapter ---- */

/* the events read, by name; index = enum cb_sev_kind where one maps to one */
static const struct {
	const char *system, *name;
	enum cb_sev_kind kind;
	bool required;
} wanted[] = {
	{ "compaction", "mm_compaction_try_to_compact_pages", CB_SEV_TRY, true },
	{ "compaction", "mm_compaction_begin", CB_SEV_BEGIN, true },
	{ "compaction", "mm_compaction_end", CB_SEV_END, false },
	{ "compaction", "mm_compaction_deferred", CB_SEV_DEFERRED, false },
	{ "compaction", "mm_compaction_suitable", CB_SEV_SUITABLE, false },
	{ "compaction", "mm_compaction_kcompactd_wake", CB_SEV_KCOMPACTD, false },
	{ "compaction", "mm_compaction_kcompactd_sleep", CB_SEV_KCOMPACTD, false },
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", CB_SEV_RECLAIM_BEGIN, false },
	{ "kmem", "mm_page_alloc", CB_SEV_PAGE_ALLOC, false },
};

#define NWANTED (sizeof(wanted) / sizeof(wanted[0]))

/* compaction events that are not the task's own compaction work */
static const char *const not_work[] = {
	"mm_compaction_wakeup_kcompactd", /* the waker is kswapd or an allocator */
};

struct adapter {
	struct cb_stalls *s;
	int id[NWANTED];
	struct cb_trace_field try_order, suit_ret, alloc_order, alloc_pfn, alloc_page;
	int not_work_id[sizeof(not_work) / sizeof(not_work[0])];
	char *err;
	size_t errlen;
};

static bool is_compaction_event(struct cb_trace *t, int type)
{
	const char *sys = cb_trace_event_system(t, type);

	return sys && !strcmp(sys, "compaction");
}

static int on_record(struct cb_trace *t, struct tep_record *rec, int type, void *data)
{
	struct adapter *a = data;
	struct cb_sev ev = { .ts = rec->ts, .order = -1 };
	unsigned long long u;
	long long v;
	size_t i;

	for (i = 0; i < NWANTED; i++)
		if (a->id[i] == type)
			break;
	if (i == NWANTED) {
		for (i = 0; i < sizeof(a->not_work_id) / sizeof(a->not_work_id[0]); i++)
			if (a->not_work_id[i] == type)
				return 0;
		if (!is_compaction_event(t, type))
			return 0;
		ev.kind = CB_SEV_COMPACTION;
	} else {
		ev.kind = wanted[i].kind;
	}
	ev.pid = cb_trace_pid(t, rec);
	switch (ev.kind) {
	case CB_SEV_TRY:
		cb_trace_s64(&a->try_order, rec, &v);
		ev.order = (int)v;
		ev.comm = cb_trace_comm(t, ev.pid);
		break;
	case CB_SEV_BEGIN:
		ev.comm = cb_trace_comm(t, ev.pid);
		break;
	case CB_SEV_SUITABLE:
		cb_trace_s64(&a->suit_ret, rec, &ev.ret);
		break;
	case CB_SEV_PAGE_ALLOC:
		cb_trace_u64(&a->alloc_order, rec, &u);
		ev.order = (int)u;
		if (a->alloc_pfn.f) {
			unsigned int bits = a->alloc_pfn.f->size * 8;
			unsigned long long all = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;

			cb_trace_u64(&a->alloc_pfn, rec, &u);
			ev.ok = u != all;
		} else {
			cb_trace_u64(&a->alloc_page, rec, &u);
			ev.ok = u != 0;
		}
		break;
	default:
		break;
	}
	if (cb_stalls_feed(a->s, &ev)) {
		snprintf(a->err, a->errlen, "%s: out of memory", cb_trace_path(t));
		return -1;
	}
	return 0;
}

/* read @path into @s in this process */
static int read_trace(const char *path, struct cb_stalls *s, char *err, size_t errlen)
{
	uint64_t ws = s->win_start, we = s->win_end;
	struct adapter a = { .s = s, .err = err, .errlen = errlen };
	struct cb_trace_stats st;
	struct cb_trace *t;
	long long succ;
	size_t i;
	int ret = -1;

	cb_stalls_init(s, -1);
	cb_stalls_set_window(s, ws, we);
	t = cb_trace_open(path, err, errlen);
	if (!t)
		return -1;
	if (!cb_trace_symbol(t, "compaction", "mm_compaction_suitable", "ret", "success", &succ))
		s->suitable_success = succ;
	for (i = 0; i < NWANTED; i++) {
		a.id[i] = cb_trace_event_id(t, wanted[i].system, wanted[i].name);
		if (a.id[i] >= 0)
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
	for (i = 0; i < sizeof(not_work) / sizeof(not_work[0]); i++)
		a.not_work_id[i] = cb_trace_event_id(t, "compaction", not_work[i]);
	if (cb_trace_field(t, "compaction", "mm_compaction_try_to_compact_pages", "order",
			   &a.try_order, err, errlen) ||
	    cb_trace_field(t, "compaction", "mm_compaction_suitable", "ret", &a.suit_ret, err,
			   errlen) ||
	    cb_trace_field(t, "kmem", "mm_page_alloc", "order", &a.alloc_order, err, errlen))
		goto out;
	/* the allocated page: "pfn" since 4.x, "page" before; -1 / NULL means it failed */
	if (cb_trace_field(t, "kmem", "mm_page_alloc", "pfn", &a.alloc_pfn, err, errlen) &&
	    cb_trace_field(t, "kmem", "mm_page_alloc", "page", &a.alloc_page, err, errlen)) {
		snprintf(err, errlen, "%s: event kmem:mm_page_alloc has neither field 'pfn' nor "
			 "'page' in this kernel's format", path);
		goto out;
	}
	if (cb_trace_iterate(t, on_record, &a, &st, err, errlen))
		goto out;
	cb_stalls_finish(s);
	s->events = st.events;
	s->missed = st.missed;
	s->missed_unknown = st.missed_unknown;
	s->first_ts = st.first_ts;
	s->last_ts = st.last_ts;
	ret = 0;
out:
	if (ret)
		cb_stalls_free(s);
	cb_trace_close(t);
	return ret;
}

/* what the reading child sends back: its result, its message, the counters */
struct reply {
	int ret;
	char err[1024];
	struct cb_stalls s;
};

static int read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static void child(const char *path, int fd, struct reply *r)
{
	struct rlimit no_core = { 0, 0 };
	int ret = 0;
	double *ns;
	void *pids;

	setrlimit(RLIMIT_CORE, &no_core);	/* a crash on a bad file is expected: no core */
	r->ret = read_trace(path, &r->s, r->err, sizeof(r->err));
	ns = r->s.ns;
	pids = r->s.pids;
	r->s.ns = NULL;
	r->s.pids = NULL;
	if (write_full(fd, r, sizeof(*r)) || (!r->ret && r->s.n &&
					      write_full(fd, ns, r->s.n * sizeof(*ns))))
		ret = 1;
	free(ns);
	free(pids);
	free(r);
	_exit(ret);
}

/*
 * libtraceevent and libtracecmd trust what a trace.dat says about itself: a corrupt format
 * section can crash them. The reading runs in a child process, so a bad file costs an
 * error message naming it, never the analyzer.
 */
int cb_stalls_from_trace(const char *path, struct cb_stalls *s, char *err, size_t errlen)
{
	return cb_stalls_from_trace_window(path, 0, 0, s, err, errlen);
}

int cb_stalls_from_trace_window(const char *path, uint64_t ws, uint64_t we, struct cb_stalls *s,
				char *err, size_t errlen)
{
	struct reply *r = NULL;
	int p[2], st, got;
	pid_t pid;

	cb_stalls_init(s, -1);
	cb_stalls_set_window(s, ws, we);
	r = calloc(1, sizeof(*r));
	if (r)
		cb_stalls_set_window(&r->s, ws, we);
	if (!r || pipe2(p, O_CLOEXEC)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(r);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "%s: cannot fork the reader: %s", path, strerror(errno));
		close(p[0]);
		close(p[1]);
		free(r);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		child(path, p[1], r);
	}
	close(p[1]);
	got = !read_full(p[0], r, sizeof(*r));
	if (got && !r->ret) {
		*s = r->s;
		s->cap = s->n;
		s->ns = s->n ? malloc(s->n * sizeof(*s->ns)) : NULL;
		if ((s->n && !s->ns) || (s->n && read_full(p[0], s->ns, s->n * sizeof(*s->ns))))
			got = 0;
	}
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(st)) {
		snprintf(err, errlen, "%s: corrupt trace: reading it crashed libtracecmd/libtraceevent "
			 "(%s)", path, strsignal(WTERMSIG(st)));
		got = 0;
	} else if (got && r->ret) {
		snprintf(err, errlen, "%s", r->err);
		got = 0;
	} else if (!got) {
		snprintf(err, errlen, "%s: the trace reader stopped before its result (exit %d)",
			 path, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
	free(r);
	if (!got) {
		cb_stalls_free(s);
		cb_stalls_init(s, -1);
		return -1;
	}
	return 0;
}
