/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tep_print.h - the symbol and flag tables of an event's print format, as libtraceevent
 * parsed them: `__print_symbolic(REC->ret, { 8, "success" }, ...)` and
 * `__print_flags(REC->gfp_flags, "|", { (gfp_t)((((1UL))) << (10)), "__GFP_DIRECT_RECLAIM" },
 * ...)`. The analysis reads a recorded trace's values with them (a kernel's bits are not
 * assumed) and the collector turns a flag's name in a filter into the booted kernel's value,
 * which the kernel's filter language cannot do by itself. One walk for both.
 */
#ifndef CB_TEP_PRINT_H
#define CB_TEP_PRINT_H

#include <stddef.h>

#include <traceevent/event-parse.h>

/*
 * cb_tep_print_table - the __print_symbolic() (@type TEP_PRINT_SYMBOL) or __print_flags()
 * (TEP_PRINT_FLAGS) argument of @ev's print format that prints @field, or with @field NULL
 * the first such table of any field. NULL with errno ENOENT when there is none.
 */
struct tep_print_arg *cb_tep_print_table(struct tep_event *ev, enum tep_print_arg_type type,
					 const char *field);

/*
 * cb_tep_print_value - the numeric value of @name in table @arg (as cb_tep_print_table gave
 * it) into @val. libtraceevent has already evaluated the kernel's constant expressions
 * ("((gfp_t)((((1UL))) << (10)))" is "1024" by then; a literal's suffix, as in 6.1's
 * "0x400u", is allowed). 0, or -1 with errno ENOENT when
 * @name is not in the table or its value is not a number.
 */
int cb_tep_print_value(const struct tep_print_arg *arg, const char *name, unsigned long long *val);

/*
 * cb_tep_filter_flags - @filter with every flag name in it (a word that starts with "__" and
 * holds only A-Z, 0-9 and '_', e.g. __GFP_DIRECT_RECLAIM) replaced by its value in one of
 * @ev's __print_flags() tables, as 0x... ; the kernel's filter language takes numbers only.
 * Writes the result into @out (@outlen bytes). 0, or -1 with a message in @err naming the
 * flag: errno ENOENT when @ev has no such flag, ENAMETOOLONG when @out is too small.
 */
int cb_tep_filter_flags(struct tep_event *ev, const char *filter, char *out, size_t outlen,
			char *err, size_t errlen);

#endif
