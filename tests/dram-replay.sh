#!/bin/sh
# The DRAM cell from EDAC driver_detail and from Intel iMC MISC, end to end
# through mcelogd --replay: the record's JSON carries it, and the DRAM
# fault-pattern classifier sees both kinds of record; mcectl decode names the
# cell (TAP).
set -u

. "$(cd "$(dirname "$0")" && pwd)/tap-cli.sh"
DATA="$top_srcdir/tests/data/dram"

echo "1..7"

mkdir -p "$TMP/rules" "$TMP/state"
"$MCELOGD" --replay "$DATA/icelake-row.jsonl" --no-journal --output json --rules-directory "$TMP/rules" \
	--state-directory "$TMP/state" --control-socket "" >"$TMP/out" 2>"$TMP/err"
check "the replay runs" [ "$?" -eq 0 ]
check "an EDAC event's driver_detail becomes fields" \
	has '"socket":0,"memory_controller":3,"channel":0,"dimm":0,"rank":1,"chip_select":1,"bank_group":2,"bank":0,"row":15105,"column":896'
check "an Ice Lake-SP iMC machine check's MISC names the same cell" \
	has '"dimm":0,"rank":1,"bank_group":2,"dram_bank":0,"row":15105,"column":896'
check "the EDAC pair forms a row fault" \
	has '"rule":"dram-fault-pattern","key":"dimm=CPU_SrcID#0_MC#3_Chan#0_DIMM#0".*single_row fault'
check "the machine-check pair forms a row fault" \
	has '"rule":"dram-fault-pattern","key":"dimm=socket=0 mc=3 channel=0 dimm=0 rank=1".*single_row fault'
check "two alerts, no more" count '"rule":"dram-fault-pattern"' 2

# The real Ice Lake-SP record's registers (tests/data/dram/README), decoded by hand.
"$MCECTL" decode --status 0xac00000200a00090 --bank 25 --misc 0x9000201d809c086 --addr 0x7e025e400 \
	--cpu-id intel:6:0x6a >"$TMP/out" 2>"$TMP/err"
check "mcectl decode names the cell" \
	has 'Where:    bank 25 (Integrated Memory Controller, IMC), channel 0, DIMM 0, rank 1, bank group 2, bank 0, row 15105, column 896'

exit "$failed"
