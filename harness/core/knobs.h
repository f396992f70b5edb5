/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knobs.h - the table of kernel knobs a [setting] may change: sysctls and THP/mTHP sysfs files.
 *
 * One row per knob (name, file, type, range, help) drives the config check, the writes
 * through the restore journal, the read-back into meta.json and configs/README.md.
 * Paths are resolved under a root prefix so tests run against a fake sysfs/procfs tree.
 */
#ifndef CB_KNOBS_H
#define CB_KNOBS_H

#include <stddef.h>

enum cb_knob_type {
	CB_KNOB_INT,  /* a decimal number in [min, max] */
	CB_KNOB_ENUM, /* one of choices; the file shows them with the current one in [brackets] */
};

struct cb_knob {
	const char *name;   /* config key; "mthp.SIZE.enabled" has a size in place of SIZE */
	const char *path;   /* printf format; %s is the mTHP size for the SIZE pattern */
	enum cb_knob_type type;
	long long min, max;
	const char *const *choices;
	const char *help;
};

/* every knob, terminated by a row whose name is NULL */
extern const struct cb_knob cb_knobs[];

/*
 * cb_knob_find - look up a config key
 * @key: e.g. "vm.compaction_proactiveness" or "mthp.64kB.enabled"
 * @arg/@arglen: receives the SIZE part for a pattern knob ("64kB"), or "" for others
 * Returns the knob, or NULL (errno ENOENT) for an unknown key or a malformed SIZE.
 */
const struct cb_knob *cb_knob_find(const char *key, char *arg, size_t arglen);

/*
 * cb_knob_check - check @value for @knob; returns 0, or -1 with the reason in @err
 */
int cb_knob_check(const struct cb_knob *knob, const char *value, char *err, size_t errlen);

/*
 * cb_knob_path - the file of @knob (with @arg for a pattern) under @root ("" for the machine)
 * Returns 0, or -1 with errno ENAMETOOLONG.
 */
int cb_knob_path(const struct cb_knob *knob, const char *arg, const char *root, char *buf,
		 size_t size);

#endif
