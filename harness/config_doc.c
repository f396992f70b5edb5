// SPDX-License-Identifier: GPL-2.0-only
/*
 * config_doc.c - `compactbench config doc`: the key reference of configs/README.md, made
 * from the key table, the knob table and the workload programs' option tables.
 */
#include "config_int.h"
#include "knobs.h"
#include "wl_info.h"

#include <stdio.h>

static const char *const key_type_names[] = { "integer", "duration", "size", "one of", "text",
					      "list" };

void cb_config_doc(FILE *out)
{
	const struct cfg_key *k;
	const struct cb_knob *kn;
	int sec;

	for (sec = 0; sec < SEC_NONE; sec++) {
		if (sec == SEC_SETTING) {
			fprintf(out, "### [setting NAME]\n\nA setting's own keys (the harness's, on "
				     "any kernel):\n\n| key | type | default | what it does |\n"
				     "| --- | --- | --- | --- |\n");
			for (k = cb_cfg_keys; k->sec != SEC_NONE; k++)
				if (k->sec == SEC_SETTING)
					fprintf(out, "| `%s` | %s | %s | %s |\n", k->name,
						key_type_names[k->type], k->def ? k->def : "none",
						k->help);
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
		for (k = cb_cfg_keys; k->sec != SEC_NONE; k++) {
			if ((int)k->sec != sec)
				continue;
			fprintf(out, "| `%s` | %s", k->name, key_type_names[k->type]);
			if (k->type == KT_ENUM)
				for (size_t i = 0; k->choices[i]; i++)
					fprintf(out, "%s%s", i ? ", " : " ", k->choices[i]);
			fprintf(out, " | %s | %s |\n", k->def ? k->def : "none", k->help);
		}
		fprintf(out, "\n");
	}
	fprintf(out, "### Workload programs and their options\n\n");
	for (const struct wl_info *const *w = wl_all; *w; w++) {
		fprintf(out, "#### %s (%s phase)\n\n%s\n\n| option | default | what it does |\n"
			     "| --- | --- | --- |\n", (*w)->name,
			(*w)->phase == WL_PHASE_FRAGMENT ? "fragment" :
			(*w)->phase == WL_PHASE_DEMAND ? "demand" : "background", (*w)->summary);
		for (const struct wl_option *o = (*w)->options; o->name; o++)
			fprintf(out, "| `%s` | %s | %s |\n", o->name, o->def ? o->def : "none", o->help);
		fprintf(out, "\n");
	}
}
