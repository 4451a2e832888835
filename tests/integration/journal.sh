#!/bin/bash
# Integration test: mcelogd → a real journald → mcectl query.
#
# journald runs for real, in a private mount namespace with its sockets and
# storage on tmpfs, so the test touches nothing of the host's journal.
# Needs root (unshare, mounts) and systemd-journald; prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
enter_journal_namespace "$0" "$@"
use_workdir

# A private journald: sockets in /run/systemd/journal, storage in /run/log/journal.
start_private_journald "$work"

echo "1..86"

# --- replay: good records logged, bad lines reported with their line numbers ---
"$mcelogd" --replay "$data/replay-mixed.txt" --log-level info >"$work/replay.out" 2>"$work/replay.err"
rc=$?
check "replay with rejected lines exits non-zero" 1 "$rc"
if grep -q 'replay-mixed.txt:6:' "$work/replay.err" && grep -q 'replay-mixed.txt:9:' "$work/replay.err"; then
	ok "malformed lines are reported with file and line number"
else
	not_ok "malformed lines are reported with file and line number" "$(cat "$work/replay.err")"
fi
if grep -q '"bank"' "$work/replay.err"; then
	ok "the error names the offending key"
else
	not_ok "the error names the offending key" "$(cat "$work/replay.err")"
fi

# A journal with nothing in it yet, so that the checks after see the next
# replay's entries alone: replays keep their records' own times, by which
# mcectl query selects, not the moment they were logged (mcectl(1), TIMES).
fresh_journal() {
	journalctl --rotate >/dev/null 2>&1
	journalctl --vacuum-files=1 >/dev/null 2>&1
	[ "$(journalctl -q -o cat _COMM=mcelogd | wc -l)" = 0 ] || echo "# the journal is not empty after a vacuum" >&2
}

# --- replayed records are recorded input, not this machine's errors (issue 14 #11) ---
check "replayed records are left out of mcectl query by default" 0 \
	"$("$mcectl" query --output json 2>/dev/null | wc -l)"
check "... and shown with --include-replayed" 4 \
	"$("$mcectl" query --include-replayed --output json | wc -l)"
check "every entry --replay wrote carries MCELOGD_REPLAY=1" "4 4" \
	"$(journalctl -o json _COMM=mcelogd MESSAGE_ID=d90772f9176e45e88ae80c46f01c0915 + _COMM=mcelogd MESSAGE_ID=aa342ccf21574871922871263c767d1c + _COMM=mcelogd MESSAGE_ID=5987c93aca024e54b54a11caec7a116b + _COMM=mcelogd MESSAGE_ID=fd6bd0d477884d02a89dcb47f4c8c599 |
	   jq -rs '"\(length) \(map(select(.MCELOGD_REPLAY == "1")) | length)"')"

# --- a forged entry: same MESSAGE_ID and fields, but not written by mcelogd ---
logger --journald <<FORGED
MESSAGE=Corrected machine check on CPU 99 bank 99: forged
MESSAGE_ID=d90772f9176e45e88ae80c46f01c0915
MCE_CPU=99
MCE_BANK=99
MCE_SEVERITY=corrected
MCE_JSON={"cpu":99,"bank":99,"status":"0x9000000000000000","severity":"corrected"}
FORGED
# A process named mcelogd (_COMM matches): mcectl matches only _COMM in the
# journal and checks MESSAGE_ID and _UID itself, so neither may be any.
cp "$(command -v logger)" "$work/mcelogd" && chmod a+rx "$work" "$work/mcelogd"
"$work/mcelogd" --journald <<FORGED
MESSAGE=Corrected machine check on CPU 98 bank 98: not one of mcelogd's ids
MESSAGE_ID=0123456789abcdef0123456789abcdef
MCE_CPU=98
MCE_BANK=98
MCE_SEVERITY=corrected
MCE_JSON={"cpu":98,"bank":98,"status":"0x9000000000000000","severity":"corrected"}
FORGED
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$work/mcelogd" --journald <<FORGED
MESSAGE=Corrected machine check on CPU 97 bank 97: not mcelogd's user
MESSAGE_ID=d90772f9176e45e88ae80c46f01c0915
MCE_CPU=97
MCE_BANK=97
MCE_SEVERITY=corrected
MCE_JSON={"cpu":97,"bank":97,"status":"0x9000000000000000","severity":"corrected"}
FORGED
fi
journalctl --sync 2>/dev/null || sleep 1

