// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracecheck_v7.c - a version 7 trace.dat (man 5 trace-cmd.dat.v7) walked the way
 * libtracecmd reads it: the compression header, the STRINGS sections it scans for from the
 * start, the chain of OPTIONS sections, the metadata sections the options point to
 * (decompressed when their flag says so), and the CPU data of every BUFFER option, whose
 * pages tracecheck.c then checks (after decompressing each chunk).
 */
#include "tracecheck_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEC_COMPRESSED 1
#define ID_OPTIONS 0
#define ID_STRINGS 15
#define MAX_OPTION_SECTIONS 32

struct sec {
	uint16_t id, flags;
	uint64_t at, size;	/* the header's offset; the size it gives */
};

/* the 16 bytes of a section header at @at, as libtracecmd's read_section_header() reads them */
static int sec_header_raw(struct tc_rd *r, uint64_t at, struct sec *s, const char *what)
{
	uint32_t desc;

	r->pos = at;
	s->at = at;
	return tc_get2(r, &s->id, what) || tc_get2(r, &s->flags, what) ||
	       tc_get4(r, &desc, what) || tc_get8(r, &s->size, what) ? -1 : 0;
}

static int sec_header(struct tc_rd *r, uint64_t at, struct sec *s, const char *what)
{
	if (sec_header_raw(r, at, s, what))
		return -1;
	if (s->size > r->size - r->pos)
		return tc_bad(r, at, "%s: section of %llu bytes runs past the end of the file",
			      what, (unsigned long long)s->size);
	return 0;
}

/*
 * the data of section @s (r->pos is right after its header) as a reader of its own: the
 * file bounded to the section, or the decompressed block (<4: compressed size> <4: size>
 * <data>) in @mem (free() it)
 */
static int sec_reader(struct tc_rd *r, const struct sec *s, struct tc_rd *out,
		      unsigned char **mem, const char *what)
{
	uint32_t zsize, usize;
	char *z;
	int ret;

	*out = *r;
	out->sect = what;
	out->size = r->pos + s->size;
	*mem = NULL;
	if (!(s->flags & SEC_COMPRESSED))
		return 0;
	if (r->zip == TC_ZIP_NONE)
		return tc_bad(r, s->at, "%s section is flagged compressed in an uncompressed file",
			      what);
	if (tc_get4(out, &zsize, "compressed size") || tc_get4(out, &usize, "size"))
		return -1;
	if (usize > TC_MAX_SECTION)
		return tc_bad(r, s->at, "%s section of %u bytes decompressed", what, usize);
	z = tc_get_blob(out, zsize, TC_MAX_SECTION, "compressed section");
	if (!z)
		return -1;
	*mem = malloc(usize + 1);
	ret = *mem ? tc_unzip(r->zip, z, zsize, *mem, usize) : -2;
	free(z);
	if (ret) {
		free(*mem);
		*mem = NULL;
		return tc_bad(r, s->at, "%s section %s", what, ret == -2 ? "out of memory" :
			      "does not decompress to its size");
	}
	out->mem = *mem;
	out->base = s->at;
	out->pos = 0;
	out->size = usize;
	return 0;
}

/*
 * libtracecmd reads every STRINGS section it finds going from section to section
 * (read_metadata_strings()), whatever size a section's header gives: a STRINGS header
 * whose size runs past the end still has its block read and, compressed or not, its size
 * malloc()ed (a fuzzer find: 2^32 - 1.6e9 bytes). Any other section past the end stops the
 * walk, as libtracecmd's next header read fails there.
 */
static int strings(struct tc_rd *r, uint64_t at)
{
	struct tc_rd sub;
	unsigned char *mem;
	struct sec s;
	int n;

	for (n = 0; at <= r->size && r->size - at >= 16 && n < TC_MAX_COUNT; n++) {
		if (sec_header_raw(r, at, &s, "section header"))
			return -1;
		if (s.size > r->size - r->pos) {
			if (s.id != ID_STRINGS)
				return 0;	/* past the sections: libtracecmd stops there too */
			return tc_bad(r, at, "STRINGS section of %llu bytes runs past the end of "
				      "the file", (unsigned long long)s.size);
		}
		if (s.id == ID_STRINGS) {
			if (sec_reader(r, &s, &sub, &mem, "STRINGS"))
				return -1;
			free(mem);
		}
		at = r->pos + s.size;
	}
	return 0;
}

