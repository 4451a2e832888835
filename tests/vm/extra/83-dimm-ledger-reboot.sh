# Issue 37 (done when, first item): which DIMM to replace, across a real
# reboot.  The guest's firmware describes its one DIMM in an SMBIOS type-17
# structure (QEMU's -smbios type=17: Locator "DIMM 0", a serial and a part
# number).  Its CPU claims to be Nehalem-EP (06_1AH), whose memory controller
# (bank 8) names the channel and the DIMM of an error in MCi_MISC; the guest
# has no EDAC driver, so the administrator names that place's slot in
# slots.d, as mcectl dimms shows the place ("socket=0 channel=1 dimm=1 =
# DIMM 0").  The ledger then counts the machine checks for the DIMM by its
# serial.  Three corrected errors in the first boot; the guest reboots for
# real (vm_reboot: a new boot id) with /var/lib/mcelogd and the configuration
# carried across as a disk keeps them; two more in the second boot reach the
# lowered ReplaceCorrectedPerWeek=5: the lifetime count spans both boots, the
# verdict moves watch -> replace (its own journal entry, with the serial and
# the evidence), and the guest's metrics file, served by this host's
# node_exporter, scraped by Prometheus with the shipped alerting rules, gets
# to Alertmanager's webhook as one MceModuleReplace alert with the slot, the
# serial and the reason (tests/integration/alerts.sh --metrics).
VM_DESC="a DIMM's ledger across a real reboot: lifetime count, verdict at the threshold, the alert delivered"
VM_CPU="qemu64,+mce,+mca,vendor=GenuineIntel,family=6,model=26,stepping=5"
VM_APPEND="mcelogd_vm.check_interval=1"
VM_QEMU="-smbios type=17,loc_pfx=DIMM,bank=CPU0_CHANNEL_B,serial=SN-VM-83A1,part=M393B2G70QH0-YK0"
# Its own boot: it rewrites mcelogd.conf, restarts mcelogd and reboots.
VM_ALONE=1

serial=SN-VM-83A1
# The place mcelogd gives an error of MCACOD 0x0091 (memory read, channel 1)
# whose MISC names DIMM 1 (bits 17:16), on socket 0.
place="socket=0 channel=1 dimm=1"

# imc_ce N ADDR: corrected read error N of channel 1, DIMM 1 at ADDR
# (MCi_STATUS VAL EN MISCV ADDRV, one error; MISC: DIMM 1, physical
# address), and wait until mcelogd logged it.
imc_ce() {
	local st=0x9c00004000010091 a
	a=$(printf '0x%016x' "$2")
	inject_monitor 1 8 $st 0 "$a" 0x0000000000010086 >/dev/null &&
		wait_records 1 ".status == \"$st\" and .addr == \"$a\"" 30 >/dev/null
}
# module FIELDS: the jq FIELDS of the DIMM's entry in mcectl dimms --output json.
# (A tree install's mcectl looks under its own prefix by default; the unit keeps /var/lib/mcelogd.)
module() { guest "mcectl dimms --state /var/lib/mcelogd/modules.state --output json" | jq -c ".modules[] | select(.serial == \"$serial\") | $1"; }
# module_settled FIELDS WANT: module FIELDS once they read WANT, waiting up to
# 15 s: mcelogd writes modules.state at most every 5 s while it changes.
module_settled() {
	local got i
	for i in $(seq 30); do
		got=$(module "$1")
		[ "$got" = "$2" ] && break
		sleep 0.5
	done
	echo "$got"
}
# verdicts: the DIMM's verdict changes this boot, "from>to" each.
verdicts() {
	guest "journalctl -b -o json --no-pager MESSAGE_ID=$(msgid MODULE_VERDICT) MCE_MODULE_SERIAL=$serial" |
		jq -r '"\(.MCE_MODULE_PREVIOUS_VERDICT)>\(.MCE_MODULE_VERDICT)"' | paste -sd' '
}

