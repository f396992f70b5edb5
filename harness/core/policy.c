// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy.c - the registry of policies (policy.h), filled at start by
 * cb_policies_register() (harness/agent/policies.c).
 */
#include "policy.h"
#include "registry.h"

static struct cb_registry policies;

int cb_policy_register(const struct cb_policy_ops *p)
{
	return cb_registry_add(&policies, p->name, p);
}

const struct cb_policy_ops *cb_policy_find(const char *name)
{
	return cb_registry_find(&policies, name);
}

const struct cb_policy_ops *cb_policy_nth(size_t i)
{
	return cb_registry_nth(&policies, i);
}

void *cb_setting_policy(const struct cb_setting *s, const struct cb_policy_ops *p)
{
	for (size_t i = 0; i < s->nr_policies; i++)
		if (s->policies[i].ops == p)
			return s->policies[i].priv;
	return NULL;
}
