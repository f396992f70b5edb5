// SPDX-License-Identifier: GPL-2.0-only
/*
 * target_ssh.c - the ssh target: cells run on a lab machine reached with the system's ssh
 * and scp (as root there), by the same `compactbench agent` the qemu guest runs.
 *
 * Remote layout under [kernel] remote_dir (R), marked as ours by R/.compactbench:
 *   R/bin/compactbench   this binary            R/lib/      its and the workloads' libraries
 *   R/workloads/PROG     the workload programs  R/run/      config.ini and the cell directories
 * Every library ldd names is copied except glibc's own (libc, libm, ld-linux...): the remote
 * needs a glibc at least as new as this machine's (the same or a newer Debian); prepare runs
 * every copied program there and stops with the loader's message if one cannot start.
 *
 * Knobs: the agent sets them through its restore journal on the remote side (R's
 * remote_state_dir, else the agent's /run/compactbench). The cell runs under `ssh -tt`, so
 * when the session dies (ssh killed, link down, our timeout) the remote agent gets SIGHUP
 * and restores them; a journal an agent could not replay (it was SIGKILLed too) is
 * replayed by `compactbench restore` there at the next prepare, and at teardown.
 */
#include "ldd.h"
#include "meta.h"
#include "shquote.h"
#include "ssh.h"
#include "target.h"
#include "util.h"
#include "xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <json-c/json.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_KERNELS 64
#define MAX_FILES 256
#define PREPARE_TIMEOUT_S 120.0
#define COPY_TIMEOUT_S 900.0
/* around the workload's own limits: start state, collector, the fragmenter's grace */
#define CELL_MARGIN_S 300.0

/* glibc's own libraries: the remote loader must bring these, copies would not match it */
static const char *const glibc_libs[] = {
	"ld-linux", "libc.so", "libm.so", "libpthread.so", "libdl.so", "librt.so", "libresolv.so",
	"libutil.so", "libmvec.so", "libanl.so", "libnsl.so", "libBrokenLocale.so", NULL,
};

static struct {
	struct cb_ssh ssh[MAX_KERNELS];
	bool prepared[MAX_KERNELS];
	bool config_sent[MAX_KERNELS];
	char hostname[MAX_KERNELS][256]; /* `uname -n` there */
	int agent_exit;			 /* of the last cell */
	double cell_s;
} ss;

/* the files to copy: unique by base name (the name the loader looks for) */
struct files {
	char *path[MAX_FILES];
	size_t nr;
};

static int kidx(const struct cb_run *run, const struct cb_kernel *k)
{
	return (int)(k - run->cfg->kernels);
}

/*
 * A remote command from @fmt: %q takes the next argument as one quoted shell word, %s as
 * is (our constant text only). The whole goes to /bin/sh -c as one more quoted word, so
 * the remote login shell may be any shell.
 */
static char *shell_cmd(const char *fmt, ...)
{
	char *script = NULL, *cmd = NULL, *q;
	size_t len = 0;
	FILE *f = open_memstream(&script, &len);
	va_list ap;

	if (!f)
		cb_oom();
	va_start(ap, fmt);
	for (const char *p = fmt; *p; p++) {
		if (*p != '%' || !p[1]) {
			fputc(*p, f);
			continue;
		}
		p++;
		if (*p == 'q')
			cb_sh_quote(f, va_arg(ap, const char *));
		else if (*p == 's')
			fputs(va_arg(ap, const char *), f);
		else
			fputc(*p, f);
	}
	va_end(ap);
	fclose(f);
	q = cb_sh_quoted(script);
	cmd = cb_xasprintf("exec /bin/sh -c %s", q);
	free(q);
	free(script);
	return cmd;
}

