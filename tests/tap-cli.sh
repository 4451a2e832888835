# Sourced by the command-line TAP tests (tests/*-cli.sh, memory-pages.sh,
# dram-replay.sh): the paths of the programs and of the shipped rules, a
# scratch directory removed at exit, and the checks.
# A test runs a program with its output in $TMP/out and $TMP/err, then
# check "what it shows" has 'PATTERN'; a failure prints both, cut short.

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
MCECTL="$top_builddir/mcectl/mcectl"
MCELOGD="$top_builddir/mcelogd/mcelogd"
SHIPPED="$top_srcdir/config/rules.d"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)); failed=1; echo "not ok $n - $1"
	sed 's/^/# out: /' "$TMP/out" | cut -c1-300 | head -12
	sed 's/^/# err: /' "$TMP/err" | head -5
}
check() { desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc"; fi; }
# run EXPECTED_RC PROGRAM ARGS...: output in $TMP/out, $TMP/err
run() { want=$1; shift; "$@" >"$TMP/out" 2>"$TMP/err"; [ "$?" -eq "$want" ]; }
has() { grep -q -- "$1" "$TMP/out"; }
err_has() { grep -q -- "$1" "$TMP/err"; }
count() { [ "$(grep -c -- "$1" "$TMP/out")" -eq "$2" ]; }
