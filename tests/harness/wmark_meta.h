/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wmark_meta.h - the config tests' reader of what the wmark policy says of a setting (its
 * meta.json object), so its parsed keys are checked without reaching into its private struct.
 * Include after cmocka.h.
 */
#ifndef CB_TEST_WMARK_META_H
#define CB_TEST_WMARK_META_H

#include <json-c/json.h>

#include "wmark.h"

/* @key of the wmark policy's meta.json object for @priv, a number */
static inline double wmark_meta_num(const void *priv, const char *key)
{
	struct json_object *m = cb_policy_wmark.meta(priv), *v;
	double d;

	assert_true(json_object_object_get_ex(m, key, &v));
	d = json_object_get_double(v);
	json_object_put(m);
	return d;
}

#endif
