#!/bin/sh
# Build the libFuzzer targets with clang (ASan + UBSan) and run each for SECONDS.
#
#   tests/fuzz/run.sh [SECONDS] [TARGET...]      (or: make fuzz FUZZ_SECONDS=600)
#
# Needs clang with libFuzzer (Debian: apt-get install clang; the runtime is in
# libclang-rt-*-dev, which clang pulls in).  The instrumented build lives in
# $FUZZ_BUILD (default: ./fuzz-build under the build tree); new corpus entries
# go to $FUZZ_BUILD/corpus/TARGET, crashes to $FUZZ_BUILD/artifacts/.  Copy a
# crash reproducer into tests/fuzz/corpus/TARGET/ once fixed: make check runs
# every corpus file through the target (tests/fuzz/include.am).
set -eu

seconds=${1:-60}
[ $# -gt 0 ] && shift
src=$(cd "${top_srcdir:-$(dirname "$0")/../..}" && pwd)
# By default every target with a seed corpus: that is every target.
targets=${*:-$(cd "$src/tests/fuzz/corpus" && echo fuzz-*)}
build=${FUZZ_BUILD:-${top_builddir:-$PWD}/fuzz-build}
CC=${CC_FUZZ:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"

command -v "$CC" >/dev/null || { echo "run.sh: $CC not found (apt-get install clang)" >&2; exit 1; }
mkdir -p "$build/fuzz" "$build/artifacts"

# The library sources are instrumented for coverage; automake keeps the source
# lists, so a new decoder file is fuzzed without touching this script.
if [ ! -f "$build/Makefile" ]; then
	(cd "$build" && CC="$CC" CFLAGS="-g -O1 -fno-omit-frame-pointer $SAN -fsanitize=fuzzer-no-link" \
		"$src/configure" --quiet >/dev/null)
fi
make -s -C "$build" lib/libmceshared.a decoders/libmcedecode.a kernel-abi/libkernelabi.a rules/librules.a >/dev/null

# Link order as in MCE_LIBS (lib/include.am): lib/ again after decoders/.
# A target's own "fuzz-link:" comment line names extra sources and libraries.
for t in $targets; do
	extra=$(sed -n 's/^ \* fuzz-link: //p' "$src/tests/fuzz/$t.c" | sed "s|\([^ ]*\.c\)|$src/\1|g")
	# shellcheck disable=SC2086
	"$CC" -g -O1 $SAN -fsanitize=fuzzer -include "$build/config.h" \
		-I"$src/lib" -I"$src/decoders" -I"$src/kernel-abi" -I"$src/rules" -I"$src/mcectl" -I"$src/mcelogd" $(pkg-config --cflags json-c) \
		"$src/tests/fuzz/$t.c" $extra "$build/rules/librules.a" "$build/kernel-abi/libkernelabi.a" "$build/lib/libmceshared.a" \
		"$build/decoders/libmcedecode.a" "$build/lib/libmceshared.a" \
		$(pkg-config --libs json-c) -o "$build/fuzz/$t"
done

status=0
for t in $targets; do
	mkdir -p "$build/corpus/$t"
	echo "== $t: ${seconds}s"
	# A target's "fuzz-max-len:" comment line: inputs larger than 4 KiB (journal files).
	maxlen=$(sed -n 's/^ \* fuzz-max-len: //p' "$src/tests/fuzz/$t.c")
	UBSAN_OPTIONS=print_stacktrace=1 "$build/fuzz/$t" -max_total_time="$seconds" -max_len="${maxlen:-4096}" \
		-timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
		-artifact_prefix="$build/artifacts/$t-" \
		"$build/corpus/$t" "$src/tests/fuzz/corpus/$t" 2>"$build/$t.log" || status=1
	grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)" "$build/$t.log" || true
	grep -E "ERROR|runtime error|deadly signal" "$build/$t.log" | head -5 || true
done
[ $status -eq 0 ] && echo "run.sh: no crashes" || echo "run.sh: crashes in $build/artifacts" >&2
exit $status
