/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * registry.h - a small table of things registered by name at start (target classes,
 * policies): what a lower layer looks up without seeing the layer that defines them.
 * Not thread-safe: fill it before any thread starts, as main() does.
 */
#ifndef CB_REGISTRY_H
#define CB_REGISTRY_H

#include <stddef.h>

#define CB_REGISTRY_MAX 16

struct cb_registry {
	const char *name[CB_REGISTRY_MAX];
	const void *item[CB_REGISTRY_MAX];
	size_t n;
};

/*
 * cb_registry_add - register @item under @name (@name must outlive @r). The same item under
 * the same name twice is a no-op. Returns 0, or -1 with errno EEXIST (another item has the
 * name) or ENOSPC (the table is full).
 */
int cb_registry_add(struct cb_registry *r, const char *name, const void *item);

/* cb_registry_find - the item registered as @name, or NULL (errno ENOENT) */
const void *cb_registry_find(const struct cb_registry *r, const char *name);

/* cb_registry_nth - the @i-th item in registration order, or NULL past the last */
const void *cb_registry_nth(const struct cb_registry *r, size_t i);

#endif
