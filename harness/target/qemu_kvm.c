// SPDX-License-Identifier: GPL-2.0-only
/*
 * qemu_kvm.c - whether the qemu target tries KVM (qemu_kvm.h): the probe's remembered
 * verdict and the environment's word.
 */
#include "qemu_kvm.h"
#include "kernel_build.h"
#include "run.h"
#include "target.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* a KVM guest failed to come up in this run: TCG from then on */
static bool kvm_failed;

void cb_qemu_kvm_failed(void)
{
	kvm_failed = true;
}

/*
 * The probe's verdict is remembered in CACHE/kvm-probe: on a machine where KVM guests hang
 * every run would otherwise pay the probe's 20 s again. The file holds the host's
 * `uname -r` and QEMU's path; either changing, or $COMPACTBENCH_QEMU_ACCEL=kvm, probes anew.
 */
static int kvm_memo_path(char *buf, size_t size)
{
	return cb_path(buf, size, "%s/kvm-probe", cb_cache_root());
}

static void kvm_memo_key(char *buf, size_t size)
{
	struct utsname u;

	if (uname(&u) < 0)
		snprintf(u.release, sizeof(u.release), "?");
	snprintf(buf, size, "tcg host=%s\n", u.release);
}

/* whether the memo says TCG, its path in @path */
static bool kvm_memo_tcg(char *path, size_t size)
{
	char key[128];
	char *text;
	bool tcg;

	if (kvm_memo_path(path, size) < 0 || !(text = cb_read_file(path, NULL)))
		return false;
	kvm_memo_key(key, sizeof(key));
	tcg = !strncmp(text, key, strlen(key));
	free(text);
	return tcg;
}

static bool kvm_memo_says_tcg(void)
{
	char path[PATH_MAX];
	bool tcg = kvm_memo_tcg(path, sizeof(path));

	if (tcg)
		cb_log("qemu: KVM failed its probe on this machine before (%s): TCG; "
		       "COMPACTBENCH_QEMU_ACCEL=kvm probes again", path);
	return tcg;
}

void cb_qemu_kvm_memo(bool failed)
{
	char path[PATH_MAX], text[128];

	if (kvm_memo_path(path, sizeof(path)) < 0)
		return;
	if (!failed) {
		unlink(path);
		return;
	}
	kvm_memo_key(text, sizeof(text));
	if (cb_mkdir_p(cb_cache_root()) < 0 || cb_write_file_atomic(path, text, strlen(text)) < 0)
		cb_log("qemu: cannot remember the KVM probe in %s: %s", path, strerror(errno));
}

/*
 * $COMPACTBENCH_QEMU_ACCEL=tcg skips the KVM probe (benchmarks, machines known to hang),
 * =kvm probes even where an earlier probe failed
 */
bool cb_qemu_want_kvm(void)
{
	const char *env = getenv("COMPACTBENCH_QEMU_ACCEL");
	static int memo = -1;

	if (env && !strcmp(env, "tcg"))
		return false;
	if (kvm_failed || access("/dev/kvm", R_OK | W_OK) < 0)
		return false;
	if (env && !strcmp(env, "kvm"))
		return true;
	if (memo < 0)
		memo = kvm_memo_says_tcg();
	return !memo;
}

/* as cb_qemu_want_kvm, but reading the memo afresh and leaving want_kvm's own memo alone */
bool cb_qemu_accel_known(void)
{
	const char *env = getenv("COMPACTBENCH_QEMU_ACCEL");
	char path[PATH_MAX];

	if ((env && !strcmp(env, "tcg")) || kvm_failed || access("/dev/kvm", R_OK | W_OK) < 0)
		return true;
	return !(env && !strcmp(env, "kvm")) && kvm_memo_tcg(path, sizeof(path));
}

