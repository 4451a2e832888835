#!/bin/bash
# Integration test: the module ledger (mcelogd(8), MODULE LEDGER) with a real
# journald.  A made-up board (SMBIOS type-17 structures with serials and part
# numbers, --dmi-dir) gets UEFI CPER memory errors on one DIMM over three runs
# of the daemon, each a restart with the same state directory: the lifetime
# count survives, the verdict changes at the documented thresholds, and each
# change is one journal entry of its own MESSAGE_ID with the module's identity
# and evidence.  Then the DIMM is moved to another slot (it keeps its
# history), another one takes its slot (a fresh entry), and a damaged
# modules.state loses only the damaged module.  Needs root, unshare, jq,
# systemd-journald.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
enter_journal_namespace "$0" "$@"
use_workdir
start_private_journald "$work"
. "$srcdir/tests/smbios-fake.sh"

VERDICT_ID=$(sed -n 's/^#define MCELOGD_MSGID_MODULE_VERDICT *"\([0-9a-f]*\)".*/\1/p' "$srcdir/lib/message-ids.h")
changes() { journalctl -o json _COMM=mcelogd MESSAGE_ID="$VERDICT_ID" 2>/dev/null; }
last() { changes | tail -n1 | jq -r "$1"; }

# dimm DIR HANDLE_LO LOCATOR SERIAL PART: a type-17 structure (16 GiB) whose serial and part
# number are strings 3 and 4 (DSP0134 7.18: offsets 18h and 1Ah).
dimm() {
	mkdir -p "$1"
	{
		printf '\021\050\'"$2"'\021\000\020\000\000\000\000\000\000\000\100\000\000\001\002'
		printf '\000\000\000\000\000\000\003\000\004\002\000\000\000\000'
		printf '\000\000\000\000\000\000\000\000'
		printf '%s\000' "$3" "P0_Node0_Channel0" "$4" "$5"
		printf '\000'
	} >"$1/raw"
}
# cper HOUR MINUTE SEVERITY HANDLE ROW: a CPER memory section naming its module by handle.
cper() {
	printf '{"time":"2026-11-20T%02d:%02d:00.000000Z","event":"firmware_memory","source":"tracepoint",' "$1" "$2"
	printf '"severity":"%s","node":0,"module":0,"rank":1,"bank":3,"row":%s,"column":%s,' "$3" "$5" "$2"
	printf '"physical_address":"0x0000000012345000","module_handle":"%s"}\n' "$4"
}
mkdir -p "$work/rules" "$work/state"
printf '[Modules]\nWatchCorrected=3\n' >"$work/mcelogd.conf"
run() { # run DMI INPUT
	"$mcelogd" --replay "$2" --rules-directory "$work/rules" -c "$work/mcelogd.conf" --control-socket "" \
		--state-directory "$work/state" --dmi-dir "$1" --log-level info --metrics-file "$work/m.prom" \
		--output-file "$work/out.jsonl" 2>"$work/err"
	rc=$?
	[ "$rc" = 0 ] || sed "s/^/# /" "$work/err"
	journalctl --sync 2>/dev/null || sleep 1
}
series() { grep -c "^$1{" "$work/m.prom"; }
metric() { sed -n "s/^$1{$2} //p" "$work/m.prom"; }

D1=$work/dmi1
dimm "$D1/17-0" 000 P1-DIMMA1 SN-A1-0001 M393A2K43DB3-CWE
dimm "$D1/17-1" 001 P1-DIMMB1 SN-B1-0002 M393A2K43DB3-CWE

echo "1..22"

# --- boot 1: two corrected errors on A1, below WatchCorrected=3 ---
{ cper 10 1 corrected 0x1100 1234; cper 10 2 corrected 0x1100 1234; } >"$work/a.jsonl"
run "$D1" "$work/a.jsonl"
check "run 1 exits 0" 0 "$rc"
check "run 1: the ledger file is written, one module, ok" "1 ok" \
	"$(grep -c '^module ' "$work/state/modules.state") $("$mcectl" dimms --state "$work/state/modules.state" -o json | jq -r '.modules[0].verdict')"
check "run 1: no verdict change yet" 0 "$(changes | wc -l)"

# --- a restart: the third corrected error reaches WatchCorrected=3 ---
cper 11 3 corrected 0x1100 1234 >"$work/b.jsonl"
run "$D1" "$work/b.jsonl"
check "run 2: one verdict change, ok to watch, at notice" "1 ok watch 5" \
	"$(changes | wc -l) $(last '"\(.MCE_MODULE_PREVIOUS_VERDICT) \(.MCE_MODULE_VERDICT) \(.PRIORITY)"')"
check "run 2: the change names the module" "dimm SN-A1-0001 M393A2K43DB3-CWE P1-DIMMA1 no" \
	"$(last '"\(.MCE_MODULE_KIND) \(.MCE_MODULE_SERIAL) \(.MCE_MODULE_PART) \(.MCE_MODULE_SLOT) \(.MCE_MODULE_KEY_FALLBACK)"')"
check "run 2: the lifetime count crossed the restart" "3 0 3 corrected errors, pattern single_row" \
	"$(last '"\(.MCE_MODULE_CORRECTED) \(.MCE_MODULE_UNCORRECTED) \(.MCE_MODULE_REASON)"')"
