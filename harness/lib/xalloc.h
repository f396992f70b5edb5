/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xalloc.h - the project's out-of-memory policy, and the error idiom every layer uses.
 *
 * Errors. A function that can fail returns -1 (or NULL) and sets errno, as libtracefs does;
 * where the caller needs to tell a person what went wrong, it also takes a caller's buffer
 * (char *err, size_t errlen) and writes one line into it that names the file and the line,
 * offset or field at fault. The caller decides whether to print it, prefix it, or pass it
 * up: a library function returns its error, the command prints it. A long-lived object
 * that several threads or steps report through keeps its message in the object instead
 * (struct cb_run's err, the collector's): its owner reads it once, when the object failed.
 * No module keeps a message behind a thread-local getter; a result besides the return
 * value (the CPU a trace.dat write adopted, say) is an out-parameter.
 *
 * Out of memory. The harness, the analysis and the workloads are short-lived programs with
 * nothing to save when malloc fails: a half-written result would be worse than none (every
 * file is written under a temporary name and renamed, so dying leaves no partial file). So
 * an allocation failure is not an error to return: the cb_x* functions below, and every
 * other allocation check in the project, call cb_oom(), which prints
 * "PROGRAM: out of memory" on stderr and aborts. json-c's constructors are the exception
 * that is not checked one by one: a NULL from one becomes a JSON null where it is added,
 * never a number.
 */
#ifndef CB_XALLOC_H
#define CB_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

/*
 * cb_fail - the error idiom in one call: format one line into the caller's @err (@errlen
 * bytes; an @errlen of 0 writes nothing, so a caller that wants no message passes NULL, 0),
 * set errno to @e and return -1
 */
int cb_fail(char *err, size_t errlen, int e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * cb_set_err - the line into @err as cb_fail writes it, errno kept as it was (for a caller
 * that returns its own failure value, or names errno's strerror in the line)
 */
void cb_set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* cb_vfail - cb_fail with a va_list */
int cb_vfail(char *err, size_t errlen, int e, const char *fmt, va_list ap);

/* cb_oom - print "PROGRAM: out of memory" on stderr and abort(); never returns */
void cb_oom(void) __attribute__((noreturn));

/* cb_xmalloc - malloc(@size), or cb_oom(); a @size of 0 allocates 1 byte */
void *cb_xmalloc(size_t size);

/* cb_xcalloc - calloc(@nmemb, @size) (overflow-checked), or cb_oom() */
void *cb_xcalloc(size_t nmemb, size_t size);

/* cb_xrealloc - realloc(@p, @size), or cb_oom(); a @size of 0 keeps 1 byte */
void *cb_xrealloc(void *p, size_t size);

/*
 * cb_xgrow - room for one more element in the array @p, which has *@cap elements of @size
 * bytes and holds @n: when it is full (@n == *@cap) the capacity doubles (@first when it
 * was 0) and the array is reallocated, or cb_oom(). Returns the array (@p when not full).
 */
void *cb_xgrow(void *p, size_t *cap, size_t n, size_t size, size_t first);

/* cb_xstrdup - strdup(@s), or cb_oom() */
char *cb_xstrdup(const char *s);

/* cb_xasprintf - a malloc'ed printf of @fmt, or cb_oom() */
char *cb_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
