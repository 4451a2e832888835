#!/bin/bash
# Counts the real published records in the golden corpus: cases named
# "... (real record)", plus the AMD files' cases not named "constructed:"
# (those files mark the constructed ones, not the real ones).  Prints the
# count per file, the total, and the known misses (cases with "miss").
# Usage: tools/golden-real-count.sh [tests/golden]
set -euo pipefail
dir=${1:-$(dirname "$0")/../tests/golden}
total=0
for f in "$dir"/*.golden.jsonl; do
	case $(basename "$f") in
	amd-*) sel='select(.name | test("^constructed:") | not)' ;;
	*)     sel='select(.name | test("\\(real record\\)"))' ;;
	esac
	n=$(jq -c "$sel" "$f" | wc -l)
	[ "$n" -gt 0 ] || continue
	printf '%4d %s\n' "$n" "$(basename "$f")"
	total=$((total + n))
done
printf '%4d total\n' "$total"
misses=$(cat "$dir"/*.golden.jsonl | jq -c 'select(has("miss"))' | wc -l)
printf '%4d of them known misses (\"miss\"):\n' "$misses"
cat "$dir"/*.golden.jsonl | jq -r 'select(has("miss")) | "     " + .name + ": " + .miss'
