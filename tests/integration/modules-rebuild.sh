#!/bin/bash
# Integration test: mcectl dimms --rebuild (mcectl(1), REBUILDING THE
# LEDGER) with a real journald.  mcelogd counts UEFI CPER memory errors on
# two DIMMs of a made-up board (SMBIOS type-17 structures with serials), a
# machine check with its EDAC copy (one error, taken over by the EDAC copy's
# DIMM) and a CXL device's errors and spares into its ledger (modules.state);
# the ledger rebuilt from the journal's entries must be the same, module for
# module (counts, pattern, verdicts and their reasons).  Then hostile input:
# an entry a user forged (a program named mcelogd, not root) is not counted;
# a collector's file of another machine is refused in a mix, read alone with
# --machine, and its malformed fields are named with their entry.  Needs
# root, unshare, jq, setpriv, systemd-journald and systemd-journal-remote.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
remote=/lib/systemd/systemd-journal-remote
need_tools "$remote" setpriv
enter_journal_namespace "$0" "$@"
use_workdir
start_private_journald "$work"
. "$srcdir/tests/smbios-fake.sh"

echo "1..22"

D=$work/dmi
memdev_module "$D/17-0" 000 P1-DIMMA1 P0_Node0_Channel0_Dimm0 SN-A1-0001 M393A2K43DB3-CWE
memdev_module "$D/17-1" 001 P1-DIMMB1 P0_Node0_Channel1_Dimm0 SN-B1-0002 M393A2K43DB3-CWE
memdev_module "$D/17-2" 002 P1-DIMMC1 P0_Node0_Channel2_Dimm0 SN-C1-0003 M393A2K43DB3-CWE
mkdir -p "$work/rules" "$work/state" "$work/slots.d"
# The second line names a machine check's place (no EDAC copy of its error): DIMM C1.
printf 'CPU_SrcID#0_MC#3_Chan#0_DIMM#0 = P1-DIMMA1\nsocket=0 mc=3 channel=1 dimm=0 = P1-DIMMC1\n' \
	>"$work/slots.d/board.conf"
printf '[Modules]\nWatchCorrected=3\nReplaceBanks=2\n' >"$work/mcelogd.conf"

# cper MINUTE SEVERITY HANDLE BANK ROW: a CPER memory section naming its module by handle.
cper() {
	printf '{"time":"2026-11-20T10:%02d:00.000000Z","event":"firmware_memory","source":"tracepoint",' "$1"
	printf '"severity":"%s","node":0,"module":0,"rank":1,"bank":%s,"row":%s,"column":%s,' "$2" "$4" "$5" "$1"
	printf '"physical_address":"0x0000000012345000","module_handle":"%s"}\n' "$3"
}
cxl_dram() { # cxl_dram MINUTE ROW
	printf '{"time":"2026-11-20T11:%02d:00.000000Z","event":"cxl_dram","source":"tracepoint",' "$1"
	printf '"severity":"corrected","memdev":"mem0","serial":4660,"dpa":"0x2000","type":"ECC Error",'
	printf '"transaction_type":"Host Write","channel":2,"rank":0,"bank_group":1,"bank":3,"row":%s,"column":56}\n' "$2"
}
{
	cper 1 corrected 0x1100 3 1234
	cper 2 corrected 0x1100 3 1234
	cper 3 corrected 0x1100 3 1234
	cper 4 uncorrected 0x1100 3 1234
	cper 5 corrected 0x1101 1 77
	cper 6 corrected 0x1101 2 78
	# One error, two copies: the machine check (coordinates only), then its EDAC copy (the slot).
	printf '{"time":"2026-11-20T12:00:00.000000Z","cpu":0,"socket":0,"bank":25,"vendor":"intel","family":6,'
	printf '"model":106,"status":"0x8c00000000800090","addr":"0x00000007e025e400","misc":"0x09000201d809c086"}\n'
	printf '{"time":"2026-11-20T12:00:01.000000Z","event":"memory_controller","source":"ras:mc_event",'
	printf '"severity":"corrected","error_count":1,"label":"CPU_SrcID#0_MC#3_Chan#0_DIMM#0","mc":3,'
	printf '"address":"0x00000007e025e400"}\n'
	# A machine check alone (channel 1, DIMM 0 of mc 3): the override's place, so DIMM C1 by serial.
	printf '{"time":"2026-11-20T12:30:00.000000Z","cpu":0,"socket":0,"bank":25,"vendor":"intel","family":6,'
	printf '"model":106,"status":"0x8c00000000800091","addr":"0x00000007e125e400","misc":"0x09000201d809c086"}\n'
	cxl_dram 1 1234
	cxl_dram 2 1235
	printf '{"time":"2026-11-20T11:03:00.000000Z","event":"cxl_memory_sparing","source":"tracepoint",'
	printf '"severity":"info","memdev":"mem0","serial":4660,"spare_resources_available":0}\n'
} >"$work/records.jsonl"

