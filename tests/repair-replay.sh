#!/bin/sh
# Action=repair follows the rules of the kernel and of the CXL specification
# (mcelogd.rules(5), REPAIR; review e24200c I1-I5, M2-M4): mcelogd --replay of
# the real Linux 7.3 cxl_dram and cxl_general_media lines
# (tests/unit/cxl-trace-lines.h, printed for events QEMU's cxl-type3 device
# reported), each with one field changed, against a stand-in for the EDAC
# mem_repair files (--sysfs-edac), with Repair=yes and generous limits.
# Each refusal is a report with its reason, in the log and the metrics, and
# nothing is written for it; the ordinary ECC error gets its soft repair.
# Needs no root (TAP).
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$top_srcdir/tests/tap-cli.sh"

# The real line NAME of cxl-trace-lines.h, with sed expression EDIT applied.
line() {
	sed -n "/cxl_line_$1\[\]/{n;s/^\t\"//;s/\";\$//;p;q}" "$top_srcdir/tests/unit/cxl-trace-lines.h" | sed "${2:-}"
}
# The lines as the daemon replays them: mcectl decode's JSON lines.
as_records() { "$MCECTL" decode --output json - <"$1"; }

edac=$TMP/edac
# device MEMDEV TYPE PERSIST: one mem_repair0 as drivers/cxl/core/edac.c registers it, nothing asked yet
device() {
	d=$edac/cxl_$1/mem_repair0
	rm -rf "$edac/cxl_$1"
	mkdir -p "$d"
	echo "$2" >"$d/repair_type"
	echo "$3" >"$d/persist_mode"
	echo 1 >"$d/repair_safe_when_in_use"
	echo 0x0 >"$d/min_dpa"
	echo 0xfffffff >"$d/max_dpa"
	for a in dpa nibble_mask repair; do : >"$d/$a"; done
	if [ "$2" = row-sparing ]; then for a in channel rank bank_group bank row; do : >"$d/$a"; done; fi
}
mkdir -p "$TMP/rules" "$TMP/state"
cat >"$TMP/rules/90-repair.rules" <<'EOF'
[Rule]
Name=cxl-repair
Match=kind=cxl_dram|cxl_general_media
Key=label dpa
Action=alert repair
EOF
printf '[Memory]\nRepair=yes\nRepairsPerDevice=100\nRepairsPerDay=100\n' >"$TMP/on.conf"
# replay CONFIG LINES: the lines through the daemon; its reports in $TMP/out, its log in $TMP/err
replay() {
	as_records "$2" >"$TMP/in.jsonl"
	rm -f "$TMP/reports.jsonl" "$TMP/m.prom"
	"$MCELOGD" --replay "$TMP/in.jsonl" --rules-directory "$TMP/rules" -c "$1" --control-socket "" \
		--no-journal --state-directory "$TMP/state" --sysfs-edac "$edac" --boot-id "${BOOT:-0123456789abcdef0123456789abcdef}" \
		--log-level info --output-file "$TMP/reports.jsonl" --metrics-file "$TMP/m.prom" 2>"$TMP/err"
	rc=$?
	jq -r 'select(.repair != null) | .repair | "\(.outcome) \(.refused // "-")"' "$TMP/reports.jsonl" >"$TMP/out" 2>/dev/null
	return $rc
}
reports() { tr '\n' ',' <"$TMP/out" | sed 's/,$//'; }
is() { [ "$1" = "$2" ] || { echo "# want: $1"; echo "# got:  $2"; return 1; }; }
written() { cat "$edac/cxl_$1/mem_repair0/dpa" "$edac/cxl_$1/mem_repair0/repair" | tr '\n' ' '; }

echo "1..27"

device mem0 ppr 0
device mem1 ppr 1
{
	line general_media                                                     # TE State Violation
	line dram "s/type='ECC Error'/type='Data Path Error'/"
	line dram "s/type='ECC Error'/type='Invalid Address'/"
	line dram "s/type='ECC Error'/type='CKID Violation'/"
	line dram "s/dpa_flags=''/dpa_flags='NOT_REPAIRABLE'/"
	line dram "s/transaction_type='Host Write'/transaction_type='Host Inject Poison'/"
	line dram                                                              # the ordinary ECC error
	line dram "s/dpa=2000/dpa=2040/;s/column=56/column=57/"                 # the same row, another column
	line dram "s/memdev=mem0/memdev=mem1/"                                 # a device set to hard
} >"$TMP/lines"
check "the replay of nine real lines with repair on succeeds" replay "$TMP/on.conf" "$TMP/lines"
check "each non-media type, NOT_REPAIRABLE, injected poison, a second column of a repaired row and a hard repair refused; the ECC error repaired" \
	is "refused not-media-fault,refused not-media-fault,refused not-media-fault,refused not-media-fault,refused not-repairable,refused injected,done -,refused already-repaired,refused hard" "$(reports)"
