#!/usr/bin/env bash
# compactbench: set up (missing Debian packages, tracefs, build) and run.
#   ./run.sh            set up, build, run configs/default.ini, print the verdict and report paths
#   ./run.sh test       set up, build, run every test (meson test)
#   ./run.sh ARGS...    set up, build, then `compactbench ARGS...` (e.g. ./run.sh compare A B)
set -euo pipefail
cd "$(dirname "$0")"
top=$PWD

# Debian packages the build, the tests and the default matrix need. Keep in step with README.md.
packages=(
	gcc pkg-config meson ninja-build
	libtracefs-dev libtraceevent-dev libtracecmd-dev trace-cmd libzstd-dev zlib1g-dev
	libinih-dev libjson-c-dev libgsl-dev libcmocka-dev
	libssl-dev gnuplot-nox librsvg2-bin fonts-dejavu-core stress-ng chromium
	qemu-system-x86 busybox-static cpio linux-source-6.1 linux-source-6.12 make patch xz-utils bc bison flex
	libelf-dev dwarves
	openssh-client openssh-server
	libcmark-gfm-dev libcmark-gfm-extensions-dev
)

die() { echo "run.sh: $*" >&2; exit 1; }

install_missing() {
	local missing=() p
	for p in "${packages[@]}"; do
		if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
			missing+=("$p")
		fi
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] || die "missing packages (${missing[*]}) and not root: install them or run as root"
	echo "run.sh: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || die "apt-get update failed"
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
		die "apt-get install ${missing[*]} failed"
}

mount_tracefs() {
	[ -e /sys/kernel/tracing/trace_marker ] && return 0
	[ "$(id -u)" = 0 ] || { echo "run.sh: tracefs not mounted and not root; tracing tests will skip" >&2; return 0; }
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		echo "run.sh: could not mount tracefs at /sys/kernel/tracing" >&2
}

build() {
	if [ ! -f build/build.ninja ]; then
		meson setup build --buildtype=debugoptimized >build-setup.log 2>&1 ||
			{ cat build-setup.log >&2; die "meson setup failed (log above)"; }
		rm -f build-setup.log
	fi
	ninja -C build >/dev/null || { ninja -C build; die "build failed"; }
}

install_missing
mount_tracefs
build

cb=$top/build/compactbench
case "${1-}" in
test)
	shift
	exec meson test -C build --print-errorlogs "$@"
	;;
"")
	exec "$cb" run configs/default.ini
	;;
*)
	exec "$cb" "$@"
	;;
esac
