// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy_wmark.c - the wmark policy (wmark.h) as the first struct cb_policy_ops: its
 * config check (the three wmark.* keys all or none), and the registration of the
 * built-in policies.
 */
#include "policy.h"
#include "wmark.h"

#include <stdio.h>
#include <string.h>

static const char *const wmark_keys[3] = { "wmark.period", "wmark.order", "wmark.count" };

/* wmark.period, wmark.order and wmark.count go together */
static int wmark_verify(const struct cb_setting *s, char *why, size_t len, int *line)
{
	char missing[64] = "";
	int given = 0;

	for (int i = 0; i < 3; i++)
		given += s->has_wmark_key[i];
	if (!given || given == 3)
		return 0;
	for (int i = 0; i < 3; i++)
		if (!s->has_wmark_key[i])
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), "%s%s",
				 missing[0] ? " and " : "", wmark_keys[i]);
	snprintf(why, len, "[setting %s]: the wmark policy needs wmark.period, wmark.order and "
		 "wmark.count together (missing: %s)", s->name, missing);
	*line = s->wmark.line;
	return -1;
}

const struct cb_policy_ops cb_policy_wmark = {
	.name = "wmark",
	.verify = wmark_verify,
};

void cb_policies_register(void)
{
	cb_policy_register(&cb_policy_wmark); /* the only one: its name cannot clash */
}
