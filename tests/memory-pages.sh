#!/bin/sh
# Memory errors and the shipped page rule, through `mcectl rules --test` and
# `mcelogd --replay` (issue 26; review of 7618bea C1, I1, I2, I3, M5): a page
# only from an address that names one, one count per error, replay counting
# what the live daemon counts, and offlined pages across reboots (TAP).
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$top_srcdir/tests/tap-cli.sh"
alerts() { [ "$(grep -c '"event":"alert"' "$TMP/out")" -eq "$1" ]; }
replay() { f=$1; shift; run 0 "$MCELOGD" --replay "$f" --no-journal --output json --rules-directory "$SHIPPED" "$@"; }

# The README's AMD Family 19h UMC DRAM ECC record (bank 5, IPID of a UMC) at second $1.
amd_umc() {
	printf '{"time":"2026-11-20T10:00:%02d.000000Z","source":"tracepoint","cpu":2,"bank":5,' "$1"
	printf '"vendor":"amd","family":25,"model":1,"stepping":1,"status":"0xdc2040000000011b",'
	printf '"addr":"0x00000003bd2c8fc0","misc":"0xd01a0ffe00000000","synd":"0x000000005a020001",'
	printf '"ipid":"0x0000009600050f00"}\n'
}
# A Skylake-SP IMC corrected read error (bank 13, MCACOD 0x0090) at hour $1 with STATUS $2, ADDR $3, MISC $4.
intel_imc() {
	printf '{"time":"2026-11-20T%02d:00:00.000000Z","source":"tracepoint","cpu":1,"socketid":0,' "$1"
	printf '"bank":13,"vendor":"intel","family":6,"model":85,"status":"%s","addr":"%s","misc":"%s"}\n' \
		"$2" "$3" "$4"
}
# An EDAC ras:mc_event as the JSON output writes it: hour $1, second $2, address $3.
edac() {
	printf '{"time":"2026-11-20T%02d:00:%02d.000000Z","source":"ras:mc_event","event":"memory_controller",' "$1" "$2"
	printf '"severity":"corrected","error_count":1,"label":"CPU_SrcID#0_MC#0_Chan#0_DIMM#0","mc":0,'
	printf '"top_layer":0,"middle_layer":0,"address":"%s","grain":64}\n' "$3"
}
ten() { for i in 0 1 2 3 4 5 6 7 8 9; do "$@" "$i"; done; }

echo "1..46"

# C1: a UMC's MCA_ADDR is a normalized address; ten of them offline nothing.
ten amd_umc >"$TMP/amd.jsonl"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/amd.jsonl"
check "AMD UMC: no page from the normalized MCA_ADDR (C1)" \
	sh -c '! grep -q "memory-page-ce" "$0" && grep -q "0 firings" "$0"' "$TMP/out"
replay "$TMP/amd.jsonl"
check "AMD UMC: the record says why it has no page" has '"no_page":"normalized_address"'

# I2: Intel addresses without MISCV, or good only to 1 GiB, name no page.
: >"$TMP/i2.jsonl"
for h in 0 1 2 3 4 5 6 7 8 9; do
	intel_imc "$h" 0x8400000000000090 0x0000000007000000 0x0000000000000000 >>"$TMP/i2.jsonl"
	intel_imc "$h" 0x8c00000000000090 0x0000000040000000 0x000000000000009e >>"$TMP/i2.jsonl"
done
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/i2.jsonl"
check "Intel: no page without MISCV or with LSB 30 (I2)" \
	sh -c '! grep -q "memory-page-ce" "$0" && grep -q "20 records, .* 0 firings" "$0"' "$TMP/out"
# ... while a physical address good to a cache line still counts.
: >"$TMP/i2-good.jsonl"
for h in 0 1 2 3 4 5 6 7 8 9; do
	intel_imc "$h" 0x8c00000000000090 0x0000000012345680 0x0000000000000086 >>"$TMP/i2-good.jsonl"
done
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/i2-good.jsonl"
check "Intel: a physical address with LSB 6 still keys its page" has "memory-page-ce \[page=0x12345\]"

# I3 (b) and M5: EDAC events without an address (address 0) do not all count
# against page 0, while replayed EDAC records with one reach the page rule as
# live ones do.
: >"$TMP/edac.jsonl"
for h in 0 1 2 3 4 5 6 7 8 9; do
	edac "$h" 0 0x0000000012345000 >>"$TMP/edac.jsonl"
	edac "$h" 1 0x0000000000000000 >>"$TMP/edac.jsonl"