static void files_add(struct files *fl, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	for (size_t i = 0; i < fl->nr; i++) {
		const char *b = strrchr(fl->path[i], '/') + 1;

		if (!strcmp(b, base))
			return;
	}
	if (fl->nr >= MAX_FILES)
		abort(); /* MAX_FILES is far above any program's libraries: a bug, not memory */
	fl->path[fl->nr] = cb_xstrdup(path);
	fl->nr++;
}

static void files_free(struct files *fl)
{
	for (size_t i = 0; i < fl->nr; i++)
		free(fl->path[i]);
	fl->nr = 0;
}

static bool is_glibc(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	for (size_t i = 0; glibc_libs[i]; i++)
		if (!strncmp(base, glibc_libs[i], strlen(glibc_libs[i])))
			return true;
	return false;
}

/* a library cb_ldd_libs lists, glibc's own left out (a static program has none) */
static int add_lib(const char *path, void *libs)
{
	if (!is_glibc(path))
		files_add(libs, path);
	return 0;
}

/* the libraries ldd lists for @elf, glibc's own left out */
static void add_libs(struct files *libs, const char *elf)
{
	cb_ldd_libs(elf, add_lib, libs);
}

/*
 * What the cells need there: this binary, the workload programs of the matrix (ours are
 * copied; installed ones such as stress-ng must be installed there, named in @installed
 * as a list of quoted words), their libraries.
 */
static int gather(struct cb_run *run, struct files *bin, struct files *wls, struct files *libs,
		  char **installed)
{
	char self[PATH_MAX], prog[PATH_MAX];
	size_t len = 0;
	FILE *f = open_memstream(installed, &len);
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (!f)
		cb_oom();
	if (n < 0) {
		fclose(f);
		cb_run_set_err(run, "/proc/self/exe: %s", strerror(errno));
		return -1;
	}
	self[n] = '\0';
	files_add(bin, self);
	add_libs(libs, self);
	for (size_t w = 0; w < run->cfg->nr_workloads; w++) {
		for (int p = 0; p < CB_NR_PHASES; p++) {
			const struct wl_info *wl = run->cfg->workloads[w].phase[p].wl;

			if (!wl)
				continue;
			if (cb_workload_program(run, wl, prog, sizeof(prog)) < 0)
				continue;
			if (wl->path) {
				fputc(' ', f);
				cb_sh_quote(f, prog);
				continue;
			}
			if (access(prog, X_OK) < 0) {
				fclose(f);
				cb_run_set_err(run, "workload program %s: %s (built? set "
					       "COMPACTBENCH_WORKLOADS)", prog, strerror(errno));
				return -1;
			}
			files_add(wls, prog);
			add_libs(libs, prog);
		}
	}
	fclose(f);
	return 0;
}

/* each line of @text as a log line naming @host */
static void relay(const char *host, const char *text)
{
	char *copy = cb_xstrdup(text), *line, *save = NULL;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		cb_log("%s: %s", host, line);
	free(copy);
}

/* the environment of every compactbench run there: libraries, workloads, journal */
#define REMOTE_ENV                                                                          \
	"export LD_LIBRARY_PATH=\"$R/lib\" COMPACTBENCH_WORKLOADS=\"$R/workloads\"; "       \
	"[ -z \"$S\" ] || export COMPACTBENCH_STATE_DIR=\"$S\"; "

static const char *state_dir(const struct cb_kernel *k)
{
	const struct cb_ssh_conf *kc = cb_ssh_conf(k);

	return kc->remote_state_dir ? kc->remote_state_dir : "";
}

