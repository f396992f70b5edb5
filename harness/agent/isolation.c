// SPDX-License-Identifier: GPL-2.0-only
/*
 * isolation.c - the check between two cells of one guest (see isolation.h).
 */
#include "isolation.h"
#include "meta.h"
#include "util.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define HUGE_2M (2UL << 20)

/* the number after "@key:" in a meminfo text, -1 if absent */
static long long meminfo_field(const char *text, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ':')
			return strtoll(p + n + 1, NULL, 10);
	return -1;
}

/* free blocks of order >= 9 in order-9 units: every "Node N, zone Z c0 c1 ..." line */
static long long buddy_blocks9(const char *text)
{
	long long sum = 0;
	bool any = false;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *z = strstr(p, "zone");
		const char *eol = strchr(p, '\n');
		char *end;

		if (!z || (eol && z > eol))
			continue;
		z += 4;
		while (*z == ' ')
			z++;
		while (*z && *z != ' ' && *z != '\n') /* the zone's name */
			z++;
		for (int o = 0;; o++) {
			long long c = strtoll(z, &end, 10);

			if (end == z || (eol && end > eol))
				break;
			if (o >= 9)
				sum += c << (o - 9);
			z = end;
		}
		any = true;
	}
	return any ? sum : -1;
}

/* the "Number of blocks type" table of pagetypeinfo, summed over zones */
static int pageblock_types(const char *text, struct cb_iso_state *st)
{
	const char *h = strstr(text, "Number of blocks type"), *p;
	char *end;

	if (!h)
		return -1;
	p = h + strlen("Number of blocks type");
	st->nr_types = 0;
	while (st->nr_types < CB_ISO_TYPES) {
		int n = 0;

		while (*p == ' ')
			p++;
		if (*p == '\n' || !*p ||
		    sscanf(p, "%15s%n", st->type[st->nr_types], &n) != 1)
			break;
		st->pageblocks[st->nr_types++] = 0;
		p += n;
	}
	for (p = strchr(p, '\n'); p && !strncmp(p + 1, "Node", 4); p = strchr(p + 1, '\n')) {
		const char *z = strstr(p + 1, "zone");

		if (!z)
			break;
		z += 4;
		while (*z == ' ')
			z++;
		while (*z && *z != ' ' && *z != '\n')
			z++;
		for (int t = 0; t < st->nr_types; t++) {
			st->pageblocks[t] += strtoll(z, &end, 10);
			z = end;
		}
	}
	st->unmovable = 0;
	for (int t = 0; t < st->nr_types; t++)
		if (strcmp(st->type[t], "Movable"))
			st->unmovable += st->pageblocks[t];
	return st->nr_types ? 0 : -1;
}

