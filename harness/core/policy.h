/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * policy.h - compaction policies the agent runs beside a cell (the first: wmark, in
 * harness/agent/policy_wmark.c), described by themselves and registered by name, so a
 * future policy is one file in harness/agent. The config code (this layer) asks every
 * registered policy to verify each [setting]; only the agent starts and stops them.
 *
 * First step of issue 15: the class carries the name and verify; the wmark.* keys and
 * struct cb_wmark_setting are still in config_keys.c and config.h.
 */
#ifndef CB_POLICY_H
#define CB_POLICY_H

#include <stddef.h>

#include "config.h"

struct cb_policy_ops {
	const char *name;
	/*
	 * verify - check this policy's keys of @s once the file is read. Returns 0, or -1 with
	 * the message ("[setting NAME]: ...", no FILE:LINE) in @why and its line in *@line.
	 */
	int (*verify)(const struct cb_setting *s, char *why, size_t len, int *line);
};

/*
 * cb_policy_register - add @p to the policies (the same one twice is a no-op). Returns 0,
 * or -1 with errno EEXIST (another policy has the name) or ENOSPC (the table is full).
 */
int cb_policy_register(const struct cb_policy_ops *p);

/* cb_policy_find - the policy named @name, or NULL (errno ENOENT) */
const struct cb_policy_ops *cb_policy_find(const char *name);

/* cb_policy_nth - the @i-th registered policy (registration order), or NULL past the last */
const struct cb_policy_ops *cb_policy_nth(size_t i);

#endif
