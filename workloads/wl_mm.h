/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wl_mm.h - what the workload programs read of the kernel's memory state: /proc/buddyinfo,
 * /proc/vmstat counters, THP settings in sysfs, and pagemap + kpageflags to tell a huge
 * page from base pages.
 */
#ifndef CB_WL_MM_H
#define CB_WL_MM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* the environment variable the harness sets to the cell's window, in bytes */
#define WL_WINDOW_ENV "COMPACTBENCH_WINDOW"

/* the one sentence every workload's --help and configs/README.md give on fractions */
#define WL_WINDOW_HELP                                                                      \
	"A size given as a fraction is a fraction of the memory the cell may use, its window: " \
	"$" WL_WINDOW_ENV " bytes when set (compactbench sets it from memory_limit on the "     \
	"host), else MemTotal less the hugetlb pages (/proc/meminfo Hugetlb; in a QEMU guest, " \
	"the guest's memory). What is used is capped by what is available when the program "  \
	"starts (a share of MemAvailable, said per option): a fraction above the cap is "      \
	"lowered to it with a note on stderr and \"clamped\":true in the start line, bytes "  \
	"above it are refused."

/* the memory a workload sizes itself by */
struct wl_mem {
	uint64_t window;	/* what a fraction is of */
	const char *from;	/* WL_WINDOW_ENV, or "MemTotal-Hugetlb" */
	uint64_t avail;		/* MemAvailable when the program started */
};

/*
 * wl_mem_read - @m from $COMPACTBENCH_WINDOW and @root/proc/meminfo (@root NULL: the real
 * one). Returns 0, or -1 with a message naming what was wrong in @err (an unreadable
 * meminfo, or a variable that is not a whole number of bytes in [1M, 1024T]).
 */
int wl_mem_read(const char *root, struct wl_mem *m, char *err, size_t errlen);

/*
 * wl_mem_resolve - wl_mem_read of the real /proc for program @prog; prints
 * "PROG: ..." to stderr on failure. Returns 0 or -1.
 */
int wl_mem_resolve(const char *prog, struct wl_mem *m);

/* wl_mem_json - @m and whether a size was @clamped into the start line @o */
void wl_mem_json(struct json_object *o, const struct wl_mem *m, bool clamped);

#define WL_BUDDY_MAX_ORDERS 16
#define WL_BUDDY_MAX_ZONES 64

/* one line of /proc/buddyinfo: free blocks per order of one zone */
struct wl_buddy_zone {
	int node;
	char zone[32];
	int norders;
	uint64_t free[WL_BUDDY_MAX_ORDERS];
};

/*
 * wl_buddyinfo_parse - parse the text of /proc/buddyinfo into @zones (at most @max)
 * Returns the number of zones, or -1 with errno EINVAL on a line it cannot read.
 */
int wl_buddyinfo_parse(const char *text, struct wl_buddy_zone *zones, int max);

/*
 * wl_buddyinfo_read - read @root/proc/buddyinfo (@root NULL or "" for the real one)
 * Returns the number of zones, or -1 with errno set.
 */
int wl_buddyinfo_read(const char *root, struct wl_buddy_zone *zones, int max);

/* wl_buddyinfo_blocks_from - free blocks of order >= @order, summed over @n zones */
uint64_t wl_buddyinfo_blocks_from(const struct wl_buddy_zone *zones, int n, int order);

/*
 * wl_buddyinfo_json - {"type":"buddyinfo","when":@when,"zones":[{"node","zone","free":[]}]}
 * Returns a new object (NULL on allocation failure).
 */
struct json_object *wl_buddyinfo_json(const char *when, const struct wl_buddy_zone *zones, int n);

/*
 * wl_buddyinfo_emit - print /proc/buddyinfo as a JSON line (wl_buddyinfo_json) marked @when
 * Returns 0, or -1 with errno set (the caller says what failed).
 */
int wl_buddyinfo_emit(const char *when);

#define WL_PAGEBLOCK_TYPES 8

/* the "Number of blocks type" table of /proc/pagetypeinfo, summed over the zones */
struct wl_pageblocks {
	int ntypes;
	char type[WL_PAGEBLOCK_TYPES][16]; /* "Unmovable", "Movable", "Reclaimable", ... */
	uint64_t count[WL_PAGEBLOCK_TYPES];
};

/*
 * wl_pageblocks_parse - pageblocks per migrate type from the text of /proc/pagetypeinfo
 * Returns 0, or -1 with errno EINVAL if the table is missing or unreadable.
 */
int wl_pageblocks_parse(const char *text, struct wl_pageblocks *pb);

/*
 * wl_pageblocks_read - read @root/proc/pagetypeinfo (root only: mode 0400)
 * Returns 0, or -1 with errno set.
 */
int wl_pageblocks_read(const char *root, struct wl_pageblocks *pb);

/*
 * wl_pageblocks_json - {"type":"pageblocks","when":@when,"Unmovable":N,"Movable":N,...}
 * Returns a new object (NULL on allocation failure).
 */
struct json_object *wl_pageblocks_json(const char *when, const struct wl_pageblocks *pb);

/*
 * wl_vmstat_read - values of the /proc/vmstat counters named in @keys (NULL-terminated)
 * @root: prefix for /proc, NULL or "" for the real one
 * A counter the kernel lacks reads as -1. Returns 0, or -1 with errno set.
 */
int wl_vmstat_read(const char *root, const char *const *keys, long long *values);

/* pagemap of this process and /proc/kpageflags, opened once */
struct wl_pagemap {
	int pagemap_fd;
	int kpageflags_fd; /* -1 if not readable (not root) */
	size_t page_size;
};

#define WL_KPF_THP 22 /* include/uapi/linux/kernel-page-flags.h: any large anon folio */

/* wl_pagemap_open - open both files; returns 0, or -1 with errno set (pagemap missing) */
int wl_pagemap_open(struct wl_pagemap *pm);

/* wl_pagemap_close - close what wl_pagemap_open opened */
void wl_pagemap_close(struct wl_pagemap *pm);

/*
 * wl_pagemap_pfn - the page frame of the page at @addr
 * Returns 1 if the page is present (*@pfn is 0 when the kernel hides PFNs: not root),
 * 0 if not present, -1 with errno set on a read error.
 */
int wl_pagemap_pfn(const struct wl_pagemap *pm, const void *addr, uint64_t *pfn);

/*
 * wl_region_huge - whether [@addr, @addr + @len) is mapped by one large folio: its first
 * and last pages present on contiguous, naturally aligned PFNs carrying the THP flag.
 * Call it after touching only the first page: a base-page fault leaves the last one absent.
 * Returns 1 (huge), 0 (not), or -1 with errno set (ENOTSUP: PFNs hidden, not root).
 */
int wl_region_huge(const struct wl_pagemap *pm, const void *addr, size_t len);

#endif
