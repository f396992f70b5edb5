// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_build.c - recipe -> cached bzImage: unpack, patch, tinyconfig + fragments,
 * olddefconfig, check the fragments' options, make bzImage. See kernel_build.h.
 */
#include "kernel_build.h"
#include "xalloc.h"
#include "kernel_tree.h"
#include "run.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <libgen.h>
#include <limits.h>
#include <openssl/evp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* bump when the build steps change, so old cache entries are not reused */
#define BUILD_FORMAT "compactbench-kernel-2"
#define PROGRESS_EVERY_S 20

const char *cb_cache_root(void)
{
	const char *env = getenv("COMPACTBENCH_CACHE");

	return env && *env ? env : "/var/cache/compactbench";
}

static void child_exec(char *const argv[], const char *cwd, int out_fd, int stdout_fd)
{
	int null = open("/dev/null", O_RDWR);

	if (null >= 0)
		dup2(null, 0);
	dup2(stdout_fd >= 0 ? stdout_fd : out_fd >= 0 ? out_fd : null, 1);
	dup2(out_fd >= 0 ? out_fd : null, 2);
	if (cwd && chdir(cwd) < 0)
		_exit(126);
	execvp(argv[0], argv);
	fprintf(stderr, "%s: cannot run: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int wait_status(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int cb_exec(char *const argv[], const char *cwd, int out_fd)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		child_exec(argv, cwd, out_fd, -1);
	return wait_status(pid);
}

int cb_exec_capture(char *const argv[], char *buf, size_t size)
{
	int fds[2], rc;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0)
		child_exec(argv, NULL, -1, fds[1]);
	close(fds[1]);
	while ((n = read(fds[0], buf + len, size - 1 - len)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && (len += (size_t)n) >= size - 1)
			break;
	buf[len] = '\0';
	close(fds[0]);
	rc = wait_status(pid);
	return rc;
}

/* ---- the recipe ---- */

struct rstate {
	struct cb_recipe *r;
	char dir[PATH_MAX];
	char *err;
	size_t errlen;
	int bad_line;
};

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		cb_oom();
	return d;
}

/* a relative path is relative to the recipe's directory */
static char *resolve(const struct rstate *st, const char *p)
{
	char buf[PATH_MAX];

	if (p[0] == '/' || cb_path(buf, sizeof(buf), "%s/%s", st->dir, p) < 0)
		return xstrdup(p);
	return xstrdup(buf);
}

