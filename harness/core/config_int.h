/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_int.h - what config.c (the parser), config_keys.c (the one key table),
 * config_doc.c (`config doc`) and config_argv.c (a phase's command line) share. Not for other modules: they use config.h.
 */
#ifndef CB_CONFIG_INT_H
#define CB_CONFIG_INT_H

#include "config.h"
#include "xalloc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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
	/*
	 * KT_INT: the range; KT_DURATION: in ms (max 0: up to CB_DURATION_MAX_S); KT_SIZE: of a
	 * size in bytes (max 0: up to CB_SIZE_MAX), a fraction being any of (0, 1]
	 */
	long long min, max;
	const char *const *choices;
	enum key_base base;
	size_t off;
	const char *help;
	const char *target; /* a [kernel] key only that target reads ("qemu", "ssh"), or NULL */
};

/* the keys of every section but a setting's knobs and a workload's phases; ends at SEC_NONE */
extern const struct cfg_key cb_cfg_keys[];
extern const char *const cb_cfg_target_names[];

/* cb_cfg_max - @k's largest value: its max, or for a duration or size without one the cap */
long long cb_cfg_max(const struct cfg_key *k);

/* cb_cfg_ms_text - @ms as the config writes a duration ("500ms", "30s", "2m", "1h") into @buf */
const char *cb_cfg_ms_text(long long ms, char *buf, size_t len);

/* cb_cfg_bytes_text - @bytes as the config writes a size ("4096", "64k", "512M", "4G") */
const char *cb_cfg_bytes_text(long long bytes, char *buf, size_t len);

/* cb_cfg_choices_text - an enum's values as "a, b, c" into @buf (cut to @len) */
const char *cb_cfg_choices_text(const char *const *choices, char *buf, size_t len);

#endif
