#!/bin/sh
# Row-level action (issue 26 item 4; mcelogd.rules(5) ROW OFFLINING), through
# `mcelogd --replay` and `mcectl rules --test` with the shipped rules: errors
# on one DRAM row over three pages offline those three pages once the row
# crosses its threshold, a fourth page seen on it later at once, and the
# row's state survives a restart and a reboot (TAP).
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$top_srcdir/tests/tap-cli.sh"

# An i10nm_edac ras:mc_event from its firmware (ADXL) decode, with the real
# driver_detail of tests/data/dram/README's Ice Lake-SP error (row 0x3b01,
# bank group 2, bank 0, rank 1): minute $1, address $2, column $3, row $4.
edac() {
	printf '{"time":"2026-11-20T10:%02d:00.000000Z","event":"memory_controller","source":"ras:mc_event",' "$1"
	printf '"severity":"corrected","error_count":1,"label":"CPU_SrcID#0_MC#3_Chan#0_DIMM#0","mc":3,'
	printf '"address":"%s","grain":32,"driver_detail":"err_code:0x0080:0x0090 SystemAddress:%s ' "$2" "$2"
	printf 'ProcessorSocketId:0x0 MemoryControllerId:0x3 ChannelId:0x0 PhysicalRankId:0x1 DimmSlotId:0x0 '
	printf 'Row:%s Column:%s Bank:0x0 BankGroup:0x2 ChipSelect:0x1 ChipId:0x0"}\n' "${4:-0x3b01}" "$3"
}
KEY='label=CPU_SrcID#0_MC#3_Chan#0_DIMM#0 rank=1 bank_group=2 dram_bank=0 row=15105'
would() { [ "$(grep -c "would soft-offline page $1 " "$TMP/err")" -eq "${2:-1}" ]; }

# Five errors on the row over three pages, the fifth crossing "5 in 24h".
{
	edac 0 0x7e025e400 0x380; edac 1 0x7e025f400 0x3c0; edac 2 0x7e0260400 0x200
	edac 3 0x7e025e400 0x380; edac 4 0x7e025f400 0x3c0
} >"$TMP/row5.jsonl"
head -4 "$TMP/row5.jsonl" >"$TMP/row4.jsonl"
# A fourth page half an hour later, and the same page again; then another row's page.
{ edac 30 0x7e0261400 0x240; edac 31 0x7e0261440 0x250; edac 32 0x7e0300400 0x10 0x3b02; } >"$TMP/later.jsonl"
cat "$TMP/row5.jsonl" "$TMP/later.jsonl" >"$TMP/all.jsonl"

echo "1..22"

run 0 "$MCELOGD" --replay "$TMP/row4.jsonl" --no-journal --output json --rules-directory "$SHIPPED" \
	--control-socket ""
check "four errors on the row do not cross 5 in 24h" \
	sh -c '! grep -q "memory-row-ce" "$0" && ! grep -q "would soft-offline" "$1"' "$TMP/out" "$TMP/err"

run 0 "$MCELOGD" --replay "$TMP/all.jsonl" --no-journal --output json --rules-directory "$SHIPPED" \
	--control-socket ""
check "the fifth fires the row rule, naming the row" \
	has "\"rule\":\"memory-row-ce\",\"key\":\"$KEY\".*offlining the 3 pages seen on the row"
check "the alert's record names socket, channel, DIMM, rank, bank group, bank and row" \
	has '"rule":"memory-row-ce".*"record":{.*"socket":0,"mc":3,"channel":0,"dimm":0,"label":"CPU_SrcID#0_MC#3_Chan#0_DIMM#0","rank":1,"bank_group":2,"dram_bank":0,"row":15105'
three_once() { would 0x7e025e && would 0x7e025f && would 0x7e0260; }
check "the replay would offline each of the three pages, once" three_once
check "a fourth page seen later on the row: offlined at once (would, in a replay)" \
	sh -c 'grep -q "page 0x7e0261 is on row .*row=15105, which crossed its threshold" "$0" &&
	       [ "$(grep -c "would soft-offline page 0x7e0261 " "$0")" -eq 1 ]' "$TMP/err"
check "another row's page waits for its own threshold" \
	sh -c '! grep -q "0x7e0300" "$0"' "$TMP/err"

run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/all.jsonl"
check "rules --test: the firing and the row's three pages" \
	sh -c 'grep -q "memory-row-ce \[$1\]: 5 in 24h" "$0" &&
	       [ "$(grep -c "^  would soft-offline page 0x7e02[56][ef0], seen on the row" "$0")" -eq 3 ]' \
	"$TMP/out" "$KEY"
check "rules --test: the fourth page at once" \
	has "page 0x7e0261 on a row past its threshold, .*all.jsonl:6: would soft-offline it at once"

