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

# Record i: row i*7919 mod ROWS (every row, spread), one of 4 pages of it, a second apart.
awk -v n="$n" -v rows="$rows" 'BEGIN {
	for (i = 0; i < n; i++) {
		row = (i * 7919) % rows; page = 4294967296 / 4096 + row * 16 + i % 4
		printf "{\"time\":\"2026-11-20T00:00:00.000000Z\",\"event\":\"memory_controller\","
		printf "\"source\":\"ras:mc_event\",\"severity\":\"corrected\",\"error_count\":1,"
		printf "\"label\":\"CPU_SrcID#0_MC#3_Chan#0_DIMM#0\",\"mc\":3,\"address\":\"0x%x\",\"grain\":32,", page * 4096
		printf "\"driver_detail\":\"ProcessorSocketId:0x0 MemoryControllerId:0x3 ChannelId:0x0 "
		printf "PhysicalRankId:0x1 DimmSlotId:0x0 Row:0x%x Column:0x380 Bank:0x0 BankGroup:0x2\"}\n", row
	}
}' >"$tmp/in.jsonl"
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
