#!/bin/bash
# Integration test: Action=repair (mcelogd.rules(5), REPAIR) against a
# stand-in for /sys/bus/edac/devices (--sysfs-edac), with the report of
# every attempt in a real journald under its own MESSAGE_ID: off unless
# mcelogd.conf turns it on, the writes the kernel's ABI asks for, the
# limits kept across runs in the state, a device without the feature, and a
# write the kernel refuses.  Needs root, unshare, jq, systemd-journald.
#
# The tree is laid out as Linux's drivers/cxl/core/edac.c registers a CXL
# memory device's soft PPR (Documentation/ABI/testing/sysfs-edac-memory-
# repair): cxl_mem0/mem_repair0 with repair_type, persist_mode,
# repair_safe_when_in_use, min_dpa/max_dpa, dpa, nibble_mask and repair.
# The record is the cxl_dram event QEMU's cxl-type3 device reported to
# Linux 7.3 in the VM rig (DPA 0x2000, nibble mask 0x21, bank group 1,
# bank 3, row 1234, column 56), as mcelogd logged it.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
enter_journal_namespace "$0" "$@"
use_workdir
start_private_journald "$work"

REPAIR_ID=$(sed -n 's/^#define MCELOGD_MSGID_REPAIR *"\([0-9a-f]*\)".*/\1/p' "$srcdir/lib/message-ids.h")
reports() { journalctl -o json _COMM=mcelogd MESSAGE_ID="$REPAIR_ID" 2>/dev/null; }
last() { reports | tail -n1 | jq -r "$1"; }
edac=$work/edac
ppr=$edac/cxl_mem0/mem_repair0

# device: the stand-in, its control files empty (nothing asked yet)
device() {
	rm -rf "$edac"
	mkdir -p "$ppr" "$edac/cxl_mem1/scrub0"
	echo ppr >"$ppr/repair_type"
	echo 0 >"$ppr/persist_mode"
	echo 1 >"$ppr/repair_safe_when_in_use"
	echo 0x0 >"$ppr/min_dpa"
	echo 0xfffffff >"$ppr/max_dpa"
	: >"$ppr/dpa"; : >"$ppr/nibble_mask"; : >"$ppr/repair"
	# A device with patrol scrub and no repair.
	echo 1 >"$edac/cxl_mem1/scrub0/enable_background"
}
dram() { # dram MEMDEV DPA HOUR [ROW]
	printf '{"time":"2026-11-20T%02d:00:00.000000Z","event":"cxl_dram","source":"tracepoint",' "$3"
	printf '"severity":"corrected","memdev":"%s","serial":0,"dpa":"%s","type":"ECC Error",' "$1" "$2"
	printf '"transaction_type":"Host Write","channel":2,"rank":0,'
	printf '"nibble_mask":"0x21","bank_group":1,"bank":3,"row":%s,"column":56}\n' "${4:-1234}"
}
mkdir -p "$work/rules" "$work/state"
cat >"$work/rules/90-repair.rules" <<'EOF'
[Rule]
Name=cxl-dram-repair
Match=kind=cxl_dram|cxl_poison
Key=label dpa
Action=alert repair
EOF
# run CONFIG INPUT: one replay with the stand-in and the state directory
run() {
	rm -f "$work/out.jsonl"
	"$mcelogd" --replay "$2" --rules-directory "$work/rules" -c "$1" --control-socket "" \
		--state-directory "$work/state" --sysfs-edac "$edac" --log-level info \
		--output-file "$work/out.jsonl" 2>"$work/err"
	rc=$?
	journalctl --sync 2>/dev/null || sleep 1
}
printf '[Memory]\nRepair=yes\n' >"$work/on.conf"
: >"$work/off.conf"

echo "1..25"

# --- off by default: refused, said so, nothing written ---
device
dram mem0 0x0000000000002000 10 >"$work/a.jsonl"
run "$work/off.conf" "$work/a.jsonl"
check "off: the replay exits 0" 0 "$rc"
check "off: one repair report, refused because Repair=no, at notice" "1 refused disabled 5" \
	"$(reports | wc -l) $(last '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_REFUSED) \(.PRIORITY)"')"
check "off: the report still names the feature it would use" "cxl_mem0 0 ppr soft" \
	"$(last '"\(.MCE_REPAIR_DEVICE) \(.MCE_REPAIR_INSTANCE) \(.MCE_REPAIR_TYPE) \(.MCE_REPAIR_PERSIST)"')"
check "off: nothing written to the device" "" "$(cat "$ppr/dpa" "$ppr/nibble_mask" "$ppr/repair")"

# --- on: the record's DPA and nibble mask, then the repair ---
run "$work/on.conf" "$work/a.jsonl"
check "on: done, at notice, for the rule" "done 5 cxl-dram-repair" \
	"$(last '"\(.MCE_REPAIR_OUTCOME) \(.PRIORITY) \(.MCE_RULE)"')"
check "on: the location repaired" "mem0 ppr dpa=0x2000 nibble_mask=0x21" "$(last .MCE_REPAIR_LOCATION)"
check "on: the kernel's files got the DPA, the nibble mask and 1" "0x2000 0x21 1" \
	"$(cat "$ppr/dpa") $(cat "$ppr/nibble_mask") $(cat "$ppr/repair")"
check "on: MCE_JSON lists the writes in order" "dpa=0x2000 nibble_mask=0x21 repair=1" \
	"$(last '.MCE_JSON | fromjson | .repair.writes | map("\(.attribute)=\(.value)") | join(" ")')"
check "on: the state keeps it, by the row the PPR replaced, soft" 1 \
	"$(grep -c '^repair	mem0	mem0 row channel=2 rank=0 bank_group=1 bank=3 row=1234	[0-9]*	done	[0-9a-f]*	soft$' "$work/state/rules.state")"
