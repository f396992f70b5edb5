// SPDX-License-Identifier: GPL-2.0-only
/*
 * target_qemu.c - the qemu target: each cell boots its kernel's recipe-built bzImage with
 * our initramfs; /init runs `compactbench agent` (the host target's code, inside the
 * guest) which writes the cell directory through a virtio-9p share of the run directory.
 *
 * Nested KVM hangs on some machines we know and makes QEMU abort at start on others
 * ("failed to set MSR 0x10a"), so KVM is tried with a short probe timeout and, if the
 * guest does not come up (QEMU still silent at the timeout, or exited before the guest's
 * /init said it was up), TCG is used for the rest of the run. A kernel whose guest's clock
 * counts instructions (clock = icount, qemu_conf.h) always runs under TCG. The accel and
 * the clock go into meta.json ("qemu" object). No network; the console is kept as console.log.
 *
 * With [global] boot = per-kernel a guest runs each run of consecutive cells of its kernel
 * (qemu_batch.h): run_cell boots it for the first, and for each next cell lets the waiting
 * guest go on and watches for that cell's end line. A cell that fails, is declined by the
 * guest's isolation check, or a guest that dies, ends the batch: the next cell (or the
 * declined one) boots a fresh guest.
 *
 * With [kernel] guest_state = saved a cell's guest is loaded from its repetition's saved
 * guest (qemu_state.h), which the first cell of that state boots and saves: TCG only, no
 * batch.
 */
#include "boot_plan.h"
#include "config_verify.h"
#include "cpustat.h"
#include "initramfs.h"
#include "kernel_build.h"
#include "meta.h"
#include "qemu_batch.h"
#include "qemu_conf.h"
#include "qemu_kvm.h"
#include "qemu_state.h"
#include "target.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KVM_PROBE_S 20.0
/* the limit on writing a saved guest's memory to its file: far beyond a few GiB's worth */
#define SAVE_TIMEOUT_S 600.0
/* the agent's own work around the phases: collector, snapshots, meta.json, poweroff */
#define AGENT_MARGIN_S 180.0
#define TAIL_BYTES 1200
#define MAX_KERNELS 64

/* BOOT_NOT_UP and BOOT_DIED_EARLY only while probing KVM: the caller falls back to TCG */
enum boot_end {
	BOOT_EXITED,
	BOOT_CELL_DONE, /* a batch's cell ended and its guest waits for the next */
	BOOT_NOT_UP,
	BOOT_DIED_EARLY,
	BOOT_TIMEOUT,
	BOOT_INTERRUPTED,
	BOOT_ERROR
};

static struct {
	char image[MAX_KERNELS][PATH_MAX]; /* per [kernel] index */
	char initramfs[PATH_MAX];
	/* the last boot, for fetch */
	const char *accel;
	double boot_s; /* qemu start to the agent's start */
	double agent_end_s; /* qemu start to the agent's exit, -1 if not seen */
	double total_s;
	/* boot = per-kernel: the guest's cells; the lines that start and end the cell watched */
	struct cb_qbatch batch;
	char mark_start[4 * CB_NAME_MAX + 64], mark_end[4 * CB_NAME_MAX + 64];
	const char *up_line; /* the line that says the guest is up: CB_INIT_UP_LINE, or mark_start */
	bool stay; /* the guest runs more cells after the one watched */
	char declined[512]; /* why the guest declined the cell (a fresh guest ran it) */
	size_t batch_pos, batch_nr; /* the cell's position (from 1) in its guest's cells, 0: alone */
	char batch_first[4 * CB_NAME_MAX + 16];
	/*
	 * guest_state = saved (qemu_state.h): the state of the guest being started, and whether
	 * it is the guest to save (its QMP socket) or one loaded from the file (state_fd)
	 */
	struct cb_qstate *state;
	bool saving;
	int state_fd;
	/* the host while the guest ran the cell: its busy CPU time, QEMU's share; -1 unknown */
	double host_busy_s, guest_cpu_s, host_wall_s;
	long host_cpus;
} qs;

/*
 * The host's CPU while a guest ran: its busy time and QEMU's (all threads), so that what
 * other work took is known. Under TCG the guest's clock is the host's, so a host busy with
 * other work stretches every time the guest measures, stall times included.
 */
struct host_mark {
	uint64_t busy_ns, guest_ns, wall_ns;
	bool busy_ok, guest_ok;
};

