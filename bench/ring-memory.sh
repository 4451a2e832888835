#!/bin/bash
# Perf ring memory against the CPU count (issue 25): the tracepoint rings, one
# per online CPU, and the counter recorder's rings, as the daemon's own sizing
# code computes them, for this tree and for an older revision side by side.
# Nothing boots: bench/ring-memory links the sizing functions themselves
# (mcelogd/sources/ring-size.c, counter_ring_data_size()), and the older
# revision's perf_ring_pages() is compiled from its own source, out of git.
#
#   bench/ring-memory.sh [BASELINE]     (from a build directory)
#   BASELINE   the revision to compare with (default 2fb08d0, the last that
#              sized every ring by the possible CPUs)
#   MCELOGD_RING_MEMORY_CPUS="2 64 ..."  the CPU counts (default 2 to 1024)
#
# Per page size (4 KiB, and arm64's 64 KiB), one row per CPU count:
#   old_kib, new_kib      one CPU's tracepoint mapping (data and control page)
#   old_mib, new_mib      all CPUs' tracepoint mappings
#   tp_ratio              old_mib / new_mib
#   counter_mib           the counter recorder's rings at the default History=
#                         and Counters= (its sizing is the same in both
#                         revisions: the script checks that)
#   all_old, all_new      tracepoint and counter rings together, and their ratio
# The daemon's own figure on a real machine is `mcectl status`'s
# descriptors.perf_ring_bytes (its mappings in /proc/self/maps).
set -euo pipefail
builddir=${top_builddir:-$PWD}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
baseline=${1:-2fb08d0}
read -r -a cpus <<<"${MCELOGD_RING_MEMORY_CPUS:-2 4 8 16 32 64 128 256 512 1024}"

make -C "$builddir" bench/ring-memory >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! git -C "$srcdir" cat-file -e "$baseline:kernel-abi/perf-ring.c" 2>/dev/null; then
	echo "ring-memory: revision $baseline is not in $srcdir's git history (or has no kernel-abi/perf-ring.c)" >&2
	exit 1
fi
git -C "$srcdir" show "$baseline:kernel-abi/perf-ring.c" >"$tmp/perf-ring.c"
git -C "$srcdir" show "$baseline:kernel-abi/perf-ring.h" >"$tmp/perf-ring.h"
if ! grep -q '^unsigned perf_ring_pages(' "$tmp/perf-ring.c"; then
	echo "ring-memory: $baseline's kernel-abi/perf-ring.c has no perf_ring_pages()" >&2
	exit 1
fi
${CC:-cc} -std=gnu11 -O2 -DRING_MEMORY_OLD -I"$tmp" -o "$tmp/ring-memory-old" \
	"$srcdir/bench/ring-memory.c" "$tmp/perf-ring.c"
# The old total takes the counter rings from this tree's code: only fair if they did not change.
if ! git -C "$srcdir" diff --quiet "$baseline" -- mcelogd/snapshot/counter-ring.c; then
	echo "ring-memory: counter_ring_data_size() changed since $baseline; counter_mib is this tree's" >&2
fi

echo "tracepoint and counter ring memory, $baseline (old) against $(git -C "$srcdir" describe --always --dirty) (new)"
for page in 4096 65536; do
	echo
	echo "page size $((page / 1024)) KiB"
	"$tmp/ring-memory-old" --page-size "$page" "${cpus[@]}" >"$tmp/old"
	"$builddir/bench/ring-memory" --page-size "$page" "${cpus[@]}" >"$tmp/new"
	awk 'NR == FNR { if (FNR > 1) old[$1] = $3; next }
	FNR == 1 {
		printf "%6s %8s %8s %9s %9s %8s %11s %9s %9s %8s\n", "cpus", "old_kib", "new_kib", "old_mib",
			"new_mib", "tp_ratio", "counter_mib", "all_old", "all_new", "ratio"
		next
	}
	{
		n = $1; o = old[n]; w = $3; c = $4
		printf "%6d %8.0f %8.0f %9.2f %9.2f %8.2f %11.2f %9.2f %9.2f %8.2f\n", n, o / n / 1024, w / n / 1024,
			o / 1048576, w / 1048576, o / w, c / 1048576, (o + c) / 1048576, (w + c) / 1048576, (o + c) / (w + c)
	}' "$tmp/old" "$tmp/new"
done
