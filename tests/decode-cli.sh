#!/bin/sh
# mcectl decode end to end: every input form in tests/data/decode/, exit codes, diagnostics.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
MCECTL="$top_builddir/mcectl/mcectl"
DATA="$top_srcdir/tests/data/decode"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

n=0
failed=0
ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}
not_ok() {
	n=$((n + 1))
	failed=1
	echo "not ok $n - $1"
	[ -s "$TMP/err" ] && sed 's/^/# stderr: /' "$TMP/err" | head -5
}
check() {   # check DESCRIPTION COMMAND...: passes when the command succeeds
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
# run EXPECTED_RC ARGS...: mcectl decode with stdout/stderr in $TMP/out, $TMP/err
run() {
	want=$1
	shift
	"$MCECTL" decode "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq "$want" ]
}
has() { grep -q -- "$1" "$TMP/out"; }
err_has() { grep -q -- "$1" "$TMP/err"; }
lines() { [ "$(wc -l <"$TMP/out")" -eq "$1" ]; }

echo "1..131"

# (a) kernel console / dmesg
check "dmesg: exit 0" run 0 --output json "$DATA/kernel-dmesg.txt"
check "dmesg: one record, noise ignored silently" eval 'lines 1 && [ ! -s "$TMP/err" ]'
check "dmesg: registers and identity" eval 'has "\"status\":\"0xbea0000000000108\"" && has "\"ipid\":\"0x0001002e00000000\"" && has "\"ppin\":\"0x00002b5a3f0c9d1e\"" && has "\"vendor\":\"amd\",\"family\":25,\"model\":33"'
check "dmesg: TIME and RIP" eval 'has "\"time\":\"2023-11-14T22:13:20.000000Z\"" && has "\"ip\":\"0xffffffff81a3c1f6\""'
check "syslog/journal prefixes: three records" eval 'run 0 --output json "$DATA/kernel-syslog.txt" && lines 3'
check "syslog: Exception form and !INEXACT! RIP, no warnings" eval '[ ! -s "$TMP/err" ] && has "\"mcgstatus\":\"0x0000000000000005\",\"status\":\"0xb200000000000150\"" && has "\"ip\":\"0x00007f31d6f5a0b2\",\"cs\":51"'

# (b) AMD EDAC
check "EDAC: two records" eval 'run 0 --output json "$DATA/edac-amd.txt" && lines 2'
check "EDAC: family/model from the tuple, bank from MCn_STATUS" eval 'has "\"cpu\":2,\"bank\":5,\"vendor\":\"amd\",\"family\":25,\"model\":33" && has "\"cpu\":17,\"bank\":16,\"vendor\":\"amd\",\"family\":23,\"model\":49"'
check "EDAC: address, IPID, syndrome" eval 'has "\"addr\":\"0x0000000abcd00000\"" && has "\"synd\":\"0x000000005a020001\"" && has "\"ipid\":\"0x0000009600050f00\""'

# (c) mcelog
check "mcelog: three records (new CPU line and blank line end records)" eval 'run 0 --output json "$DATA/mcelog.txt" && lines 3'
check "mcelog: tokens mcelog cuts at are read" eval 'has "\"ppin\":\"0x00002b5a3f0c9d1e\"" && has "\"microcode\":\"0x2b000461\""'
check "mcelog: CPUID Vendor line" eval 'has "\"cpu\":4,\"socket\":0,\"apicid\":8,\"bank\":1,\"vendor\":\"intel\",\"family\":6,\"model\":143,\"stepping\":8"'
check "mcelog decoded output: two records" eval 'run 0 --output json "$DATA/mcelog-decoded.txt" && lines 2 && has "\"status\":\"0xbd80000010100134\""'

# (d) rasdaemon, trace
check "trace_pipe: two records" eval 'run 0 --output json "$DATA/trace.txt" && lines 2 && has "\"mcgcap\":\"0x000000000000011c\""'
check "rasdaemon + ras-mc-ctl: three records" eval 'run 0 --output json "$DATA/rasdaemon.txt" && lines 3'
check "rasdaemon: split AMD line joined" eval 'has "\"cpu\":2,\"socket\":0,\"apicid\":4,\"bank\":17,\"vendor\":\"amd\""'
check "rasdaemon: the mce_record line's bank name is kept" eval 'has "\"text_bank_name\":\"Unified Memory Controller\""'

# the kernel's cxl:* trace lines (real, from the VM rig's 7.3 guest) among machine-check trace lines
check "cxl trace lines: exit 0, seven records in input order" eval 'run 0 --output json "$DATA/cxl-trace.txt" && lines 7 && [ ! -s "$TMP/err" ] && [ "$(sed -n 3p "$TMP/out" | grep -c "\"source\":\"decode\"")" = 1 ]'
check "cxl trace lines: the daemon's keys and values" eval 'has "\"source\":\"cxl:cxl_dram\",\"event\":\"cxl_dram\",\"severity\":\"corrected\"" && has "\"bank_group\":1,\"bank\":3,\"row\":1234,\"column\":56" && has "\"dpa_length\":\"0x100\",\"poison_source\":\"Internal\""'
check "cxl trace lines: no region, said as no_page" eval '[ "$(grep -c "\"no_page\":\"not_in_region\"" "$TMP/out")" = 3 ]'
check "cxl trace lines: in a region (whole trace_pipe lines), the kernel's HPA and region" eval 'has "\"dpa\":\"0x0000000008000040\",.*\"hpa\":\"0x0000000298000040\",\"region\":\"region0\"" && has "\"hpa\":\"0x0000000290000800\",\"region\":\"region0\""'
check "cxl trace lines: text names each record, its source and fields" eval 'run 0 "$DATA/cxl-trace.txt" && has "^Record 2 (line 4): Corrected CXL DRAM error on mem0 at DPA 0x2000: ECC Error" && has "^  source  *cxl:cxl_dram" && has "^  row  *1234" && has "^Record 3 (line 5): corrected"'
printf '  kworker/0:1-9 [000] ..... 1.0: cxl_dram: memdev=mem0 log=Warning : dpa=zz00\n' >"$TMP/badcxl"
check "cxl trace lines: a hex field that is not hex: exit 1, line named" eval 'run 1 "$TMP/badcxl" && err_has "badcxl:1: a cxl trace event that does not read: a hex field does not read as hex"'
# rasdaemon 0.8.3's log lines for the same kind of events (real, from the VM rig's Debian 13 guest)
check "rasdaemon cxl lines: exit 0, six records, the comment lines ignored" eval 'run 0 --output json "$DATA/rasdaemon-cxl.txt" && lines 6 && [ ! -s "$TMP/err" ]'
check "rasdaemon cxl lines: in a region, the kernel's HPA and region" eval 'has "\"dpa\":\"0x0000000008000040\",\"hpa\":\"0x0000000298000040\".*\"region\":\"region0\"" && has "\"region\":\"region0\",\"hpa\":\"0x0000000299000000\",\"dpa\":\"0x0000000009000000\",\"dpa_length\":\"0x200\"" && [ "$(grep -c no_page "$TMP/out")" = 3 ]'
check "rasdaemon cxl lines: the daemon's keys and values" eval 'has "\"source\":\"cxl:cxl_dram\",\"event\":\"cxl_dram\",\"severity\":\"corrected\"" && has "\"nibble_mask\":\"0x21\",\"bank_group\":1,\"bank\":3,\"row\":1234,\"column\":56" && has "\"descriptor\":\"UNCORRECTABLE_EVENT|THRESHOLD_EVENT\"" && has "\"temperature\":-15" && has "\"dpa_length\":\"0x100\",\"poison_source\":\"Internal\""'
check "rasdaemon cxl lines: text names each record" eval 'run 0 "$DATA/rasdaemon-cxl.txt" && has "^Record 1 (line 8): Uncorrected CXL media error on mem0 at DPA 0x1000: TE State Violation" && has "^Record 4 (line 11): CXL poison (list) on mem0 at DPA 0x800, 0x100 bytes"'
printf 'x cxl_dram 2026-11-28 07:02:32 +0000 memdev:mem0 host:h serial:0x0 log type:Warning row:x7\n' >"$TMP/badras"
check "rasdaemon cxl lines: a field that does not read: exit 1, line, event and field named" eval 'run 1 "$TMP/badras" && err_has "badras:1: a rasdaemon cxl event that does not read: cxl_dram: row .x7.: a decimal field does not read as a number"'
# a hostile log's control bytes in a cxl field reach no terminal (review M13)
printf 'x cxl_poison: memdev=m\033[2Jem0 host=h serial=0 trace_type=List dpa=0x800 dpa_length=0x100 source=In\007t\n' >"$TMP/ctlcxl"
check "cxl lines: control bytes in fields shown as '?', in text and JSON" eval 'run 0 "$TMP/ctlcxl" && has "memdev  *m?\[2Jem0" && has "poison_source  *In?t" && ! grep -q "$(printf "\033")" "$TMP/out" && run 0 --output json "$TMP/ctlcxl" && has "\"memdev\":\"m?\[2Jem0\""'
# a cxl event named in passing (no word of its own, no separator, no fields): no cxl record, the machine checks as before
check "cxl mentions: exit 0, the two machine checks only, nothing said" eval 'run 0 --output json "$DATA/cxl-mentions.txt" && lines 2 && [ ! -s "$TMP/err" ] && [ "$(grep -c "\"source\":\"decode\"" "$TMP/out")" = 2 ] && ! has cxl'

# ras-mc-ctl rows name an AMD SMCA bank but carry no IPID (issue 15): the name picks the bank type.
cat >"$TMP/rasmc-amd.txt" <<'ROWS'
70 2026-08-24 00:04:24 +0200 error: Corrected error, no action required., CPU 2, bank Unified Memory Controller (bank=17), mcg mcgstatus=0, mci CECC, mcgcap=0x0000011c, status=0x9c2041000000011b, addr=0x27aad20c0, cpuid=0x00870f10, bank=0x00000011
71 2026-08-24 00:05:00 +0200 error: Corrected error, no action required., CPU 2, bank Power, Interrupts, etc. (bank=25), mcg mcgstatus=0, status=0x9000000000010000, cpuid=0x00a10f11, bank=0x00000019
72 2026-08-24 00:06:00 +0200 error: Corrected error, no action required., CPU 2, bank Memory Controller 9 (bank=17), mcg mcgstatus=0, status=0x9c2041000000011b, cpuid=0x00870f10, bank=0x00000011
73 2026-08-24 00:07:00 +0200 error: Corrected error, no action required., CPU 2, bank Unified Memory Controller Unified Memory Controller Unified (bank=17), status=0x9c2041000000011b, cpuid=0x00870f10, bank=0x00000011
ROWS
check "ras-mc-ctl AMD rows: four records" eval 'run 0 --output json "$TMP/rasmc-amd.txt" && lines 4 && cp "$TMP/out" "$TMP/rasmc-amd.json"'
check "ras-mc-ctl AMD rows: UMC by its name, with the code's meaning, said to come from the name" \
	eval 'sed -n 1p "$TMP/rasmc-amd.json" | grep -q "\"text_bank_name\":\"Unified Memory Controller\".*\"bank_name\":\"Unified Memory Controller\",\"bank_type\":\"UMC\",\"description\":\"DRAM ECC error\".*\"bank_type_from\":\"text_bank_name\""'
check "ras-mc-ctl AMD rows as text: the bank line says the type came from the name, no internal field shown" \
	eval 'run 0 "$TMP/rasmc-amd.txt" && has "(Unified Memory Controller, UMC, known from the bank.s name: the record has no MCA_IPID)" && ! has bank_type_from'
check "ras-mc-ctl AMD rows as text: a detail's meaning first, its raw value after" \
	eval 'run 0 "$TMP/rasmc-amd.txt" && has "Detail:   mnemonic = DramEccErr (0x0)$"'
check "ras-mc-ctl AMD rows: a name with commas (PIE)" \
	eval 'sed -n 2p "$TMP/rasmc-amd.json" | grep -q "\"text_bank_name\":\"Power, Interrupts, etc.\".*\"bank_type\":\"PIE\""'
check "ras-mc-ctl AMD rows: a name no bank has decodes as before" \
	eval 'sed -n 3p "$TMP/rasmc-amd.json" | grep -q "\"text_bank_name\":\"Memory Controller 9\".*\"bank_type\":\"unknown\"" && ! sed -n 3p "$TMP/rasmc-amd.json" | grep -q bank_type_from'
check "ras-mc-ctl AMD rows: a name too long for any bank is not kept" \
	eval '! sed -n 4p "$TMP/rasmc-amd.json" | grep -q "text_bank_name\|bank_type_from"'
check "ras-mc-ctl AMD rows: our JSON decodes to the same again" \
	eval 'run 0 --output json "$TMP/rasmc-amd.json" && cmp -s "$TMP/out" "$TMP/rasmc-amd.json"'
# ras-mc-ctl --errors whole, as the ArchWiki shows it (indented): its "No ... errors." lines are its own.
check "ras-mc-ctl --errors with its empty-table lines, indented: one record, no complaint" \
	eval 'printf " # ras-mc-ctl --errors\n No Memory errors.\n No devlink errors.\n No Memory failure errors.\n MCE events:\n%s\n" "$(sed -n 1p "$TMP/rasmc-amd.txt")" >"$TMP/rasmc-whole" && run 0 --output json "$TMP/rasmc-whole" && lines 1 && [ ! -s "$TMP/err" ]'
check "malformed empty-table line (text after its full stop): named" \
	eval 'printf "No Memory errors. zz\nMCE events:\n%s\n" "$(sed -n 1p "$TMP/rasmc-amd.txt")" >"$TMP/rasmc-bad" && run 1 --output json "$TMP/rasmc-bad" && lines 1 && err_has "rasmc-bad:1: not a machine-check record line: .No Memory errors. zz."'
check "ras-mc-ctl --summary (rasdaemon#121's): its lines are its own, no record in it" \
	eval 'printf "No Memory errors.\n\nNo devlink errors.\nNo disk errors.\nMCE records summary:\n\t1 Corrected error, no action required. errors\n1x Corrected error errors\n" >"$TMP/rasmc-sum" && run 1 --output json "$TMP/rasmc-sum" && lines 0 && err_has "rasmc-sum:7: not a machine-check record line: .1x Corrected" && ! err_has "rasmc-sum:[1-6]:"'
check "mcelog's output copied from 'CPU n BANK b' on (ubuntuforums, 2012): its decoded text passed over, one record" \
	eval 'printf "CPU 0 BANK 0 \nTIME 1332110101 Sun Mar 18 23:35:01 2012\nMCG status:\nMCi status:\nUncorrected error\nProcessor context corrupt\nMCA: Internal Timer error\nSTATUS a200000084010400 MCGSTATUS 0\nMCGCAP c0204 APICID 0 SOCKETID 0 \nCPUID Vendor Intel Family 15 Model 3\n" >"$TMP/nobanner" && run 0 --output json "$TMP/nobanner" && lines 1 && [ ! -s "$TMP/err" ]'
check "malformed head of mcelog's decoded text ('MCx status:') after 'CPU n BANK b': named, not taken for mcelog's" \
	eval 'printf "CPU 0 BANK 0\nMCx status:\nUncorrected error\nSTATUS a200000084010400 MCGSTATUS 0\n" >"$TMP/nobanner-bad" && run 1 --output json "$TMP/nobanner-bad" && lines 1 && err_has "nobanner-bad:2: not a machine-check record line: .MCx status:." && err_has "nobanner-bad:3: not a machine-check record line"'

# (d2) real published records of the Intel EDAC, old kernel and old mcelog forms
check "Diamond Rapids imh_edac (built from the kernel's formats): both records, the south hub's controller 11 and channel 11 from bank 22 and APIC ID bit 2, no warnings" eval 'run 0 --output json "$DATA/edac-imh.txt" && lines 2 && [ ! -s "$TMP/err" ] && has "\"dimm_socket\":1,\"dimm_mc\":11,\"dimm_channel\":0,\"dimm_slot\":0,\"dimm_rank\":1,.*\"cpu_model\":\"Diamond Rapids\",\"bank_name\":\"Memory Controller Channel\",\"bank_type\":\"MCCHAN\",.*\"channel\":11," && has "\"imh\":1"'
check "imh_edac, 2-level memory, near-memory error (MCACOD 0280H): the Nm* controller, slot and rank, not the far memory's" eval 'sed -n 2p "$TMP/out" | grep -q "\"dimm_socket\":0,\"dimm_mc\":10,\"dimm_channel\":0,\"dimm_slot\":1,\"dimm_rank\":1,"'
check "Diamond Rapids registers: --apicid names the hub, so the channel (bank 20, APIC ID bit 2: channel 9)" eval 'run 0 --cpu-id intel:19:1 --bank 20 --status 0x8c00004000800090 --apicid 0x4 && has "channel 9" && has "imh = 0x1"'
check "Zhaoxin KH-50000 registers, either vendor name: bank, code and Zhaoxin's channel name" eval 'run 0 --cpu-id zhaoxin:7:0x7b --bank 12 --status 0x8c00000000010093 && has "Zhaoxin KH-50000" && has "Single-bit ECC error" && has "channel_name = B1" && run 0 --cpu-id centaur:7:0x7b --bank 12 --status 0x8c00000000010093 && has "Zhaoxin KH-50000"'
check "ras:non_standard_event trace line, JaguarMicro CMN section (built from its layout): decoded as the daemon would log it" eval 'run 0 --output json "$DATA/vendor-section.txt" && lines 1 && [ ! -s "$TMP/err" ] && has "\"source\":\"ras:non_standard_event\",\"event\":\"vendor_section\",\"severity\":\"corrected\"" && has "\"section_type\":\"dac80d69-0a72-4eba-8114-148ee344af06\"" && has "\"vendor\":\"JaguarMicro\",\"payload_type\":\"CMN\",.*\"subsystem\":\"CMN\",\"module\":\"HNF\",.*\"device_kind\":\"NID\",\"device_id\":7" && has "\"reg01\":\"0xc0ffee\""'
check "non_standard_event line whose raw data is not as long as it says: rejected, named" eval 'sed "s/data len:140/data len:141/" "$DATA/vendor-section.txt" >"$TMP/vs-bad" && run 1 "$TMP/vs-bad" && err_has "vs-bad:4: a non_standard_event that does not read: raw data: not as many bytes"'
check "--apicid must be hexadecimal" eval 'run 2 --cpu-id intel:19:1 --status 0x8c00004000800090 --apicid zz && err_has "expected a hexadecimal APIC ID"'
check "Intel EDAC: two records, no warnings" eval 'run 0 --output json "$DATA/edac-intel.txt" && lines 2 && [ ! -s "$TMP/err" ]'
check "Intel EDAC: registers and the DIMM (socket, ha, channel, slot, rank)" eval 'has "\"cpu\":0,\"socket\":0,\"apicid\":0,\"bank\":5" && has "\"status\":\"0x8c00004000010092\",\"addr\":\"0x0000000849923380\"" && has "\"dimm_socket\":0,\"dimm_mc\":0,\"dimm_channel\":2,\"dimm_slot\":0,\"dimm_rank\":0"'
check "Intel EDAC: syslog prefix without host, socket 1" eval 'has "\"cpu\":1,\"socket\":1,\"apicid\":32,\"bank\":11" && has "\"dimm_socket\":1,\"dimm_mc\":0,\"dimm_channel\":0,\"dimm_slot\":0,\"dimm_rank\":0"'
check "old panic forms: three records" eval 'run 0 --output json "$DATA/panic-old.txt" && lines 3'
check "old panic forms: head CPU/MCGSTATUS joined to its bank line, ADDR after at" eval 'has "\"cpu\":0,\"bank\":4,\"mcgstatus\":\"0x0000000000000004\",\"status\":\"0xb604a00100000813\",\"addr\":\"0x000000007e4f2f68\"" && has "\"cpu\":0,\"bank\":3,\"status\":\"0xf20000000002010a\""'
check "older mcelog: bank named in the header, cpu and bank kept" eval 'run 0 --output json "$DATA/mcelog-old.txt" && lines 2 && has "\"cpu\":1,\"bank\":4,\"mcgstatus\":\"0x0000000000000000\",\"status\":\"0x9471c00000000a13\",\"addr\":\"0x0000000046a9f888\"" && ! err_has "not a machine-check record line"'
check "older AMD EDAC: three records, family 10h address from MC4_ADDR" eval 'run 0 --output json "$DATA/edac-amd-old.txt" && lines 3 && has "\"cpu\":18,\"bank\":4,\"vendor\":\"amd\",\"family\":16,\"model\":9,\"stepping\":1,\"status\":\"0xdc5c410004080a13\",\"addr\":\"0x0000001891a88210\""'
check "older AMD EDAC: wall messages and damaged tags are no garbage" eval '! err_has "not a machine-check record line" && ! err_has "no STATUS"'
check "damaged AMD EDAC copy: registers read through the eaten tag and flags" eval 'has "\"cpu\":2,\"bank\":5,\"vendor\":\"amd\",\"family\":25,\"model\":33,\"stepping\":0,\"status\":\"0x9c2040000000011b\",\"addr\":\"0x0000000abcd00000\",\"synd\":\"0x000000005a020001\",\"ipid\":\"0x0000009600050f00\""'
check "AMD status line without CPU identity: AMD, bank and address kept, said" eval 'has "\"bank\":4,\"vendor\":\"amd\",\"status\":\"0x9c00400000000813\",\"addr\":\"0x000000003a3e1b80\"" && err_has "edac-amd-old.txt:32: warning: .*no CPU family/model"'
check "ras-mc-ctl rows: three records, no warnings" eval 'run 0 --output json "$DATA/ras-mc-ctl.txt" && lines 3 && [ ! -s "$TMP/err" ]'
check "ras-mc-ctl: a row over eight lines is one record" eval 'has "\"time\":\"2023-05-31T14:06:19.000000Z\",\"source\":\"decode\",\"cpu\":32,\"socket\":1,\"apicid\":128,\"bank\":13,\"vendor\":\"intel\",\"family\":6,\"model\":106" && has "\"status\":\"0x8c00004200800090\",\"addr\":\"0x000001efa4c7cc40\""'
printf '1 2024-12-19 03:52:38 +0000 error: Corrected error, status=0x9c2040000000011b\n3 2024-13-19 03:52:38 +0000 error: Corrected error, status=0x9c2040000000011b, bank=0x00000011\n' >"$TMP/rasrow"
check "ras-mc-ctl: the row's local time when walltime is absent; a bad one named" eval 'run 1 --output json "$TMP/rasrow" && has "\"time\":\"2024-12-19T03:52:38.000000Z\"" && err_has "rasrow:2: ras-mc-ctl row: expected .ID YYYY-MM-DD"'
printf '[ 5.1] EDAC MC0: 1 CE memory read error on CPU_SrcID#0_MC#0_Chan#0_DIMM#0 (channel:0 slot:0 page:0xe16677 offset:0x0 grain:32 syndrome:0x0 - err_code:0x0000:0x009f socket:0 imc:0 rank:0)\n' >"$TMP/skxonly"
check "an EDAC DIMM line without registers: said with its line, exit 1" eval 'run 1 --output json "$TMP/skxonly" && lines 0 && err_has "skxonly:1: warning: EDAC memory error without the machine-check registers"'
# journal lines pasted without date and host, as in abrt/abrt#1281
printf 'mcelog[808]: Hardware event. This is not a software error.\nmcelog[808]: MCE 0\nmcelog[808]: CPU 0 BANK 0 TSC 41861d002b71\nmcelog[808]: Corrected error\nmcelog[808]: STATUS 90000040000f0005 MCGSTATUS 0\nsystemd[1]: Started foo.\n' >"$TMP/identpid"
check "ident[pid]: lines without a date: read, the other log line ignored" eval 'run 0 --output json "$TMP/identpid" && lines 1 && has "\"cpu\":0,\"bank\":0,\"mcgstatus\":\"0x0000000000000000\",\"status\":\"0x90000040000f0005\"" && ! err_has "not a machine-check record line"'
check "malformed old/EDAC forms: exit 1, the good record kept" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1'
check "malformed old/EDAC forms: each line named" eval 'err_has "bad-forms.txt:2: MCGSTATUS: .zz04." && err_has "bad-forms.txt:3: ADDR: .7e4f2g68." && err_has "bad-forms.txt:4: not a machine-check record line" && err_has "bad-forms.txt:5: Bank 3: expected STATUS.MISC." && err_has "bad-forms.txt:7: socket: .0x." && err_has "bad-forms.txt:8: MC5_STATUS: expected .]." && err_has "bad-forms.txt:9: MCn_ADDR: .0xzz."'
check "malformed hand-typed forms ('CPU3:', 'Bank0:', '<Bank', a wrapped poller head): each line named, none a record" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:10: STATUS: .b4zz00000000083b." && err_has "bad-forms.txt:11: MCGSTATUS: .00zz." && err_has "bad-forms.txt:12: STATUS: .f6062000000zz833." && err_has "bad-forms.txt:13: STATUS: .b2000000104008zz." && err_has "bad-forms.txt:14: Bank0: expected STATUS as 16 hex digits" && err_has "bad-forms.txt:16: CPU: .0x\.. is not a decimal number"'
check "malformed wrapped lines (STATUS or PROCESSOR cut at 80 columns, a mailed AMD CPU line): each named, none a record" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:18: STATUS: .4011zz." && err_has "bad-forms.txt:17: warning: record (lines 17-19) has no STATUS register" && err_has "bad-forms.txt:20: microcode: .zz." && err_has "bad-forms.txt:22: STATUS: .0xbc0028zz000c0135." && err_has "bad-forms.txt:23: expected .MCn_STATUS. after the CPU identity" && err_has "bad-forms.txt:24: not a machine-check record line"'
check "malformed syslog line with a host but no date ('host mcelog[pid]:'): the bad STATUS named, no record" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:26: STATUS: .9c00004001010zz0. is not a hexadecimal number" && ! err_has "bad-forms.txt:25: not a machine-check record line"'
check "malformed EDAC driver line with the next line's prefix inside it: the bad MISC named, no record" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:27: MISC: .1447zz. is not a hexadecimal number" && ! err_has "unknown key .EDAC."'
check "mcelog's output flattened into one line with a bad STATUS: no record, the line named" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:28: warning: record (lines 28-28) has no STATUS register" && ! err_has "bad-forms.txt:28: not a machine-check record line"'
# The real flattened record of published-real (blog.dhampir.no), twice on one line, the second
# for another CPU and bank; then with the banners' full stops lost.  A fuzzed line of banners
# inside banners once recursed until the stack ran out (fuzz-record-text/crash-flattened-recursion).
flat='Hardware event. This is not a software error. MCE 0 CPU 0 BANK 11 MISC 90840080008228c ADDR 9ce494000 TIME 1499161840 Tue Jul 4 09:50:40 2017 MCG status: MCi status: Corrected error MCA: MEMORY CONTROLLER MS_CHANNEL2_ERR Transaction: Memory scrubbing error STATUS 8c000051000800c2 MCGSTATUS 0 MCGCAP 7000c16 APICID 0 SOCKETID 0 CPUID Vendor Intel Family 6 Model 79'
check "two flattened mcelog records on one line: two records, each its own CPU and bank" eval 'printf "mcelog: x %s %s\n" "$flat" "$(printf %s "$flat" | sed "s/CPU 0 BANK 11/CPU 3 BANK 7/")" >"$TMP/flat2" && run 0 --output json "$TMP/flat2" && lines 2 && has "\"cpu\":0,.*\"bank\":11," && has "\"cpu\":3,.*\"bank\":7,"'
check "... and with the banners' full stops lost: still two records" eval 'sed "s/software error\./software error/g" "$TMP/flat2" >"$TMP/flat3" && run 0 --output json "$TMP/flat3" && lines 2'
check "sb_edac DIMM lines printed after all the records (a real paste): one naming another address is not joined to the record before it" eval 'run 1 --output json "$DATA/edac-intel-batched.txt" && lines 1 && has "\"addr\":\"0x000002007dfaa100\"" && ! has "dimm_channel" && err_has "edac-intel-batched.txt:9: warning: EDAC DIMM line names another address than the record before it (ADDR 0x2007dfaa100)"'
# Old sb_edac (3.x kernels, RHEL 6): the DIMM in the EDAC core's "CE row" layout, after the kernel's lines.
check "old sb_edac DIMM line after all the records (a real paste): joined to the held record it names, records in input order, no warnings" eval 'run 0 --output json "$DATA/edac-intel-old.txt" && lines 2 && [ ! -s "$TMP/err" ] && sed -n 1p "$TMP/out" | grep -q "\"bank\":5,.*\"addr\":\"0x00000002f66e53c0\",.*\"dimm_socket\":0,\"dimm_channel\":3,\"dimm_slot\":0,\"dimm_rank\":0" && sed -n 2p "$TMP/out" | grep "\"bank\":11," | grep -qv "dimm_"'
check "old sb_edac DIMM line right after its record: joined; with another Err=MSCOD:MCACOD: said, not joined" eval 'sed -n "4,6p;10p" "$DATA/edac-intel-old.txt" >"$TMP/old1" && run 0 --output json "$TMP/old1" && lines 1 && has "\"dimm_socket\":0,\"dimm_channel\":3,\"dimm_slot\":0,\"dimm_rank\":0" && sed "s/Err=0001:0093/Err=0008:0093/" "$TMP/old1" >"$TMP/old2" && run 1 --output json "$TMP/old2" && lines 1 && ! has "dimm_channel" && err_has "old2:4: warning: EDAC DIMM line names another error than the record before it (STATUS 0x8c00004000010093)"'
check "malformed old sb_edac DIMM lines (bad addr, bad Channel, unclosed label): each named, no record" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:37: addr: .2f66ezz3c0. is not a hexadecimal number" && err_has "bad-forms.txt:38: Channel: .x3. is not a decimal number" && err_has "bad-forms.txt:39: EDAC DIMM line: expected .label"'
check "malformed EDAC DIMM line with a bad page: named, no record" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:30: page: .0x8499zz. is not a hexadecimal number"'
check "malformed AMD register line cut after 'Syndrome:' with a bad value on the next line: named, no record" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:33: Syndrome: .0x4d0000zz. is not a hexadecimal number" && ! err_has "bad-forms.txt:32: Syndrome: value missing"'
check "malformed console-server line ('YYYY-MM-DD HH:MM:SS' and a dmesg stamp): the bad STATUS named, not the stamp" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:34: STATUS: .88000040000zz0cf. is not a hexadecimal number" && ! err_has "bad-forms.txt:34: not a machine-check record line"'
check "malformed mcelog CPUID line in its decoded output, inside a Markdown code block: named, not lost; the fences no garbage" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:42: CPUID: .5.8. is not a decimal number" && ! err_has "bad-forms.txt:4[03]: not a machine-check record line"'
check "malformed amd64_edac DIMM line inside an AMD decoder record: the bad channel named, no record" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:45: channel: .z. is not a decimal number" && ! err_has "bad-forms.txt:45: warning: EDAC memory error without"'
check "malformed rest of a mailed AMD 'cache level:' line cut after a comma: named, the record before it ended" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:48: not a machine-check record line: .mem-zz: IRD" && err_has "bad-forms.txt:46: warning: record (lines 46-47) has no STATUS register"'
check "mcelog's thermal record (Linux's bank 128): CPU and bank kept, its prose passed over; a head not mcelog's named" eval 'run 1 --output json "$DATA/bad-thermal.txt" && lines 1 && has "\"cpu\":1,.*\"bank\":128,.*\"error_class\":\"thermal\"" && err_has "bad-thermal.txt:3: expected .CPU N THERMAL EVENT." && ! err_has "bad-thermal.txt:8:"'
check "macOS panic log dump: a record per processor's bank, no warnings" eval 'run 0 --output json "$DATA/macos-mca.txt" && lines 2 && [ ! -s "$TMP/err" ] && has "\"cpu\":13,\"bank\":1,\"vendor\":\"intel\",\"family\":6,\"model\":44,\"stepping\":2,\"microcode\":\"0x1f\",\"mcgcap\":\"0x0000000000001c09\",\"mcgstatus\":\"0x0000000000000004\",\"status\":\"0xbe00000000400e0f\",\"addr\":\"0x000000e1e7e1e000\",\"misc\":\"0x0000000001000000\""'
check "malformed macOS dump lines: exit 1, each named with what was expected, the good bank kept" eval 'run 1 --output json "$DATA/bad-macos.txt" && lines 1 && has "\"bank\":3,.*\"misc\":\"0x0000000000000086\"" && err_has "bad-macos.txt:7: IA32_MC1_STATUS: .zz. is not a hexadecimal number" && err_has "bad-macos.txt:8: IA32_MC12_STATUS: bank 12 out of range: IA32_MCG_CAP counts 9 banks" && err_has "bad-macos.txt:10: IA32_MC1_ADDR: expected a register of bank 3"'
check "real macOS dumps (three reports, one an .ips pasted whole): every bank of every block, no warnings" eval 'run 0 --output json "$DATA/macos-real.txt" && lines 14 && [ ! -s "$TMP/err" ] && has "\"cpu\":1,\"bank\":7,\"vendor\":\"intel\",\"family\":6,\"model\":142,\"stepping\":9,\"microcode\":\"0xf0\",\"mcgcap\":\"0x0000000000000c09\",\"mcgstatus\":\"0x0000000000000005\",\"status\":\"0xfe0000000100110a\",\"addr\":\"0x000000018ce24340\"" && has "\"cpu\":2,\"bank\":12,.*\"status\":\"0xc80334c600800093\",\"misc\":\"0xc900040004000c8c\""'
check "a Mac's MCA Error Report (real, docker/for-mac#1068): a record per block, the head's CPU, ADDR/MISC under their valid bits, no warnings" eval 'run 0 --output json "$DATA/macos-efi.txt" && lines 4 && [ ! -s "$TMP/err" ] && has "\"bank\":3,\"vendor\":\"intel\",\"family\":6,\"model\":61,\"stepping\":4,\"status\":\"0xbe00000000800400\",\"addr\":\"0xffffffff8134fffd\",\"misc\":\"0xffffffff8134fffd\"" && has "\"bank\":6,.*\"status\":\"0xee0000000040110b\",\"addr\":\"0x00000000ff70fbc0\",\"misc\":\"0x0000003880000086\"" && ! has "\"cpu\":"'
check "malformed MCA Error Report lines and an unread register line in a report: exit 1, each named" eval 'run 1 --output json "$DATA/bad-macos-efi.txt" && lines 1 && err_has "bad-macos-efi.txt:3: IA32_MC3_CTL: expected IA32_MC3_STATUS before it" && err_has "bad-macos-efi.txt:5: IA32_MC4_ADDR: expected a register of bank 3" && err_has "bad-macos-efi.txt:9: Core: .one. is not a decimal number" && err_has "bad-macos-efi.txt:11: MCA error dump: expected" && err_has "bad-macos-efi.txt:14: not a machine-check record line: .IA32_MC7_STATUS (0x41d)" && ! err_has "bad-macos-efi.txt:13:"'
check "a whole macOS panic report pasted (constructed from real reports): its records, its own text passed over, exit 0" eval 'run 0 --output json "$DATA/macos-report.txt" && lines 3 && [ ! -s "$TMP/err" ] && has "\"cpu\":0,\"bank\":6,\"vendor\":\"intel\",\"family\":6,\"model\":44"'
check "FreeBSD's MCA: lines (real: pcengines/apu2-documentation#251, freebsd-stable 2010-08 and 2011-10, freebsd-questions 2011-06): a record per bank, syslog's 'kernel:', periodic's '+' and a mailer's wrap read, FreeBSD's decode passed over, no warnings" eval 'run 0 --output json "$DATA/freebsd-mca.txt" && lines 5 && has "\"mcgcap\":\"0x0000000000000105\",\"mcgstatus\":\"0x0000000000000007\",\"status\":\"0xf41b210030080a13\"" && [ ! -s "$TMP/err" ] && has "\"cpu\":0,\"apicid\":0,\"bank\":1,\"vendor\":\"amd\",\"family\":22,\"model\":48,\"stepping\":1,\"mcgcap\":\"0x0000000000000106\",\"mcgstatus\":\"0x0000000000000000\",\"status\":\"0x9400000000000151\",\"addr\":\"0x0000000000282060\"" && has "\"bank\":0,\"vendor\":\"intel\",\"family\":15,\"model\":4,\"stepping\":9,.*\"addr\":\"0x0000000001015b00\",\"misc\":\"0x000140002d800aa0\""'
check "malformed FreeBSD MCA: lines (bad STATUS, no Bank line before, bank out of range, no 0x, a syslog line alone): each named, none a record" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:49: STATUS: .94000000000zz151. is not a hexadecimal number" && err_has "bad-forms.txt:50: MCA: Global Cap: expected an .MCA: Bank. line before it" && err_has "bad-forms.txt:51: bank: value .300. out of range" && err_has "bad-forms.txt:52: STATUS: expected 0x and hex digits" && err_has "bad-forms.txt:53: MCA: Address: expected an .MCA: Bank. line before it"'
check "FreeBSD MCA: lines out of order or cut short: each named with what was expected, the record kept" eval 'run 1 --output json "$DATA/bad-freebsd-mca.txt" && lines 1 && has "\"cpu\":0,\"apicid\":0,\"bank\":1,\"vendor\":\"amd\"" && ! has "\"misc\"" && err_has "bad-freebsd-mca.txt:2: MCA: Global Cap: expected ., Status 0x" && err_has "bad-freebsd-mca.txt:4: MCA: Vendor: expected a quoted CPUID vendor string" && err_has "bad-freebsd-mca.txt:5: MCA: CPU: expected after .MCA: Vendor., not after .MCA: Global Cap." && err_has "bad-freebsd-mca.txt:7: MCA: Misc: STATUS 0x9400000000000151 has no MISCV" && err_has "bad-freebsd-mca.txt:10: MCA: Address: expected an .MCA: Bank. line before it"'

check "bar-quoted reply ('| ', '|> ', '> | '; constructed from the real freebsd-stable 2011-05 and 2011-10 records): both records read as unquoted, the mailer's wrap too, no warnings" eval 'run 0 --output json "$DATA/bar-quoted.txt" && lines 2 && [ ! -s "$TMP/err" ] && has "\"mcgstatus\":\"0x0000000000000004\",\"status\":\"0xb600000000010015\",\"addr\":\"0x00000008016c4000\"" && has "\"bank\":4,.*\"mcgcap\":\"0x0000000000000105\",\"mcgstatus\":\"0x0000000000000007\",\"status\":\"0xf41b210030080a13\",\"addr\":\"0x00000000bfa478a0\""'
check "FreeBSD line with the console's 'login: ' run into it (constructed from the real pcengines/apu2-documentation#251 record): read from 'MCA: ', no warnings" eval 'run 0 --output json "$DATA/console-run-in.txt" && lines 1 && [ ! -s "$TMP/err" ] && has "\"bank\":1,\"vendor\":\"amd\",\"family\":22,\"model\":48,.*\"status\":\"0x9400000000000151\",\"addr\":\"0x0000000000282060\""'
check "malformed bar-quoted and run-in FreeBSD lines (bad STATUS; 'login: MCA: Bnak'): each named, none a record" eval 'run 1 --output json "$DATA/bad-forms.txt" && lines 1 && err_has "bad-forms.txt:54: STATUS: .b6000000000zz015. is not a hexadecimal number" && err_has "bad-forms.txt:55: STATUS: .94000000000zz151. is not a hexadecimal number" && err_has "bad-forms.txt:56: not a machine-check record line: .login: MCA: Bnak 1"'

# (e) JSON
check "JSON lines, with and without a log prefix" eval 'run 0 --output json "$DATA/json.txt" && lines 2 && has "\"source\":\"tracepoint\""'
all="$DATA/kernel-dmesg.txt $DATA/kernel-syslog.txt $DATA/edac-amd.txt $DATA/mcelog.txt $DATA/mcelog-decoded.txt $DATA/trace.txt $DATA/json.txt"
cat $all >"$TMP/all.txt"
"$MCECTL" decode --output json "$TMP/all.txt" >"$TMP/pass1.json" 2>/dev/null
"$MCECTL" decode --output json "$TMP/pass1.json" >"$TMP/pass2.json" 2>/dev/null
check "JSON output read back gives the same records" cmp -s "$TMP/pass1.json" "$TMP/pass2.json"
check "all forms concatenated: every record" eval '[ "$(wc -l <"$TMP/pass1.json")" -eq 15 ]'
check "stdin '-'" eval 'run 0 --output json - <"$DATA/edac-amd.txt" && lines 2'

# text output
check "text output: what, where, how bad, what to do" eval 'run 0 "$DATA/edac-amd.txt" && has "^Record 1 (lines 2-7): corrected" && has "What:" && has "Where: *CPU 2, bank 5" && has "Severity: *corrected" && has "Action:"'

# defaults and partial records
check "no identity: warning naming what is missing, exit 0" eval 'run 0 --output json "$DATA/partial.txt" && err_has "partial.txt:1: warning: .*CPU identity" && lines 1'
check "--cpu-id applies to records without identity" eval 'run 0 --output json --cpu-id amd:0x19:0x21 "$DATA/partial.txt" && has "\"vendor\":\"amd\",\"family\":25,\"model\":33" && [ ! -s "$TMP/err" ]'
check "--cpu-id decimal" eval 'run 0 --output json --cpu-id intel:6:143 "$DATA/partial.txt" && has "\"family\":6,\"model\":143"'
check "record without STATUS: reported, not decoded, exit 1" eval 'run 1 --output json "$DATA/no-status.txt" && err_has "no-status.txt:1: .*STATUS" && lines 0'

# rejected lines
check "bad input: exit 1" run 1 --output json "$DATA/bad.txt"
check "bad input: the good record is still decoded" eval 'lines 1 && has "\"status\":\"0x8c00004000010091\""'
check "bad input: file, line and key named" eval 'err_has "^mcectl decode: .*bad.txt:2: STATUS: .zz." && err_has "bad.txt:4: ADDR: .*out of range"'
check "bad input: garbage and invalid JSON named with line numbers" eval 'err_has "bad.txt:6: not a machine-check record line" && err_has "bad.txt:7: invalid JSON"'

# mcelogd's JSON with a counter snapshot (issue 10): the line mcectl query prints under it.
cat >"$TMP/snap.json" <<'JSON'
{"time":"2026-11-23T15:48:43.000000Z","source":"tracepoint","cpu":1,"bank":9,"vendor":"intel","family":6,"model":63,"stepping":2,"status":"0x8c000040000800c0","addr":"0x0000000012345000","misc":"0x0000000000140686","tsc":"0x00000009e09e96a6","snapshot":{"counters":{"cpu":1,"read":"2026-11-23T15:48:50.543085Z","read_after_error_usec":7543085,"window":{"start":"2026-11-23T15:48:50.216214Z","end":"2026-11-23T15:48:50.543085Z","seconds":0.326871,"position":"before_history"},"events":{"cycles":900000000,"instructions":1200000000,"cpu-clock":326847469},"ipc":1.333,"effective_mhz":2754.3,"cache_miss_rate":0.0125,"baseline_intervals":9,"change":{"cycles":1.100,"instructions":0.250,"cpu-clock":3.000}},"rtit":{"unavailable":"no intel_pt"}}}
{"time":"2026-11-23T15:48:44.000000Z","source":"tracepoint","cpu":0,"bank":9,"vendor":"intel","family":6,"model":63,"status":"0x8c000040000800c0","snapshot":{"counters":{"unavailable":"no PMU"}}}
JSON
check "snapshot: JSON records decoded, exit 0" eval 'run 0 "$TMP/snap.json" && [ "$(grep -c "Integrated Memory Controller" "$TMP/out")" -eq 2 ]'
check "snapshot: the one-line summary under the record, figures as mcelogd writes its journal fields" \
	eval 'has "^  Snapshot: CPU 1 over 0.327s, read 7543085 us after the error; IPC 1.333; 2754 MHz; cache-miss 0.0125; largest change instructions x0.25\$"'
check "snapshot: a snapshot without counters prints no line" eval '[ "$(grep -c "Snapshot:" "$TMP/out")" -eq 1 ]'
check "snapshot: --output json is the decode, without the line" eval 'run 0 --output json "$TMP/snap.json" && ! has "Snapshot: CPU"'

# many records: written in whole chunks of 1 MiB, as a fully buffered stdout would; every byte, once, in order
cat >"$TMP/one.txt" <<'EOF'
[    1.000000] mce: [Hardware Error]: CPU 58: Machine Check: 0 Bank 13: be00000000800400
[    1.000000] mce: [Hardware Error]: TSC d83b3e29a2 ADDR b3e29a2140 MISC 9001000f0000286 PPIN 2b5a3f0c9d1e
[    1.000000] mce: [Hardware Error]: PROCESSOR 0:806f8 TIME 1700000000 SOCKET 1 APIC 74 microcode 2b000461
EOF
awk '{ a[NR] = $0 } END { for (i = 0; i < 3500; i++) for (j = 1; j <= NR; j++) print a[j] }' "$TMP/one.txt" >"$TMP/many.txt"
"$MCECTL" decode --output json "$TMP/one.txt" >"$TMP/one.json" 2>/dev/null
"$MCECTL" decode "$TMP/one.txt" >"$TMP/one.out" 2>/dev/null
check "many records, JSON: 3500 lines, each the one record's, more than two chunks" \
	eval 'run 0 --output json "$TMP/many.txt" && lines 3500 && [ "$(sort -u "$TMP/out")" = "$(cat "$TMP/one.json")" ] && [ "$(wc -c <"$TMP/out")" -gt 2097152 ]'
awk -v n=3500 '{ a[NR] = $0 } END {
	for (i = 1; i <= n; i++) {
		printf "Record %u (lines %u-%u)", i, 3 * i - 2, 3 * i
		s = a[1]; sub(/^Record 1 \(lines 1-3\)/, "", s); print s
		for (j = 2; j <= NR; j++) print a[j]
	}
}' "$TMP/one.out" >"$TMP/many.want"
check "many records, text: each the one record's, numbered, in order, more than two chunks" \
	eval 'run 0 "$TMP/many.txt" && cmp -s "$TMP/out" "$TMP/many.want" && [ "$(wc -c <"$TMP/out")" -gt 2097152 ]'
