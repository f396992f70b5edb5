// SPDX-License-Identifier: GPL-2.0-only
/*
 * wl_args.c - getopt_long driven by a workload's wl_info table: struct option[] is built
 * from the table, values are checked with wl_check_value, defaults are filled in and --help
 * is generated, so a program never lists its options twice.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "wl_args.h"
#include "wl_mm.h"

#define OPT_HELP 'h'
#define OPT_BASE 1000 /* getopt's val for option i is OPT_BASE + i */
#define WRAP_COLS 88
#define HELP_INDENT 8

static size_t count_options(const struct wl_info *wl)
{
	size_t n = 0;

	while (wl->options[n].name)
		n++;
	return n;
}

/* the word shown after an option in --help: what kind of value it takes */
static void metavar(const struct wl_option *o, char *buf, size_t size)
{
	const char *const *c;
	size_t used = 0;

	buf[0] = '\0';
	switch (o->type) {
	case WL_OPT_SIZE:
		snprintf(buf, size, " SIZE");
		break;
	case WL_OPT_DURATION:
		snprintf(buf, size, " DURATION");
		break;
	case WL_OPT_INT:
		snprintf(buf, size, " N");
		break;
	case WL_OPT_REAL:
		snprintf(buf, size, " NUMBER");
		break;
	case WL_OPT_STRING:
		snprintf(buf, size, " TEXT");
		break;
	case WL_OPT_ENUM:
		for (c = o->choices; c && *c && used < size; c++)
			used += snprintf(buf + used, size - used, "%s%s", c == o->choices ? " " : "|",
					 *c);
		break;
	case WL_OPT_BOOL:
		break;
	}
}

/* print @text word-wrapped, every line indented by @indent */
static void wrap(FILE *f, const char *text, int indent)
{
	const char *p = text;
	int col = indent;

	fprintf(f, "%*s", indent, "");
	while (*p) {
		size_t len = strcspn(p, " ");

		if (col > indent && col + 1 + (int)len > WRAP_COLS) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, len, f);
		col += len;
		p += len;
		p += strspn(p, " ");
	}
	fputc('\n', f);
}

/* wl_args_usage - write the --help text of @wl to @f */
void wl_args_usage(const struct wl_info *wl, FILE *f)
{
	const struct wl_option *o;
	char mv[256], help[1024];

	fprintf(f, "Usage: %s [OPTION]...\n%s.\nPhase: %s.\n\nOptions:\n", wl->name, wl->summary,
		wl->phase == WL_PHASE_FRAGMENT ? "fragment (prints \"phase\":\"ready\", then holds)"
					       : "demand (runs to completion)");
	for (o = wl->options; o->name; o++) {
		metavar(o, mv, sizeof(mv));
		fprintf(f, "  --%s%s\n", o->name, mv);
		if (o->def && o->type != WL_OPT_BOOL)
			snprintf(help, sizeof(help), "%s (default: %s)", o->help, o->def);
		else
			snprintf(help, sizeof(help), "%s", o->help);
		wrap(f, help, HELP_INDENT);
	}
	fprintf(f, "  --help\n");
	wrap(f, "show this help and exit", HELP_INDENT);
	fputc('\n', f);
	wrap(f, "Sizes: a fraction in (0, 1] (\"0.5\") or bytes with an optional k/M/G/T suffix "
	     "(at most 1024T). Durations: 30, 30s, 500ms, 2m, 1h (at most 168h).", 0);
	fputc('\n', f);
	wrap(f, WL_WINDOW_HELP, 0);
	if (wl->details)
		fprintf(f, "\n%s", wl->details);
}

static int index_of(const struct wl_args *a, const char *name)
{
	const struct wl_option *o = wl_find_option(a->wl, name);

	if (!o) {
		fprintf(stderr, "%s: internal error: no option '%s'\n", a->prog, name);
		abort();
	}
	return (int)(o - a->wl->options);
}

/* build getopt_long's table from ours; the caller frees it */
static struct option *build_longopts(const struct wl_info *wl, size_t n)
{
	struct option *lo = calloc(n + 2, sizeof(*lo));
	size_t i;

	if (!lo)
		return NULL;
	for (i = 0; i < n; i++) {
		lo[i].name = wl->options[i].name;
		lo[i].has_arg = wl->options[i].type == WL_OPT_BOOL ? no_argument : required_argument;
		lo[i].val = OPT_BASE + (int)i;
	}
	lo[n].name = "help";
	lo[n].val = OPT_HELP;
	return lo;
}