done
replay "$TMP/edac.jsonl"
check "replayed EDAC records count on their page (M5)" \
	sh -c 'grep -q "\"rule\":\"memory-page-ce\",\"key\":\"page=0x12345\"" "$0"' "$TMP/out"
check "EDAC address 0 is no page (I3)" sh -c '! grep -q "page=0x0\"" "$0"' "$TMP/out"
check "... and the replay says what it would have offlined" err_has "would soft-offline page 0x12345"

# I3 (a): one DRAM error arrives as the machine check and its EDAC copy; the
# page rule counts it once.  Five real errors on Intel: no firing; ten: one.
intel_pair() { # HOUR
	intel_imc "$1" 0x8c00000000000090 0x0000000012345680 0x0000000000000086
	edac "$1" 0 0x0000000012345680
}
: >"$TMP/pair5.jsonl"
for h in 0 1 2 3 4; do intel_pair "$h" >>"$TMP/pair5.jsonl"; done
replay "$TMP/pair5.jsonl" --log-level debug
check "an MCE and its EDAC copy count once: five errors do not fire (I3)" alerts 0
check "each EDAC event paired with its machine check" \
	sh -c '[ "$(grep -c "its EDAC copy, counted once" "$0")" -eq 5 ]' "$TMP/err"
: >"$TMP/pair10.jsonl"
for h in 0 1 2 3 4 5 6 7 8 9; do intel_pair "$h" >>"$TMP/pair10.jsonl"; done
replay "$TMP/pair10.jsonl"
check "... and ten errors fire once, on their page" \
	sh -c '[ "$(grep -c "\"rule\":\"memory-page-ce\",\"key\":\"page=0x12345\"" "$0")" -eq 1 ]' "$TMP/out"

# AMD: the page comes from the EDAC copy, which carries the translated address.
: >"$TMP/amd-pair.jsonl"
for i in 0 1 2 3 4 5 6 7 8 9; do
	amd_umc "$i" >>"$TMP/amd-pair.jsonl"
	edac 10 "$i" 0x0000000071234fc0 >>"$TMP/amd-pair.jsonl"
done
replay "$TMP/amd-pair.jsonl"
check "AMD: the EDAC copy's translated page fires, never the normalized one" \
	sh -c 'grep -q "\"key\":\"page=0x71234\"" "$0" && ! grep -q "page=0x3bd2c8" "$0"' "$TMP/out"

# M5 / item 8: `mcectl rules --test` reads the EDAC lines and counts as the daemon does.
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/edac.jsonl"
check "rules --test counts replayed EDAC lines on their page, never page 0 (M5)" \
	sh -c 'grep -q "memory-page-ce \[page=0x12345\]" "$0" && ! grep -q "page=0x0\]" "$0" &&
	       grep -q "^20 records" "$0"' "$TMP/out"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/pair5.jsonl"
check "rules --test: an MCE and its EDAC copy count once, as live" has "^10 records, .* 0 firings"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/amd-pair.jsonl"
check "rules --test: the AMD page from the EDAC copy" \
	sh -c 'grep -q "memory-page-ce \[page=0x71234\]" "$0" && ! grep -q "page=0x3bd2c8" "$0"' "$TMP/out"
printf '%s\n' '{"event":"memory_controller","severity":"sometimes"}' >"$TMP/bad.jsonl"
run 1 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/bad.jsonl"
check "rules --test names a bad EDAC line with its line and key" err_has "bad.jsonl:1: key \"severity\""

# I1: offlined pages across reboots.  The kernel forgets offlined pages at a
# reboot; the state keeps each page's boot, and a start in a new boot offlines
# the known-bad pages again.  Stand-ins: --sysfs-memory for the kernel's
# offline files, --procfs for vm.enable_soft_offline, --boot-id for the boot.
BOOT1=11111111111111111111111111111111
BOOT2=22222222222222222222222222222222
BOOT3=33333333333333333333333333333333
BOOT4=44444444444444444444444444444444
mkdir -p "$TMP/sys" "$TMP/state" "$TMP/proc/sys/vm"
: >"$TMP/sys/soft_offline_page"
: >"$TMP/sys/hard_offline_page"
: >"$TMP/none.jsonl"
printf '[Memory]\nOfflineAgainAtBoot=no\n' >"$TMP/again-no.conf"
boot() { # BOOT_ID INPUT [OPTIONS]: a run of the daemon in that boot, the stand-in emptied first
	b=$1; f=$2; shift 2
	: >"$TMP/sys/soft_offline_page"
	replay "$f" -c /dev/null --state-directory "$TMP/state" --sysfs-memory "$TMP/sys" --boot-id "$b" \
		--log-level info "$@"
}
offlined() { [ "$(cat "$TMP/sys/soft_offline_page")" = "$1" ]; }
boot "$BOOT1" "$TMP/i2-good.jsonl"
check "boot 1: ten errors soft-offline the page" offlined 0x12345000
boot "$BOOT2" "$TMP/none.jsonl"
check "boot 2: the known-bad page is offlined again at start (I1)" \
	sh -c '[ "$(cat "$0")" = 0x12345000 ] && grep -q "offlined in an earlier boot, soft-offline again: done" "$1"' \
	"$TMP/sys/soft_offline_page" "$TMP/err"
