/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd_record.h - `compactbench record`: the collector around any command.
 */
#ifndef CB_CMD_RECORD_H
#define CB_CMD_RECORD_H

/*
 * cmd_record - compactbench record [-o FILE] [-e EVENT]... [--no-probes] [--buffer-kb N]
 * [--tracing-dir DIR] -- CMD [ARGS]: runs CMD (execvp, no shell) while the collector
 * records, stops on CMD's exit (SIGINT, SIGTERM and SIGHUP are passed on to CMD), writes
 * the trace and prints a one-line summary on stderr. Returns CMD's exit status (128 + the
 * signal if a signal ended it), 2 for a bad command line, 125 when recording failed, 126
 * or 127 when CMD could not be run.
 */
int cmd_record(int argc, char **argv);

#endif
