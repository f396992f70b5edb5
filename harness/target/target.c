// SPDX-License-Identifier: GPL-2.0-only
/*
 * target.c - the table of targets, and the registration of their classes.
 */
#include "target.h"

#include <errno.h>
#include <stddef.h>

const struct cb_target_ops *cb_target_find(enum cb_target_kind kind)
{
	switch (kind) {
	case CB_TARGET_HOST:
		return &cb_target_host;
	case CB_TARGET_QEMU:
		return &cb_target_qemu;
	case CB_TARGET_SSH:
		return &cb_target_ssh;
	case CB_NR_TARGETS:
		break;
	}
	errno = ENOSYS;
	return NULL;
}

void cb_targets_register(void)
{
	static const struct cb_target_class *const builtin[] = {
		&cb_target_host_class, &cb_target_qemu_class, &cb_target_ssh_class,
	};

	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		cb_target_class_register(builtin[i]); /* fixed names: cannot clash */
}