# A UEFI CPER memory section (ghes, extlog) names the cell and the address too:
# node, module, rank, bank (group and bank packed, as CPER packs them), row.
for i in 0 1 2 3 4; do
	printf '{"time":"2026-11-20T10:0%d:00.000000Z","event":"firmware_memory","source":"tracepoint",' "$i"
	printf '"severity":"corrected","node":1,"module":2,"rank":0,"bank":517,"row":100,"column":%d,' "$i"
	printf '"physical_address":"0x000000012345%d000"}\n' "$((i % 3))"
done >"$TMP/cper.jsonl"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/cper.jsonl"
check "CPER memory sections: the firmware row rule, its three pages" \
	sh -c 'grep -q "firmware-memory-row-ce \[socket=1 dimm=2 rank=0 dram_bank=517 row=100\]: 5 in 24h" "$0" &&
	       [ "$(grep -c "^  would soft-offline page 0x12345[012], seen on the row" "$0")" -eq 3 ]' "$TMP/out"

# A CXL DRAM event (cxl_dram, as kernel-abi/cxl-trace.c records it): the memory device, channel,
# rank, bank group, bank and row, and the host physical address when the kernel knows it.
for i in 0 1 2 3 4; do
	printf '{"time":"2026-11-20T10:0%d:00.000000Z","event":"cxl_dram","source":"tracepoint",' "$i"
	printf '"severity":"corrected","memdev":"mem0","channel":1,"rank":0,"bank_group":1,"bank":2,"row":100,'
	printf '"column":%d,"hpa":"0x000000088000%d000"}\n' "$i" "$((i % 2))"
done >"$TMP/cxl.jsonl"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/cxl.jsonl"
check "CXL DRAM events: the CXL row rule, the row's two pages" \
	sh -c 'grep -q "cxl-dram-row-ce \[label=mem0 channel=1 rank=0 bank_group=1 dram_bank=2 row=100\]: 5 in 24h" "$0" &&
	       [ "$(grep -c "^  would soft-offline page 0x88000[01], seen on the row" "$0")" -eq 2 ]' "$TMP/out"

# Review I6: ghes_edac labels an error whose module handle it does not know
# "unknown memory"; the module is in driver_detail.  The same rank, bank and
# row numbers on modules 1 and 5 are two rows, not one: minute $1, module $2,
# address $3.
ghes() {
	printf '{"time":"2026-11-20T11:%02d:00.000000Z","event":"memory_controller","source":"ras:mc_event",' "$1"
	printf '"severity":"corrected","error_count":1,"label":"unknown memory","mc":0,"address":"%s",' "$3"
	printf '"grain":1,"message":"Single-bit ECC","driver_detail":"APEI location: node:0 card:0 module:%s ' "$2"
	printf 'rank:0 bank_group:1 bank_address:2 row:4660"}\n'
}
{
	ghes 0 1 0x12340000; ghes 1 5 0x56780000; ghes 2 1 0x12341000; ghes 3 5 0x56781000; ghes 4 1 0x12342000
} >"$TMP/ghes-mixed.jsonl"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/ghes-mixed.jsonl"
check "ghes 'unknown memory': five errors over two modules are no row of either" \
	sh -c '! grep -q "memory-row-ce" "$0" && ! grep -q "would soft-offline" "$0"' "$TMP/out"
{ cat "$TMP/ghes-mixed.jsonl"; ghes 5 1 0x12343000; ghes 6 1 0x12344000; } >"$TMP/ghes-one.jsonl"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --test "$TMP/ghes-one.jsonl"
GHES_KEY='label=mc:0,socket:0,card:0,dimm:1 rank=0 bank_group=1 dram_bank=2 row=4660'
check "... five on module 1: its row fires, keyed by node, card and module" \
	sh -c 'grep -q "^2026-11-20T11:06:00.000000Z memory-row-ce \[$1\]: 5 in 24h" "$0"' "$TMP/out" "$GHES_KEY"
check "... and only module 1's pages are offlined" \
	sh -c '[ "$(grep -c "^  would soft-offline page 0x1234[0-4], seen on the row" "$0")" -eq 5 ] &&
	       ! grep -q "0x5678" "$0"' "$TMP/out"

# A record that names no one DIMM is not counted for rows, and the daemon says so once per reason:
# "any memory" (the whole controller) twice, "A or B" (several DIMMs), an empty label with nothing else.
{
	for m in 0 1; do
		printf '{"time":"2026-11-20T12:0%d:00.000000Z","event":"memory_controller","source":"ras:mc_event",' "$m"
		printf '"severity":"corrected","label":"any memory","mc":0,"address":"0x1234%d000","grain":1,' "$m"
		printf '"driver_detail":"APEI location: node:0 rank:0 bank_group:1 bank_address:2 row:4660"}\n'
	done
	printf '{"time":"2026-11-20T12:02:00.000000Z","event":"memory_controller","source":"ras:mc_event",'
	printf '"severity":"corrected","label":"DIMM_A1 or DIMM_B1","mc":0,"top_layer":0,"address":"0x12342000",'
	printf '"grain":1,"driver_detail":"rank:0 bg:1 ba:2 row:0x1234"}\n'
	printf '{"time":"2026-11-20T12:03:00.000000Z","event":"memory_controller","source":"ras:mc_event",'
	printf '"severity":"corrected","label":"","mc":0,"address":"0x12343000","grain":1,'
	printf '"driver_detail":"APEI location: rank:0 bank_group:1 bank_address:2 row:4660"}\n'
} >"$TMP/nodimm.jsonl"
run 0 "$MCELOGD" --replay "$TMP/nodimm.jsonl" --no-journal --output json --rules-directory "$SHIPPED" \
	--control-socket ""
