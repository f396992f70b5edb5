/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd.h - the `compactbench` commands of harness/cmd/: each takes its argv (argv[0] is the
 * command's name) and returns the process exit code (0 ok, 1 failed, 2 bad input, 130
 * interrupted). The commands of the analysis layer (analyze, compare, gate, plot) are
 * declared in analysis/core/analyze.h and analysis/compare/compare.h.
 */
#ifndef CB_CMD_H
#define CB_CMD_H

/*
 * cmd_run - `compactbench run CONFIG [-o DIR] [--resume] [--shard I/N] [--reps N] [--quick]`;
 * returns the exit code
 */
int cmd_run(int argc, char **argv);

/* cmd_merge - `compactbench merge OUT DIR...`: join shard run directories into one run */
int cmd_merge(int argc, char **argv);

/* cmd_restore - `compactbench restore`: put back knobs a killed run left changed */
int cmd_restore(int argc, char **argv);

/* cmd_config - `compactbench config check FILE | doc`: check a config, print the key reference */
int cmd_config(int argc, char **argv);

/* cmd_kernel - `compactbench kernel build CONFIG [KERNEL]`: build a kernel from its recipe */
int cmd_kernel(int argc, char **argv);

/* cmd_agent - `compactbench agent`: run one cell of a config here (inside a target) */
int cmd_agent(int argc, char **argv);

#endif