scenario() {
	local conf i boot_before boot_after prom out
	conf=$(guest "mcelogd --help | sed -n 's|.*configuration file (default \\(.*\\)/mcelogd.conf).*|\\1|p'")
	if [ -z "$conf" ]; then not_ok "ledger: mcelogd --help names its configuration directory"; return; fi
	check "ledger: the kernel exports the type-17 structure with the serial" \
		guest "mcectl slots --output json | jq -e '.smbios[0] | .locator == \"DIMM 0\" and .serial == \"$serial\"'"
	check "ledger: the administrator names the place's slot, lowers the threshold, and restarts mcelogd" \
		guest "mkdir -p $conf/slots.d /run/mcelogd-vm &&
printf '%s = DIMM 0\n' '$place' >$conf/slots.d/board.conf &&
printf '[Output]\nMetrics=/run/mcelogd-vm/mcelogd.prom\n\n[Modules]\nReplaceCorrectedPerWeek=5\n' >$conf/mcelogd.conf &&
systemctl restart mcelogd.service && systemctl is-active mcelogd.service"

	for i in 1 2 3; do
		check "ledger: corrected error $i of the first boot is logged" imc_ce "$i" $((0x21000000 + i * 0x3000 + 0x40))
	done
	is "$(module_settled '[.slot, .part, .corrected, .verdict, .fallback_key]' '["DIMM 0","M393B2G70QH0-YK0",3,"watch",false]')" \
		'["DIMM 0","M393B2G70QH0-YK0",3,"watch",false]' \
		"ledger: mcectl dimms counts the machine checks for DIMM 0 by its serial, at watch"
	is "$(verdicts)" "ok>watch" "ledger: one verdict change this boot, ok to watch"
	boot_before=$(guest 'cat /proc/sys/kernel/random/boot_id')

	check "ledger: the guest rebooted, /var/lib/mcelogd and $conf kept" vm_reboot /var/lib/mcelogd "$conf"
	boot_after=$(guest 'cat /proc/sys/kernel/random/boot_id')
	if [ -n "$boot_after" ] && [ "$boot_after" != "$boot_before" ]; then ok "ledger: a new boot id ($boot_after)"
	else not_ok "ledger: a new boot id (before '$boot_before', after '$boot_after')"; fi
	# /run is the new boot's: the metrics file's directory again, as a tmpfiles.d line would make it.
	guest "mkdir -p /run/mcelogd-vm" >/dev/null
	check "ledger: mcelogd starts in the new boot" vm_provision
	query_since=@$(( $(guest 'date +%s') - 10 ))
	is "$(module '[.corrected, .verdict]')" '[3,"watch"]' "ledger: the new boot's mcelogd has the first boot's 3 errors, at watch"

	for i in 4 5; do
		check "ledger: corrected error $i (second boot) is logged" imc_ce "$((i - 3))" $((0x21000000 + i * 0x3000 + 0x40))
	done
	is "$(module_settled '[.corrected, .verdict]' '[5,"replace"]')" '[5,"replace"]' \
		"ledger: 5 corrected errors over both boots, at replace (ReplaceCorrectedPerWeek=5)"
	is "$(verdicts)" "watch>replace" "ledger: the second boot's verdict change, watch to replace"
	out=$(guest "journalctl -b -o json --no-pager MESSAGE_ID=$(msgid MODULE_VERDICT) MCE_MODULE_SERIAL=$serial" | tail -n1)
	is "$(jq -c '[.MCE_MODULE_SLOT, .MCE_MODULE_CORRECTED, .MCE_MODULE_CORRECTED_WEEK, (.MCE_MODULE_REASON | length > 0)]' <<<"$out")" \
		'["DIMM 0","5","5",true]' "ledger: the entry names the slot and the evidence (5 this week), with a reason"

	# The guest's metrics, through this host's Debian Prometheus stack.
	prom=$(mktemp /tmp/mcelogd-vm-83.XXXXXX.prom)
	guest 'cat /run/mcelogd-vm/mcelogd.prom' >"$prom"
	is "$(grep -c "^mcelogd_module_verdict{.*serial=\"$serial\".*verdict=\"replace\"" "$prom")" 1 \
		"ledger: the guest's metrics file has the DIMM's verdict series at replace"
	out=$(top_srcdir=$srcdir bash "$srcdir/tests/integration/alerts.sh" --metrics "$prom" 2>&1)
	if grep -q '^1\.\.0 # SKIP' <<<"$out"; then
		skip "ledger: the replace alert reaches Alertmanager's webhook" "$(head -n1 <<<"$out")"
	elif grep -q '^not ok\|^Bail out' <<<"$out" || ! grep -q '^ok .*MceModuleReplace arrived exactly once' <<<"$out"; then
		not_ok "ledger: the replace alert reaches Alertmanager's webhook once, with host, slot, serial and reason"
		diag <<<"$out"
	else
		ok "ledger: the replace alert reaches Alertmanager's webhook once, with host, slot, serial and reason"
		grep '^ok' <<<"$out" | diag
	fi
	rm -f "$prom"
}
