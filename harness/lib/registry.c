// SPDX-License-Identifier: GPL-2.0-only
/*
 * registry.c - a small table of things registered by name (registry.h).
 */
#include "registry.h"

#include <errno.h>
#include <string.h>

int cb_registry_add(struct cb_registry *r, const char *name, const void *item)
{
	const void *old = cb_registry_find(r, name);

	if (old == item)
		return 0;
	if (old) {
		errno = EEXIST;
		return -1;
	}
	if (r->n == CB_REGISTRY_MAX) {
		errno = ENOSPC;
		return -1;
	}
	r->name[r->n] = name;
	r->item[r->n++] = item;
	return 0;
}

const void *cb_registry_find(const struct cb_registry *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->name[i], name))
			return r->item[i];
	errno = ENOENT;
	return NULL;
}

const void *cb_registry_nth(const struct cb_registry *r, size_t i)
{
	return i < r->n ? r->item[i] : NULL;
}