static char **split_paths(const struct rstate *st, const char *value)
{
	char *dup = xstrdup(value), *tok, *save = NULL, **list = calloc(1, sizeof(char *));
	size_t n = 0;

	for (tok = strtok_r(dup, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		list = realloc(list, (n + 2) * sizeof(char *));
		if (!list)
			cb_oom();
		list[n++] = resolve(st, tok);
		list[n] = NULL;
	}
	free(dup);
	return list;
}

static void free_list(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

static int recipe_handler(void *user, const char *section, const char *name, const char *value)
{
	struct rstate *st = user;
	struct cb_recipe *r = st->r;

	if (st->bad_line)
		return 0;
	if (strcmp(section, "kernel")) {
		snprintf(st->err, st->errlen, "section [%s]: a recipe has only [kernel]", section);
	} else if (!strcmp(name, "name")) {
		free(r->name);
		r->name = xstrdup(value);
		return 1;
	} else if (!strcmp(name, "source")) {
		free(r->source);
		r->source = resolve(st, value);
		return 1;
	} else if (!strcmp(name, "patches")) {
		free_list(r->patches);
		r->patches = split_paths(st, value);
		return 1;
	} else if (!strcmp(name, "fragments")) {
		free_list(r->fragments);
		r->fragments = split_paths(st, value);
		return 1;
	} else {
		snprintf(st->err, st->errlen, "key '%s': not a recipe key (name, source, patches, "
			 "fragments)", name);
	}
	st->bad_line = 1;
	return 0;
}

static int check_readable(struct cb_recipe *r, char **list, const char *what, char *err,
			  size_t errlen)
{
	for (size_t i = 0; list && list[i]; i++) {
		if (access(list[i], R_OK) < 0) {
			snprintf(err, errlen, "recipe %s: %s %s: %s", r->path, what, list[i],
				 strerror(errno));
			return -1;
		}
	}
	return 0;
}

struct cb_recipe *cb_recipe_load(const char *path, char *err, size_t errlen)
{
	struct cb_recipe *r = calloc(1, sizeof(*r));
	struct rstate st = { .r = r, .err = err, .errlen = errlen };
	char *dup = xstrdup(path);
	int rc;

	if (!r)
		cb_oom();
	r->path = xstrdup(path);
	/* absolute, because the steps run inside the tree */
	if (!realpath(dirname(dup), st.dir))
		cb_path(st.dir, sizeof(st.dir), "%s", ".");
	free(dup);
	err[0] = '\0';
	rc = ini_parse(path, recipe_handler, &st);
	if (rc < 0) {
		snprintf(err, errlen, "recipe %s: cannot read: %s", path, strerror(errno));
	} else if (rc > 0 && !err[0]) {
		snprintf(err, errlen, "%s:%d: not INI syntax", path, rc);
	} else if (rc > 0) {
		/* inih reports the first bad line; the handler said what is wrong with it */
		char msg[1024];

		snprintf(msg, sizeof(msg), "%s", err);
		snprintf(err, errlen, "%s:%d: %s", path, rc, msg);
	}
	if (!err[0] && !r->name)
		snprintf(err, errlen, "%s: [kernel] needs a name", path);
	if (!err[0] && !r->fragments)
		snprintf(err, errlen, "%s: [kernel] needs fragments (at least base.config)", path);
	if (!err[0] && !r->source)
		r->source = xstrdup(CB_DEFAULT_KERNEL_SOURCE);
	if (!err[0] && access(r->source, R_OK) < 0)
		snprintf(err, errlen, "recipe %s: source %s: %s%s", path, r->source, strerror(errno),
			 strcmp(r->source, CB_DEFAULT_KERNEL_SOURCE) ? "" :
			 " (install linux-source-6.1: ./run.sh does)");
	if (!err[0] && check_readable(r, r->patches, "patch", err, errlen) == 0)
		check_readable(r, r->fragments, "fragment", err, errlen);
	if (err[0]) {
		cb_recipe_free(r);
		return NULL;
	}
	return r;
}

void cb_recipe_free(struct cb_recipe *r)
{
	if (!r)
		return;
	free(r->path);
	free(r->name);
	free(r->source);
	free_list(r->patches);
	free_list(r->fragments);
	free(r);
}

/* ---- the cache key ---- */

static void hash_str(EVP_MD_CTX *md, const char *s)
{
	EVP_DigestUpdate(md, s, strlen(s) + 1);
}

static int hash_file(EVP_MD_CTX *md, const char *path)
{
	size_t len;
	char *data = cb_read_file(path, &len);

	if (!data)
		return -1;
	/* the file's name and bytes, not its directory: a checkout elsewhere hits the cache */
	hash_str(md, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	EVP_DigestUpdate(md, data, len);
	free(data);
	return 0;
}

/* source identity: path, size, mtime (hashing 130 MB of tarball per lookup costs seconds) */
static void hash_source(EVP_MD_CTX *md, const char *source)
{
	char buf[PATH_MAX + 64], real[PATH_MAX];
	struct stat s;

	if (!realpath(source, real))
		cb_path(real, sizeof(real), "%s", source);
	stat(real, &s);
	snprintf(buf, sizeof(buf), "%s %lld %lld.%09ld", real, (long long)s.st_size,
		 (long long)s.st_mtim.tv_sec, s.st_mtim.tv_nsec);
	hash_str(md, buf);
}

/*
 * the cache key: compiler, source, patches (unless @no_patches: the key of the recipe's
 * baseline, whose kept tree an incremental build starts from) and fragments
 */
static int recipe_hash(const struct cb_recipe *r, bool no_patches, char out[17])
{
	char *gcc[] = { "gcc", "--version", NULL }, ver[512];
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned char dig[32];
	unsigned int n = 0;

	if (cb_exec_capture(gcc, ver, sizeof(ver)) != 0)
		snprintf(ver, sizeof(ver), "no gcc");
	EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	hash_str(md, BUILD_FORMAT);
	hash_str(md, ver);
	hash_source(md, r->source);
	for (size_t i = 0; !no_patches && r->patches && r->patches[i]; i++)
		if (hash_file(md, r->patches[i]) < 0)
			goto fail;
	hash_str(md, "--fragments--");
	for (size_t i = 0; r->fragments[i]; i++)
		if (hash_file(md, r->fragments[i]) < 0)
			goto fail;
	EVP_DigestFinal_ex(md, dig, &n);
	EVP_MD_CTX_free(md);
	for (int i = 0; i < 8; i++)
		snprintf(out + 2 * i, 3, "%02x", dig[i]);
	return 0;
fail:
	EVP_MD_CTX_free(md);
	return -1;
}

/* ---- the steps ---- */

struct build {
	const struct cb_recipe *r;
	char work[PATH_MAX];  /* the tree being built */
	char base[PATH_MAX];  /* the baseline's kept tree to start from, or "" */
	int lock_fd;	      /* flock of <work>.lock: one build at a time in a tree's path */
	char log[PATH_MAX];   /* kernels/<hash>.log while building */
	int log_fd;
	char *err;
	size_t errlen;
};

static int fail(struct build *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct build *b, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(b->err, b->errlen, "recipe %s: %s (log: %s)", b->r->path, msg, b->log);
	return -1;
}

static void step_line(struct build *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void step_line(struct build *b, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int len;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "compactbench: kernel %s: %s\n", b->r->name, msg);
	len = dprintf(b->log_fd, "==== %s\n", msg);
	(void)len;
}

static int run_step(struct build *b, const char *what, char *const argv[])
{
	int rc = cb_exec(argv, b->work, b->log_fd);

	if (rc < 0)
		return fail(b, "%s: cannot run %s: %s", what, argv[0], strerror(errno));
	if (rc)
		return fail(b, "%s failed (%s exited %d)", what, argv[0], rc);
	return 0;
}

static int unpack(struct build *b)
{
	struct stat s;

	if (stat(b->r->source, &s) == 0 && S_ISDIR(s.st_mode)) {
		char src[PATH_MAX + 2];
		char *cp[] = { "cp", "-a", src, b->work, NULL };

		step_line(b, "copying the tree %s", b->r->source);
		snprintf(src, sizeof(src), "%s/.", b->r->source);
		return run_step(b, "copying the source tree", cp);
	}
	char *tar[] = { "tar", "-xf", b->r->source, "--strip-components=1", "-C", b->work, NULL };

	step_line(b, "unpacking %s", b->r->source);
	return run_step(b, "unpacking the source", tar);
}

/* the baseline's kept tree, or the source unpacked and stamped (from scratch) */
static int start_tree(struct build *b)
{
	char msg[1024];
	long n;

	if (b->base[0]) {
		step_line(b, "incremental: cloning the baseline's tree %s", b->base);
		n = cb_ktree_clone(b->base, b->work, b->log_fd, msg, sizeof(msg));
		if (n >= 0) {
			step_line(b, "cloned (sources hard-linked, %ld build outputs copied)", n);
			return 0;
		}
		/* a broken or half-removed kept tree costs a full build, not a failure */
		step_line(b, "cannot clone (%s): building from scratch", msg);
		b->base[0] = '\0';
		cb_rm_rf(b->work);
		if (cb_mkdir_p(b->work) < 0)
			return fail(b, "%s: %s", b->work, strerror(errno));
	}
	if (unpack(b) < 0)
		return -1;
	if (cb_ktree_stamp(b->work) < 0)
		return fail(b, "stamping the unpacked tree: %s", strerror(errno));
	return 0;
}

static int apply_patches(struct build *b)
{
	for (size_t i = 0; b->r->patches && b->r->patches[i]; i++) {
		char *p = b->r->patches[i];
		char *argv[] = { "patch", "-p1", "--forward", "--batch", "-i", p, NULL };
		int rc;

		step_line(b, "applying %s", p);
		rc = cb_exec(argv, b->work, b->log_fd);
		if (rc)
			return fail(b, "patch %s does not apply (patch exited %d)", p, rc);
	}
	return 0;
}

static int configure(struct build *b)
{
	char *tiny[] = { "make", "tinyconfig", NULL }, *old[] = { "make", "olddefconfig", NULL };
	char *merge[64] = { "scripts/kconfig/merge_config.sh", "-m", ".config" };
	size_t n = 3;

	step_line(b, "configuring: tinyconfig + fragments");
	if (run_step(b, "make tinyconfig", tiny) < 0)
		return -1;
	for (size_t i = 0; b->r->fragments[i] && n < CB_ARRAY_SIZE(merge) - 1; i++)
		merge[n++] = b->r->fragments[i];
	merge[n] = NULL;
	if (run_step(b, "merging the fragments", merge) < 0)
		return -1;
	return run_step(b, "make olddefconfig", old);
}

/* is "CONFIG_X=v" (or "# CONFIG_X is not set") what @config says? */
static bool option_holds(const char *config, const char *line)
{
	char want[256];
	const char *p;
	size_t len;

	if (!strncmp(line, "# CONFIG_", 9)) {
		/* wanted off: must not be set to anything */
		len = strcspn(line + 2, " ");
		snprintf(want, sizeof(want), "\n%.*s=", (int)len, line + 2);
		return !strstr(config, want);
	}
	len = strcspn(line, "\n");
	snprintf(want, sizeof(want), "\n%.*s\n", (int)len, line);
	p = strstr(config, want);
	return p != NULL;
}

static int check_options(struct build *b)
{
	char path[PATH_MAX], missing[1024] = "";
	size_t len;
	char *config, *cfg_nl;
	int nr = 0;

	if (cb_path(path, sizeof(path), "%s/.config", b->work) < 0 || !(config = cb_read_file(path, &len)))
		return fail(b, "checking options: %s: %s", path, strerror(errno));
	/* a leading newline lets every option be matched as a whole line */
	if (asprintf(&cfg_nl, "\n%s", config) < 0)
		cb_oom();
	free(config);
	for (size_t f = 0; b->r->fragments[f]; f++) {
		char *frag = cb_read_file(b->r->fragments[f], &len), *line, *save = NULL;

		for (line = frag ? strtok_r(frag, "\n", &save) : NULL; line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "CONFIG_", 7) && !strstr(line, "is not set"))
				continue;
			if (option_holds(cfg_nl, line))
				continue;
			nr++;
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), "%s%.*s",
				 nr > 1 ? ", " : "", (int)strcspn(line, "="), line);
		}
		free(frag);
	}
	free(cfg_nl);
	if (nr)
		return fail(b, "after olddefconfig, %d fragment option%s not set as asked: %s (a "
			    "dependency is missing or the option does not exist in this tree)", nr,
			    nr > 1 ? "s are" : " is", missing);
	step_line(b, "every fragment option is set");
	return 0;
}

