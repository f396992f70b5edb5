/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util.h - small helpers shared by the harness, the analyzer and the workloads.
 *
 * Conventions (as in libtracefs): functions return -1 and set errno on failure, 0 or a
 * count on success. Nothing here prints, exits or runs a shell. The error idiom and the
 * out-of-memory policy of the whole project are written down in xalloc.h.
 */
#ifndef CB_UTIL_H
#define CB_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <sys/types.h>

#define CB_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * cb_read_file - read a whole file into a NUL-terminated malloc'ed buffer
 * @path: file to read
 * @len: if not NULL, receives the length (without the NUL)
 *
 * Works on procfs/sysfs files whose size is reported as 0. Returns NULL and sets
 * errno on failure.
 */
char *cb_read_file(const char *path, size_t *len);

/*
 * cb_write_file_atomic - write @len bytes to @path through a temporary file and rename
 *
 * The temporary is "@path.tmp"; it is fsync'ed before the rename, so a reader never
 * sees a partial file under @path. Returns 0, or -1 with errno set.
 */
int cb_write_file_atomic(const char *path, const void *data, size_t len);

/*
 * cb_write_all / cb_read_all - write or read exactly @len bytes, retrying short transfers
 * and EINTR. Returns 0, or -1 (errno set; a read that meets EOF first fails with errno 0).
 */
int cb_write_all(int fd, const void *data, size_t len);
int cb_read_all(int fd, void *buf, size_t len);

/*
 * cb_write_string - write a string to an existing file (a sysctl or sysfs knob)
 *
 * One write(2) with no trailing newline added; returns 0, or -1 with errno set.
 */
int cb_write_string(const char *path, const char *value);

/*
 * cb_read_trimmed - read a small file and strip trailing white space
 * @buf/@size: destination; the value is truncated to fit
 */
int cb_read_trimmed(const char *path, char *buf, size_t size);

/*
 * cb_read_choice - the selected word of a choice file ("always [madvise] never" gives
 * "madvise", as THP's sysfs files show it), or the whole trimmed text if nothing is
 * bracketed (a sysctl). Returns 0, or -1 with errno set.
 */
int cb_read_choice(const char *path, char *buf, size_t size);

/*
 * cb_mkdir_p - create a directory and its parents (mode 0755); existing is fine
 */
int cb_mkdir_p(const char *path);

/*
 * cb_rm_rf - remove a file or a directory tree (no shell); a missing path is fine
 */
int cb_rm_rf(const char *path);

/*
 * cb_proc_kb - the value of a "Key:  N kB" line of the /proc file @path (meminfo, status,
 * smaps_rollup), or -1 with errno (ENOENT: no such key)
 */
long long cb_proc_kb(const char *path, const char *key);

/*
 * cb_meminfo_kb - the value of a /proc/meminfo key (e.g. "MemTotal") in kB
 * @root: prefix for /proc (NULL or "" for the real one; tests pass a fake root)
 *
 * Returns the value, or -1 with errno set (ENOENT if the key is missing).
 */
long long cb_meminfo_kb(const char *root, const char *key);

/*
 * cb_parse_size - parse a size: a fraction of @total ("0.5", "0.25") or bytes with an
 * optional binary suffix ("512M", "4G", "64k", "4096")
 * @total: what a fraction is a fraction of, in bytes
 *
 * A number with a decimal point, or below 1, is a fraction and must lie in (0, 1].
 * Returns 0 and stores bytes in @out, or -1 with errno EINVAL (not a size) or ERANGE (bytes
 * over CB_SIZE_MAX).
 */
#define CB_SIZE_MAX (1ULL << 50) /* 1 PiB: the largest size in bytes anything accepts */
#define CB_SIZE_MAX_TEXT "at most 1024T"

/* cb_size_is_fraction - whether the size @s (as cb_parse_size reads it) is a fraction */
bool cb_size_is_fraction(const char *s);
int cb_parse_size(const char *s, uint64_t total, uint64_t *out);

/*
 * cb_parse_duration - parse a duration: "30", "30s", "500ms", "2m", "1h" (seconds by default)
 * Returns 0 and stores seconds in @out, or -1 with errno EINVAL (not a duration) or ERANGE
 * (over CB_DURATION_MAX_S).
 */
#define CB_DURATION_MAX_S (7 * 86400.0) /* a week: the longest duration anything accepts */
#define CB_DURATION_MAX_TEXT "at most 168h"
int cb_parse_duration(const char *s, double *out);

/*
 * cb_parse_long - parse a whole decimal number in [min, max]; -1 with EINVAL or ERANGE
 */
int cb_parse_long(const char *s, long long min, long long max, long long *out);

/*
 * cb_next_line - take the next line of @text for a line-by-line parser
 * @p: where the rest of the text starts; moved past the line and its '\n'
 * @line/@size: receives the line without its '\n' (a longer one is truncated to fit)
 * @ln: the line number, counted up by one for each line taken
 *
 * Returns 1 if a line was taken, 0 at the end of the text (or if *@p is NULL).
 */
int cb_next_line(const char **p, char *line, size_t size, int *ln);

/* cb_line_skip - whether @line is a comment ('#' first) or white space only */
bool cb_line_skip(const char *line);

/*
 * cb_bad_line - the failure of a line parser: stores @ln in *@bad_line (if not NULL), sets
 * errno to EINVAL and returns -1
 */
int cb_bad_line(int *bad_line, int ln);

/* cb_now_ns - CLOCK_MONOTONIC in nanoseconds */
uint64_t cb_now_ns(void);

/* cb_path - snprintf into a PATH_MAX buffer; returns -1 with ENAMETOOLONG if it did not fit */
int cb_path(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
