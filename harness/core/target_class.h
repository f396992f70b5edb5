/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * target_class.h - targets described by themselves: each target file in harness/target
 * defines a struct cb_target_class next to its ops and harness/target/target.c registers
 * the built-in ones (cb_targets_register). The config code (this layer, which cannot see
 * harness/target) finds a class by name and asks it to verify a [kernel] on that target.
 *
 * First step of issue 15: the class carries the name, flags and verify; the key table and
 * private config of a target are still in config_keys.c and struct cb_kernel.
 */
#ifndef CB_TARGET_CLASS_H
#define CB_TARGET_CLASS_H

#include <stddef.h>

#include "config.h"

enum {
	CB_TARGET_GUEST = 1 << 0, /* boots its own kernel (a recipe) rather than using one */
};

struct cb_target_class {
	const char *name;
	unsigned int flags;
	/*
	 * verify - check @k, a [kernel] on this target, once the whole file is read. Returns 0,
	 * or -1 with the message ("[kernel NAME] ...", no FILE:LINE) in @why. NULL: no check.
	 */
	int (*verify)(const struct cb_kernel *k, char *why, size_t len);
};

/*
 * cb_target_class_register - make @cls findable by its name. Registering the same class
 * twice is a no-op. Returns 0, or -1 with errno EEXIST (another class has the name) or
 * ENOSPC (the table is full).
 */
int cb_target_class_register(const struct cb_target_class *cls);

/* cb_target_class_find - the class named @name, or NULL (errno ENOENT) */
const struct cb_target_class *cb_target_class_find(const char *name);

#endif
