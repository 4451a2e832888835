# Sourced by the tests that need SMBIOS type-17 structures (slots-cli.sh,
# memory-slots.sh, integration/alerts.sh): built after DSP0134 7.18 into a
# made-up dmi/entries tree.

# memdev DIR HANDLE_LO SIZE_LO SIZE_HI RANK STRING...: one type-17 structure of
# SMBIOS 2.8 length (0x28), handle 0x11HH, size word SIZE, strings 1 and 2
# (locator, bank locator).
memdev() {
	dir=$1; h=$2; slo=$3; shi=$4; rank=$5; shift 5
	mkdir -p "$dir"
	{
		printf '\021\050\'"$h"'\021\000\020\000\000\000\000\000\000\'"$slo"'\'"$shi"'\000\000\001\002'
		printf '\000\000\000\000\000\000\'"${serial_string:-000}"'\000\'"${part_string:-000}"'\'"$rank"'\000\000\000\000'
		printf '\000\000\000\000\000\000\000\000'
		for s in "$@"; do printf '%s\000' "$s"; done
		printf '\000'
	} >"$dir/raw"
}

# memdev_module DIR HANDLE_LO LOCATOR BANK_LOCATOR SERIAL PART: a 16 GB
# dual-rank module with its serial number and part number (strings 3 and 4),
# what names a module in mcelogd's ledger.
memdev_module() {
	serial_string=003 part_string=004
	memdev "$1" "$2" 000 100 002 "$3" "$4" "$5" "$6"
	unset serial_string part_string
}