"$mcectl" query --include-replayed --output json >"$work/all.json" 2>"$work/query.err"
check "mcectl query exits 0" 0 "$?"
check "every good record and nothing else is shown" 4 "$(wc -l <"$work/all.json")"
check "the forged entry is not shown" 0 "$(jq -s '[.[] | select(.cpu == 99)] | length' "$work/all.json")"
check "entries of a process named mcelogd with another id or user are not shown" 0 \
	"$(jq -s '[.[] | select(.cpu == 98 or .cpu == 97)] | length' "$work/all.json")"
check "... nor counted by mcectl summary" "" \
	"$("$mcectl" summary --include-replayed --by cpu --output csv | grep -E '^cpu,cpu (97|98),' || true)"

# Registers survive the round trip bit for bit (above 2^53 too).
check "record 1 registers" \
	"3 1 0x9c00004000010090 0x0000000012345000 0x0000000000000086" \
	"$(jq -r 'select(.cpu == 3) | "\(.cpu) \(.bank) \(.status) \(.addr) \(.misc)"' "$work/all.json")"
check "record 2 (AMD SMCA) registers" \
	"0xdc2040000000011b 0x00000003bd2c8fc0 0xd01a0ffe00000000 0x000000005a020001 0x0000009600050f00" \
	"$(jq -r 'select(.cpu == 2) | "\(.status) \(.addr) \(.misc) \(.synd) \(.ipid)"' "$work/all.json")"
check "record 3 registers" "0xbd80000000100134 0x00000000deadb000 0x0000000000000005" \
	"$(jq -r 'select(.cpu == 0) | "\(.status) \(.addr) \(.mcgstatus)"' "$work/all.json")"
check "identity fields kept" "intel 6 143 0 2026-11-20T10:00:00.000000Z replay" \
	"$(jq -r 'select(.cpu == 3) | "\(.vendor) \(.family) \(.model) \(.socket) \(.time) \(.source)"' "$work/all.json")"
check "severities decoded" "corrected,corrected,uncorrected,fatal" \
	"$(jq -rs 'sort_by(.time) | map(.severity) | join(",")' "$work/all.json")"
# A replay's record is not this host's: it gets neither this host's name nor its boot id.
check "a replay stamps no host name or boot id of this host" "null null" \
	"$(jq -r 'select(.cpu == 3) | "\(.hostname) \(.boot_id)"' "$work/all.json")"

# The journal entry itself carries the structured fields pipelines read.
journalctl -o json MESSAGE_ID=d90772f9176e45e88ae80c46f01c0915 _COMM=mcelogd >"$work/entries.json"
check "MCE_* fields on the journal entry" "3 1 0x9c00004000010090 corrected 4" \
	"$(jq -r 'select(.MCE_CPU == "3") | "\(.MCE_CPU) \(.MCE_BANK) \(.MCE_STATUS) \(.MCE_SEVERITY) \(.PRIORITY)"' "$work/entries.json")"
check "MCE_JSON is the record contract" "0x9c00004000010090" \
	"$(jq -r 'select(.MCE_CPU == "3") | .MCE_JSON | fromjson | .status' "$work/entries.json")"

# --- filters ---
check "--cpu" "2" "$("$mcectl" query --include-replayed --output json --cpu 2 | jq -s 'map(.cpu) | join(",")' -r)"
check "--bank" "4" "$("$mcectl" query --include-replayed --output json --bank 4 | jq -s 'map(.bank) | join(",")' -r)"
check "--severity fatal" "7" "$("$mcectl" query --include-replayed --output json --severity fatal | jq -s 'map(.cpu) | join(",")' -r)"
check "--severity corrected" "2,3" \
	"$("$mcectl" query --include-replayed --output json --severity corrected | jq -s 'map(.cpu) | sort | join(",")' -r)"

# --until / --since split at a moment between two replays: the next second
# after the first replays, and the second replay a whole second after it
# (the boundaries waited for, not a fixed 1.1 s each side).
next_second
split=$(date +%s)
next_second
printf '%s\n' '{"cpu":42,"bank":2,"status":"0x9000000000000000"}' | "$mcelogd" --replay - 2>>"$work/replay.err"
check "second replay exits 0" 0 "$?"
check "--until excludes later records" 4 "$("$mcectl" query --include-replayed --until "@$split" --output json | wc -l)"
check "--since includes only later records" "42" \
	"$("$mcectl" query --include-replayed --since "@$split" --output json | jq -s -r 'map(.cpu) | join(",")')"

