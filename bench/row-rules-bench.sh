#!/bin/sh
# Row rules' cost: `mcelogd --replay` of RECORDS corrected EDAC events spread
# over ROWS DRAM rows (past the 4096 rows kept, so eviction runs too), with
# the shipped rules and with the same rules less 15-memory-row.rules, in the
# same run, so the figures read as a ratio on any machine.  CPU seconds and
# peak RSS of each (not run by make check).
#
#   bench/row-rules-bench.sh [RECORDS [ROWS]]     (from a build directory after `make`)
set -eu

n=${1:-100000}
rows=${2:-5000}
builddir=${top_builddir:-$PWD}
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
mcelogd="$builddir/mcelogd/mcelogd"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sh "$srcdir/bench/row-records.sh" "$n" "$rows" >"$tmp/in.jsonl"
mkdir -p "$tmp/without"
cp "$srcdir"/config/rules.d/*.rules "$tmp/without/"
rm "$tmp/without/15-memory-row.rules"

for rules in "$tmp/without" "$srcdir/config/rules.d"; do
	/usr/bin/time -f "%U %S %M" -o "$tmp/time" "$mcelogd" --replay "$tmp/in.jsonl" --no-journal \
		--rules-directory "$rules" --control-socket "" --log-level err >/dev/null 2>&1
	read -r user sys rss <"$tmp/time"
	echo "$rules $user $sys $rss"
done | awk -v n="$n" -v rows="$rows" '
	{ cpu[NR] = $2 + $3; rss[NR] = $4 }
	END {
		printf "%d records over %d rows\n", n, rows
		printf "without row rules: %.2f s CPU (%.1f us/record), %d KiB peak RSS\n", cpu[1], cpu[1] * 1e6 / n, rss[1]
		printf "with row rules:    %.2f s CPU (%.1f us/record), %d KiB peak RSS\n", cpu[2], cpu[2] * 1e6 / n, rss[2]
		printf "row rules cost:    %.1f us/record, %+d KiB\n", (cpu[2] - cpu[1]) * 1e6 / n, rss[2] - rss[1]
	}'
