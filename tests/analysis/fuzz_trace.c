// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_trace.c - a libFuzzer target for the whole trace reader: the path `compactbench
 * analyze FILE.dat` runs in its reader child (cb_stalls_read_trace: the pre-check of
 * tracecheck.c, then libtracecmd, kbuffer, libtraceevent and the stall state machine), run in
 * this process so that the sanitizers see every byte it touches. The watchdog and the
 * address-space limit of the child are tested on their own (test_tracecheck.c).
 *
 * The first input byte picks the mode:
 *   bit 7 clear: the rest is a whole trace.dat;
 *   bit 7 set:   structure-aware: the next byte picks one of the templates (the good files
 *                named by CB_FUZZ_TEMPLATES, colon-separated, else the *.dat seeds
 *                under FIXTURES/fuzz-seeds), and the rest is a list of 13-byte edits
 *                { offset(4) op(1) value(8) } that each write a 1, 2, 4 or 8-byte number
 *                (op & 3), in either byte order (op & 4), or add it (op & 8), at the offset
 *                (modulo the size): the sizes, counts, offsets, ids and commits of the
 *                format, which a byte-level mutator rarely hits together.
 *
 * The invariant: whatever the bytes, the reader returns (0, or -1 with a message naming the
 * file) without a sanitizer report; a file it accepts has the number of events its page
 * check counted. Built by tests/analysis/meson.build with clang
 * -fsanitize=fuzzer,address,undefined; fuzz_replay.c drives it without libFuzzer.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "stalls.h"
#include "tracecheck.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define MAX_TEMPLATES 8
#define EDIT 13

static struct {
	char *d;
	size_t len;
} tmpl[MAX_TEMPLATES];
static int ntmpl;

static void add_template(const char *path)
{
	if (ntmpl < MAX_TEMPLATES && (tmpl[ntmpl].d = cb_read_file(path, &tmpl[ntmpl].len)))
		ntmpl++;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *list = getenv("CB_FUZZ_TEMPLATES"), *fx = getenv("FIXTURES");
	char buf[4096], *p, *save = NULL;
	struct dirent **ents;
	int n, i;

	(void)argc;
	(void)argv;
	if (list) {
		snprintf(buf, sizeof(buf), "%s", list);
		for (p = strtok_r(buf, ":", &save); p; p = strtok_r(NULL, ":", &save))
			add_template(p);
	} else if (fx) {
		snprintf(buf, sizeof(buf), "%s/fuzz-seeds", fx);
		n = scandir(buf, &ents, NULL, alphasort);
		for (i = 0; i < n; i++) {
			char path[4096 + 256];

			size_t nl = strlen(ents[i]->d_name);

			if (ents[i]->d_name[0] != '.' && nl > 4 &&
			    !strcmp(ents[i]->d_name + nl - 4, ".dat")) {
				snprintf(path, sizeof(path), "%s/%s", buf, ents[i]->d_name);
				add_template(path);
			}
			free(ents[i]);
		}
		if (n >= 0)
			free(ents);
	}
	if (!ntmpl)
		fprintf(stderr, "fuzz_trace: no templates (CB_FUZZ_TEMPLATES or FIXTURES): the "
			"structure-aware mode is off\n");
	return 0;
}

/* the input as a file the reader can open by name */
static int as_file(const void *buf, size_t len, char *path, size_t plen)
{
	int fd = memfd_create("cbfuzz", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (len && write(fd, buf, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	snprintf(path, plen, "/proc/self/fd/%d", fd);
	return fd;
}

/* apply the edits of @e (@n bytes) to @f (@len bytes) */
static void edit(unsigned char *f, size_t len, const uint8_t *e, size_t n)
{
	for (; n >= EDIT && len >= 8; e += EDIT, n -= EDIT) {
		uint32_t off;
		uint64_t v, old = 0;
		unsigned int w = 1u << (e[4] & 3);

		memcpy(&off, e, 4);
		memcpy(&v, e + 5, 8);
		off %= len - w + 1;
		memcpy(&old, f + off, w);
		if (e[4] & 8)
			v += old;
		if (e[4] & 4)	/* big-endian: the most significant of the w bytes first */
			v = __builtin_bswap64(v) >> (64 - 8 * w);
		memcpy(f + off, &v, w);
	}
}

/* read @path the way the analyzer's reader child does; check the invariant */
static void read_one(const char *path)
{
	struct cb_tracecheck info;
	char err[1024];
	struct cb_stalls s;
	int ret;

	cb_stalls_init(&s, -1);
	ret = cb_stalls_read_trace(path, &s, err, sizeof(err));
	if (ret && !strstr(err, path)) {
		fprintf(stderr, "fuzz_trace: a refusal that does not name the file: %s\n", err);
		abort();
	}
	if (!ret && (cb_tracecheck_file(path, &info, err, sizeof(err)) ||
		     (info.events_exact && s.events != info.events))) {
		fprintf(stderr, "fuzz_trace: read %llu events, the page check counted %llu\n",
			(unsigned long long)s.events, (unsigned long long)info.events);
		abort();
	}
	cb_stalls_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *file = NULL;
	char path[64];
	size_t len;
	int fd;

	if (size < 1)
		return 0;
	if (!(data[0] & 0x80) || size < 2 || !ntmpl) {
		fd = as_file(data + 1, size - 1, path, sizeof(path));
	} else {
		len = tmpl[data[1] % ntmpl].len;
		file = malloc(len ? len : 1);
		if (!file)
			return 0;
		memcpy(file, tmpl[data[1] % ntmpl].d, len);
		edit(file, len, data + 2, size - 2);
		fd = as_file(file, len, path, sizeof(path));
		free(file);
	}
	if (fd < 0)
		return 0;
	read_one(path);
	close(fd);
	return 0;
}
