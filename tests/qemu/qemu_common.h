/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qemu_common.h - what the qemu integration tests share: skip without QEMU or the kernel
 * source, and a matrix file naming the baseline recipe by its absolute path.
 */
#ifndef CB_QEMU_COMMON_H
#define CB_QEMU_COMMON_H

#include <dirent.h>

#include "qtest.h"

/* exit 77 (skipped) when the qemu target cannot work here, 1 when not run by meson test */
static inline void qemu_require(void)
{
	static const char *const need[] = { "/usr/bin/qemu-system-x86_64", "/bin/busybox",
					    "/usr/src/linux-source-6.1.tar.xz" };

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		if (access(need[i], R_OK) < 0) {
			fprintf(stderr, "skipped: %s is missing (./run.sh installs it)\n", need[i]);
			exit(77);
		}
	}
	if (geteuid() != 0) {
		fprintf(stderr, "skipped: not root\n");
		exit(77);
	}
	testenv_require_cb();
}

/* processes whose command line mentions @what (our QEMU shares the run directory) */
static inline int qemu_processes_with(const char *what)
{
	struct dirent *d;
	DIR *proc = opendir("/proc");
	int n = 0;

	while (proc && (d = readdir(proc))) {
		char path[300], *cmd;
		size_t len;

		snprintf(path, sizeof(path), "/proc/%s/cmdline", d->d_name);
		cmd = cb_read_file(path, &len);
		if (cmd && memmem(cmd, len, what, strlen(what)))
			n++;
		free(cmd);
	}
	if (proc)
		closedir(proc);
	return n;
}

/* as qemu_matrix, with @global_keys ("key = value\n" lines) in [global] */
static inline void qemu_matrix_global(const char *path, const char *global_keys,
				      const char *kernel_keys, const char *rest)
{
	char text[4096];
	const char *src = getenv("SOURCE_ROOT");

	snprintf(text, sizeof(text), "[global]\nreps = 1\ntarget = qemu\n%s\n[kernel k61]\n"
		 "recipe = %s/configs/kernels/linux-6.1.ini\n%s\n%s", global_keys,
		 src ? src : ".", kernel_keys, rest);
	qtest_write(path, text, 0644);
}

/* @dir/NAME.ini: [kernel k61] on the qemu target with @kernel_keys, then @rest */
static inline void qemu_matrix(const char *path, const char *kernel_keys, const char *rest)
{
	qemu_matrix_global(path, "", kernel_keys, rest);
}

#endif