"$mcelogd" --replay "$work/records.jsonl" --rules-directory "$work/rules" -c "$work/mcelogd.conf" \
	--control-socket "" --state-directory "$work/state" --dmi-dir "$D" --slots-directory "$work/slots.d" \
	--log-level info --output-file "$work/out.jsonl" 2>"$work/err"
check "mcelogd counts the records into its ledger" "0 4" \
	"$? $(grep -c '^module ' "$work/state/modules.state")"
journalctl --sync 2>/dev/null || sleep 1

live=$("$mcectl" dimms --state "$work/state/modules.state" -o json | jq -S .)
rebuild() { "$mcectl" dimms --rebuild --dmi-dir "$D" --slots-dir "$work/slots.d" --config "$work/mcelogd.conf" "$@"; }
rebuilt=$(rebuild --include-replayed -o json 2>"$work/rebuild.err" | jq -S .)
check "the rebuild exits 0 and says nothing" "0 " "${PIPESTATUS[0]} $(cat "$work/rebuild.err")"
check "the live ledger has what this test is about" \
	"SN-A1-0001 replace 4 1|SN-B1-0002 replace 2 0|0x1234 repair-exhausted 2 0|SN-C1-0003 ok 1 0" \
	"$(jq -r '[.modules[] | "\(.serial) \(.verdict) \(.corrected) \(.uncorrected)"] | join("|")' <<<"$live")"
check "the rebuilt ledger is the live one, module for module" "$live" "$rebuilt"
check "the table too" "$("$mcectl" dimms --state "$work/state/modules.state")" "$(rebuild --include-replayed)"
check "one module's story too" "$("$mcectl" dimms --state "$work/state/modules.state" SN-A1-0001)" \
	"$(rebuild --include-replayed SN-A1-0001)"
check "a replay's entries are not this machine's history unless asked" "0 1" \
	"$(rebuild -o json 2>"$work/rebuild.err" | jq '.modules | length') \
$(grep -c '^mcectl dimms: 12 entries written by mcelogd --replay left out' "$work/rebuild.err")"
check "without the slot overrides, the lone machine check's DIMM is known by its place, not C1's serial" \
	"socket=0 mc=3 channel=1 dimm=0 true" \
	"$("$mcectl" dimms --rebuild --include-replayed --directory /run/log/journal --dmi-dir "$D" \
		--config "$work/mcelogd.conf" -o json 2>/dev/null |
		jq -r '.modules[] | select(.slot | startswith("socket=")) | "\(.slot) \(.fallback_key)"')"
check "without the board's SMBIOS, DIMMs are keyed by machine and slot, and the fact is said" "true 1" \
	"$("$mcectl" dimms --rebuild --include-replayed --directory /run/log/journal --config "$work/mcelogd.conf" -o json \
		2>"$work/rebuild.err" | jq '[.modules[] | select(.kind == "dimm") | .fallback_key] | all') \
$(grep -c 'read without its SMBIOS table' "$work/rebuild.err")"

# --- --save: never under a daemon that keeps its state there ---
mkdir -p "$work/save"
mkfifo "$work/fifo"
sleep 30 >"$work/fifo" &
holder=$!
started "$holder"
# The daemon itself, not valgrind's (make check-valgrind): what is found is a process named mcelogd.
"${MCELOGD_VALGRIND_TARGET:-$mcelogd}" --replay "$work/fifo" --rules-directory "$work/rules" -c "$work/mcelogd.conf" --control-socket "" \
	--state-directory "$work/save" --output-file "$work/out2.jsonl" 2>/dev/null &
daemon=$!
started "$daemon"
wait_for 5 grep -q mcelogd "/proc/$daemon/comm"
rebuild --include-replayed --save --state "$work/save/modules.state" >/dev/null 2>"$work/save.err"
check "--save refuses while a mcelogd keeps its state in that directory, and says which" "1 1 no" \
	"$? $(grep -c "not saved: mcelogd (pid $daemon) keeps its state in $work/save" "$work/save.err") \
$([ -e "$work/save/modules.state" ] && echo yes || echo no)"
kill "$holder" "$daemon" 2>/dev/null
wait "$daemon" 2>/dev/null
echo "old" >"$work/save/modules.state"
rebuild --include-replayed --save --state "$work/save/modules.state" >/dev/null 2>"$work/save.err"
check "--save writes the rebuilt ledger once the daemon stopped; the file before is kept" "0 old" \
	"$? $(cat "$work/save/modules.state.old")"
check "the saved ledger reads back as the live one" "$live" \
	"$("$mcectl" dimms --state "$work/save/modules.state" -o json | jq -S .)"
"$mcelogd" --replay /dev/null --rules-directory "$work/rules" -c "$work/mcelogd.conf" --control-socket "" \
	--state-directory "$work/save" --output-file "$work/out2.jsonl" 2>"$work/err2"
