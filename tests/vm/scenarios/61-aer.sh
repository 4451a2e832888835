# Issue 5, item 3: ras:aer_event on a real kernel.  The guest is a q35
# machine with a PCIe root port (QEMU emulates its AER capability, and the
# kernel's AER driver owns it through _OSC); QEMU's pcie_aer_inject_error
# makes the port report an uncorrectable non-fatal Poisoned TLP with a TLP
# header, as hardware would.  mcelogd logs exactly one record with the
# device, severity, status bits and header the kernel itself printed.
# Linux 7.3 words and prints the report differently ("severity=Uncorrectable
# (Non-Fatal)" and "TLP Header: 0x0100004a ...", tests/data/tracefs/7.3/ras/
# aer_event.dmesg; 6.1: "severity=Uncorrected (Non-Fatal), type=..." and
# "TLP Header: 0100004a ..."), and its ras:aer_event carries a 14-dword TLP
# header array (the Flit-mode log's size) where 6.1 has 4: the record holds
# the 4 dwords this port logged on both.
#
# The same boot checks the devlink health source (issue 38 item 3), the other
# device-fault source: both devlink events read (the kernel has them when
# built with CONFIG_NET_DEVLINK, as Debian's are), their formats as the test
# data lays them out, and, where the kernel has netdevsim, a report and an
# aborted recovery of netdevsim's "dummy" reporter (its debugfs break_health
# and fail_recover, drivers/net/netdevsim/health.c) logged once each.
# Debian's 6.1 and 7.3 kernels are built without CONFIG_NETDEVSIM: there
# that part says SKIP; the repair lane's kernel is built with it, and
# tests/vm/repair/71-devlink.sh runs the same checks there (tests/vm/lib/
# devlink.sh; make check-vm-repair).
VM_DESC="ras:aer_event from QEMU's pcie_aer_inject_error: logged once, as the kernel reported it; devlink health"
# 23-ignore-ce-no-clear's boot: its kernel options (the kernel leaves
# corrected machine checks to mcelogd's MSR poll, which may not clear them)
# touch no PCIe error, and its -smbios no PCIe device.
VM_SMP=1
VM_APPEND="mce=ignore_ce msr.allow_writes=off"
. "$srcdir/tests/vm/lib/devlink.sh"
VM_QEMU="-machine q35 -device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1 -device e1000e,bus=rp1,id=nic1 -smbios type=17,loc_pfx=SLOT,bank=CPU0_CHANNEL_A"

scenario() {
	local out dev klines khdr recs rec n j
	check "aer: the kernel's AER driver owns the root port" guest \
		'dmesg | grep -q "pcieport 0000:00:01.0: AER: enabled"'
	out=$(hmp "pcie_aer_inject_error rp1 POISON_TLP 0x4a000001 0x0100000f 0xfee00000 0x00000000")
	check "aer: QEMU injected the error (pcie_aer_inject_error rp1 POISON_TLP)" grep -q '^OK id: rp1' <<<"$out"
	dev=0000:00:01.0
	# The kernel's own account, from its log.
	klines=$(guest "for i in \$(seq 40); do dmesg | grep -q 'AER:   TLP Header' && break; sleep 0.25; done
		dmesg | grep -E 'PCIe Bus Error|TLP Header'")
	note "$klines"
	check "aer: the kernel reports an uncorrected non-fatal error on $dev" \
		grep -qE "$dev: PCIe Bus Error: severity=Uncorrect(ed|able) \(Non-Fatal\)" <<<"$klines"
	khdr=$(sed -n 's/.*AER:   TLP Header: //p' <<<"$klines" | head -n1 | sed 's/0x//g')
	check "aer: ... with a TLP header" test -n "$khdr"
	# The record carries the header log's bytes as they are in memory: each
	# dword the kernel printed, least significant byte first.
	local dw hbytes=
	for dw in $khdr; do hbytes+=${dw:6:2}${dw:4:2}${dw:2:2}${dw:0:2}; done

	recs=$(wait_records 1 '.source == "ras:aer_event"' 30)
	check "aer: mcectl query --output json shows the AER record" test -n "$recs"
	sleep 2
	n=$(query_json | jq -c 'select(.source == "ras:aer_event")' | wc -l)
	is "$n" 1 "aer: the record appears exactly once"
	rec=$(head -n1 <<<"$recs")
	is "$(jq -c '[.event, .severity, .dev_name, .aer_severity, .uncorrectable_status, .errors, .tlp_header]' <<<"$rec")" \
		"[\"pcie_aer\",\"uncorrected\",\"$dev\",\"non_fatal\",\"0x1000\",\"Poisoned TLP Received\",\"$hbytes\"]" \
		"aer: device, severity, status bit and TLP header as the kernel printed them"

	j=$(guest "journalctl -o json --no-pager MESSAGE_ID=$(msgid PCIE_AER)")
	is "$(grep -c . <<<"$j")" 1 "aer: one journal entry with MESSAGE_ID=$(msgid PCIE_AER)"
	is "$(jq -c '[.MCE_EVENT, .MCE_SOURCE, .MCE_SEVERITY, .MCE_DEV_NAME, .MCE_UNCORRECTABLE_STATUS, .PRIORITY, ._COMM]' <<<"$j")" \
		"[\"pcie_aer\",\"ras:aer_event\",\"uncorrected\",\"$dev\",\"0x1000\",\"2\",\"mcelogd\"]" \
		"aer: journal MCE_EVENT/SOURCE/SEVERITY/DEV_NAME/UNCORRECTABLE_STATUS, PRIORITY crit, from mcelogd"
	n=$(query_json "--since 1h --severity uncorrected" | jq -c 'select(.source == "ras:aer_event")' | wc -l)
	is "$n" 1 "aer: mcectl query --severity uncorrected shows it"
	devlink_health
}
