# The ERST panic scenario's steps (tests/vm/extra/27-erst-panic.sh and
# 28-erst-panic-pstore.sh), sourced by both.

# The previous boot's machine checks mcelogd logged in this boot, one
# "status mcgstatus bank message-id" line each.
erst_logged() {
	guest 'journalctl --sync 2>/dev/null; journalctl -b -o json _COMM=mcelogd MCE_SOURCE=previous_boot --no-pager |
		jq -r "\"\(.MCE_STATUS) \(.MCE_MCGSTATUS) \(.MCE_BANK) \(.MESSAGE_ID)\""'
}

# erst_panic_scenario WHERE: archive (systemd-pstore moves the file before
# mcelogd starts) or pstore (mcelogd reads it there and removes it).
erst_panic_scenario() {
	local where=$1 n i want
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
	if [ "$where" = pstore ]; then
		check "erst: mcelogd removed it from pstore (which clears it from ERST)" \
			guest 'journalctl -b -u mcelogd -o cat --no-pager | grep -q "ERST: 1 machine check(s) the kernel kept logged, .* 1 removed"'
	else
		check "erst: systemd-pstore's archive keeps it" guest 'ls /var/lib/systemd/pstore/mce-erst-* >/dev/null'
	fi
	check "erst: mcectl status says what it found" \
		guest 'mcectl status --output json | jq -e ".sources[] | select(.name == \"previous_boot\") | .reason | test(\"ERST: 1 machine check\")"'
	check "erst: mcelogd restarts" guest 'systemctl restart mcelogd.service && systemctl is-active mcelogd.service'
	sleep 2
	is "$(erst_logged)" "$want" "erst: not logged again after a restart"
}
