# Sourced by tests/vm/lib/ghes-boot.sh, for the arm64 GHES scenarios: a firmware-first
# error record built byte by byte and handed to QEMU's inject-ghes-v2-error
# (QEMU >= 10.2, qapi/acpi-hest.json: "cper", the base64 of one Generic Error
# Status Block with its Generic Error Data Entries and their payloads).  QEMU
# copies the bytes into the error status block of the HEST's QMP error source
# (a GHESv2 source notified through a GPIO interrupt on the virt machine) and
# raises the interrupt; the guest's GHES driver reads the block, prints it
# (the kernel's "[Hardware Error]:" lines) and turns each section into its
# tracepoint.
#
# Layouts, all little-endian:
#   ACPI 6.5 §18.3.2.7.1 Generic Error Status Block (20 bytes): block status
#     (bit 0 uncorrectable, bit 1 correctable, bits 13:4 entry count), raw
#     data offset, raw data length, data length, error severity.
#   ACPI 6.5 §18.3.2.7.1 Generic Error Data Entry, revision 0x300 (72 bytes):
#     section type GUID, error severity (u32), revision (u16), validation
#     bits (u8), flags (u8), error data length (u32), FRU id (16), FRU text
#     (20), timestamp (u64).
#   UEFI 2.10 §N.2.4.4 ARM Processor Error Section and §N.2.5 Memory Error
#     Section: built by the scenarios with the helpers below.
# CPER severities (UEFI §N.2.1): 0 recoverable, 1 fatal, 2 corrected, 3 informational.

# cper_le BYTES VALUE: VALUE as BYTES little-endian bytes, in hex (bash's
# 64-bit arithmetic: a value with bit 63 set shifts and masks the same).
cper_le() {
	local i out=
	for ((i = 0; i < $1; i++)); do out+=$(printf '%02x' $((($2 >> (8 * i)) & 0xff))); done
	printf '%s' "$out"
}
# cper_zeros BYTES: that many zero bytes, in hex.
cper_zeros() { printf "%0$(($1 * 2))d" 0; }
# cper_guid GUID: a GUID as UEFI stores it: the first three groups
# little-endian, the last two as written.
cper_guid() {
	local g=${1//-/}
	g=${g,,}
	printf '%s%s%s%s' "$(cper_le 4 0x${g:0:8})" "$(cper_le 2 0x${g:8:4})" "$(cper_le 2 0x${g:12:4})" "${g:16:16}"
}
cper_guid_arm=E19E3D16-BC11-11E4-9CAA-C2051D5D46B0      # UEFI §N.2.4.4
cper_guid_memory=A5BC1114-6F64-4EDE-B863-3E83ED7C83B1   # UEFI §N.2.5

# ghes_block SEVERITY SECTION-GUID SECTION-HEX: a status block holding one
# data entry of that section, in hex.
ghes_block() {
	local sev=$1 len=$((${#3} / 2)) status
	# correctable or uncorrectable valid, and one entry (bits 13:4)
	if [ "$sev" = 2 ]; then status=$((1 << 1 | 1 << 4)); else status=$((1 << 0 | 1 << 4)); fi
	printf '%s' "$(cper_le 4 $status)$(cper_le 4 0)$(cper_le 4 0)$(cper_le 4 $((72 + len)))$(cper_le 4 "$sev")"
	printf '%s' "$(cper_guid "$2")$(cper_le 4 "$sev")$(cper_le 2 0x300)$(cper_le 1 0)$(cper_le 1 0)$(cper_le 4 $len)"
	printf '%s' "$(cper_zeros 16)$(cper_zeros 20)$(cper_le 8 0)$3"
}
# ghes_inject HEX: the record to QEMU (QMP inject-ghes-v2-error); fails with
# QEMU's error (e.g. the guest has not acknowledged the previous record).
ghes_inject() {
	local b64
	# printf turns each \xHH into its byte, NULs included, straight into base64.
	b64=$(printf "$(sed 's/../\\x&/g' <<<"$1")" | base64 -w0)
	qmp inject-ghes-v2-error "$(jq -nc --arg c "$b64" '{cper: $c}')"
}
