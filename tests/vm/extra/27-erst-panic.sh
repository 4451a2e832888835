# Issue 38, item 1: the machine check that panicked the last boot, kept by the
# kernel in ACPI ERST and shown by pstore in the next boot, is logged once by
# the shipped service on the real kernel, with the injected registers, and not
# again after a restart.  QEMU's acpi-erst device keeps its store in a file
# (share=on); a fatal machine check from the monitor makes the guest kernel
# panic, and mce_panic() writes the record to ERST (apei_write_mce()).  The
# guest reboots with panic=-1 and QEMU resets it (set-action reboot=reset,
# for this one reboot) with the same store: pstore shows mce-erst-<id> there,
# unless the guest's systemd-pstore.service moved it to its archive first.
# Outside CI's set (a panic and a second boot): make check-vm-erst.
VM_DESC="a fatal machine check that panicked the guest is logged once in the next boot, from ERST"
VM_SMP=1
VM_QEMU="-object memory-backend-file,id=erstnvram,mem-path=$work/erst-nvram.bin,size=0x10000,share=on -device acpi-erst,memdev=erstnvram"
VM_ALONE=1
VM_LAST=1

# The previous boot's machine checks mcelogd logged in this boot, one
# "status mcgstatus bank message-id" line each.
erst_logged() {
	guest 'journalctl --sync 2>/dev/null; journalctl -b -o json _COMM=mcelogd MCE_SOURCE=previous_boot --no-pager |
		jq -r "\"\(.MCE_STATUS) \(.MCE_MCGSTATUS) \(.MCE_BANK) \(.MESSAGE_ID)\""'
}

scenario() {
	local n i want
	want="0xb200000000030005 0x0000000000000004 0 $(msgid FATAL)"
	check "erst: the guest kernel found the ERST table" \
		guest 'journalctl -k -b | grep -q "Error Record Serialization Table (ERST) support is initialized"'
	check "erst: pstore keeps its records there" \
		guest 'journalctl -k -b | grep -q "Registered erst as persistent store backend"'
	is "$(erst_logged)" "" "erst: nothing from a previous boot before the panic"

	n=$(agent_ready_count)
	qmp set-action '{"reboot":"reset"}' || not_ok "erst: QEMU resets the guest at its reboot"
	# Broadcast, as the recipe: STATUS VAL UC EN PCC, MCG_STATUS MCIP only (no RIPV).
	hmp "mce -b 0 0 0xb200000000030005 0x4 0 0" >/dev/null
	for i in $(seq 900); do
		[ "$(agent_ready_count)" -gt "$n" ] && break
		vm_alive || break
		sleep 0.2
	done
	qmp set-action '{"reboot":"shutdown"}' >/dev/null
	check "erst: the guest kernel panicked on the machine check" \
		grep -aq 'Kernel panic - not syncing.*[Mm]achine check' <(console)
	console | grep -a -i -m8 'panic\|machine check\|mce: \[Hardware' | diag
	if [ "$(agent_ready_count)" -gt "$n" ] && guest true 20 >/dev/null; then
		ok "erst: the guest came back in a new boot, the same ERST store"
	else
		not_ok "erst: the guest came back in a new boot, the same ERST store"
		return
	fi
	guest "awk '\$3 == \"_text\" {print \$1; exit}' /proc/kallsyms" 20 >"$vm_dir/ktext"
	guest 'ls -l /sys/fs/pstore/ /var/lib/systemd/pstore/ 2>&1; systemctl is-enabled systemd-pstore.service 2>&1' | diag
	check "erst: the new boot has the record (pstore, or systemd-pstore's archive)" \
		guest 'ls /sys/fs/pstore/mce-erst-* /var/lib/systemd/pstore/mce-erst-* 2>/dev/null | grep -q .'

	check "erst: mcelogd starts in the new boot" vm_provision
	for i in $(seq 20); do [ -n "$(erst_logged)" ] && break; sleep 0.5; done
	is "$(erst_logged)" "$want" "erst: logged once, fatal, with the injected registers"
	guest 'journalctl -b -u mcelogd -o cat --no-pager | grep -i "erst\|pstore"' | diag
	check "erst: no longer in pstore (removed once logged, or archived by systemd-pstore)" \
		guest '! ls /sys/fs/pstore/mce-erst-* 2>/dev/null | grep -q .'
	check "erst: mcectl status says what it found" \
		guest 'mcectl status --output json | jq -e ".sources[] | select(.name == \"previous_boot\") | .reason | test(\"ERST: 1 machine check\")"'
	check "erst: mcelogd restarts" guest 'systemctl restart mcelogd.service && systemctl is-active mcelogd.service'
	sleep 2
	is "$(erst_logged)" "$want" "erst: not logged again after a restart"
}