/* one OPTIONS section: options up to DONE, each with its size */
static int options(struct tc_rd *r, struct tc_opts *o, uint64_t at)
{
	struct tc_rd sub;
	unsigned char *mem, *p;
	struct sec s;
	int n = 0, ret = 0;

	if (sec_header(r, at, &s, "OPTIONS section header"))
		return -1;
	if (s.id != ID_OPTIONS)
		return tc_bad(r, at, "section id %u where the OPTIONS section should be", s.id);
	if (sec_reader(r, &s, &sub, &mem, "OPTIONS"))
		return -1;
	for (o->done = 0; !ret && !o->done; n++) {
		uint64_t oat = sub.pos;
		uint16_t id;
		uint32_t sz;

		if (n > TC_MAX_COUNT || tc_get2(&sub, &id, "option id") ||
		    tc_get4(&sub, &sz, "option size")) {
			ret = tc_bad(&sub, oat, "options section without a DONE option");
			break;
		}
		p = (unsigned char *)tc_get_blob(&sub, sz, TC_MAX_TEXT, "option");
		ret = p ? tc_option(&sub, o, id, p, sz, oat) : -1;
		free(p);
	}
	free(mem);
	return ret;
}

static const char *const sect_names[] = {
	"HEADER_INFO", "FTRACE_EVENTS", "EVENT_FORMATS", "KALLSYMS", "PRINTK", "CMDLINES",
};

/* the metadata section @i (16 + i) at @at, its content checked */
static int metadata(struct tc_rd *r, int i, uint64_t at)
{
	int (*const fn[])(struct tc_rd *) = {
		tc_header_info, tc_ftrace_formats, tc_event_formats, tc_kallsyms, tc_printk,
		tc_cmdlines,
	};
	struct tc_rd sub;
	unsigned char *mem;
	struct sec s;
	int ret;

	if (sec_header(r, at, &s, sect_names[i]))
		return -1;
	if (s.id != 16 + i)
		return tc_bad(r, at, "section id %u where the %s option points", s.id,
			      sect_names[i]);
	if (sec_reader(r, &s, &sub, &mem, sect_names[i]))
		return -1;
	ret = fn[i](&sub);
	if (!ret && i == 0)
		r->csize = sub.csize;
	free(mem);
	return ret;
}

/* every CPU's data of every BUFFER option (compressed when its section's flag says so) */
static int buffers(struct tc_rd *r, const struct tc_opts *o)
{
	enum tc_zip zip = r->zip;
	int i, ret = 0;
	uint32_t c;

	for (i = 0; !ret && i < o->nbuf; i++) {
		const struct tc_buffer *b = &o->buf[i];
		struct sec s;

		if (sec_header(r, b->section, &s, "BUFFER section header"))
			return -1;
		if ((s.flags & SEC_COMPRESSED) && zip == TC_ZIP_NONE)
			return tc_bad(r, s.at, "BUFFER section is flagged compressed in an "
				      "uncompressed file");
		r->zip = s.flags & SEC_COMPRESSED ? zip : TC_ZIP_NONE;
		r->sect = "BUFFER";
		for (c = 0; !ret && c < b->cpus; c++)
			ret = tc_cpu_data(r, b->cpu[c], b->off[c], b->size[c]);
		if (b->top)
			r->info->nr_cpus = b->cpus;
		r->zip = zip;
		r->sect = NULL;
	}
	return ret;
}

int tc_check_v7(struct tc_rd *r)
{
	struct tc_opts o = { .cpucount = -1 };
	uint64_t opt_at, seen[MAX_OPTION_SECTIONS];
	char zname[64], zver[64];
	int i, n = 0, ret = -1;

	if (tc_get_str(r, zname, sizeof(zname), "compression name") ||
	    tc_get_str(r, zver, sizeof(zver), "compression version") ||
	    tc_get8(r, &opt_at, "offset of the first options section"))
		return -1;
	if (!strcmp(zname, "none"))
		r->zip = TC_ZIP_NONE;
	else if (!strcmp(zname, "zstd"))
		r->zip = TC_ZIP_ZSTD;
	else if (!strcmp(zname, "zlib"))
		r->zip = TC_ZIP_ZLIB;
	else
		return tc_bad(r, 12, "compression '%s' (none, zstd and zlib are read)", zname);
	if (strings(r, r->pos))
		return -1;
	do {
		for (i = 0; i < n; i++)
			if (seen[i] == opt_at)
				return tc_bad(r, opt_at, "the options sections form a loop");
		if (n == MAX_OPTION_SECTIONS)
			return tc_bad(r, opt_at, "more than %d options sections",
				      MAX_OPTION_SECTIONS);
		seen[n++] = opt_at;
		if (options(r, &o, opt_at))
			goto out;
		opt_at = o.next;
	} while (opt_at);
	if (!o.sect[0]) {
		tc_bad(r, 0, "no HEADER_INFO section (the ring buffer's page header)");
		goto out;
	}
	for (i = 0; i < 6; i++)
		if (o.sect[i] && metadata(r, i, o.sect[i]))
			goto out;
	if (buffers(r, &o))
		goto out;
	r->info->checked = 1;
	r->info->events_exact = o.nbuf == 1 && o.buf[0].top;
	ret = 0;
out:
	tc_opts_free(&o);
	return ret;
}
