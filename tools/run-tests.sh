#!/bin/bash
# The README's second command: install what is needed, then build and run
# every test: gcc with -Werror, a clang -Werror build, make distcheck (whose
# build is the ASan+UBSan one), the speed gate (bench/gate.sh: the gcc build
# against a pinned baseline), the daemon under Valgrind (make check-valgrind), and the
# real-kernel VM rig (make check-vm: the Debian package, built and installed
# with dpkg -i in each guest).  Each part's wall time is printed
# after it ("=== ... took N s"), so that a slow lane shows in CI's log.
#
# The clang build is built, not tested: the gcc build and the ASan+UBSan
# build run every test already, and clang's part is its warnings; a
# third run of the same tests cost CI about 2.5 minutes.  make check
# under clang: MCELOGD_TESTS_CLANG_CHECK=1.
#
#   tools/run-tests.sh [--quick]
#
# --quick: the gcc -Werror build with make check and the clang -Werror build
# only: what CI runs on a second Debian release, where the full set would
# not fit CI's time (no sanitizers, distcheck, Valgrind or VM rig).
#
# Skipped tests are listed with their reasons: a test skips when a tool it
# needs is missing, so a skip can hide a gap in tools/install-deps.sh.
# MCELOGD_TESTS_NO_SKIP=1 (CI, in a fresh root) counts a skip of any test but
# the VM rig's as a failure; the VM rig skips what QEMU cannot emulate.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
results=()
quick=
case ${1:-} in
--quick) quick=1 ;;
'') ;;
*) echo "usage: tools/run-tests.sh [--quick]" >&2; exit 2 ;;
esac

"$top/tools/install-deps.sh" || exit 1
(cd "$top" && ./autogen.sh >/dev/null 2>&1) || { echo "autogen.sh failed"; exit 1; }

step() { # step NAME DIR CONFIGURE-ARGS... : configure, build and make check in DIR
	local name=$1 dir=$2
	shift 2
	echo "=== $name"
	rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || return 1
	if ! "$top/configure" "$@" >configure.out 2>&1; then
		cat configure.out config.log | tail -40
		return 1
	fi
	make -j"$jobs" >make.out 2>&1 || { tail -60 make.out; return 1; }
	if ! make -j"$jobs" check; then
		find . -name '*.log' -newer make.out -path '*tests*' -exec grep -l -e '^not ok' -e '^FAIL' {} + |
			while read -r f; do echo "--- $f"; tail -80 "$f"; done
		return 1
	fi
}

# build NAME DIR CONFIGURE-ARGS...: configure and build in DIR, no tests
build() {
	local name=$1 dir=$2
	shift 2
	echo "=== $name (build only)"
	rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || return 1
	"$top/configure" "$@" >configure.out 2>&1 || { cat configure.out config.log | tail -40; return 1; }
	make -j"$jobs" >make.out 2>&1 || { tail -60 make.out; return 1; }
}

failed=0
# What this run was built with, for comparing releases' lanes.
ver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo none; }
echo "=== $(. /etc/os-release; echo "$PRETTY_NAME"), $(uname -m): gcc $(gcc -dumpfullversion), clang $(clang -dumpversion)," \
	"libsystemd $(pkg-config --modversion libsystemd), json-c $(pkg-config --modversion json-c)," \
	"libmnl $(pkg-config --modversion libmnl), cmocka $(pkg-config --modversion cmocka)," \
	"libipt $(ver libipt-dev), libpfm4 $(ver libpfm4-dev)"
# timed NAME COMMAND...: run it, then say how long it took
timed() {
	local name=$1 t0=$SECONDS rc
	shift
	"$@"
	rc=$?
	echo "=== $name took $((SECONDS - t0)) s"
	return $rc
}
timed "gcc, -Werror" step "gcc, -Werror" "$top/_build/gcc" --enable-werror && gcc_built=1 || failed=1
if [ -z "$quick" ] && [ -n "${gcc_built:-}" ]; then
	# The speed gate: the gcc build against the baseline commit of
	# bench/gate-baseline, side by side, failing on a slowdown (bench/gate.sh).
	# Here, while nothing else runs.  The baseline's build and the journal
	# stay in _build/gate between runs (the lanes' directories do not).
	gate() {
		echo "=== speed gate (bench/gate.sh: this build against bench/gate-baseline's commit)"
		(cd "$top/_build/gcc" && GATE_DIR="$top/_build/gate" bash "$top/bench/gate.sh")
		case $? in
		0) ;;
		77) echo "=== speed gate skipped (no baseline source: see above)" ;;
		*) return 1 ;;
		esac
	}
	timed "speed gate" gate || failed=1
