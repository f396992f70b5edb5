/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runjson.h - a run directory's run.json and its cells' summary.json read as untrusted
 * input (a run copied from a CI artifact or another machine): bounded in size, every field
 * compare, gate, merge and analyze use checked for type and range, cell ids plain names
 * inside the run directory, no cell listed twice. Every refusal names the file and field.
 */
#ifndef CB_RUNJSON_H
#define CB_RUNJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

#define CB_RUNJSON_MAX_BYTES (16u << 20)    /* run.json: at most 16 MiB */
#define CB_RUN_MAX_CELLS 20000		    /* cells one run.json may list */
#define CB_SUMMARY_MAX_BYTES (4u << 20)	    /* summary.json: at most 4 MiB */
#define CB_META_MAX_BYTES (4u << 20)	    /* meta.json: at most 4 MiB */
#define CB_CELL_ID_MAX 255		    /* characters of a cell id (NAME_MAX) */
#define CB_RUN_NAME_MAX 63		    /* characters of a kernel, setting, workload name */
#define CB_RUN_MAX_REP 1000000		    /* the largest repetition number */

/*
 * cb_json_read_bounded - parse the JSON object in @path, refusing a file over @max bytes,
 * a file that is not one JSON object, and trailing bytes after it. Returns a new reference,
 * or NULL with "PATH: why" in @err (errno ENOENT kept for a missing file).
 */
struct json_object *cb_json_read_bounded(const char *path, size_t max, char *err, size_t errlen);

/*
 * cb_plain_name - whether @s is a name that stays inside the directory it is joined to:
 * 1 to @max characters, none of them '/', a control character or a backslash, and not
 * starting with '.' (so neither "." nor ".." nor a hidden file)
 */
bool cb_plain_name(const char *s, size_t max);

/*
 * cb_runjson_check - check the run.json object @run read from @path: "cells" an array of at
 * most CB_RUN_MAX_CELLS objects, each with a plain-name "id" (cb_plain_name, at most
 * CB_CELL_ID_MAX), plain-name "kernel", "setting", "workload" (at most CB_RUN_NAME_MAX), an
 * integer "rep" in [0, CB_RUN_MAX_REP] and, if present, an integer "index" >= 0; no id and no
 * (kernel, setting, workload, rep) twice; "config_sha256" and "tool_version" strings when
 * present; "pending" an array when present. Returns 0, or -1 with "PATH: field ..." in @err.
 */
int cb_runjson_check(const char *path, struct json_object *run, char *err, size_t errlen);

/*
 * cb_runjson_load - @dir/run.json read (cb_json_read_bounded) and checked (cb_runjson_check).
 * Returns a new reference, or NULL with the reason in @err.
 */
struct json_object *cb_runjson_load(const char *dir, char *err, size_t errlen);

/*
 * cb_meta_window - the measured window of the cell in @cell_dir, from its meta.json
 * ("window": start_ns, end_ns; CLOCK_MONOTONIC, the trace clock "mono"), read bounded
 * (CB_META_MAX_BYTES). Returns 0, or -1 with both set to 0 when the file, the object or a
 * time is missing, or the end is before the start.
 */
int cb_meta_window(const char *cell_dir, uint64_t *start_ns, uint64_t *end_ns);

/*
 * cb_summary_json_load - @path (a cell's summary.json) read and checked: at most
 * CB_SUMMARY_MAX_BYTES, "schema" the integer CB_SUMMARY_SCHEMA, "metrics" an object whose
 * every metric of the table is absent, null or a finite number, "lost_events" a boolean
 * when present, "compaction_runs" as cb_cruns_read checks it when present. Returns a new
 * reference, or NULL with "PATH: field ..." in @err.
 */
struct json_object *cb_summary_json_load(const char *path, char *err, size_t errlen);

/*
 * cb_cell_pending - whether the cell of @kernel in @cell_dir, listed in the run.json @run,
 * waits for its kernel: it has no meta.json and its kernel is under run.json's "pending"
 * (another kernel was booted; `run --resume` after a reboot runs it). Such a cell is
 * neither analyzed nor a failure. Writes "pending (kernel K not booted yet)" to @why.
 * A cell that never ran in an interrupted run stays a cell left out: the run did not
 * plan to leave it.
 */
bool cb_cell_pending(struct json_object *run, const char *kernel, const char *cell_dir,
		     char *why, size_t whylen);

#endif