# --- bad command-line values are named ---
"$mcectl" query --include-replayed --since 'not a time' >/dev/null 2>"$work/bad.err"
rc=$?
if [ $rc = 2 ] && grep -q "not a time" "$work/bad.err"; then ok "bad --since is named, exit 2"
else not_ok "bad --since is named, exit 2" "rc=$rc $(cat "$work/bad.err")"; fi

# The table form shows the records too.
"$mcectl" query --include-replayed >"$work/table.txt"
if [ "$(grep -c 'corrected\|fatal\|uncorrected' "$work/table.txt")" -ge 4 ]; then ok "table output lists the records"
else not_ok "table output lists the records" "$(cat "$work/table.txt")"; fi

# --- the bundled sample of real records: every one comes back with its registers ---
sample=$srcdir/tests/data/real-records.txt
fresh_journal
"$mcelogd" --foreground --replay "$sample" 2>>"$work/replay.err"
check "replay of the bundled sample exits 0" 0 "$?"
"$mcectl" decode --output json "$sample" >"$work/sample-decoded.json"
"$mcectl" query --include-replayed --output json >"$work/sample-logged.json"
regs='[.cpu, .bank, .status, .addr, .misc, .mcgstatus, .family, .model, .time] | map(tostring) | join(" ")'
expected=$(jq -r "$regs" "$work/sample-decoded.json" | sort)
actual=$(jq -r "$regs" "$work/sample-logged.json" | sort)
check "every sample record is in the journal" "$(grep -c . <<<"$expected")" "$(grep -c . <<<"$actual")"
if [ -n "$expected" ] && [ "$expected" == "$actual" ]; then ok "sample registers intact through journald"
else not_ok "sample registers intact through journald" "$(diff <(echo "$expected") <(echo "$actual"))"; fi

# --- other hardware errors (ras records): replayed, through journald, back out of mcectl ---
fresh_journal
logger --journald <<FORGED
MESSAGE=Memory failure at pfn 0x66666, page type free_buddy: recovered
MESSAGE_ID=aa001d58f52e4e5ebb0f2176f6d64a39
MCE_EVENT=memory_failure
MCE_SEVERITY=info
MCE_JSON={"event":"memory_failure","severity":"info","pfn":"0x66666"}
FORGED
"$mcelogd" --replay "$data/replay-ras.txt" 2>"$work/ras.err"
check "ras replay with one bad line exits 1" 1 "$?"
if grep -q 'replay-ras.txt:4: key "severity"' "$work/ras.err"; then ok "the bad ras line is named with file, line and key"
else not_ok "the bad ras line is named with file, line and key" "$(cat "$work/ras.err")"; fi
"$mcectl" query --include-replayed --output json >"$work/ras.json"
check "mcectl query shows the three ras records and not the forged one" "0x30000 - -" \
	"$(jq -rs 'map(.pfn // "-") | join(" ")' "$work/ras.json")"
grep -v '"severity":"sometimes"' "$data/replay-ras.txt" | jq -c 'del(.hostname, .boot_id)' >"$work/ras-in.json"
check "the records come back as they were written" "$(cat "$work/ras-in.json")" \
	"$(jq -c 'del(.hostname, .boot_id)' "$work/ras.json")"
check "--severity info (memory failure only)" "memory_failure" \
	"$("$mcectl" query --include-replayed --severity info --output json | jq -rs 'map(.event) | join(",")')"
check "--severity corrected finds the EDAC record by MCE_SEVERITY" "memory_controller" \
	"$("$mcectl" query --include-replayed --severity corrected --output json | jq -rs 'map(.event) | join(",")')"
check "--severity uncorrected" "arm_processor" \
	"$("$mcectl" query --include-replayed --severity uncorrected --output json | jq -rs 'map(.event) | join(",")')"
check "--cpu 5 finds the record that names CPU 5" "arm_processor" \
	"$("$mcectl" query --include-replayed --cpu 5 --output json | jq -rs 'map(.event) | join(",")')"
check "--bank leaves out records without banks" 0 \
	"$("$mcectl" query --include-replayed --bank 0 --output json | wc -l)"
"$mcectl" query --include-replayed >"$work/ras-table.txt"
if grep -q 'info .*ras:memory_failure_event .*Memory failure at pfn 0x30000' "$work/ras-table.txt" &&
   grep -q '^[^ ]* *5 *- uncorrected .*ras:arm_event' "$work/ras-table.txt"; then ok "table rows: source, severity, CPU and summary"
