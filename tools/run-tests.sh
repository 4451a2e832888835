#!/bin/bash
# The README's second command: install what is needed, then build and run
# every test: gcc with -Werror, an ASan+UBSan build, a clang build,
# make distcheck, and the real-kernel VM rig (make check-vm).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
results=()

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

failed=0
step "gcc, -Werror" "$top/_build/gcc" --enable-werror || failed=1
step "gcc, ASan+UBSan" "$top/_build/asan" --enable-werror --enable-sanitizers || failed=1
step "clang, -Werror" "$top/_build/clang" --enable-werror CC=clang || failed=1

echo "=== make distcheck"
(cd "$top/_build/gcc" && make -j"$jobs" distcheck >distcheck.out 2>&1) ||
	{ tail -60 "$top/_build/gcc/distcheck.out"; failed=1; }

echo "=== make check-vm (real kernel under QEMU)"
(cd "$top/_build/gcc" && make check-vm) || failed=1

# One plain closing line over every TAP result of every build.
pass=0 fail=0 skip=0
while read -r kind; do
	case $kind in
	PASS|XFAIL) pass=$((pass + 1)) ;;
	FAIL|XPASS|ERROR) fail=$((fail + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	esac
done < <(find "$top/_build" -name '*.trs' -not -path '*/mcelogd-*/*' -exec sed -n 's/^:test-result: \([A-Z]*\).*/\1/p' {} +)
[ $failed = 0 ] || [ $fail -gt 0 ] || fail=1
echo "total: $pass passed, $fail failed, $skip skipped"
[ $failed = 0 ] && [ $fail = 0 ]
