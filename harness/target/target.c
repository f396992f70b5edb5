// SPDX-License-Identifier: GPL-2.0-only
/*
 * target.c - the ops of a target class, and the registration of the built-in classes.
 */
#include "target.h"

#include <errno.h>
#include <stddef.h>

const struct cb_target_ops *cb_target_find(const struct cb_target_class *cls)
{
	if (!cls || !cls->ops) {
		errno = ENOSYS;
		return NULL;
	}
	return cls->ops;
}

void cb_targets_register(void)
{
	static const struct cb_target_class *const builtin[] = {
		&cb_target_host_class, &cb_target_qemu_class, &cb_target_ssh_class,
	};

	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		cb_target_class_register(builtin[i]); /* fixed names: cannot clash */
}
