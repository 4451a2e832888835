# Issue 4, scenario 5: the fatal path.  An uncorrected error with PCC
# (processor context corrupt) written through the QEMU monitor raises #MC;
# the guest kernel must panic.  The guest runs with panic=-1 and QEMU with
# -no-reboot, so the panic ends QEMU: the rig sees the panic text on the
# console and QEMU's exit, and reports that as the expected outcome (a hang
# would hit the time limit and fail).  Kills the guest: runs last in its boot.
VM_DESC="uncorrected error with PCC: the guest kernel panics, detected"
VM_APPEND="mcelogd_vm.check_interval=1"
VM_LAST=1

scenario() {
	# STATUS: VAL UC EN PCC ADDRV MISCV, MCACOD 0x0150; MCG_STATUS: MCIP.
	hmp "mce 0 1 0xbe00000000000150 0x4 0x1000 0x86" >/dev/null
	if vm_wait_exit 90; then
		ok "fatal: QEMU exited after the injection (guest rebooted with panic=-1, -no-reboot)"
	else
		not_ok "fatal: QEMU exited after the injection (guest rebooted with panic=-1, -no-reboot)"
	fi
	check "fatal: the guest kernel panicked on the machine check" \
		grep -q 'Kernel panic - not syncing.*[Mm]achine check\|Kernel panic - not syncing: Fatal machine check' <(console)
	console | grep -m3 -i 'panic\|Machine check' | diag
}
