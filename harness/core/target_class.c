// SPDX-License-Identifier: GPL-2.0-only
/*
 * target_class.c - the registry of target classes (target_class.h), filled once at start
 * by cb_targets_register().
 */
#include "target_class.h"
#include "registry.h"

#include <stdio.h>

static struct cb_registry classes;

int cb_target_class_register(const struct cb_target_class *cls)
{
	return cb_registry_add(&classes, cls->name, cls);
}

const struct cb_target_class *cb_target_class_find(const char *name)
{
	return cb_registry_find(&classes, name);
}

const struct cb_target_class *cb_target_class_nth(size_t i)
{
	return cb_registry_nth(&classes, i);
}

const char *cb_target_class_names(char *buf, size_t len)
{
	const struct cb_target_class *cls;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; (cls = cb_target_class_nth(i)) && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? ", " : "", cls->name);
	return buf;
}