# ... and so their order against stderr's messages: a bad line before the first record is said before
# any record, one after 2000 records (1.3 MB of JSON) right after the first 1 MiB of them
{ echo '[    1.000000] mce: [Hardware Error]: TSC zz'
  head -n 6000 "$TMP/many.txt"
  echo '[    1.000000] mce: [Hardware Error]: TSC zz'
  tail -n 4500 "$TMP/many.txt"; } >"$TMP/bad-many.txt"
check "many records: messages on stderr where a fully buffered stdout of 1 MiB leaves them" \
	eval '"$MCECTL" decode --output json "$TMP/bad-many.txt" >"$TMP/both" 2>&1; first=$(head -n 1 "$TMP/both" | wc -c); [ "$(grep -bo "mcectl decode: " "$TMP/both" | cut -d: -f1 | tr "\n" " ")" = "0 $((first + 1048576)) " ]'
if [ -w /dev/full ]; then
	check "output that cannot be written: exit 1, said (JSON)" \
		eval '"$MCECTL" decode --output json "$TMP/many.txt" >/dev/full 2>"$TMP/err"; [ $? -eq 1 ] && err_has "writing output failed"'
	check "output that cannot be written: exit 1, said (text, one record)" \
		eval '"$MCECTL" decode "$TMP/one.txt" >/dev/full 2>"$TMP/err"; [ $? -eq 1 ] && err_has "writing output failed"'
