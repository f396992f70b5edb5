// SPDX-License-Identifier: GPL-2.0-only
/*
 * util.c - small helpers shared by the harness, the analyzer and the workloads.
 */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *cb_read_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	int fd, saved;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);

			if (!nb)
				goto fail_fd;
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto fail_fd;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail_fd:
	saved = errno;
	close(fd);
	errno = saved;
fail:
	saved = errno;
	free(buf);
	errno = saved;
	return NULL;
}

int cb_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= w;
	}
	return 0;
}

int cb_read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t r = read(fd, p, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = 0;
			return -1;
		}
		p += r;
		len -= r;
	}
	return 0;
}

int cb_write_file_atomic(const char *path, const void *data, size_t len)
{
	char tmp[PATH_MAX];
	int fd, saved;

	if (cb_path(tmp, sizeof(tmp), "%s.tmp", path) < 0)
		return -1;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (cb_write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		saved = errno;
		close(fd);
		unlink(tmp);
		errno = saved;
		return -1;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		saved = errno;
		unlink(tmp);
		errno = saved;
		return -1;
	}
	return 0;
}

int cb_write_string(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC), saved;

	if (fd < 0)
		return -1;
	if (cb_write_all(fd, value, strlen(value)) < 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return close(fd);
}

int cb_read_trimmed(const char *path, char *buf, size_t size)
{
	size_t len;
	char *s = cb_read_file(path, &len);

	if (!s)
		return -1;
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	snprintf(buf, size, "%s", s);
	free(s);
	return 0;
}

int cb_read_choice(const char *path, char *buf, size_t size)
{
	char raw[512];
	char *open, *close;

	if (cb_read_trimmed(path, raw, sizeof(raw)) < 0)
		return -1;
	open = strchr(raw, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		snprintf(buf, size, "%s", open + 1);
	} else {
		snprintf(buf, size, "%s", raw);
	}
	return 0;
}

int cb_mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	char *p;

	if (cb_path(tmp, sizeof(tmp), "%s", path) < 0)
		return -1;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

int cb_rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

long long cb_proc_kb(const char *path, const char *key)
{
	char *buf, *line;
	size_t klen = strlen(key);
	long long val = -1;

	buf = cb_read_file(path, NULL);
	if (!buf)
		return -1;
	for (line = buf; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			val = strtoll(line + klen + 1, NULL, 10);
			break;
		}
	}
	free(buf);
	if (val < 0)
		errno = ENOENT;
	return val;
}

long long cb_meminfo_kb(const char *root, const char *key)
{
	char path[PATH_MAX];

	if (cb_path(path, sizeof(path), "%s/proc/meminfo", root ? root : "") < 0)
		return -1;
	return cb_proc_kb(path, key);
}

bool cb_size_is_fraction(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return !*end && (strchr(s, '.') || v < 1);
}

/*
 * the finite, non-negative number @s starts with (no sign, no leading space) into @v, and
 * where its unit begins into @end; -1 if @s does not start with one
 */
static int leading_number(const char *s, double *v, char **end)
{
	if (!s || !*s || isspace((unsigned char)*s) || *s == '-')
		return -1;
	errno = 0;
	*v = strtod(s, end);
	if (errno || *end == s || !isfinite(*v) || *v < 0)
		return -1;
	return 0;
}

int cb_parse_size(const char *s, uint64_t total, uint64_t *out)
{
	char *end;
	double v;
	uint64_t mult = 1;

	if (leading_number(s, &v, &end) < 0 || v <= 0)
		goto bad;
	if (!*end && (strchr(s, '.') || v < 1)) {
		if (v > 1)
			goto bad;
		*out = (uint64_t)(v * (double)total); /* at most @total: a defined cast */
		return 0;
	}
	if (strchr(s, '.') && *end == '\0')
		goto bad;
	switch (tolower((unsigned char)*end)) {
	case '\0':
		break;
	case 'k':
		mult = 1ULL << 10;
		break;
	case 'm':
		mult = 1ULL << 20;
		break;
	case 'g':
		mult = 1ULL << 30;
		break;
	case 't':
		mult = 1ULL << 40;
		break;
	default:
		goto bad;
	}
	if (*end) {
		end++;
		if (tolower((unsigned char)*end) == 'i')
			end++;
		if (tolower((unsigned char)*end) == 'b')
			end++;
		if (*end)
			goto bad;
	}
	/* a cast of a double past UINT64_MAX is undefined: refuse before it */
	if (!(v * (double)mult <= (double)CB_SIZE_MAX)) {
		errno = ERANGE;
		return -1;
	}
	*out = (uint64_t)(v * (double)mult);
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

int cb_parse_duration(const char *s, double *out)
{
	char *end;
	double v, r;

	if (leading_number(s, &v, &end) < 0)
		goto bad;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		r = v;
	else if (!strcmp(end, "ms"))
		r = v / 1000.0;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		r = v * 60.0;
	else if (!strcmp(end, "h"))
		r = v * 3600.0;
	else
		goto bad;
	/* later cast to time_t and to nanoseconds in a uint64_t: keep it far from both limits */
	if (!(r <= CB_DURATION_MAX_S)) {
		errno = ERANGE;
		return -1;
	}
	*out = r;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

int cb_parse_long(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	if (!s || !*s || isspace((unsigned char)*s)) {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end) {
		errno = errno ? errno : EINVAL;
		return -1;
	}
	if (v < min || v > max) {
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
}

int cb_next_line(const char **p, char *line, size_t size, int *ln)
{
	const char *s = *p, *e;
	size_t n;

	if (!s || !*s)
		return 0;
	e = strchr(s, '\n');
	n = e ? (size_t)(e - s) : strlen(s);
	snprintf(line, size, "%.*s", (int)n, s);
	*p = e ? e + 1 : s + n;
	(*ln)++;
	return 1;
}

bool cb_line_skip(const char *line)
{
	return line[0] == '#' || !line[strspn(line, " \t\r")];
}

int cb_bad_line(int *bad_line, int ln)
{
	if (bad_line)
		*bad_line = ln;
	errno = EINVAL;
	return -1;
}

uint64_t cb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int cb_path(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}
