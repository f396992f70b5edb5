/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wl_json.h - JSON lines on stdout for the workload programs (on top of json-c).
 *
 * One object per line, each line flushed as soon as it is written, so the harness can act
 * on a line (such as {"phase":"ready"}) while the program keeps running.
 */
#ifndef CB_WL_JSON_H
#define CB_WL_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

/* wl_json_init - make stdout line-buffered and doubles short ("%.9g"); call first */
void wl_json_init(void);

/* wl_json_new - a new object whose first member is "type": @type */
struct json_object *wl_json_new(const char *type);

/* add one member to @o (json-c's calls, shortened; a failed allocation is dropped) */
void wl_json_int(struct json_object *o, const char *key, int64_t v);
void wl_json_real(struct json_object *o, const char *key, double v); /* NaN/inf -> null */
void wl_json_str(struct json_object *o, const char *key, const char *v); /* NULL -> null */
void wl_json_bool(struct json_object *o, const char *key, bool v);

/*
 * wl_json_emit - print @o as one line on stdout, flush, and drop the reference to @o
 * Returns 0, or -1 with errno set if it could not be written.
 */
int wl_json_emit(struct json_object *o);

#endif
