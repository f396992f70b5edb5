// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_replay.c - a plain driver for fuzz_trace.c where libFuzzer is not used: replays
 * every file given (a corpus; directories are walked one level: the regression corpus
 * tests/fixtures/fuzz-regress, every input that once failed), then @N deterministic
 * structure-aware mutations of the seeds, each through LLVMFuzzerTestOneInput, which
 * aborts unless the reader refused the input with a message naming the file or read the
 * events its pages hold. Built with AddressSanitizer and UBSan as a test (no clang needed).
 *
 *   fuzz_replay [--mutations N] [--trace FILE.dat]... [FILE|DIR]...
 *
 * --trace feeds a trace.dat as a whole file (mode byte 0), so the fixtures serve as corpus.
 */
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static int replay(const char *path)
{
	size_t len;
	char *d = cb_read_file(path, &len);

	if (!d) {
		perror(path);
		return -1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)d, len);
	free(d);
	return 0;
}

/* a trace.dat as a whole file (mode byte 0) */
static int replay_trace(const char *path)
{
	size_t len;
	char *d = cb_read_file(path, &len);
	uint8_t *in;

	if (!d) {
		perror(path);
		return -1;
	}
	in = malloc(len + 1);
	if (!in) {
		free(d);
		return -1;
	}
	in[0] = 0;
	memcpy(in + 1, d, len);
	LLVMFuzzerTestOneInput(in, len + 1);
	free(in);
	free(d);
	return 0;
}

static int replay_dir(const char *dir)
{
	struct dirent *de;
	char path[PATH_MAX];
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return replay(dir) ? -1 : 1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!replay(path))
			n++;
	}
	closedir(d);
	return n;
}

/*
 * structure-aware inputs (fuzz_trace.c): a template (the seeds) and 1 to 4 edits, each a
 * 1-8 byte number, mostly a small or a boundary value, at a random offset
 */
static void mutations(unsigned int n)
{
	static const uint64_t vals[] = { 0, 1, 4, 8, 9, 0x7f, 0xff, 0xfff, 0x1000, 0xffff,
		0x7fffffff, 0xfffffffc, 0xffffffff, 0x8000000000000000ULL, ~0ULL };
	uint8_t buf[2 + 4 * 13];
	unsigned int seed = 12345, i, k, nedit;

	for (i = 0; i < n; i++) {
		buf[0] = 0x80;
		buf[1] = (uint8_t)rand_r(&seed);
		nedit = 1 + rand_r(&seed) % 4;
		for (k = 0; k < nedit; k++) {
			uint8_t *e = buf + 2 + k * 13;
			uint32_t off = (uint32_t)rand_r(&seed);
			uint64_t v = rand_r(&seed) % 2 ? vals[rand_r(&seed) % 15] :
				(uint64_t)rand_r(&seed);

			memcpy(e, &off, 4);
			e[4] = (uint8_t)rand_r(&seed);
			memcpy(e + 5, &v, 8);
		}
		LLVMFuzzerTestOneInput(buf, 2 + nedit * 13);
	}
}

int main(int argc, char **argv)
{
	unsigned int muts = 0;
	int i, files = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--mutations") && i + 1 < argc) {
			muts = (unsigned int)strtoul(argv[++i], NULL, 10);
			continue;
		}
		if (!strcmp(argv[i], "--trace") && i + 1 < argc) {
			if (replay_trace(argv[++i]))
				return 1;
			files++;
			continue;
		}
		if (replay_dir(argv[i]) < 0)
			return 1;
		files++;
	}
	mutations(muts);
	printf("fuzz_replay: %d corpus paths and %u structure-aware mutations: each refused "
	       "with a message naming the file, or read to the events its pages hold\n", files,
	       muts);
	return 0;
}
