# The guest kernel itself: what every other scenario relies on, checked
# without mcelogd: MCA banks as QEMU emulates them, the injector, the
# mce:mce_record tracepoint firing for a monitor-injected corrected error.
VM_DESC="guest kernel: MCA banks, mce-inject, mce_record tracepoint"
VM_APPEND="mcelogd_vm.check_interval=1"

scenario() {
	local out
	check "kernel: mce:mce_record tracepoint format readable" \
		guest 'grep -q "field:u64 status" /sys/kernel/tracing/events/mce/mce_record/format'
	check "kernel: mce-inject debugfs present" guest 'test -w /sys/kernel/debug/mce-inject/bank'
	out=$(guest 'dd if=/dev/cpu/0/msr bs=8 count=1 skip=$((0x179)) iflag=skip_bytes status=none | od -An -tx8 | tr -d " "')
	is "$out" 000000000100010a "kernel: MCG_CAP (msr 0x179) reads 10 banks, MCG_CTL_P, MCG_SER_P"
	# Count mce_record events in the ftrace buffer, independent of mcelogd.
	guest 'echo 1 >/sys/kernel/tracing/events/mce/mce_record/enable; echo >/sys/kernel/tracing/trace' >/dev/null
	check "monitor: mce 0 2 (corrected) accepted" inject_monitor 0 2 0x9c00004000010091 0 0x7ff001000 0x86
	# The kernel prints ADDR/MISC/SYND: a/m/s up to 6.10 and ADDR: a, MISC: m since
	# (tests/data/tracefs/*/mce_record*.format, print fmt).
	check "kernel: poll logs it, mce_record fires once with the registers" guest '
		t=/sys/kernel/tracing/trace
		for i in $(seq 40); do grep -q "MC2: 9c00004000010091" $t && break; sleep 0.25; done
		grep -v "^#" $t
		test "$(grep -c "MC2: 9c00004000010091" $t)" = 1 &&
		grep -qE "00000007ff001000/0000000000000086|ADDR: 00000007ff001000, MISC: 0000000000000086" $t'
	guest 'echo 0 >/sys/kernel/tracing/events/mce/mce_record/enable' >/dev/null
}
