// SPDX-License-Identifier: GPL-2.0-only
/*
 * wl_info.c - the list of workload programs and the checks of option values.
 *
 * The tables themselves live next to their programs (frag_anon_info.c, ...); this file only
 * lists them and knows how to check a value against an option's type. It is linked into
 * the harness (libwlinfo), so it must not print, exit or depend on more than libcbutil.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "wl_info.h"

const struct wl_info *const wl_all[] = {
	&wl_frag_anon,
	&wl_frag_pagecache,
	&wl_frag_unmovable,
	&wl_thp_demand,
	&wl_kernel_demand,
	&wl_idle,
	&wl_stress_ng,
	NULL,
};

/* wl_find - the workload called @name, or NULL */
const struct wl_info *wl_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; wl_all[i]; i++)
		if (!strcmp(wl_all[i]->name, name))
			return wl_all[i];
	return NULL;
}

/* wl_find_option - the option @name of @wl, or NULL */
const struct wl_option *wl_find_option(const struct wl_info *wl, const char *name)
{
	const struct wl_option *o;

	if (!wl || !name)
		return NULL;
	for (o = wl->options; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/*
 * A size is checked against a large made-up total: only its form matters here, the
 * program resolves a fraction against the memory it finds when it runs.
 */
#define CHECK_TOTAL (1ULL << 40)

static int check_size(const char *value, char *err, size_t errlen)
{
	uint64_t bytes;

	if (cb_parse_size(value, CHECK_TOTAL, &bytes) < 0 || !bytes) {
		snprintf(err, errlen, errno == ERANGE ? "'%s' is larger than any size this tool takes "
			 "(" CB_SIZE_MAX_TEXT ")" : "'%s' is not a size (a fraction in (0, 1] such as "
			 "0.5, or bytes such as 4096, 64k, 512M, 4G)", value);
		return -1;
	}
	return 0;
}

static int check_duration(const char *value, char *err, size_t errlen)
{
	double s;

	if (cb_parse_duration(value, &s) < 0) {
		snprintf(err, errlen, errno == ERANGE ? "'%s' is longer than any duration this tool "
			 "takes (" CB_DURATION_MAX_TEXT ")" : "'%s' is not a duration (such as 30, 30s, "
			 "500ms, 2m, 1h)", value);
		return -1;
	}
	return 0;
}

static int check_int(const struct wl_option *opt, const char *value, char *err, size_t errlen)
{
	long long v;

	if (cb_parse_long(value, (long long)opt->min, (long long)opt->max, &v) < 0) {
		snprintf(err, errlen, "'%s' is not a whole number in [%.0f, %.0f]", value,
			 opt->min, opt->max);
		return -1;
	}
	return 0;
}

static int check_real(const struct wl_option *opt, const char *value, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (!*value || *end || errno || !isfinite(v) || v < opt->min || v > opt->max) {
		snprintf(err, errlen, "'%s' is not a number in [%g, %g]", value, opt->min,
			 opt->max);
		return -1;
	}
	return 0;
}

static int check_enum(const struct wl_option *opt, const char *value, char *err, size_t errlen)
{
	const char *const *c;
	size_t used;

	for (c = opt->choices; c && *c; c++)
		if (!strcmp(*c, value))
			return 0;
	used = snprintf(err, errlen, "'%s' is not one of", value);
	for (c = opt->choices; c && *c && used < errlen; c++)
		used += snprintf(err + used, errlen - used, " %s", *c);
	return -1;
}

/* the spellings a config file may use for a flag; the command line has none */
static int check_bool(const char *value, char *err, size_t errlen)
{
	static const char *const ok[] = { "0", "1", "true", "false", NULL };
	size_t i;

	for (i = 0; ok[i]; i++)
		if (!strcmp(ok[i], value))
			return 0;
	snprintf(err, errlen, "'%s' is not a flag value (0, 1, true or false)", value);
	return -1;
}

/*
 * wl_check_value - check @value against @opt's type and range.
 * Returns 0, or -1 with errno EINVAL and a message saying what is wrong in @err (size @errlen).
 */
int wl_check_value(const struct wl_option *opt, const char *value, char *err, size_t errlen)
{
	char dummy[1];
	int ret;

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	if (!opt || !value) {
		snprintf(err, errlen, "no option or no value");
		errno = EINVAL;
		return -1;
	}
	switch (opt->type) {
	case WL_OPT_SIZE:
		ret = check_size(value, err, errlen);
		break;
	case WL_OPT_DURATION:
		ret = check_duration(value, err, errlen);
		break;
	case WL_OPT_INT:
		ret = check_int(opt, value, err, errlen);
		break;
	case WL_OPT_REAL:
		ret = check_real(opt, value, err, errlen);
		break;
	case WL_OPT_ENUM:
		ret = check_enum(opt, value, err, errlen);
		break;
	case WL_OPT_BOOL:
		ret = check_bool(value, err, errlen);
		break;
	case WL_OPT_STRING:
		ret = 0;
		break;
	default:
		snprintf(err, errlen, "unknown option type %d", (int)opt->type);
		ret = -1;
	}
	if (ret < 0)
		errno = EINVAL;
	return ret;
}
