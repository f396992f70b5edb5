/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * policy.h - compaction policies the agent runs beside a cell (the first: wmark, in
 * harness/agent/policy_wmark.c), described by themselves and registered by name: a policy
 * is one file in harness/agent (its [setting] keys, their private config, verify, and the
 * start/stop the agent calls) plus one line in cb_policies_register (harness/agent/policies.c).
 * The config code (this layer) parses a setting's policy keys into that policy's private
 * config and asks the policy to verify it; only the agent starts and stops policies.
 */
#ifndef CB_POLICY_H
#define CB_POLICY_H

#include <stddef.h>

#include "config.h"
#include "config_key.h"

struct cb_run;
struct cb_cell;
struct json_object;

struct cb_policy_ops {
	const char *name;
	/*
	 * keys - the [setting] keys of this policy (sec SEC_SETTING, base KB_PRIV), ended by a
	 * NULL name. A setting that sets any of them runs the policy.
	 */
	const struct cfg_key *keys;
	/* priv_alloc - a zeroed private config (the parser then sets the defaults) */
	void *(*priv_alloc)(void);
	/* priv_free - free a private config from priv_alloc (NULL is fine) */
	void (*priv_free)(void *priv);
	/*
	 * verify - check this policy's private config @priv of setting @s once the file is read.
	 * Returns 0, or -1 with the message ("[setting NAME]: ...", no FILE:LINE) in @why and its
	 * line in *@line. NULL: no check.
	 */
	int (*verify)(const struct cb_setting *s, const void *priv, char *why, size_t len,
		      int *line);
	/* meta - what meta.json holds under the policy's name for a cell that runs it (new object) */
	struct json_object *(*meta)(const void *priv);
	/*
	 * start - start the policy beside @cell (from the fragment phase's start, else the
	 * demand's). Returns its running state, or NULL with run->err set. NULL (with stop):
	 * nothing runs.
	 */
	void *(*start)(struct cb_run *run, const struct cb_cell *cell, const void *priv);
	/*
	 * stop - stop the policy started as @state (after the demand phase, or on failure), write
	 * its files into @cell_dir and free @state. Returns 0, or -1 with run->err set. Called
	 * once for each start that succeeded.
	 */
	int (*stop)(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir,
		    const void *priv, void *state);
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

/*
 * cb_setting_policy - the private config of policy @p in setting @s, or NULL when @s sets
 * none of @p's keys (it does not run @p)
 */
void *cb_setting_policy(const struct cb_setting *s, const struct cb_policy_ops *p);

/*
 * cb_policies_register - register the built-in policies (harness/agent/policies.c), so
 * configs parse and verify their keys. Call before the first cb_config_load; the commands do
 * it at start. Calling it again is harmless.
 */
void cb_policies_register(void);

#endif
