// SPDX-License-Identifier: GPL-2.0-only
/*
 * wl_res.c - open-file limit, descriptor count and /proc/self/status figures.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util.h"
#include "wl_res.h"

/*
 * wl_nofile_raise - raise the soft RLIMIT_NOFILE to the hard limit (as far as the kernel
 * lets: fs.nr_open); returns the soft limit now in force, or -1 with errno set
 */
long wl_nofile_raise(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -1;
	if (rl.rlim_cur < rl.rlim_max) {
		rlim_t want = rl.rlim_max;

		/* an "unlimited" hard limit is refused above fs.nr_open: ask for 1M then */
		if (want == RLIM_INFINITY || want > (1 << 20))
			want = 1 << 20;
		if (want > rl.rlim_cur) {
			struct rlimit nr = { .rlim_cur = want, .rlim_max = rl.rlim_max };

			if (setrlimit(RLIMIT_NOFILE, &nr) == 0)
				rl.rlim_cur = want;
		}
	}
	return rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > LONG_MAX ? LONG_MAX
								       : (long)rl.rlim_cur;
}

/* wl_fd_count - the number of open descriptors of @pid (0: this process), or -1 with errno */
int wl_fd_count(pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int n = 0;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/fd");
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return pid ? n : n - 1; /* our own listing holds one descriptor: not counted */
}

/*
 * wl_status_kb - a "Key:  N kB" value of /proc/@pid/status (@pid 0: self), e.g. "VmPTE"
 * Returns the value in kB, or -1 with errno set (ENOENT: no such key).
 */
long long wl_status_kb(pid_t pid, const char *key)
{
	char path[64];

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	return cb_proc_kb(path, key);
}

/* the CAP_SYS_RESOURCE bit of CapEff in /proc/self/status */
#define CAP_SYS_RESOURCE_BIT 24

/* wl_is_privileged - whether this process may exceed per-user limits (CAP_SYS_RESOURCE) */
int wl_is_privileged(void)
{
	char *text = cb_read_file("/proc/self/status", NULL), *p;
	unsigned long long caps = 0;

	if (!text)
		return 0;
	p = strstr(text, "\nCapEff:");
	if (p)
		caps = strtoull(p + strlen("\nCapEff:"), NULL, 16);
	free(text);
	return (caps >> CAP_SYS_RESOURCE_BIT) & 1;
}