boot "$BOOT2" "$TMP/none.jsonl"
check "... and not twice in one boot" offlined ""
boot "$BOOT3" "$TMP/none.jsonl" -c "$TMP/again-no.conf"
check "OfflineAgainAtBoot=no leaves it to the rules" \
	sh -c '[ ! -s "$0" ] && grep -q "not again at start (OfflineAgainAtBoot=no)" "$1"' \
	"$TMP/sys/soft_offline_page" "$TMP/err"
boot "$BOOT3" "$TMP/i2-good.jsonl" -c "$TMP/again-no.conf"
check "... whose firing in a new boot offlines it again, not 'already'" offlined 0x12345000
echo 0 >"$TMP/proc/sys/vm/enable_soft_offline"
boot "$BOOT4" "$TMP/none.jsonl" --procfs "$TMP/proc"
check "vm.enable_soft_offline=0: nothing written, an alert names the sysctl" \
	sh -c '[ ! -s "$0" ] && grep -q "\"rule\":\"page-offline-again\",\"key\":\"page=0x12345\"" "$1" &&
	       grep -q "vm.enable_soft_offline=0" "$1"' "$TMP/sys/soft_offline_page" "$TMP/out"

# Issue 36 / review of e24200c C1: a page first hard-offlined is never
# hard-offlined again at a later start (hard_offline_page runs
# memory_failure(), which panics the kernel under
# vm.memory_failure_recovery=0): at start every page is soft-offlined.
BOOT5=55555555555555555555555555555555
BOOT6=66666666666666666666666666666666
MACHINE=0123456789abcdef0123456789abcdef
OTHER_MACHINE=fedcba9876543210fedcba9876543210
mkdir -p "$TMP/c1/state" "$TMP/c1/rules" "$TMP/c1/proc/sys/vm"
printf '[Rule]\nName=hard-page\nMatch=bank=13\nKey=page\nThreshold=1 in 1h\nAction=alert hard-offline\n' \
	>"$TMP/c1/rules/50-hard.rules"
echo 0 >"$TMP/c1/proc/sys/vm/memory_failure_recovery"
c1() { # BOOT_ID INPUT [OPTIONS]: a run with the admin's hard-offline rule, the stand-ins emptied first
	b=$1; f=$2; shift 2
	: >"$TMP/sys/soft_offline_page"
	: >"$TMP/sys/hard_offline_page"
	run 0 "$MCELOGD" --replay "$f" --no-journal --output json --rules-directory "$TMP/c1/rules" -c /dev/null \
		--state-directory "$TMP/c1/state" --sysfs-memory "$TMP/sys" --boot-id "$b" --machine-id "$MACHINE" \
		--procfs "$TMP/c1/proc" --log-level info "$@"
}
written() { [ "$(cat "$TMP/sys/$1_offline_page")" = "$2" ]; }
intel_imc 1 0x8c00000000000090 0x0000000023456780 0x0000000000000086 >"$TMP/c1/ce.jsonl"
intel_imc 1 0xbc00000000000090 0x0000000034567880 0x0000000000000086 >"$TMP/c1/uc.jsonl"
c1 "$BOOT5" "$TMP/c1/ce.jsonl"
check "hard-offline on a corrected error: soft-offlined instead, never hard" \
	sh -c '[ ! -s "$0" ] && [ "$(cat "$1")" = 0x23456000 ]' "$TMP/sys/hard_offline_page" "$TMP/sys/soft_offline_page"
check "... and an alert says why, naming vm.memory_failure_recovery=0" \
	sh -c 'grep "\"failed_action\":\"hard-offline\"" "$0" | grep -q "only for an uncorrected error.*vm.memory_failure_recovery=0"' \
	"$TMP/out"
c1 "$BOOT5" "$TMP/c1/uc.jsonl"
check "an uncorrected error under vm.memory_failure_recovery=0: nothing written" \
	sh -c '[ ! -s "$0" ] && [ ! -s "$1" ]' "$TMP/sys/hard_offline_page" "$TMP/sys/soft_offline_page"
