# Issue 5, item 7: CPU hotplug.  mcelogd reads mce:mce_record with one perf
# event per CPU, and the kernel detaches a CPU's events for good when it goes
# offline; mcelogd follows the kernel's uevents to close the reader (after
# draining it) and to open a new one when the CPU is back.  Corrected errors
# go through the QEMU monitor, so the guest kernel's poller on that very CPU
# finds them and the tracepoint fires there: without a reader re-opened on
# CPU 1, its record is never seen.  A replayed uevent (the sysfs "uevent"
# file) must change nothing.
VM_DESC="CPU hotplug: readers follow offline/online, records on both CPUs logged once"
VM_APPEND="mcelogd_vm.check_interval=1"

. "$srcdir/tests/vm/lib/hotplug.sh"

# once ST CPU DESC: exactly one record with status ST, on CPU, with no duplicate after 3 s.
once() {
	local st=$1 cpu=$2 desc=$3 recs
	recs=$(wait_records 1 ".status == \"$st\"" 30)
	sleep 3 # the kernel polls every second: time for a duplicate to show
	recs=$(query_json | jq -c "select(.status == \"$st\") | [.cpu, .source]")
	is "$recs" "[$cpu,\"tracepoint\"]" "$desc"
}

scenario() {
	local mark s pid out t=/sys/kernel/tracing c=/sys/devices/system/cpu/cpu1
	local st_pre=0x9c000040000c0091 st0=0x9c000040000a0091 st1=0x9c000040000b0091 st_syn=0x9c000040000d0091

	mark=$(journal_mark)
	s=$(hotplug_status 2)
	check "hotplug: STATUS= says mcelogd reads 2 CPUs at start ($s)" grep -q " on 2 CPUs" <<<"$s"
	pid=$(guest 'systemctl show -p MainPID --value mcelogd.service')
	check "hotplug: the running mcelogd follows CPU hotplug through uevents" guest \
		"journalctl -b _PID=$pid -o cat | grep -q 'Following CPU hotplug through kernel uevents'"

	# A record in CPU 1's ring while mcelogd cannot read it, then CPU 1 goes
	# offline: what the ring holds must still be logged, once.
	out=$(guest "echo >$t/trace; echo 1 >$t/events/mce/mce_record/enable
kill -STOP $pid
taskset -c 1 bash -c '$(sw_inject_script cpu=1 bank=2 status=$st_pre addr=0x7e1000 misc=0x86)'
for i in \$(seq 100); do grep -q 'MC2: ${st_pre#0x}' $t/trace && break; sleep 0.05; done
grep -c 'MC2: ${st_pre#0x}' $t/trace
echo 0 >$t/events/mce/mce_record/enable
echo 0 >$c/online
sleep 0.5
kill -CONT $pid
cat $c/online")
	is "$(paste -sd' ' <<<"$out")" "1 0" "hotplug: kernel traced the record on CPU 1, then CPU 1 went offline"
	s=$(hotplug_status 1)
	check "hotplug: after offline, STATUS= says 1 CPU ($s)" grep -q " on 1 CPUs" <<<"$s"
	once "$st_pre" 1 "hotplug: the record in CPU 1's ring at offline is logged exactly once"
	check "hotplug: mcelogd logged that it closed CPU 1's reader" guest \
		"journalctl --cursor='$mark' -u mcelogd.service -o cat | grep -q 'CPU 1 went offline'"

	check "hotplug: QEMU accepts mce 0 3 $st0 (CPU 1 offline)" \
		inject_monitor 0 3 $st0 0 0x1a0000 0x86
	once "$st0" 0 "hotplug: CE on CPU 0 while CPU 1 is offline logged once, cpu 0"

	check "hotplug: CPU 1 back online" guest "echo 1 >$c/online && grep -qx 1 $c/online"
	s=$(hotplug_status 2)
	check "hotplug: after online, STATUS= says 2 CPUs again ($s)" grep -q " on 2 CPUs" <<<"$s"
	check "hotplug: QEMU accepts mce 1 3 $st1 (CPU 1 back)" \
		inject_monitor 1 3 $st1 0 0x1b0000 0x86
	once "$st1" 1 "hotplug: CE on CPU 1 after it came back logged once, cpu 1"

	# Root can make the kernel replay any action: "offline" for a running CPU
	# must not close its reader.
	guest "echo offline >$c/uevent; sleep 1" >/dev/null
	s=$(guest 'systemctl show -p StatusText --value mcelogd.service')
	check "hotplug: a replayed 'offline' uevent changes nothing ($s)" grep -q " on 2 CPUs" <<<"$s"
	check "hotplug: QEMU accepts mce 1 4 $st_syn" inject_monitor 1 4 $st_syn 0 0x1c0000 0x86
	once "$st_syn" 1 "hotplug: CE on CPU 1 after the replayed uevent logged once, cpu 1"

	is "$(mcelogd_warnings "$mark")" "" "hotplug: journalctl -u mcelogd shows no warnings through offline and online"
	is "$(guest 'systemctl show -p NRestarts,ActiveState --value mcelogd.service | paste -sd" "')" "0 active" \
		"hotplug: mcelogd still active, never restarted"
}