/* store the value of option @i after checking it; WL_ARGS_ERROR names it if it is bad */
static int take_value(struct wl_args *a, size_t i, const char *value)
{
	const struct wl_option *o = &a->wl->options[i];
	char err[512];

	if (o->type == WL_OPT_BOOL)
		value = "true";
	if (wl_check_value(o, value, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: bad value for --%s: %s\n", a->prog, o->name, err);
		return WL_ARGS_ERROR;
	}
	a->val[i] = value;
	a->given[i] = true;
	return WL_ARGS_OK;
}

/* say which argument getopt_long refused: unknown, or missing its value */
static int report_getopt_error(const struct wl_args *a, int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "?";

	if (c == ':' && optopt >= OPT_BASE)
		fprintf(stderr, "%s: option '--%s' needs a value\n", a->prog,
			a->wl->options[optopt - OPT_BASE].name);
	else if (optopt >= OPT_BASE)
		fprintf(stderr, "%s: option '--%s' is a flag and takes no value\n", a->prog,
			a->wl->options[optopt - OPT_BASE].name);
	else if (optopt > 0 && optopt < OPT_BASE)
		fprintf(stderr, "%s: unknown option '-%c' (see --help)\n", a->prog, optopt);
	else
		fprintf(stderr, "%s: unknown or ambiguous option '%s' (see --help)\n", a->prog,
			arg);
	return WL_ARGS_ERROR;
}

/*
 * wl_args_parse - parse @argv against @wl's options into @a (defaults filled in)
 *
 * Prints --help to stdout, or an error naming the bad argument to stderr.
 * Returns WL_ARGS_OK, WL_ARGS_HELP or WL_ARGS_ERROR (which is also the exit status to use).
 */
int wl_args_parse(struct wl_args *a, const struct wl_info *wl, int argc, char **argv)
{
	size_t n = count_options(wl), i;
	struct option *lo;
	int c, ret = WL_ARGS_OK;

	memset(a, 0, sizeof(*a));
	a->wl = wl;
	a->prog = wl->name;
	if (n > WL_ARGS_MAX) {
		fprintf(stderr, "%s: internal error: too many options\n", a->prog);
		return WL_ARGS_ERROR;
	}
	for (i = 0; i < n; i++)
		a->val[i] = wl->options[i].def;
	lo = build_longopts(wl, n);
	if (!lo) {
		perror(a->prog);
		return WL_ARGS_ERROR;
	}
	optind = 0; /* glibc: start afresh, so tests may parse several times */
	opterr = 0; /* we name the bad argument ourselves */
	while (ret == WL_ARGS_OK) {
		c = getopt_long(argc, argv, "+:h", lo, NULL);
		if (c == -1)
			break;
		if (c == OPT_HELP) {
			wl_args_usage(wl, stdout);
			ret = WL_ARGS_HELP;
		} else if (c >= OPT_BASE) {
			ret = take_value(a, c - OPT_BASE, optarg);
		} else {
			ret = report_getopt_error(a, c, argv);
		}
	}
	if (ret == WL_ARGS_OK && optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s' (options are --name value)\n",
			a->prog, argv[optind]);
		ret = WL_ARGS_ERROR;
	}
	free(lo);
	return ret;
}

/*
 * wl_args_error - print "PROG: --NAME VALUE: MESSAGE" to stderr (an argument that passed
 * the table's checks but that the program cannot use). Returns WL_ARGS_ERROR.
 */
int wl_args_error(const struct wl_args *a, const char *name, const char *fmt, ...)
{
	const char *v = wl_arg_str(a, name);
	va_list ap;

	fprintf(stderr, "%s: --%s%s%s: ", a->prog, name, v ? " " : "", v ? v : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return WL_ARGS_ERROR;
}

/* wl_arg_str - the value text of option @name (NULL if it has none); aborts on unknown names */
const char *wl_arg_str(const struct wl_args *a, const char *name)
{
	return a->val[index_of(a, name)];
}

/* wl_arg_given - whether option @name was on the command line */
bool wl_arg_given(const struct wl_args *a, const char *name)
{
	return a->given[index_of(a, name)];
}

/* values were checked when parsed, so the conversions below cannot fail on given values */
long long wl_arg_long(const struct wl_args *a, const char *name)
{
	const char *v = wl_arg_str(a, name);

	return v ? strtoll(v, NULL, 10) : 0;
}

double wl_arg_real(const struct wl_args *a, const char *name)
{
	const char *v = wl_arg_str(a, name);

	return v ? strtod(v, NULL) : 0.0;
}

/* wl_arg_duration - value of a DURATION option in seconds (0 if it has none) */
double wl_arg_duration(const struct wl_args *a, const char *name)
{
	const char *v = wl_arg_str(a, name);
	double s = 0.0;

	if (v && cb_parse_duration(v, &s) < 0)
		s = 0.0;
	return s;
}

/* wl_arg_bool - value of a BOOL option */
bool wl_arg_bool(const struct wl_args *a, const char *name)
{
	const char *v = wl_arg_str(a, name);

	return v && (!strcmp(v, "1") || !strcmp(v, "true"));
}

/*
 * wl_arg_size - value of a SIZE option in bytes, a fraction being one of @total
 * Returns 0, or -1 if the option has no value.
 */
int wl_arg_size(const struct wl_args *a, const char *name, uint64_t total, uint64_t *out)
{
	const char *v = wl_arg_str(a, name);

	if (!v)
		return -1;
	return cb_parse_size(v, total, out);
}

int wl_arg_size_fit(const struct wl_args *a, const char *name, const struct wl_mem *m,
		    double share, uint64_t *out, bool *clamped)
{
	const char *v = wl_arg_str(a, name);
	uint64_t cap = (uint64_t)(share * (double)m->avail);

	*clamped = false;
	if (!v || cb_parse_size(v, m->window, out) < 0)
		return wl_args_error(a, name, "not a size");
	if (share <= 0 || *out <= cap)
		return WL_ARGS_OK;
	if (!cb_size_is_fraction(v))
		return wl_args_error(a, name, "%llu bytes is above %.2f of MemAvailable (%llu bytes); "
				     "refusing (a fraction of the window is lowered to fit instead)",
				     (unsigned long long)*out, share, (unsigned long long)m->avail);
	fprintf(stderr, "%s: note: --%s %s of the window (%llu bytes, %s) is %llu bytes, above "
		"%.2f of MemAvailable (%llu bytes): using %llu bytes\n", a->prog, name, v,
		(unsigned long long)m->window, m->from, (unsigned long long)*out, share,
		(unsigned long long)m->avail, (unsigned long long)cap);
	*out = cap;
	*clamped = true;
	return WL_ARGS_OK;
}
