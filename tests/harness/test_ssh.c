// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ssh.c - integration: the ssh target against a throwaway sshd on 127.0.0.1 (this
 * machine as root, its own host and client keys, known_hosts and journal in a temp dir).
 *   - a cell runs over ssh, comes back whole (meta.json names the host, vmstat, summary)
 *     and vm.compaction_proactiveness is back afterwards;
 *   - the ssh client is killed mid-cell (and the local run with it): the remote agent gets
 *     SIGHUP and restores the knob by itself;
 *   - the remote agent is SIGKILLed too: the knob stays changed, the remote journal stays,
 *     and the next run's prepare replays it;
 *   - a refused connection and a refused key fail with messages naming the host.
 * sshd is stopped and the temp dir removed at the end, also when a test failed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "itest.h"

#define SSHD "/usr/sbin/sshd"
#define HOST "root@127.0.0.1"

static char dir[] = "/tmp/cb-test-ssh-XXXXXX";
static char log_path[600], smoke_cfg[600], slow_cfg[600], journal[600];
static long original, changed;
static int port;
static pid_t sshd = -1;
static bool made_run_sshd;

/* run a program (no shell), quietly; returns its exit status */
static int run_quiet(char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	return itest_wait(pid);
}

static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), p = -1;

	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		p = ntohs(a.sin_port);
	close(fd);
	return p;
}

static bool port_open(int p)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(p),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	bool ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;

	close(fd);
	return ok;
}

static int write_text(const char *name, char *path, size_t size, const char *fmt, ...)
{
	char *text;
	va_list ap;
	int rc;

	snprintf(path, size, "%s/%s", dir, name);
	va_start(ap, fmt);
	rc = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -1;
	rc = cb_write_file_atomic(path, text, strlen(text));
	free(text);
	return rc;
}