else not_ok "table rows: source, severity, CPU and summary" "$(cat "$work/ras-table.txt")"; fi
journalctl -o json MESSAGE_ID=aa001d58f52e4e5ebb0f2176f6d64a39 _COMM=mcelogd >"$work/ras-entries.json"
check "memory failure journal entry: MCE_* fields and PRIORITY" "memory_failure info 0x30000 free_buddy recovered 5" \
	"$(jq -r '"\(.MCE_EVENT) \(.MCE_SEVERITY) \(.MCE_PFN) \(.MCE_PAGE_TYPE) \(.MCE_RESULT) \(.PRIORITY)"' "$work/ras-entries.json")"
check "mcelogd --severity bogus is named" 2 \
	"$("$mcectl" query --include-replayed --severity bogus >/dev/null 2>&1; echo $?)"

# --- an output file that cannot be opened stops nothing: the journal still gets every record ---
fresh_journal
grep -v '"severity":"sometimes"' "$data/replay-ras.txt" >"$work/ras-good.txt"
"$mcelogd" --replay "$work/ras-good.txt" >/dev/null 2>&1
check "(control) the same input without --output-file replays with exit 0" 0 "$?"
"$mcelogd" --replay "$work/ras-good.txt" --output-file /nonexistent-dir/records.jsonl \
	>/dev/null 2>"$work/badout.err"
check "an unopenable --output-file fails the replay at its end" 1 "$?"
if grep -q 'Failed to open JSON output /nonexistent-dir/records.jsonl' "$work/badout.err"; then
	ok "the error names the output file"
else not_ok "the error names the output file" "$(cat "$work/badout.err")"; fi
check "... and the records still reached the journal (3 from each run)" 6 \
	"$("$mcectl" query --include-replayed --output json | wc -l)"
# --- hostile input: a 4 MiB line between two records; a read error is not the end ---
rec1=$(sed -n 1p "$work/ras-good.txt")
rec2=$(sed -n 2p "$work/ras-good.txt")
{ echo "$rec1"; head -c $((4 << 20)) /dev/zero | tr '\0' a; echo; echo "$rec2"; } >"$work/long-line.txt"
"$mcelogd" --replay "$work/long-line.txt" --no-journal --output json >"$work/long.out" 2>"$work/long.err"
check "replay: a 4 MiB line between two records is rejected (exit 1)" 1 "$?"
check "replay: ... both records around it are logged" 2 "$(grep -c '"event"' "$work/long.out")"
if grep -q 'long-line.txt:2: line longer than 65536 bytes' "$work/long.err"; then ok "replay: the long line is named by file and line"
else not_ok "replay: the long line is named by file and line" "$(head -c 600 "$work/long.err")"; fi
"$mcectl" decode "$work/long-line.txt" >/dev/null 2>"$work/dlong.err"
if grep -q 'long-line.txt:2: line longer than 65536 bytes' "$work/dlong.err"; then ok "decode: the same line is named the same way"
else not_ok "decode: the same line is named the same way" "$(head -c 600 "$work/dlong.err")"; fi
"$mcelogd" --replay "$work" --no-journal >/dev/null 2>"$work/dir.err"
check "replay: a read error (a directory) fails" 1 "$?"
if grep -q "Failed to read replay input $work at line 0: Is a directory" "$work/dir.err"; then ok "replay: the read error is named"
else not_ok "replay: the read error is named" "$(cat "$work/dir.err")"; fi

printf '[Output]\nJSON=/nonexistent-dir/records.jsonl\n' >"$work/badout.conf"
"$mcelogd" --test-config -c "$work/badout.conf" >"$work/tc.out" 2>"$work/tc.err"
rc=$?
if [ $rc = 0 ] && grep -q 'JSON=/nonexistent-dir/records.jsonl cannot be written' "$work/tc.err"; then
	ok "--test-config warns of a JSON= path it cannot write, and passes (the journal still works)"
else not_ok "--test-config warns of a JSON= path it cannot write, and passes" "rc=$rc $(cat "$work/tc.err")"; fi
printf '[Daemon]\nSocketGroup=no-such-group-here\n' >"$work/badgroup.conf"
"$mcelogd" --test-config -c "$work/badgroup.conf" >/dev/null 2>"$work/tg.err"
rc=$?
if [ $rc = 0 ] && grep -q 'SocketGroup=no-such-group-here: no such group' "$work/tg.err"; then
	ok "--test-config warns of a SocketGroup= that does not exist"