check "on: the JSON lines output has the report" "done" \
	"$(jq -r 'select(.repair != null) | .repair.outcome' "$work/out.jsonl")"
check "mcectl query --alerts shows repair reports" "refused done" \
	"$("$mcectl" query --alerts --include-replayed --output json | jq -r 'select(.repair != null) | .repair.outcome' | tr '\n' ' ' | sed 's/ $//')"

# --- the same location again, in a later run: never twice ---
: >"$ppr/repair"
run "$work/on.conf" "$work/a.jsonl"
check "again: refused, already repaired" "refused already-repaired" \
	"$(last '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_REFUSED)"')"
check "again: repair not written" "" "$(cat "$ppr/repair")"

# --- another row the same day: the daily limit (RepairsPerDay=1 by default) ---
dram mem0 0x0000000000003000 11 1300 >"$work/b.jsonl"
run "$work/on.conf" "$work/b.jsonl"
check "same day: refused at the daily limit, reason said" "refused daily-limit 1" \
	"$(last '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_REFUSED)"') $(last .MCE_REPAIR_REASON | grep -c 'RepairsPerDay=1')"
check "same day: repair not written" "" "$(cat "$ppr/repair")"
dram mem0 0x0000000000004000 9 1400 >"$work/early.jsonl"
run "$work/on.conf" "$work/early.jsonl"
check "a record dated before the repair: the day is the wall clock's, refused" "refused daily-limit" \
	"$(last '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_REFUSED)"')"

# --- a record dated a day later, with a device limit of one: the device limit ---
dram mem0 0x0000000000003000 23 1300 | sed 's/2026-11-20T23/2026-11-21T23/' >"$work/c.jsonl"
printf '[Memory]\nRepair=yes\nRepairsPerDevice=1\nRepairsPerDay=5\n' >"$work/one.conf"
run "$work/one.conf" "$work/c.jsonl"
check "RepairsPerDevice=1: refused at the device limit" "refused device-limit" \
	"$(last '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_REFUSED)"')"
printf '[Memory]\nRepair=yes\nRepairsPerDay=5\n' >"$work/five.conf"
run "$work/five.conf" "$work/c.jsonl"
check "RepairsPerDay=5, another row: done" "done 0x3000" "$(last .MCE_REPAIR_OUTCOME) $(cat "$ppr/dpa")"

# --- a device that offers no repair ---
dram mem1 0x0000000000002000 12 >"$work/d.jsonl"
run "$work/on.conf" "$work/d.jsonl"
check "a device without mem_repairN: refused, not offered" "refused not-offered mem1" \
	"$(last '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_REFUSED) \(.MCE_MEMDEV)"')"

# --- a record that names no memory location a repair fixes (the device's poison list) ---
printf '{"time":"2026-11-20T13:00:00.000000Z","event":"cxl_poison","source":"tracepoint","severity":"uncorrected","memdev":"mem0","dpa":"0x0000000000005000"}\n' >"$work/e.jsonl"
run "$work/on.conf" "$work/e.jsonl"
check "a poison list entry: refused, no CXL location, reason said" "refused no-cxl-location 1" \
	"$(last '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_REFUSED)"') $(last .MCE_REPAIR_REASON | grep -c 'CXL DRAM or general media')"

# --- a write the kernel refuses (here: repair is a directory, EISDIR) ---
rm -f "$work/state/rules.state"
device
rm "$ppr/repair" && mkdir "$ppr/repair"
run "$work/on.conf" "$work/a.jsonl"
check "a refused write: failed, at err, the attribute and errno named" "failed 3 repair 21 repair" \
	"$(last '"\(.MCE_REPAIR_OUTCOME) \(.PRIORITY) \(.MCE_REPAIR_FAILED_ATTRIBUTE) \(.MCE_REPAIR_ERRNO) \(.MCE_RULE_FAILED_ACTION)"')"
if grep -q "Rule cxl-dram-repair: repair of mem0 ppr dpa=0x2000 nibble_mask=0x21 by cxl_mem0 mem_repair0 (ppr, soft) failed: the kernel refused repair=1: Is a directory (record's dpa_flags ''; the kernel refused before asking the device: no limit spent)" "$work/err"; then
	ok "a refused write: logged with the value and the reason"
else
	not_ok "a refused write: logged with the value and the reason" "$(cat "$work/err")"
fi
check "a write the kernel refused spends no limit" 0 "$(grep -c '^repair	' "$work/state/rules.state")"

# --- the metrics: the failed one above, and one done ---
rm -f "$work/state/rules.state"
device
"$mcelogd" --replay "$work/a.jsonl" --rules-directory "$work/rules" -c "$work/on.conf" --control-socket "" \
	--state-directory "$work/state" --sysfs-edac "$edac" --no-journal --metrics-file "$work/m.prom" 2>/dev/null
check "metrics: a repair done is counted" 1 \
	"$(grep -c '^mcelogd_memory_repairs_total{result="done"} 1$' "$work/m.prom")"

# --- without --sysfs-edac a replay never asks this machine's memory ---
"$mcelogd" --replay "$work/a.jsonl" --rules-directory "$work/rules" -c "$work/on.conf" --control-socket "" \
	--no-journal --log-level info >/dev/null 2>"$work/err"
if grep -q "Rule cxl-dram-repair: would ask mem0 for a memory repair at DPA 0x2000 (not done when replaying)" "$work/err"; then
	ok "a replay without --sysfs-edac does not write"
else
	not_ok "a replay without --sysfs-edac does not write" "$(cat "$work/err")"
fi

exit $((failed > 0))