check "records naming no one DIMM: one log line per reason, not one per record" \
	sh -c '[ "$(grep -c "not counted for DRAM rows" "$0")" -eq 2 ] &&
	       grep -q "label .any memory.*several DIMMs or the whole controller" "$0" &&
	       grep -q "label ...*names no DIMM" "$0"' "$TMP/err"

# The daemon's own runs: a stand-in for the kernel's offline files
# (--sysfs-memory), a state directory, and a boot id each.
BOOT1=11111111111111111111111111111111
BOOT2=22222222222222222222222222222222
mkdir -p "$TMP/sys" "$TMP/state"
: >"$TMP/none.jsonl"
boot() { # BOOT_ID INPUT: a run of the daemon in that boot, the stand-in emptied first
	: >"$TMP/sys/soft_offline_page"
	run 0 "$MCELOGD" --replay "$2" --no-journal --output json --rules-directory "$SHIPPED" --control-socket "" \
		-c /dev/null --state-directory "$TMP/state" --sysfs-memory "$TMP/sys" --boot-id "$1" --log-level info
}
boot "$BOOT1" "$TMP/row5.jsonl"
check "the crossing offlines the three pages, each recorded with its boot" \
	sh -c '[ "$(grep -c "^page	0x7e02[56][ef0]	soft	[0-9]*	ok	$1	" "$0")" -eq 3 ] &&
	       [ "$(grep -c "page 0x7e02[56][ef0] (address .*) soft-offline: done" "$2")" -eq 3 ]' \
	"$TMP/state/rules.state" "$BOOT1" "$TMP/err"
check "the state keeps the row, crossed, with its pages" \
	sh -c 'grep -q "^row	memory-row-ce	$1	[1-9][0-9]*	[0-9]*	0x7e025e@[0-9]*,0x7e025f@[0-9]*,0x7e0260@[0-9]*$" "$0"' \
	"$TMP/state/rules.state" "$KEY"
run 0 "$MCECTL" rules --rules-dir "$SHIPPED" --state "$TMP/state/rules.state"
check "mcectl rules shows the row past its threshold, with its pages" \
	has "^  memory-row-ce $KEY: since 2026-11-20T10:04:00.000000Z, 3 pages$"
boot "$BOOT1" "$TMP/later.jsonl"
check "after a restart a new page on the row is offlined at once" \
	sh -c '[ "$(cat "$0")" = 0x7e0261000 ] && grep -q "page 0x7e0261 (address 0x7e0261000) soft-offline: done" "$1"' \
	"$TMP/sys/soft_offline_page" "$TMP/err"
check "... and only that one: the row's earlier pages are not offlined twice in a boot" \
	sh -c '! grep -q "0x7e02[56][ef0] (address" "$0"' "$TMP/err"
boot "$BOOT2" "$TMP/none.jsonl"
check "a reboot: the row's four pages are offlined again at start (OfflineAgainAtBoot)" \
	sh -c '[ "$(grep -c "Page 0x7e02[56][ef01], offlined in an earlier boot, soft-offline again: done" "$0")" -eq 4 ]' \
	"$TMP/err"
boot "$BOOT2" "$TMP/row5.jsonl"
check "... and the row, still crossed, offlines nothing twice in that boot" \
	sh -c '[ ! -s "$0" ] && grep -q "was soft-offlined already in this boot" "$1"' \
	"$TMP/sys/soft_offline_page" "$TMP/err"

# A state an older version wrote after review I6's merge: the row of every module's
# "unknown memory" row 4660, isolated, with pages of modules 1 and 5 (the end line's
# checksum is rules/rule-state.c's FNV-1a of the lines before it).
printf 'mcelogd-rules-state 1\nrow\tmemory-row-ce\tlabel=unknown memory rank=0 bank_group=1 dram_bank=2 row=4660\t%s\n' \
	'1795168800000000	1795168800000000	0x12340@1795168800000000,0x56780@1795168800000000' >"$TMP/state/rules.state"
printf 'end\t2\t545c566966777587\n' >>"$TMP/state/rules.state"
boot "$BOOT2" "$TMP/ghes-mixed.jsonl"
check "an older state's row keyed by 'unknown memory': said, dropped, and nothing offlined for it" \
	sh -c 'grep -q "1 DRAM row that an older version keyed by an EDAC label naming no one DIMM" "$0" &&
	       ! grep -q "unknown memory" "$1" && [ ! -s "$2" ]' "$TMP/err" "$TMP/state/rules.state" \
	"$TMP/sys/soft_offline_page"

exit $failed
