#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# golden.sh - the byte-equal check of issue 15: the outputs of fixed runs are what they were.
#
# Fixed run directories are made from committed inputs only (tests/readme/mkrun, which
# uses tests/compare/runfix: summaries of known values and the trace fixtures of
# tests/fixtures), in a scratch directory, and the real CLI runs on them: analyze (each
# cell's summary.json, report.md, --format json, lone traces, --metrics), compare (every
# format, one run, two runs, --kernels, pending cells), gate (regression, pass,
# inconclusive, selectors, --junit and --summary-md files), merge, plot (its .dat files
# and gnuplot script), config doc and config check (good and bad configs), and every
# command's --help. Per case NAME the test keeps:
#
#   NAME.out            the command's stdout, as it is
#   NAME.err            its stderr, then a line "[exit N]" with its exit status
#   NAME.files/PATH     every file the command wrote or changed under the scratch directory
#
# and compares the whole set with the committed one, tests/fixtures/golden, byte for byte
# (diff -ru: a unified diff of each file that differs, "Only in" for a file one side lacks).
#
# Nothing that legitimately varies is compared, so nothing is rewritten before the diff:
# commands run in the scratch directory on relative paths (no path of this machine in an
# output), LC_ALL=C and TZ=UTC, the runs carry no time or host name (mkrun writes none),
# --version (the git version) is not called. Left out of NAME.files, as not ours to pin:
# *.png, *.svg, report.html (inline SVG), gnuplot.log and rsvg-convert.log (the tools'
# bytes, by their version), and trace.dat and vmstat.* (copies of the committed fixtures, e.g. by merge).
# The plot cases run only where gnuplot is installed (its exit status is in NAME.err).
#
# A deliberate change of an output is one command (then review `git diff tests/fixtures/golden`):
#
#   GOLDEN_REGEN=1 meson test -C build golden
#
# or tests/golden/golden.sh --regen with the environment below set.
#
# Environment: COMPACTBENCH, MKRUN (the programs), FIXTURES (tests/fixtures), GOLDEN (the
# committed goldens, tests/fixtures/golden), SOURCE_ROOT (for configs/).
set -u

CB=${COMPACTBENCH:?} MKRUN=${MKRUN:?} FIXTURES=${FIXTURES:?} GOLDEN=${GOLDEN:?}
SRC=${SOURCE_ROOT:?}
regen=${GOLDEN_REGEN:-}
[ "${1:-}" = --regen ] && regen=1
export LC_ALL=C TZ=UTC

