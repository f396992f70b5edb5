/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rb_page.h - the header of a ftrace ring-buffer page, as the kernel writes it
 * (kernel/trace/ring_buffer.c) and trace.dat stores it: a u64 timestamp, then the commit
 * word (u64 on 64-bit kernels): the bytes of data on the page, with flags in its top bits.
 * The collector reads live pages with these and the analysis checks stored ones: one
 * definition for both.
 */
#ifndef CB_RB_PAGE_H
#define CB_RB_PAGE_H

#define RB_MISSED_EVENTS (1ULL << 31) /* events were lost before this page */
#define RB_MISSED_STORED (1ULL << 30) /* their count is stored after the data */

/* the data length as the kernel means it: the commit word without its two flags */
#define RB_COMMIT_MASK ((1ULL << 30) - 1)

/*
 * the data length as libtraceevent's kbuffer-parse.c reads it (27 bits): what a stored page
 * must satisfy for libtracecmd, which the reader's pre-check guards
 */
#define RB_COMMIT_MASK_KBUFFER ((1U << 27) - 1)

#endif
