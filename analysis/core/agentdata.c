// SPDX-License-Identifier: GPL-2.0-only
/*
 * agentdata.c - samples.csv, cpu.*, energy.* (with energy.csv) and perf-power.* of a cell.
 */
#include "agentdata.h"
#include "energy.h"
#include "perf_power.h"
#include "util.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cb_csv_column(const char *line, const char *name)
{
	size_t len = strlen(name);
	const char *p = line;
	int i = 0;

	while (p) {
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len] || p[len] == '\r'))
			return i;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
		i++;
	}
	return -1;
}

int cb_csv_u64(const char *line, int col, unsigned long long *v)
{
	const char *p = line;
	char *end;

	while (col-- > 0) {
		p = strchr(p, ',');
		if (!p)
			return -1;
		p++;
	}
	errno = 0;
	*v = strtoull(p, &end, 10);
	return errno || end == p || (*end && *end != ',' && *end != '\r') ? -1 : 0;
}

int cb_samples_parse(const char *text, uint64_t ws, uint64_t we, unsigned int *start,
		     unsigned int *end, unsigned int *max, int *bad_line)
{
	unsigned long long t, score, cur_t = 0;
	const char *p = text;
	unsigned int cur = 0;
	int ln = 0, n = 0, ct = -1, cs = -1;
	bool have = false;
	char line[2048];

	*start = *end = *max = 0;
	while (cb_next_line(&p, line, sizeof(line), &ln)) {
		if (!line[0])
			continue;
		if (ct < 0) {
			ct = cb_csv_column(line, "t_ns");
			cs = cb_csv_column(line, "node_score");
			if (ct < 0 || cs < 0)
				goto bad;
			continue;
		}
		if (cb_csv_u64(line, ct, &t) || cb_csv_u64(line, cs, &score))
			goto bad;
		if (we && (t < ws || t > we))
			continue;
		if (have && t != cur_t) {	/* a new sample: close the previous one */
			if (!n++)
				*start = cur;
			*end = cur;
			*max = cur > *max ? cur : *max;
			cur = 0;
		}
		have = true;
		cur_t = t;
		cur = score > cur ? (unsigned int)score : cur;
	}
	if (ct < 0)
		goto bad;
	if (have) {
		if (!n++)
			*start = cur;
		*end = cur;
		*max = cur > *max ? cur : *max;
	}
	return n;
bad:
	return cb_bad_line(bad_line, ln);
}

/* read @cell_dir/@name; NULL with *@missing set when it does not exist */
static char *read_opt(const char *cell_dir, const char *name, bool *missing, char *path,
		      size_t plen)
{
	char *text;

	*missing = false;
	if (cb_path(path, plen, "%s/%s", cell_dir, name) < 0)
		return NULL;
	text = cb_read_file(path, NULL);
	if (!text && errno == ENOENT)
		*missing = true;
	return text;
}

/* a before/after pair: both, or neither; anything else is an error naming the file */
static int read_pair(const char *cell_dir, const char *stem, char **b, char **a, char *err,
		     size_t errlen)
{
	char pb[PATH_MAX], pa[PATH_MAX], nb[64], na[64];
	bool mb, ma;

	snprintf(nb, sizeof(nb), "%s.before", stem);
	snprintf(na, sizeof(na), "%s.after", stem);
	*b = read_opt(cell_dir, nb, &mb, pb, sizeof(pb));
	*a = read_opt(cell_dir, na, &ma, pa, sizeof(pa));
	if (*b && *a)
		return 1;
	if (mb && ma)
		return 0;
	if (!*b)
		snprintf(err, errlen, "%s: %s", pb, mb ? "missing (but its .after exists)" :
			 strerror(errno));
	else
		snprintf(err, errlen, "%s: %s", pa, ma ? "missing (but its .before exists)" :
			 strerror(errno));
	free(*b);
	free(*a);
	*b = *a = NULL;
	return -1;
}

/* a parser of one snapshot file's text (cb_cpu_parse, cb_pp_parse) behind a void * */
typedef int (*snap_parse_fn)(const char *text, void *snap, int *bad_line);

static int parse_cpu(const char *text, void *snap, int *bad_line)
{
	return cb_cpu_parse(text, snap, bad_line);
}

static int parse_pp(const char *text, void *snap, int *bad_line)
{
	return cb_pp_parse(text, snap, bad_line);
}

/*
 * @stem.before and @stem.after read and parsed with @parse into *@snaps (malloc'ed: two of
 * @size bytes, the before first). Returns 1, 0 when both files are missing, or -1 with @err
 * naming the file and the line that is not "@shape".
 */
