// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_replay.c - a plain driver for fuzz_trace.c where libFuzzer is not used: replays
 * every file given (a corpus; directories are walked one level), then @N deterministic
 * mutations of the template's pages (byte flips, commit words, event headers), each
 * through LLVMFuzzerTestOneInput. Built with AddressSanitizer and UBSan as a test.
 *
 *   fuzz_replay [--mutations N] [--trace FILE.dat]... [FILE|DIR]...
 *
 * --trace feeds a trace.dat as a whole file (mode byte 0) and its bytes from the first
 * CPU's data on as the page payload (mode byte 1), so the fixtures serve as the corpus.
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

/* a trace.dat in both modes */
static int replay_trace(const char *path)
{
	const char *fly;
	uint64_t off = 0;
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
	fly = memmem(d, len, "flyrecord", 10);
	if (fly && (size_t)(fly - d) + 18 <= len)
		memcpy(&off, fly + 10, 8);
	if (off && off < len) {
		in[0] = 1;
		memcpy(in + 1, d + off, len - off);
		LLVMFuzzerTestOneInput(in, len - off + 1);
	}
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

/* page-mode inputs: 16 KiB of pages, each with a plausible header, then mutated */
static void mutations(unsigned int n)
{
	static uint8_t buf[1 + 16384];
	unsigned int seed = 12345, i, k;

	for (i = 0; i < n; i++) {
		memset(buf, 0, sizeof(buf));
		buf[0] = 1;
		for (k = 0; k < 4; k++) {
			uint8_t *pg = buf + 1 + k * 4096;
			uint64_t commit = rand_r(&seed) % 4200;
			uint32_t j;

			memcpy(pg + 8, &commit, 8);
			for (j = 16; j < 16 + (commit < 4080 ? commit : 4080); j += 4) {
				/* small data events mostly, sometimes anything */
				uint32_t r = (uint32_t)rand_r(&seed);
				uint32_t w = rand_r(&seed) % 8 ? 6u | r << 5 : r;

				memcpy(pg + j, &w, 4);
			}
		}
		for (k = 0; k < 16; k++)
			buf[1 + rand_r(&seed) % 16384] = (uint8_t)rand_r(&seed);
		LLVMFuzzerTestOneInput(buf, sizeof(buf));
		/* and the same bytes as a whole file (header mode) */
		buf[0] = 0;
		memcpy(buf + 1, "\027\010\104tracing6\0", 11);
		LLVMFuzzerTestOneInput(buf, sizeof(buf));
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
	printf("fuzz_replay: %d corpus paths and %u mutation pairs, no crash\n", files, muts);
	return 0;
}