check "the ECC error's soft PPR: its DPA, then repair=1, once" is "0x2000 1 " "$(written mem0)"
check "the nibble mask written is the record's" is "0x21" "$(cat "$edac/cxl_mem0/mem_repair0/nibble_mask")"
check "nothing written to the device set to hard" is "" "$(written mem1)"
check "the log says TE State Violation is not a media fault" err_has "no memory repair of mem0: the event type is 'TE State Violation', not a fault of the media"
check "the log says Data Path Error is not a media fault" err_has "the event type is 'Data Path Error', not a fault of the media"
check "the log says the device marks the DPA NOT_REPAIRABLE" err_has "the device marks DPA 0x2000 NOT_REPAIRABLE (dpa_flags NOT_REPAIRABLE)"
check "the log says the error was injected" err_has "the error was injected (transaction type Host Inject Poison)"
check "the log names the repaired row, soft" err_has "repaired mem0 row channel=2 rank=0 bank_group=1 bank=3 row=1234 (soft: until the device loses power): done"
check "the log says the row was repaired before" err_has "this repair unit was repaired before (mem0 row channel=2 rank=0 bank_group=1 bank=3 row=1234)"
check "the log says the device is set to repair permanently" err_has "cxl_mem1 mem_repair0 is set to repair permanently (persist_mode=1); mcelogd makes soft repairs only"
check "the report carries the reason and the repair unit" \
	is "the error was injected (transaction type Host Inject Poison): a test of the monitoring, not a fault of the media" \
	"$(jq -r 'select(.repair.refused == "injected") | .repair.reason' "$TMP/reports.jsonl")"
check "metrics count each refusal by its reason" \
	sh -c 'grep -q "^mcelogd_memory_repairs_total{result=\"refused\",reason=\"not-media-fault\"} 4$" "$0" &&
	       grep -q "^mcelogd_memory_repairs_total{result=\"refused\",reason=\"injected\"} 1$" "$0" &&
	       grep -q "^mcelogd_memory_repairs_total{result=\"done\"} 1$" "$0"' "$TMP/m.prom"
check "the state keeps the soft repair, its unit and boot" \
	sh -c 'grep -c "^repair	mem0	mem0 row channel=2 rank=0 bank_group=1 bank=3 row=1234	[0-9]*	done	0123456789abcdef0123456789abcdef	soft$" "$0" | grep -qx 1' "$TMP/state/rules.state"

# A soft repair is lost when the device loses power: in another boot the row may be repaired again.
device mem0 ppr 0
line dram >"$TMP/one"
BOOT=fedcba9876543210fedcba9876543210 replay "$TMP/on.conf" "$TMP/one"
check "in another boot the soft-repaired row is repaired again" is "done -" "$(reports)"

# RepairsPerDay= counts by the wall clock of the repairs, not by the records' times (review M2).
rm -f "$TMP/state/rules.state"
printf '[Memory]\nRepair=yes\nRepairsPerDevice=100\nRepairsPerDay=1\n' >"$TMP/day.conf"
device mem0 ppr 0
{ line dram; line dram "s/row=1234/row=1300/;s/dpa=2000/dpa=9000/"; } >"$TMP/two"
rm -f "$TMP/reports.jsonl"
as_records "$TMP/two" | jq -c '.time = (if .dpa == "0x0000000000002000" then "2026-11-20T10:00:00.000000Z" else "2026-11-25T10:00:00.000000Z" end)' >"$TMP/dated.jsonl"
"$MCELOGD" --replay "$TMP/dated.jsonl" --rules-directory "$TMP/rules" -c "$TMP/day.conf" --control-socket "" \
	--no-journal --state-directory "$TMP/state" --sysfs-edac "$edac" --output-file "$TMP/reports.jsonl" 2>"$TMP/err"
jq -r 'select(.repair != null) | .repair | "\(.outcome) \(.refused // "-")"' "$TMP/reports.jsonl" >"$TMP/out"
check "records five days apart, repaired a moment apart: the daily limit holds" is "done -,refused daily-limit" "$(reports)"

