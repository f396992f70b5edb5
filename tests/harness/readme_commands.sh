#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# readme_commands.sh README COMPACTBENCH - README's command table is what
# `compactbench help --markdown` prints (from cb_commands[], harness/cmd/cmd.c): the lines
# between the "begin: the command table" and "end: the command table" comments must equal
# it byte for byte. On a difference it prints the diff and how to update the README.
set -u
readme=${1:?README} cb=${2:?COMPACTBENCH}

want=$("$cb" help --markdown) || { echo "readme-commands: compactbench help --markdown failed"; exit 1; }
have=$(sed -n '/^<!-- begin: the command table/,/^<!-- end: the command table/p' "$readme" |
	sed '1d;$d;/^$/d')
if [ -z "$have" ]; then
	echo "readme-commands: $readme has no 'begin/end: the command table' comments"
	exit 1
fi
if [ "$have" != "$want" ]; then
	diff -u --label "$readme" --label "compactbench help --markdown" \
		<(printf '%s\n' "$have") <(printf '%s\n' "$want")
	echo "readme-commands: README's command table differs from cb_commands[]: edit"
	echo "harness/cmd/cmd.c and put 'compactbench help --markdown' between the comments"
	exit 1
fi
echo "readme-commands: $(printf '%s\n' "$want" | wc -l) lines equal"
