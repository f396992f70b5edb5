// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_merge.c - `compactbench merge OUT DIR...`: the run directories of the shards of one
 * matrix (`run --shard I/N`, on several CI runners or machines) joined into one run
 * directory that analyze, compare, gate and plot read like any run.
 *
 * Everything is checked before anything is copied: each DIR has a whole run.json, all are
 * of one config (sha256), tool version, reps and --quick, and no cell is in two of them.
 * The cell directories are copied with cp -a (no shell), then OUT/run.json is written last,
 * so an OUT without run.json is a merge that did not finish.
 */
#include "cmd.h"
#include "cmd_opt.h"
#include "xalloc.h"
#include "matrix.h"
#include "meta.h"
#include "run_json.h"
#include "run.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIST_MAX 20 /* missing cells named one by one, then "and N more" */

static const char merge_usage[] =
	"usage: compactbench merge OUT DIR...\n"
	"\n"
	"Join the run directories DIR... (the shards of one matrix, from `compactbench run\n"
	"CONFIG --shard I/N` on several runners) into the run directory OUT: every cell directory\n"
	"is copied, OUT/config.ini is the shards' config and OUT/run.json lists the cells of all\n"
	"of them in run order, with the shards in \"merged_from\". analyze, compare, gate and plot\n"
	"then read OUT like any run. Cells of the matrix that no DIR holds are listed.\n"
	"\n"
	"Refused, before anything is copied: a DIR whose run.json is missing, cut short or lacks\n"
	"a field; DIRs whose config_sha256, tool_version, reps or quick differ; a cell in two\n"
	"DIRs; an OUT that is not empty.\n"
	"\n";

static const char merge_usage_tail[] =
	"\n"
	"Exit: 0 merged, and every cell of the matrix is there and complete; 1 merged, but cells\n"
	"are missing or did not complete (listed), or a copy failed; 2 bad input (the error names\n"
	"the directory and the field).\n";

/* the options, once: getopt's tables and the usage's option lines (cmd_opt.h) */
static const struct cb_opt merge_opts[] = {
	{ "help", 'h', NULL, "this text" },
};

static const struct cb_opt_page merge_page = {
	.head = merge_usage, .opts = merge_opts, .n = CB_ARRAY_SIZE(merge_opts), .width = 12,
	.tail = merge_usage_tail,
};

/* one DIR */
struct shard {
	const char *dir;
	struct json_object *run; /* its run.json */
};

/* a run.json field as text, for comparing and printing ("null" when absent) */
static const char *field_text(struct json_object *run, const char *key)
{
	struct json_object *x = NULL;

	json_object_object_get_ex(run, key, &x);
	return x ? json_object_to_json_string_ext(x, JSON_C_TO_STRING_PLAIN) : "null";
}

/* the fields every shard must share with the first */
static int check_same(const struct shard *sh, int n)
{
	static const char *const keys[] = { "config_sha256", "tool_version", "reps", "quick",
					     "total_cells" };

	for (int i = 1; i < n; i++) {
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			char a[256];

			snprintf(a, sizeof(a), "%s", field_text(sh[0].run, keys[k]));
			if (!strcmp(a, field_text(sh[i].run, keys[k])))
				continue;
			fprintf(stderr, "compactbench merge: %s/run.json: field \"%s\" is %s, but "
				"%s/run.json has %s: only shards of one run (same config, tool version, "
				"reps and --quick) can be merged\n", sh[i].dir, keys[k],
				field_text(sh[i].run, keys[k]), sh[0].dir, a);
			return -1;
		}
	}
	return 0;
}

static int64_t cell_index(struct json_object *c)
{
	struct json_object *x;

	return json_object_object_get_ex(c, "index", &x) && x ? json_object_get_int64(x) : -1;
}

static int by_index(const void *a, const void *b)
{
	int64_t x = cell_index(*(struct json_object *const *)a);
	int64_t y = cell_index(*(struct json_object *const *)b);

	return x < y ? -1 : x > y;
}

