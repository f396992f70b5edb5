// SPDX-License-Identifier: GPL-2.0-only
/*
 * knobs.c - the table of kernel knobs a [setting] may change, and how to read them.
 */
#include "knobs.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const thp_enabled[] = { "always", "madvise", "never", NULL };
static const char *const thp_defrag[] = { "always", "defer", "defer+madvise", "madvise", "never", NULL };
static const char *const mthp_enabled[] = { "always", "inherit", "madvise", "never", NULL };

#define THP "/sys/kernel/mm/transparent_hugepage"

const struct cb_knob cb_knobs[] = {
	{ "vm.compaction_proactiveness", "/proc/sys/vm/compaction_proactiveness", CB_KNOB_INT, 0, 100,
	  NULL, "proactive compaction: how hard kcompactd keeps the fragmentation score down (0 = off)" },
	{ "vm.compaction_demand_driven", "/proc/sys/vm/compaction_demand_driven", CB_KNOB_INT, 0, 1,
	  NULL, "demand-driven kcompactd: compact for the high-order demand the allocator saw (1 = on; "
	  "only kernels with configs/kernels/patches/demand-kcompactd)" },
	{ "vm.compact_unevictable_allowed", "/proc/sys/vm/compact_unevictable_allowed", CB_KNOB_INT,
	  0, 1, NULL, "whether compaction may move mlocked (unevictable) pages (0: such pages pin "
	  "their pageblock, e.g. frag-unmovable --filler-lock)" },
	{ "vm.extfrag_threshold", "/proc/sys/vm/extfrag_threshold", CB_KNOB_INT, 0, 1000, NULL,
	  "above this fragmentation index the kernel compacts rather than reclaims for high-order" },
	{ "vm.watermark_boost_factor", "/proc/sys/vm/watermark_boost_factor", CB_KNOB_INT, 0, 1000000,
	  NULL, "boost of the high watermark after a fragmenting fallback (in 1/10000 of the zone)" },
	{ "vm.watermark_scale_factor", "/proc/sys/vm/watermark_scale_factor", CB_KNOB_INT, 1, 3000,
	  NULL, "kswapd's aggressiveness: distance between watermarks (in 1/10000 of memory)" },
	{ "thp.enabled", THP "/enabled", CB_KNOB_ENUM, 0, 0, thp_enabled,
	  "transparent huge pages for anonymous memory" },
	{ "thp.defrag", THP "/defrag", CB_KNOB_ENUM, 0, 0, thp_defrag,
	  "whether THP faults direct-compact/reclaim, wake kcompactd, or neither" },
	{ "thp.khugepaged.defrag", THP "/khugepaged/defrag", CB_KNOB_INT, 0, 1, NULL,
	  "whether khugepaged's allocations may direct-compact" },
	{ "thp.khugepaged.pages_to_scan", THP "/khugepaged/pages_to_scan", CB_KNOB_INT, 1, 4194304, NULL,
	  "pages khugepaged scans per wake-up" },
	{ "thp.khugepaged.scan_sleep_millisecs", THP "/khugepaged/scan_sleep_millisecs", CB_KNOB_INT, 0,
	  86400000, NULL, "khugepaged's sleep between scans (ms)" },
	{ "thp.khugepaged.alloc_sleep_millisecs", THP "/khugepaged/alloc_sleep_millisecs", CB_KNOB_INT,
	  0, 86400000, NULL, "khugepaged's sleep after a failed huge page allocation (ms)" },
	{ "thp.khugepaged.max_ptes_none", THP "/khugepaged/max_ptes_none", CB_KNOB_INT, 0, 511, NULL,
	  "how many empty PTEs khugepaged fills when it collapses a range" },
	{ "mthp.SIZE.enabled", THP "/hugepages-%s/enabled", CB_KNOB_ENUM, 0, 0, mthp_enabled,
	  "multi-size THP of SIZE (e.g. mthp.64kB.enabled), on kernels that have them (6.8+)" },
	{ NULL },
};

/* "64kB", "2048kB": the names the kernel gives the hugepages-SIZE directories */
static int mthp_size_ok(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && isdigit((unsigned char)s[i]))
		i++;
	return i > 0 && s[0] != '0' && len == i + 2 && s[i] == 'k' && s[i + 1] == 'B';
}

const struct cb_knob *cb_knob_find(const char *key, char *arg, size_t arglen)
{
	const struct cb_knob *k;

	if (arglen)
		arg[0] = '\0';
	for (k = cb_knobs; k->name; k++) {
		const char *star = strstr(k->name, "SIZE");
		size_t pre, post, klen = strlen(key), vlen;

		if (!star) {
			if (!strcmp(k->name, key))
				return k;
			continue;
		}
		pre = star - k->name;
		post = strlen(star + 4);
		if (klen <= pre + post || strncmp(key, k->name, pre) ||
		    strcmp(key + klen - post, star + 4))
			continue;
		vlen = klen - pre - post;
		if (!mthp_size_ok(key + pre, vlen) || vlen >= arglen)
			continue;
		memcpy(arg, key + pre, vlen);
		arg[vlen] = '\0';
		return k;
	}
	errno = ENOENT;
	return NULL;
}

int cb_knob_check(const struct cb_knob *knob, const char *value, char *err, size_t errlen)
{
	long long v;
	const char *const *c;

	if (knob->type == CB_KNOB_INT) {
		if (cb_parse_long(value, knob->min, knob->max, &v) == 0)
			return 0;
		snprintf(err, errlen, "'%s' is not a whole number in [%lld, %lld]", value, knob->min,
			 knob->max);
		return -1;
	}
	for (c = knob->choices; *c; c++)
		if (!strcmp(*c, value))
			return 0;
	snprintf(err, errlen, "'%s' is not one of:", value);
	for (c = knob->choices; *c; c++) {
		size_t n = strlen(err);

		snprintf(err + n, errlen - n, " %s", *c);
	}
	return -1;
}

int cb_knob_path(const struct cb_knob *knob, const char *arg, const char *root, char *buf,
		 size_t size)
{
	char rel[512];
	int n;

	/* the table's paths are formats with at most one %s, for the mTHP size */
	n = snprintf(rel, sizeof(rel), knob->path, arg ? arg : "");
	if (n < 0 || (size_t)n >= sizeof(rel)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return cb_path(buf, size, "%s%s", root ? root : "", rel);
}
