// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_trace.c - a libFuzzer target for the trace reader.
 *
 * The first input byte picks the mode:
 *   even: the rest is a whole trace.dat, checked by cb_tracecheck_file() only (our header
 *         walk and page checks; libtraceevent's format parser is not ours, and the analyzer
 *         isolates it in a forked child)
 *   odd:  the rest overwrites the CPU data of a good v6 template (CB_FUZZ_TEMPLATE, default
 *         the analysis-thp-compact.v6.dat fixture under FIXTURES); when the page check
 *         passes, the whole reader runs in this process (cb_stalls_read_trace: libtracecmd,
 *         kbuffer, the stall state machine). The invariant: a file the check accepts never
 *         crashes the reader.
 *
 * Build with clang -fsanitize=fuzzer,address,undefined (tests/analysis/meson.build does when
 * clang and its libFuzzer runtime exist), or link fuzz_replay.c for a plain driver that
 * replays a corpus and a deterministic batch of mutations.
 */
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

static char *tmpl;
static size_t tmpl_len, tmpl_data;

/* the file offset of the first CPU's data in a v6 file: after "flyrecord\0" */
static size_t first_cpu_offset(const char *d, size_t len)
{
	const char *fly = memmem(d, len, "flyrecord", 10);
	uint64_t off;

	if (!fly || (size_t)(fly - d) + 18 > len)
		return 0;
	memcpy(&off, fly + 10, 8);
	return off < len ? off : 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("CB_FUZZ_TEMPLATE"), *fx = getenv("FIXTURES");
	char buf[4096];

	if (!path && fx) {
		snprintf(buf, sizeof(buf), "%s/analysis-thp-compact.v6.dat", fx);
		path = buf;
	}
	if (path)
		tmpl = cb_read_file(path, &tmpl_len);
	if (tmpl)
		tmpl_data = first_cpu_offset(tmpl, tmpl_len);
	if (!tmpl || !tmpl_data) {
		fprintf(stderr, "fuzz_trace: no v6 template (CB_FUZZ_TEMPLATE or FIXTURES): the "
			"page mode only checks pages\n");
		free(tmpl);
		tmpl = NULL;
	}
	return 0;
}

/* the input as a file the reader can open by name */
static int as_file(const void *buf, size_t len, char *path, size_t plen)
{
	int fd = memfd_create("cbfuzz", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, buf, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	snprintf(path, plen, "/proc/self/fd/%d", fd);
	return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[1024];
	struct cb_stalls s;
	char *file;
	size_t len;
	int fd;

	if (!size)
		return 0;
	if (!(data[0] & 1) || !tmpl) {
		fd = as_file(data + 1, size - 1, path, sizeof(path));
		if (fd >= 0) {
			cb_tracecheck_file(path, NULL, err, sizeof(err));
			close(fd);
		}
		return 0;
	}
	len = tmpl_len;
	file = malloc(len);
	if (!file)
		return 0;
	memcpy(file, tmpl, len);
	memcpy(file + tmpl_data, data + 1, size - 1 < len - tmpl_data ? size - 1 : len - tmpl_data);
	fd = as_file(file, len, path, sizeof(path));
	free(file);
	if (fd < 0)
		return 0;
	if (!cb_tracecheck_file(path, NULL, err, sizeof(err))) {
		cb_stalls_init(&s, -1);
		if (!cb_stalls_read_trace(path, &s, err, sizeof(err)))
			cb_stalls_free(&s);
		else
			cb_stalls_free(&s);
	}
	close(fd);
	return 0;
}