/* connect, check root, claim R, start R/run afresh */
static int remote_init(struct cb_run *run, int i)
{
	const struct cb_ssh *s = &ss.ssh[i];
	const struct cb_kernel *k = s->k;
	struct cb_ssh_io io = { .log_fd = -1, .interruptible = true };
	char *cmd, *id;
	long uid = -1;
	int rc;
	const struct cb_ssh_conf *kc = cb_ssh_conf(k);

	cmd = shell_cmd("R=%q; "
			"if [ -d \"$R\" ] && [ ! -e \"$R/.compactbench\" ] && [ -n \"$(ls -A \"$R\")\" ]; "
			"then echo \"cb-ssh: $R exists, is not empty and has no .compactbench mark: not "
			"a compactbench work directory (choose another remote_dir)\"; exit 3; fi; "
			"mkdir -p \"$R/bin\" \"$R/lib\" \"$R/workloads\" && touch \"$R/.compactbench\" && "
			"rm -rf \"$R/run\" && mkdir \"$R/run\" || exit 3; "
			"echo \"cb-ssh: id $(id -u) $(uname -n)\"",
			kc->remote_dir);
	rc = cb_ssh_run(s, cmd, false, PREPARE_TIMEOUT_S, &io);
	free(cmd);
	if (rc != 0) {
		char what[128];

		snprintf(what, sizeof(what), "[kernel %s] connecting", k->name);
		cb_ssh_describe(s, rc, what, io.tail, run->err, sizeof(run->err));
		return -1;
	}
	id = strstr(io.tail, "cb-ssh: id ");
	if (id)
		sscanf(id, "cb-ssh: id %ld %255s", &uid, ss.hostname[i]);
	if (uid != 0) {
		cb_run_set_err(run, "[kernel %s]: %s logs in as uid %ld: the ssh target needs root "
			       "there (the agent sets sysctls and traces the kernel): "
			       "host = root@...", k->name, kc->host, uid);
		return -1;
	}
	return 0;
}

/* copy the programs and libraries; check each runs there; replay a left-over journal */
static int remote_install(struct cb_run *run, int i)
{
	const struct cb_ssh *s = &ss.ssh[i];
	const struct cb_kernel *k = s->k;
	struct cb_ssh_io io = { .log_fd = -1, .interruptible = true };
	struct files bin = { 0 }, wls = { 0 }, libs = { 0 };
	char *installed = NULL, *cmd, dest[PATH_MAX + 16], what[128];
	int rc = -1, r;
	const struct cb_ssh_conf *kc = cb_ssh_conf(k);

	snprintf(what, sizeof(what), "[kernel %s] copying the programs", k->name);
	if (gather(run, &bin, &wls, &libs, &installed) < 0)
		goto out;
	static const char *const sub[] = { "bin", "workloads", "lib" };
	struct files *sets[] = { &bin, &wls, &libs };

	for (int d = 0; d < 3; d++) {
		if (!sets[d]->nr)
			continue;
		snprintf(dest, sizeof(dest), "%s/%s/", kc->remote_dir, sub[d]);
		r = cb_ssh_put(s, (const char *const *)sets[d]->path, sets[d]->nr, dest, COPY_TIMEOUT_S,
			       &io);
		if (r != 0) {
			cb_ssh_describe(s, r, what, io.tail, run->err,
					sizeof(run->err));
			goto out;
		}
	}
	cb_log("%s: copied compactbench, %zu workload program%s and %zu librar%s into %s", kc->host,
	       wls.nr, wls.nr == 1 ? "" : "s", libs.nr, libs.nr == 1 ? "y" : "ies", kc->remote_dir);
	cmd = shell_cmd("R=%q; S=%q; " REMOTE_ENV
			"\"$R/bin/compactbench\" --version >/dev/null || { echo \"cb-ssh: "
			"$R/bin/compactbench does not run on $(uname -n); its libraries were copied "
			"except glibc's: the remote needs glibc >= %s (this machine's)\"; exit 3; }; "
			"for w in \"$R\"/workloads/*; do [ -e \"$w\" ] || continue; "
			"\"$w\" --help >/dev/null || { echo \"cb-ssh: $w does not run on $(uname -n)\"; "
			"exit 3; }; done; "
			"for p in %s; do [ -x \"$p\" ] || { echo \"cb-ssh: $p is not installed on "
			"$(uname -n) (the matrix runs it)\"; exit 3; }; done; "
			"\"$R/bin/compactbench\" restore",
			kc->remote_dir, state_dir(k), gnu_get_libc_version(), installed);
	r = cb_ssh_run(s, cmd, false, PREPARE_TIMEOUT_S, &io);
	free(cmd);
	relay(kc->host, io.tail);
	if (r != 0) {
		snprintf(what, sizeof(what), "[kernel %s] checking the programs, replaying the journal",
			 k->name);
		cb_ssh_describe(s, r, what, io.tail, run->err, sizeof(run->err));
		goto out;
	}
	rc = 0;
out:
	files_free(&bin);
	files_free(&wls);
	files_free(&libs);
	free(installed);
	return rc;
}

