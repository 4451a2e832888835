#!/bin/bash
# Integration test: rules (mcelogd.rules(5)) → alerts in a real journald and in
# JSON lines, page offlining through a stand-in for sysfs, never twice, and a
# failed offlining raising an alert.  Needs root, unshare, jq, systemd-journald.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
enter_journal_namespace "$0" "$@"
use_workdir
start_private_journald "$work"

ALERT_ID=$(sed -n 's/^#define MCELOGD_MSGID_ALERT *"\([0-9a-f]*\)".*/\1/p' "$srcdir/lib/message-ids.h")

# Corrected memory-controller read errors (IA32_MCi_STATUS 0x8c00000000000092:
# VAL MISCV ADDRV; MISC 0x8c: physical address, LSB 12) one hour apart.
records() { # records ADDRESS FIRST_HOUR COUNT
	for i in $(seq "$2" $(($2 + $3 - 1))); do
		printf '{"time":"2026-11-20T%02d:00:00.000000Z","source":"tracepoint","cpu":1,"bank":7,' "$i"
		printf '"vendor":"intel","family":6,"model":143,"status":"0x8c00000000000092",'
		printf '"addr":"%s","misc":"0x000000000000008c"}\n' "$1"
	done
}
alerts() { journalctl -o json _COMM=mcelogd MESSAGE_ID="$ALERT_ID" 2>/dev/null; }

echo "1..18"

# --- 10 on one page, 9 on another: one alert, one page offlined ---
{ records 0x0000000012345678 0 10; records 0x0000000055555000 0 9; } >"$work/in.jsonl"
mkdir -p "$work/sys"
: >"$work/sys/soft_offline_page"
"$mcelogd" --replay "$work/in.jsonl" --rules-directory "$srcdir/config/rules.d" \
	--sysfs-memory "$work/sys" --output-file "$work/out.jsonl" --log-level info 2>"$work/err"
check "replay with the shipped rules exits 0" 0 "$?"
journalctl --sync 2>/dev/null || sleep 1
check "one alert entry in the journal" 1 "$(alerts | wc -l)"
check "it names rule, key, count, window and priority" \
	"memory-page-ce page=0x12345 10 86400000000 4 2026-11-20T00:00:00.000000Z alert soft-offline" \
	"$(alerts | jq -r '"\(.MCE_RULE) \(.MCE_RULE_KEY) \(.MCE_RULE_COUNT) \(.MCE_RULE_WINDOW_USEC) \(.PRIORITY) \(.MCE_RULE_FIRST) \(.MCE_RULE_ACTIONS)"')"
check "its MCE_JSON is an alert naming the tripping record" "alert 1 0x12345678" \
	"$(alerts | jq -r '.MCE_JSON | fromjson | "\(.event) \(.record.cpu) \(.record.address)"')"
mcectl=$builddir/mcectl/mcectl
check "mcectl query --alerts shows the alert, marked event alert" "alert memory-page-ce" \
	"$("$mcectl" query --alerts --include-replayed --output json | jq -r '"\(.event) \(.rule)"')"
if "$mcectl" query --include-replayed | grep -q "alert  *(alert: memory-page-ce)  *Rule memory-page-ce fired for page=0x12345: 10 in 24h"; then
	ok "mcectl query's table shows the alert among the records"
else
	not_ok "mcectl query's table shows the alert among the records" "$("$mcectl" query --include-replayed 2>&1)"
fi
"$mcectl" query --alerts --cpu 1 >/dev/null 2>"$work/qerr"
check "--alerts with --cpu is a usage error" "2 1" "$? $(grep -c 'cannot be combined' "$work/qerr")"
check "the JSON lines output has the alert too" 1 "$(jq -s 'map(select(.event == "alert")) | length' "$work/out.jsonl")"
check "and every record" 19 "$(jq -s 'map(select(.event == null)) | length' "$work/out.jsonl")"
check "the page's physical address was written to soft_offline_page" "0x12345000" \
	"$(cat "$work/sys/soft_offline_page")"