static void host_mark(struct host_mark *m, pid_t pid)
{
	m->wall_ns = cb_now_ns();
	m->busy_ok = cb_cpu_host_busy_ns(NULL, &m->busy_ns, &qs.host_cpus) == 0;
	m->guest_ok = cb_cpu_process_ns(NULL, pid, &m->guest_ns) == 0;
}

/* from @a to @b into qs; @exited: QEMU's whole CPU time from wait4() instead of /proc */
static void host_span(const struct host_mark *a, struct host_mark *b, const struct rusage *exited)
{
	if (exited) {
		b->guest_ns = (uint64_t)(exited->ru_utime.tv_sec + exited->ru_stime.tv_sec) *
				      1000000000ULL +
			      (uint64_t)(exited->ru_utime.tv_usec + exited->ru_stime.tv_usec) * 1000;
		b->guest_ok = true;
	}
	qs.host_wall_s = (b->wall_ns - a->wall_ns) / 1e9;
	qs.host_busy_s = a->busy_ok && b->busy_ok ? (b->busy_ns - a->busy_ns) / 1e9 : -1;
	qs.guest_cpu_s = a->guest_ok && b->guest_ok && b->guest_ns >= a->guest_ns ?
				 (b->guest_ns - a->guest_ns) / 1e9 : -1;
}

static int kernel_index(const struct cb_run *run, const struct cb_kernel *k)
{
	return (int)(k - run->cfg->kernels);
}

/* a relative recipe is relative to the config file's directory */
static void recipe_path(const struct cb_run *run, const struct cb_kernel *k, char *buf, size_t size)
{
	if (cb_config_recipe_path(run->cfg, k, buf, size) < 0)
		cb_path(buf, size, "%s", cb_qemu_conf(k)->recipe);
}

