// SPDX-License-Identifier: GPL-2.0-only
/*
 * wlt.c - run a workload program for a test: capture its output, signal it on cue, parse
 * its JSON lines. No timing is involved: the cue is text the program prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wlt.h"

struct buf {
	char *data;
	size_t len, cap;
};

/* read what is there from @fd into @b; returns 0 at EOF, 1 if more may come */
static int drain(int fd, struct buf *b)
{
	char chunk[65536];
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (n == 0)
		return 0;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap : 65536);
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->data, cap);
		if (!p)
			abort();
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, chunk, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 1;
}

static void spawn_child(char *const argv[], int out[2], int err[2])
{
	dup2(out[1], STDOUT_FILENO);
	dup2(err[1], STDERR_FILENO);
	close(out[0]);
	close(err[0]);
	execv(argv[0], argv);
	fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* split stdout into lines and parse each as a JSON object with a "type" */
static void parse_lines(struct wlt_result *r)
{
	char *line = r->out, *nl;

	r->json_ok = true;
	while (line && *line) {
		struct json_object *o;

		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		o = json_tokener_parse(line);
		if (!o || !json_object_is_type(o, json_type_object) || !wlt_get_str(o, "type")) {
			fprintf(stderr, "not a JSON line with a type: %s\n", line);
			r->json_ok = false;
		}
		r->lines = realloc(r->lines, (r->nlines + 1) * sizeof(*r->lines));
		r->lines[r->nlines++] = o;
		if (nl)
			*nl = '\n';
		line = nl ? nl + 1 : NULL;
	}
}

/*
 * wlt_run - run @argv (argv[0] a path) to its end, capturing stdout and stderr
 * @trigger: NULL, or a signal to send when a text appears
 * Returns 0, or -1 if it could not be started.
 */
int wlt_run(char *const argv[], const struct wlt_trigger *trigger, struct wlt_result *r)
{
	struct buf out = { 0 }, err = { 0 };
	int po[2], pe[2], st;
	struct pollfd pfd[2];
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		spawn_child(argv, po, pe);
	close(po[1]);
	close(pe[1]);
	pfd[0] = (struct pollfd){ .fd = po[0], .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = pe[0], .events = POLLIN };
	while (pfd[0].fd >= 0 || pfd[1].fd >= 0) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents && !drain(po[0], &out))
			pfd[0].fd = -1;
		if (pfd[1].revents && !drain(pe[0], &err))
			pfd[1].fd = -1;
		if (trigger && !r->sent) {
			const struct buf *b = trigger->on_stdout ? &out : &err;

			if (b->data && strstr(b->data, trigger->text)) {
				if (trigger->on_cue)
					trigger->on_cue(pid, trigger->arg);
				kill(pid, trigger->sig);
				r->sent = true;
			}
		}
	}
	close(po[0]);
	close(pe[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	r->killed = WIFSIGNALED(st);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->out = out.data ? out.data : strdup("");
	r->err = err.data ? err.data : strdup("");
	parse_lines(r);
	return 0;
}

/* wlt_free - free what wlt_run put in @r */
void wlt_free(struct wlt_result *r)
{
	size_t i;

	for (i = 0; i < r->nlines; i++)
		json_object_put(r->lines[i]);
	free(r->lines);
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

/* wlt_find - the first line of @r whose "type" is @type (and "phase" is @phase if not NULL) */
struct json_object *wlt_find(const struct wlt_result *r, const char *type, const char *phase)
{
	size_t i;

	for (i = 0; i < r->nlines; i++) {
		const char *t = wlt_get_str(r->lines[i], "type");
		const char *p = wlt_get_str(r->lines[i], "phase");

		if (t && !strcmp(t, type) && (!phase || (p && !strcmp(p, phase))))
			return r->lines[i];
	}
	return NULL;
}

/* wlt_get_int - the integer member @key of @o (-1 if missing) */
long long wlt_get_int(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return -1;
	return json_object_get_int64(v);
}

/* wlt_get_bool - the boolean member @key of @o (false if missing) */
bool wlt_get_bool(struct json_object *o, const char *key)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

/* wlt_get_str - the string member @key of @o (NULL if missing or not a string) */
const char *wlt_get_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* wlt_stderr_clean - every stderr line starts with "@prog: " (no crash or stray output) */
bool wlt_stderr_clean(const struct wlt_result *r, const char *prog)
{
	size_t plen = strlen(prog);
	const char *line = r->err;

	while (line && *line) {
		if (strncmp(line, prog, plen) || strncmp(line + plen, ": ", 2)) {
			fprintf(stderr, "stray stderr line: %.*s\n", (int)strcspn(line, "\n"), line);
			return false;
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return true;
}

/* wlt_path_of - the argument of @argv (@argc of them) whose base name is @name, or NULL */
const char *wlt_path_of(int argc, char **argv, const char *name)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *base = strrchr(argv[i], '/');

		if (!strcmp(base ? base + 1 : argv[i], name))
			return argv[i];
	}
	return NULL;
}
