/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vmstat.h - /proc/vmstat snapshots (vmstat.before, vmstat.after) and their deltas.
 */
#ifndef CB_VMSTAT_H
#define CB_VMSTAT_H

#include <stddef.h>

struct cb_vmstat_item {
	char *key;
	long long val;
};

struct cb_vmstat {
	struct cb_vmstat_item *items;
	size_t n;
};

/*
 * cb_vmstat_parse - parse the text of /proc/vmstat ("key value" per line)
 * Returns 0, or -1 with errno EINVAL and the 1-based number of the first bad line in
 * @bad_line (if not NULL); ENOMEM on allocation failure. Free with cb_vmstat_free.
 */
int cb_vmstat_parse(const char *text, struct cb_vmstat *out, int *bad_line);

/*
 * cb_vmstat_read - read and parse @path; returns 0, or -1 with a message naming the file
 * (and the line) in @err
 */
int cb_vmstat_read(const char *path, struct cb_vmstat *out, char *err, size_t errlen);

/* cb_vmstat_free - free what parse/read allocated */
void cb_vmstat_free(struct cb_vmstat *v);

/* cb_vmstat_get - the value of @key; returns 0, or -1 with errno ENOENT */
int cb_vmstat_get(const struct cb_vmstat *v, const char *key, long long *val);

/*
 * cb_vmstat_delta - after - before for @key; when @key ends in '_' it is a prefix and the
 * deltas of every key starting with it are summed (e.g. "allocstall_").
 * Returns 0, or -1 with errno ENOENT (no such key in both) or ERANGE (a counter went down:
 * the snapshots are not of one boot, or in the wrong order).
 */
int cb_vmstat_delta(const struct cb_vmstat *before, const struct cb_vmstat *after,
		    const char *key, long long *delta);

#endif
