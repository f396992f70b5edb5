/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probes.h - kprobe/kretprobe pairs on the page allocator's slow path and on direct
 * compaction, made through libtracefs' dynamic event API (tracefs_kprobe_alloc,
 * tracefs_kretprobe_alloc, tracefs_dynevent_create/destroy).
 *
 * The probes live in the event system "compactbench_<pid>" (CB_PROBES_SYSTEM_PREFIX and the
 * pid of the process that made them), so a later start can tell ours from anyone else's
 * and remove those whose process is gone. The events (see cb_probes_events()):
 *
 *   alloc_slowpath       entry of __alloc_pages_slowpath[.constprop.N|.isra.N]: gfp, order
 *   alloc_slowpath_ret   its return: ret (the struct page *, 0 when it failed)
 *   direct_compact       entry of __alloc_pages_direct_compact: gfp, order, prio
 *   direct_compact_ret   its return: ret
 *
 * Which register holds which argument (x86-64 SysV: %di, %si, %dx, %cx, %r8, %r9). Both
 * kernels the project targets declare, in mm/page_alloc.c,
 *
 *   6.1 and 6.18:  __alloc_pages_slowpath(gfp_t gfp_mask, unsigned int order,
 *                                         struct alloc_context *ac)
 *                  called as __alloc_pages_slowpath(alloc_gfp, order, &ac)
 *   6.1 and 6.18:  __alloc_pages_direct_compact(gfp_t gfp_mask, unsigned int order,
 *                       unsigned int alloc_flags, const struct alloc_context *ac,
 *                       enum compact_priority prio, enum compact_result *compact_result)
 *
 * so gfp_mask (a 32-bit gfp_t) is %di, order is %si, and prio is %r8. On other
 * architectures the probes use $arg1, $arg2, $arg5, which the kernel maps to the same
 * places. A compiler clone can change this: GCC's .constprop.N drops parameters it
 * propagated as constants (the rest keep their order, but a dropped gfp_mask would shift
 * order into %di), and .isra.N may replace a pointer parameter by the fields it reads.
 * This host (6.18) has __alloc_pages_slowpath.constprop.0, and which parameter, if any, the
 * clone lost cannot be seen from here (no kprobes, no /proc/kcore to disassemble): the
 * mapping above is the prototype's and stays unverified until a kernel with kprobes runs
 * tests/collector/test_probe_thp.c (integration), which compares the captured order and
 * gfp with THP faults (order 9), mm_page_alloc and mm_compaction_try_to_compact_pages, and
 * skips with the reason where there are no kprobes (here).
 *
 * Functions return -1 (or NULL) and set errno; those that can fail for a reason a person
 * needs to read also take a caller's buffer (@err, @errlen; an @errlen of 0 asks for no
 * message) and write into it one line saying what failed.
 */
#ifndef CB_PROBES_H
#define CB_PROBES_H

#include <stddef.h>

#define CB_PROBES_SYSTEM_PREFIX "compactbench_"

struct cb_probes;

struct cb_probes_opts {
	const char *kallsyms_path;	/* NULL: /proc/kallsyms */
	const char *slowpath_symbol;	/* NULL: "__alloc_pages_slowpath" (suffixes allowed) */
	const char *compact_symbol;	/* NULL: "__alloc_pages_direct_compact" */
	const char *lockdown_path;	/* NULL: /sys/kernel/security/lockdown */
};

/*
 * cb_probes_create - check the kernel can take kprobes (a kprobe_events file in tracefs,
 * no lockdown in confidentiality mode), resolve each symbol from kallsyms and create the
 * four probes. On any failure nothing is left and NULL is returned with errno set (ENOTSUP:
 * no kprobe events in this kernel, EPERM: lockdown, ENOENT: a symbol is missing, else the
 * kernel's answer); @err then says which and why, naming the symbol.
 */
struct cb_probes *cb_probes_create(const struct cb_probes_opts *opts, char *err, size_t errlen);

/*
 * cb_probes_destroy - remove the probes (disabling them in every instance first) and free
 * @p. Returns 0, or -1 with errno set and @err naming the first probe that could not be
 * removed (the rest still are).
 */
int cb_probes_destroy(struct cb_probes *p, char *err, size_t errlen);

/* cb_probes_events - the probes' events as "system:event", NULL-terminated, owned by @p */
const char *const *cb_probes_events(const struct cb_probes *p);

/*
 * cb_probes_describe - "alloc_slowpath=__alloc_pages_slowpath.constprop.0
 * direct_compact=__alloc_pages_direct_compact": which symbol each pair sits on
 */
const char *cb_probes_describe(const struct cb_probes *p);

/*
 * cb_probes_resolve - the text symbol of @kallsyms_path (NULL: /proc/kallsyms) that is
 * @base itself or @base with a compiler suffix (".constprop.N", ".isra.N", ".part.N"; never
 * ".cold"), into @out. The exact name wins, then .constprop, then .isra, then the first other.
 * Returns 0, or -1 with errno ENOENT (and @err naming @base and the file) or the read
 * error (and @err naming the file).
 */
int cb_probes_resolve(const char *kallsyms_path, const char *base, char *out, size_t size,
		      char *err, size_t errlen);

/*
 * cb_probes_cleanup_stale - remove kprobes whose system is CB_PROBES_SYSTEM_PREFIX<pid>
 * with no such process (left by a killed collector). Calls @log once per probe removed or
 * failed, naming it. Returns the number removed (0 also when the kernel has no kprobes),
 * or -1 with errno set.
 */
int cb_probes_cleanup_stale(void (*log)(const char *msg));

#endif
