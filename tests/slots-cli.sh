#!/bin/sh
# mcectl slots over made-up sysfs trees: SMBIOS type-17 structures (built
# after DSP0134 7.18), EDAC DIMM labels as ghes_edac and i10nm_edac write
# them, an override file, and broken input named with its path (TAP).
set -u

. "$(cd "$(dirname "$0")" && pwd)/tap-cli.sh"

. "$top_srcdir/tests/smbios-fake.sh"

echo "1..10"

D="$TMP/dmi"; E="$TMP/edac"; S="$TMP/slots.d"
# A 16 GiB (size word 0x4000, MiB) and an 8 GiB DIMM, and an empty slot (size 0).
memdev "$D/17-0" 000 000 100 002 "P1-DIMMA1" "P0_Node0_Channel0_Dimm0"
memdev "$D/17-1" 001 000 040 001 "P1-DIMMB1" "P0_Node0_Channel1_Dimm0"
memdev "$D/17-2" 002 000 000 000 "P1-DIMMC1" "P0_Node0_Channel2_Dimm0"
mkdir -p "$D/16-0" "$E/mc0/dimm0" "$E/mc0/dimm1" "$E/mc1/dimm0" "$S"
# A type-16 entry (the array) is not a slot: no raw needed.
printf 'P0_Node0_Channel0_Dimm0 P1-DIMMA1\n' >"$E/mc0/dimm0/dimm_label"
printf 'memory 0\n' >"$E/mc0/dimm0/dimm_location"
printf 'CPU_SrcID#0_MC#0_Chan#1_DIMM#0\n' >"$E/mc0/dimm1/dimm_label"
printf 'channel 1 slot 0\n' >"$E/mc0/dimm1/dimm_location"
printf 'CPU_SrcID#0_MC#1_Chan#0_DIMM#0\n' >"$E/mc1/dimm0/dimm_label"

"$MCECTL" slots --dmi-dir "$D" --edac-dir "$E" --slots-dir "$S" >"$TMP/out" 2>"$TMP/err"
check "reads the sysfs trees" [ "$?" -eq 0 ]
check "the firmware's slots, sized" has '^0x1100   P1-DIMMA1  *P0_Node0_Channel0_Dimm0  *16 GiB  *2$'
check "an empty slot says so" has '^0x1102   P1-DIMMC1  *P0_Node0_Channel2_Dimm0  *empty  *-$'
check "a ghes_edac label finds its slot" has '^mc0/dimm0  *P0_Node0_Channel0_Dimm0 P1-DIMMA1  *memory 0  *P1-DIMMA1  *smbios$'
check "an i10nm label has no slot without an override" has '^mc0/dimm1  *CPU_SrcID#0_MC#0_Chan#1_DIMM#0  *channel 1 slot 0  *-  *unknown$'

printf '# board X\nCPU_SrcID#0_MC#0_Chan#1_DIMM#0 = P1-DIMMB1\nbroken line\n' >"$S/board.conf"
"$MCECTL" slots --dmi-dir "$D" --edac-dir "$E" --slots-dir "$S" --output json >"$TMP/out" 2>"$TMP/err"
check "a bad override line: exit 1, named with file and line" \
	[ "$?" -eq 1 ] && err_has "slots.d/board.conf:3: expected LABEL = SLOT"
check "the override maps the i10nm label, with its bank locator" \
	has '{"dimm":"mc0/dimm1","label":"CPU_SrcID#0_MC#0_Chan#1_DIMM#0","location":"channel 1 slot 0","slot":"P1-DIMMB1","bank_locator":"P0_Node0_Channel1_Dimm0","slot_from":"override"}'

# A module with its serial and part number: both in the JSON, as the ledger keys it.
memdev_module "$TMP/dmi2/17-0" 010 P1-DIMMA1 P0_Node0_Channel0_Dimm0 SN-A1-0001 M393A2K43DB3-CWE
"$MCECTL" slots --dmi-dir "$TMP/dmi2" --edac-dir "$TMP/none" --slots-dir "$TMP/none" --output json >"$TMP/out" 2>"$TMP/err"
check "the JSON gives a module's serial and part number" \
	has '"locator":"P1-DIMMA1","bank_locator":"P0_Node0_Channel0_Dimm0","serial":"SN-A1-0001","part_number":"M393A2K43DB3-CWE"'

# A structure whose bank locator names a string it does not have: said, the rest shown.
memdev "$D/17-3" 003 000 040 001 "P1-DIMMD1"
"$MCECTL" slots --dmi-dir "$D" --edac-dir "$E" --slots-dir "$TMP/none" >"$TMP/out" 2>"$TMP/err"
check "a broken structure is named with its path, the others kept" \
	[ "$?" -eq 1 ] && err_has "dmi/17-3/raw: string 2 named at offset 0x11: the structure has only 1 strings" && \
	has '^0x1103   P1-DIMMD1  *-  *8 GiB'

"$MCECTL" slots --dmi-dir "$TMP/nothing" --edac-dir "$TMP/nothing" --slots-dir "$TMP/nothing" >"$TMP/out" 2>"$TMP/err"
check "no SMBIOS, no EDAC (a guest without them): said, exit 0" \
	[ "$?" -eq 0 ] && has "No SMBIOS memory devices" && has "No EDAC DIMMs"

exit "$failed"
