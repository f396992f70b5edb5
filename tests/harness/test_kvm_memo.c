// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kvm_memo.c - the qemu target remembers a failed KVM probe per machine (issue 22:
 * smoke-qemu paid the 20 s probe on every invocation). The memo is CACHE/kvm-probe, one
 * line "tcg host=<uname -r>" (results/README.md's cache layout): the same host release
 * means TCG without a probe, another release or no memo means probe, and
 * COMPACTBENCH_QEMU_ACCEL=kvm probes again whatever the memo says (the way to retry);
 * =tcg never probes. Read through cb_qemu_accel_known(), which run --jobs asks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "target.h"
#include "util.h"

static char tmpdir[] = "/tmp/cb-test-kvm-memo-XXXXXX";

static void memo(const char *release)
{
	char path[4200], text[256];

	snprintf(path, sizeof(path), "%s/kvm-probe", tmpdir);
	snprintf(text, sizeof(text), "tcg host=%s\n", release);
	assert_int_equal(cb_write_file_atomic(path, text, strlen(text)), 0);
}

static void test_memo(void **state)
{
	struct utsname u;

	(void)state;
	assert_int_equal(uname(&u), 0);
	unsetenv("COMPACTBENCH_QEMU_ACCEL");
	if (access("/dev/kvm", R_OK | W_OK) < 0) {
		/* no KVM: nothing to probe, whatever the memo says */
		assert_true(cb_qemu_accel_known());
		skip();
	}
	assert_false(cb_qemu_accel_known());	/* no memo: the first guest probes */
	memo(u.release);
	assert_true(cb_qemu_accel_known());	/* this machine's failed probe: TCG */
	setenv("COMPACTBENCH_QEMU_ACCEL", "kvm", 1);
	assert_false(cb_qemu_accel_known());	/* the retry asked for */
	setenv("COMPACTBENCH_QEMU_ACCEL", "tcg", 1);
	assert_true(cb_qemu_accel_known());
	unsetenv("COMPACTBENCH_QEMU_ACCEL");
	memo("0.0.1-another-kernel");
	assert_false(cb_qemu_accel_known());	/* another host kernel: probe anew */
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_memo) };
	int ret;

	if (!mkdtemp(tmpdir))
		return 1;
	setenv("COMPACTBENCH_CACHE", tmpdir, 1);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	cb_rm_rf(tmpdir);
	return ret;
}
