// SPDX-License-Identifier: GPL-2.0-only
/*
 * config_doc.c - `compactbench config doc`: the key reference of configs/README.md, made
 * from the key table, the knob table and the workload programs' option tables.
 */
#include "config_int.h"
#include "knobs.h"
#include "policy.h"
#include "target_class.h"
#include "wl_info.h"

#include <stdio.h>

#include "util.h"

static const char *const key_type_names[] = { "integer", "duration", "size", "one of", "text",
					      "list", "one of" };

const char *cb_cfg_ms_text(long long ms, char *buf, size_t len)
{
	static const struct { const char *unit; long long ms; } units[] = {
		{ "h", 3600000 }, { "m", 60000 }, { "s", 1000 },
	};

	if (ms <= 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ms % units[i].ms == 0) {
			snprintf(buf, len, "%lld%s", ms / units[i].ms, units[i].unit);
			return buf;
		}
	}
	snprintf(buf, len, "%lldms", ms);
	return buf;
}

const char *cb_cfg_bytes_text(long long bytes, char *buf, size_t len)
{
	static const char suffix[] = "kMGT";
	int i = -1;

	while (i < 3 && bytes % 1024 == 0 && bytes >= 1024) {
		bytes /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%lld", bytes);
	else
		snprintf(buf, len, "%lld%c", bytes, suffix[i]);
	return buf;
}

long long cb_cfg_max(const struct cfg_key *k)
{
	if (k->max > 0 || (k->type != KT_DURATION && k->type != KT_SIZE))
		return k->max;
	return k->type == KT_DURATION ? (long long)(CB_DURATION_MAX_S * 1000) :
					(long long)CB_SIZE_MAX;
}

/* the values a workload option takes */
static void print_wl_type(FILE *out, const struct wl_option *o)
{
	char buf[32];

	switch (o->type) {
	case WL_OPT_SIZE:
		fprintf(out, "size: a fraction, or bytes up to %s",
			cb_cfg_bytes_text((long long)CB_SIZE_MAX, buf, sizeof(buf)));
		break;
	case WL_OPT_DURATION:
		fprintf(out, "duration 0..%s",
			cb_cfg_ms_text((long long)(CB_DURATION_MAX_S * 1000), buf, sizeof(buf)));
		break;
	case WL_OPT_INT:
		fprintf(out, "integer %.0f..%.0f", o->min, o->max);
		break;
	case WL_OPT_REAL:
		fprintf(out, "number %g..%g", o->min, o->max);
		break;
	case WL_OPT_ENUM:
		fprintf(out, "one of");
		for (size_t i = 0; o->choices && o->choices[i]; i++)
			fprintf(out, "%s%s", i ? ", " : " ", o->choices[i]);
		break;
	case WL_OPT_BOOL:
		fprintf(out, "flag");
		break;
	default:
		fprintf(out, "text");
	}
}

static void print_choices(FILE *out, const char *const *choices)
{
	for (size_t i = 0; choices[i]; i++)
		fprintf(out, "%s%s", i ? ", " : " ", choices[i]);
}

/* a key's type and, for numbers, durations and sizes, the values it takes */
static void print_type(FILE *out, const struct cfg_key *k)
{
	char lo[32], hi[32];

	fprintf(out, "%s", key_type_names[k->type]);
	if (k->type == KT_INT)
		fprintf(out, " %lld..%lld", k->min, k->max);
	else if (k->type == KT_DURATION)
		fprintf(out, " %s..%s", cb_cfg_ms_text(k->min, lo, sizeof(lo)),
			cb_cfg_ms_text(cb_cfg_max(k), hi, sizeof(hi)));
	else if (k->type == KT_SIZE)
		fprintf(out, " %s..%s or a fraction", cb_cfg_bytes_text(k->min ? k->min : 1, lo,
			sizeof(lo)), cb_cfg_bytes_text(cb_cfg_max(k), hi, sizeof(hi)));
	else if (k->type == KT_ENUM)
		print_choices(out, k->choices);
	else if (k->type == KT_TARGET) {
		const char *names[CB_CFG_MAX_TARGETS + 1];

		cb_cfg_target_choices(names, sizeof(names) / sizeof(names[0]));
		print_choices(out, names);
	}
}

/* the rows of @keys in section @sec */
static void print_rows(FILE *out, const struct cfg_key *keys, int sec)
{
	for (const struct cfg_key *k = keys; k && k->name; k++) {
		if ((int)k->sec != sec)
			continue;
		fprintf(out, "| `%s` | ", k->name);
		print_type(out, k);
		fprintf(out, " | %s | %s |\n", k->def ? k->def : "none", k->help);
	}
}

/* the rows of @sec: the harness's, then every target's ([kernel]) or policy's ([setting]) */
static void print_section_rows(FILE *out, int sec)
{
	const struct cb_target_class *cls;
	const struct cb_policy_ops *p;

	print_rows(out, cb_cfg_keys, sec);
	for (size_t i = 0; sec == SEC_KERNEL && (cls = cb_target_class_nth(i)); i++)
		print_rows(out, cls->keys, sec);
	for (size_t i = 0; sec == SEC_SETTING && (p = cb_policy_nth(i)); i++)
		print_rows(out, p->keys, sec);
}

void cb_config_doc(FILE *out)
{
	const struct cb_knob *kn;
	int sec;

	for (sec = 0; sec < SEC_NONE; sec++) {
		if (sec == SEC_SETTING) {
			fprintf(out, "### [setting NAME]\n\nA setting's own keys (the harness's, on "
				     "any kernel):\n\n| key | type | default | what it does |\n"
				     "| --- | --- | --- | --- |\n");
			print_section_rows(out, SEC_SETTING);
			fprintf(out, "\nEvery other key is a kernel knob, set (through "
				     "the restore journal) before every cell of the setting.\n\n"
				     "| key | file | values | what it does |\n| --- | --- | --- | --- |\n");
			for (kn = cb_knobs; kn->name; kn++) {
				fprintf(out, "| `%s` | `%s` | ", kn->name, kn->path);
				if (kn->type == CB_KNOB_INT) {
					fprintf(out, "%lld..%lld", kn->min, kn->max);
				} else {
					for (size_t i = 0; kn->choices[i]; i++)
						fprintf(out, "%s%s", i ? ", " : "", kn->choices[i]);
				}
				fprintf(out, " | %s |\n", kn->help);
			}
			fprintf(out, "\n");
			continue;
		}
		fprintf(out, "### [%s%s]\n\n| key | type | default | what it does |\n"
			     "| --- | --- | --- | --- |\n", cb_cfg_sec_names[sec], cb_cfg_sec_named[sec] ? " NAME" : "");
		if (sec == SEC_WORKLOAD)
			fprintf(out, "| `fragment` | program | none | the fragmenter: runs first, holds "
				     "its state until the demand ends |\n"
				     "| `demand` | program | required | the demand generator |\n"
				     "| `background` | program | none | load beside the cell (stress-ng), "
				     "from before the fragmenter to the end of the demand |\n"
				     "| `companion` | program | none | a second demand program, started "
				     "with the demand (e.g. kernel-demand beside thp-demand: mixed "
				     "demand); the demand phase ends when both have ended |\n"
				     "| `PHASE.OPTION` | per program | the program's | `--OPTION VALUE` "
				     "for that phase's program (below) |\n"
				     "| `quick.PHASE.OPTION` | per program | none | replaces "
				     "`PHASE.OPTION` with `run --quick` |\n");
		print_section_rows(out, sec);
		fprintf(out, "\n");
	}
	fprintf(out, "### Workload programs and their options\n\n");
	for (const struct wl_info *const *w = wl_all; *w; w++) {
		fprintf(out, "#### %s (%s phase)\n\n%s\n\n| option | values | default | what it "
			     "does |\n| --- | --- | --- | --- |\n", (*w)->name,
			(*w)->phase == WL_PHASE_FRAGMENT ? "fragment" :
			(*w)->phase == WL_PHASE_DEMAND ? "demand" : "background", (*w)->summary);
		for (const struct wl_option *o = (*w)->options; o->name; o++) {
			fprintf(out, "| `%s` | ", o->name);
			print_wl_type(out, o);
			fprintf(out, " | %s | %s |\n", o->def ? o->def : "none", o->help);
		}
		fprintf(out, "\n");
	}
}
