// SPDX-License-Identifier: GPL-2.0-only
/*
 * stalls_probe.c - the per-pid state machine of the probe method (stalls_probe.h):
 *
 *   call      = alloc_slowpath .. alloc_slowpath_ret of one pid (no nesting)
 *   dc time   = direct_compact .. direct_compact_ret of that pid inside the call
 *   reclaim   = mm_vmscan_direct_reclaim_begin .. _end of that pid inside the call
 *   stall     = a call that returned with dc time or reclaim time > 0
 *
 * A call still open at the end of the trace is truncated; a call open when a record comes
 * preceded by lost events is cut by loss. Neither is a stall.
 */
#include "stalls_probe.h"
#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

struct ppid {
	int pid;	/* 0: free slot */
	bool open, inwin;
	int order;
	unsigned int gfp;
	uint64_t start, dc_start, rec_start; /* 0: not inside */
	uint64_t dc_ns, reclaim_ns;
	char comm[16];
};

void cb_pstalls_init(struct cb_pstalls *p, uint64_t start, uint64_t end)
{
	memset(p, 0, sizeof(*p));
	p->win_start = start;
	p->win_end = end;
}

static struct ppid *slot(struct ppid *tab, size_t cap, int pid)
{
	size_t i = ((unsigned int)pid * 2654435761u) & (cap - 1);

	while (tab[i].pid && tab[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

/* the state of @pid, made if needed; NULL with ENOMEM */
static struct ppid *get(struct cb_pstalls *p, int pid)
{
	struct ppid *tab = p->pids, *e;
	size_t i;

	if (pid == 0)
		pid = -1;	/* 0 marks a free slot; the idle task never allocates here */
	if (p->pcap && (e = slot(tab, p->pcap, pid))->pid == pid)
		return e;
	if ((p->npids + 1) * 2 > p->pcap) {
		size_t cap = p->pcap ? p->pcap * 2 : 64;
		struct ppid *n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (i = 0; i < p->pcap; i++)
			if (tab[i].pid)
				*slot(n, cap, tab[i].pid) = tab[i];
		free(tab);
		p->pids = tab = n;
		p->pcap = cap;
	}
	e = slot(tab, p->pcap, pid);
	e->pid = pid;
	p->npids++;
	return e;
}

static bool in_window(const struct cb_pstalls *p, uint64_t ts)
{
	return !p->win_end || (ts >= p->win_start && ts <= p->win_end);
}

static int close_call(struct cb_pstalls *p, struct ppid *e, const struct cb_pev *ev)
{
	struct cb_pstall *r;

	e->open = false;
	if (!e->inwin)
		return 0;
	p->calls++;
	if (!e->dc_ns && !e->reclaim_ns)
		return 0;
	p->rec = cb_xgrow(p->rec, &p->cap, p->n, sizeof(*p->rec), 256);
	r = &p->rec[p->n++];
	memset(r, 0, sizeof(*r));
	r->start = e->start;
	r->ns = ev->ts - e->start;
	r->dc_ns = e->dc_ns;
	r->reclaim_ns = e->reclaim_ns;
	r->pid = e->pid;
	r->order = (int16_t)e->order;
	r->ok = ev->ok;
	r->gfp = e->gfp;
	memcpy(r->comm, e->comm, sizeof(r->comm));
	p->stalls++;
	p->total_ns += r->ns;
	p->dc_ns += r->dc_ns;
	p->reclaim_ns += r->reclaim_ns;
	return 0;
}

/*
 * close every open call without a return: a loss (it may have missed events) or the end of
 * the trace; each one that began inside the window adds one to *@count
 */
static void close_open(struct cb_pstalls *p, uint64_t *count)
{
	struct ppid *tab = p->pids;
	size_t i;

	for (i = 0; i < p->pcap; i++)
		if (tab[i].pid && tab[i].open) {
			tab[i].open = false;
			if (tab[i].inwin)
				(*count)++;
		}
}

/*
 * the end of a span opened at *@start (0: none open): its length goes to *@acc, one more to
 * *@count if not NULL (the call was inside the window)
 */
static void span_end(uint64_t *start, uint64_t *acc, uint64_t now, uint64_t *count)
{
	if (!*start)
		return;
	*acc += now - *start;
	*start = 0;
	if (count)
		(*count)++;
}

int cb_pstalls_feed(struct cb_pstalls *p, const struct cb_pev *ev)
{
	struct ppid *e;

	if (ev->kind == CB_PEV_LOSS) {
		close_open(p, &p->cut_by_loss);
		return 0;
	}
	e = get(p, ev->pid);
	if (!e) {
		errno = ENOMEM;
		return -1;
	}
	if (ev->kind != CB_PEV_SLOW && !e->open) {
		/* a return or inner event of a call that began before the trace or a loss */
		if (ev->kind == CB_PEV_SLOW_RET)
			p->unmatched++;
		return 0;
	}
	switch (ev->kind) {
	case CB_PEV_SLOW:
		if (e->open && e->inwin)	/* its return was lost (kretprobe maxactive) */
			p->lost_ret++;
		memset(&e->open, 0, sizeof(*e) - offsetof(struct ppid, open));
		e->open = true;
		e->inwin = in_window(p, ev->ts);
		if (!e->inwin)
			p->outside++;
		e->start = ev->ts;
		e->order = ev->order;
		e->gfp = ev->gfp;
		if (ev->comm)
			strncpy(e->comm, ev->comm, sizeof(e->comm) - 1);
		break;
	case CB_PEV_DC:
		e->dc_start = ev->ts;
		break;
	case CB_PEV_DC_RET:
		span_end(&e->dc_start, &e->dc_ns, ev->ts, e->inwin ? &p->dc_calls : NULL);
		break;
	case CB_PEV_RECLAIM:
		e->rec_start = ev->ts;
		break;
	case CB_PEV_RECLAIM_END:
		span_end(&e->rec_start, &e->reclaim_ns, ev->ts, e->inwin ? &p->reclaims : NULL);
		break;
	case CB_PEV_SLOW_RET:
		if (close_call(p, e, ev)) {
			errno = ENOMEM;
			return -1;
		}
		break;
	default:
		break;
	}
	return 0;
}

int cb_pstalls_finish(struct cb_pstalls *p)
{
	size_t i;

	close_open(p, &p->truncated);
	free(p->ns);
	p->ns = NULL;
	if (!p->n)
		return 0;
	p->ns = malloc(p->n * sizeof(*p->ns));
	if (!p->ns)
		return -1;
	for (i = 0; i < p->n; i++)
		p->ns[i] = (double)p->rec[i].ns;
	gsl_sort(p->ns, 1, p->n);
	return 0;
}

void cb_pstalls_free(struct cb_pstalls *p)
{
	free(p->pids);
	free(p->rec);
	free(p->ns);
	p->pids = NULL;
	p->rec = NULL;
	p->ns = NULL;
	p->npids = p->pcap = p->cap = 0;
}

int cb_pstalls_quantile(const struct cb_pstalls *p, double q, double *out)
{
	if (!p->n || !p->ns) {
		errno = ENODATA;
		return -1;
	}
	*out = gsl_stats_quantile_from_sorted_data(p->ns, 1, p->n, q);
	return 0;
}
