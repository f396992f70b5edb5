/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wl_res.h - the process's own resources as the workload programs need them: the limit on
 * open files (fragmenters that hold kernel memory through file descriptors), the count of
 * open descriptors, and per-process memory figures of /proc/self/status.
 */
#ifndef CB_WL_RES_H
#define CB_WL_RES_H

#include <sys/types.h>

/*
 * wl_nofile_raise - raise the soft RLIMIT_NOFILE to the hard limit (as far as the kernel
 * lets: fs.nr_open); returns the soft limit now in force, or -1 with errno set
 */
long wl_nofile_raise(void);

/* wl_fd_count - the number of open descriptors of @pid (0: this process), or -1 with errno */
int wl_fd_count(pid_t pid);

/*
 * wl_status_kb - a "Key:  N kB" value of /proc/@pid/status (@pid 0: self), e.g. "VmPTE"
 * Returns the value in kB, or -1 with errno set (ENOENT: no such key).
 */
long long wl_status_kb(pid_t pid, const char *key);

/* wl_is_privileged - whether this process may exceed per-user limits (CAP_SYS_RESOURCE) */
int wl_is_privileged(void);

#endif