check "... the alert names the sysctl and the panic it would cause" \
	sh -c 'grep "\"failed_action\":\"hard-offline\"" "$0" | grep -q "vm.memory_failure_recovery=0, so the kernel would panic"' "$TMP/out"
echo 1 >"$TMP/c1/proc/sys/vm/memory_failure_recovery"
c1 "$BOOT5" "$TMP/c1/uc.jsonl"
check "an uncorrected error of this boot with recovery on: hard-offlined" written hard 0x34567000
check "... its page in the state, hard, with this machine, its memory and its record" \
	grep -q "^page	0x34567	hard	[0-9]*	ok	$BOOT5	$MACHINE	mc=.*	rule=hard-page;severity=uncorrected;" "$TMP/c1/state/rules.state"
echo 0 >"$TMP/c1/proc/sys/vm/memory_failure_recovery"
c1 "$BOOT6" "$TMP/none.jsonl"
check "a later start under vm.memory_failure_recovery=0: hard_offline_page never written" \
	sh -c '[ ! -s "$0" ]' "$TMP/sys/hard_offline_page"
check "... every known-bad page soft-offlined again, the hard one too" \
	sh -c 'grep -qx 0x34567000 "$0" && grep -q "Page 0x34567, offlined in an earlier boot, soft-offline again: done (it was hard-offlined then" "$1"' \
	"$TMP/sys/soft_offline_page" "$TMP/err"
# The intent is saved before the write: a crash between the two (here: the
# daemon killed while its write blocks on a FIFO) leaves "pending" in the
# state, and a restart in the same boot does not write again.
BOOT7=77777777777777777777777777777777
# crash_in_write INPUT FILE PATTERN: a run in boot 7 whose soft_offline_page
# write blocks (a FIFO), killed once FILE holds PATTERN.
crash_in_write() {
	rm -f "$TMP/sys/soft_offline_page" && mkfifo "$TMP/sys/soft_offline_page"
	"$MCELOGD" --replay "$1" --no-journal --output json --rules-directory "$TMP/c1/rules" -c /dev/null \
		--state-directory "$TMP/c1/state" --sysfs-memory "$TMP/sys" --boot-id "$BOOT7" --machine-id "$MACHINE" \
		--procfs "$TMP/c1/proc" >/dev/null 2>&1 &
	crashed=$!
	for i in $(seq 100); do grep -qs "$3" "$2" && break; sleep 0.1; done
	kill -9 "$crashed"; wait "$crashed" 2>/dev/null
	rm -f "$TMP/sys/soft_offline_page"
}
crash_in_write "$TMP/none.jsonl" "$TMP/c1/state/rules.state" "	pending	$BOOT7	"
check "the intent is in the state before the write (daemon killed during it)" \
	grep -q "^page	0x34567	soft	[0-9]*	pending	$BOOT7	" "$TMP/c1/state/rules.state"
c1 "$BOOT7" "$TMP/none.jsonl"
check "a pending intent of this boot: not written again after the restart" \
	sh -c '[ ! -s "$0" ] && [ ! -s "$1" ] && grep -q "Page 0x34567: an offlining of this boot was interrupted" "$2"' \
	"$TMP/sys/hard_offline_page" "$TMP/sys/soft_offline_page" "$TMP/err"
# Review I7: a live firing's intent goes to the journal beside the state
# (synced) instead of a rewrite of the whole state; killed during the write,
# the restart of the same boot takes it from there and does not write again.
intel_imc 2 0x8c00000000000090 0x0000000045678900 0x0000000000000086 >"$TMP/c1/ce2.jsonl"
crash_in_write "$TMP/c1/ce2.jsonl" "$TMP/c1/state/rules.state.journal" "^page	0x45678	"
check "a firing's intent is appended to the journal, not written into the whole state" \
	sh -c 'grep -q "^page	0x45678	soft	[0-9]*	pending	$2	" "$0" && ! grep -q "^page	0x45678	" "$1"' \
	"$TMP/c1/state/rules.state.journal" "$TMP/c1/state/rules.state" "$BOOT7"
c1 "$BOOT7" "$TMP/c1/ce2.jsonl"
check "... the restart takes it in and does not write again; the journal is emptied into the state" \
	sh -c '[ ! -s "$0" ] && grep -q "page 0x45678 was soft-offlined (its outcome unknown" "$1" &&
	       [ ! -e "$2" ] && grep -q "^page	0x45678	soft	[0-9]*	pending	" "$3"' \
	"$TMP/sys/soft_offline_page" "$TMP/err" "$TMP/c1/state/rules.state.journal" "$TMP/c1/state/rules.state"
