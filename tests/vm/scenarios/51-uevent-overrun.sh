# Issue 5, item 7: what if uevents are lost?  While mcelogd is stopped, a
# flood of replayed "change" uevents fills its socket's receive queue, and
# then CPU 1 goes offline: that event is dropped by the kernel (ENOBUFS).
# mcelogd must notice the overrun, re-read /sys/devices/system/cpu/online
# and close CPU 1's reader all the same; CPU 0's reader is renewed and must
# neither lose nor repeat a record; CPU 1 coming back is then seen as usual.
# On Linux 7.3 (make check-vm-kernels, 2026-11-28) "mcelogd saw the overrun"
# failed while the checks after it passed (STATUS= 1 CPU, then 2): mcelogd
# followed CPU 1 all the same, so the 2,000 uevents most likely no longer
# overflowed its queue there (the guest's journal was not kept to show it).
# Not yet explained; 6.1, which CI runs, overflows as intended.
VM_DESC="uevent queue overrun: the online CPUs are re-read, nothing lost or doubled"
VM_APPEND="mcelogd_vm.check_interval=1"

. "$srcdir/tests/vm/lib/hotplug.sh"

scenario() {
	local mark pid s out c=/sys/devices/system/cpu/cpu1
	local st0=0x9c000040000e0091 st1=0x9c000040000f0091

	mark=$(journal_mark)
	pid=$(guest 'systemctl show -p MainPID --value mcelogd.service')
	out=$(guest "kill -STOP $pid
for i in \$(seq 2000); do echo change >/sys/devices/system/cpu/cpu0/uevent; done
echo 0 >$c/online
sleep 0.5
kill -CONT $pid
cat $c/online")
	is "$out" 0 "overrun: CPU 1 went offline behind 2,000 queued uevents"
	check "overrun: mcelogd saw the overrun and re-read the online CPUs" guest "
		for i in \$(seq 40); do journalctl --cursor='$mark' -u mcelogd.service -o cat | grep -q 'uevents were lost' && exit 0; sleep 0.25; done; exit 1"
	s=$(hotplug_status 1)
	check "overrun: STATUS= says 1 CPU although the offline event was lost ($s)" grep -q " on 1 CPUs" <<<"$s"

	check "overrun: QEMU accepts mce 0 3 $st0" inject_monitor 0 3 $st0 0 0x1e0000 0x86
	wait_records 1 ".status == \"$st0\"" 30 >/dev/null
	sleep 3
	is "$(query_json | jq -c "select(.status == \"$st0\") | .cpu")" 0 \
		"overrun: CE on CPU 0 (renewed reader) logged once, cpu 0"

	check "overrun: CPU 1 back online" guest "echo 1 >$c/online"
	s=$(hotplug_status 2)
	check "overrun: STATUS= says 2 CPUs again ($s)" grep -q " on 2 CPUs" <<<"$s"
	check "overrun: QEMU accepts mce 1 3 $st1" inject_monitor 1 3 $st1 0 0x1f0000 0x86
	wait_records 1 ".status == \"$st1\"" 30 >/dev/null
	sleep 3
	is "$(query_json | jq -c "select(.status == \"$st1\") | .cpu")" 1 \
		"overrun: CE on CPU 1 after it came back logged once, cpu 1"
	is "$(mcelogd_warnings "$mark")" "" "overrun: journalctl -u mcelogd shows no warnings"
}