else not_ok "--test-config warns of a SocketGroup= that does not exist" "rc=$rc $(cat "$work/tg.err")"; fi

# --- a ras storm cut by a crash: its saved count reaches the journal once, found by its signature ---
# Live ras records come from tracepoints only (the VM rig floods them); what a
# killed mcelogd left in its state directory is written by the next start.
mkdir -p "$work/rstorm/state" "$work/rstorm/tracefs"
boot=$(tr -d - </proc/sys/kernel/random/boot_id)
rs_start=$(( ($(date +%s) - 60) * 1000000 ))
sig='dev_name=0000:00:1c.0 correctable_status=0x1'
ras_state() { # TOTAL SIGNATURE: a storm that logged 10 records, then counted TOTAL
	printf 'mcelogd-storms 1\nboot_id %s\nras pcie_aer %s %s %s 10 %s\n' "$boot" "$rs_start" \
		"$((rs_start + 9000000))" "$1" "$2" >"$work/rstorm/state/storms.state"
}
run_recover() { # NAME: a live daemon with nothing to read, stopped once it closed the saved storms
	"$mcelogd" --tracefs "$work/rstorm/tracefs" --control-socket '' --bert "$work/rstorm/no-bert" \
		--state-directory "$work/rstorm/state" --log-level info 2>"$work/rstorm/$1.err" &
	local pid=$!
	for _ in $(seq 100); do grep -q "Closed 1 storm" "$work/rstorm/$1.err" && break; sleep 0.05; done
	kill -TERM $pid 2>/dev/null
	wait $pid
	journalctl --sync 2>/dev/null || sleep 1
}
ras_storms() { journalctl -o json MCE_STORM_SCOPE=ras _COMM=mcelogd; }
ras_state 4990 "$sig"
run_recover crash1
ras_storms >"$work/rstorm/entries.json"
check "a saved ras storm gets a last summary with its whole count, and an end with reason crash" \
	"summary 4990 4990 pcie_aer|$sig end - 4990 pcie_aer|$sig crash" \
	"$(jq -rs 'map("\(if .MCE_STORM_REASON then "end" else "summary" end) \(.MCE_STORM_COUNT // "-") \(.MCE_STORM_TOTAL) \(.MCE_STORM_EVENT)|\(.MCE_STORM_SIGNATURE)\(if .MCE_STORM_REASON then " " + .MCE_STORM_REASON else "" end)") | join(" ")' "$work/rstorm/entries.json")"
check "... the 10 logged before it and the 4990 counted account for all 5000 records" 5000 \
	"$(jq -rs 'map(select(.MCE_STORM_COUNT)) | (.[0].MCE_STORM_LOGGED | tonumber) + (map(.MCE_STORM_COUNT | tonumber) | add)' "$work/rstorm/entries.json")"
check "... its MESSAGE names the kind and signature, and MCE_JSON says ras" \
	"Corrected pcie_aer error storm on $sig: 4990 more records ras $sig" \
	"$(jq -rs 'map(select(.MCE_STORM_COUNT)) | .[0] | "\(.MESSAGE | sub(" in .*"; "")) \(.MCE_JSON | fromjson | "\(.scope) \(.signature)")"' "$work/rstorm/entries.json")"
check "... mcectl summary --by bank counts the 4990 with the source's records" "ras:aer_event 4990 1" \
	"$("$mcectl" summary --by bank --output json 2>/dev/null | jq -r 'select(.key == "ras:aer_event") | "\(.key) \(.records) \(.storms)"')"
check "... and the state file is gone" no "$([ -e "$work/rstorm/state/storms.state" ] && echo yes || echo no)"
ras_state 6000 "$sig"
run_recover crash2
check "the same storm saved again is found in the journal, ended: nothing is written twice" 2 "$(ras_storms | wc -l)"
ras_state 7 "dev_name=0000:00:1c.0 correctable_status=0x40"
run_recover crash3
check "another signature with the same start is not taken for it: its 7 are written" "4990 7" \
	"$(ras_storms | jq -rs 'map(select(.MCE_STORM_COUNT) | .MCE_STORM_COUNT) | join(" ")')"

# --- the replay marker comes first: an input whose own fields fill the entry cannot push it out ---
jq -nc '{time: "2026-11-20T10:00:00.000000Z", source: "ras:mc_event", event: "memory_controller",
	 severity: "uncorrected", label: "DIMM_B2", mc: 1} +
	([range(16)] | map({key: "note_\(.)", value: ("x" * 240)}) | from_entries) +
	([range(10)] | map({key: "z\(.)", value: "y"}) | from_entries)' >"$work/full-entry.jsonl"
