// SPDX-License-Identifier: GPL-2.0-only
/*
 * policies.c - the built-in policies (policy.h): a new policy is its own file in this
 * folder plus one line here.
 */
#include "policy.h"
#include "wmark.h"

void cb_policies_register(void)
{
	/* fixed, distinct names: registering cannot fail */
	cb_policy_register(&cb_policy_wmark);
}
