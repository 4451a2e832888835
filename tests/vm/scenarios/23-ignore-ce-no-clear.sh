# mce=ignore_ce without msr.allow_writes=on: mcelogd polls the banks but the
# kernel does not let it clear them.  It must say so once, and log an error
# that stays in its bank once, not once per round (issue 5).
VM_DESC="mce=ignore_ce, MSR writes refused: each error logged once, 'cannot clear' said once"
VM_CPU="qemu64,+mce,+mca"
VM_SMP=1
VM_APPEND="mce=ignore_ce msr.allow_writes=off"
# One boot with 26-smbios-slots (its -smbios slot names), 61-aer and
# 62-ras-restart (a q35 machine with a PCIe root port): nothing here reads
# either, and those need neither ignore_ce nor MSR writes; a boot of each
# pair's own cost CI about 45 s.
VM_QEMU="-machine q35 -device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1 -device e1000e,bus=rp1,id=nic1 -smbios type=17,loc_pfx=SLOT,bank=CPU0_CHANNEL_A"

scenario() {
	local st=0x9c00004000010005 addr=0x0000000001234000 misc=0x0000000000000086 mark n conf
	is "$(guest 'cat /sys/module/msr/parameters/allow_writes')" off "no-clear: msr.allow_writes=off"
	mark=$(journal_mark)
	check "no-clear: MSRPollInterval=1s and reload" guest "
		conf=\$(mcelogd --help | sed -n 's/.*configuration file (default \(.*\))/\1/p')
		mkdir -p \"\${conf%/*}\"; printf '[Sources]\nMSRPollInterval=1s\n' >\"\$conf\"
		systemctl reload mcelogd.service"
	check "no-clear: QEMU accepts mce 0 1 $st" inject_monitor 0 1 $st 0 $addr $misc
	check "no-clear: mcelogd found it" wait_records 1 ".status == \"$st\" and .source == \"msr_poll\"" 20
	sleep 5 # five more rounds with the error still in the bank
	n=$(query_json | jq -c "select(.status == \"$st\")" | wc -l)
	is "$n" 1 "no-clear: the error still in the bank is logged once, not once per round"
	is "$(guest "dd if=/dev/cpu/0/msr bs=8 count=1 skip=\$((0x405)) iflag=skip_bytes status=none | od -An -tx8 | tr -d ' '")" \
		9c00004000010005 "no-clear: MC1_STATUS still holds it (not cleared)"
	n=$(guest "journalctl --cursor='$mark' -u mcelogd.service -o cat | grep -c 'MSR polling cannot clear the banks: msr.allow_writes=off'")
	is "$n" 1 "no-clear: 'cannot clear' said once, naming msr.allow_writes"
	check "no-clear: the log line says it polls without clearing" guest "
		journalctl --cursor='$mark' -u mcelogd.service -o cat | grep 'MSR polling: .*reads/round; not clearing: msr.allow_writes=off'"

	# A second error in the uncleared bank: QEMU, as hardware does, sets OVER
	# and overwrites ADDR.  New registers, so a new record.
	check "no-clear: QEMU accepts mce 0 1 with another address" inject_monitor 0 1 $st 0 0x5678000 $misc
	check "no-clear: the second error is logged, with OVER set" \
		wait_records 1 '.status == "0xdc00004000010005" and .addr == "0x0000000005678000"' 20
	sleep 3
	is "$(query_json | jq -c 'select(.source == "msr_poll")' | wc -l)" 2 "no-clear: two errors, two records"
	is "$(mcelogd_warnings "$mark")" "" "no-clear: no warnings, only the one notice"
}