jq -nc '{time: "2026-11-20T10:00:00.000000Z", source: "ras:mc_event", event: "memory_controller",
	 severity: "uncorrected", label: "DIMM_B3", mc: 1} +
	([range(60)] | map({key: "z\(.)", value: "y"}) | from_entries)' >>"$work/full-entry.jsonl"
"$mcelogd" --replay "$work/full-entry.jsonl" --rules-directory "$work" >/dev/null 2>"$work/full-entry.err"
check "a replay whose input fills the entries succeeds" 0 "$?"
check "... and every entry still carries MCELOGD_REPLAY=1 and MCE_JSON" "2 2 2" \
	"$(journalctl --all -o json _COMM=mcelogd MCE_LABEL=DIMM_B2 + _COMM=mcelogd MCE_LABEL=DIMM_B3 |
	   jq -rs '"\(length) \(map(select(.MCELOGD_REPLAY == "1")) | length) \(map(select(.MCE_JSON)) | length)"')"

# --- the board slot of a memory record, as a journal field (issue 26 item 6) ---
. "$srcdir/tests/smbios-fake.sh"
memdev "$work/dmi/17-0" 000 000 100 002 "P1-DIMMA1" "P0_Node0_Channel0_Dimm0"
jq -nc '{time: "2026-11-20T10:00:00.000000Z", source: "ras:mc_event", event: "memory_controller",
	 severity: "corrected", label: "P0_Node0_Channel0_Dimm0 P1-DIMMA1", mc: 0}' >"$work/slot.jsonl"
"$mcelogd" --replay "$work/slot.jsonl" --rules-directory "$work" --dmi-dir "$work/dmi" \
	--slots-directory "$work/none" >/dev/null 2>"$work/slot.err"
check "a replay told where the SMBIOS tree is succeeds" 0 "$?"
check "... and its EDAC entry carries MCE_DIMM_SLOT and MCE_DIMM_BANK_LOCATOR" "P1-DIMMA1 P0_Node0_Channel0_Dimm0" \
	"$(journalctl --all -o json _COMM=mcelogd MCE_DIMM_SLOT=P1-DIMMA1 |
	   jq -rs 'map("\(.MCE_DIMM_SLOT) \(.MCE_DIMM_BANK_LOCATOR)") | join(",")')"

# replay_one JSON ERRFILE: one record through mcelogd --replay; its exit status
replay_one() { printf '%s\n' "$1" | "$mcelogd" --replay - 2>"$2"; }

# --- AMD's MCA_SYND1/2 (6.13+'s vendor data): through journald as fields, the FRU text decoded ---
# mcectl query selects by the error's time (the record's own, in the past).
replay_one '{"time":"2026-11-27T23:00:00.000000Z","cpu":3,"bank":17,"vendor":"amd","family":25,"model":17,"stepping":1,"status":"0x9c2040000000011b","addr":"0x0000000abcd00000","synd":"0x000000005a020001","synd1":"0x4d49445f30555043","synd2":"0x0000000031415f4d","ipid":"0x0000009600150f00"}' \
	"$work/fru.err"
check "a record with SYND1/SYND2 replays with exit 0" 0 "$?"
check "MCE_SYND1, MCE_SYND2 and MCE_FRU_TEXT on its journal entry" \
	"0x4d49445f30555043 0x0000000031415f4d CPU0_DIMM_A1" \
	"$(journalctl --all -o json _COMM=mcelogd MCE_FRU_TEXT=CPU0_DIMM_A1 |
	   jq -r '"\(.MCE_SYND1) \(.MCE_SYND2) \(.MCE_FRU_TEXT)"')"
check "... and the MESSAGE names the part" \
	"Corrected machine check on CPU 3 bank 17 (Unified Memory Controller): Generic-level cache read error, channel 1, FRU CPU0_DIMM_A1: DRAM ECC error" \
	"$(journalctl --all -o json _COMM=mcelogd MCE_FRU_TEXT=CPU0_DIMM_A1 | jq -r .MESSAGE)"
