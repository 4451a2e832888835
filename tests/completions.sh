#!/bin/bash
# The shell completions (completions/): bash's, driven as bash drives them,
# offers the verbs, each verb's options as its own --help lists them, and the
# values of the options that take a fixed set; zsh's parses.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
PATH=$top_builddir/mcectl:$top_builddir/mcelogd:$PATH
. "$top_srcdir/completions/mcectl.bash"

n=0 failed=0
check() {   # check DESCRIPTION EXPECTED ACTUAL
	n=$((n + 1))
	if [ "$2" = "$3" ]; then echo "ok $n - $1"; else
		failed=1; echo "not ok $n - $1"; echo "#   expected: $2"; echo "#   actual:   $3"; fi
}
# complete_line WORDS...: what the completion offers for the last word (sorted, one line).
complete_line() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	case $1 in mcectl) _mcectl ;; mcelogd) _mcelogd ;; esac
	printf '%s\n' "${COMPREPLY[@]}" | sort | paste -sd' '
}

echo "1..11"
check "mcectl: the verbs (and the global options)" "--help --version decode dimms export follow pages pt query rules slots status summary" "$(complete_line mcectl '')"
check "mcectl: a verb's prefix" "slots status summary" "$(complete_line mcectl s)"
check "mcectl summary --by: the components" "bank channel cpu dimm disk error host memdev page process row socket" \
	"$(complete_line mcectl summary --by '')"
check "mcectl query --output: table, json, csv" "csv json table" "$(complete_line mcectl query --output '')"
check "mcectl decode --output: text, json" "json text" "$(complete_line mcectl decode -o '')"
check "mcectl follow --: its options, from its --help" \
	"$(mcectl follow --help | grep -o -- '--[a-z][a-z-]*' | sort -u | paste -sd' ')" "$(complete_line mcectl follow --)"
check "mcectl export --p: --prometheus" "--prometheus" "$(complete_line mcectl export --p)"
check "mcectl dimms --re: --rebuild, from its --help" "--rebuild" "$(complete_line mcectl dimms --re)"
check "mcectl dimms --rebuild --config: a file" "$top_srcdir/completions/mcectl.bash" \
	"$(complete_line mcectl dimms --rebuild --config "$top_srcdir/completions/mcectl.ba")"
check "mcelogd --log-level: the levels" "debug err info notice warning" "$(complete_line mcelogd --log-level '')"
if command -v zsh >/dev/null; then
	zsh -n "$top_srcdir/completions/_mcectl"
	check "zsh's completion parses" 0 "$?"
else
	echo "ok 11 - zsh's completion parses # SKIP no zsh"
fi
exit $failed
