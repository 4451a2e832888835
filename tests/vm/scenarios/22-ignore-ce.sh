# mce=ignore_ce: the kernel neither polls nor logs corrected errors; they
# stay in the banks for a user-space poller.  Shares the one-CPU AMD boot of
# 20-decode-amd-smca.  Shows the kernel side (no mce_record event, the bank
# still holds the error) and whether mcelogd found it by polling the banks
# (/dev/cpu/N/msr, issue 5): until that source exists this is a TODO.
VM_DESC="mce=ignore_ce: the kernel leaves corrected errors in the banks"
VM_CPU="qemu64,+mce,+mca,vendor=AuthenticAMD,family=23,model=49,stepping=0"
VM_SMP=1
VM_APPEND="mce=ignore_ce"

scenario() {
	local st=0x9c00004000050095 recs
	is "$(guest 'cat /sys/devices/system/machinecheck/machinecheck0/ignore_ce')" 1 "ignore_ce: set in sysfs"
	guest 'echo >/sys/kernel/tracing/trace; echo 1 >/sys/kernel/tracing/events/mce/mce_record/enable' >/dev/null
	check "ignore_ce: QEMU accepts mce 0 4 $st" inject_monitor 0 4 $st 0 0x77000 0x86
	# MC4_STATUS is MSR 0x411; the kernel's poll timer would have run by now.
	check "ignore_ce: the kernel logs nothing (no mce_record event in 3 s)" guest '
		sleep 3; ! grep -q "9c00004000050095" /sys/kernel/tracing/trace'
	guest 'echo 0 >/sys/kernel/tracing/events/mce/mce_record/enable' >/dev/null
	recs=$(wait_records 1 ".status == \"$st\"" 10 2>/dev/null)
	if [ -n "$recs" ]; then
		is "$(grep -c . <<<"$recs")" 1 "ignore_ce: mcelogd found it by polling the banks, once"
	else
		todo "ignore_ce: mcelogd finds it by polling the banks" "MSR polling source not in this build (issue 5)"
		is "$(guest 'dd if=/dev/cpu/0/msr bs=8 count=1 skip=$((0x411)) iflag=skip_bytes status=none | od -An -tx8 | tr -d " "')" \
			9c00004000050095 "ignore_ce: the error is still in MC4_STATUS"
	fi
}