/* a relative identity is relative to the config file's directory */
static void resolve_identity(const struct cb_run *run, const struct cb_kernel *k, char *buf,
			     size_t size)
{
	char *dup = strdup(run->cfg->path);
	const struct cb_ssh_conf *kc = cb_ssh_conf(k);

	buf[0] = '\0';
	if (!kc->identity)
		;
	else if (kc->identity[0] == '/' || !dup || cb_path(buf, size, "%s/%s", dirname(dup),
							   kc->identity) < 0)
		cb_path(buf, size, "%s", kc->identity);
	free(dup);
}

static int ssh_prepare(struct cb_run *run)
{
	for (size_t i = 0; i < run->cfg->nr_kernels; i++) {
		const struct cb_kernel *k = &run->cfg->kernels[i];
		const struct cb_ssh_conf *kc = cb_ssh_conf(k);

		if (k->cls != &cb_target_ssh_class)
			continue;
		if (i >= MAX_KERNELS) {
			cb_run_set_err(run, "the ssh target takes at most %d kernels", MAX_KERNELS);
			return -1;
		}
		ss.ssh[i].k = k;
		ss.config_sent[i] = false;
		resolve_identity(run, k, ss.ssh[i].identity, sizeof(ss.ssh[i].identity));
		if (ss.ssh[i].identity[0] && access(ss.ssh[i].identity, R_OK) < 0) {
			cb_run_set_err(run, "%s:%d: [kernel %s] identity %s: %s", run->cfg->path,
				       k->line, k->name, ss.ssh[i].identity, strerror(errno));
			return -1;
		}
		cb_log("ssh: [kernel %s] on %s:%s", k->name, kc->host, kc->remote_dir);
		if (remote_init(run, (int)i) < 0)
			return -1;
		/* from here on teardown replays the remote journal */
		ss.prepared[i] = true;
		if (remote_install(run, (int)i) < 0)
			return -1;
	}
	return 0;
}

/* add how and where the cell ran to the fetched meta.json; the agent's status and error */
static int annotate(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir,
		    char *status, size_t status_size)
{
	const struct cb_kernel *k = cell->kernel;
	struct json_object *meta, *o, *st, *er;
	char path[PATH_MAX];
	const struct cb_ssh_conf *kc = cb_ssh_conf(k);

	if (cb_path(path, sizeof(path), "%s/meta.json", cell_dir) < 0 ||
	    !(meta = json_object_from_file(path))) {
		cb_run_set_err(run, "%s: the agent on %s wrote no meta.json (see %s/ssh.log)",
			       cell->id, kc->host, cell_dir);
		return -1;
	}
	o = json_object_new_object();
	json_object_object_add(o, "host", json_object_new_string(kc->host));
	json_object_object_add(o, "hostname", json_object_new_string(ss.hostname[kidx(run, k)]));
	json_object_object_add(o, "port", kc->port ? json_object_new_int64(kc->port) : NULL);
	json_object_object_add(o, "remote_dir", json_object_new_string(kc->remote_dir));
	json_object_object_add(o, "remote_state_dir", cb_json_str(kc->remote_state_dir));
	json_object_object_add(o, "agent_exit", json_object_new_int(ss.agent_exit));
	json_object_object_add(o, "ssh_s", json_object_new_double(ss.cell_s));
	json_object_object_add(meta, "ssh", o);
	cb_json_write_atomic(path, meta);
	snprintf(status, status_size, "%s", json_object_object_get_ex(meta, "status", &st) ?
		 json_object_get_string(st) : "");
	if (strcmp(status, "complete"))
		cb_run_set_err(run, "the agent on %s says %s: %s", kc->host, status,
			json_object_object_get_ex(meta, "error", &er) && er ?
			json_object_get_string(er) : "(no error recorded)");
	json_object_put(meta);
	return 0;
}