static int start_sshd(void)
{
	char host_key[700], client_key[700], conf[700], path[700], *pub;
	char *kg_host[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", host_key, NULL };
	char *kg_client[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", client_key, NULL };
	char *kg_other[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", path, NULL };

	snprintf(host_key, sizeof(host_key), "%s/host_key", dir);
	snprintf(client_key, sizeof(client_key), "%s/client_key", dir);
	snprintf(path, sizeof(path), "%s/other_key", dir);
	if (run_quiet(kg_host) || run_quiet(kg_client) || run_quiet(kg_other))
		return -1;
	snprintf(path, sizeof(path), "%s.pub", client_key);
	pub = cb_read_file(path, NULL);
	if (!pub || write_text("authorized_keys", path, sizeof(path), "%s", pub) < 0)
		return -1;
	free(pub);
	snprintf(path, sizeof(path), "%s.pub", host_key);
	pub = cb_read_file(path, NULL);
	if (!pub || write_text("known_hosts", path, sizeof(path), "[127.0.0.1]:%d %s", port, pub) < 0)
		return -1;
	free(pub);
	if (write_text("sshd_config", conf, sizeof(conf),
		       "ListenAddress 127.0.0.1\nPort %d\nHostKey %s\nPidFile %s/sshd.pid\n"
		       "PermitRootLogin prohibit-password\nStrictModes no\n"
		       "AuthorizedKeysFile %s/authorized_keys\nPasswordAuthentication no\n"
		       "KbdInteractiveAuthentication no\nUsePAM no\n"
		       "Subsystem sftp internal-sftp\n", port, host_key, dir, dir) < 0)
		return -1;
	/* sshd's privilege separation needs it; a machine without a running sshd lacks it */
	if (mkdir("/run/sshd", 0755) == 0)
		made_run_sshd = true;
	sshd = fork();
	if (sshd == 0) {
		char elog[700];

		snprintf(elog, sizeof(elog), "%s/sshd.log", dir);
		execl(SSHD, SSHD, "-D", "-f", conf, "-E", elog, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 100 && !port_open(port); i++)
		usleep(100000);
	return port_open(port) ? 0 : -1;
}

/* the pids of processes whose parent is @ppid and whose name is @comm */
static pid_t child_named(pid_t ppid, const char *comm)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t found = -1;

	while (d && (e = readdir(d)) && found < 0) {
		char path[300], buf[512], name[64];
		int pp;

		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (cb_read_trimmed(path, buf, sizeof(buf)) < 0)
			continue;
		if (sscanf(buf, "%*d (%63[^)]) %*c %d", name, &pp) == 2 && pp == ppid &&
		    !strcmp(name, comm))
			found = atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

/* a process whose argv[0] is under our temp dir and argv[1] is @arg1 (the remote agent) */
static pid_t process_of(const char *arg1)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t found = -1;

	while (d && (e = readdir(d)) && found < 0) {
		char path[300];
		size_t len;
		char *cmd;

		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		cmd = cb_read_file(path, &len);
		if (cmd && !strncmp(cmd, dir, strlen(dir)) && strlen(cmd) + 1 < len &&
		    !strcmp(cmd + strlen(cmd) + 1, arg1))
			found = atoi(e->d_name);
		free(cmd);
	}
	if (d)
		closedir(d);
	return found;
}

static bool wait_gone(pid_t pid, double secs)
{
	for (int i = 0; i < secs * 10; i++) {
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return true;
		usleep(100000);
	}
	return false;
}

static char *log_text(void)
{
	char *t = cb_read_file(log_path, NULL);

	assert_non_null(t);
	return t;
}

static void test_smoke_cell(void **state)
{
	char out[700], p[900], v[128], *args[] = { "run", smoke_cfg, "-o", out, NULL };
	struct stat st;

	snprintf(out, sizeof(out), "%s/out-smoke", dir);
	if (itest_wait(itest_spawn(log_path, args)) != 0) {
		char *t = log_text();

		fail_msg("the run failed:\n%s", t);
	}
	assert_int_equal(itest_read_long(PROACTIVENESS), original);
	snprintf(p, sizeof(p), "%s/lab.s.tiny.r1/meta.json", out);
	assert_string_equal(itest_json(p, "status", v, sizeof(v)), "complete");
	assert_string_equal(itest_json(p, "target", v, sizeof(v)), "ssh");
	assert_string_equal(itest_json(p, "ssh.host", v, sizeof(v)), HOST);
	assert_string_equal(itest_json(p, "ssh.agent_exit", v, sizeof(v)), "0");
	/* the agent on the far side set the knob: its read-back is in the cell's meta */
	{
		struct json_object *m = json_object_from_file(p), *k, *val;

		assert_true(m && json_object_object_get_ex(m, "knobs", &k) &&
			    json_object_object_get_ex(k, "vm.compaction_proactiveness", &val));
		assert_int_equal(atol(json_object_get_string(val)), changed);
		json_object_put(m);
	}
	for (const char *const *f = (const char *const[]){ "vmstat.before", "vmstat.after",
			"trace.dat", "summary.json", "ssh.log", NULL }; *f; f++) {
		snprintf(p, sizeof(p), "%s/lab.s.tiny.r1/%s", out, *f);
		if (stat(p, &st) < 0 || st.st_size == 0)
			fail_msg("%s: missing or empty", p);
	}
	/*
	 * the breakdown: the remote agent's own parts (its meta.json came back) in place of
	 * the ssh session's time; what ssh itself took is the unaccounted rest, never negative
	 */
	snprintf(p, sizeof(p), "%s/lab.s.tiny.r1/meta.json", out);
	assert_string_not_equal(itest_json(p, "timing.remote_agent_s", v, sizeof(v)), "null");
	print_message("ssh cell: remote agent %s s, ", v);
	assert_true(strtod(itest_json(p, "timing.parts.demand", v, sizeof(v)), NULL) > 0);
	assert_true(strtod(itest_json(p, "timing.parts.setup", v, sizeof(v)), NULL) > 0);
	print_message("unaccounted %s s ", itest_json(p, "timing.unaccounted_s", v, sizeof(v)));
	print_message("of %s s\n", itest_json(p, "timing.wall_s", v + 32, sizeof(v) - 32));
	assert_true(strtod(v, NULL) > -0.01 * strtod(v + 32, NULL));
	snprintf(p, sizeof(p), "%s/run.json", out);
	assert_string_equal(itest_json(p, "complete", v, sizeof(v)), "true");
	/* the remote copy of the cell is gone, and so is the journal */
	snprintf(p, sizeof(p), "%s/remote/run/lab.s.tiny.r1", dir);
	assert_int_equal(access(p, F_OK), -1);
	assert_int_equal(access(journal, F_OK), -1);
}

/* start the slow run and wait until the remote agent has set the knob */
static pid_t start_slow(const char *name)
{
	char out[700];
	char *args[] = { "run", slow_cfg, "-o", out, NULL };
	pid_t pid;

	snprintf(out, sizeof(out), "%s/%s", dir, name);
	pid = itest_spawn(log_path, args);
	if (!itest_wait_value(PROACTIVENESS, changed, 120)) {
		kill(pid, SIGKILL);
		itest_wait(pid);
		fail_msg("the knob never changed:\n%s", log_text());
	}
	sleep(2); /* well inside the cell */
	return pid;
}

static void test_ssh_killed_sighup_restores(void **state)
{
	pid_t run = start_slow("out-hup"), ssh = child_named(run, "ssh"),
	      agent = process_of("agent");

	assert_true(ssh > 0);
	assert_true(agent > 0);
	/* the local run frozen, then gone: only the remote agent can restore now */
	kill(run, SIGSTOP);
	kill(ssh, SIGKILL);
	kill(run, SIGKILL);
	assert_int_equal(itest_wait(run), 128 + SIGKILL);
	assert_true(itest_wait_value(PROACTIVENESS, original, 90));
	assert_true(wait_gone(agent, 90));
	assert_int_equal(access(journal, F_OK), -1);
}

static void test_agent_killed_next_prepare_replays(void **state)
{
	pid_t run = start_slow("out-kill"), ssh = child_named(run, "ssh"),
	      agent = process_of("agent");
	char out[700], *args[] = { "run", smoke_cfg, "-o", out, NULL }, *t, *restored, *first;

	assert_true(ssh > 0);
	assert_true(agent > 0);
	kill(run, SIGSTOP);
	kill(agent, SIGKILL);
	assert_true(wait_gone(agent, 10));
	kill(ssh, SIGKILL);
	kill(run, SIGKILL);
	assert_int_equal(itest_wait(run), 128 + SIGKILL);
	sleep(1);
	/* nobody restored: the knob is changed and the remote journal holds the old value */
	assert_int_equal(itest_read_long(PROACTIVENESS), changed);
	assert_int_equal(access(journal, F_OK), 0);
	/* the next run replays it in prepare, before its first cell */
	snprintf(out, sizeof(out), "%s/out-next", dir);
	assert_int_equal(itest_wait(itest_spawn(log_path, args)), 0);
	t = log_text();
	restored = strstr(t, HOST ": compactbench: restored /proc/sys/vm/compaction_proactiveness");
	first = strstr(t, "[1/1]");
	if (!restored || !first || restored > first)
		fail_msg("no journal replay before the first cell:\n%s", t);
	free(t);
	assert_int_equal(itest_read_long(PROACTIVENESS), original);
	assert_false(itest_instance_of(agent));
	assert_int_equal(access(journal, F_OK), -1);
}

static void expect_failure(const char *cfg, const char *needle)
{
	char out[700], *args[] = { "run", (char *)cfg, "-o", out, NULL }, *t;

	snprintf(out, sizeof(out), "%s/out-fail", dir);
	assert_int_equal(itest_wait(itest_spawn(log_path, args)), 1);
	t = log_text();
	if (!strstr(t, needle) || !strstr(t, HOST))
		fail_msg("want '%s' and the host in:\n%s", needle, t);
	free(t);
}

static void test_errors_name_the_host(void **state)
{
	char cfg[700];

	write_text("refused.ini", cfg, sizeof(cfg),
		   "[kernel lab]\ntarget = ssh\nhost = " HOST "\nport = %d\n"
		   "[setting s]\nvm.compaction_proactiveness = %ld\n"
		   "[workload tiny]\ndemand = idle\ndemand.duration = 1s\n", free_port(), changed);
	expect_failure(cfg, "ssh failed (exit 255");
	write_text("badkey.ini", cfg, sizeof(cfg),
		   "[kernel lab]\ntarget = ssh\nhost = " HOST "\nport = %d\nidentity = other_key\n"
		   "ssh_options = UserKnownHostsFile=%s/known_hosts, StrictHostKeyChecking=yes\n"
		   "[setting s]\nvm.compaction_proactiveness = %ld\n"
		   "[workload tiny]\ndemand = idle\ndemand.duration = 1s\n", port, dir, changed);
	expect_failure(cfg, "could not log in (exit 255, authentication)");
	assert_int_equal(itest_read_long(PROACTIVENESS), original);
}

/* whatever a failed test left: our processes (by their paths), sshd, the knob, the files */
static void cleanup(void)
{
	pid_t pid;

	for (int i = 0; i < 20 && (pid = process_of("agent")) > 0; i++) {
		kill(pid, SIGTERM);
		wait_gone(pid, 70);
	}
	if (sshd > 0) {
		kill(sshd, SIGTERM);
		itest_wait(sshd);
	}
	if (itest_read_long(PROACTIVENESS) != original) {
		char v[32];

		snprintf(v, sizeof(v), "%ld", original);
		cb_write_string(PROACTIVENESS, v);
	}
	if (made_run_sshd)
		rmdir("/run/sshd");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smoke_cell),
		cmocka_unit_test(test_ssh_killed_sighup_restores),
		cmocka_unit_test(test_agent_killed_next_prepare_replays),
		cmocka_unit_test(test_errors_name_the_host),
	};
	static const char kernel_fmt[] =
		"[global]\nreps = 1\nstart_state = none\n"
		"[kernel lab]\ntarget = ssh\nhost = " HOST "\nport = %d\nidentity = client_key\n"
		"remote_dir = %s/remote\nremote_state_dir = %s/rstate\n"
		"ssh_options = UserKnownHostsFile=%s/known_hosts, StrictHostKeyChecking=yes\n"
		"[setting s]\nvm.compaction_proactiveness = %ld\n";
	char state_dir[700];
	int rc;

	testenv_require_cb();
	if (!itest_can_trace() || access(SSHD, X_OK) < 0) {
		fprintf(stderr, "skip: needs root, tracefs, a writable %s and %s (openssh-server)\n",
			PROACTIVENESS, SSHD);
		return 77;
	}
	if (!mkdtemp(dir))
		return 1;
	chmod(dir, 0755);
	original = itest_read_long(PROACTIVENESS);
	changed = original == 37 ? 38 : 37;
	port = free_port();
	snprintf(log_path, sizeof(log_path), "%s/log", dir);
	snprintf(journal, sizeof(journal), "%s/rstate/restore.journal", dir);
	/* the local run's own journal stays out of /run/compactbench too */
	snprintf(state_dir, sizeof(state_dir), "%s/lstate", dir);
	setenv("COMPACTBENCH_STATE_DIR", state_dir, 1);
	{
		char head[4096];

		snprintf(head, sizeof(head), kernel_fmt, port, dir, dir, dir, changed);
		if (write_text("smoke.ini", smoke_cfg, sizeof(smoke_cfg), "%s[workload tiny]\n"
			       "demand = thp-demand\ndemand.size = 8M\n", head) < 0 ||
		    write_text("slow.ini", slow_cfg, sizeof(slow_cfg), "%s[workload slow]\n"
			       "demand = idle\ndemand.duration = 60s\n", head) < 0)
			return 1;
	}
	if (start_sshd() < 0) {
		fprintf(stderr, "could not start %s on port %d (see %s/sshd.log)\n", SSHD, port, dir);
		cleanup();
		cb_rm_rf(dir);
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	cleanup();
	if (rc) {
		char *t = cb_read_file(log_path, NULL);

		fprintf(stderr, "last compactbench log:\n%s\n", t ? t : "(none)");
		free(t);
	}
	cb_rm_rf(dir);
	return rc;
}