int cb_iso_parse(const char *meminfo, const char *buddyinfo, const char *pagetypeinfo,
		 struct cb_iso_state *st)
{
	memset(st, 0, sizeof(*st));
	st->total_kb = meminfo_field(meminfo, "MemTotal");
	st->free_kb = meminfo_field(meminfo, "MemFree");
	st->blocks9 = buddy_blocks9(buddyinfo);
	if (st->total_kb < 0 || st->free_kb < 0 || st->blocks9 < 0 ||
	    pageblock_types(pagetypeinfo, st) < 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

static long long at_least(double v, long long min)
{
	return (long long)v > min ? (long long)v : min;
}

bool cb_iso_within(const struct cb_iso_state *base, const struct cb_iso_state *now, char *why,
		   size_t len)
{
	long long free_tol = at_least(CB_ISO_FREE_FRACTION * (double)base->total_kb, 16 << 10);
	long long b9_tol = at_least(CB_ISO_BLOCKS9_FRACTION * (double)base->blocks9, 2);
	long long um_tol = at_least(CB_ISO_UNMOVABLE_FRACTION * (double)base->unmovable, 8);

	why[0] = '\0';
	if (now->free_kb < base->free_kb - free_tol)
		snprintf(why, len, "MemFree %lld kB, more than %lld kB below the first cell's %lld kB",
			 now->free_kb, free_tol, base->free_kb);
	else if (now->blocks9 < base->blocks9 - b9_tol)
		snprintf(why, len, "%lld free order-9 blocks, more than %lld fewer than the first "
			 "cell's %lld", now->blocks9, b9_tol, base->blocks9);
	else if (now->unmovable > base->unmovable + um_tol)
		snprintf(why, len, "%lld pageblocks not Movable, more than %lld over the first "
			 "cell's %lld", now->unmovable, um_tol, base->unmovable);
	return !why[0];
}

static struct json_object *state_json(const struct cb_iso_state *st, long cells)
{
	struct json_object *o = json_object_new_object(), *pb = json_object_new_object();

	json_object_object_add(o, "mem_total_kb", json_object_new_int64(st->total_kb));
	json_object_object_add(o, "mem_free_kb", json_object_new_int64(st->free_kb));
	json_object_object_add(o, "free_order9_blocks", json_object_new_int64(st->blocks9));
	json_object_object_add(o, "pageblocks_not_movable", json_object_new_int64(st->unmovable));
	for (int t = 0; t < st->nr_types; t++)
		json_object_object_add(pb, st->type[t], json_object_new_int64(st->pageblocks[t]));
	json_object_object_add(o, "pageblocks", pb);
	if (cells > 0)
		json_object_object_add(o, "cells", json_object_new_int64(cells));
	return o;
}

static long long jint(struct json_object *o, const char *key)
{
	struct json_object *x;

	return json_object_object_get_ex(o, key, &x) ? json_object_get_int64(x) : -1;
}

/* the baseline as state_json wrote it; -1 if unreadable */
static int state_from_json(struct json_object *o, struct cb_iso_state *st, long *cells)
{
	memset(st, 0, sizeof(*st));
	st->total_kb = jint(o, "mem_total_kb");
	st->free_kb = jint(o, "mem_free_kb");
	st->blocks9 = jint(o, "free_order9_blocks");
	st->unmovable = jint(o, "pageblocks_not_movable");
	*cells = (long)jint(o, "cells");
	return st->total_kb > 0 && st->free_kb >= 0 && st->blocks9 >= 0 && st->unmovable >= 0 &&
	       *cells > 0 ? 0 : -1;
}

static int read_state(struct cb_run *run, struct cb_iso_state *st)
{
	static const char *const files[] = { "/proc/meminfo", "/proc/buddyinfo", "/proc/pagetypeinfo" };
	char *text[3] = { NULL, NULL, NULL }, path[PATH_MAX];
	int rc = 0;

	for (int i = 0; i < 3 && rc == 0; i++) {
		if (cb_path(path, sizeof(path), "%s%s", run->root, files[i]) < 0 ||
		    !(text[i] = cb_read_file(path, NULL))) {
			cb_run_set_err(run, "%s: cannot read: %s", path, strerror(errno));
			rc = -1;
		}
	}
	if (rc == 0 && cb_iso_parse(text[0], text[1], text[2], st) < 0) {
		cb_run_set_err(run, "%s/proc/{meminfo,buddyinfo,pagetypeinfo}: not as expected",
			       run->root);
		rc = -1;
	}
	for (int i = 0; i < 3; i++)
		free(text[i]);
	return rc;
}

static int proc_write(struct cb_run *run, const char *rel, const char *value)
{
	char path[PATH_MAX];

	if (cb_path(path, sizeof(path), "%s%s", run->root, rel) < 0 ||
	    cb_write_string(path, value) < 0) {
		cb_run_set_err(run, "%s%s: cannot write '%s': %s", run->root, rel, value,
			       strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Pageblocks an unmovable or reclaimable allocation stole stay so when freed; a fresh boot
 * has few. A THP-sized movable allocation that finds no free Movable block takes a free
 * block of another type whole and makes it Movable: so fault MADV_HUGEPAGE memory over all
 * but 2% of MemTotal (in a child, which the OOM killer picks first) and free it.
 */
static void remobilize(struct cb_run *run, const struct cb_iso_state *st)
{
	long long bytes = (st->free_kb - st->total_kb / 50) * 1024;
	pid_t pid;

	if (bytes < (long long)HUGE_2M)
		return;
	pid = fork();
	if (pid == 0) {
		size_t len = (size_t)bytes & ~(HUGE_2M - 1);
		char *p = mmap(NULL, len + HUGE_2M, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0), *a;

		cb_write_string("/proc/self/oom_score_adj", "1000");
		if (p == MAP_FAILED)
			_exit(1);
		a = (char *)(((uintptr_t)p + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1));
		madvise(a, len, MADV_HUGEPAGE);
		for (size_t off = 0; off < len; off += HUGE_2M)
			a[off] = 1;
		_exit(0);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
}

int cb_iso_step(struct cb_run *run, const char *baseline_path, struct json_object **json)
{
	struct json_object *o, *base_j;
	struct cb_iso_state now, base;
	char why[512];
	long cells;
	bool ok;

	*json = NULL;
	sync();
	if (proc_write(run, "/proc/sys/vm/drop_caches", "3") < 0 ||
	    proc_write(run, "/proc/sys/vm/compact_memory", "1") < 0 || read_state(run, &now) < 0)
		return -1;
	o = json_object_new_object();
	json_object_object_add(o, "how", json_object_new_string(
		"knobs restored, drop_caches, compact_memory, fresh processes; after the first "
		"cell also THP faults over the free memory (pageblocks back to Movable) and "
		"compact_memory again; checked against the guest's first cell"));
	base_j = json_object_from_file(baseline_path);
	if (!base_j) {
		json_object_object_add(o, "cell_in_guest", json_object_new_int(1));
		json_object_object_add(o, "state", state_json(&now, 0));
		json_object_object_add(o, "within", json_object_new_boolean(true));
		*json = o;
		base_j = state_json(&now, 1);
		if (cb_json_write_atomic(baseline_path, base_j) < 0) {
			json_object_put(base_j);
			cb_run_set_err(run, "%s: cannot write: %s", baseline_path, strerror(errno));
			return -1;
		}
		json_object_put(base_j);
		return 0;
	}
	if (state_from_json(base_j, &base, &cells) < 0) {
		json_object_put(base_j);
		json_object_put(o);
		cb_run_set_err(run, "%s: not a baseline this agent wrote", baseline_path);
		return -1;
	}
	json_object_object_add(o, "before_remobilize", state_json(&now, 0));
	remobilize(run, &now);
	if (proc_write(run, "/proc/sys/vm/compact_memory", "1") < 0 || read_state(run, &now) < 0) {
		json_object_put(base_j);
		json_object_put(o);
		return -1;
	}
	ok = cb_iso_within(&base, &now, why, sizeof(why));
	json_object_object_add(o, "cell_in_guest", json_object_new_int64(cells + 1));
	json_object_object_add(o, "state", state_json(&now, 0));
	{
		struct json_object *copy = NULL;

		json_object_deep_copy(base_j, &copy, NULL);
		json_object_object_add(o, "first_cell", copy);
	}
	json_object_object_add(o, "within", json_object_new_boolean(ok));
	json_object_object_add(base_j, "cells", json_object_new_int64(cells + 1));
	cb_json_write_atomic(baseline_path, base_j);
	json_object_put(base_j);
	*json = o;
	if (!ok) {
		cb_run_set_err(run, "the guest's memory is not back to its first cell's: %s", why);
		return 1;
	}
	return 0;
}
