#!/bin/bash
# Integration test: mcectl summary against a real journald (issue 12, item 1),
# and the output forms of query and summary (item 6: CSV; colour only on a
# terminal, never with NO_COLOR).  A summary counted in two halves by two
# threads says what one pass says.  Replayed records are counted per
# component, top offenders first; bad option values are refused with a reason.
# Needs root (unshare, mounts) and systemd-journald; prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
enter_journal_namespace "$0" "$@"

use_workdir

start_private_journald "$work"

echo "1..21"

# Twice the 4 machine checks (CPUs 3, 2, 0, 7 on banks 1, 5, 4, 9), once the 3 other records.
"$mcelogd" --replay "$data/replay-mixed.txt" >/dev/null 2>&1
"$mcelogd" --replay "$data/replay-mixed.txt" >/dev/null 2>&1
"$mcelogd" --replay "$data/replay-ras.txt" >/dev/null 2>&1
journalctl --sync 2>/dev/null || sleep 1

sum() { "$mcectl" summary --include-replayed --output json "$@"; }

check "--by cpu: every CPU's two records (the two without a CPU apart), then the ARM one on CPU 5" \
	"(unknown):2 cpu 0:2 cpu 2:2 cpu 3:2 cpu 7:2 cpu 5:1" \
	"$(sum --by cpu | jq -r '"\(.key):\(.records)"' | paste -sd' ')"
check "--by bank (the default): banks, and the other records by source" \
	"bank 1:2 bank 4:2 bank 5:2 bank 9:2 ras:arm_event:1 ras:mc_event:1 ras:memory_failure_event:1" \
	"$(sum | jq -r '"\(.key):\(.records)"' | paste -sd' ')"
check "--by dimm: the EDAC event's DIMM label" "1" \
	"$(sum --by dimm | jq -r 'select(.key == "DIMM_A1") | .records')"
check "--by page: the poisoned page from its pfn" "1" \
	"$(sum --by page | jq -r 'select(.key == "0x30000000") | .records')"
check "--by page: the AMD UMC records under why they name no page, not 0x3bd2c8000" "2 0" \
	"$(sum --by page | jq -r 'select(.key == "(no page: normalized_address)") | .records') $(sum --by page | jq -r 'select(.key == "0x3bd2c8000")' | grep -c .)"
check "severity columns: bank 4's records are worse than corrected" "0 2" \
	"$(sum | jq -r 'select(.key == "bank 4") | "\(.corrected) \(.worse)"')"
check "first and last seen, as RFC 3339" "true" \
	"$(sum | jq -r 'select(.key == "bank 1") | (.first | test("^20[0-9-]{8}T")) and (.last >= .first)')"

"$mcectl" summary --include-replayed --by bank >"$work/table" 2>&1
check "the table: a header, then one line per component, largest first" "bank RECORDS bank 1" \
	"$(awk 'NR == 1 { printf "%s %s ", $1, $2 } NR == 2 { print $1, $2 }' "$work/table")"
check "replayed records are left out by default" "-- No machine-check records --" \
	"$("$mcectl" summary 2>&1)"
"$mcectl" summary --by rack >/dev/null 2>"$work/err"
check "--by with an unknown component: exit 2, naming it and the choices" "2 1" \
	"$? $(grep -c "unknown component 'rack' (expected dimm, channel, bank, cpu, socket, page, error, host, row, memdev, process or disk)" "$work/err")"
"$mcectl" query --by cpu >/dev/null 2>"$work/err"
check "--by is summary's option: query refuses it" "2 1" "$? $(grep -c 'an option of mcectl summary' "$work/err")"

# --- CSV (RFC 4180) ---
"$mcectl" query --include-replayed --output csv >"$work/csv" 2>&1
check "query --output csv: a header, then one row per record" "time,host,cpu,bank,severity,bank_name_or_source,error 12" \
	"$(head -n 1 "$work/csv") $(wc -l <"$work/csv")"
check "... fields in the table's order (bank 4's uncorrected record)" "0,4,uncorrected" \
	"$(grep -o ',0,4,uncorrected' "$work/csv" | head -n 1 | cut -c2-)"
