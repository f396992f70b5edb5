/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wlt.h - helpers for the workload program tests: run a program with its output captured,
 * optionally sending it a signal when a given text shows up, and read its JSON lines.
 */
#ifndef CB_WLT_H
#define CB_WLT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <json-c/json.h>

/*
 * send @sig once @text has appeared on stdout (@on_stdout) or stderr; @on_cue, if set, is
 * called with the program's pid first (to look at the program while it is in that state)
 */
struct wlt_trigger {
	const char *text;
	bool on_stdout;
	int sig;
	void (*on_cue)(pid_t pid, void *arg);
	void *arg;
};

struct wlt_result {
	int status;	/* exit status, or 128 + signal if it was killed */
	bool killed;	/* it died of a signal (did not exit) */
	bool sent;	/* the trigger fired */
	char *out, *err; /* everything it wrote, NUL-terminated */
	struct json_object **lines; /* stdout parsed, one object per line */
	size_t nlines;
	bool json_ok;	/* every stdout line was a JSON object with a string "type" */
};

/*
 * wlt_run - run @argv (argv[0] a path) to its end, capturing stdout and stderr
 * @trigger: NULL, or a signal to send when a text appears
 * Returns 0, or -1 if it could not be started.
 */
int wlt_run(char *const argv[], const struct wlt_trigger *trigger, struct wlt_result *r);

/* wlt_free - free what wlt_run put in @r */
void wlt_free(struct wlt_result *r);

/* wlt_find - the first line of @r whose "type" is @type (and "phase" is @phase if not NULL) */
struct json_object *wlt_find(const struct wlt_result *r, const char *type, const char *phase);

/* wlt_get_int - the integer member @key of @o (-1 if missing) */
long long wlt_get_int(struct json_object *o, const char *key);

/* wlt_get_bool - the boolean member @key of @o (false if missing) */
bool wlt_get_bool(struct json_object *o, const char *key);

/* wlt_get_str - the string member @key of @o (NULL if missing or not a string) */
const char *wlt_get_str(struct json_object *o, const char *key);

/* wlt_path_of - the argument of @argv (@argc of them) whose base name is @name, or NULL */
const char *wlt_path_of(int argc, char **argv, const char *name);

/* wlt_stderr_clean - every stderr line starts with "@prog: " (no crash or stray output) */
bool wlt_stderr_clean(const struct wlt_result *r, const char *prog);

#endif
