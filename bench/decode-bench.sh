#!/bin/sh
# Decode benchmark: records/s and peak RSS of `mcectl decode --output json`
# over a large mixed input (every text form), of a JSON-only pass, and of the
# decoder core alone, each next to a baseline measured in the same run so the
# figures read as ratios on any machine.
#
#   [BASELINE_MCECTL="/path/to/old/mcectl ..."] bench/decode-bench.sh [RECORDS]
#                                          (from a build directory after `make`)
#
# With BASELINE_MCECTL (e.g. the previous commit's mcectl, copied before a
# change; several, separated by spaces, to see a whole history at once),
# every mcectl run is also made with each on the same input in the same run,
# and the ratio old/new of CPU time is printed: "5.0x" means the new one
# takes a fifth of that baseline's CPU time.
#
# Each input form is also measured on its own, RECORDS lines' worth: the
# Intel kernel-console set, rasdaemon's machine-check lines (gen-mixed's),
# and the kernel's and rasdaemon's cxl:* lines (tests/data/decode's).  A
# baseline from before mcectl read cxl lines only rejects those, one message
# each.
#
# Peak RSS is measured at RECORDS and at 4 x RECORDS: it must not grow.
#
# With CALLGRIND=1 each run is counted in instructions under valgrind's
# callgrind instead of timed (once: the count repeats), and the ratios are
# of instructions: steady on a host that other work keeps busy, where CPU
# times scatter by 10% and more.  Take RECORDS of 20000 or so: callgrind
# runs some 50 times slower.
set -eu

n=${1:-200000}
builddir=${top_builddir:-$PWD}
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
mcectl="$builddir/mcectl/mcectl"
baseline=${BASELINE_MCECTL:-}
gen="$builddir/bench/gen-mixed"
core="$builddir/bench/decode-core"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$mcectl" "$gen" "$core"; do
	[ -x "$f" ] || { echo "decode-bench: $f missing: run make first" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "decode-bench: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
[ -z "${CALLGRIND:-}" ] || command -v valgrind >/dev/null ||
	{ echo "decode-bench: CALLGRIND=1 needs valgrind (apt-get install valgrind)" >&2; exit 1; }

# measure LABEL RECORDS CMD...: best of 3 runs by CPU time (user+sys, one
# core; steadier than wall time on a shared host), with wall time and peak RSS
measure() {
	label=$1 recs=$2
	shift 2
	if [ -n "${CALLGRIND:-}" ]; then
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$@" >/dev/null 2>"$tmp/err" || true
		best=$(awk '/^summary:/ { print $2; exit }' "$tmp/cg")
		rm -f "$tmp/cg"
		awk -v l="$label" -v r="$recs" -v c="$best" 'BEGIN {
			printf "%-46s %8d rec  %14.0f instructions  %8.0f a record\n", l, r, c, c / r }'
		echo "$best" >"$tmp/last"
		return
	fi
	best=
	for _ in 1 2 3; do
		/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || true
		# the last line: time(1) says first if the command exited non-zero
		tail -n 1 "$tmp/time" >"$tmp/time1"
		read -r wall user sys rss <"$tmp/time1"
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

nbase=0
for b in $baseline; do
	[ -x "$b" ] || { echo "decode-bench: BASELINE_MCECTL: $b is no program" >&2; exit 1; }
	nbase=$((nbase + 1))
done

# versus LABEL RECORDS ARGS...: mcectl ARGS, then each baseline's, and their ratios
versus() {
	label=$1 recs=$2
	shift 2
	measure "$label" "$recs" "$mcectl" "$@"
	t_new=$(cat "$tmp/last")
	for b in $baseline; do
		name="baseline"
		[ "$nbase" -gt 1 ] && name="baseline $b"
		measure "  same, $name" "$recs" "$b" "$@"
		t_old=$(cat "$tmp/last")
		awk -v o="$t_old" -v n="$t_new" -v b="$name" 'BEGIN { if (n <= 0) n = 0.005
			cg = ENVIRON["CALLGRIND"] != ""
			printf "  => new mcectl is %.2fx faster than the %s (%s " (cg ? "%.0f / %.0f" : "%.2f s / %.2f s") ")\n",
				o / n, b, cg ? "instructions" : "CPU time", o, n }'
	done
	echo "$t_new" >"$tmp/last"
}

