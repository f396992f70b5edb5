// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy.c - the registry of policies (policy.h): a small fixed table, filled at start by
 * cb_policies_register() (harness/agent/policy_wmark.c).
 */
#include "policy.h"

#include <errno.h>
#include <string.h>

#define MAX_POLICIES 8

static const struct cb_policy_ops *policies[MAX_POLICIES];
static size_t nr_policies;

int cb_policy_register(const struct cb_policy_ops *p)
{
	const struct cb_policy_ops *old = cb_policy_find(p->name);

	if (old == p)
		return 0;
	if (old) {
		errno = EEXIST;
		return -1;
	}
	if (nr_policies == MAX_POLICIES) {
		errno = ENOSPC;
		return -1;
	}
	policies[nr_policies++] = p;
	return 0;
}

const struct cb_policy_ops *cb_policy_find(const char *name)
{
	for (size_t i = 0; i < nr_policies; i++)
		if (!strcmp(policies[i]->name, name))
			return policies[i];
	errno = ENOENT;
	return NULL;
}

const struct cb_policy_ops *cb_policy_nth(size_t i)
{
	return i < nr_policies ? policies[i] : NULL;
}
