// SPDX-License-Identifier: GPL-2.0-only
/*
 * vmstat.c - parse /proc/vmstat snapshots and take deltas.
 */
#include "vmstat.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cb_vmstat_free(struct cb_vmstat *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->items[i].key);
	free(v->items);
	v->items = NULL;
	v->n = 0;
}

/* one "key value" line of [s, e); returns 0, 1 for a blank line, -1 if malformed */
static int parse_line(const char *s, const char *e, char **key, long long *val)
{
	const char *k, *ke;
	char num[32], *end;
	size_t len;

	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	if (s == e)
		return 1;
	for (k = s; s < e && (isalnum((unsigned char)*s) || *s == '_'); s++)
		;
	ke = s;
	if (ke == k || s == e || (*s != ' ' && *s != '\t'))
		return -1;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	len = e - s;
	if (!len || len >= sizeof(num))
		return -1;
	memcpy(num, s, len);
	num[len] = '\0';
	errno = 0;
	*val = strtoll(num, &end, 10);
	if (errno || *end)
		return -1;
	*key = strndup(k, ke - k);
	return *key ? 0 : -2;
}

int cb_vmstat_parse(const char *text, struct cb_vmstat *out, int *bad_line)
{
	size_t cap = 0;
	int line = 0;

	out->items = NULL;
	out->n = 0;
	while (*text) {
		const char *e = strchr(text, '\n');
		struct cb_vmstat_item it;
		int r;

		if (!e)
			e = text + strlen(text);
		line++;
		r = parse_line(text, e, &it.key, &it.val);
		if (r < 0) {
			cb_vmstat_free(out);
			if (bad_line)
				*bad_line = line;
			errno = r == -2 ? ENOMEM : EINVAL;
			return -1;
		}
		if (r == 0) {
			if (out->n == cap) {
				size_t ncap = cap ? cap * 2 : 256;
				struct cb_vmstat_item *ni = realloc(out->items, ncap * sizeof(*ni));

				if (!ni) {
					free(it.key);
					cb_vmstat_free(out);
					errno = ENOMEM;
					return -1;
				}
				out->items = ni;
				cap = ncap;
			}
			out->items[out->n++] = it;
		}
		text = *e ? e + 1 : e;
	}
	return 0;
}

int cb_vmstat_read(const char *path, struct cb_vmstat *out, char *err, size_t errlen)
{
	char *text = cb_read_file(path, NULL);
	int line = 0;

	out->items = NULL;
	out->n = 0;
	if (!text) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (cb_vmstat_parse(text, out, &line)) {
		if (errno == EINVAL)
			snprintf(err, errlen, "%s:%d: not a /proc/vmstat line (\"key value\")", path,
				 line);
		else
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(text);
		return -1;
	}
	free(text);
	if (!out->n) {
		snprintf(err, errlen, "%s: empty: no counters", path);
		return -1;
	}
	return 0;
}

int cb_vmstat_get(const struct cb_vmstat *v, const char *key, long long *val)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		if (!strcmp(v->items[i].key, key)) {
			*val = v->items[i].val;
			return 0;
		}
	}
	errno = ENOENT;
	return -1;
}

int cb_vmstat_delta(const struct cb_vmstat *before, const struct cb_vmstat *after,
		    const char *key, long long *delta)
{
	size_t klen = strlen(key), i;
	bool prefix = klen && key[klen - 1] == '_', found = false;
	long long sum = 0, b, a;

	for (i = 0; i < after->n; i++) {
		const char *k = after->items[i].key;

		if (prefix ? strncmp(k, key, klen) : strcmp(k, key))
			continue;
		if (cb_vmstat_get(before, k, &b))
			continue;
		a = after->items[i].val;
		if (a < b) {
			errno = ERANGE;
			return -1;
		}
		sum += a - b;
		found = true;
	}
	if (!found) {
		errno = ENOENT;
		return -1;
	}
	*delta = sum;
	return 0;
}