else
	ok "output that cannot be written (JSON) # SKIP no /dev/full"
	ok "output that cannot be written (text) # SKIP no /dev/full"
fi

# registers on the command line
check "registers: exit 0" run 0 --output json --status 0x9c2040000000011b --bank 5 --ipid 0x9600050f00 --addr 0xabcd00000 --synd 0x5a020001 --misc 0xd01a0ffe00000000 --mcgstatus 0 --cpu-id amd:0x19:0x21
check "registers: record contract" eval 'has "\"bank\":5,\"vendor\":\"amd\",\"family\":25,\"model\":33" && has "\"misc\":\"0xd01a0ffe00000000\"" && has "\"severity\":\"corrected\""'
check "an Intel model no table knows: said, decoded architecturally" eval 'run 0 --status 0x8c00004000010092 --bank 8 --cpu-id intel:6:200 && has "CPU: *intel family 0x6 model 0xc8 stepping 0 (a model the decoder does not know: architectural decode only)" && has "memory read"'
check "registers without --cpu-id: warning, exit 0" eval 'run 0 --status 0x1 && err_has "warning"'

# usage errors: exit 2, naming the bad value
check "usage: bad --output" eval 'run 2 --output xml && err_has "--output .xml."'
check "usage: bad --cpu-id" eval 'run 2 --cpu-id amd:19 "$DATA/partial.txt" && err_has "--cpu-id .amd:19."'
check "usage: unknown vendor" eval 'run 2 --cpu-id via:6:15 "$DATA/partial.txt" && err_has "via:6:15"'
check "usage: bad --status" eval 'run 2 --status 0xzz && err_has "--status .0xzz."'
check "usage: registers need --status" eval 'run 2 --bank 4 && err_has "--status is required"'
check "missing file: exit 1, named" eval 'run 1 "$TMP/does-not-exist" && err_has "does-not-exist"'
: >"$TMP/empty"
check "empty input: exit 1, and says no record was found" eval 'run 1 "$TMP/empty" && err_has "no machine-check record found (0 lines read)"'
printf 'Nov 23 10:00:00 host kernel: usb 1-1: new high-speed USB device\n' >"$TMP/norecord"
check "a log without records: exit 1, said" eval 'run 1 "$TMP/norecord" && err_has "no machine-check record found (1 line read)"'

exit $failed
