/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_int.h - what config.c (the parser), config_keys.c (the one key table) and
 * config_doc.c (`config doc`) share. Not for other modules: they use config.h.
 */
#ifndef CB_CONFIG_INT_H
#define CB_CONFIG_INT_H

#include "config.h"

#include <stdbool.h>
#include <stddef.h>

enum cfg_sec { SEC_GLOBAL, SEC_KERNEL, SEC_SETTING, SEC_WORKLOAD, SEC_COLLECTOR, SEC_NONE };

extern const char *const cb_cfg_sec_names[];
extern const bool cb_cfg_sec_named[];

enum key_type { KT_INT, KT_DURATION, KT_SIZE, KT_ENUM, KT_STRING, KT_LIST };
enum key_base { KB_CONFIG, KB_KERNEL, KB_SETTING, KB_WORKLOAD };

struct cfg_key {
	enum cfg_sec sec;
	const char *name;
	enum key_type type;
	const char *def;
	long long min, max; /* KT_INT: the range; KT_DURATION: in ms, when max > 0 */
	const char *const *choices;
	enum key_base base;
	size_t off;
	const char *help;
};

/* the keys of every section but a setting's knobs and a workload's phases; ends at SEC_NONE */
extern const struct cfg_key cb_cfg_keys[];
extern const char *const cb_cfg_target_names[];

#endif
