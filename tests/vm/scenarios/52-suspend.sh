# Issue 14 #10: suspend to RAM takes the non-boot CPUs down and up again
# without a uevent, and the kernel detaches a CPU's perf events when it goes
# down.  After a resume, CPU 1's reader must still see CPU 1's records.
# QEMU offers S3 with PIIX4_PM.disable_s3=0; the monitor's system_wakeup
# resumes the guest.  Corrected errors go through the monitor, so the guest
# kernel's poller on CPU 1 finds them and the tracepoint fires there.
VM_DESC="suspend to RAM and resume: every CPU's reader still reads"
# 52-suspend's boot (tests/vm/lib/s3-boot.sh).
. "$srcdir/tests/vm/lib/s3-boot.sh"

scenario() {
	local st_before=0x9c000040000e0091 st_after=0x9c000040000f0091 st_after0=0x9c00004000100091 out

	check "suspend: the guest offers suspend to RAM" guest "grep -qw mem /sys/power/state"
	check "suspend: QEMU accepts mce 1 3 $st_before" inject_monitor 1 3 $st_before 0 0x1d0000 0x86
	check "suspend: a record on CPU 1 before the suspend is logged" \
		wait_records 1 ".status == \"$st_before\"" 30

	# Out of the command channel's way: the guest sleeps 5 s and its RTC wakes it;
	# the monitor's system_wakeup is the fallback.
	guest "systemd-run --quiet --unit=suspend-now sh -c 'sleep 1; rtcwake -m mem -s 5'" >/dev/null
	sleep 12
	hmp "system_wakeup" >/dev/null
	out=$(guest "for i in \$(seq 100); do dmesg | grep -q 'PM: suspend exit' && break; sleep 0.1; done
dmesg | grep -E 'PM: suspend (entry|exit)|Disabling non-boot CPUs|CPU1 is up'" 60)
	note "$out"
	check "suspend: the guest suspended to RAM and resumed" grep -q 'PM: suspend exit' <<<"$out"
	check "suspend: ... taking CPU 1 down and up again" grep -q 'CPU1 is up' <<<"$out"

	check "suspend: mcelogd noticed the resume and renewed its readers" guest \
		"for i in \$(seq 50); do journalctl -b -u mcelogd -o cat | grep -q 'The system resumed after' && break; sleep 0.2; done
journalctl -b -u mcelogd -o cat | grep -A1 'The system resumed after' | grep -q 'renewed'"
	is "$(guest 'mcectl status --output json | jq -r .cpu_hotplug.resumes')" 1 "suspend: mcectl status counts 1 resume"
	check "suspend: QEMU accepts mce 1 3 $st_after" inject_monitor 1 3 $st_after 0 0x1e0000 0x86
	check "suspend: a record on CPU 1 after the resume is logged" \
		wait_records 1 ".status == \"$st_after\"" 30
	check "suspend: QEMU accepts mce 0 3 $st_after0" inject_monitor 0 3 $st_after0 0 0x1f0000 0x86
	check "suspend: a record on CPU 0 after the resume is logged" \
		wait_records 1 ".status == \"$st_after0\"" 30
	is "$(guest 'systemctl show -p NRestarts,ActiveState --value mcelogd.service | paste -sd" "')" "0 active" \
		"suspend: mcelogd still active, never restarted"
}
