/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jobs_plan.h - which host CPUs each of N concurrent QEMU guests gets (`run --jobs N`).
 * A pure function of the CPU list, so it is tested on made-up lists (holes included).
 */
#ifndef CB_JOBS_PLAN_H
#define CB_JOBS_PLAN_H

#include <stddef.h>

#define CB_JOBS_MAX 1024

/*
 * cb_jobs_plan - give each of @jobs guests @vcpus CPUs of its own from @cpus (the host
 * CPUs this process may use, @nr_cpus of them, in ascending order: a cpuset may have
 * holes): guest j gets cpus[j * vcpus] .. cpus[j * vcpus + vcpus - 1], written to
 * @slots[j * vcpus ...] (room for jobs * vcpus ints). No CPU is given twice, so no guest's
 * vCPU competes with another's. Returns 0, or -1 with errno EINVAL and, in @err, the
 * numbers: @jobs x @vcpus is more than @nr_cpus (or @jobs or @vcpus is below 1).
 */
int cb_jobs_plan(const int *cpus, size_t nr_cpus, long jobs, long vcpus, int *slots, char *err,
		 size_t errlen);

/*
 * cb_cpulist_format - @cpus as a Linux CPU list ("0-3,8,10-11") into @buf. Returns @buf.
 */
char *cb_cpulist_format(const int *cpus, size_t nr, char *buf, size_t size);

/*
 * cb_host_cpus - the CPUs this process may run on (sched_getaffinity), ascending, into
 * @cpus (room for @max). Returns how many, or -1 with errno.
 */
int cb_host_cpus(int *cpus, size_t max);

#endif
