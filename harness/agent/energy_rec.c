// SPDX-License-Identifier: GPL-2.0-only
/*
 * energy_rec.c - a cell's energy sources: powercap zones, perf's power PMU counters.
 */
#include "energy_rec.h"
#include "energy.h"
#include "perf_power.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cb_energy_rec {
	struct cb_energy_snap powercap;	/* the zones found at start */
	struct cb_pp_pmu pmu;
	struct cb_pp *pp;		/* NULL: no perf-power source */
	char perf_error[512];
};

/* write @s as @cell_dir/perf-power.@when */
static int put_pp(const char *cell_dir, const char *when, const struct cb_pp_snap *s,
		  char *err, size_t errlen)
{
	char path[PATH_MAX], *text = NULL;
	int ret = -1;

	if (cb_path(path, sizeof(path), "%s/perf-power.%s", cell_dir, when) < 0)
		snprintf(err, errlen, "%s/perf-power.%s: path too long", cell_dir, when);
	else if (cb_pp_format(s, &text) < 0)
		snprintf(err, errlen, "out of memory");
	else if (cb_write_file_atomic(path, text, strlen(text)) < 0)
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
	else
		ret = 0;
	free(text);
	return ret;
}

struct cb_energy_rec *cb_energy_rec_start(const char *cell_dir, const char *root, char *err,
					  size_t errlen)
{
	struct cb_energy_rec *r = calloc(1, sizeof(*r));
	struct cb_pp_snap snap;
	int ret;

	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (cb_energy_read(root, &r->powercap, err, errlen) < 0) {
		free(r);
		return NULL;
	}
	ret = cb_pp_probe(root, &r->pmu, r->perf_error, sizeof(r->perf_error));
	if (ret > 0)
		r->pp = cb_pp_open(&r->pmu, r->perf_error, sizeof(r->perf_error));
	if (!r->pp)
		return r;
	if (cb_pp_read(r->pp, &snap, r->perf_error, sizeof(r->perf_error)) < 0) {
		cb_pp_close(r->pp);
		r->pp = NULL;
		return r;
	}
	if (put_pp(cell_dir, "before", &snap, err, errlen) < 0) {
		cb_energy_rec_free(r);
		return NULL;
	}
	return r;
}

int cb_energy_rec_stop(struct cb_energy_rec *r, const char *cell_dir, char *err, size_t errlen)
{
	struct cb_pp_snap snap;
	int ret = 0;

	if (!r || !r->pp)
		return 0;
	if (cb_pp_read(r->pp, &snap, err, errlen) < 0 ||
	    put_pp(cell_dir, "after", &snap, err, errlen) < 0)
		ret = -1;
	cb_pp_close(r->pp);
	r->pp = NULL;
	r->pmu.nev = ret < 0 ? 0 : r->pmu.nev;
	return ret;
}

const char *cb_energy_rec_source(const struct cb_energy_rec *r)
{
	if (r && r->powercap.n)
		return "powercap";
	if (r && r->pmu.nev && !r->perf_error[0])
		return "perf-power";
	return "modeled";
}

struct json_object *cb_energy_rec_meta(const struct cb_energy_rec *r)
{
	struct json_object *o = json_object_new_object(), *a;
	int i;

	json_object_object_add(o, "source", json_object_new_string(cb_energy_rec_source(r)));
	a = json_object_new_array();
	for (i = 0; r && i < r->powercap.n; i++)
		json_object_array_add(a, json_object_new_string(r->powercap.z[i].name));
	json_object_object_add(o, "powercap", a);
	a = json_object_new_array();
	for (i = 0; r && !r->perf_error[0] && i < r->pmu.nev; i++)
		json_object_array_add(a, json_object_new_string(r->pmu.ev[i].name));
	json_object_object_add(o, "perf_power", a);
	json_object_object_add(o, "perf_power_error", r && r->perf_error[0] ?
			       json_object_new_string(r->perf_error) : NULL);
	return o;
}

void cb_energy_rec_free(struct cb_energy_rec *r)
{
	if (!r)
		return;
	cb_pp_close(r->pp);
	free(r);
}
