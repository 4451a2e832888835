# Issue 4, scenario 2 (AMD): an AMD SMCA record (Unified Memory Controller,
# corrected DRAM ECC, registers of a published EPYC 7002 report) pushed through
# the kernel's own logging path with mce-inject flags=sw, decoded in the guest
# by mcelogd exactly as `mcectl decode` decodes the same registers on the host.
#
# The guest CPU claims to be an AMD Family 17h Model 31h (EPYC 7002).  QEMU
# 7.2 cannot show the guest the SMCA CPUID bit, and the kernel's mce-inject
# keeps IPID only on SMCA CPUs, so on such a QEMU the record arrives without
# IPID: that check is skipped (with the reason) and the comparison is made
# on the registers the kernel delivered.  mce=ignore_ce does not affect the
# sw path: this runs in 22-ignore-ce's boot (its guest and kernel options;
# a boot of its own cost CI about 55 s for a scenario of 4 s).
VM_DESC="AMD SMCA record via mce-inject sw, decoded in the guest as on the host"
VM_CPU="qemu64,+mce,+mca,vendor=AuthenticAMD,family=23,model=49,stepping=0"
VM_SMP=2
VM_APPEND="mce=ignore_ce msr.allow_writes=on"

scenario() {
	local st=0xdc2040000000011b ipid=0x0000009600350f00 synd=0x9fec08000a800a01 addr=0x0000000313c7a020
	local bank=5 rec smca
	check "amd-smca: mce-inject flags=sw accepted" \
		inject_sw cpu=0 bank=$bank status=$st addr=$addr synd=$synd ipid=$ipid
	rec=$(wait_records 1 ".status == \"$st\" and .addr == \"$addr\"" 30 | head -n1)
	if [ -z "$rec" ]; then not_ok "amd-smca: record logged by mcelogd"; return; fi
	ok "amd-smca: record logged by mcelogd"
	is "$(jq -c '[.vendor, .family, .model, .bank, .synd]' <<<"$rec")" "[\"amd\",23,49,$bank,\"$synd\"]" \
		"amd-smca: vendor, family, model, bank, synd as injected"
	smca=$(guest 'grep -qw smca /proc/cpuinfo && echo yes || echo no')
	if [ "$smca" = yes ]; then
		is "$(jq -r .ipid <<<"$rec")" "$ipid" "amd-smca: ipid as injected"
	else
		skip "amd-smca: ipid as injected" "guest CPU has no SMCA feature (QEMU cannot expose it); mce-inject drops ipid"
	fi
	compare_decode "amd-smca: guest decode equals host mcectl decode of the same registers" "$rec"
}