static const char *cell_id(struct json_object *c)
{
	return json_object_get_string(json_object_object_get(c, "id"));
}

/*
 * every cell of every shard, sorted by run order, in @all (new references); the shard
 * directory of each cell id in @from. A cell id in two shards is refused.
 */
static int collect_cells(const struct shard *sh, int n, struct json_object *all,
			 struct json_object *from)
{
	struct json_object *cells, *prev;

	for (int i = 0; i < n; i++) {
		json_object_object_get_ex(sh[i].run, "cells", &cells);
		for (size_t k = 0; k < json_object_array_length(cells); k++) {
			struct json_object *c = json_object_array_get_idx(cells, k);

			if (json_object_object_get_ex(from, cell_id(c), &prev)) {
				fprintf(stderr, "compactbench merge: cell %s is in %s and in %s (the same "
					"shard twice, or shards of different --shard N?)\n", cell_id(c),
					json_object_get_string(prev), sh[i].dir);
				return -1;
			}
			json_object_object_add(from, cell_id(c), json_object_new_string(sh[i].dir));
			json_object_array_add(all, json_object_get(c));
		}
	}
	json_object_array_sort(all, by_index);
	return 0;
}

/* cp -a -- SRC DST, without a shell */
static int copy_tree(const char *src, const char *dst)
{
	char *argv[] = { "cp", "-a", "--", (char *)src, (char *)dst, NULL };
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* copy the cell directories that exist; count the cells that are not complete */
static int copy_cells(const char *out, struct json_object *all, struct json_object *from,
		      size_t *incomplete)
{
	char src[PATH_MAX], dst[PATH_MAX];

	for (size_t i = 0; i < json_object_array_length(all); i++) {
		const char *id = cell_id(json_object_array_get_idx(all, i));
		const char *dir = json_object_get_string(json_object_object_get(from, id));

		if (cb_path(src, sizeof(src), "%s/%s", dir, id) < 0 ||
		    cb_path(dst, sizeof(dst), "%s/%s", out, id) < 0)
			return -1;
		if (!cb_cell_complete(src)) {
			if (++*incomplete <= LIST_MAX)
				fprintf(stderr, "compactbench merge: %s: not complete (its meta.json "
					"is missing or does not say \"complete\")\n", src);
		}
		if (access(src, F_OK) < 0)
			continue;
		if (copy_tree(src, dst) < 0) {
			fprintf(stderr, "compactbench merge: cp -a %s %s: %s\n", src, dst,
				strerror(errno));
			return -1;
		}
	}
	if (*incomplete > LIST_MAX)
		fprintf(stderr, "compactbench merge: and %zu more cells not complete\n",
			*incomplete - LIST_MAX);
	return 0;
}

/* one missing cell, by name or by position in the run order */
static void say_missing(size_t *missing, const char *id, long long index)
{
	if (++*missing > LIST_MAX)
		return;
	if (id)
		fprintf(stderr, "compactbench merge: missing: %s (no DIR holds it)\n", id);
	else
		fprintf(stderr, "compactbench merge: missing: the cell at position %lld of the run "
			"order (no DIR holds it)\n", index);
}

/*
 * the cells of the matrix no shard holds, named from OUT/config.ini (the shards' config,
 * expanded with their reps), or by position if that config cannot be read here
 */
static size_t report_missing(const char *out, struct json_object *run, struct json_object *all,
			     struct json_object *from)
{
	struct json_object *t = json_object_object_get(run, "total_cells");
	long long total = json_object_get_int64(t);
	struct cb_config *cfg = NULL;
	struct cb_cell *cells = NULL;
	char path[PATH_MAX], err[2048];
	size_t nr = 0, missing = 0;
	bool *held;

	if (!t) {
		fprintf(stderr, "compactbench merge: the run.json files do not say how many cells "
			"the matrix has (an older compactbench): cannot tell whether cells are "
			"missing\n");
		return 0;
	}
	if (cb_path(path, sizeof(path), "%s/config.ini", out) == 0)
		cfg = cb_config_load(path, err, sizeof(err));
	if (cfg && !strcmp(cfg->sha256, json_object_get_string(json_object_object_get(
						 run, "config_sha256"))))
		cells = cb_matrix_expand(cfg, (long)json_object_get_int64(json_object_object_get(
						       run, "reps")), &nr);
	if (cells && (long long)nr == total) {
		for (size_t i = 0; i < nr; i++)
			if (!json_object_object_get_ex(from, cells[i].id, NULL))
				say_missing(&missing, cells[i].id, (long long)i);
	} else {
		held = cb_xcalloc(total > 0 ? (size_t)total : 1, sizeof(*held));
		for (size_t i = 0; i < json_object_array_length(all); i++) {
			int64_t x = cell_index(json_object_array_get_idx(all, i));

			if (x >= 0 && x < total)
				held[x] = true;
		}
		for (long long i = 0; i < total; i++)
			if (!held[i])
				say_missing(&missing, NULL, i);
		free(held);
	}
	if (missing > LIST_MAX)
		fprintf(stderr, "compactbench merge: and %zu more cells missing\n",
			missing - LIST_MAX);
	free(cells);
	cb_config_free(cfg);
	return missing;
}

/* OUT/config.ini: the first shard's copy of the config (all have the same sha256) */
static int copy_config(const char *dir, const char *out)
{
	char src[PATH_MAX], dst[PATH_MAX], *data;
	size_t len;

	if (cb_path(src, sizeof(src), "%s/config.ini", dir) < 0 ||
	    cb_path(dst, sizeof(dst), "%s/config.ini", out) < 0)
		return -1;
	data = cb_read_file(src, &len);
	if (!data) {
		fprintf(stderr, "compactbench merge: %s: cannot read: %s\n", src, strerror(errno));
		return -1;
	}
	if (cb_write_file_atomic(dst, data, len) < 0) {
		fprintf(stderr, "compactbench merge: %s: cannot write: %s\n", dst, strerror(errno));
		free(data);
		return -1;
	}
	free(data);
	return 0;
}

/* the earliest (@later false) or latest string of @key among the shards, or NULL */
static const char *extreme(const struct shard *sh, int n, const char *key, bool later)
{
	const char *best = NULL;

	for (int i = 0; i < n; i++) {
		struct json_object *x = json_object_object_get(sh[i].run, key);
		const char *s = json_object_is_type(x, json_type_string) ? json_object_get_string(x)
									 : NULL;

		if (!s)
			continue;
		if (!best || (later ? strcmp(s, best) > 0 : strcmp(s, best) < 0))
			best = s;
	}
	return best;
}

/* OUT/run.json: the shared fields of the shards, the union of their cells, the shards */
static int write_merged(const char *out, const struct shard *sh, int n, struct json_object *all,
			bool complete)
{
	static const char *const keep[] = { "schema", "config", "config_sha256", "name",
					     "tool_version", "quick", "reps", "total_cells" };
	struct json_object *o = json_object_new_object(), *pending = json_object_new_array();
	struct json_object *merged = json_object_new_array(), *x;
	char path[PATH_MAX];
	int ret;

	for (size_t k = 0; k < sizeof(keep) / sizeof(keep[0]); k++)
		if (json_object_object_get_ex(sh[0].run, keep[k], &x))
			json_object_object_add(o, keep[k], json_object_get(x));
	json_object_object_add(o, "shard", NULL);
	json_object_object_add(o, "started", cb_json_str(extreme(sh, n, "started", false)));
	json_object_object_add(o, "finished", cb_json_str(extreme(sh, n, "finished", true)));
	json_object_object_add(o, "complete", json_object_new_boolean(complete));
	for (int i = 0; i < n; i++) {
		struct json_object *m = json_object_new_object(), *p;

		json_object_object_add(m, "dir", json_object_new_string(sh[i].dir));
		if (json_object_object_get_ex(sh[i].run, "shard", &x))
			json_object_object_add(m, "shard", json_object_get(x));
		if (json_object_object_get_ex(sh[i].run, "complete", &x))
			json_object_object_add(m, "complete", json_object_get(x));
		json_object_array_add(merged, m);
		if (json_object_object_get_ex(sh[i].run, "pending", &p) &&
		    json_object_is_type(p, json_type_array))
			for (size_t k = 0; k < json_object_array_length(p); k++)
				json_object_array_add(pending,
						      json_object_get(json_object_array_get_idx(p, k)));
	}
	json_object_object_add(o, "pending", pending);
	json_object_object_add(o, "merged_from", merged);
	json_object_object_add(o, "cells", json_object_get(all));
	ret = cb_path(path, sizeof(path), "%s/run.json", out);
	if (ret == 0)
		ret = cb_json_write_atomic(path, o);
	if (ret < 0)
		fprintf(stderr, "compactbench merge: %s/run.json: cannot write: %s\n", out,
			strerror(errno));
	json_object_put(o);
	return ret;
}

int cmd_merge(int argc, char **argv)
{
	struct json_object *all = json_object_new_array(), *from = json_object_new_object();
	size_t incomplete = 0, missing;
	struct shard *sh = NULL;
	bool created = false;
	const char *out;
	char err[2048];
	struct cb_opt_parser p;
	int n = 0, c, rc = 2, full;

	cb_opt_parser_init(&p, merge_opts, CB_ARRAY_SIZE(merge_opts), 0);
	while ((c = cb_opt_next(&p, argc, argv)) != -1) {
		switch (c) {
		case 'h':
			cb_opt_page_print(stdout, &merge_page);
			rc = 0;
			goto done;
		default:
			cb_opt_bad("merge", merge_opts, CB_ARRAY_SIZE(merge_opts), argv);
			cb_opt_page_print(stderr, &merge_page);
			goto done;
		}
	}
	if (argc - optind < 2) {
		cb_opt_page_print(stderr, &merge_page);
		goto done;
	}
	out = argv[optind];
	full = cb_dir_nonempty(out);
	if (full) {
		fprintf(stderr, "compactbench merge: %s: %s; the merged run needs a new or empty "
			"directory\n", out, full < 0 ? strerror(errno) : "not empty");
		goto done;
	}
	sh = cb_xcalloc((size_t)(argc - optind - 1), sizeof(*sh));
	for (int i = optind + 1; i < argc; i++, n++) {
		sh[n].dir = argv[i];
		sh[n].run = cb_run_json_load(argv[i], err, sizeof(err));
		if (!sh[n].run) {
			fprintf(stderr, "compactbench merge: %s\n", err);
			goto done;
		}
	}
	if (check_same(sh, n) < 0 || collect_cells(sh, n, all, from) < 0)
		goto done;
	rc = 1;
	created = access(out, F_OK) < 0;
	if (cb_mkdir_p(out) < 0) {
		fprintf(stderr, "compactbench merge: %s: cannot create: %s\n", out, strerror(errno));
		goto done;
	}
	if (copy_config(sh[0].dir, out) < 0 || copy_cells(out, all, from, &incomplete) < 0)
		goto done;
	missing = report_missing(out, sh[0].run, all, from);
	if (write_merged(out, sh, n, all, !missing && !incomplete) < 0)
		goto done;
	printf("merged %d run director%s, %zu cells, into %s%s", n, n == 1 ? "y" : "ies",
	       json_object_array_length(all), out, missing || incomplete ? ": " : "\n");
	if (missing || incomplete)
		printf("%zu of the %lld cells of the matrix missing, %zu not complete\n", missing,
		       (long long)json_object_get_int64(json_object_object_get(sh[0].run,
									       "total_cells")),
		       incomplete);
	rc = missing || incomplete ? 1 : 0;
	created = false;
done:
	if (created && cb_rm_rf(out) < 0)
		fprintf(stderr, "compactbench merge: %s: cannot remove the unfinished merge: %s\n",
			out, strerror(errno));
	for (int i = 0; i < n; i++)
		json_object_put(sh[i].run);
	free(sh);
	json_object_put(all);
	json_object_put(from);
	return rc;
}