/* bring R/run/CELL back into the run directory (merging with ssh.log), then remove it there */
static int get_cell(struct cb_run *run, const struct cb_cell *cell)
{
	const struct cb_ssh *s = &ss.ssh[kidx(run, cell->kernel)];
	struct cb_ssh_io io = { .log_fd = -1 };
	char src[PATH_MAX], *cmd;
	const struct cb_ssh_conf *sc = cb_ssh_conf(s->k);
	int rc;

	snprintf(src, sizeof(src), "%s/run/%s", sc->remote_dir, cell->id);
	rc = cb_ssh_get(s, src, run->dir, COPY_TIMEOUT_S, &io);
	if (rc != 0) {
		cb_ssh_describe(s, rc, "fetching the cell", io.tail, run->err, sizeof(run->err));
		return -1;
	}
	cmd = shell_cmd("rm -rf %q", src);
	rc = cb_ssh_run(s, cmd, false, PREPARE_TIMEOUT_S, &io);
	free(cmd);
	if (rc != 0)
		cb_log("%s: could not remove %s there: %s", sc->host, src, io.tail);
	return 0;
}

static int send_config(struct cb_run *run, int i)
{
	const struct cb_ssh *s = &ss.ssh[i];
	struct cb_ssh_io io = { .log_fd = -1, .interruptible = true };
	char local[PATH_MAX], dest[PATH_MAX];
	const char *src[1] = { local };
	int rc;
	const struct cb_ssh_conf *sc = cb_ssh_conf(s->k);

	if (ss.config_sent[i])
		return 0;
	if (cb_path(local, sizeof(local), "%s/config.ini", run->dir) < 0 ||
	    cb_path(dest, sizeof(dest), "%s/run/config.ini", sc->remote_dir) < 0)
		return -1;
	rc = cb_ssh_put(s, src, 1, dest, COPY_TIMEOUT_S, &io);
	if (rc != 0) {
		cb_ssh_describe(s, rc, "copying the config", io.tail, run->err, sizeof(run->err));
		return -1;
	}
	ss.config_sent[i] = true;
	return 0;
}