# The DPA as the kernel keys its repair records: the flag bits the trace masks put back (review I4).
rm -f "$TMP/state/rules.state"
device mem0 ppr 0
line dram "s/dpa_flags=''/dpa_flags='VOLATILE'/" >"$TMP/one"
replay "$TMP/on.conf" "$TMP/one"
check "a VOLATILE record's DPA is written with bit 0 set, as the kernel keyed it" is "0x2001 1 " "$(written mem0)"

# A write the kernel refuses before asking the device spends no limit, and the log gives the DPA flags.
rm -f "$TMP/state/rules.state"
device mem0 ppr 0
rm "$edac/cxl_mem0/mem_repair0/repair" && mkdir "$edac/cxl_mem0/mem_repair0/repair"
replay "$TMP/on.conf" "$TMP/one"
check "a refused repair write: failed, the record's dpa_flags logged, no limit spent" \
	sh -c 'grep -q "failed: the kernel refused repair=1: Is a directory (record'"'"'s dpa_flags '"'"'VOLATILE'"'"'; the kernel refused before asking the device: no limit spent)" "$0"' "$TMP/err"
check "nothing of it stays in the state" sh -c '! grep -q "^repair" "$0"' "$TMP/state/rules.state"

# Another writer between mcelogd's writes: the attributes read back otherwise, repair not written (review M4).
device mem0 ppr 0
ln -sf /dev/null "$edac/cxl_mem0/mem_repair0/nibble_mask"
line dram >"$TMP/one"
replay "$TMP/on.conf" "$TMP/one"
check "an attribute that reads back otherwise: refused, repair not written" \
	is "refused attributes-changed|" "$(reports)|$(cat "$edac/cxl_mem0/mem_repair0/repair")"

# A crash between the intent and the outcome never repeats the repair (review M3): the repair
# write blocks (a FIFO nobody reads), mcelogd is killed there, and the next start refuses.
rm -f "$TMP/state/rules.state"
device mem0 ppr 0
rm "$edac/cxl_mem0/mem_repair0/repair" && mkfifo "$edac/cxl_mem0/mem_repair0/repair"
as_records "$TMP/one" >"$TMP/in.jsonl"
"$MCELOGD" --replay "$TMP/in.jsonl" --rules-directory "$TMP/rules" -c "$TMP/on.conf" --control-socket "" \
	--no-journal --state-directory "$TMP/state" --sysfs-edac "$edac" --boot-id 0123456789abcdef0123456789abcdef \
	--output-file /dev/null 2>/dev/null &
pid=$!
i=0
while [ $i -lt 100 ] && ! grep -qs "	intent	" "$TMP/state/rules.state"; do sleep 0.1; i=$((i + 1)); done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
check "the intent was saved before the repair was written" grep -q "	intent	" "$TMP/state/rules.state"
device mem0 ppr 0
replay "$TMP/on.conf" "$TMP/one"
check "after the crash the row counts as repaired, outcome unknown" is "refused already-repaired" "$(reports)"
check "and the log says so" err_has "mcelogd stopped before it saved that repair's outcome, so it is taken as done"

# A damaged state file (cut short: its end line lost) still remembers its
# repairs, so none is repeated; it used to be set aside whole, and the row
# repaired again.
grep -q "^repair	" "$TMP/state/rules.state" && sed -i '$d' "$TMP/state/rules.state"
device mem0 ppr 0
replay "$TMP/on.conf" "$TMP/one"
check "a damaged state: the repair it names is not repeated" is "refused already-repaired|" \
	"$(reports)|$(cat "$edac/cxl_mem0/mem_repair0/repair")"
check "... and the log says what was kept" err_has "rules.state.damaged: kept 0 known-bad pages (not offlined again: a damaged file is not trusted to act on; see mcectl pages) and 1 repair (none is repeated)"

# Key= must name the location a repair acts on (review I5), with the file and line.
printf '[Rule]\nName=per-device\nMatch=kind=cxl_dram\nKey=label\nThreshold=3 in 1h\nAction=repair\n' >"$TMP/rules/91-bad.rules"
run 1 "$MCELOGD" --test-config -c /dev/null --rules-directory "$TMP/rules"
check "a repair rule keyed by the device alone is refused, with file and line" \
	err_has "91-bad.rules:1: rule 'per-device': repair needs Key= to name the memory location"

exit $failed