check "the daemon takes the saved ledger as its own" "0 $live" \
	"$? $("$mcectl" dimms --state "$work/save/modules.state" -o json | jq -S .)"

# --- a user's forgery: a program named mcelogd, not root, with a record entry ---
fw_id=$(sed -n 's/^#define MCELOGD_MSGID_FIRMWARE_MEMORY *"\([0-9a-f]*\)".*/\1/p' "$srcdir/lib/message-ids.h")
printf 'MESSAGE=forged\nMESSAGE_ID=%s\nMCELOGD_REPLAY=1\nMCE_JSON=%s\n' "$fw_id" "$(cper 9 uncorrected 0x1101 1 77)" |
	forge_entries 3
journalctl --sync 2>/dev/null || sleep 1
check "the forged entries reached the journal" 3 "$(journalctl _COMM=mcelogd _UID=65534 -o json | wc -l)"
check "the forged entries are not counted" "$live" "$(rebuild --include-replayed -o json | jq -S .)"

# --- a collector's file of another machine, with malformed fields ---
# export MINUTE MACHINE_ID MCE_JSON: an entry as that machine's mcelogd (root) wrote it.
export_entry() {
	printf '__REALTIME_TIMESTAMP=17900000%02d000000\n__MONOTONIC_TIMESTAMP=%d\n' "$1" "$1"
	printf '_BOOT_ID=0123456789abcdef0123456789abcdef\n_MACHINE_ID=%s\n_HOSTNAME=node-b\n' "$2"
	printf '_COMM=mcelogd\n_UID=0\nMESSAGE_ID=%s\nMESSAGE=x\nMCE_JSON=%s\n\n' "$fw_id" "$3"
}
other=22222222222222222222222222222222
# As that machine's mcelogd logged them: with the slot its SMBIOS table named.
slotted() { cper "$@" | sed "s/}\$/,\"dimm_slot\":\"P1-DIMM$([ "$3" = 0x1100 ] && echo A1 || echo B1)\"}/"; }
mkdir -p "$work/collector"
{
	export_entry 10 "$other" "$(slotted 1 corrected 0x1100 3 1234)"
	export_entry 11 "$other" '{"event":"firmware_memory","severity":"corrected","dimm_slot":'
	export_entry 12 "not-a-machine-id" "$(slotted 2 corrected 0x1100 3 1234)"
	export_entry 13 "$other" "$(slotted 3 uncorrected 0x1101 3 1234)"
} | "$remote" --output="$work/collector/remote-node-b.journal" - 2>/dev/null
cp /run/log/journal/*/system.journal "$work/collector/"
"$mcectl" dimms --rebuild --directory "$work/collector" >/dev/null 2>"$work/mixed.err"
check "a collector's senders are not mixed into one ledger" "2 1" \
	"$? $(grep -c "several senders of a collector: .*node-b.*--machine SENDER" "$work/mixed.err")"
json=$("$mcectl" dimms --rebuild --directory "$work/collector" --machine node-b -o json 2>"$work/other.err")
check "--machine SENDER: that sender's ledger, keyed by its machine id and slot (no SMBIOS here)" \
	"0 P1-DIMMA1 1 0 true|P1-DIMMB1 0 1 true" \
	"$? $(jq -r '[.modules[] | "\(.slot) \(.corrected) \(.uncorrected) \(.fallback_key)"] | sort | join("|")' <<<"$json")"
check "the fallback key holds the machine's id" 2 \
	"$(jq "[.modules[] | select(.key | contains(\"$other\"))] | length" <<<"$json")"
check "a malformed MCE_JSON is named with its entry and field" 1 \
	"$(grep -c "^mcectl dimms: entry .* (host node-b, cursor s=.*): field MCE_JSON: invalid JSON.*; the entry is left out$" "$work/other.err")"
check "a malformed _MACHINE_ID is named with its entry and field" 1 \
	"$(grep -c "^mcectl dimms: entry .*: field _MACHINE_ID: not a machine id; the entry is left out$" "$work/other.err")"
# Files that name no sender (copied journals): the entries' machine ids tell the machines apart.
mkdir -p "$work/copies"
cp "$work/collector/remote-node-b.journal" "$work/copies/node-b.journal"
cp "$work/collector/system.journal" "$work/copies/"
"$mcectl" dimms --rebuild --directory "$work/copies" >/dev/null 2>"$work/mixed.err"
check "two machines' records are not mixed into one ledger" "2 1" \
	"$? $(grep -c "more than one machine: .*$other (host node-b).*--machine" "$work/mixed.err")"
json=$("$mcectl" dimms --rebuild --directory "$work/copies" --machine "$other" -o json 2>/dev/null)
check "--machine takes a machine id" "0 2" "$? $(jq '.modules | length' <<<"$json")"

exit "$failed"
