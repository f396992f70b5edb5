// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_shard.c - the shard arithmetic of `run --shard I/N`: "I/N" parsing and which cells
 * shard I of N keeps (position in the full run order modulo N == I-1), against cell
 * positions worked out by hand; with a kernel whose cells share a saved guest, the cells of
 * one state stay in one shard.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "config.h"
#include "matrix.h"
#include "target_class.h"

/* @nr cells numbered 0..nr-1, as cb_matrix_expand numbers them */
static void numbered(struct cb_cell *cells, size_t nr)
{
	memset(cells, 0, nr * sizeof(*cells));
	for (size_t i = 0; i < nr; i++)
		cells[i].index = i;
}

static void expect_shard(size_t nr, long i, long n, const size_t *want, size_t nwant)
{
	struct cb_cell cells[64];
	size_t kept;

	numbered(cells, nr);
	kept = cb_matrix_shard(cells, nr, i, n);
	assert_int_equal(kept, nwant);
	for (size_t k = 0; k < kept; k++)
		assert_int_equal(cells[k].index, want[k]);
}

static void test_one_shard_is_everything(void **state)
{
	static const size_t all[] = { 0, 1, 2, 3, 4, 5, 6 };

	expect_shard(7, 1, 1, all, 7);
}

static void test_three_shards_of_ten(void **state)
{
	static const size_t s1[] = { 0, 3, 6, 9 }, s2[] = { 1, 4, 7 }, s3[] = { 2, 5, 8 };

	expect_shard(10, 1, 3, s1, 4);
	expect_shard(10, 2, 3, s2, 3);
	expect_shard(10, 3, 3, s3, 3);
}

/* more shards than cells: one cell each for the first ones, none for the rest */
static void test_more_shards_than_cells(void **state)
{
	static const size_t c0[] = { 0 }, c2[] = { 2 };

	expect_shard(3, 1, 5, c0, 1);
	expect_shard(3, 3, 5, c2, 1);
	expect_shard(3, 4, 5, NULL, 0);
	expect_shard(3, 5, 5, NULL, 0);
	expect_shard(0, 1, 2, NULL, 0);
}

/* for every N up to 12 over 29 cells: disjoint, covering, in order, sizes floor/ceil */
static void test_shards_partition(void **state)
{
	const size_t nr = 29;

	for (long n = 1; n <= 12; n++) {
		int seen[29] = { 0 };

		for (long i = 1; i <= n; i++) {
			struct cb_cell cells[29];
			size_t kept;

			numbered(cells, nr);
			kept = cb_matrix_shard(cells, nr, i, n);
			assert_true(kept == nr / (size_t)n || kept == nr / (size_t)n + 1);
			for (size_t k = 0; k < kept; k++) {
				assert_true(k == 0 || cells[k].index > cells[k - 1].index);
				seen[cells[k].index]++;
			}
		}
		for (size_t c = 0; c < nr; c++)
			assert_int_equal(seen[c], 1);
	}
}

static const char *keeps_state(const struct cb_kernel *k)
{
	return "a saved guest";
}

/*
 * kernel S keeps a state (guest_state = saved), kernel B boots: per repetition S's three
 * settings of workload w1 share one saved guest, those of w2 another, B's two cells are
 * their own. Run order, 16 cells: rep 1 S.w1 x3 (0-2), S.w2 x3 (3-5), B x2 (6, 7), rep 2
 * the same (8-15). Units: {0,1,2} {3,4,5} {6} {7} {8,9,10} {11,12,13} {14} {15}; shard 1/2
 * takes the 1st, 3rd, 5th and 7th units, shard 2/2 the others.
 */
static void test_saved_states_stay_together(void **state)
{
	static const struct cb_target_class serial_cls = { .name = "saved", .serial = keeps_state };
	static const size_t s1[] = { 0, 1, 2, 6, 8, 9, 10, 14 }, s2[] = { 3, 4, 5, 7, 11, 12, 13,
									   15 };
	struct cb_kernel ks = { .cls = &serial_cls }, kb = { 0 };
	struct cb_workload w[2];
	struct cb_cell cells[16];
	size_t kept;

	for (long i = 1; i <= 2; i++) {
		numbered(cells, 16);
		for (size_t c = 0; c < 16; c++) {
			size_t at = c % 8;

			cells[c].rep = (long)(c / 8) + 1;
			cells[c].kernel = at < 6 ? &ks : &kb;
			cells[c].workload = &w[at < 3 || at == 6 ? 0 : 1];
		}
		kept = cb_matrix_shard(cells, 16, i, 2);
		assert_int_equal(kept, 8);
		for (size_t k = 0; k < kept; k++)
			assert_int_equal(cells[k].index, (i == 1 ? s1 : s2)[k]);
	}
}

static void test_parse(void **state)
{
	char err[256];
	long i = 0, n = 0;

	assert_int_equal(cb_shard_parse("2/4", &i, &n, err, sizeof(err)), 0);
	assert_int_equal(i, 2);
	assert_int_equal(n, 4);
	assert_int_equal(cb_shard_parse("1/1", &i, &n, err, sizeof(err)), 0);
	assert_int_equal(i, 1);
	assert_int_equal(n, 1);
	assert_int_equal(cb_shard_parse("10000/10000", &i, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 10000);
}

static void test_parse_rejects(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "0/3", "I must be a number in 1..3" },  { "4/3", "I must be a number in 1..3" },
		{ "-1/3", "I must be a number in 1..3" }, { "1/0", "N must be a number in 1.." },
		{ "1/10001", "N must be" },		  { "a/b", "N must be" },
		{ "1/3x", "N must be" },		  { "/3", "I must be" },
		{ "3/", "N must be" },			  { "2", "not I/N" },
		{ "", "not I/N" },			  { " 1/3", "I must be" },
	};
	char err[256];
	long i = 7, n = 7;

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		errno = 0;
		err[0] = '\0';
		if (cb_shard_parse(bad[k].text, &i, &n, err, sizeof(err)) != -1 || errno != EINVAL ||
		    !strstr(err, bad[k].why) || !strstr(err, "--shard"))
			fail_msg("'%s': want -1/EINVAL and \"%s\", got errno %d, \"%s\"", bad[k].text,
				 bad[k].why, errno, err);
		assert_int_equal(i, 7); /* untouched on error */
		assert_int_equal(n, 7);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_shard_is_everything),
		cmocka_unit_test(test_three_shards_of_ten),
		cmocka_unit_test(test_more_shards_than_cells),
		cmocka_unit_test(test_shards_partition),
		cmocka_unit_test(test_saved_states_stay_together),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_rejects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