/*
 * an A/B is fair only on the same config: the patched tree's .config against the
 * baseline's, every option the baseline sets set alike (the patches may add options)
 */
static void compare_config(struct build *b)
{
	char path[PATH_MAX], diff[2048];
	char *base, *cand;
	int nr, nr_new;

	cb_path(path, sizeof(path), "%s/.config", b->base);
	base = cb_read_file(path, NULL);
	cb_path(path, sizeof(path), "%s/.config", b->work);
	cand = cb_read_file(path, NULL);
	if (!base || !cand) {
		step_line(b, "WARNING: cannot compare .config with the baseline's");
	} else if ((nr = cb_ktree_config_diff(base, cand, &nr_new, diff, sizeof(diff))) == 0) {
		step_line(b, ".config: the baseline's, plus %d option%s the patches add", nr_new,
			  nr_new == 1 ? "" : "s");
	} else {
		step_line(b, "WARNING: .config differs from the baseline's in %d option%s (an A/B "
			  "compares more than the patches): %s", nr, nr == 1 ? "" : "s", diff);
	}
	free(base);
	free(cand);
}

/* tail of the log: the step make is at, for the progress line */
static void last_line(const char *log, char *buf, size_t size)
{
	char tail[512];
	int fd = open(log, O_RDONLY);
	off_t end = fd >= 0 ? lseek(fd, 0, SEEK_END) : 0;
	ssize_t n = fd >= 0 ? pread(fd, tail, sizeof(tail) - 1, end > 511 ? end - 511 : 0) : 0;
	char *p;

	if (fd >= 0)
		close(fd);
	tail[n > 0 ? n : 0] = '\0';
	while ((p = strrchr(tail, '\n')) && !p[1])
		*p = '\0';
	p = strrchr(tail, '\n');
	snprintf(buf, size, "%s", p ? p + 1 : tail);
}

