// SPDX-License-Identifier: GPL-2.0-only
/*
 * wl_mm.c - reading the kernel's memory state for the workload programs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frag.h"
#include "util.h"
#include "vmstat.h"
#include "wl_json.h"
#include "wl_mm.h"

#define PM_PRESENT (1ULL << 63)
#define PM_PFN_MASK ((1ULL << 55) - 1)

/*
 * wl_buddyinfo_parse - parse the text of /proc/buddyinfo into @zones (at most @max)
 * Returns the number of zones, or -1 with errno EINVAL on a line it cannot read.
 * The parsing is harness/lib's (cb_buddyinfo_parse), which the analysis reads snapshots
 * with; this only copies its zones into the workloads' struct.
 */
int wl_buddyinfo_parse(const char *text, struct wl_buddy_zone *zones, int max)
{
	struct cb_zone_free z[WL_BUDDY_MAX_ZONES];
	int n, i, o;

	n = cb_buddyinfo_parse(text, z, max < WL_BUDDY_MAX_ZONES ? max : WL_BUDDY_MAX_ZONES, NULL);
	if (n < 0) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < n; i++) {
		memset(&zones[i], 0, sizeof(zones[i]));
		zones[i].node = z[i].node;
		snprintf(zones[i].zone, sizeof(zones[i].zone), "%s", z[i].zone);
		zones[i].norders = z[i].norders;
		for (o = 0; o < z[i].norders; o++)
			zones[i].free[o] = z[i].nr_free[o];
	}
	return n;
}

/*
 * wl_buddyinfo_read - read @root/proc/buddyinfo (@root NULL or "" for the real one)
 * Returns the number of zones, or -1 with errno set.
 */
int wl_buddyinfo_read(const char *root, struct wl_buddy_zone *zones, int max)
{
	char path[PATH_MAX], *text;
	int n;

	if (cb_path(path, sizeof(path), "%s/proc/buddyinfo", root ? root : "") < 0)
		return -1;
	text = cb_read_file(path, NULL);
	if (!text)
		return -1;
	n = wl_buddyinfo_parse(text, zones, max);
	free(text);
	return n;
}

/* wl_buddyinfo_blocks_from - free blocks of order >= @order, summed over @n zones */
uint64_t wl_buddyinfo_blocks_from(const struct wl_buddy_zone *zones, int n, int order)
{
	uint64_t sum = 0;
	int i, o;

	for (i = 0; i < n; i++)
		for (o = order < 0 ? 0 : order; o < zones[i].norders; o++)
			sum += zones[i].free[o];
	return sum;
}

/*
 * wl_buddyinfo_json - {"type":"buddyinfo","when":@when,"zones":[{"node","zone","free":[]}]}
 * Returns a new object (NULL on allocation failure).
 */
struct json_object *wl_buddyinfo_json(const char *when, const struct wl_buddy_zone *zones, int n)
{
	struct json_object *o = wl_json_new("buddyinfo"), *arr = json_object_new_array();
	int i, k;

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	wl_json_str(o, "when", when);
	for (i = 0; i < n; i++) {
		struct json_object *z = json_object_new_object();
		struct json_object *free_arr = json_object_new_array();

		wl_json_int(z, "node", zones[i].node);
		wl_json_str(z, "zone", zones[i].zone);
		for (k = 0; k < zones[i].norders; k++)
			json_object_array_add(free_arr, json_object_new_int64(zones[i].free[k]));
		json_object_object_add(z, "free", free_arr);
		json_object_array_add(arr, z);
	}
	json_object_object_add(o, "zones", arr);
	return o;
}

/*
 * wl_vmstat_read - values of the /proc/vmstat counters named in @keys (NULL-terminated)
 * @root: prefix for /proc, NULL or "" for the real one
 * A counter the kernel lacks reads as -1. Returns 0, or -1 with errno set.
 */
int wl_vmstat_read(const char *root, const char *const *keys, long long *values)
{
	struct cb_vmstat v;
	char path[PATH_MAX], *text;
	size_t i;
	int ret;

	if (cb_path(path, sizeof(path), "%s/proc/vmstat", root ? root : "") < 0)
		return -1;
	text = cb_read_file(path, NULL);
	if (!text)
		return -1;
	ret = cb_vmstat_parse(text, &v, NULL); /* harness/lib's parser, as the analysis's */
	free(text);
	if (ret < 0)
		return -1;
	for (i = 0; keys[i]; i++)
		if (cb_vmstat_get(&v, keys[i], &values[i]) < 0)
			values[i] = -1;
	cb_vmstat_free(&v);
	return 0;
}

