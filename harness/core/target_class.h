/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * target_class.h - targets described by themselves: each target in harness/target defines a
 * struct cb_target_class next to its ops (name, flags, the [kernel] keys only it reads and
 * the private config they fill, a verify callback) and harness/target/target.c registers the
 * built-in ones (cb_targets_register). The config code (this layer, which cannot see
 * harness/target) finds a class by name, parses its keys into the kernel's private config
 * (struct cb_kernel's priv) and asks it to verify a [kernel] on that target. Nothing outside
 * a target's own files knows its keys or its private struct.
 */
#ifndef CB_TARGET_CLASS_H
#define CB_TARGET_CLASS_H

#include <stddef.h>

#include "config.h"
#include "config_key.h"

enum {
	CB_TARGET_GUEST = 1 << 0, /* boots its own kernel (a recipe) rather than using one */
};

struct cb_target_ops; /* harness/target/target.h: the layer above */

struct cb_target_class {
	const char *name;
	unsigned int flags;
	/*
	 * keys - the [kernel] keys only this target reads (sec SEC_KERNEL, base KB_PRIV), ended
	 * by a NULL name; NULL: none. A kernel on another target that sets one is refused.
	 */
	const struct cfg_key *keys;
	/* priv_alloc - a zeroed private config (the parser then sets the defaults); NULL: none */
	void *(*priv_alloc)(void);
	/* priv_free - free a private config from priv_alloc (NULL is fine) */
	void (*priv_free)(void *priv);
	/*
	 * verify - check @k, a [kernel] on this target, once the whole file is read. Returns 0,
	 * or -1 with the message ("[kernel NAME] ...", no FILE:LINE) in @why. NULL: no check.
	 */
	int (*verify)(const struct cb_kernel *k, char *why, size_t len);
	/*
	 * check - what `config check` and `run` can check of @k (of @cfg) before any cell runs,
	 * beyond verify: the files it names, the knobs of the kernel under @root
	 * (harness/target/config_verify.h). Each problem goes to @out as "compactbench:
	 * FILE:LINE: ...", what cannot be checked yet to @notes (may be NULL). Returns the
	 * number of problems. NULL: nothing to check or note.
	 */
	int (*check)(const struct cb_config *cfg, const struct cb_kernel *k, const char *root,
		     FILE *out, FILE *notes);
	/* guest_cpus - the CPUs a guest of @k takes from this machine; NULL: none (not a guest) */
	long (*guest_cpus)(const struct cb_kernel *k);
	/*
	 * serial - why @k's cells must run one after another in one process (they share a
	 * state the target keeps between them), or NULL; run refuses --jobs for them.
	 * NULL: never.
	 */
	const char *(*serial)(const struct cb_kernel *k);
	/* machine - the other machine @k's cells run on, for run.json; NULL: this one */
	const char *(*machine)(const struct cb_kernel *k);
	const struct cb_target_ops *ops; /* what runs the cells (target.h) */
};

/*
 * cb_target_class_register - make @cls findable by its name. Registering the same class
 * twice is a no-op. Returns 0, or -1 with errno EEXIST (another class has the name) or
 * ENOSPC (the table is full).
 */
int cb_target_class_register(const struct cb_target_class *cls);

/* cb_target_class_find - the class named @name, or NULL (errno ENOENT) */
const struct cb_target_class *cb_target_class_find(const char *name);

/* cb_target_class_nth - the @i-th registered class (registration order), or NULL past the last */
const struct cb_target_class *cb_target_class_nth(size_t i);

/* cb_target_class_names - the registered names as "host, qemu, ssh" into @buf (cut to @len) */
const char *cb_target_class_names(char *buf, size_t len);

/*
 * cb_kernel_set_target - put @k on target @cls (run --target): its private config becomes a
 * new one of @cls with the defaults of @cls's keys (the old one is freed), unless @k is on
 * @cls already. Returns 0, or -1 with errno EINVAL (@cls NULL).
 */
int cb_kernel_set_target(struct cb_kernel *k, const struct cb_target_class *cls);

#endif