check "mcectl query gives the registers and the FRU text back" \
	"0x4d49445f30555043 0x0000000031415f4d CPU0_DIMM_A1" \
	"$("$mcectl" query --include-replayed --since @1 --output json |
	   jq -r 'select(.fru_text == "CPU0_DIMM_A1") | "\(.synd1) \(.synd2) \(.fru_text)"')"

# --- a PCIe link event (pci:pcie_link_event): its own MESSAGE_ID, the downtraining as a field ---
replay_one '{"time":"2026-11-27T23:00:01.000000Z","source":"pci:pcie_link_event","event":"pcie_link","severity":"info","summary":"PCIe link of 0000:00:02.0 trained: 8.0 GT/s x4, below its maximum of 16.0 GT/s (bwctrl_irq)","port_name":"0000:00:02.0","reason":"bwctrl_irq","speed":"8.0 GT/s","max_speed":"16.0 GT/s","width":4,"degraded":true}' \
	"$work/link.err"
check "a pcie_link record replays with exit 0" 0 "$?"
check "its entry: the link class's MESSAGE_ID, PRIORITY notice, MCE_DEGRADED" \
	"ac56d7120cb54bff9694695a6dcd6944 5 yes 0000:00:02.0" \
	"$(journalctl --all -o json _COMM=mcelogd MCE_EVENT=pcie_link |
	   jq -r '"\(.MESSAGE_ID) \(.PRIORITY) \(.MCE_DEGRADED) \(.MCE_PORT_NAME)"')"

# --- devlink health (devlink:*): each kind its own MESSAGE_ID, the rule fields as MCE_* fields ---
msgid_of() { sed -n "s/^#define MCELOGD_MSGID_$1 *\"\([0-9a-f]*\)\".*/\1/p" "$srcdir/lib/message-ids.h"; }
replay_one '{"time":"2026-12-02T04:00:01.000000Z","source":"devlink:devlink_health_report","event":"devlink_health","severity":"corrected","summary":"devlink health: mlx5_core 0000:3b:00.0 reporter fw_fatal: FW fatal error","bus":"pci","dev_name":"0000:3b:00.0","driver":"mlx5_core","reporter":"fw_fatal","message":"FW fatal error","health_state":"error"}' \
	"$work/devlink.err"
check "a devlink_health record replays with exit 0" 0 "$?"
check "its entry: the devlink class's MESSAGE_ID, PRIORITY warning, driver, device, reporter, state" \
	"$(msgid_of DEVLINK_HEALTH) 4 mlx5_core 0000:3b:00.0 fw_fatal error FW fatal error" \
	"$(journalctl --all -o json _COMM=mcelogd MCE_EVENT=devlink_health |
	   jq -r '"\(.MESSAGE_ID) \(.PRIORITY) \(.MCE_DRIVER) \(.MCE_DEV_NAME) \(.MCE_REPORTER) \(.MCE_HEALTH_STATE) \(.MCE_MESSAGE)"')"
replay_one '{"time":"2026-12-02T04:00:02.000000Z","source":"devlink:devlink_health_recover_aborted","event":"devlink_recover_aborted","severity":"uncorrected","summary":"devlink health: mlx5_core 0000:3b:00.0 reporter fw_fatal stays in error: recovery not attempted","bus":"pci","dev_name":"0000:3b:00.0","driver":"mlx5_core","reporter":"fw_fatal","health_state":"error","jiffies_since_recovery":250}' \
	"$work/devlink-aborted.err"
check "an aborted recovery: its own MESSAGE_ID, PRIORITY crit" \
	"$(msgid_of DEVLINK_RECOVER_ABORTED) 2 fw_fatal 250" \
	"$(journalctl --all -o json _COMM=mcelogd MCE_EVENT=devlink_recover_aborted |
	   jq -r '"\(.MESSAGE_ID) \(.PRIORITY) \(.MCE_REPORTER) \(.MCE_JIFFIES_SINCE_RECOVERY)"')"
check "mcectl query shows both, by the error's time" \
	"devlink_health devlink_recover_aborted" \
	"$("$mcectl" query --include-replayed --since @1 --output json |
	   jq -r 'select(.dev_name == "0000:3b:00.0") | .event' | tr '\n' ' ' | sed 's/ $//')"