/* wl_pagemap_open - open both files; returns 0, or -1 with errno set (pagemap missing) */
int wl_pagemap_open(struct wl_pagemap *pm)
{
	pm->page_size = (size_t)sysconf(_SC_PAGESIZE);
	pm->kpageflags_fd = -1;
	pm->pagemap_fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (pm->pagemap_fd < 0)
		return -1;
	pm->kpageflags_fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	return 0;
}

/* wl_pagemap_close - close what wl_pagemap_open opened */
void wl_pagemap_close(struct wl_pagemap *pm)
{
	if (pm->pagemap_fd >= 0)
		close(pm->pagemap_fd);
	if (pm->kpageflags_fd >= 0)
		close(pm->kpageflags_fd);
	pm->pagemap_fd = pm->kpageflags_fd = -1;
}

/* read the 64-bit entry number @index of @fd */
static int read_u64(int fd, uint64_t index, uint64_t *out)
{
	ssize_t n = pread(fd, out, sizeof(*out), (off_t)(index * sizeof(*out)));

	if (n == (ssize_t)sizeof(*out))
		return 0;
	if (n >= 0)
		errno = EIO;
	return -1;
}

/*
 * wl_pagemap_pfn - the page frame of the page at @addr
 * Returns 1 if the page is present (*@pfn is 0 when the kernel hides PFNs: not root),
 * 0 if not present, -1 with errno set on a read error.
 */
int wl_pagemap_pfn(const struct wl_pagemap *pm, const void *addr, uint64_t *pfn)
{
	uint64_t e;

	if (read_u64(pm->pagemap_fd, (uintptr_t)addr / pm->page_size, &e) < 0)
		return -1;
	*pfn = e & PM_PFN_MASK;
	return (e & PM_PRESENT) ? 1 : 0;
}

/*
 * wl_region_huge - whether [@addr, @addr + @len) is mapped by one large folio: its first
 * and last pages present on contiguous, naturally aligned PFNs carrying the THP flag.
 * Call it after touching only the first page: a base-page fault leaves the last one absent.
 * Returns 1 (huge), 0 (not), or -1 with errno set (ENOTSUP: PFNs hidden, not root).
 */
int wl_region_huge(const struct wl_pagemap *pm, const void *addr, size_t len)
{
	uint64_t npages = len / pm->page_size, first, last, flags;
	const char *last_addr = (const char *)addr + len - pm->page_size;
	int ret;

	ret = wl_pagemap_pfn(pm, addr, &first);
	if (ret <= 0)
		return ret;
	if (!first || pm->kpageflags_fd < 0) {
		errno = ENOTSUP;
		return -1;
	}
	ret = wl_pagemap_pfn(pm, last_addr, &last);
	if (ret <= 0)
		return ret;
	if (last != first + npages - 1 || first % npages)
		return 0;
	if (read_u64(pm->kpageflags_fd, first, &flags) < 0)
		return -1;
	return (flags >> WL_KPF_THP) & 1;
}

/*
 * wl_buddyinfo_emit - print /proc/buddyinfo as a JSON line (wl_buddyinfo_json) marked @when
 * Returns 0, or -1 with errno set (the caller says what failed).
 */
int wl_buddyinfo_emit(const char *when)
{
	struct wl_buddy_zone zones[WL_BUDDY_MAX_ZONES];
	int n = wl_buddyinfo_read(NULL, zones, WL_BUDDY_MAX_ZONES);

	if (n < 0)
		return -1;
	return wl_json_emit(wl_buddyinfo_json(when, zones, n));
}

/* the header "Number of blocks type     Unmovable      Movable ..." gives the type names */
static int parse_block_header(const char *line, struct wl_pageblocks *pb)
{
	const char *names = line + strlen("Number of blocks type");
	char head[512];
	const char *p = head;
	int used;

	/* this line only: %s would read on into the rows */
	snprintf(head, sizeof(head), "%.*s", (int)strcspn(names, "\n"), names);
	memset(pb, 0, sizeof(*pb));
	while (pb->ntypes < WL_PAGEBLOCK_TYPES &&
	       sscanf(p, "%15s%n", pb->type[pb->ntypes], &used) == 1) {
		pb->ntypes++;
		p += used;
	}
	return pb->ntypes ? 0 : -1;
}

