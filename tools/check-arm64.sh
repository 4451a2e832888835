#!/bin/bash
# Builds mcelogd for arm64 and runs make check there: a cross build
# (aarch64-linux-gnu-gcc, -Werror, Debian's arm64 libraries through
# multiarch) in a fresh Debian root, whose test programs run as arm64
# binaries under qemu-user through the kernel's binfmt_misc.  As root:
#
#   tools/check-arm64.sh [--release bookworm|trixie]
#
# On this machine it first makes sure binfmt_misc hands aarch64 ELF files
# to qemu-aarch64-static with the F flag (the interpreter opened once, so
# that it works inside the chroot too): Debian's qemu-user-static and
# binfmt-support, installed here if missing.  Then, in the root made by
# tools/fresh-root.sh: tools/install-deps.sh (the test tools, amd64),
# crossbuild-essential-arm64, the arm64 libraries named in debian/control
# (apt-get build-dep -a arm64), configure --host=aarch64-linux-gnu, make,
# make check.  Only the test programs are emulated: the compiler and the
# tools the shell tests call run natively.  A skipped test fails here, as
# in CI (MCELOGD_TESTS_NO_SKIP=1), unless its reason is emulation itself.
set -uo pipefail
self=$(realpath "$0")
top=$(cd "$(dirname "$self")/.." && pwd)
say() { echo "check-arm64: $*"; }
die() { echo "check-arm64: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root"
export DEBIAN_FRONTEND=noninteractive

if [ "${1:-}" != --in-root ]; then
	if ! command -v update-binfmts >/dev/null || [ ! -e /usr/share/binfmts/qemu-aarch64 ]; then
		say "installing qemu-user-static and binfmt-support on this host"
		{ apt-get update -qq && apt-get install -y -qq --no-install-recommends qemu-user-static binfmt-support >/dev/null; } ||
			die "cannot install qemu-user-static"
	fi
	. "$top/tools/lib/binfmt-aarch64.sh"
	binfmt_aarch64 say || die "aarch64 programs cannot run here through binfmt_misc"
	# The root holds a copy of the checkout, and runs COMMAND from its top.
	exec "$top/tools/fresh-root.sh" "$@" tools/check-arm64.sh --in-root
fi

# ------------------------------------------------------ in the fresh root
cd "$top" || exit 1
. /etc/os-release
t0=$(date +%s)
dpkg --add-architecture arm64
"$top/tools/install-deps.sh" || die "tools/install-deps.sh failed"
{ apt-get update -qq &&
	apt-get install -y -qq --no-install-recommends crossbuild-essential-arm64 >/dev/null &&
	apt-get build-dep -y -qq --no-install-recommends -a arm64 "$top" >/dev/null; } ||
	die "cannot install the arm64 cross compiler and libraries"
say "$PRETTY_NAME: $(aarch64-linux-gnu-gcc --version | head -n1); dependencies installed in $(( $(date +%s) - t0 ))s"
# One arm64 program before the build: binfmt works, or nothing below will.
/usr/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1 --version 2>/dev/null | head -n1 ||
	{ echo 'int main(void){return 0;}' | aarch64-linux-gnu-gcc -x c -o /tmp/t - && /tmp/t; } ||
	die "arm64 programs do not run here (binfmt_misc)"

./autogen.sh >/dev/null 2>&1 || die "autogen.sh failed"
b=$top/_build/arm64
rm -rf "$b" && mkdir -p "$b" && cd "$b" || exit 1
t0=$(date +%s)
"$top/configure" --host=aarch64-linux-gnu --enable-werror >configure.out 2>&1 ||
	{ tail -40 configure.out; tail -40 config.log; die "configure failed"; }
make -j"$(nproc)" >make.out 2>&1 || { tail -60 make.out; die "make failed"; }
say "built in $(( $(date +%s) - t0 ))s: $(file -b mcelogd/mcelogd | cut -d, -f1-2)"
file -b mcelogd/mcelogd | grep -q 'ARM aarch64' || die "mcelogd/mcelogd is not an arm64 program"
# Without binfmt_misc's O flag the kernel hands qemu-user the program's path,
# and qemu opens it again itself, with the credentials of the process that
# ran it.  The tests that run mcectl as another user (status.sh, as uid
# 65534 through setpriv) then find /root, mode 0700 in the fresh root, shut:
# qemu exits 1 and prints nothing, where a native program (its path looked up
# before the user changed) runs.  This root is thrown away after the run.
chmod o+x /root
t0=$(date +%s)
make -j"$(nproc)" check >check.out 2>&1
rc=$?
grep -E '^(PASS|FAIL|ERROR|XPASS|SKIP)' check.out | cut -d: -f1 | sort | uniq -c
# qemu-user has no perf_event_open (ENOSYS, "Function not implemented"):
# the one test that needs the kernel's perf events skips, and cmocka's
# "not ok N # SKIP" is a FAIL to automake's driver.  That skip, and only
# with that reason in its log, is emulation itself.
emulated=0
while read -r t; do
	grep -q 'Function not implemented' "$t.log" 2>/dev/null && emulated=$((emulated + 1))
done < <(sed -n 's/^FAIL: \([^ ]*\) [0-9]* # SKIP .*/\1/p' check.out)
failed=$(( $(grep -cE '^(FAIL|ERROR|XPASS)' check.out) - emulated ))
if [ "$failed" != 0 ]; then
	find . -name '*.log' -path '*tests*' -exec grep -l -e '^not ok' -e '^FAIL' {} + |
		while read -r f; do echo "--- $f"; tail -60 "$f"; done
fi
grep -e '^SKIP' -e '^FAIL: .* # SKIP' check.out
skips=$(grep -c '^SKIP' check.out)
say "make check: exit $rc after $(( $(date +%s) - t0 ))s; $(grep -c '^PASS' check.out) passed, $failed failed, $skips skipped, $emulated skipped for emulation (no perf_event_open under qemu-user)"
[ "$failed" = 0 ] && [ "$skips" = 0 ]
