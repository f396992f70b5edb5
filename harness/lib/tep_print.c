// SPDX-License-Identifier: GPL-2.0-only
/*
 * tep_print.c - symbol and flag tables of print formats (tep_print.h)
 */
#include "tep_print.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32 /* a corrupt format could nest without end */

static bool prints_field(const struct tep_print_arg *f, const char *field)
{
	if (!field)
		return true;
	return f && f->type == TEP_PRINT_FIELD && f->field.name && !strcmp(f->field.name, field);
}

static struct tep_print_arg *find_table(struct tep_print_arg *arg, enum tep_print_arg_type type,
					const char *field, int depth)
{
	if (depth > MAX_DEPTH)
		return NULL;
	for (; arg; arg = arg->next) {
		struct tep_print_arg *r;

		if (arg->type == type && type == TEP_PRINT_SYMBOL &&
		    prints_field(arg->symbol.field, field))
			return arg;
		if (arg->type == type && type == TEP_PRINT_FLAGS &&
		    prints_field(arg->flags.field, field))
			return arg;
		if (arg->type == TEP_PRINT_OP) {
			r = find_table(arg->op.left, type, field, depth + 1);
			if (!r)
				r = find_table(arg->op.right, type, field, depth + 1);
			if (r)
				return r;
		}
	}
	return NULL;
}

struct tep_print_arg *cb_tep_print_table(struct tep_event *ev, enum tep_print_arg_type type,
					 const char *field)
{
	struct tep_print_arg *arg = ev ? find_table(ev->print_fmt.args, type, field, 0) : NULL;

	if (!arg)
		errno = ENOENT;
	return arg;
}

int cb_tep_print_value(const struct tep_print_arg *arg, const char *name, unsigned long long *val)
{
	const struct tep_print_flag_sym *s;
	char *end;

	if (!arg || (arg->type != TEP_PRINT_SYMBOL && arg->type != TEP_PRINT_FLAGS)) {
		errno = ENOENT;
		return -1;
	}
	s = arg->type == TEP_PRINT_SYMBOL ? arg->symbol.symbols : arg->flags.flags;
	for (; s; s = s->next) {
		if (!s->str || strcmp(s->str, name) || !s->value)
			continue;
		errno = 0;
		*val = strtoull(s->value, &end, 0);
		/*
		 * a literal keeps its C suffix: 6.1 prints ___GFP_DIRECT_RECLAIM as "0x400u",
		 * which libtraceevent leaves as it is (6.0+ prints "1UL << 10", evaluated)
		 */
		while (end != s->value && (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L'))
			end++;
		if (!errno && end != s->value && !*end)
			return 0;
	}
	errno = ENOENT;
	return -1;
}

/* the value of flag @name in any __print_flags() table of @ev */
static int any_flag(struct tep_event *ev, const char *name, unsigned long long *val)
{
	struct tep_print_arg *stack[MAX_DEPTH + 1], *arg;
	int n = 0;

	/* every table, not only the first: an event may print two flag fields */
	if (ev && ev->print_fmt.args)
		stack[n++] = ev->print_fmt.args;
	while (n > 0) {
		for (arg = stack[--n]; arg; arg = arg->next) {
			if (arg->type == TEP_PRINT_FLAGS && !cb_tep_print_value(arg, name, val))
				return 0;
			if (arg->type == TEP_PRINT_OP && n + 2 <= MAX_DEPTH) {
				stack[n++] = arg->op.left;
				stack[n++] = arg->op.right;
			}
		}
	}
	errno = ENOENT;
	return -1;
}

static bool flag_char(char c)
{
	return isupper((unsigned char)c) || isdigit((unsigned char)c) || c == '_';
}

int cb_tep_filter_flags(struct tep_event *ev, const char *filter, char *out, size_t outlen,
			char *err, size_t errlen)
{
	const char *p = filter, *q;
	unsigned long long v;
	size_t used = 0;
	int w;

	while (*p) {
		bool word_start = p == filter || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');

		if (word_start && p[0] == '_' && p[1] == '_') {
			char name[128];

			for (q = p; flag_char(*q); q++)
				;
			if (!isalnum((unsigned char)*q) && (size_t)(q - p) < sizeof(name)) {
				snprintf(name, sizeof(name), "%.*s", (int)(q - p), p);
				if (any_flag(ev, name, &v)) {
					snprintf(err, errlen, "flag %s is not in the print format of %s:%s",
						 name, ev && ev->system ? ev->system : "?",
						 ev && ev->name ? ev->name : "?");
					errno = ENOENT;
					return -1;
				}
				w = snprintf(out + used, outlen - used, "0x%llx", v);
				if (w < 0 || (size_t)w >= outlen - used)
					goto too_long;
				used += w;
				p = q;
				continue;
			}
		}
		if (used + 1 >= outlen)
			goto too_long;
		out[used++] = *p++;
	}
	if (used >= outlen)
		goto too_long;
	out[used] = '\0';
	return 0;
too_long:
	snprintf(err, errlen, "filter \"%.200s\" is too long once its flags are numbers", filter);
	errno = ENAMETOOLONG;
	return -1;
}
