#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# rewrite_check.sh - files trace-cmd reads correctly must be read by analyze the same way:
# the v6 fixture made big-endian by tracedat_rewrite.py (trace-cmd report must print the
# same events for both: the rewrite is checked by trace-cmd itself); and with its CPU data
# off page boundaries, which libtracecmd 3.1.6 cannot mmap (it prints "mmap: ..." past its
# log level) and then reads only the first page of each CPU from (trace-cmd report prints
# 128 of the 4133 events): analyze must refuse that, quietly, not report 128 events.
#   env: FIXTURES, TRACE_CMD, COMPACTBENCH, PYTHON
set -eu
[ -n "${TRACE_CMD:-}" ] && [ -n "${PYTHON:-}" ] || { echo "no trace-cmd or python3: skipped"; exit 77; }
dir=$(mktemp -d /tmp/cb-rewrite-XXXXXX)
trap 'rm -rf "$dir"' EXIT
src=$FIXTURES/analysis-thp-compact.v6.dat
rw=$(dirname "$0")/tracedat_rewrite.py
fail() { echo "FAIL: $*"; exit 1; }

"$PYTHON" "$rw" "$src" "$dir/le.dat"
cmp -s "$src" "$dir/le.dat" || fail "the rewriter does not reproduce the fixture byte for byte"
"$PYTHON" "$rw" "$src" "$dir/be.dat" --big-endian
"$PYTHON" "$rw" "$src" "$dir/off.dat" --misalign
[ "$(od -An -tu1 -j12 -N1 "$dir/be.dat" | tr -d ' ')" = 1 ] || fail "be.dat is not big-endian"
for f in le be off; do
	"$TRACE_CMD" report "$dir/$f.dat" 2>/dev/null | grep -v '^version\|^cpus=' > "$dir/$f.report"
done
[ "$(wc -l < "$dir/le.report")" -ge 4133 ] || fail "trace-cmd report read $(wc -l < "$dir/le.report") lines"
cmp -s "$dir/le.report" "$dir/be.report" || fail "trace-cmd reads the big-endian file differently"
[ "$(wc -l < "$dir/off.report")" -lt "$(wc -l < "$dir/le.report")" ] ||
	echo "note: trace-cmd now reads the misaligned file whole"
for f in le be; do
	"$COMPACTBENCH" analyze --format json "$dir/$f.dat" > "$dir/$f.json" 2> "$dir/$f.err" ||
		fail "analyze $f.dat: $(cat "$dir/$f.err")"
	sed -i "s|$dir/$f.dat|FILE|" "$dir/$f.json"
done
grep -q '"dc_stalls":336' "$dir/le.json" || fail "le.dat: not the fixture's 336 stalls"
cmp -s "$dir/le.json" "$dir/be.json" || fail "analyze reads the big-endian file differently"
if "$COMPACTBENCH" analyze "$dir/off.dat" > "$dir/off.out" 2> "$dir/off.err"; then
	cmp -s "$dir/le.json" "$dir/off.json" || fail "analyze read the misaligned file wrongly"
else
	grep -q "libtracecmd read [0-9]* events where the pages hold 4133" "$dir/off.err" ||
		fail "misaligned: $(cat "$dir/off.err")"
	! grep -q "mmap" "$dir/off.err" || fail "libtracecmd's mmap lines reached stderr"
fi
echo "big-endian copy: the same $(wc -l < "$dir/le.report") events and stalls; misaligned: refused"
