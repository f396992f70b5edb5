/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * waves_json.h - the summary.json sections of waves.h's results (schema: analysis/README.md)
 */
#ifndef CB_WAVES_JSON_H
#define CB_WAVES_JSON_H

#include "waves.h"

struct json_object;

/* cb_waves_json - the "waves" section: parameters, curve ranges and the per-wave series; NULL without waves */
struct json_object *cb_waves_json(const struct cb_waves *ws);

/* cb_breakup_json - the "breakup" section (the whole window's estimate); NULL without one */
struct json_object *cb_breakup_json(const struct cb_waves *ws);

#endif
