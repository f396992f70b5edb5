// SPDX-License-Identifier: GPL-2.0-only
/*
 * jobs_plan.c - the CPU plan of `run --jobs N` (see jobs_plan.h).
 */
#include "jobs_plan.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

int cb_jobs_plan(const int *cpus, size_t nr_cpus, long jobs, long vcpus, int *slots, char *err,
		 size_t errlen)
{
	char list[256];

	if (jobs < 1 || vcpus < 1 || jobs > CB_JOBS_MAX) {
		snprintf(err, errlen, "--jobs %ld with %ld vCPUs a guest: both must be at least 1 "
			 "(and --jobs at most %d)", jobs, vcpus, CB_JOBS_MAX);
		errno = EINVAL;
		return -1;
	}
	if ((size_t)(jobs * vcpus) > nr_cpus) {
		snprintf(err, errlen, "--jobs %ld: %ld guests x %ld vCPUs = %ld host CPUs, but this "
			 "process may use %zu (CPUs %s): that would oversubscribe; at most %zu guest(s) "
			 "of %ld vCPUs at once (lower --jobs, or the kernels' cpus)", jobs, jobs, vcpus,
			 jobs * vcpus, nr_cpus, cb_cpulist_format(cpus, nr_cpus, list, sizeof(list)),
			 nr_cpus / (size_t)vcpus, vcpus);
		errno = EINVAL;
		return -1;
	}
	memcpy(slots, cpus, (size_t)(jobs * vcpus) * sizeof(*slots));
	return 0;
}

char *cb_cpulist_format(const int *cpus, size_t nr, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nr && len < size; i++) {
		size_t j = i;

		while (j + 1 < nr && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			len += snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", cpus[i],
					cpus[j]);
		else
			len += snprintf(buf + len, size - len, "%s%d", len ? "," : "", cpus[i]);
		i = j;
	}
	return buf;
}

int cb_host_cpus(int *cpus, size_t max)
{
	cpu_set_t set;
	size_t n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return (int)n;
}