# Review I8: a page is bound to the memory it was on.  A state copied to
# another machine, or a page no memory block holds in this boot, is not
# offlined: said once, kept, and marked held.
c1 "$BOOT5" "$TMP/none.jsonl" --machine-id "$OTHER_MACHINE"
check "a state from another machine: nothing offlined at start" \
	sh -c '[ ! -s "$0" ] && [ ! -s "$1" ]' "$TMP/sys/hard_offline_page" "$TMP/sys/soft_offline_page"
check "... the log says why, naming both machines" \
	grep -q "not offlined again: it was recorded on machine $MACHINE, this is $OTHER_MACHINE" "$TMP/err"
check "... and the pages are kept, held" grep -q "^page	0x34567	.*	held	" "$TMP/c1/state/rules.state"
printf '0x8000000\n' >"$TMP/sys/block_size_bytes"
mkdir -p "$TMP/sys/memory4"
c1 "$BOOT6" "$TMP/none.jsonl"
check "a page no memory block holds in this boot is not offlined, the other one is" \
	sh -c '[ "$(cat "$0")" = 0x23456000 ] && grep -q "^page	0x34567	.*	held	" "$1"' \
	"$TMP/sys/soft_offline_page" "$TMP/c1/state/rules.state"
check "... a page held before is not logged again" sh -c '! grep -q "Page 0x34567 is known bad" "$0"' "$TMP/err"
rm -rf "$TMP/sys/memory4" "$TMP/sys/block_size_bytes"
# mcectl pages: each known-bad page with its machine, memory and origin.
run 0 "$MCECTL" pages --state "$TMP/c1/state/rules.state" --output json
check "mcectl pages --output json: the held page with its memory and the record that made it bad" \
	sh -c 'jq -e ".pages[] | select(.pfn == \"0x34567\") | .status == \"held\" and .machine_id == \"$1\" and
		(.memory | test(\"^mc=\")) and (.origin | test(\"rule=hard-page;severity=uncorrected\"))" "$0" >/dev/null' \
	"$TMP/out" "$MACHINE"
run 0 "$MCECTL" pages --state "$TMP/c1/state/rules.state"
check "mcectl pages: a table line per page, its status" grep -Eq "^  0x34567 +soft +held " "$TMP/out"
run 2 "$MCECTL" pages --forget 12345
check "mcectl pages --forget takes only a page frame in hex" err_has "expected a page frame number in hex"

# A damaged state file (here cut short: its end line lost) still remembers the
# pages: kept, salvaged, never offlined on the word of a file that cannot be
# trusted, and listed for an operator.  It used to be set aside whole, the
# pages forgotten.
BOOT8=88888888888888888888888888888888
BOOT9=99999999999999999999999999999999
sed -i '$d' "$TMP/c1/state/rules.state"
pages_before=$(grep -c '^page	' "$TMP/c1/state/rules.state")
c1 "$BOOT8" "$TMP/none.jsonl"
check "a damaged state: the file is set aside and nothing is offlined at start" \
	sh -c '[ ! -s "$0" ] && [ ! -s "$1" ] && [ -s "$2" ] && grep -q "no end line: the file is truncated; set aside" "$3"' \
	"$TMP/sys/hard_offline_page" "$TMP/sys/soft_offline_page" "$TMP/c1/state/rules.state.damaged" "$TMP/err"
check "... the log says what it kept from it, and why it does not act on it" \
	grep -q "rules.state.damaged: kept $pages_before known-bad pages (not offlined again: a damaged file is not trusted" \
	"$TMP/err"
check "... every page is kept, salvaged" \
	sh -c '[ "$(grep -c "^page	0x[0-9a-f]*	[a-z]*	[0-9]*	salvaged	" "$0")" = "$1" ]' \
	"$TMP/c1/state/rules.state" "$pages_before"
c1 "$BOOT9" "$TMP/none.jsonl"
check "... and at the next start, from the whole file the daemon wrote, still not offlined" \
	sh -c '[ ! -s "$0" ] && [ ! -s "$1" ] && grep -q "^page	0x34567	.*	salvaged	" "$2"' \
	"$TMP/sys/hard_offline_page" "$TMP/sys/soft_offline_page" "$TMP/c1/state/rules.state"
run 0 "$MCECTL" pages --state "$TMP/c1/state/rules.state"
check "mcectl pages shows them salvaged" grep -Eq "^  0x34567 +soft +salvaged " "$TMP/out"

exit $failed
