#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# metric_table.sh COMPACTBENCH README - analysis/README.md's metric table is generated: the
# table that starts at "| metric | unit |" must equal `compactbench analyze --metrics`, line
# for line. On a difference, print it and the command that regenerates the table.
set -eu
cb=$1
readme=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$cb" analyze --metrics >"$tmp/generated.md"
awk '/^\| metric \| unit \|/ { on = 1 } on && !/^\|/ { exit } on { print }' "$readme" \
	>"$tmp/readme.md"
if [ ! -s "$tmp/readme.md" ]; then
	echo "metric_table: no '| metric | unit |' table in $readme" >&2
	exit 1
fi
if ! diff -u "$tmp/readme.md" "$tmp/generated.md"; then
	echo "metric_table: $readme's metric table differs from 'compactbench analyze" \
	     "--metrics' (-: README, +: generated); paste the generated table into it" >&2
	exit 1
fi
echo "metric_table: $(wc -l <"$tmp/generated.md") lines equal"
