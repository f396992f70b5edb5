// SPDX-License-Identifier: GPL-2.0-only
/*
 * shed.c - drop the already-read pages of libtracecmd's file mappings (see shed.h).
 */
#include "shed.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SHED_STEP (4UL << 20)	/* drop once this much lies behind the margin */
#define SHED_MARGIN (1UL << 20)	/* never drop the last MiB read */

struct cpu_map {
	uintptr_t lo, hi;	/* the mapping the CPU's records were last seen in */
	uintptr_t done;		/* dropped up to here */
	bool file;		/* it maps the trace file */
};

struct cb_shed {
	dev_t dev;
	ino_t ino;
	long page;
	int nr_cpus;
	struct cpu_map cpu[];
};

struct cb_shed *cb_shed_new(const char *path, int nr_cpus)
{
	struct cb_shed *s;
	struct stat st;

	if (nr_cpus <= 0 || nr_cpus > 65536 || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	s = calloc(1, sizeof(*s) + nr_cpus * sizeof(s->cpu[0]));
	if (!s)
		return NULL;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->page = sysconf(_SC_PAGESIZE);
	s->nr_cpus = nr_cpus;
	return s;
}

/* the mapping of /proc/self/maps that holds @a: its bounds and whether it is our file */
static void find_map(struct cb_shed *s, uintptr_t a, struct cpu_map *m)
{
	unsigned long lo, hi, ino;
	unsigned int maj, min;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "re");

	m->lo = m->hi = m->done = 0;
	m->file = false;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %*x %x:%x %lu", &lo, &hi, &maj, &min, &ino) != 5)
			continue;
		if (a < lo || a >= hi)
			continue;
		m->lo = lo;
		m->hi = hi;
		m->done = lo;
		m->file = ino == s->ino && makedev(maj, min) == s->dev;
		break;
	}
	fclose(f);
}

void cb_shed_note(struct cb_shed *s, int cpu, const void *addr)
{
	uintptr_t a = (uintptr_t)addr, end;
	struct cpu_map *m;

	if (!s || cpu < 0 || cpu >= s->nr_cpus)
		return;
	m = &s->cpu[cpu];
	if (a < m->lo || a >= m->hi)
		find_map(s, a, m);
	if (!m->file || a < m->done + SHED_STEP + SHED_MARGIN)
		return;
	end = (a - SHED_MARGIN) & ~((uintptr_t)s->page - 1);
	if (end > m->done && !madvise((void *)m->done, end - m->done, MADV_DONTNEED))
		m->done = end;
}

void cb_shed_free(struct cb_shed *s)
{
	free(s);
}
