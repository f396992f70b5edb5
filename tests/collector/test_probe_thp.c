// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_probe_thp - is the probed argument really the order? (integration, root, kprobes)
 *
 * Records with the allocator probes required while a child faults MADV_HUGEPAGE memory
 * until about 3/4 of MemAvailable (at most 1 GiB) is taken, so that THP faults (order 9)
 * fall into the allocator slow path, then checks, for the child's pid:
 *  - some alloc_slowpath events say order 9, and every order they say is one that the
 *    child's mm_page_alloc events (or failed THP attempts, order 9) also have;
 *  - their gfp has __GFP_COMP for order 9 (a THP is a compound page) and never bits above
 *    the 6.x gfp range (26 bits), which a wrong register would show;
 *  - each direct_compact event matches the next mm_compaction_try_to_compact_pages of the
 *    same pid in order and gfp_mask.
 * A compiler clone that reordered the arguments (see probes.h) fails here.
 *
 * Exits 77, saying why, where the kernel cannot take kprobes (this project's 6.18 host:
 * no kprobe_events), under lockdown, or when the symbols are missing; also when the THP
 * faults never entered the slow path (memory not tight enough to check anything).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>
#include <tracefs.h>

#include "collector.h"
#include "util.h"

/* the message of the last failing call under test */
static char cberr[1024];

#define GFP_COMP_6X 0x40000	/* ___GFP_COMP in 6.1 and 6.18 (bit 18) */
#define GFP_BITS 26

struct check {
	pid_t child;
	long slow9, slow_other, slow_bad_order, slow_bad_gfp;
	long alloc_orders, slow_orders;	/* bitmasks of orders */
	long compact, compact_pending, compact_mismatch;
	unsigned long long pend_order, pend_gfp;
};

static unsigned long long field(struct tep_event *ev, struct tep_record *rec, const char *name)
{
	unsigned long long v = ~0ULL;

	tep_get_field_val(NULL, ev, name, rec, &v, 0);
	return v;
}

static int check_cb(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	struct check *c = data;
	unsigned long long order, gfp;

	if (!ev || tep_data_pid(tep, rec) != c->child)
		return 0;
	if (!strcmp(ev->name, "mm_page_alloc")) {
		order = field(ev, rec, "order");
		if (order < 64)
			c->alloc_orders |= 1L << order;
	} else if (!strcmp(ev->name, "alloc_slowpath")) {
		order = field(ev, rec, "order");
		gfp = field(ev, rec, "gfp");
		if (order == 9)
			c->slow9++;
		else
			c->slow_other++;
		if (order > 10)
			c->slow_bad_order++;
		if ((gfp >> GFP_BITS) || (order == 9 && !(gfp & GFP_COMP_6X)))
			c->slow_bad_gfp++;
		if (order < 64)
			c->slow_orders |= 1L << order;
	} else if (!strcmp(ev->name, "direct_compact")) {
		c->compact++;
		c->compact_pending = 1;
		c->pend_order = field(ev, rec, "order");
		c->pend_gfp = field(ev, rec, "gfp");
	} else if (!strcmp(ev->name, "mm_compaction_try_to_compact_pages") && c->compact_pending) {
		c->compact_pending = 0;
		if (field(ev, rec, "order") != c->pend_order ||
		    field(ev, rec, "gfp_mask") != c->pend_gfp)
			c->compact_mismatch++;
	}
	return 0;
}

static void fault_thp(void)
{
	long long avail = cb_meminfo_kb(NULL, "MemAvailable");
	size_t len = avail > 0 ? (size_t)avail * 1024 / 4 * 3 : 256 << 20, off;
	char *p;

	if (len > (1UL << 30))
		len = 1UL << 30;
	len &= ~((2UL << 20) - 1);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(1);
	madvise(p, len, MADV_HUGEPAGE);
	for (off = 0; off < len; off += 4096)
		p[off] = 1;
	_exit(0);
}

int main(void)
{
	const char *ev[] = { "kmem:mm_page_alloc", "compaction:mm_compaction_try_to_compact_pages",
			     NULL };
	char spool[] = "/tmp/cbprobethp-XXXXXX", path[PATH_MAX];
	struct cb_collector_opts o = { .events = ev, .probes = CB_PROBES_REQUIRE };
	struct cb_collector_stats st;
	struct check c = { 0 };
	struct tracecmd_input *h;
	struct cb_collector *col;
	int ret = 1;

	if (geteuid() != 0 || !tracefs_tracing_dir()) {
		printf("SKIP: needs root and tracefs\n");
		return 77;
	}
	if (!mkdtemp(spool))
		return 1;
	o.spool_dir = spool;
	snprintf(path, sizeof(path), "%s/thp.dat", spool);
	col = cb_collector_start(&o, cberr, sizeof(cberr));
	if (!col) {
		int e = errno;

		printf("%s: %s\n", e == ENOTSUP || e == EPERM || e == ENOENT ? "SKIP" : "FAIL",
		       cberr);
		cb_rm_rf(spool);
		return e == ENOTSUP || e == EPERM || e == ENOENT ? 77 : 1;
	}
	c.child = fork();
	if (c.child == 0)
		fault_thp();
	waitpid(c.child, NULL, 0);
	if (cb_collector_stop(col, path, &st) < 0) {
		printf("FAIL: %s\n", cb_collector_error(col));
		goto out;
	}
	printf("probes on %s\n", st.probe_symbols);
	h = tracecmd_open(path, 0);
	if (!h || tracecmd_iterate_events(h, NULL, 0, check_cb, &c) < 0) {
		printf("FAIL: cannot read %s\n", path);
		goto out;
	}
	tracecmd_close(h);
	printf("child %d: slowpath order 9: %ld, other: %ld, bad order %ld, bad gfp %ld; "
	       "direct_compact %ld, mismatched %ld; mm_page_alloc orders 0x%lx\n", (int)c.child,
	       c.slow9, c.slow_other, c.slow_bad_order, c.slow_bad_gfp, c.compact,
	       c.compact_mismatch, c.alloc_orders);
	if (!c.slow9 && !c.slow_other) {
		printf("SKIP: the THP faults never entered the slow path: nothing to check\n");
		ret = 77;
	} else if (!c.slow9 || c.slow_bad_order || c.slow_bad_gfp || c.compact_mismatch ||
		   (c.slow_orders & ~c.alloc_orders & ~(1L << 9))) {
		printf("FAIL: the probed arguments are not order and gfp (see probes.h)\n");
	} else {
		ret = 0;
	}
out:
	cb_collector_free(col);
	cb_rm_rf(spool);
	return ret;
}
