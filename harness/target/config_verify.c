// SPDX-License-Identifier: GPL-2.0-only
/*
 * config_verify.c - what `config check` and `run` can check of a parsed config before any
 * cell runs, beyond its syntax (issue 22): a qemu kernel has a recipe, and the recipe loads
 * (its source, patches and fragments are readable); a knob a setting sets on a host kernel
 * that is the booted one has its file on this kernel. What cannot be known before a kernel
 * runs (a qemu kernel's knobs: its /proc and /sys exist only once it has booted; an ssh
 * kernel's: the lab machine is not reached before the run) is said as a note. Each target
 * class's check hook (target_class.h) says what applies to its kernels: qemu_conf.c,
 * target_host.c, target_ssh.c; this file holds what they share.
 */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config_verify.h"
#include "qemu_conf.h"
#include "run.h"
#include "target.h"
#include "util.h"

int cb_config_recipe_path(const struct cb_config *cfg, const struct cb_kernel *k, char *buf,
			  size_t size)
{
	const char *recipe = k->cls == &cb_target_qemu_class ? cb_qemu_conf(k)->recipe : NULL;
	char *dup;
	int rc;

	if (!recipe) {
		errno = ENOENT;
		return -1;
	}
	if (recipe[0] == '/')
		return cb_path(buf, size, "%s", recipe);
	dup = strdup(cfg->path);
	if (!dup)
		return -1;
	rc = cb_path(buf, size, "%s/%s", dirname(dup), recipe);
	free(dup);
	return rc;
}

/* cb_kernel_booted is declared in run.h (run.c plans its cells with it) */
bool cb_kernel_booted(const struct cb_kernel *k, char *booted, size_t size)
{
	struct utsname u;
	char both[sizeof(u.release) + sizeof(u.version) + 2];

	if (uname(&u) < 0) {
		snprintf(booted, size, "(uname: %s)", strerror(errno));
		return k->cls != &cb_target_host_class || !k->release;
	}
	snprintf(both, sizeof(both), "%s %s", u.release, u.version);
	snprintf(booted, size, "%s", strchr(k->release ? k->release : "", ' ') ? both : u.release);
	if (k->cls != &cb_target_host_class || !k->release)
		return true;
	return !strcmp(k->release, booted);
}

void cb_config_where(FILE *out, const struct cb_config *cfg, int line)
{
	if (line > 0)
		fprintf(out, "compactbench: %s:%d: ", cfg->path, line);
	else
		fprintf(out, "compactbench: %s: ", cfg->path);
}

int cb_config_verify_knobs(const struct cb_config *cfg, const struct cb_kernel *k,
			   const char *root, FILE *out)
{
	char path[4096];
	int bad = 0;

	for (size_t i = 0; i < cfg->nr_settings; i++) {
		const struct cb_setting *s = &cfg->settings[i];

		if (!cb_setting_on_kernel(s, k))
			continue;
		for (size_t j = 0; j < s->nr_knobs; j++) {
			const struct cb_knob_setting *ks = &s->knobs[j];

			if (cb_knob_path(ks->knob, ks->arg, root, path, sizeof(path)) < 0 ||
			    access(path, F_OK) == 0)
				continue;
			cb_config_where(out, cfg, ks->line);
			fprintf(out, "[setting %s] key '%s' (= %s): %s does not exist on the booted "
				"kernel, where [kernel %s] runs it: the kernel lacks the knob (a "
				"setting for other kernels only: `kernels = NAME`)\n", s->name,
				ks->key, ks->value, path, k->name);
			bad++;
		}
	}
	return bad;
}

int cb_config_verify(const struct cb_config *cfg, const char *root, FILE *out, FILE *notes)
{
	int bad = 0;

	for (size_t i = 0; i < cfg->nr_kernels; i++) {
		const struct cb_kernel *k = &cfg->kernels[i];

		if (k->cls->check)
			bad += k->cls->check(cfg, k, root, out, notes);
	}
	return bad;
}
