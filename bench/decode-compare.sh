#!/bin/sh
# Proof that a faster mcectl decode says exactly what the old one said:
# runs both binaries over every input we have (tests/data/decode, the texts
# of tests/golden, the fuzz corpora, large bench/gen-mixed outputs and
# byte-mutated copies of all of them) with the default and the JSON output,
# with and without --cpu-id, and compares stdout, stderr and exit status.
#
#   BASELINE_MCECTL=/tmp/mcectl-base bench/decode-compare.sh [RECORDS]
#
# Run from a build directory after `make`.  Prints the number of runs
# compared and the differences; exits 1 if there is any.
set -eu

n=${1:-50000}
builddir=${top_builddir:-$PWD}
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
new="$builddir/mcectl/mcectl"
old=${BASELINE_MCECTL:?set BASELINE_MCECTL to the mcectl to compare with}
gen="$builddir/bench/gen-mixed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$new" "$old" "$gen"; do
	[ -x "$f" ] || { echo "decode-compare: $f missing" >&2; exit 1; }
done

mkdir "$tmp/in"
i=0
add() {   # add FILE: one more input
	i=$((i + 1))
	cp "$1" "$tmp/in/$i"
}
for f in "$srcdir"/tests/data/decode/* "$srcdir"/tests/data/real-records.txt \
	 "$srcdir"/tests/golden/*.jsonl "$srcdir"/tests/fuzz/corpus/fuzz-record-text/* \
	 "$srcdir"/tests/fuzz/corpus/fuzz-record-json/* "$srcdir"/tests/fuzz/corpus/fuzz-mce-trace/*; do
	[ -f "$f" ] && add "$f"
done
# each golden record's text on its own, as the golden test feeds it
for g in "$srcdir"/tests/golden/*.jsonl; do
	jq -r 'select(.text != null) | .text' "$g" >"$tmp/texts" 2>/dev/null || continue
	j=0
	jq -c 'select(.text != null) | .text' "$g" | while read -r t; do
		j=$((j + 1))
		printf '%s' "$t" | jq -r . >"$tmp/in/g-${g##*/}-$j"
	done
	add "$tmp/texts"
done
"$gen" "$n" >"$tmp/mixed.txt"
add "$tmp/mixed.txt"
"$old" decode --output json --cpu-id intel:6:0x55 "$tmp/mixed.txt" >"$tmp/mixed.json" 2>/dev/null || true
add "$tmp/mixed.json"
# our JSON again, but spaced, reordered and reworded the ways people edit it
sed -e 's/,"/, "/g; s/":/" : /g' "$tmp/mixed.json" | head -n 20000 >"$tmp/spaced.json"
add "$tmp/spaced.json"

# Byte mutations (deleted, doubled and inserted bytes, JSON and log syntax
# among them) of every input so far, a fixed sequence so runs repeat: they
# reach the error paths and every fallback of a fast path.
for f in "$tmp"/in/*; do
	head -c 200000 "$f" | awk -v seed="${f##*/}" '
	BEGIN { srand(length(seed) * 7919 + 17); split("{ } [ ] : , \" \\\\ 0 9 x - . e E n t f u a \\t", ins, " ") }
	{
		line = $0
		if (rand() < 0.3) {
			k = int(rand() * (length(line) + 1)); r = rand()
			if (r < 0.3) line = substr(line, 1, k) substr(line, k + 2)
			else if (r < 0.5) line = substr(line, 1, k + 1) substr(line, k + 1)
			else if (r < 0.6) line = substr(line, 1, k)
			else line = substr(line, 1, k) ins[1 + int(rand() * 22)] substr(line, k + 1)
		}
		print line
	}' >"$f.mut"
done

runs=0 diffs=0
for f in "$tmp"/in/*; do
	for args in "" "--output json" "--cpu-id intel:6:0x55" "--output json --cpu-id amd:0x19:0x11"; do
		# shellcheck disable=SC2086
		set +e
		"$old" decode $args "$f" >"$tmp/o.out" 2>"$tmp/o.err"; orc=$?
		"$new" decode $args "$f" >"$tmp/n.out" 2>"$tmp/n.err"; nrc=$?
		# also through a pipe: standard input, its name and its reading
		"$old" decode $args <"$f" >"$tmp/o.pout" 2>"$tmp/o.perr"; oprc=$?
		"$new" decode $args <"$f" >"$tmp/n.pout" 2>"$tmp/n.perr"; nprc=$?
		set -e
		runs=$((runs + 2))
		if [ $orc != $nrc ] || ! cmp -s "$tmp/o.out" "$tmp/n.out" || ! cmp -s "$tmp/o.err" "$tmp/n.err"; then
			diffs=$((diffs + 1))
			echo "DIFF: decode $args $f (exit $orc vs $nrc)"
			diff "$tmp/o.out" "$tmp/n.out" | head -5 || true
			diff "$tmp/o.err" "$tmp/n.err" | head -5 || true
			cp "$f" "/tmp/decode-compare-diff-$diffs" 2>/dev/null || true
		fi
		if [ $oprc != $nprc ] || ! cmp -s "$tmp/o.pout" "$tmp/n.pout" || ! cmp -s "$tmp/o.perr" "$tmp/n.perr"; then
			diffs=$((diffs + 1))
			echo "DIFF (stdin): decode $args < $f (exit $oprc vs $nprc)"
		fi
	done
done
# stdout and stderr into one file: the order in which they reach it too
for args in "" "--output json"; do
	# shellcheck disable=SC2086
	"$old" decode $args "$tmp/mixed.txt" >"$tmp/o.both" 2>&1 || true
	# shellcheck disable=SC2086
	"$new" decode $args "$tmp/mixed.txt" >"$tmp/n.both" 2>&1 || true
	runs=$((runs + 1))
	if ! cmp -s "$tmp/o.both" "$tmp/n.both"; then
		diffs=$((diffs + 1))
		echo "DIFF (2>&1): decode $args $tmp/mixed.txt"
	fi
done
inputs=$(ls "$tmp/in" | wc -l)
echo "decode-compare: $inputs inputs, $runs runs (4 option sets x file and stdin, and 2>&1), $diffs differences"
[ "$diffs" = 0 ]
