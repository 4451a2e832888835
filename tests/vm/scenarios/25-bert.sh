# Issue 5, item 6: the errors that ended the previous boot, as firmware keeps
# them in the ACPI BERT region, logged once per boot by the shipped service on
# the real kernel.  QEMU gets a BERT table (tests/vm/data/bert-table.bin,
# -acpitable) whose region is loaded into guest RAM at 0x08000000
# (-device loader) and kept by the guest kernel with memmap=; the region
# (tests/integration/data/bert-region.bin, constructed from the UEFI/ACPI
# layouts) holds an AMD SMCA bank 5 context and a memory error section.  The
# kernel shows it at /sys/firmware/acpi/tables/data/BERT; mcelogd reads it
# there under its sandbox.
VM_DESC="boot error region (BERT) logged once per boot from the real sysfs file"
VM_SMP=1
VM_APPEND='memmap=4K$0x08000000 nokaslr'
VM_QEMU="-acpitable file=$here/data/bert-table.bin -device loader,file=$srcdir/tests/integration/data/bert-region.bin,addr=0x08000000,force-raw=on"
VM_ALONE=1

# previous_boot records in the journal, one "kind detail" line each, sorted
bert_logged() {
	guest 'journalctl --sync 2>/dev/null; journalctl -b -o json _COMM=mcelogd --no-pager |
		jq -r "select(.MCE_JSON != null) | .MCE_JSON | fromjson | select(.source == \"previous_boot\") |
		       if .event then \"\(.event) \(.physical_address)\" else \"mce \(.bank) \(.status) \(.ipid)\" end" | sort'
}

scenario() {
	local want
	want=$'firmware_memory 0x000000b50c68ce80\nmce 5 0xbea0000000000108 0x0000009600050f00'
	# The kernel printed the region at boot and then cleared each block's Block
	# Status ("one-time polled"): userspace reads status 0 with the data still
	# there, which the parser must not take for the end of the region.
	check "bert: the guest kernel decoded the region at boot" guest 'journalctl -k -b | grep -q "BERT: Error records from previous boot"'
	check "bert: sysfs shows the region, block status cleared by the kernel, data kept" guest '
		set -x
		ls -l /sys/firmware/acpi/tables/BERT /sys/firmware/acpi/tables/data/BERT
		[ "$(wc -c </sys/firmware/acpi/tables/data/BERT)" = 4096 ] &&
		[ "$(od -An -tx4 -N4 /sys/firmware/acpi/tables/data/BERT | tr -d " ")" = 00000000 ] &&
		[ "$(od -An -tx4 -j12 -N4 /sys/firmware/acpi/tables/data/BERT | tr -d " ")" = 00000160 ]'
	is "$(bert_logged)" "$want" "bert: the service logged the bank record and the memory section, once"
	check "bert: the bank record is decoded (AMD UMC, fatal)" guest '
		journalctl -b -o json _COMM=mcelogd --no-pager | jq -e -s "map(select(.MCE_SOURCE == \"previous_boot\")) |
			.[0] | .MCE_BANK_TYPE == \"UMC\" and .MCE_SEVERITY == \"fatal\""'
	check "bert: the marker in the state directory names this boot" guest '
		grep -qx "boot_id=$(tr -d - </proc/sys/kernel/random/boot_id)" /var/lib/mcelogd/bert-logged'
	check "bert: systemctl restart mcelogd" guest 'systemctl restart mcelogd.service && systemctl is-active mcelogd.service'
	is "$(bert_logged)" "$want" "bert: a restart in the same boot logs nothing again"
	check "bert: ... and says so" guest '
		journalctl -b -u mcelogd.service -o cat | grep -q "already logged in this boot"'
	is "$(mcelogd_warnings)" "" "bert: journalctl -u mcelogd shows no warnings"
	pid1_warnings
}
