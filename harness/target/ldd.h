/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ldd.h - the shared libraries of a program, as /usr/bin/ldd lists them: what the qemu
 * initramfs and the ssh target copy beside our programs.
 */
#ifndef CB_LDD_H
#define CB_LDD_H

/* cb_ldd_fn - called with each library's path; a negative return stops the walk */
typedef int (*cb_ldd_fn)(const char *path, void *arg);

/*
 * cb_ldd_parse - call @fn for each library file in ldd's output @text (changed in place)
 *
 * The path is what follows "=> ", or the line itself (the dynamic loader's line); lines
 * with no absolute path (linux-vdso.so.1, "=> not found") are passed over. Returns 0, or
 * the first negative return of @fn.
 */
int cb_ldd_parse(char *text, cb_ldd_fn fn, void *arg);

/*
 * cb_ldd_libs - run `ldd @elf` (no shell) and cb_ldd_parse its output; a static program
 * (ldd fails: "not a dynamic executable") has no libraries. Returns 0, or the first
 * negative return of @fn.
 */
int cb_ldd_libs(const char *elf, cb_ldd_fn fn, void *arg);

#endif