/* one "Node 0, zone   Normal   83  10662 ..." row of the table, added to @pb */
static int add_block_row(const char *line, struct wl_pageblocks *pb)
{
	char zone[32], *end;
	const char *p;
	int node, used = 0, i;

	if (sscanf(line, "Node %d, zone %31s%n", &node, zone, &used) != 2 || !used)
		return -1;
	p = line + used;
	for (i = 0; i < pb->ntypes; i++) {
		unsigned long long v = strtoull(p, &end, 10);

		if (end == p)
			return -1;
		pb->count[i] += v;
		p = end;
	}
	return 0;
}

/*
 * wl_pageblocks_parse - pageblocks per migrate type from the text of /proc/pagetypeinfo
 * Returns 0, or -1 with errno EINVAL if the table is missing or unreadable.
 */
int wl_pageblocks_parse(const char *text, struct wl_pageblocks *pb)
{
	const char *line = text ? strstr(text, "Number of blocks type") : NULL;

	if (!line || parse_block_header(line, pb) < 0) {
		errno = EINVAL;
		return -1;
	}
	/* the rows follow the header up to an empty line or the end */
	for (line = strchr(line, '\n'); line && line[1] && line[1] != '\n';
	     line = strchr(line + 1, '\n')) {
		if (add_block_row(line + 1, pb) < 0) {
			errno = EINVAL;
			return -1;
		}
	}
	return 0;
}

/*
 * wl_pageblocks_read - read @root/proc/pagetypeinfo (root only: mode 0400)
 * Returns 0, or -1 with errno set.
 */
int wl_pageblocks_read(const char *root, struct wl_pageblocks *pb)
{
	char path[PATH_MAX], *text;
	int ret;

	if (cb_path(path, sizeof(path), "%s/proc/pagetypeinfo", root ? root : "") < 0)
		return -1;
	text = cb_read_file(path, NULL);
	if (!text)
		return -1;
	ret = wl_pageblocks_parse(text, pb);
	free(text);
	return ret;
}

/*
 * wl_pageblocks_json - {"type":"pageblocks","when":@when,"Unmovable":N,"Movable":N,...}
 * Returns a new object (NULL on allocation failure).
 */
struct json_object *wl_pageblocks_json(const char *when, const struct wl_pageblocks *pb)
{
	struct json_object *o = wl_json_new("pageblocks");
	int i;

	wl_json_str(o, "when", when);
	for (i = 0; i < pb->ntypes; i++)
		wl_json_int(o, pb->type[i], (int64_t)pb->count[i]);
	return o;
}

int wl_mem_read(const char *root, struct wl_mem *m, char *err, size_t errlen)
{
	const char *env = getenv(WL_WINDOW_ENV);
	long long total = cb_meminfo_kb(root, "MemTotal");
	long long avail = cb_meminfo_kb(root, "MemAvailable");
	long long huge = cb_meminfo_kb(root, "Hugetlb");
	unsigned long long w;
	char *end;

	if (total <= 0 || avail < 0) {
		snprintf(err, errlen, "cannot read MemTotal and MemAvailable of %s/proc/meminfo: %s",
			 root ? root : "", strerror(errno));
		return -1;
	}
	m->avail = (uint64_t)avail * 1024;
	if (env) {
		errno = 0;
		w = strtoull(env, &end, 10);
		if (errno || end == env || *end || *env == '-' || w < (1ULL << 20) ||
		    w > CB_SIZE_MAX) {
			snprintf(err, errlen, "%s='%s': not a whole number of bytes in [1M, 1024T]",
				 WL_WINDOW_ENV, env);
			return -1;
		}
		m->window = w;
		m->from = WL_WINDOW_ENV;
		return 0;
	}
	if (huge < 0) { /* kernels before 4.16: the default size only */
		long long n = cb_meminfo_kb(root, "HugePages_Total");
		long long sz = cb_meminfo_kb(root, "Hugepagesize");

		huge = n > 0 && sz > 0 ? n * sz : 0;
	}
	m->window = (uint64_t)(total > huge ? total - huge : total) * 1024;
	m->from = "MemTotal-Hugetlb";
	return 0;
}

int wl_mem_resolve(const char *prog, struct wl_mem *m)
{
	char err[256];

	if (wl_mem_read(NULL, m, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "%s: %s\n", prog, err);
	return -1;
}

void wl_mem_json(struct json_object *o, const struct wl_mem *m, bool clamped)
{
	wl_json_int(o, "window_bytes", (int64_t)m->window);
	wl_json_str(o, "window_from", m->from);
	wl_json_int(o, "mem_available_bytes", (int64_t)m->avail);
	wl_json_bool(o, "clamped", clamped);
}
