// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_opt.c - the commands' option tables: getopt_long's tables and the usage's option
 * lines from one row per option (cmd_opt.h).
 */
#include "cmd_opt.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int cb_opt_parser_init(struct cb_opt_parser *p, const struct cb_opt *opts, size_t n,
		       unsigned int flags)
{
	size_t s = 0;

	if (n > CB_OPT_MAX) {
		errno = EINVAL;
		return -1;
	}
	optind = 1;
	opterr = !!(flags & CB_OPT_GETOPT_SAYS);
	memset(p, 0, sizeof(*p));
	if (flags & CB_OPT_STOP)
		p->shortopts[s++] = '+';
	for (size_t i = 0; i < n; i++) {
		p->longopts[i] = (struct option){ opts[i].name,
						  opts[i].arg ? required_argument : no_argument,
						  NULL, opts[i].key };
		if (opts[i].key >= 128)
			continue;
		p->shortopts[s++] = (char)opts[i].key;
		if (opts[i].arg)
			p->shortopts[s++] = ':';
	}
	return 0;
}

int cb_opt_next(const struct cb_opt_parser *p, int argc, char **argv)
{
	return getopt_long(argc, argv, p->shortopts, p->longopts, NULL);
}

void cb_opt_usage(FILE *out, const struct cb_opt *opts, size_t n, int width)
{
	cb_opt_usage_style(out, opts, n, width, 0);
}

void cb_opt_usage_style(FILE *out, const struct cb_opt *opts, size_t n, int width,
			unsigned int flags)
{
	bool shorts = false;

	for (size_t i = 0; i < n && !(flags & CB_OPT_USAGE_LONG); i++)
		shorts |= opts[i].help && opts[i].key < 128;
	for (size_t i = 0; i < n; i++) {
		const struct cb_opt *o = &opts[i];
		const char *h = o->help, *nl;
		char left[80];

		if (!h)
			continue;
		if (shorts && o->key >= 128 && (flags & CB_OPT_USAGE_FLUSH))
			snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else if (shorts)
			snprintf(left, sizeof(left), "%c%c%s--%s%s%s", o->key < 128 ? '-' : ' ',
				 o->key < 128 ? o->key : ' ', o->key < 128 ? ", " : "  ", o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		nl = strchr(h, '\n');
		fprintf(out, "  %-*s %.*s\n", width, left, nl ? (int)(nl - h) : (int)strlen(h), h);
		while (nl) {
			h = nl + 1;
			nl = strchr(h, '\n');
			fprintf(out, "%*s%.*s\n", width + 3, "",
				nl ? (int)(nl - h) : (int)strlen(h), h);
		}
	}
}

void cb_opt_page_print(FILE *out, const struct cb_opt_page *pg)
{
	fputs(pg->head, out);
	cb_opt_usage_style(out, pg->opts, pg->n, pg->width, pg->style);
	if (pg->tail)
		fputs(pg->tail, out);
}

int cb_opt_bad(const char *cmd, const struct cb_opt *opts, size_t n, char **argv)
{
	const char *a = argv[optind - 1];

	/* a missing value: getopt_long leaves the option's key in optopt */
	for (size_t i = 0; optopt && i < n; i++) {
		if (opts[i].key != optopt || !opts[i].arg)
			continue;
		if (opts[i].key < 128 && !strncmp(a, "-", 1) && strncmp(a, "--", 2))
			fprintf(stderr, "compactbench %s: option '-%c' needs a value %s\n", cmd,
				opts[i].key, opts[i].arg);
		else
			fprintf(stderr, "compactbench %s: option '--%s' needs a value %s\n", cmd,
				opts[i].name, opts[i].arg);
		return 2;
	}
	if (optopt && optopt < 128)
		fprintf(stderr, "compactbench %s: unknown option '-%c'\n", cmd, optopt);
	else
		fprintf(stderr, "compactbench %s: unknown option '%s'\n", cmd, a);
	return 2;
}

int cb_opt_help_only(const char *cmd, const char *usage, int argc, char **argv)
{
	static const struct cb_opt help[] = { { "help", 'h', NULL, NULL } };
	struct cb_opt_parser p;
	int c;

	cb_opt_parser_init(&p, help, 1, 0);
	c = cb_opt_next(&p, argc, argv);
	if (c == -1)
		return -1;
	if (c == 'h') {
		fputs(usage, stdout);
		return 0;
	}
	cb_opt_bad(cmd, help, 1, argv);
	fputs(usage, stderr);
	return 2;
}
