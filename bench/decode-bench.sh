#!/bin/sh
# Decode benchmark: records/s and peak RSS of `mcectl decode --output json`
# over a large mixed input (every text form), of a JSON-only pass, and of the
# decoder core alone, each next to a baseline measured in the same run so the
# figures read as ratios on any machine.
#
#   bench/decode-bench.sh [RECORDS]        (from a build directory after `make`)
#
# Peak RSS is measured at RECORDS and at 4 x RECORDS: it must not grow.
set -eu

n=${1:-200000}
builddir=${top_builddir:-$PWD}
mcectl="$builddir/mcectl/mcectl"
gen="$builddir/bench/gen-mixed"
core="$builddir/bench/decode-core"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$mcectl" "$gen" "$core"; do
	[ -x "$f" ] || { echo "decode-bench: $f missing: run make first" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "decode-bench: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }

# measure LABEL RECORDS CMD...: best of 3 runs by CPU time (user+sys, one
# core; steadier than wall time on a shared host), with wall time and peak RSS
measure() {
	label=$1 recs=$2
	shift 2
	best=
	for _ in 1 2 3; do
		/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || true
		read -r wall user sys rss <"$tmp/time"
		cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
		if [ -z "$best" ] || awk "BEGIN{exit !($cpu < $best)}"; then
			best=$cpu best_wall=$wall best_rss=$rss
		fi
	done
	awk -v l="$label" -v r="$recs" -v c="$best" -v w="$best_wall" -v m="$best_rss" 'BEGIN {
		if (c <= 0) c = 0.005
		printf "%-46s %8d rec  cpu %6.2f s  wall %6.2f s  %10.0f rec/s  peak RSS %6d KiB\n", l, r, c, w, r / c, m }'
	echo "$best" >"$tmp/last"
}

"$gen" "$n" >"$tmp/in.txt"
"$gen" $((n * 4)) >"$tmp/in4.txt"
lines=$(wc -l <"$tmp/in.txt")
bytes=$(wc -c <"$tmp/in.txt")
echo "input: $n records, $lines lines, $bytes bytes (every form, bench/gen-mixed)"
echo "host: $(nproc) CPUs, $(uname -r); one core used"
echo

measure "baseline: cat" "$n" cat "$tmp/in.txt"; base_cat=$(cat "$tmp/last")
measure "baseline: wc -l" "$n" wc -l "$tmp/in.txt"; base_wc=$(cat "$tmp/last")
# rasdaemon's lines carry no CPU family; --cpu-id keeps ~14% of records from
# each printing a warning, which would measure stderr instead of decoding
id="--cpu-id intel:6:0x55"
measure "mcectl decode --output json (mixed text)" "$n" "$mcectl" decode --output json $id "$tmp/in.txt"
t_mixed=$(cat "$tmp/last")
"$mcectl" decode --output json $id "$tmp/in.txt" >"$tmp/in.json" 2>/dev/null || true
measure "mcectl decode --output json (JSON input)" "$n" "$mcectl" decode --output json "$tmp/in.json"
t_json=$(cat "$tmp/last")
measure "mcectl decode --output text (mixed text)" "$n" "$mcectl" decode $id "$tmp/in.txt"
measure "mcectl decode --output json (4x mixed text)" $((n * 4)) "$mcectl" decode --output json $id "$tmp/in4.txt"
echo
"$core" 2000000 | sed 's/^/decoder core (bench\/decode-core): /'
/usr/bin/time -f "decoder core peak RSS: %M KiB" "$core" 100000 >/dev/null
echo
awk -v c="$base_cat" -v w="$base_wc" -v m="$t_mixed" -v j="$t_json" 'BEGIN {
	if (c <= 0) c = 0.005; if (w <= 0) w = 0.005
	printf "ratios (CPU time): mixed text->JSON = %.0f x cat, %.0f x wc -l; JSON->JSON = %.0f x cat; JSON->JSON / text->JSON = %.2f\n", m / c, m / w, j / c, j / m }'