fi
clang=build
[ -z "${MCELOGD_TESTS_CLANG_CHECK:-}" ] || clang=step
timed "clang, -Werror" $clang "clang, -Werror" "$top/_build/clang" --enable-werror CC=clang || failed=1
if [ -z "$quick" ]; then
	# make distcheck builds the release tarball in a read-only copy and runs
	# every test there; that build is the ASan+UBSan one, so one run of the
	# tests proves both the tarball and the sanitizers (a separate ASan
	# build ran the same tests once more).  Its counts join the total below.
	distcheck() {
		echo "=== make distcheck (ASan+UBSan: --enable-werror --enable-sanitizers)"
		(cd "$top/_build/gcc" &&
			make -j"$jobs" distcheck DISTCHECK_CONFIGURE_FLAGS="--enable-werror --enable-sanitizers" \
				>distcheck.out 2>&1) && return 0
		find "$top/_build/gcc" -path '*/mcelogd-*/_build/*' -path '*tests*' -name '*.log' \
			-exec grep -l -e '^not ok' -e '^FAIL' {} + 2>/dev/null |
			while read -r f; do echo "--- $f"; tail -80 "$f"; done
		tail -60 "$top/_build/gcc/distcheck.out"
		return 1
	}
	timed "make distcheck" distcheck || failed=1

	echo "=== make check-valgrind (the daemon under memcheck through the integration tests)"
	timed "make check-valgrind" make -C "$top/_build/gcc" -j"$jobs" check-valgrind || failed=1

	echo "=== make check-vm (real kernel under QEMU, mcelogd from its Debian package)"
	timed "make check-vm" make -C "$top/_build/gcc" check-vm || failed=1
	# Where the rig's time went, boot by boot and scenario by scenario (the
	# log's own notes), so that CI's time can be taken back where it lies.
	awk '/^# boot \[.*\] done in / { sub(/^# /, ""); print "  " $0 } /^# provisioning.* took / { print "    provisioning " $NF }
		/^# scenario .* took / { print "    " $3 " " $NF }' "$top/_build/gcc/tests/vm/check-vm.log" 2>/dev/null
fi

# One plain closing line over every TAP result of every build.
pass=0 fail=0 skip=0 skip_failed=0
while read -r trs kind; do
	case $kind in
	PASS|XFAIL) pass=$((pass + 1)) ;;
	FAIL|XPASS|ERROR) fail=$((fail + 1)) ;;
	SKIP)
		if [ -n "${MCELOGD_TESTS_NO_SKIP:-}" ] && [[ $trs != */tests/vm/* ]]; then
			fail=$((fail + 1)) skip_failed=$((skip_failed + 1))
		else
			skip=$((skip + 1))
		fi ;;
	esac
done < <(find "$top/_build" -name '*.trs' -not -path '*/mcelogd-*/*' -exec \
	awk '/^:test-result: / { print FILENAME, $2 }' {} +)
if [ $((skip + skip_failed)) -gt 0 ]; then
	echo "=== skipped, and why (a tool missing? see tools/install-deps.sh)"
	find "$top/_build" -name '*.trs' -not -path '*/mcelogd-*/*' -exec grep -l '^:test-result: SKIP' {} + |
		sort | while read -r trs; do
			grep -hiE '^(ok |1\.\.0).*# SKIP' "${trs%.trs}.log" | sed "s|^|$(t=${trs%.trs}; echo "${t#"$top"/_build/}"): |"
		done
	[ $skip_failed = 0 ] ||
		echo "MCELOGD_TESTS_NO_SKIP is set: $skip_failed skipped result(s) outside the VM rig count as failed"
fi
# make distcheck's own make check (its tree is gone after a success): the
# automake summary it printed.
if [ -z "$quick" ] && [ -f "$top/_build/gcc/distcheck.out" ]; then
	count() { awk -v k="$1" '$1 == "#" && $2 == k":" { n += $3 } END { print n + 0 }' "$top/_build/gcc/distcheck.out"; }
	pass=$((pass + $(count PASS) + $(count XFAIL)))
	fail=$((fail + $(count FAIL) + $(count XPASS) + $(count ERROR)))
	if [ -n "${MCELOGD_TESTS_NO_SKIP:-}" ]; then
		fail=$((fail + $(count SKIP))) skip_failed=$((skip_failed + $(count SKIP)))
		[ "$(count SKIP)" = 0 ] || echo "make distcheck skipped $(count SKIP) test(s): see $top/_build/gcc/distcheck.out"
	else
		skip=$((skip + $(count SKIP)))
	fi
fi
[ $failed = 0 ] || [ $fail -gt 0 ] || fail=1
echo "total: $pass passed, $fail failed, $skip skipped"
[ $failed = 0 ] && [ $fail = 0 ]
