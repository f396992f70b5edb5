// SPDX-License-Identifier: GPL-2.0-only
/*
 * cruns.c - the bounded list of compaction runs per lane (cruns.h): a run is kept when its
 * index among the lane's runs is a multiple of the lane's stride; when the lane is full,
 * the kept runs at odd positions go and the stride doubles. What stays is every
 * stride-th run of the lane, from its first, whatever the trace's length.
 */
#include "cruns.h"

const char *const cb_lane_names[CB_LANE_NR] = {
	[CB_LANE_DIRECT] = "direct",
	[CB_LANE_KCOMPACTD] = "kcompactd",
	[CB_LANE_PROACTIVE] = "proactive",
	[CB_LANE_DEMAND] = "demand",
	[CB_LANE_KHUGEPAGED] = "khugepaged",
	[CB_LANE_MANUAL] = "manual",
	[CB_LANE_POLICY] = "policy",
};

/* keep the runs at even positions (those whose index is a multiple of twice the stride) */
static void halve(struct cb_crun_lane *l)
{
	uint32_t i, k = 0;

	for (i = 0; i < l->n; i += 2)
		l->run[k++] = l->run[i];
	l->n = k;
	l->stride = l->stride ? l->stride * 2 : 2;
}

void cb_cruns_add(struct cb_cruns *c, enum cb_lane lane, uint64_t start, uint64_t end, bool open)
{
	struct cb_crun_lane *l;
	uint64_t stride;

	if (!c || lane < 0 || lane >= CB_LANE_NR)
		return;
	l = &c->lane[lane];
	stride = l->stride ? l->stride : 1;
	if (l->seen++ % stride)
		return;
	if (l->n == CB_CRUNS_MAX) {
		halve(l);
		if ((l->seen - 1) % l->stride)
			return;
	}
	l->run[l->n++] = (struct cb_crun){ .start = start, .end = end > start ? end : start,
					  .open = open };
}

uint64_t cb_cruns_dropped(const struct cb_cruns *c, enum cb_lane lane)
{
	return c ? c->lane[lane].seen - c->lane[lane].n : 0;
}