# repeat FILE LINES: FILE's lines other than comments, over and over, LINES of them
repeat() {
	grep -v '^#' "$1" | awk -v n="$2" '{ l[NR] = $0 } END { for (i = 0; i < n; i++) print l[i % NR + 1] }'
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
versus "mcectl decode --output json (mixed text)" "$n" decode --output json $id "$tmp/in.txt"
t_mixed=$(cat "$tmp/last")
"$mcectl" decode --output json $id "$tmp/in.txt" >"$tmp/in.json" 2>/dev/null || true
versus "mcectl decode --output json (JSON input)" "$n" decode --output json "$tmp/in.json"
t_json=$(cat "$tmp/last")
versus "mcectl decode --output text (mixed text)" "$n" decode $id "$tmp/in.txt"
t_text=$(cat "$tmp/last")
versus "mcectl decode --output text (JSON input)" "$n" decode "$tmp/in.json"
# the issue's case: Intel kernel-console records (bench/gen-mixed's first form), RECORDS of them
grep -A2 'CPU [0-9]*: Machine Check: 0 Bank 13' "$tmp/in.txt" | grep -v '^--' >"$tmp/kernel1.txt" || true
for _ in 1 2 3 4 5 6 7; do cat "$tmp/kernel1.txt"; done >"$tmp/kernel.txt"
kn=$(grep -c 'Machine Check' "$tmp/kernel.txt" || true)
versus "mcectl decode --output json (kernel console)" "$kn" decode --output json "$tmp/kernel.txt"
versus "mcectl decode --output text (kernel console)" "$kn" decode "$tmp/kernel.txt"
# the other forms a line is dispatched by: rasdaemon's machine checks, the cxl events' two syntaxes
grep 'mce_record: .* bank=' "$tmp/in.txt" | repeat /dev/stdin "$n" >"$tmp/rasdaemon.txt"
versus "mcectl decode --output json (rasdaemon mce)" "$n" decode --output json $id "$tmp/rasdaemon.txt"
repeat "$srcdir/tests/data/decode/cxl-trace.txt" "$n" | grep cxl_ >"$tmp/cxl-kernel.txt"
cn=$(wc -l <"$tmp/cxl-kernel.txt")
versus "mcectl decode --output json (kernel cxl)" "$cn" decode --output json "$tmp/cxl-kernel.txt"
repeat "$srcdir/tests/data/decode/rasdaemon-cxl.txt" "$n" >"$tmp/cxl-rasdaemon.txt"
versus "mcectl decode --output json (rasdaemon cxl)" "$n" decode --output json "$tmp/cxl-rasdaemon.txt"
versus "mcectl decode --output text (rasdaemon cxl)" "$n" decode "$tmp/cxl-rasdaemon.txt"
measure "mcectl decode --output json (4x mixed text)" $((n * 4)) "$mcectl" decode --output json $id "$tmp/in4.txt"
echo
"$core" 2000000 | sed 's/^/decoder core (bench\/decode-core): /'
/usr/bin/time -f "decoder core peak RSS: %M KiB" "$core" 100000 >/dev/null
echo
awk -v c="$base_cat" -v w="$base_wc" -v m="$t_mixed" -v j="$t_json" -v t="$t_text" 'BEGIN {
	if (c <= 0) c = 0.005; if (w <= 0) w = 0.005
	printf "ratios (CPU time): mixed text->JSON = %.0f x cat, %.0f x wc -l; mixed text->text = %.0f x cat; JSON->JSON = %.0f x cat; JSON->JSON / text->JSON = %.2f\n", m / c, m / w, t / c, j / c, j / m }'