static int read_snaps(const char *cell_dir, const char *stem, snap_parse_fn parse, size_t size,
		      const char *shape, void **snaps, char *err, size_t errlen)
{
	char *text[2], *s;
	int r = read_pair(cell_dir, stem, &text[0], &text[1], err, errlen), line = 0;

	*snaps = NULL;
	if (r <= 0)
		return r;
	s = malloc(2 * size);
	if (!s) {
		snprintf(err, errlen, "%s: out of memory", cell_dir);
		r = -1;
	}
	for (int i = 0; i < 2 && r > 0; i++) {
		if (parse(text[i], s + i * size, &line)) {
			snprintf(err, errlen, "%s/%s.%s: line %d: not \"%s\"", cell_dir, stem,
				 i ? "after" : "before", line, shape);
			r = -1;
		}
	}
	free(text[0]);
	free(text[1]);
	if (r < 0) {
		free(s);
		return -1;
	}
	*snaps = s;
	return 1;
}

static int read_cpu(const char *cell_dir, struct cb_agentdata *out, char *err, size_t errlen)
{
	struct cb_cpu_snap *s;
	void *snaps;
	int r = read_snaps(cell_dir, "cpu", parse_cpu, sizeof(*s), "pid comm source ns", &snaps,
			   err, errlen);

	if (r <= 0)
		return r;
	s = snaps;
	cb_cpu_delta(&s[0], &s[1], &out->cpu);
	out->has_cpu = true;
	free(s);
	return 0;
}

/* energy.before, energy.csv's readings, energy.after in time order (*@s malloc'ed) */
static int energy_readings(const char *cell_dir, const char *b, const char *a,
			   struct cb_energy_snap **s, char *err, size_t errlen)
{
	struct cb_energy_snap *mid = NULL, *all;
	char path[PATH_MAX], *csv;
	int line = 0, n = 0;
	bool missing;

	*s = NULL;
	csv = read_opt(cell_dir, "energy.csv", &missing, path, sizeof(path));
	if (!csv && !missing) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (csv) {
		n = cb_energy_csv_parse(csv, &mid, &line);
		free(csv);
		if (n < 0) {
			snprintf(err, errlen, "%s: line %d: not \"t_ns,zone,name,energy_uj,"
				 "max_energy_range_uj\" in time order", path, line);
			return -1;
		}
	}
	all = calloc(n + 2, sizeof(*all));
	if (!all) {
		free(mid);
		snprintf(err, errlen, "%s: out of memory", cell_dir);
		return -1;
	}
	if (cb_energy_parse(b, &all[0], &line)) {
		snprintf(err, errlen, "%s/energy.before: line %d: not \"zone name energy_uj "
			 "max_energy_range_uj\"", cell_dir, line);
		goto bad;
	}
	if (cb_energy_parse(a, &all[n + 1], &line)) {
		snprintf(err, errlen, "%s/energy.after: line %d: not \"zone name energy_uj "
			 "max_energy_range_uj\"", cell_dir, line);
		goto bad;
	}
	if (n)
		memcpy(&all[1], mid, n * sizeof(*mid));
	free(mid);
	*s = all;
	return n + 2;
bad:
	free(mid);
	free(all);
	return -1;
}

static int read_energy(const char *cell_dir, uint64_t ws, uint64_t we, struct cb_agentdata *out,
		       char *err, size_t errlen)
{
	struct cb_energy_sum *sum = &out->powercap;
	struct cb_energy_snap *s;
	char *b, *a;
	int r = read_pair(cell_dir, "energy", &b, &a, err, errlen), n;

	if (r <= 0)
		return r;
	n = energy_readings(cell_dir, b, a, &s, err, errlen);
	free(b);
	free(a);
	if (n < 0)
		return -1;
	out->has_energy = true;
	out->powercap_readings = n;
	r = cb_energy_chain(s, n, sum);
	free(s);
	if (r < 0 && errno == EINVAL) {
		snprintf(err, errlen, "%s/energy.*: the RAPL zones differ between readings "
			 "(energy.before, energy.csv, energy.after)", cell_dir);
		return -1;
	}
	/* untimed readings (version 1 files, no energy.csv): the window bounds the interval */
	if (r > 0 && sum->max_gap_s < 0 && we > ws) {
		sum->max_gap_s = (we - ws) / 1e9;
		if (sum->max_gap_s > sum->wrap_s)
			r = -1;
	}
	out->rapl_zones = sum->zones;
	if (r < 0)
		snprintf(out->powercap_note, sizeof(out->powercap_note),
			 "%.1f s between two readings is longer than the counters' wrap period at "
			 "%.0f W (%.1f s): a second wrap cannot be excluded", sum->max_gap_s,
			 CB_ENERGY_MAX_W, sum->wrap_s);
	else if (sum->max_gap_s < 0)
		snprintf(out->powercap_note, sizeof(out->powercap_note), "untimed readings: at most "
			 "one wrap per interval assumed, not checked");
	out->powercap_ok = r > 0;
	return 0;
}

