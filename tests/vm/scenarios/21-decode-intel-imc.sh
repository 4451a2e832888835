# Issue 4, scenario 2 (Intel): a memory-controller record (patrol scrub
# corrected error, channel 0, Haswell-EP bank 9 = integrated memory
# controller) pushed through the kernel's own logging path with mce-inject
# flags=sw, decoded in the guest exactly as `mcectl decode` decodes the same
# registers on the host.  The guest CPU claims to be Intel family 6 model 63.
VM_DESC="Intel iMC record via mce-inject sw, decoded in the guest as on the host"
VM_CPU="qemu64,+mce,+mca,vendor=GenuineIntel,family=6,model=63,stepping=2"
VM_SMP=2
# As 80-rules-page-offline, so that the two share one boot.
VM_APPEND="mcelogd_vm.check_interval=1"

scenario() {
	local st=0x8c000040000800c0 addr=0x0000000012345000 misc=0x0000000000140686 bank=9 rec
	check "intel-imc: mce-inject flags=sw accepted" \
		inject_sw cpu=1 bank=$bank status=$st addr=$addr misc=$misc
	rec=$(wait_records 1 ".status == \"$st\" and .addr == \"$addr\"" 30 | head -n1)
	if [ -z "$rec" ]; then not_ok "intel-imc: record logged by mcelogd"; return; fi
	ok "intel-imc: record logged by mcelogd"
	is "$(jq -c '[.vendor, .family, .model, .cpu, .bank, .misc]' <<<"$rec")" "[\"intel\",6,63,1,$bank,\"$misc\"]" \
		"intel-imc: vendor, family, model, cpu, bank, misc as injected"
	is "$(jq -c '[.bank_type, .error_class]' <<<"$rec")" '["IMC","memory_controller"]' \
		"intel-imc: bank type IMC, error class memory_controller"
	compare_decode "intel-imc: guest decode equals host mcectl decode of the same registers" "$rec"
}
