// SPDX-License-Identifier: GPL-2.0-only
/*
 * target.c - the table of targets.
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