check "run 2: the metrics count the lifetime, not this run" 3 \
	"$(metric mcelogd_module_errors_total 'kind="dimm",slot="P1-DIMMA1",serial="SN-A1-0001",severity="corrected"')"

# --- another restart: an uncorrected error on the same row ---
{ cper 12 4 corrected 0x1100 1234; cper 12 5 uncorrected 0x1100 1234; } >"$work/c.jsonl"
run "$D1" "$work/c.jsonl"
check "run 3: watch to replace, at err" "2 watch replace 3" \
	"$(changes | wc -l) $(last '"\(.MCE_MODULE_PREVIOUS_VERDICT) \(.MCE_MODULE_VERDICT) \(.PRIORITY)"')"
check "run 3: the reason names the row and its corrected errors" \
	"uncorrected error after 4 corrected on row 0x4d2" "$(last .MCE_MODULE_REASON)"
check "run 3: the evidence" "4 1 single_row, 5 cells, 1 row, 5 columns, 1 bank, 1 rank" \
	"$(last '"\(.MCE_MODULE_CORRECTED) \(.MCE_MODULE_UNCORRECTED) \(.MCE_MODULE_PATTERN)"')"
check "run 3: the entry's JSON has the module" "replace watch SN-A1-0001" \
	"$(last '.MCE_JSON | fromjson | .module | "\(.verdict) \(.previous_verdict) \(.serial)"')"
check "run 3: exactly one verdict series per module, the current one" \
	'1 kind="dimm",slot="P1-DIMMA1",serial="SN-A1-0001",verdict="replace",reason="uncorrected error after 4 corrected on row 0x4d2"' \
	"$(series mcelogd_module_verdict) $(sed -n 's/^mcelogd_module_verdict{\(.*\)} 1$/\1/p' "$work/m.prom")"
check "mcectl query --alerts shows the verdict changes" "watch replace" \
	"$("$mcectl" query --alerts --include-replayed --output json | jq -r 'select(.module != null) | .module.verdict' | tr '\n' ' ' | sed 's/ $//')"
check "mcectl dimms: the table row" "P1-DIMMA1 SN-A1-0001 replace 4 1" \
	"$("$mcectl" dimms --state "$work/state/modules.state" | awk 'NR == 2 { print $1, $2, $3, $4, $5 }')"
check "mcectl dimms SERIAL: the story follows its verdicts in the journal" 1 \
	"$("$mcectl" dimms --state "$work/state/modules.state" SN-A1-0001 | grep -c "journalctl MESSAGE_ID=$VERDICT_ID MCE_MODULE_KEY='dimm|serial=SN-A1-0001|part=M393A2K43DB3-CWE'")"

# --- the DIMM moved to B1, and a new one in A1 ---
D2=$work/dmi2
dimm "$D2/17-0" 000 P1-DIMMA1 SN-A1-NEW M393A2K43DB3-CWE
dimm "$D2/17-1" 001 P1-DIMMB1 SN-A1-0001 M393A2K43DB3-CWE
{ cper 13 6 corrected 0x1101 256; cper 13 7 corrected 0x1100 512; } >"$work/d.jsonl"
run "$D2" "$work/d.jsonl"
json=$("$mcectl" dimms --state "$work/state/modules.state" -o json)
check "moved: the old module keeps its history under its serial, now in B1" "P1-DIMMB1 5 1 replace" \
	"$(jq -r '.modules[] | select(.serial == "SN-A1-0001") | "\(.slot) \(.corrected) \(.uncorrected) \(.verdict)"' <<<"$json")"
check "new serial in A1: a fresh module" "P1-DIMMA1 1 0 ok" \
	"$(jq -r '.modules[] | select(.serial == "SN-A1-NEW") | "\(.slot) \(.corrected) \(.uncorrected) \(.verdict)"' <<<"$json")"
check "no verdict change for either (replace stays, the new one is ok)" 2 "$(changes | wc -l)"

# --- a damaged ledger: the damaged module is lost, told with file:line; the other kept ---
sed -i '0,/corrected=5 /s//corrected=five /' "$work/state/modules.state"
run "$D2" /dev/null
check "damaged: the daemon still runs" 0 "$rc"
check "damaged: file:line named" 1 \
	"$(grep -c "$work/state/modules.state:2: bad number in corrected=" "$work/err")"
check "damaged: the file is kept aside, the rest survives" "1 SN-A1-NEW" \
	"$(grep -c 'corrected=five' "$work/state/modules.state.damaged") $("$mcectl" dimms --state "$work/state/modules.state" -o json | jq -r '[.modules[].serial] | join(",")')"

# --- thresholds changed while stopped: the verdicts settle at start, each change an entry ---
printf '[Modules]\nWatchCorrected=1\n' >"$work/mcelogd.conf"
run "$D2" /dev/null
check "new thresholds: the new module goes to watch at the start" "3 ok watch SN-A1-NEW" \
	"$(changes | wc -l) $(last '"\(.MCE_MODULE_PREVIOUS_VERDICT) \(.MCE_MODULE_VERDICT) \(.MCE_MODULE_SERIAL)"')"

exit "$failed"
