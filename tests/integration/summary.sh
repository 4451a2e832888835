#!/bin/bash
# Integration test: mcectl summary against a real journald (issue 12, item 1),
# and the output forms of query and summary (item 6: CSV; colour only on a
# terminal, never with NO_COLOR).  Replayed records are counted per
# component, top offenders first; bad option values are refused with a reason.
# Needs root (unshare, mounts) and systemd-journald; prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
enter_journal_namespace "$0" "$@"

use_workdir

start_private_journald "$work"

echo "1..17"

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
	"$? $(grep -c "unknown component 'rack' (expected dimm, channel, bank, cpu, socket, page, error or host)" "$work/err")"
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

exit $((failed > 0))
