// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_opt.c - the commands' option tables: getopt_long's tables and the usage's option
 * lines from one row per option (cmd_opt.h).
 */
#include "cmd_opt.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int cb_opt_parser_init(struct cb_opt_parser *p, const struct cb_opt *opts, size_t n, bool stop)
{
	size_t s = 0;

	if (n > CB_OPT_MAX) {
		errno = EINVAL;
		return -1;
	}
	memset(p, 0, sizeof(*p));
	if (stop)
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
	bool shorts = false;

	for (size_t i = 0; i < n; i++)
		shorts |= opts[i].help && opts[i].key < 128;
	for (size_t i = 0; i < n; i++) {
		const struct cb_opt *o = &opts[i];
		const char *h = o->help, *nl;
		char left[80];

		if (!h)
			continue;
		if (shorts)
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

int cb_command_bad_option(const char *cmd, int argc, char **argv, const char *const *known,
			  const char *usage)
{
	for (int i = 1; i < argc; i++) {
		const char *const *k = known;

		if (argv[i][0] != '-')
			continue;
		while (k && *k && strcmp(*k, argv[i]))
			k++;
		if (k && *k)
			continue;
		fprintf(stderr, "compactbench %s: unknown option '%s'\n", cmd, argv[i]);
		fputs(usage, stderr);
		return 2;
	}
	return 0;
}