static int ssh_run_cell(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir)
{
	const struct cb_kernel *k = cell->kernel;
	const struct cb_workload *w = cell->workload;
	int i = kidx(run, k), rc, fd;
	struct cb_ssh_io io = { .interruptible = true };
	char log[PATH_MAX], status[32], *cmd;
	double limit = w->ready_timeout_s + w->timeout_s + w->settle_s + run->cfg->cooldown_s +
		       CELL_MARGIN_S;
	uint64_t t0;
	const struct cb_ssh_conf *kc = cb_ssh_conf(k);

	if (!ss.prepared[i]) {
		cb_run_set_err(run, "[kernel %s]: the ssh target was not prepared", k->name);
		return -1;
	}
	if (send_config(run, i) < 0)
		return -1;
	if (cb_mkdir_p(cell_dir) < 0 || cb_path(log, sizeof(log), "%s/ssh.log", cell_dir) < 0 ||
	    (fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0) {
		cb_run_set_err(run, "%s: %s", cell_dir, strerror(errno));
		return -1;
	}
	io.log_fd = fd;
	cmd = shell_cmd("R=%q; S=%q; " REMOTE_ENV
			"exec \"$R/bin/compactbench\" agent --target ssh %s \"$R/run/config.ini\" %q "
			"\"$R/run\"",
			kc->remote_dir, state_dir(k), run->quick ? "--quick" : "", cell->id);
	cb_timing_lap(&run->timing, CB_PART_SETUP);
	t0 = cb_now_ns();
	/* -tt: the agent leads the session of a pty, so a dead session is a SIGHUP to it */
	rc = cb_ssh_run(&ss.ssh[i], cmd, true, limit, &io);
	ss.cell_s = (cb_now_ns() - t0) / 1e9;
	/* the remote agent's parts come from its meta.json; ssh's own time stays unaccounted */
	cb_timing_lap_remote(&run->timing);
	free(cmd);
	close(fd);
	ss.agent_exit = rc;
	if (rc != 0 && rc != 1) {
		cb_ssh_describe(&ss.ssh[i], rc, "the cell", io.tail, run->err, sizeof(run->err));
		return -1;
	}
	/* the agent ran: complete or failed, its cell directory says which and why */
	rc = get_cell(run, cell) < 0 || annotate(run, cell, cell_dir, status, sizeof(status)) < 0;
	cb_timing_lap(&run->timing, CB_PART_FETCH);
	if (rc)
		return -1;
	return strcmp(status, "complete") ? -1 : 0;
}

static int ssh_fetch(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir)
{
	return 0; /* run_cell fetched the cell: a failed cell's directory comes back too */
}

static void ssh_teardown(struct cb_run *run)
{
	for (size_t i = 0; i < run->cfg->nr_kernels && i < MAX_KERNELS; i++) {
		const struct cb_ssh *s = &ss.ssh[i];
		struct cb_ssh_io io = { .log_fd = -1 };
		char *cmd, why[2048];
		const struct cb_ssh_conf *sc;
		int rc;

		if (!ss.prepared[i])
			continue;
		ss.prepared[i] = false;
		sc = cb_ssh_conf(s->k);
		cmd = shell_cmd("R=%q; S=%q; " REMOTE_ENV "\"$R/bin/compactbench\" restore",
				sc->remote_dir, state_dir(s->k));
		rc = cb_ssh_run(s, cmd, false, PREPARE_TIMEOUT_S, &io);
		free(cmd);
		relay(sc->host, io.tail);
		if (rc != 0) {
			cb_ssh_describe(s, rc, "restoring the knobs", io.tail, why, sizeof(why));
			cb_log("%s; its agent restores on the hang-up, else the next run's prepare "
			       "replays the journal there (or run `compactbench restore` there%s%s)",
			       why, sc->remote_state_dir ? " with COMPACTBENCH_STATE_DIR=" : "",
			       state_dir(s->k));
		}
	}
}

const struct cb_target_ops cb_target_ssh = {
	.name = "ssh",
	.prepare = ssh_prepare,
	.run_cell = ssh_run_cell,
	.fetch = ssh_fetch,
	.teardown = ssh_teardown,
};

/* a remote path the harness creates, copies into and replaces parts of: plain and absolute */
static bool remote_path_ok(const char *p)
{
	if (p[0] != '/' || !strcmp(p, "/") || strstr(p, "/../") || strstr(p, "/./") ||
	    strstr(p, "//"))
		return false;
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("/._+-", *p))
			return false;
	return true;
}