work=$(mktemp -d "${TMPDIR:-/tmp}/cb-golden.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
run=$work/run got=$work/got
mkdir -p "$run" "$got" || exit 1
cd "$run" || exit 1

# sha256 and path of every file under the scratch directory the goldens may hold
snap() {
	find . -path ./configs -prune -o -type f ! -name '*.png' ! -name '*.svg' \
		! -name report.html ! -name gnuplot.log ! -name rsvg-convert.log ! -name trace.dat ! -name 'vmstat.*' \
		-print0 | xargs -0 -r sha256sum | sort
}

# t NAME ARGS...: run compactbench ARGS in the scratch directory, keep its outputs as NAME
t() {
	local name=$1 rc sum path

	shift
	snap > "$work/before"
	"$CB" "$@" > "$got/$name.out" 2> "$got/$name.err"
	rc=$?
	echo "[exit $rc]" >> "$got/$name.err"
	snap > "$work/after"
	comm -13 "$work/before" "$work/after" | while read -r sum path; do
		mkdir -p "$got/$name.files/$(dirname "$path")"
		cp "$path" "$got/$name.files/$path"
	done
}

# the fixed inputs: runs from mkrun, lone traces, configs (the project's, and bad ones)
mk() {
	"$MKRUN" "$FIXTURES" "$@" > /dev/null || { echo "golden: mkrun $* failed" >&2; exit 1; }
}
mk base golden base
mk cand golden cand
mk trace golden trace
mk ab ab
mk abp ab pending
for i in 1 2 3 4; do
	mk "s$i" default "$i/4"
done
cp "$FIXTURES/analysis-thp-compact.v6.dat" thp-compact.dat &&
	cp "$FIXTURES/analysis-quiet.v7.dat" quiet.dat || exit 1
ln -s "$SRC/configs" configs || exit 1
printf '[global]\nreps = 3\nfoo = 1\n' > bad-key.ini
printf '[global]\nreps = many\n' > bad-value.ini
printf '[kernel k]\ntarget = ssh\n[setting s]\n[workload w]\ndemand = thp-demand\n' > bad-ssh.ini
printf '[kernel k]\n[setting s]\nwmark.period = 1s\n[workload w]\ndemand = thp-demand\n' \
	> bad-wmark.ini
printf '[global]\nreps = 2\n[nonsense x]\n' > bad-section.ini
# a config whose check needs no host: an ssh kernel, knobs checked on the lab machine later
cat > ssh.ini <<'EOF'
[global]
reps = 2
[kernel lab]
target = ssh
host = root@lab1
port = 2222
[setting s]
vm.compaction_proactiveness = 20
wmark.period = 1s
wmark.order = 9
wmark.count = 64
[workload w]
demand = thp-demand
demand.size = 0.3
EOF

t help --help
for c in run analyze merge restore config record compare gate plot kernel agent; do
	t "help-$c" "$c" --help
done
t config-doc config doc
t config-check-default config check configs/default.ini
t config-check-smoke config check configs/smoke-qemu.ini
t config-check-ssh config check ssh.ini
for b in key value ssh wmark section; do
	t "config-bad-$b" config check "bad-$b.ini"
done

t analyze-metrics analyze --metrics
t analyze-trace analyze trace
t analyze-trace-json analyze trace --format json
t analyze-cell analyze trace/linux61.proactive-20.thp-frag.r2 --format json
t analyze-dat analyze thp-compact.dat
t analyze-dat-all analyze thp-compact.dat --all
t analyze-dat-json analyze quiet.dat --format json
t analyze-missing analyze nosuch

t compare compare base cand
t compare-json compare base cand --format json
t compare-all-json compare base cand --all --format json
t compare-md compare base cand --format markdown --confidence 0.9
t compare-one compare base --format json
t compare-three compare base cand base
t compare-kernels compare ab --kernels base,patched --format json
t compare-pending compare abp --kernels base,patched
t compare-trace compare trace --format json

t gate-regress gate --baseline base --candidate cand --junit gate.xml --summary-md gate.md
t gate-pass gate --baseline base --candidate cand --metric dc_stall_total_ns
t gate-inconclusive gate --baseline base --candidate cand --metric dc_stall_p50_ns \
	--max-regress 1%
t gate-kernels gate --baseline ab:base/ --candidate ab:patched/
t gate-pending gate --baseline abp:base/ --candidate abp:patched/
t gate-few-reps gate --baseline trace:none --candidate trace:proactive-20
t gate-bad gate --baseline base:nosuch --candidate cand

t merge merge merged s1 s2 s3 s4
t merge-missing merge merged-part s1 s3

if command -v gnuplot > /dev/null; then
	t plot plot base cand -o charts-bc
	t plot-trace plot trace
else
	echo "golden: no gnuplot: the plot cases are skipped"
fi

if [ -n "$regen" ]; then
	case $GOLDEN in
	*/golden) ;;
	*) echo "golden: GOLDEN=$GOLDEN does not end in /golden: not removing it" >&2; exit 1 ;;
	esac
	rm -rf "$GOLDEN" && mkdir -p "$GOLDEN" && cp -r "$got/." "$GOLDEN/" || exit 1
	echo "golden: regenerated $GOLDEN ($(find "$GOLDEN" -type f | wc -l) files)"
	exit 0
fi
excl=()
command -v gnuplot > /dev/null || excl=(-x 'plot.*' -x 'plot-trace.*')
if ! diff -ru "${excl[@]}" "$GOLDEN" "$got"; then
	echo
	echo "golden: the outputs above differ from $GOLDEN (- golden, + now)."
	echo "golden: if the change is deliberate, regenerate the goldens and commit them:"
	echo "    GOLDEN_REGEN=1 meson test -C build golden"
	exit 1
fi
echo "golden: $(find "$got" -type f | wc -l) files byte-equal to $GOLDEN"
