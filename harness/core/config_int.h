/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_int.h - what config.c (the parser), config_keys.c (the harness's key table),
 * config_store.c (one value), config_doc.c (`config doc`) and config_argv.c (a phase's
 * command line) share. Not for other modules: they use config.h and config_key.h.
 */
#ifndef CB_CONFIG_INT_H
#define CB_CONFIG_INT_H

#include "config.h"
#include "config_key.h"
#include "xalloc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

extern const char *const cb_cfg_sec_names[];
extern const bool cb_cfg_sec_named[];

/*
 * the keys of every section but a setting's knobs and policies, a workload's phases and the
 * keys only one target reads; ends at a NULL name (SEC_NONE)
 */
extern const struct cfg_key cb_cfg_keys[];

/* the most target classes a config's messages and docs list */
#define CB_CFG_MAX_TARGETS 16

/*
 * cb_cfg_store - check @value against @k and store it into @base (the config, a section's
 * struct, or a plugin's private config, as @k->base says); with @line > 0, also into @k's
 * line field. Returns 0, or -1 with "key 'K': what is wrong" (enums: "[SECTION] key ...",
 * @section as written) in @why: the caller prefixes FILE:LINE.
 */
int cb_cfg_store(const struct cfg_key *k, void *base, const char *value, int line,
		 const char *section, char *why, size_t len);

/*
 * cb_cfg_append - add the items of @value, a list key's indented continuation line (libinih
 * hands it over under the key's name), to the list @k already holds in @base. -1 with
 * "key 'K': ..." in @why for a key that is not a list, or a line without items.
 */
int cb_cfg_append(const struct cfg_key *k, void *base, const char *value, char *why,
		  size_t len);

/* cb_cfg_set_defaults - store the default of every row of @keys in @sec into @base */
int cb_cfg_set_defaults(const struct cfg_key *keys, enum cfg_sec sec, void *base, char *why,
			size_t len);

/* cb_cfg_priv_new - a plugin's private config from @alloc with @keys' defaults (NULL: none) */
void *cb_cfg_priv_new(void *(*alloc)(void), const struct cfg_key *keys, enum cfg_sec sec);

/* cb_cfg_target_choices - the registered target names, NULL-terminated, into @names[@max] */
void cb_cfg_target_choices(const char **names, size_t max);

/* cb_cfg_max - @k's largest value: its max, or for a duration or size without one the cap */
long long cb_cfg_max(const struct cfg_key *k);

/* cb_cfg_ms_text - @ms as the config writes a duration ("500ms", "30s", "2m", "1h") into @buf */
const char *cb_cfg_ms_text(long long ms, char *buf, size_t len);

/* cb_cfg_bytes_text - @bytes as the config writes a size ("4096", "64k", "512M", "4G") */
const char *cb_cfg_bytes_text(long long bytes, char *buf, size_t len);

/* cb_cfg_choices_text - an enum's values as "a, b, c" into @buf (cut to @len) */
const char *cb_cfg_choices_text(const char *const *choices, char *buf, size_t len);

#endif