static int read_perf(const char *cell_dir, struct cb_agentdata *out, char *err, size_t errlen)
{
	struct cb_pp_snap *s;
	char why[256];
	void *snaps;
	int r = read_snaps(cell_dir, "perf-power", parse_pp, sizeof(*s),
			   "event cpu count scale Joules", &snaps, err, errlen);

	if (r <= 0)
		return r;
	s = snaps;
	r = cb_pp_delta(&s[0], &s[1], out->perf_j, why, sizeof(why));
	if (r < 0) {
		snprintf(err, errlen, "%s/perf-power.after: %s", cell_dir, why);
		free(s);
		return -1;
	}
	out->has_perf = true;
	out->perf_counters = r;
	for (int d = 0; d < CB_ENERGY_NR_DOMAINS; d++)
		out->perf_total_j += out->perf_j[d];
	for (int i = 0; i < s[1].n; i++)
		if (s[1].c[i].domain >= 0)
			out->perf_n[s[1].c[i].domain]++;
	free(s);
	return 0;
}

/* the measured figure: powercap, else perf-power, else none (modeled) */
static void pick_source(struct cb_agentdata *out)
{
	if (out->rapl_zones && out->powercap_ok) {
		out->source = "powercap";
		out->rapl_j = out->powercap.total_j;
		memcpy(out->rapl_domain_j, out->powercap.j, sizeof(out->rapl_domain_j));
		memcpy(out->rapl_domain_n, out->powercap.nz, sizeof(out->rapl_domain_n));
		out->measured = true;
	} else if (out->has_perf && out->perf_counters) {
		out->source = "perf-power";
		out->rapl_j = out->perf_total_j;
		memcpy(out->rapl_domain_j, out->perf_j, sizeof(out->rapl_domain_j));
		memcpy(out->rapl_domain_n, out->perf_n, sizeof(out->rapl_domain_n));
		out->measured = true;
	} else {
		out->source = "modeled";
	}
}

/* a whole number >= 0 under @key of @o */
static int json_u64(struct json_object *o, const char *key, uint64_t *v)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_int) ||
	    json_object_get_int64(x) < 0)
		return -1;
	*v = (uint64_t)json_object_get_int64(x);
	return 0;
}

/* wmark.json (harness/agent/wmark.h): absent without a policy, else its cpu_ns, checks, triggers */
static int read_policy(const char *cell_dir, struct cb_agentdata *out, char *err, size_t errlen)
{
	static const char *const keys[] = { "cpu_ns", "checks", "triggers" };
	uint64_t *dst[] = { &out->policy_cpu_ns, &out->policy_checks, &out->policy_triggers };
	char path[PATH_MAX], *text;
	struct json_object *o;
	bool missing;

	text = read_opt(cell_dir, "wmark.json", &missing, path, sizeof(path));
	if (!text) {
		if (missing)
			return 0;
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	o = json_tokener_parse(text);
	free(text);
	if (!o || !json_object_is_type(o, json_type_object)) {
		snprintf(err, errlen, "%s: not a JSON object", path);
		json_object_put(o);
		return -1;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (json_u64(o, keys[i], dst[i]) < 0) {
			snprintf(err, errlen, "%s: key '%s': missing or not a whole number >= 0", path,
				 keys[i]);
			json_object_put(o);
			return -1;
		}
	}
	json_object_put(o);
	out->has_policy = true;
	return 0;
}

int cb_agentdata_read(const char *cell_dir, uint64_t ws, uint64_t we, struct cb_agentdata *out,
		      char *err, size_t errlen)
{
	char path[PATH_MAX], *text;
	bool missing;
	int line = 0, n;

	memset(out, 0, sizeof(*out));
	text = read_opt(cell_dir, "samples.csv", &missing, path, sizeof(path));
	if (!text && !missing) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (text) {
		n = cb_samples_parse(text, ws, we, &out->score_start, &out->score_end,
				     &out->score_max, &line);
		free(text);
		if (n < 0) {
			snprintf(err, errlen, "%s: line %d: not a samples.csv row (t_ns, node_score)",
				 path, line);
			return -1;
		}
		out->samples = n;
		out->has_samples = n > 0;
	}
	if (read_cpu(cell_dir, out, err, errlen) < 0 ||
	    read_energy(cell_dir, ws, we, out, err, errlen) < 0 ||
	    read_perf(cell_dir, out, err, errlen) < 0 || read_policy(cell_dir, out, err, errlen) < 0)
		return -1;
	pick_source(out);
	return 0;
}
