/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_verify.h - what can be checked of a parsed config before any cell runs: recipes
 * and knobs (config_verify.c). `config check` and `run` both call it, so check accepts
 * nothing run then rejects.
 */
#ifndef CB_CONFIG_VERIFY_H
#define CB_CONFIG_VERIFY_H

#include <stddef.h>
#include <stdio.h>

#include "config.h"

/*
 * cb_config_recipe_path - the path of @k's recipe: absolute as written, or relative to the
 * directory of @cfg's file. Returns 0, or -1 (errno ENOENT: no recipe; ENAMETOOLONG).
 */
int cb_config_recipe_path(const struct cb_config *cfg, const struct cb_kernel *k, char *buf,
			  size_t size);

/*
 * cb_config_verify - check @cfg beyond its syntax, each kernel by its target class's check
 * hook (target_class.h): every qemu kernel has a recipe that loads; every knob a setting
 * sets on a host kernel that is the booted one exists under @root ("" for this machine). Writes each problem to @out as "FILE:LINE: [section] key
 * 'K' (= VALUE): what is wrong", and to @notes (may be NULL) what cannot be checked
 * before the kernel runs. Returns the number of problems (0: nothing found).
 */
int cb_config_verify(const struct cb_config *cfg, const char *root, FILE *out, FILE *notes);

/* cb_config_where - "compactbench: FILE:LINE: " of @cfg to @out ("FILE: " for line 0) */
void cb_config_where(FILE *out, const struct cb_config *cfg, int line);

/*
 * cb_config_verify_knobs - every knob a setting running on @k sets exists under @root (@k
 * being the booted kernel): each missing one to @out. Returns the number missing.
 */
int cb_config_verify_knobs(const struct cb_config *cfg, const struct cb_kernel *k,
			   const char *root, FILE *out);

/*
 * cb_kernel_booted - whether cells of @k can run on this machine now: a qemu kernel always
 * (the harness boots it), a host kernel with no `release`, or one whose `release` is the
 * booted kernel's `uname -r` (or, if it holds a space, `uname -rv`: the release and the
 * build "#N ... date" of /proc/version, to tell apart two builds of one release). The booted
 * kernel's text, in the same form, goes to @booted.
 */
bool cb_kernel_booted(const struct cb_kernel *k, char *booted, size_t size);

#endif
