// SPDX-License-Identifier: GPL-2.0-only
/*
 * initramfs.c - the guest's root as a newc cpio, written by hand (so /dev/console can be
 * a device node without root, and nothing needs a staging directory). See initramfs.h.
 */
#include "initramfs.h"
#include "xalloc.h"
#include "kernel_build.h"
#include "ldd.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define BUSYBOX "/bin/busybox"
#define GUEST_DIR "/opt/cb"

/*
 * busybox sh runs this inside the guest; our config values never pass through it (the
 * agent reads the config file itself). reboot -f ends QEMU because of -no-reboot.
 */
static const char init_script[] =
	"#!/bin/busybox sh\n"
	"/bin/busybox --install -s /bin\n"
	"export PATH=/bin:" GUEST_DIR "\n"
	"mount -t proc proc /proc\n"
	"mount -t sysfs sysfs /sys\n"
	"mount -t devtmpfs devtmpfs /dev 2>/dev/null\n"
	"mount -t tracefs tracefs /sys/kernel/tracing\n"
	"mount -t tmpfs tmpfs /tmp\n"
	/* kernel-demand's tcp path connects to 127.0.0.1: loopback must be up (no other NIC) */
	"ip link set lo up || ifconfig lo 127.0.0.1 up\n"
	/*
	 * [global] boot = per-kernel: the cells listed in the batch's `cells`, each by a fresh
	 * agent when the host creates its go.ID (the host analyzes the previous cell with the
	 * guest idle), with the isolation check; a cell that fails or is declined ends the
	 * batch, and the host boots a fresh guest for what is left
	 */
	"batch() {\n"
	"	b=/mnt/results/.batch/$cbbatch\n"
	"	for id in $(cat $b/cells); do\n"
	"		n=0\n"
	"		while [ ! -e $b/go.$id ] && [ $n -lt 60000 ]; do usleep 10000; n=$((n+1)); done\n"
	"		[ -e $b/go.$id ] || break\n"
	"		echo \"" CB_BATCH_START " $id $(cat /proc/uptime)\"\n"
	"		COMPACTBENCH_STATE_DIR=/tmp/cbstate COMPACTBENCH_WORKLOADS=" GUEST_DIR "/workloads \\\n"
	"			" GUEST_DIR "/compactbench agent --target qemu $q --isolation /tmp/cb-isolation.json \\\n"
	"			/mnt/results/config.ini \"$id\" /mnt/results\n"
	"		rc=$?\n"
	"		echo \"" CB_BATCH_END " $id $rc\"\n"
	"		[ $rc = 0 ] || break\n"
	"	done\n"
	"	echo \"" CB_INIT_AGENT_EXIT_LINE " $rc\"\n"
	"}\n"
	"echo \"" CB_INIT_UP_LINE " $(cat /proc/uptime)\"\n"
	"mkdir -p /mnt/results\n"
	"if mount -t 9p -o " CB_9P_OPTS " " CB_9P_TAG " /mnt/results; then\n"
	"	q=; [ \"$cbquick\" = 1 ] && q=--quick\n"
	"	[ \"$cbsave\" = 1 ] && q=\"$q --saved-state " CB_STATE_TTY "\"\n"
	"	echo \"" CB_INIT_AGENT_LINE " $(cat /proc/uptime)\"\n"
	"	if [ -n \"$cbbatch\" ]; then batch; else\n"
	"	COMPACTBENCH_STATE_DIR=/tmp/cbstate COMPACTBENCH_WORKLOADS=" GUEST_DIR "/workloads \\\n"
	"		" GUEST_DIR "/compactbench agent --target qemu $q /mnt/results/config.ini \"$cbcell\" /mnt/results\n"
	"	echo \"" CB_INIT_AGENT_EXIT_LINE " $?\"\n"
	"	fi\n"
	"	sync\n"
	"	umount /mnt/results\n"
	"else\n"
	"	echo 'cb-init: cannot mount the 9p results share'\n"
	"fi\n"
	"reboot -f\n";

struct cpio {
	char *buf;
	size_t len, cap;
	unsigned int ino;
	char **dirs; /* directories already written */
	size_t nr_dirs;
	char *err;
	size_t errlen;
};

static void put(struct cpio *c, const void *data, size_t len)
{
	if (c->len + len + 4 > c->cap) {
		c->cap = (c->len + len + 4) * 2;
		c->buf = realloc(c->buf, c->cap);
		if (!c->buf)
			cb_oom();
	}
	memcpy(c->buf + c->len, data, len);
	c->len += len;
	while (c->len % 4)
		c->buf[c->len++] = '\0';
}

