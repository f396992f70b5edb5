// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracecheck_trial.c - the texts of a trace.dat that libtracecmd hands to libtraceevent's
 * parsers (event formats, printk formats, kallsyms, saved cmdlines), parsed first by those
 * same parsers in a throw-away child process. libtraceevent 1.7's print-fmt parser
 * dereferences NULL on malformed C expressions in ways no grammar check here can list
 * (fuzzing found '"x". f(...)' and others); a text that crashes or hangs the trial is
 * refused, naming its section and event, before the reader parses it for real. A set of
 * texts that passed is remembered by its SHA-256 (libcrypto), so a process that reads many
 * files with the same formats (the fuzzer) forks once per new set.
 */
#include "sanitizer.h"
#include "tracecheck_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <traceevent/event-parse.h>

#define TRIAL_TIMEOUT_MS 60000
#define PASSED_MAX 64		/* text sets that passed, remembered by their SHA-256 */

static unsigned char passed[PASSED_MAX][32];
static int npassed, next_passed;

struct tc_text {
	int kind;
	char *sys, *text;
	size_t len;
	uint64_t at;
};

struct tc_texts {
	struct tc_text *v;
	size_t n, cap;
};

int tc_keep_text(struct tc_rd *r, int kind, const char *sys, char *text, size_t len,
		 uint64_t at)
{
	struct tc_texts *t = r->texts;
	struct tc_text *x;

	if (!t) {
		free(text);
		return 0;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;

		x = realloc(t->v, cap * sizeof(*x));
		if (!x) {
			free(text);
			return tc_bad(r, at, "out of memory");
		}
		t->v = x;
		t->cap = cap;
	}
	x = &t->v[t->n++];
	x->kind = kind;
	x->sys = strdup(sys ? sys : "");
	x->text = text;
	x->len = len;
	x->at = r->mem ? r->base : at;	/* a compressed section: its header's offset */
	return 0;
}

struct tc_texts *tc_texts_new(void)
{
	return calloc(1, sizeof(struct tc_texts));
}

void tc_texts_free(struct tc_texts *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++) {
		free(t->v[i].sys);
		free(t->v[i].text);
	}
	free(t->v);
	free(t);
}

#ifdef CB_ASAN
static void trial_died(void)
{
	_exit(2);
}
#endif

/* the child: parse every text as libtracecmd would, telling the parent which one it is at */
static void trial_child(const struct tc_rd *r, int fd)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP };
	const struct tc_texts *t = r->texts;
	struct rlimit no_core = { 0, 0 };
	struct tep_handle *tep;
	int null = open("/dev/null", O_WRONLY);
	uint32_t i;

	setrlimit(RLIMIT_CORE, &no_core);
	if (null >= 0)
		dup2(null, 2);	/* a crash here is expected: no report */
	/* nor the sanitizer's or libFuzzer's crash handlers (which save the input as a crash) */
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
#ifdef CB_ASAN
	__sanitizer_set_death_callback(trial_died);
#endif
	tep = tep_alloc();
	if (!tep)
		_exit(3);
	tep_set_loglevel(TEP_LOG_NONE);
	tep_set_file_bigendian(tep, r->swap ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, r->long_size);
	tep_set_page_size(tep, r->psize);
	for (i = 0; i < t->n; i++) {
		const struct tc_text *x = &t->v[i];

		if (write(fd, &i, 4) != 4)
			_exit(3);
		switch (x->kind) {
		case TC_TEXT_HEADER:
			tep_parse_header_page(tep, x->text, x->len, r->long_size);
			break;
		case TC_TEXT_FORMAT:
			tep_parse_event(tep, x->text, x->len, x->sys);
			break;
		case TC_TEXT_PRINTK:
			tep_parse_printk_formats(tep, x->text);
			break;
		case TC_TEXT_KALLSYMS:
			tep_parse_kallsyms(tep, x->text);
			break;
		default:
			tep_parse_saved_cmdlines(tep, x->text);
			break;
		}
	}
	tep_free(tep);
	_exit(0);
}

/* the SHA-256 of every kept text with its kind and system: what the trial result is for */
static int texts_digest(const struct tc_texts *t, unsigned char md[32])
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned int n = 0;
	size_t i;
	int ok;

	ok = c && EVP_DigestInit_ex(c, EVP_sha256(), NULL);
	for (i = 0; ok && i < t->n; i++) {
		const struct tc_text *x = &t->v[i];
		uint64_t hdr[2] = { (uint64_t)x->kind, x->len };

		ok = EVP_DigestUpdate(c, hdr, sizeof(hdr)) &&
		     EVP_DigestUpdate(c, x->sys, strlen(x->sys) + 1) &&
		     EVP_DigestUpdate(c, x->text, x->len);
	}
	ok = ok && EVP_DigestFinal_ex(c, md, &n) && n == 32;
	EVP_MD_CTX_free(c);
	return ok ? 0 : -1;
}

static const char *const kinds[] = { "header_page", "event format", "printk formats",
	"kallsyms", "saved cmdlines" };

int tc_trial(struct tc_rd *r)
{
	const struct tc_texts *t = r->texts;
	uint32_t at = 0, k;
	int p[2], st = 0, waited = 0;
	pid_t pid;

	unsigned char md[32];
	int i, have_md;

	if (!t || !t->n)
		return 0;
	/* the same texts passed already in this process (the fuzzer mutates mostly pages) */
	have_md = !texts_digest(t, md);
	for (i = 0; have_md && i < npassed; i++)
		if (!memcmp(passed[i], md, 32))
			return 0;
	if (pipe2(p, O_CLOEXEC))
		return tc_bad(r, 0, "cannot make a pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return tc_bad(r, 0, "cannot fork the format trial: %s", strerror(errno));
	}
	if (!pid) {
		close(p[0]);
		trial_child(r, p[1]);
	}
	close(p[1]);
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		int n = poll(&pfd, 1, 100);

		if (n > 0) {
			if (read(p[0], &k, 4) == 4) {
				at = k;
				continue;
			}
			break;	/* the child closed the pipe: it ended */
		}
		if (n < 0 && errno != EINTR)
			break;
		if ((waited += 100) >= TRIAL_TIMEOUT_MS) {
			kill(pid, SIGKILL);
			break;
		}
	}
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && !WEXITSTATUS(st)) {
		if (have_md) {
			memcpy(passed[next_passed], md, 32);
			next_passed = (next_passed + 1) % PASSED_MAX;
			npassed += npassed < PASSED_MAX;
		}
		return 0;
	}
	if (at >= t->n)
		at = 0;
	r->mem = NULL;
	r->sect = NULL;
	return tc_bad(r, t->v[at].at, "the %s%s%s%.60s%s would %s libtraceevent's parser%s%s",
		      kinds[t->v[at].kind], t->v[at].sys[0] ? " (system " : "", t->v[at].sys,
		      "", t->v[at].sys[0] ? ")" : "",
		      WIFSIGNALED(st) ? "crash" : "hang or fail in", WIFSIGNALED(st) ? ": " : "",
		      WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "");
}
