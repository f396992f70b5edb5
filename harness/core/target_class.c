// SPDX-License-Identifier: GPL-2.0-only
/*
 * target_class.c - the registry of target classes (target_class.h): a small fixed table,
 * filled once at start by cb_targets_register().
 */
#include "target_class.h"

#include <errno.h>
#include <string.h>

#define MAX_CLASSES 16

static const struct cb_target_class *classes[MAX_CLASSES];
static size_t nr_classes;

int cb_target_class_register(const struct cb_target_class *cls)
{
	const struct cb_target_class *old = cb_target_class_find(cls->name);

	if (old == cls)
		return 0;
	if (old) {
		errno = EEXIST;
		return -1;
	}
	if (nr_classes == MAX_CLASSES) {
		errno = ENOSPC;
		return -1;
	}
	classes[nr_classes++] = cls;
	return 0;
}

const struct cb_target_class *cb_target_class_find(const char *name)
{
	for (size_t i = 0; i < nr_classes; i++)
		if (!strcmp(classes[i]->name, name))
			return classes[i];
	errno = ENOENT;
	return NULL;
}