static void entry(struct cpio *c, const char *name, unsigned int mode, const void *data,
		  size_t len, unsigned int rmaj, unsigned int rmin)
{
	char hdr[111];
	size_t nlen = strlen(name) + 1;

	/* mtime 0: the same inputs give the same bytes, so the hash is a cache key */
	snprintf(hdr, sizeof(hdr), "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		 ++c->ino, mode, 0, 0, 1, 0, len, 0, 0, rmaj, rmin, nlen, 0);
	if (c->len + 110 + nlen + 4 > c->cap) {
		c->cap = (c->len + 110 + nlen + 4) * 2;
		c->buf = realloc(c->buf, c->cap);
		if (!c->buf)
			cb_oom();
	}
	memcpy(c->buf + c->len, hdr, 110);
	c->len += 110;
	put(c, name, nlen); /* header + name padded to 4 together: 110 + nlen, then pad */
	if (len)
		put(c, data, len);
}

/* every parent of @path as a directory, once */
static void parents(struct cpio *c, const char *path)
{
	char dir[PATH_MAX];

	for (const char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		size_t i, n = (size_t)(p - path);

		snprintf(dir, sizeof(dir), "%.*s", (int)n, path);
		for (i = 0; i < c->nr_dirs && strcmp(c->dirs[i], dir); i++)
			;
		if (i < c->nr_dirs)
			continue;
		c->dirs = realloc(c->dirs, (c->nr_dirs + 1) * sizeof(char *));
		if (!c->dirs || !(c->dirs[c->nr_dirs++] = strdup(dir)))
			cb_oom();
		entry(c, dir + 1, S_IFDIR | 0755, NULL, 0, 0, 0);
	}
}

/* @guest_path gets the bytes of @host_path (symlinks followed) */
static int add_file(struct cpio *c, const char *guest_path, const char *host_path)
{
	size_t len;
	char *data;

	for (size_t i = 0; i < c->nr_dirs; i++)
		if (!strcmp(c->dirs[i], guest_path))
			return 0;
	data = cb_read_file(host_path, &len);
	if (!data) {
		snprintf(c->err, c->errlen, "initramfs: %s: %s", host_path, strerror(errno));
		return -1;
	}
	parents(c, guest_path);
	entry(c, guest_path + 1, S_IFREG | 0755, data, len, 0, 0);
	free(data);
	/* remember files too, so a library two programs need goes in once */
	c->dirs = realloc(c->dirs, (c->nr_dirs + 1) * sizeof(char *));
	if (!c->dirs || !(c->dirs[c->nr_dirs++] = strdup(guest_path)))
		cb_oom();
	return 0;
}

/* a shared library of a program (cb_ldd_libs), at the same path */
static int add_lib(const char *path, void *c)
{
	return add_file(c, path, path);
}

static int add_program(struct cpio *c, const char *guest_path, const char *host_path)
{
	if (add_file(c, guest_path, host_path) < 0)
		return -1;
	return cb_ldd_libs(host_path, add_lib, c);
}

static bool is_program(const char *path)
{
	char magic[4] = { 0 };
	struct stat s;
	FILE *f;

	if (stat(path, &s) < 0 || !S_ISREG(s.st_mode) || !(s.st_mode & S_IXUSR))
		return false;
	f = fopen(path, "rb");
	if (!f)
		return false;
	if (fread(magic, 1, 4, f) != 4)
		magic[0] = 0;
	fclose(f);
	return !memcmp(magic, "\177ELF", 4);
}

static int add_workloads(struct cpio *c, const char *dir)
{
	char host[PATH_MAX], guest[PATH_MAX];
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), rc = 0;

	if (n < 0) {
		snprintf(c->err, c->errlen, "initramfs: workloads %s: %s", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (rc == 0 && names[i]->d_name[0] != '.' &&
		    cb_path(host, sizeof(host), "%s/%s", dir, names[i]->d_name) == 0 &&
		    is_program(host) &&
		    cb_path(guest, sizeof(guest), GUEST_DIR "/workloads/%s", names[i]->d_name) == 0)
			rc = add_program(c, guest, host);
		free(names[i]);
	}
	free(names);
	return rc;
}

static void skeleton(struct cpio *c)
{
	static const char *const dirs[] = { "/proc/", "/sys/", "/dev/", "/tmp/", "/mnt/", "/bin/" };

	for (size_t i = 0; i < CB_ARRAY_SIZE(dirs); i++)
		parents(c, dirs[i]);
	/* the kernel opens /dev/console for init before anything is mounted */
	entry(c, "dev/console", S_IFCHR | 0600, NULL, 0, 5, 1);
	entry(c, "init", S_IFREG | 0755, init_script, strlen(init_script), 0, 0);
}

static int store(struct cpio *c, char *out, size_t size)
{
	unsigned char md[32];
	unsigned int n = 0;
	char dir[PATH_MAX], hex[17];

	EVP_Digest(c->buf, c->len, md, &n, EVP_sha256(), NULL);
	for (int i = 0; i < 8; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	if (cb_path(dir, sizeof(dir), "%s/initramfs", cb_cache_root()) < 0 ||
	    cb_path(out, size, "%s/%s.cpio", dir, hex) < 0)
		return -1;
	if (access(out, R_OK) == 0)
		return 0;
	if (cb_mkdir_p(dir) < 0 || cb_write_file_atomic(out, c->buf, c->len) < 0) {
		snprintf(c->err, c->errlen, "initramfs: %s: %s", out, strerror(errno));
		return -1;
	}
	return 0;
}

int cb_initramfs_build(const char *self, const char *workloads_dir, char *out, size_t size,
		       char *err, size_t errlen)
{
	struct cpio c = { .err = err, .errlen = errlen };
	int rc = -1;

	if (access(BUSYBOX, X_OK) < 0) {
		snprintf(err, errlen, "initramfs: %s: %s (install busybox-static)", BUSYBOX,
			 strerror(errno));
		return -1;
	}
	skeleton(&c);
	if (add_program(&c, BUSYBOX, BUSYBOX) == 0 &&
	    add_program(&c, GUEST_DIR "/compactbench", self) == 0 &&
	    add_workloads(&c, workloads_dir) == 0) {
		entry(&c, "TRAILER!!!", 0, NULL, 0, 0, 0);
		rc = store(&c, out, size);
	}
	for (size_t i = 0; i < c.nr_dirs; i++)
		free(c.dirs[i]);
	free(c.dirs);
	free(c.buf);
	return rc;
}
