/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal.h - the restore journal: every knob's old value is on disk before the knob changes.
 *
 * The harness runs as root and changes sysctls and sysfs files. Before each first change of
 * a file it appends "PATH<TAB>OLD-VALUE" to the journal and fsyncs it, so whatever ends the
 * run (an error, SIGINT, SIGKILL, a power cut before reboot) the old values can be put back:
 * at the end of a run, on SIGINT/SIGTERM, at the next start, or by `compactbench restore`.
 * The journal lives in /run (tmpfs): after a reboot the knobs are back to their boot
 * values anyway, and an old journal must not overwrite them.
 */
#ifndef CB_JOURNAL_H
#define CB_JOURNAL_H

#include <stddef.h>
#include <stdbool.h>

#define CB_STATE_DIR_DEFAULT "/run/compactbench"

struct cb_journal {
	char path[4096]; /* the journal file */
};

/*
 * cb_journal_open - name the journal in @state_dir (NULL: $COMPACTBENCH_STATE_DIR, else
 * CB_STATE_DIR_DEFAULT) and create the directory. Returns 0, or -1 with errno.
 */
int cb_journal_open(struct cb_journal *j, const char *state_dir);

/* cb_journal_pending - whether a journal with entries exists (a run did not restore) */
bool cb_journal_pending(const struct cb_journal *j);

/*
 * cb_journal_set - set the knob file @path to @value, journaling its old value first
 * @readback: receives the value read back after the write (size @rbsize), may be NULL
 * Returns 0, or -1 with a message naming the file in @err.
 */
int cb_journal_set(struct cb_journal *j, const char *path, const char *value, char *readback,
		   size_t rbsize, char *err, size_t errlen);

/*
 * cb_journal_restore - write every journaled old value back (the first one saved for each
 * file), newest change first, then remove the journal. @log gets one line per knob.
 * Knobs that could not be restored stay in the journal. Returns the number restored, or -1
 * if any failed (the message of the first failure is in @err).
 */
int cb_journal_restore(struct cb_journal *j, void (*log)(const char *msg), char *err,
		       size_t errlen);

#endif
