/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * shquote.h - quoting for the one place a shell cannot be avoided: the command line that
 * ssh hands to the remote user's shell. Locally nothing goes through a shell (argv only);
 * remotely every variable part of a command is one single-quoted word.
 */
#ifndef CB_SHQUOTE_H
#define CB_SHQUOTE_H

#include <stdio.h>

/*
 * cb_sh_quote - write @s to @out as one POSIX shell word that the shell turns back into
 * exactly @s: '...' with each ' written as '\'' (nothing is special inside single quotes:
 * no $, `, \, globbing or word splitting). The empty string becomes ''.
 * Returns 0, or -1 with errno if @out failed.
 */
int cb_sh_quote(FILE *out, const char *s);

/* cb_sh_quoted - cb_sh_quote into a malloc'ed string (free it); aborts if out of memory */
char *cb_sh_quoted(const char *s);

#endif
