#!/bin/bash
# Integration test: a crash loses at most the rules' counts of the last
# second (mcelogd.rules(5), STATE; mcelogd/rules-save.h).  The daemon runs
# live on records from the fake-dev-mcelog.so shim (see dev-mcelog.sh) with
# one rule, 5 corrected errors on a CPU in 24h: 3 records, SIGKILL; 1 record,
# SIGKILL; 1 record: the rule must fire at that fifth error, in the third run,
# and not before.  Before the state was written between firings, the first
# SIGKILL lost all three counts.  The counts of a second reach the state's
# journal (rules.state.journal, rule-state.h), not a rewrite of the whole
# state, and a start takes the journal in.  Prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
use_dev_mcelog_shim
work=$(mktemp -d)
trap '[ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$work"' EXIT
mkdir "$work/state" "$work/rules"
printf '[Sources]\nTracepoint=no\nTraceBuffer=no\nDevMcelog=yes\nRAS=no\n[Storm]\nEnable=no\n' >"$work/mcelogd.conf"
printf '[Rule]\nName=crash-test\nMatch=severity=corrected\nKey=cpu\nThreshold=5 in 24h\nAction=alert\n' \
	>"$work/rules/50-crash-test.rules"
chmod -R go-w "$work/rules"

echo "1..9"

# records FIRST N: N records, TSCs FIRST.., stamped now.
records() {
	local i
	for i in $(seq "$1" $(($1 + $2 - 1))); do
		dev_mcelog_record "$i" "$(date +%s)"
	done >"$work/records.bin"
}
# times: how many record times the rule's bucket holds in the state file and
# its journal over it: a bucket line says them all, a count line adds some.
times() {
	cat "$work/state/rules.state" "$work/state/rules.state.journal" 2>/dev/null | awk -F'\t' '
	$1 == "bucket" && $2 == "crash-test" { n = $5 == "" ? 0 : split($5, t, ",") }
	$1 == "count" && $2 == "crash-test" { n += split($4, t, ",") }
	END { print n + 0 }'
}
alerts() { cat "$work/state/rules.state" "$work/state/rules.state.journal" 2>/dev/null | grep -c "^alert	[0-9]*	crash-test	"; }
# inode: the state file's; a whole-file write (a rename) gives it a new one.
inode() { stat -c %i "$work/state/rules.state" 2>/dev/null; }
# run NAME: the daemon on records.bin, live, until the log says it took them all.
run() {
	: >"$work/$1.jsonl"
	FAKE_DEV_MCELOG_PATH=/dev/mcelog FAKE_DEV_MCELOG_RECORDS=$work/records.bin FAKE_DEV_MCELOG_RECORD_LEN=88 \
	ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=$shim \
		"$mcelogd" -c "$work/mcelogd.conf" --no-journal --output-file "$work/$1.jsonl" --control-socket '' \
		--state-directory "$work/state" --rules-directory "$work/rules" --bert "$work/no-bert" \
		--log-level info 2>"$work/$1.err" &
	pid=$!
	local want=$(($(wc -c <"$work/records.bin") / 88)) i
	for i in $(seq 100); do
		[ "$(grep -c '"tsc"' "$work/$1.jsonl")" -ge "$want" ] && break
		sleep 0.05
	done
}
# crash: SIGKILL once a second has passed since the last record (the bound).
crash() {
	sleep 1.5
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	pid=
}

records 1 3
run first
crash
check "after SIGKILL, the state holds the 3 counted errors" 3 "$(times)"
check "... and no firing" 0 "$(alerts)"
check "... in the journal: the record path did not write the whole state" 1 \
	"$(grep -c "^bucket	crash-test	" "$work/state/rules.state.journal" 2>/dev/null)"
records 4 1
before=$(inode)
run second
sleep 0.5
# The old journal is gone; a new one may already hold the fourth error's
# count (the daemon writes its counts once a second), but it follows the
# state the start wrote: its base line names that state's checksum.
new_base=$(printf 'base\t%s' "$(awk -F'\t' '$1 == "end" { print $3 }' "$work/state/rules.state")")
journal_head=$(head -n1 "$work/state/rules.state.journal" 2>/dev/null | cut -f1-2)
check "the start takes the journal in: the state written whole, the old journal gone" "new ok" \
	"$([ "$(inode)" != "$before" ] && echo new || echo same) $(case $journal_head in
		"" | "$new_base") echo ok ;; *) echo "old journal: $journal_head" ;; esac)"
crash
check "... the fourth error, counted after the start, is one count line in the new journal" \
	"$(printf 'base\t%s\ncount' "$(awk -F'\t' '$1 == "end" { print $3 }' "$work/state/rules.state")")" \
	"$(cut -f1-2 "$work/state/rules.state.journal" | head -2 | paste -sd'\n' | sed 's/^count.*/count/')"
check "a second SIGKILL: 4 counted, across both runs" 4 "$(times)"
check "... still no firing at the fourth" 0 "$(alerts)"
records 5 1
run third
kill "$pid"
wait "$pid"
pid=
check "the fifth error, after two crashes, fires the rule once" 1 "$(alerts)"
if grep -q "Rule crash-test fired" "$work/third.err" "$work/third.jsonl"; then
	ok "the third run says the rule fired"
else
	not_ok "the third run says the rule fired" "$(cat "$work/third.err")"
fi
exit $((failed > 0))