static int make_image(struct build *b)
{
	char *argv[] = { "make", "-j2", "bzImage", NULL }, line[256];
	uint64_t t0 = cb_now_ns(), next = t0 + PROGRESS_EVERY_S * 1000000000ULL;
	pid_t pid;
	int st;

	step_line(b, "make -j2 bzImage (a few minutes; log %s)", b->log);
	pid = fork();
	if (pid < 0)
		return fail(b, "make: %s", strerror(errno));
	if (pid == 0) {
		/* its own group, so an interrupt stops every compiler it started */
		setpgid(0, 0);
		child_exec(argv, b->work, b->log_fd, -1);
	}
	setpgid(pid, pid);
	while (waitpid(pid, &st, WNOHANG) == 0) {
		struct timespec ts = { 0, 200000000 };

		if (cb_interrupted) {
			kill(-pid, SIGTERM);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			return fail(b, "make bzImage: interrupted");
		}
		nanosleep(&ts, NULL);
		if (cb_now_ns() < next)
			continue;
		next += PROGRESS_EVERY_S * 1000000000ULL;
		last_line(b->log, line, sizeof(line));
		fprintf(stderr, "compactbench: kernel %s: building, %.0f s: %s\n", b->r->name,
			(cb_now_ns() - t0) / 1e9, line);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return fail(b, "make bzImage failed");
	step_line(b, "built in %.0f s", (cb_now_ns() - t0) / 1e9);
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	size_t len;
	char *data = cb_read_file(from, &len);
	int rc;

	if (!data)
		return -1;
	rc = cb_write_file_atomic(to, data, len);
	free(data);
	return rc;
}

/* the entry appears whole or not at all: filled in <hash>.new, then renamed */
static int store(struct build *b, const char *entry)
{
	char tmp[PATH_MAX], from[PATH_MAX], to[PATH_MAX];
	static const char *const files[][2] = {
		{ "arch/x86/boot/bzImage", "bzImage" }, { ".config", "config" },
		{ "System.map", "System.map" },
	};

	cb_path(tmp, sizeof(tmp), "%s.new", entry);
	cb_rm_rf(tmp);
	if (cb_mkdir_p(tmp) < 0)
		return fail(b, "storing: %s: %s", tmp, strerror(errno));
	for (size_t i = 0; i < CB_ARRAY_SIZE(files); i++) {
		cb_path(from, sizeof(from), "%s/%s", b->work, files[i][0]);
		cb_path(to, sizeof(to), "%s/%s", tmp, files[i][1]);
		if (copy_file(from, to) < 0)
			return fail(b, "storing %s: %s", from, strerror(errno));
	}
	cb_path(to, sizeof(to), "%s/build.log", tmp);
	copy_file(b->log, to);
	if (rename(tmp, entry) < 0)
		return fail(b, "storing: rename %s: %s", tmp, strerror(errno));
	unlink(b->log);
	cb_path(b->log, sizeof(b->log), "%s/build.log", entry);
	return 0;
}

/* the baseline's tree is kept unless $COMPACTBENCH_KEEP_TREE is 0 */
static bool keep_tree(const struct cb_recipe *r)
{
	const char *env = getenv("COMPACTBENCH_KEEP_TREE");

	return !(r->patches && r->patches[0]) && !(env && !strcmp(env, "0"));
}

/* a built baseline tree moves to @tree, replacing an older one; failing costs only speed */
static void keep(struct build *b, const char *tree)
{
	cb_rm_rf(tree);
	if (rename(b->work, tree) == 0)
		fprintf(stderr, "compactbench: kernel %s: build tree kept in %s for incremental "
			"builds of patched kernels\n", b->r->name, tree);
}

/* is @path inside the directory @dir (compared as real paths)? */
static bool in_dir(const char *path, const char *dir)
{
	char a[PATH_MAX], d[PATH_MAX], *slash;

	cb_path(a, sizeof(a), "%s", path);
	slash = strrchr(a, '/');
	if (!slash || !realpath(dir, d))
		return false;
	*slash = '\0';
	return !strcmp(a, d);
}

/*
 * where to build: <entry>.work, or, from the baseline's kept @tree, the path the baseline
 * was built at (objtool's absolute paths then still hold), if it is in the same cache
 */
static void choose_work(struct build *b, const char *entry, const char *tree)
{
	char where[PATH_MAX], dir[PATH_MAX], msg[PATH_MAX + 128] = "";

	cb_path(b->work, sizeof(b->work), "%s.work", entry);
	if (keep_tree(b->r) || access(tree, F_OK) != 0)
		return;
	cb_path(dir, sizeof(dir), "%s", tree);
	*strrchr(dir, '/') = '\0';
	if (cb_ktree_build_path(tree, where, sizeof(where), msg, sizeof(msg)) == 0 &&
	    !in_dir(where, dir))
		snprintf(msg, sizeof(msg), "built in %s, another cache", where);
	if (msg[0]) {
		fprintf(stderr, "compactbench: kernel %s: the kept tree %s is not usable (%s): "
			"building from scratch\n", b->r->name, tree, msg);
		return;
	}
	cb_path(b->work, sizeof(b->work), "%s", where);
	cb_path(b->base, sizeof(b->base), "%s", tree);
}

/* hold <work>.lock: a baseline and its patched kernels build in one path, one at a time */
static int lock_work(struct build *b)
{
	char lock[PATH_MAX + 8];

	snprintf(lock, sizeof(lock), "%s.lock", b->work);
	b->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (b->lock_fd < 0)
		return -1;
	if (flock(b->lock_fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	fprintf(stderr, "compactbench: kernel %s: waiting for the build in %s\n", b->r->name,
		b->work);
	while (flock(b->lock_fd, LOCK_EX) < 0)
		if (errno != EINTR || cb_interrupted)
			return -1;
	return 0;
}

static int build_entry(const struct cb_recipe *r, const char *entry, const char *tree,
		       char *err, size_t errlen)
{
	struct build b = { .r = r, .err = err, .errlen = errlen, .lock_fd = -1 };
	uint64_t t0 = cb_now_ns();
	int rc = -1;

	choose_work(&b, entry, tree);
	cb_path(b.log, sizeof(b.log), "%s.log", entry);
	if (lock_work(&b) < 0) {
		snprintf(err, errlen, "recipe %s: locking %s.lock: %s", r->path, b.work,
			 strerror(errno));
		if (b.lock_fd >= 0)
			close(b.lock_fd);
		return -1;
	}
	cb_rm_rf(b.work);
	if (cb_mkdir_p(b.work) < 0) {
		snprintf(err, errlen, "recipe %s: %s: %s", r->path, b.work, strerror(errno));
		close(b.lock_fd);
		return -1;
	}
	b.log_fd = open(b.log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (b.log_fd < 0) {
		snprintf(err, errlen, "recipe %s: %s: %s", r->path, b.log, strerror(errno));
		goto out;
	}
	if (start_tree(&b) == 0 && apply_patches(&b) == 0 && configure(&b) == 0 &&
	    check_options(&b) == 0) {
		if (b.base[0])
			compare_config(&b);
		if (make_image(&b) == 0 && store(&b, entry) == 0)
			rc = 0;
	}
	if (rc == 0)
		fprintf(stderr, "compactbench: kernel %s: %s in %.0f s\n", r->name,
			b.base[0] ? "built incrementally" : "built from scratch",
			(cb_now_ns() - t0) / 1e9);
	close(b.log_fd);
out:
	/* a patched tree is 1.5 GB once built; the log (kept on failure) says what happened */
	if (rc == 0 && keep_tree(r))
		keep(&b, tree);
	else
		cb_rm_rf(b.work);
	close(b.lock_fd);
	return rc;
}

int cb_kernel_build(const char *recipe_path, char *image, size_t size, char *err, size_t errlen)
{
	char hash[17], base_hash[17], entry[PATH_MAX], dir[PATH_MAX], tree[PATH_MAX];
	struct cb_recipe *r = cb_recipe_load(recipe_path, err, errlen);
	int rc = -1;

	if (!r)
		return -1;
	if (recipe_hash(r, false, hash) < 0 || recipe_hash(r, true, base_hash) < 0) {
		snprintf(err, errlen, "recipe %s: hashing its files: %s", recipe_path,
			 strerror(errno));
		goto out;
	}
	if (cb_path(dir, sizeof(dir), "%s/kernels", cb_cache_root()) < 0 ||
	    cb_path(entry, sizeof(entry), "%s/%s-%s", dir, r->name, hash) < 0 ||
	    cb_path(tree, sizeof(tree), "%s/tree-%s", dir, base_hash) < 0 ||
	    cb_path(image, size, "%s/bzImage", entry) < 0)
		goto out;
	if (access(image, R_OK) == 0) {
		fprintf(stderr, "compactbench: kernel %s: cached %s\n", r->name, image);
		rc = 0;
		goto out;
	}
	if (cb_mkdir_p(dir) < 0) {
		snprintf(err, errlen, "recipe %s: cache %s: %s", recipe_path, dir, strerror(errno));
		goto out;
	}
	rc = build_entry(r, entry, tree, err, errlen);
	if (rc == 0)
		fprintf(stderr, "compactbench: kernel %s: %s\n", r->name, image);
out:
	cb_recipe_free(r);
	return rc;
}
