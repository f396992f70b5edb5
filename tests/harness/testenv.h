/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * testenv.h - what every test that runs the compactbench binary needs first: to be run by
 * meson test, which names the binary in COMPACTBENCH. Header-only, no dependencies, so the
 * harness and qemu tests share it.
 */
#ifndef CB_TESTENV_H
#define CB_TESTENV_H

#include <stdio.h>
#include <stdlib.h>

/*
 * exit 1 unless COMPACTBENCH is set. A test's main calls it before it makes its temporary
 * folder: an exit from deep in a test would skip the teardown that removes it.
 */
static inline void testenv_require_cb(void)
{
	if (!getenv("COMPACTBENCH")) {
		fprintf(stderr, "COMPACTBENCH is not set (run through meson test)\n");
		exit(1);
	}
}

#endif
