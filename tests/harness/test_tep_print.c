// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tep_print.c - flag and symbol tables of print formats (harness/lib/tep_print.h), on
 * formats a 6.18 kernel wrote (tests/fixtures/analysis-tracing-6.18). The values are the
 * kernel's own: ___GFP_DIRECT_RECLAIM_BIT is 10 and ___GFP_COMP_BIT 18 in 6.18's
 * include/linux/gfp_types.h, and mm_compaction_end prints COMPACT_SUCCESS (8 in
 * include/linux/compaction.h's enum compact_result) as "success".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tep_print.h"
#include "util.h"

struct fmt {
	struct tep_handle *tep;
	struct tep_event *ev;
};

static void load(struct fmt *f, const char *sys, const char *name)
{
	char path[4096], *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/tests/fixtures/analysis-tracing-6.18/events/%s/%s/format",
		 getenv("SOURCE_ROOT"), sys, name);
	text = cb_read_file(path, &len);
	assert_non_null(text);
	f->tep = tep_alloc();
	assert_non_null(f->tep);
	assert_int_equal(tep_parse_format(f->tep, &f->ev, text, len, sys), 0);
	assert_non_null(f->ev);
	free(text);
}

static void test_filter_flags(void **state)
{
	struct fmt f;
	char out[256], err[256];

	load(&f, "kmem", "mm_page_alloc");
	assert_int_equal(cb_tep_filter_flags(f.ev, "order > 0 && (order >= 9 || gfp_flags & "
					     "__GFP_DIRECT_RECLAIM)", out, sizeof(out), err,
					     sizeof(err)), 0);
	assert_string_equal(out, "order > 0 && (order >= 9 || gfp_flags & 0x400)");
	assert_int_equal(cb_tep_filter_flags(f.ev, "gfp_flags & __GFP_COMP", out, sizeof(out),
					     err, sizeof(err)), 0);
	assert_string_equal(out, "gfp_flags & 0x40000");
	/* a filter without flag names is passed as it is */
	assert_int_equal(cb_tep_filter_flags(f.ev, "order > 0", out, sizeof(out), err,
					     sizeof(err)), 0);
	assert_string_equal(out, "order > 0");
	/* a name the format does not have is refused by name */
	assert_int_equal(cb_tep_filter_flags(f.ev, "gfp_flags & __GFP_NOSUCH", out, sizeof(out),
					     err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, "flag __GFP_NOSUCH is not in the print format of "
			    "kmem:mm_page_alloc");
	/* no room for the number: refused, not cut */
	assert_int_equal(cb_tep_filter_flags(f.ev, "gfp_flags & __GFP_COMP", out, 14, err,
					     sizeof(err)), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	tep_free(f.tep);
}

/*
 * 6.1 prints gfp flags as C literals with their suffix: "(( gfp_t)0x400u)", from
 * ___GFP_DIRECT_RECLAIM 0x400u in 6.1's include/linux/gfp.h (the shape of its
 * mm_page_alloc format, cut to two flags)
 */
static const char format_61[] =
	"name: mm_page_alloc\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long pfn;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int order;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long gfp_flags;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"order=%d gfp_flags=%s\", REC->order, (REC->gfp_flags) ? "
	"__print_flags(REC->gfp_flags, \"|\", {(unsigned long)(( gfp_t)0x400u), "
	"\"__GFP_DIRECT_RECLAIM\"}, {(unsigned long)(( gfp_t)0x40000u), \"__GFP_COMP\"}) : "
	"\"none\"\n";

static void test_filter_flags_61(void **state)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev = NULL;
	char out[256], err[256];

	assert_int_equal(tep_parse_format(tep, &ev, format_61, strlen(format_61), "kmem"), 0);
	assert_int_equal(cb_tep_filter_flags(ev, "order > 0 && (order >= 9 || gfp_flags & "
					     "__GFP_DIRECT_RECLAIM)", out, sizeof(out), err,
					     sizeof(err)), 0);
	assert_string_equal(out, "order > 0 && (order >= 9 || gfp_flags & 0x400)");
	assert_int_equal(cb_tep_filter_flags(ev, "gfp_flags & __GFP_COMP", out, sizeof(out), err,
					     sizeof(err)), 0);
	assert_string_equal(out, "gfp_flags & 0x40000");
	tep_free(tep);
}

static void test_tables(void **state)
{
	struct fmt f;
	unsigned long long v;

	load(&f, "compaction", "mm_compaction_end");
	assert_int_equal(cb_tep_print_value(cb_tep_print_table(f.ev, TEP_PRINT_SYMBOL, "status"),
					    "success", &v), 0);
	assert_int_equal(v, 8);
	assert_null(cb_tep_print_table(f.ev, TEP_PRINT_FLAGS, "status"));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(cb_tep_print_value(NULL, "success", &v), -1);
	tep_free(f.tep);
	load(&f, "kmem", "mm_page_alloc");
	assert_int_equal(cb_tep_print_value(cb_tep_print_table(f.ev, TEP_PRINT_FLAGS, "gfp_flags"),
					    "__GFP_DIRECT_RECLAIM", &v), 0);
	assert_int_equal(v, 1ULL << 10);
	tep_free(f.tep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_flags),
		cmocka_unit_test(test_filter_flags_61),
		cmocka_unit_test(test_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