/* the ssh keys: a host ssh cannot take for an option, plain remote paths */
static int ssh_verify(const struct cb_kernel *k, char *why, size_t len)
{
	const struct cb_ssh_conf *kc = cb_ssh_conf(k);
	const char *h = kc->host;

	if (!h) {
		snprintf(why, len, "[kernel %s]: target ssh needs key 'host' ([user@]host of the lab "
			 "machine)", k->name);
		return -1;
	}
	if (!*h || h[0] == '-' || strpbrk(h, " \t\n\r'\"`$;&|<>()*?[]{}\\")) {
		snprintf(why, len, "[kernel %s] key 'host': '%s' is not a [user@]host (no leading "
			 "'-', blanks or shell characters)", k->name, h);
		return -1;
	}
	if (!remote_path_ok(kc->remote_dir) ||
	    (kc->remote_state_dir && !remote_path_ok(kc->remote_state_dir))) {
		snprintf(why, len, "[kernel %s]: remote_dir and remote_state_dir must be absolute "
			 "paths other than / of letters, digits, '/', '.', '_', '+', '-'", k->name);
		return -1;
	}
	for (size_t i = 0; kc->ssh_options && kc->ssh_options[i]; i++) {
		if (!strchr(kc->ssh_options[i], '=') || kc->ssh_options[i][0] == '-') {
			snprintf(why, len, "[kernel %s] key 'ssh_options': '%s' is not KEY=VALUE",
				 k->name, kc->ssh_options[i]);
			return -1;
		}
	}
	return 0;
}

#define SSH(f) CB_KEY_PRIV(struct cb_ssh_conf, f)

static const struct cfg_key ssh_keys[] = {
	{ SEC_KERNEL, "host", KT_STRING, NULL, 0, 0, NULL, SSH(host),
	  "ssh target: the lab machine, [user@]host as ssh takes it (root there: the agent sets "
	  "sysctls); runs with BatchMode=yes, so a key must log in without a prompt" },
	{ SEC_KERNEL, "port", KT_INT, NULL, 1, 65535, NULL, SSH(port),
	  "ssh target: the ssh port (default: ssh's own, 22 or ~/.ssh/config)" },
	{ SEC_KERNEL, "identity", KT_STRING, NULL, 0, 0, NULL, SSH(identity),
	  "ssh target: the private key file (ssh -i; relative to this file's directory)" },
	{ SEC_KERNEL, "remote_dir", KT_STRING, "/var/tmp/compactbench", 0, 0, NULL, SSH(remote_dir),
	  "ssh target: the remote work directory (absolute; letters, digits, / . _ + -): the agent, "
	  "the workload programs and their libraries are copied into it, cells are written there "
	  "and fetched back; an existing non-empty directory must be one compactbench made" },
	{ SEC_KERNEL, "remote_state_dir", KT_STRING, NULL, 0, 0, NULL, SSH(remote_state_dir),
	  "ssh target: the remote agent's COMPACTBENCH_STATE_DIR, where its restore journal lives "
	  "(default: the agent's, /run/compactbench)" },
	{ SEC_KERNEL, "ssh_options", KT_LIST, NULL, 0, 0, NULL, SSH(ssh_options),
	  "ssh target: extra ssh/scp options, comma-separated KEY=VALUE, each passed as -o "
	  "KEY=VALUE before the defaults (e.g. UserKnownHostsFile=/path, ProxyJump=gw)" },
	{ .name = NULL },
};

static void *ssh_alloc(void)
{
	return cb_xcalloc(1, sizeof(struct cb_ssh_conf));
}

static void ssh_free(void *priv)
{
	cb_cfg_keys_free(ssh_keys, priv);
}

/* run.json says which machine ran an ssh kernel's cells */
static const char *ssh_machine(const struct cb_kernel *k)
{
	return cb_ssh_conf(k)->host;
}

/* nothing to check here: the lab machine is not reached before the run */
static int ssh_check(const struct cb_config *cfg, const struct cb_kernel *k, const char *root,
		     FILE *out, FILE *notes)
{
	if (notes)
		fprintf(notes, "note: [kernel %s]: its knobs are checked on the lab machine when "
			"the run reaches it\n", k->name);
	return 0;
}

const struct cb_target_class cb_target_ssh_class = {
	.name = "ssh",
	.check = ssh_check,
	.keys = ssh_keys,
	.priv_alloc = ssh_alloc,
	.priv_free = ssh_free,
	.verify = ssh_verify,
	.machine = ssh_machine,
	.ops = &cb_target_ssh,
};