if grep -q "page 0x12345 (address 0x12345000) soft-offline: done" "$work/err"; then
	ok "the offlining is logged"
else
	not_ok "the offlining is logged" "$(cat "$work/err")"
fi

# --- the same page again in one run: a second alert, never a second offlining ---
records 0x0000000012345000 10 10 >>"$work/in.jsonl"
: >"$work/sys/soft_offline_page"
"$mcelogd" --replay "$work/in.jsonl" --rules-directory "$srcdir/config/rules.d" --no-journal \
	--sysfs-memory "$work/sys" --output-file "$work/out2.jsonl" --log-level info 2>"$work/err2"
check "20 errors on the page: two alerts" 2 "$(jq -s 'map(select(.event == "alert")) | length' "$work/out2.jsonl")"
check "but one offlining" "0x12345000" "$(cat "$work/sys/soft_offline_page")"
if grep -q "was soft-offlined already in this boot, not again" "$work/err2"; then
	ok "the second time says so"
else
	not_ok "the second time says so" "$(cat "$work/err2")"
fi

# --- a page the kernel refuses: an alert saying so, at err priority ---
rm "$work/sys/soft_offline_page"
mkdir "$work/sys/soft_offline_page"   # open(O_WRONLY) fails with EISDIR
records 0x0000000077777000 0 10 >"$work/in3.jsonl"
"$mcelogd" --replay "$work/in3.jsonl" --rules-directory "$srcdir/config/rules.d" \
	--sysfs-memory "$work/sys" --log-level info 2>"$work/err3"
journalctl --sync 2>/dev/null || sleep 1
check "a failed offlining raises an alert of its own" "soft-offline 3 page=0x77777" \
	"$(alerts | jq -r 'select(.MCE_RULE_FAILED_ACTION != null) | "\(.MCE_RULE_FAILED_ACTION) \(.PRIORITY) \(.MCE_RULE_KEY)"')"

# --- without --sysfs-memory a replay never offlines this machine's pages ---
"$mcelogd" --replay "$work/in3.jsonl" --rules-directory "$srcdir/config/rules.d" --no-journal \
	--log-level info >/dev/null 2>"$work/err4"
if grep -q "would soft-offline page 0x77777 (not done when replaying)" "$work/err4"; then
	ok "a replay says what it would offline and does not"
else
	not_ok "a replay says what it would offline and does not" "$(cat "$work/err4")"
fi

# --- DRAM fault patterns: firmware memory records naming their cell (CPER bank, row,
# column) on one DIMM; one cell twice is nothing, another column of that row is a row
# fault (one alert, in the journal too), another row of that bank widens it to a bank fault.
fm() { printf '{"time":"2026-11-20T10:00:%02d.000000Z","source":"ras:extlog_mem_event","event":"firmware_memory","severity":"corrected","description":"DIMM_A1","label":"DIMM_A1","bank":3,"row":%s,"column":%s}\n' "$@"; }
{ fm 1 4660 16; fm 2 4660 16; fm 3 4660 80; fm 4 4660 200; fm 5 17 16; } >"$work/dram.jsonl"
mkdir -p "$work/norules"
"$mcelogd" --replay "$work/dram.jsonl" --rules-directory "$work/norules" --output-file "$work/dram.out" \
	2>"$work/dram.err"
journalctl --sync 2>/dev/null || sleep 1
check "a DIMM's errors in one row, then one bank: two fault-pattern alerts, in order" \
	"dimm=DIMM_A1 3 single_row|dimm=DIMM_A1 5 single_bank" \
	"$(jq -r 'select(.event == "alert" and .rule == "dram-fault-pattern") | "\(.key) \(.count) \(.message | capture("form a (?<p>[a-z_]+) fault").p)"' \
		"$work/dram.out" | paste -sd'|' -)"
check "... and in the journal, as alerts" 2 \
	"$(alerts | jq -r 'select(.MCE_RULE == "dram-fault-pattern") | .MCE_RULE_KEY' | grep -c DIMM_A1)"
exit $((failed > 0))