# --- a memory error's SIGBUS and the memory failure of the same moment: joined; a disk error (issue 38) ---
printf '%s\n' \
	'{"time":"2026-12-01T10:00:00.000000Z","source":"signal:signal_generate","event":"sigbus","severity":"deferred","summary":"Memory error: SIGBUS (action optional) sent to postgres[4242] of postgresql@15-main.service","comm":"postgres","pid":4242,"signal":7,"code":"action_optional","group":false,"result":"delivered","unit":"postgresql@15-main.service"}' \
	'{"time":"2026-12-01T10:00:00.000040Z","source":"ras:memory_failure_event","event":"memory_failure","severity":"info","summary":"Memory failure at pfn 0x12345, page type dirty_lru: recovered","pfn":"0x12345","page_type":"dirty_lru","result":"recovered"}' \
	'{"time":"2026-12-01T10:00:05.000000Z","source":"block:block_rq_error","event":"disk_error","severity":"uncorrected","summary":"Disk sda (8:0): critical medium error, R sector 4656 + 8","dev":"8:0","disk":"sda","sector":4656,"nr_sector":8,"error":-61,"error_type":"medium","rwbs":"R"}' |
	"$mcelogd" --replay - 2>"$work/sigbus.err"
check "a SIGBUS, its memory failure and a disk error replay with exit 0" 0 "$?"
check "the SIGBUS entry: its MESSAGE_ID, PRIORITY err (deferred), the process and its unit" \
	"84b326d490cd4ec1be9b8486aefdf379 3 postgres 4242 action_optional postgresql@15-main.service" \
	"$(journalctl --all -o json _COMM=mcelogd MCE_EVENT=sigbus |
	   jq -r '"\(.MESSAGE_ID) \(.PRIORITY) \(.MCE_COMM) \(.MCE_PID) \(.MCE_CODE) \(.MCE_UNIT)"')"
check "the memory failure of the same moment names the killed process and its unit" \
	"postgres 4242 postgresql@15-main.service" \
	"$(journalctl --all -o json _COMM=mcelogd MCE_EVENT=memory_failure MCE_PFN=0x12345 |
	   jq -r '"\(.MCE_KILLED_COMM) \(.MCE_KILLED_PID) \(.MCE_KILLED_UNIT)"')"
check "... and its MESSAGE says so" 1 \
	"$(journalctl --all -o cat _COMM=mcelogd MCE_EVENT=memory_failure MCE_PFN=0x12345 |
	   grep -c 'SIGBUS to postgres\[4242\] of postgresql@15-main.service')"
check "the disk error entry: its MESSAGE_ID, PRIORITY crit (uncorrected), disk, sector and error type" \
	"3bc9d6d370a8470cab2446f155150a82 2 sda 8:0 4656 medium" \
	"$(journalctl --all -o json _COMM=mcelogd MCE_EVENT=disk_error |
	   jq -r '"\(.MESSAGE_ID) \(.PRIORITY) \(.MCE_DISK) \(.MCE_DEV) \(.MCE_SECTOR) \(.MCE_ERROR_TYPE)"')"
check "mcectl summary --by process counts the killed process, by its unit" 1 \
	"$("$mcectl" summary --include-replayed --since @1 --by process | grep -c '^postgres postgresql@15-main.service ')"

# --- journald gone: libsystemd says "sent", so the sink must see for itself (issue 14 #2) ---
kill "$journald_pid" 2>/dev/null; wait "$journald_pid" 2>/dev/null; journald_pid=
rm -f /run/systemd/journal/socket
"$mcelogd" --replay "$work/ras-good.txt" >/dev/null 2>"$work/nojournal.err"
check "without journald a replay fails (the records are held by no sink)" 1 "$?"
# A replay waits for journald only while its queue is full (EAGAIN, up to 30 s an
# entry): a socket that is not there fails each entry as it is sent.
check "... at once, not after waiting for journald (no socket, not a full queue)" no \
	"$(grep -q "Resource temporarily unavailable" "$work/nojournal.err" && echo yes || echo no)"
if grep -q "Failed to write record to journal: No such file or directory" "$work/nojournal.err"; then
	ok "... each record's failure is named, with the record"
else not_ok "... each record's failure is named, with the record" "$(head -c 600 "$work/nojournal.err")"; fi
"$mcelogd" --replay "$work/ras-good.txt" --no-journal --output json 2>/dev/null | grep -c '"event"' >"$work/nj.count"
check "... and --no-journal still replays to JSON" 3 "$(cat "$work/nj.count")"

[ $failed = 0 ]