check "... a field holding a comma is quoted" 1 \
	"$(grep -c '^[^"]*,"[^"]*,[^"]*"$' "$work/csv" | awk '{ print ($1 > 0) }')"
"$mcectl" summary --include-replayed --output csv >"$work/scsv" 2>&1
check "summary --output csv: header and bank 1's row" "by,key,label,records,corrected,worse,other,first,last,per_hour,storms bank,bank 1,Data Cache Unit,2,2,0,0" \
	"$(head -n 1 "$work/scsv") $(grep '^bank,bank 1,' "$work/scsv" | cut -d, -f1-7)"

# --- colour: severity coloured on a terminal only ---
esc=$(printf '\033')
script -qec "$mcectl query --include-replayed" /dev/null >"$work/tty" 2>&1
check "on a terminal, uncorrected and fatal severities are coloured" "1 1" \
	"$(grep -c "${esc}\[31muncorrected" "$work/tty" | awk '{ print ($1 > 0) }') $(grep -c "${esc}\[1;31mfatal" "$work/tty" | awk '{ print ($1 > 0) }')"
NO_COLOR=1 script -qec "$mcectl query --include-replayed" /dev/null >"$work/tty" 2>&1
check "NO_COLOR=1: no colour on a terminal" 0 "$(grep -c "$esc" "$work/tty")"
check "through a pipe: no colour" 0 "$("$mcectl" query --include-replayed | grep -c "$esc")"

# --- a long summary is counted in two halves at once, merged: the same as one pass ---
# Entries as mcelogd writes them (a copy of logger named mcelogd, as root, passes
# the checks), in two batches a second apart: every severity, storms with more
# starts than a group tells apart, labels that come late, and entries that must
# not count (another id, another user, loss reports).
. "$srcdir/tests/integration/summary-entries.sh"
entries_named_after=40
# The two halves are libsystemd's way (the local journal is otherwise read
# directly, compared with libsystemd's reading in summary-direct.sh).
export MCECTL_JOURNAL_READER=libsystemd
write_entries 0 200
# The second batch starts on a later second, for --since.
next_second
write_entries 200 400
journalctl --sync 2>/dev/null || sleep 1
since=@$((left_second + 1)) until=@$((left_second + 120))
diffs= runs=0
for by in dimm channel bank cpu socket page error host; do
	for o in table json csv; do
		for window in "" "--since $since --until $until"; do
			# shellcheck disable=SC2086
			a=$(MCECTL_SUMMARY_ONE_PASS=1 "$mcectl" summary --by "$by" -o "$o" $window 2>&1)
			# shellcheck disable=SC2086
			b=$("$mcectl" summary --by "$by" -o "$o" $window 2>&1)
			runs=$((runs + 1))
			if [ "$a" != "$b" ]; then
				diffs="$diffs|$by $o $window"
				printf '# one pass:\n%s\n# split:\n%s\n' "$a" "$b" | sed 's/^/# /' >&2
			fi
		done
	done
done
check "two halves merged say what one pass says, for every --by, output and a --since window ($runs runs)" "" "$diffs"
# What the entries that reached the journal add up to, counted here with jq
# (journald may drop some of a burst from one sender).  The label is the first
# record's: none when the early, unnamed records arrived, and the first named
# one's when journald dropped them; never a later record's.
want=$(journalctl _COMM=mcelogd _UID=0 -o json | jq -rs '
	def mca: .MESSAGE_ID == "d90772f9176e45e88ae80c46f01c0915" or .MESSAGE_ID == "aa342ccf21574871922871263c767d1c" or
		.MESSAGE_ID == "5987c93aca024e54b54a11caec7a116b" or .MESSAGE_ID == "fd6bd0d477884d02a89dcb47f4c8c599";
	map(select(.MCELOGD_REPLAY == null)) as $e
	| [1, 2, 4] | map(. as $b | ($e | map(select(mca and .MCE_BANK == ($b | tostring)))) as $r
		| ($e | map(select(.MESSAGE_ID == "70d655c9451c48899d92ec9f35850b1a" and .MCE_BANK == ($b | tostring)))) as $s
		| "bank \($b) \(($r | length) + ($s | map(.MCE_STORM_COUNT | tonumber) | add // 0)) \($r | map(select(.MCE_SEVERITY != "corrected")) | length) \(if $b == 2 then ($s | map(.MCE_STORM_START) | unique | length) > 32 else ($r[0].MCE_BANK_NAME // null) end)")
	| join("|")')
check "... and one pass counts what reached the journal: every severity, more storms than are told apart, no late label, none of the others" \
	"$want" \
	"$(MCECTL_SUMMARY_ONE_PASS=1 "$mcectl" summary -o json |
		jq -r 'select(.key == "bank 1" or .key == "bank 2" or .key == "bank 4") | "\(.key) \(.records) \(.worse) \(if .key == "bank 2" then .storms > 32 else .label end)"' |
		sort | paste -sd'|')"
strace -f -qq -e trace=clone,clone3 -o "$work/strace" "$mcectl" summary >/dev/null 2>&1
check "... the second half ran in a thread of its own" 1 "$(grep -c 'clone' "$work/strace" | awk '{ print ($1 > 0) }')"
unset MCECTL_JOURNAL_READER

exit $((failed > 0))
