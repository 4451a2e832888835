#!/bin/sh
# The board slot in memory records (issue 26 item 6): mcelogd reads the
# SMBIOS type-17 structures and the slots.d overrides once, names the slot of
# each EDAC event (by its DIMM label) and CPER memory section (by its module
# handle) in the record's JSON, and rule alerts name it.  Made-up dmi tree and
# override, through `mcelogd --replay --dmi-dir --slots-directory` (TAP).
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$top_srcdir/tests/tap-cli.sh"
. "$top_srcdir/tests/smbios-fake.sh"

D="$TMP/dmi"; S="$TMP/slots.d"
memdev "$D/17-0" 000 000 100 002 "P1-DIMMA1" "P0_Node0_Channel0_Dimm0"
memdev "$D/17-1" 001 000 040 001 "P1-DIMMB1" "P0_Node0_Channel1_Dimm0"
mkdir -p "$S"
printf 'CPU_SrcID#0_MC#3_Chan#0_DIMM#0 = P1-DIMMB1\n' >"$S/board.conf"

# EDAC events: i10nm_edac's numbered label (minute $1, the override maps it), and ghes_edac's
# "<Bank Locator> <Locator>" label; a CPER memory section naming its module by SMBIOS handle.
edac() {
	printf '{"time":"2026-11-20T10:%02d:00.000000Z","event":"memory_controller","source":"ras:mc_event",' "$1"
	printf '"severity":"corrected","error_count":1,"label":"%s","mc":3,"address":"0x00000007e025e400",' "$2"
	printf '"grain":32,"driver_detail":"err_code:0x0080:0x0090 SystemAddress:0x7e025e400 ProcessorSocketId:0x0 '
	printf 'MemoryControllerId:0x3 ChannelId:0x0 PhysicalRankId:0x1 DimmSlotId:0x0 Row:0x3b01 Column:0x380 '
	printf 'Bank:0x0 BankGroup:0x2 ChipSelect:0x1 ChipId:0x0"}\n'
}
cper() {
	printf '{"time":"2026-11-20T11:00:00.000000Z","event":"firmware_memory","source":"tracepoint",'
	printf '"severity":"corrected","node":0,"module":0,"rank":0,"bank":1,"row":7,"column":1,'
	printf '"physical_address":"0x0000000012345000","module_handle":"%s"}\n' "$1"
}
{
	edac 0 'CPU_SrcID#0_MC#3_Chan#0_DIMM#0'
	edac 1 'P0_Node0_Channel0_Dimm0 P1-DIMMA1'
	edac 2 'CPU_SrcID#1_MC#0_Chan#0_DIMM#0'
	cper 0x1100
	cper 0x1177
} >"$TMP/in.jsonl"

echo "1..8"

replay() { run 0 "$MCELOGD" --replay "$TMP/in.jsonl" --no-journal --output json --control-socket "" "$@"; }
replay --rules-directory "$TMP/none" --dmi-dir "$D" --slots-directory "$S"
check "an i10nm label: the override's slot, with the SMBIOS bank locator" \
	has '"label":"CPU_SrcID#0_MC#3_Chan#0_DIMM#0".*"dimm_slot":"P1-DIMMB1","dimm_bank_locator":"P0_Node0_Channel1_Dimm0"'
check "a ghes_edac label: the slot the firmware names" \
	has '"label":"P0_Node0_Channel0_Dimm0 P1-DIMMA1".*"dimm_slot":"P1-DIMMA1","dimm_bank_locator":"P0_Node0_Channel0_Dimm0"'
check "a label nothing maps: no slot invented" \
	sh -c 'grep "CPU_SrcID#1_MC#0" "$0" | grep -qv dimm_slot' "$TMP/out"
check "a CPER section's module handle: its slot" \
	has '"module_handle":"0x1100".*"dimm_slot":"P1-DIMMA1"'
check "a handle no structure has: no slot" \
	sh -c 'grep "\"module_handle\":\"0x1177\"" "$0" | grep -qv dimm_slot' "$TMP/out"

replay --rules-directory "$TMP/none"
check "a replay without --dmi-dir does not name this machine's slots" \
	sh -c '! grep -q dimm_slot "$0"' "$TMP/out"

# A rule keyed by the slot, and its alert naming it.
mkdir -p "$TMP/rules"
printf '[Rule]\nName=slot-ce\nMatch=kind=memory_controller\nKey=slot\nAction=alert\n' >"$TMP/rules/slot.rules"
replay --rules-directory "$TMP/rules" --dmi-dir "$D" --slots-directory "$S"
check "rules key by slot" count '"rule":"slot-ce","key":"slot=P1-' 2
check "the alert's record names the slot" \
	has '"rule":"slot-ce","key":"slot=P1-DIMMB1".*"record":{.*"label":"CPU_SrcID#0_MC#3_Chan#0_DIMM#0","slot":"P1-DIMMB1"'

exit $failed
