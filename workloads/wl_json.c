// SPDX-License-Identifier: GPL-2.0-only
/*
 * wl_json.c - JSON lines on stdout for the workload programs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_json.h"

/* json-c keeps a copy of the format: give it back, so leak checkers see nothing left */
static void reset_double_format(void)
{
	json_c_set_serialization_double_format(NULL, JSON_C_OPTION_GLOBAL);
}

/* wl_json_init - make stdout line-buffered and doubles short ("%.9g"); call first */
void wl_json_init(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* json-c's default prints 17 digits (0.10000000000000001); 9 are plenty for us */
	if (json_c_set_serialization_double_format("%.9g", JSON_C_OPTION_GLOBAL) == 0)
		atexit(reset_double_format);
}

/* wl_json_new - a new object whose first member is "type": @type */
struct json_object *wl_json_new(const char *type)
{
	struct json_object *o = json_object_new_object();

	if (o)
		wl_json_str(o, "type", type);
	return o;
}

/* @o takes the reference of @v (a NULL @v is a JSON null) */
static void add(struct json_object *o, const char *key, struct json_object *v)
{
	if (o)
		json_object_object_add(o, key, v);
	else
		json_object_put(v);
}

void wl_json_int(struct json_object *o, const char *key, int64_t v)
{
	add(o, key, json_object_new_int64(v));
}

void wl_json_real(struct json_object *o, const char *key, double v)
{
	add(o, key, isfinite(v) ? json_object_new_double(v) : NULL);
}

void wl_json_str(struct json_object *o, const char *key, const char *v)
{
	add(o, key, v ? json_object_new_string(v) : NULL);
}

void wl_json_bool(struct json_object *o, const char *key, bool v)
{
	add(o, key, json_object_new_boolean(v));
}

/*
 * wl_json_emit - print @o as one line on stdout, flush, and drop the reference to @o
 * Returns 0, or -1 with errno set if it could not be written.
 */
int wl_json_emit(struct json_object *o)
{
	const char *s;
	int ret = 0;

	if (!o) {
		errno = ENOMEM;
		return -1;
	}
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	if (!s || fputs(s, stdout) == EOF || fputc('\n', stdout) == EOF || fflush(stdout))
		ret = -1;
	json_object_put(o);
	return ret;
}