static int qemu_prepare(struct cb_run *run)
{
	char self[PATH_MAX], recipe[PATH_MAX], err[2048];
	ssize_t n;

	for (size_t i = 0; i < run->cfg->nr_kernels; i++) {
		const struct cb_kernel *k = &run->cfg->kernels[i];

		if (k->cls != &cb_target_qemu_class)
			continue;
		if (!cb_qemu_conf(k)->recipe) {
			snprintf(run->err, sizeof(run->err), "%s:%d: [kernel %s]: the qemu target needs "
				 "a recipe (e.g. recipe = kernels/linux-6.1.ini)", run->cfg->path, k->line,
				 k->name);
			return -1;
		}
		if (i >= MAX_KERNELS)
			return -1;
		recipe_path(run, k, recipe, sizeof(recipe));
		if (cb_kernel_build(recipe, qs.image[i], sizeof(qs.image[i]), err, sizeof(err)) < 0) {
			snprintf(run->err, sizeof(run->err), "[kernel %s]: %s", k->name, err);
			return -1;
		}
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return -1;
	self[n] = '\0';
	if (cb_initramfs_build(self, run->workloads_dir, qs.initramfs, sizeof(qs.initramfs), err,
			       sizeof(err)) < 0) {
		snprintf(run->err, sizeof(run->err), "%s", err);
		return -1;
	}
	cb_log("qemu: initramfs %s", qs.initramfs);
	return 0;
}

/* guest memory in MiB: a size, or a fraction of the host's memory */
static long guest_mib(const struct cb_kernel *k)
{
	long long total = cb_meminfo_kb("", "MemTotal");
	const char *memory = cb_qemu_conf(k)->memory;
	uint64_t bytes;

	if (!memory || cb_parse_size(memory, (uint64_t)(total > 0 ? total : 0) * 1024,
				     &bytes) < 0)
		return 2048;
	return (long)(bytes >> 20);
}

static void cmdline(const struct cb_run *run, const struct cb_cell *cell, const char *accel,
		    char *buf, size_t size)
{
	const char *extra = getenv("COMPACTBENCH_QEMU_APPEND");

	/*
	 * Unknown NAME=VALUE parameters become /init's environment (initramfs.h).
	 * tsc=reliable: under TCG the guest's TSC is the host's, but timer interrupts come late,
	 * so the clocksource watchdog judges the TSC against jiffies, marks it unstable and the
	 * guest falls back to a 4 ms clock: every stall shorter than a tick read as 0 us.
	 */
	snprintf(buf, size, "console=ttyS0 panic=-1 reboot=t tsc=reliable cbcell=%s cbaccel=%s%s%s%s%s%s%s",
		 cell->id, accel, run->quick ? " cbquick=1" : "", qs.batch.cells ? " cbbatch=" : "",
		 qs.batch.cells ? cb_qbatch_name(&qs.batch) : "", qs.state ? " cbsave=1" : "",
		 extra ? " " : "", extra ? extra : "");
}

/* the guest's clock counts instructions (qemu_conf.h): TCG only */
static bool icount_clock(const struct cb_kernel *k)
{
	return cb_qemu_conf(k)->clock == CB_QEMU_CLOCK_ICOUNT;
}

static pid_t spawn_qemu(struct cb_run *run, const struct cb_cell *cell, const char *accel,
			const char *console)
{
	char mem[32], cpus[16], append[1024], fsdev[PATH_MAX + 64], icount[64];
	char port[160], qmp[160];
	int idx = kernel_index(run, cell->kernel);
	bool kvm = !strcmp(accel, "kvm");
	char *argv[] = {
		"qemu-system-x86_64", "-accel", (char *)accel, "-cpu", kvm ? "host" : "max",
		"-m", mem, "-smp", cpus, "-kernel", qs.image[idx], "-initrd", qs.initramfs,
		"-append", append, "-nographic", "-no-reboot", "-nic", "none",
		"-fsdev", fsdev, "-device", "virtio-9p-pci,fsdev=cbres,mount_tag=" CB_9P_TAG,
		/* room for -icount, and a saved state's serial port, QMP socket and file */
		NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
	};
	char **tail = &argv[sizeof(argv) / sizeof(argv[0]) - 13];
	pid_t pid;
	int fd;

	snprintf(mem, sizeof(mem), "%ld", guest_mib(cell->kernel));
	snprintf(cpus, sizeof(cpus), "%ld", cb_qemu_conf(cell->kernel)->cpus > 0 ?
		 cb_qemu_conf(cell->kernel)->cpus : 2);
	cmdline(run, cell, accel, append, sizeof(append));
	snprintf(fsdev, sizeof(fsdev), "local,id=cbres,path=%s,security_model=none", run->dir);
	if (icount_clock(cell->kernel)) {
		snprintf(icount, sizeof(icount), "shift=%d,sleep=off", CB_QEMU_ICOUNT_SHIFT);
		*tail++ = "-icount";
		*tail++ = icount;
	}
	if (qs.state) {
		/*
		 * the second serial port: the cell a loaded guest runs (guest_state.h). Named
		 * -serial ports replace -nographic's own, so the console's comes first.
		 */
		snprintf(port, sizeof(port), "socket,id=cbgo,path=%s,server=on,wait=off",
			 qs.state->port);
		snprintf(qmp, sizeof(qmp), "unix:%s,server=on,wait=off", qs.state->qmp);
		*tail++ = "-chardev";
		*tail++ = port;
		*tail++ = "-serial";
		*tail++ = "mon:stdio";
		*tail++ = "-serial";
		*tail++ = "chardev:cbgo";
		*tail++ = "-qmp";
		*tail++ = qmp;
		if (!qs.saving) {
			/* the loaded guest's memory comes from the file on descriptor 3 */
			*tail++ = "-incoming";
			*tail++ = "fd:3";
		}
	}
	fd = open(console, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int null;

		/* the console above 3 first: descriptor 3 is the state file's */
		if (fd <= 3)
			fd = fcntl(fd, F_DUPFD_CLOEXEC, 4);
		if (qs.state && !qs.saving &&
		    (qs.state_fd == 3 ? fcntl(3, F_SETFD, 0) : dup2(qs.state_fd, 3)) < 0)
			_exit(127);
		null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		/* a batch's guest outlives cells: never the run (SIGKILL, a crash) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run: %s (install qemu-system-x86)\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(fd);
	return pid;
}

static bool console_has(const char *console, const char *what)
{
	char *data = cb_read_file(console, NULL);
	bool found = data && strstr(data, what);

	free(data);
	return found;
}

static void kill_guest(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* the cell's agent exited 0: the batch's guest goes on to its next cell */
static bool batch_goes_on(const char *console, const struct cb_cell *cell)
{
	char *text = cb_read_file(console, NULL);
	int rc = text ? cb_qbatch_end_rc(text, cell) : -1;

	free(text);
	return rc == 0;
}

/* until QEMU exits or a limit passes: @probe_s for "up" (0: none), boot timeout, agent time */
static enum boot_end watch(struct cb_run *run, const struct cb_cell *cell, pid_t pid,
			   const char *console, double probe_s)
{
	const struct cb_workload *w = cell->workload;
	uint64_t t0 = cb_now_ns(), deadline;
	bool up = false, agent = false, agent_end = false;
	struct host_mark h0, h1;
	struct rusage ru;
	pid_t gone;
	int st;

	qs.host_busy_s = qs.guest_cpu_s = qs.host_wall_s = -1;
	host_mark(&h0, pid);
	deadline = t0 + (uint64_t)((probe_s > 0 ? probe_s :
				    cb_qemu_conf(cell->kernel)->boot_timeout_s) * 1e9);
	while ((gone = wait4(pid, &st, WNOHANG, &ru)) == 0) {
		struct timespec ts = { 0, 50000000 }; /* the boot and agent times' resolution */

		if (cb_interrupted) {
			kill_guest(pid);
			return BOOT_INTERRUPTED;
		}
		if (!up && (up = console_has(console, qs.up_line)) && probe_s > 0)
			deadline = t0 + (uint64_t)(cb_qemu_conf(cell->kernel)->boot_timeout_s * 1e9);
		if (up && !agent && (agent = console_has(console, qs.mark_start))) {
			cb_timing_lap(&run->timing, CB_PART_BOOT);
			qs.boot_s = (cb_now_ns() - t0) / 1e9;
			deadline = cb_now_ns() + (uint64_t)((w->ready_timeout_s + w->timeout_s +
							     w->settle_s + AGENT_MARGIN_S) * 1e9);
		}
		/* the guest's agent timed its own parts (meta.json "timing"): not the host's */
		if (agent && !agent_end && (agent_end = console_has(console, qs.mark_end))) {
			cb_timing_lap_remote(&run->timing);
			qs.agent_end_s = (cb_now_ns() - t0) / 1e9;
			if (qs.stay && batch_goes_on(console, cell)) {
				qs.total_s = qs.agent_end_s;
				host_mark(&h1, pid);
				host_span(&h0, &h1, NULL);
				return BOOT_CELL_DONE;
			}
		}
		if (cb_now_ns() > deadline) {
			kill_guest(pid);
			return !up && probe_s > 0 ? BOOT_NOT_UP : BOOT_TIMEOUT;
		}
		nanosleep(&ts, NULL);
	}
	qs.total_s = (cb_now_ns() - t0) / 1e9;
	host_mark(&h1, pid);
	host_span(&h0, &h1, gone == pid ? &ru : NULL);
	/* poweroff within one poll of the agent's end: the guest's time runs to QEMU's exit */
	if (agent && !agent_end && console_has(console, qs.mark_end)) {
		cb_timing_lap_remote(&run->timing);
		qs.agent_end_s = qs.total_s;
	}
	/* QEMU itself gave up under KVM before the guest ran: that is the probe's answer */
	if (!up && probe_s > 0)
		return BOOT_DIED_EARLY;
	return BOOT_EXITED;
}

/* the last lines of the console, for the error message */
static void console_tail(const char *console, char *buf, size_t size)
{
	size_t len;
	char *data = cb_read_file(console, &len), *start;

	if (!data) {
		snprintf(buf, size, "(no console log)");
		return;
	}
	start = data + (len > TAIL_BYTES ? len - TAIL_BYTES : 0);
	if (start > data && strchr(start, '\n'))
		start = strchr(start, '\n') + 1;
	snprintf(buf, size, "%s", start);
	free(data);
}

static int fail_tail(struct cb_run *run, const char *console, const char *what)
{
	char tail[TAIL_BYTES + 64];

	console_tail(console, tail, sizeof(tail));
	snprintf(run->err, sizeof(run->err), "%s; console tail (%s):\n%s", what, console, tail);
	return -1;
}

static int boot(struct cb_run *run, const struct cb_cell *cell, const char *console,
		const char *accel, double probe_s, enum boot_end *end)
{
	pid_t pid = spawn_qemu(run, cell, accel, console);

	if (pid < 0) {
		snprintf(run->err, sizeof(run->err), "qemu: cannot start: %s", strerror(errno));
		return -1;
	}
	qs.accel = accel;
	qs.boot_s = qs.agent_end_s = -1;
	qs.batch.pid = qs.batch.cells ? pid : 0;
	*end = watch(run, cell, pid, console, probe_s);
	if (*end != BOOT_CELL_DONE)
		qs.batch.pid = 0; /* waited for or killed */
	return 0;
}

/* the console lines that start and end @cell: alone, or in the batch's guest */
static void set_marks(const struct cb_cell *cell)
{
	if (qs.batch.cells) {
		cb_qbatch_marker(cell, false, qs.mark_start, sizeof(qs.mark_start));
		cb_qbatch_marker(cell, true, qs.mark_end, sizeof(qs.mark_end));
		qs.stay = !cb_qbatch_last(&qs.batch, cell);
		qs.up_line = CB_INIT_UP_LINE;
		return;
	}
	qs.up_line = CB_INIT_UP_LINE;
	snprintf(qs.mark_start, sizeof(qs.mark_start), "%s", CB_INIT_AGENT_LINE);
	snprintf(qs.mark_end, sizeof(qs.mark_end), "%s", CB_INIT_AGENT_EXIT_LINE);
	qs.stay = false;
}

/*
 * the console @cell's guest writes: the cell's own, or with boot = per-kernel the batch's
 * of @cell and the cells right after it of its kernel (boot_plan.h), its go file made
 */
static int plan_guest(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir,
		      char *console, size_t size)
{
	size_t n = 1;
	char err[1024];

	cb_qbatch_end(&qs.batch);
	if (run->batch_boot && run->todo && cell >= run->todo && cell < run->todo + run->nr_todo)
		n = cb_boot_batch_len(run->todo, run->nr_todo, (size_t)(cell - run->todo));
	if (n > 1 && (cb_qbatch_begin(&qs.batch, run->dir, cell, n, err, sizeof(err)) < 0 ||
		      cb_qbatch_go(&qs.batch, cell) < 0)) {
		snprintf(run->err, sizeof(run->err), "%s", err);
		cb_qbatch_end(&qs.batch);
		return -1;
	}
	set_marks(cell);
	if (n > 1)
		return cb_path(console, size, "%s", qs.batch.console);
	return cb_path(console, size, "%s/console.log", cell_dir);
}

/* a fresh guest for @cell, KVM probed first where it may work */
static int boot_fresh(struct cb_run *run, const struct cb_cell *cell, const char *console,
		      enum boot_end *end)
{
	if (!icount_clock(cell->kernel) && cb_qemu_want_kvm()) {
		if (boot(run, cell, console, "kvm", KVM_PROBE_S, end) < 0)
			return -1;
		if (*end == BOOT_NOT_UP)
			cb_log("qemu: a KVM guest did not come up within %.0f s: TCG from now on",
			       KVM_PROBE_S);
		if (*end == BOOT_DIED_EARLY) {
			char tail[TAIL_BYTES + 64];

			console_tail(console, tail, sizeof(tail));
			cb_log("qemu: QEMU exited under KVM before the guest came up: TCG from now "
			       "on; its last words:\n%s", tail);
			*end = BOOT_NOT_UP;
		}
		if (*end == BOOT_NOT_UP)
			cb_qemu_kvm_failed();
		if (*end != BOOT_INTERRUPTED)
			cb_qemu_kvm_memo(*end == BOOT_NOT_UP);
	} else {
		*end = BOOT_NOT_UP;
	}
	if (*end == BOOT_NOT_UP && boot(run, cell, console, "tcg", 0, end) < 0)
		return -1;
	return 0;
}

/*
 * @cell in the guest that ran the cells before it: go, and watch for its lines. Returns 1
 * if the guest is gone or declined the cell (a fresh guest must run it), else 0.
 */
static int batch_next(struct cb_run *run, const struct cb_cell *cell, enum boot_end *end)
{
	double remote0 = run->timing.remote_s;
	char *text, *why;

	set_marks(cell);
	if (cb_qbatch_go(&qs.batch, cell) < 0) {
		cb_log("qemu: %s: cannot let the guest go on: %s", qs.batch.dir, strerror(errno));
		return 1;
	}
	qs.boot_s = qs.agent_end_s = -1;
	*end = watch(run, cell, qs.batch.pid, qs.batch.console, 0);
	if (*end != BOOT_CELL_DONE)
		qs.batch.pid = 0;
	if (*end != BOOT_EXITED)
		return 0;
	text = cb_read_file(qs.batch.console, NULL);
	if (qs.boot_s < 0 || (text && cb_qbatch_end_rc(text, cell) == 3)) {
		why = text ? strstr(text, " declined: ") : NULL;
		snprintf(qs.declined, sizeof(qs.declined), "%.*s", why ? (int)strcspn(why + 11, "\n") : 0,
			 why ? why + 11 : "");
		if (qs.boot_s < 0)
			snprintf(qs.declined, sizeof(qs.declined), "the guest ended before the cell");
		cb_log("qemu: %s: a fresh guest runs it: %s", cell->id, qs.declined);
		/* the declined attempt's time is part of this cell's boot */
		run->timing.s[CB_PART_BOOT] += run->timing.remote_s - remote0;
		run->timing.remote_s = remote0;
		free(text);
		return 1;
	}
	free(text);
	return 0;
}

/* what became of the guest that ran a cell: 0 it ran (see its meta.json), or -1 with run->err */
static int boot_result(struct cb_run *run, const char *console, enum boot_end end)
{
	char what[256];

	switch (end) {
	case BOOT_EXITED:
	case BOOT_CELL_DONE:
		return 0;
	case BOOT_INTERRUPTED:
		snprintf(run->err, sizeof(run->err), "interrupted: the guest was killed");
		return -1;
	default:
		snprintf(what, sizeof(what), "the %s guest was killed after %s", qs.accel,
			 qs.boot_s < 0 ? "the boot timeout: the agent never started" :
			 "the workload's time limit");
		return fail_tail(run, console, what);
	}
}

/* guest_state = saved: boot the state's guest, let it fragment, save it, end it */
static int save_state(struct cb_run *run, const struct cb_cell *cell, struct cb_qstate *st)
{
	const struct cb_workload *w = cell->workload;
	uint64_t t0 = cb_now_ns();
	char err[1024];
	struct stat sb;
	pid_t pid;
	int rc;

	qs.saving = true;
	cb_log("qemu: %s: a guest boots to fragment, then is saved for each setting's cell",
	       st->name);
	pid = spawn_qemu(run, cell, "tcg", st->console);
	if (pid < 0) {
		snprintf(run->err, sizeof(run->err), "qemu: cannot start: %s", strerror(errno));
		return -1;
	}
	rc = cb_qstate_save(st, pid, cb_qemu_conf(cell->kernel)->boot_timeout_s +
			    w->ready_timeout_s, SAVE_TIMEOUT_S, err, sizeof(err));
	kill_guest(pid);
	if (rc < 0)
		return fail_tail(run, st->console, err);
	cb_log("qemu: %s saved in %.1f s: %s (%.0f MiB)", st->name, (cb_now_ns() - t0) / 1e9,
	       st->path, stat(st->path, &sb) == 0 ? sb.st_size / 1048576.0 : 0.0);
	return 0;
}

/* guest_state = saved: @cell's guest loaded from its state, saved first if need be */
static int run_from_state(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir)
{
	enum boot_end end = BOOT_ERROR;
	char console[PATH_MAX], err[1024] = "";
	struct cb_qstate st;
	int rc = -1;
	pid_t pid;

	if (!run->todo) {
		/* a state is shared by cells that must run one after another, in this process */
		snprintf(run->err, sizeof(run->err), "[kernel %s] guest_state = saved: its cells run "
			 "one at a time in one process (run without --jobs)", cell->kernel->name);
		return -1;
	}
	if (cb_qstate_init(&st, run->dir, cell, err, sizeof(err)) < 0) {
		snprintf(run->err, sizeof(run->err), "%s", err);
		return -1;
	}
	qs.state = &st;
	qs.state_fd = -1;
	if (cb_qstate_sockets(&st, err, sizeof(err)) < 0 ||
	    (!cb_qstate_saved(&st) && save_state(run, cell, &st) < 0))
		goto fail;
	qs.saving = false;
	qs.state_fd = open(st.path, O_RDONLY | O_CLOEXEC);
	if (qs.state_fd < 0) {
		snprintf(err, sizeof(err), "%s: cannot open the saved guest: %s", st.path,
			 strerror(errno));
		goto fail;
	}
	/* the sockets of the guest before (the saved one) went with it: fresh names */
	if (cb_qstate_sockets(&st, err, sizeof(err)) < 0)
		goto fail;
	/* the loaded guest says nothing before the agent reads its cell */
	snprintf(qs.mark_start, sizeof(qs.mark_start), "%s %s ", CB_STATE_GO_LINE, cell->id);
	snprintf(qs.mark_end, sizeof(qs.mark_end), "%s", CB_INIT_AGENT_EXIT_LINE);
	qs.up_line = qs.mark_start;
	qs.stay = false;
	qs.accel = "tcg";
	qs.boot_s = qs.agent_end_s = -1;
	if (cb_path(console, sizeof(console), "%s/console.log", cell_dir) < 0) {
		snprintf(err, sizeof(err), "%s/console.log: path too long", cell_dir);
		goto fail;
	}
	pid = spawn_qemu(run, cell, "tcg", console);
	if (pid < 0) {
		snprintf(err, sizeof(err), "qemu: cannot start: %s", strerror(errno));
		goto fail;
	}
	if (cb_qstate_go(&st, cell, cb_qemu_conf(cell->kernel)->boot_timeout_s, err,
			 sizeof(err)) < 0) {
		kill_guest(pid);
		rc = fail_tail(run, console, err);
		goto out;
	}
	end = watch(run, cell, pid, console, 0);
	rc = boot_result(run, console, end);
	goto out;
fail:
	if (err[0]) /* else save_state said why */
		snprintf(run->err, sizeof(run->err), "%s", err);
out:
	if (qs.state_fd >= 0)
		close(qs.state_fd);
	cb_qstate_release(&st, run, cell);
	qs.state = NULL;
	return rc;
}

static int qemu_run_cell(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir)
{
	char console[PATH_MAX];
	enum boot_end end = BOOT_ERROR;
	bool fresh = true;

	qs.declined[0] = '\0';
	if (cb_mkdir_p(cell_dir) < 0) {
		snprintf(run->err, sizeof(run->err), "%s: %s", cell_dir, strerror(errno));
		return -1;
	}
	if (cb_qemu_conf(cell->kernel)->guest_state == CB_QEMU_STATE_SAVED)
		return run_from_state(run, cell, cell_dir);
	if (cb_qbatch_waits_for(&qs.batch, cell) && batch_next(run, cell, &end) == 0) {
		fresh = false;
		snprintf(console, sizeof(console), "%s", qs.batch.console);
	}
	if (fresh && (plan_guest(run, cell, cell_dir, console, sizeof(console)) < 0 ||
		      boot_fresh(run, cell, console, &end) < 0))
		return -1;
	qs.batch_pos = qs.batch.cells ? qs.batch.next : 0;
	qs.batch_nr = qs.batch.nr;
	snprintf(qs.batch_first, sizeof(qs.batch_first), "%s", cb_qbatch_name(&qs.batch));
	if (qs.batch.cells) {
		/* the cell's part of the console; a guest gone (or killed) ends the batch */
		cb_qbatch_console_split(&qs.batch, cell, cell_dir, end != BOOT_CELL_DONE);
		if (end != BOOT_CELL_DONE)
			cb_qbatch_end(&qs.batch);
		cb_path(console, sizeof(console), "%s/console.log", cell_dir);
	}
	return boot_result(run, console, end);
}

/*
 * What the host's CPUs did while the guest ran the cell (meta.json "qemu": host_cpus,
 * host_wall_s, host_busy_s, guest_cpu_s, and host_other_share: the busy time QEMU did not
 * take, as a share of the host's CPU time; null where unknown). The analysis warns when
 * other work took much of it.
 */
static void add_host_cpu(struct json_object *q)
{
	bool known = qs.host_busy_s >= 0 && qs.guest_cpu_s >= 0 && qs.host_wall_s > 0 &&
		     qs.host_cpus > 0;
	double other = known ? qs.host_busy_s - qs.guest_cpu_s : 0;

	json_object_object_add(q, "host_cpus", json_object_new_int64(qs.host_cpus));
	json_object_object_add(q, "host_wall_s", qs.host_wall_s < 0 ? NULL :
			       json_object_new_double(qs.host_wall_s));
	json_object_object_add(q, "host_busy_s", qs.host_busy_s < 0 ? NULL :
			       json_object_new_double(qs.host_busy_s));
	json_object_object_add(q, "guest_cpu_s", qs.guest_cpu_s < 0 ? NULL :
			       json_object_new_double(qs.guest_cpu_s));
	/* clock ticks on both sides: a few below zero is rounding, not a guest using more */
	json_object_object_add(q, "host_other_share", !known ? NULL :
			       json_object_new_double((other > 0 ? other : 0) /
						      (qs.host_wall_s * (double)qs.host_cpus)));
}

/* the agent wrote meta.json inside the guest; add how the guest was run */
static int qemu_fetch(struct cb_run *run, const struct cb_cell *cell, const char *cell_dir)
{
	char path[PATH_MAX], console[PATH_MAX], what[1024];
	struct json_object *meta, *q, *st, *er;
	const char *status;

	cb_path(console, sizeof(console), "%s/console.log", cell_dir);
	if (cb_path(path, sizeof(path), "%s/meta.json", cell_dir) < 0 ||
	    !(meta = json_object_from_file(path)))
		return fail_tail(run, console, "the guest wrote no meta.json");
	q = json_object_new_object();
	json_object_object_add(q, "accel", json_object_new_string(qs.accel));
	json_object_object_add(q, "kernel_image", json_object_new_string(
				       qs.image[kernel_index(run, cell->kernel)]));
	json_object_object_add(q, "initramfs", json_object_new_string(qs.initramfs));
	json_object_object_add(q, "memory_mib", json_object_new_int64(guest_mib(cell->kernel)));
	json_object_object_add(q, "cpus", json_object_new_int64(cb_qemu_conf(cell->kernel)->cpus));
	json_object_object_add(q, "clock", json_object_new_string(cb_qemu_clock_name(cell->kernel)));
	json_object_object_add(q, "icount_shift", icount_clock(cell->kernel) ?
			       json_object_new_int(CB_QEMU_ICOUNT_SHIFT) : NULL);
	json_object_object_add(q, "agent_start_s", json_object_new_double(qs.boot_s));
	json_object_object_add(q, "agent_end_s", qs.agent_end_s < 0 ? NULL :
			       json_object_new_double(qs.agent_end_s));
	json_object_object_add(q, "guest_s", json_object_new_double(qs.total_s));
	json_object_object_add(q, "boot", json_object_new_string(qs.batch_pos ? "per-kernel" :
								 "per-cell"));
	json_object_object_add(q, "guest_state", json_object_new_string(
				       cb_qemu_conf(cell->kernel)->guest_state == CB_QEMU_STATE_SAVED ?
				       "saved" : "boot"));
	if (qs.batch_pos) {
		json_object_object_add(q, "guest_first_cell", json_object_new_string(qs.batch_first));
		json_object_object_add(q, "guest_cell", json_object_new_int64((int64_t)qs.batch_pos));
		json_object_object_add(q, "guest_cells", json_object_new_int64((int64_t)qs.batch_nr));
	}
	if (qs.declined[0])
		json_object_object_add(q, "fresh_guest_because", json_object_new_string(qs.declined));
	add_host_cpu(q);
	json_object_object_add(meta, "qemu", q);
	cb_json_write_atomic(path, meta);
	status = json_object_object_get_ex(meta, "status", &st) ? json_object_get_string(st) : "";
	if (strcmp(status, "complete")) {
		snprintf(what, sizeof(what), "the agent in the guest says %s: %s", status,
			 json_object_object_get_ex(meta, "error", &er) && er ?
			 json_object_get_string(er) : "(no error recorded)");
		json_object_put(meta);
		return fail_tail(run, console, what);
	}
	json_object_put(meta);
	return 0;
}

static void qemu_teardown(struct cb_run *run)
{
	char path[PATH_MAX];

	/* a batch's guest still waiting for cells the run will not start */
	cb_qbatch_end(&qs.batch);
	if (cb_path(path, sizeof(path), "%s/.batch", run->dir) == 0)
		rmdir(path); /* if empty: a killed run's batches stay for a look */
}

const struct cb_target_ops cb_target_qemu = {
	.name = "qemu",
	.prepare = qemu_prepare,
	.run_cell = qemu_run_cell,
	.fetch = qemu_fetch,
	.teardown = qemu_teardown,
};
