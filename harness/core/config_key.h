/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_key.h - the rows of a config key table: name, type, default, range, where the value
 * is stored, help. config_keys.c holds the harness's own table; a target class
 * (target_class.h) and a policy (policy.h) each bring the table of the keys only they read,
 * stored into their private config (base KB_PRIV). One parser (config.c) checks every value
 * against its row, and `config --doc` documents every row, so a plugin's keys get the same
 * FILE:LINE errors and the same reference text as the harness's.
 */
#ifndef CB_CONFIG_KEY_H
#define CB_CONFIG_KEY_H

#include <stddef.h>

enum cfg_sec { SEC_GLOBAL, SEC_KERNEL, SEC_SETTING, SEC_WORKLOAD, SEC_COLLECTOR, SEC_NONE };

/* KT_TARGET: one of the registered target classes' names, stored as the class pointer */
enum key_type { KT_INT, KT_DURATION, KT_SIZE, KT_ENUM, KT_STRING, KT_LIST, KT_TARGET };

/* KB_PRIV: the private config of the target class or policy whose table holds the key */
enum key_base { KB_CONFIG, KB_KERNEL, KB_SETTING, KB_WORKLOAD, KB_PRIV };

struct cfg_key {
	enum cfg_sec sec; /* a plugin's table: the section it is read in (kernel, setting) */
	const char *name; /* NULL ends a table */
	enum key_type type;
	const char *def;
	/*
	 * KT_INT: the range; KT_DURATION: in ms (max 0: up to CB_DURATION_MAX_S); KT_SIZE: of a
	 * size in bytes (max 0: up to CB_SIZE_MAX), a fraction being any of (0, 1]
	 */
	long long min, max;
	const char *const *choices;
	enum key_base base;
	size_t off;
	const char *help;
	/*
	 * line_off: where the line the key was given on is kept (an int in the same base),
	 * plus one; 0: not kept. Set it with CB_KEY_LINE(type, field).
	 */
	size_t line_off;
};

/* a plugin table's storage: field @f of its private config struct @type */
#define CB_KEY_PRIV(type, f) .base = KB_PRIV, .off = offsetof(type, f)
/* a plugin table's line field: int @f of @type gets the key's line (0: not given) */
#define CB_KEY_LINE(type, f) .line_off = offsetof(type, f) + 1

/* cb_cfg_key_find - the row named @name of @keys (ended by a NULL name), or NULL */
const struct cfg_key *cb_cfg_key_find(const struct cfg_key *keys, const char *name);

/*
 * cb_cfg_keys_free - free what the parser allocated in @priv for the rows of @keys (text,
 * sizes and lists), then @priv itself. For a plugin's free hook; NULL @priv is fine.
 */
void cb_cfg_keys_free(const struct cfg_key *keys, void *priv);

#endif
