# mce=ignore_ce: the kernel neither polls nor logs corrected errors; they
# stay in the banks, and mcelogd polls them itself through /dev/cpu/N/msr
# (issue 5).  With msr.allow_writes=on and the msr-clear.conf drop-in (the
# shipped unit opens the devices read-only) it clears each bank after logging it.
# Shown: the kernel logs nothing, mcelogd logs each error exactly once with
# source msr_poll and the injected registers, the bank reads 0 afterwards, and
# the same error injected again is a new record.
VM_DESC="mce=ignore_ce: mcelogd polls the banks (MSR), logs once, clears"
VM_CPU="qemu64,+mce,+mca,vendor=AuthenticAMD,family=23,model=49,stepping=0"
VM_SMP=2
VM_APPEND="mce=ignore_ce msr.allow_writes=on"

# rdmsr CPU MSR: the guest's view of one MSR, 16 hex digits.
rdmsr() {
	guest "dd if=/dev/cpu/$1/msr bs=8 count=1 skip=\$(($2)) iflag=skip_bytes status=none | od -An -tx8 | tr -d ' '"
}

# msr_poll_interval SPAN: the installed configuration with MSRPollInterval=SPAN, reloaded.
msr_poll_interval() {
	guest "conf=\$(mcelogd --help | sed -n 's/.*configuration file (default \(.*\))/\1/p')
mkdir -p \"\${conf%/*}\"
printf '[Sources]\nMSRPoll=auto\nMSRPollInterval=$1\n' >\"\$conf\"
mcelogd --test-config >/dev/null && systemctl reload mcelogd.service"
}

scenario() {
	local st=0x9c00004000050095 st2=0x9000004000010092 addr=0x0000000000077000 misc=0x0000000000000086
	local st3=0x9c00004000010093 recs rec mark mark2 n out
	is "$(guest 'cat /sys/devices/system/machinecheck/machinecheck0/ignore_ce')" 1 "ignore_ce: set in sysfs"
	is "$(guest 'cat /sys/module/msr/parameters/allow_writes')" on "ignore_ce: msr.allow_writes=on"
	# The shipped unit keeps the MSR devices read-only (allow_writes=default would let any
	# write through); clearing needs the documented drop-in as well (mcelogd(8) SANDBOX).
	check "ignore_ce: under the shipped unit mcelogd cannot clear, and says the device is read-only" guest "
		for i in \$(seq 40); do journalctl -u mcelogd.service -o cat |
			grep 'not clearing: /dev/cpu/[0-9]*/msr opens read-only here' && exit 0
			sleep 0.25; done; exit 1"
	check "ignore_ce: the msr-clear.conf drop-in installed, mcelogd restarted" guest '
		f=$(ls /usr/local/share/mcelogd/drop-ins/msr-clear.conf /usr/share/mcelogd/drop-ins/msr-clear.conf 2>/dev/null | head -n1)
		[ -n "$f" ] && mkdir -p /etc/systemd/system/mcelogd.service.d &&
		cp "$f" /etc/systemd/system/mcelogd.service.d/ && systemctl daemon-reload &&
		systemctl restart mcelogd.service'
	mark=$(journal_mark)
	check "ignore_ce: MSRPollInterval=2s and reload" msr_poll_interval 2s
	check "ignore_ce: mcelogd says what it polls, how often, at what cost, and that it clears" guest "
		for i in \$(seq 40); do journalctl --cursor='$mark' -u mcelogd.service -o cat |
			grep 'MSR polling: polling 10 banks on 2 CPUs every 2s, 20 reads/round; clearing corrected errors' && exit 0
			sleep 0.25; done; exit 1"

	guest 'echo >/sys/kernel/tracing/trace; echo 1 >/sys/kernel/tracing/events/mce/mce_record/enable' >/dev/null
	check "ignore_ce: QEMU accepts mce 1 4 $st" inject_monitor 1 4 $st 0 $addr $misc
	check "ignore_ce: QEMU accepts mce 0 2 $st2 (VAL EN, no ADDRV/MISCV)" inject_monitor 0 2 $st2 0 0x1000 0x2
	check "ignore_ce: the kernel logs nothing (no mce_record event in 3 s)" guest '
		sleep 3; ! grep -q "9c00004000050095\|9000004000010092" /sys/kernel/tracing/trace'
	guest 'echo 0 >/sys/kernel/tracing/events/mce/mce_record/enable' >/dev/null

	recs=$(wait_records 1 ".status == \"$st\"" 20)
	check "ignore_ce: mcelogd found the error by polling the banks" test -n "$recs"
	sleep 5 # two more rounds: time for a duplicate to show
	n=$(query_json | jq -c "select(.status == \"$st\")" | wc -l)
	is "$n" 1 "ignore_ce: logged exactly once over several rounds"
	rec=$(query_json | jq -c "select(.status == \"$st\")" | head -n1)
	is "$(jq -c '[.source, .cpu, .bank, .status, .addr, .misc, .vendor, .family, .model]' <<<"$rec")" \
		"[\"msr_poll\",1,4,\"$st\",\"$addr\",\"$misc\",\"amd\",23,49]" \
		"ignore_ce: source msr_poll, cpu, bank, status, addr, misc and CPU identity as injected"
	# MISCV and ADDRV clear: those registers are not part of the record.
	is "$(query_json | jq -c "select(.status == \"$st2\") | [.source, .cpu, .bank, has(\"addr\"), has(\"misc\")]")" \
		'["msr_poll",0,2,false,false]' "ignore_ce: the other CPU's bank, ADDR/MISC absent when not valid"
	is "$(rdmsr 1 0x411)" 0000000000000000 "ignore_ce: MC4_STATUS on CPU 1 reads 0 after logging (cleared)"
	is "$(rdmsr 0 0x409)" 0000000000000000 "ignore_ce: MC2_STATUS on CPU 0 reads 0 after logging (cleared)"

	# Cleared, so the same registers again are a new error, logged again.
	check "ignore_ce: QEMU accepts the same mce 1 4 $st again" inject_monitor 1 4 $st 0 $addr $misc
	check "ignore_ce: the repeated error is a second record" wait_records 2 ".status == \"$st\"" 20
	out=$(guest 'mcectl status' 2>&1)
	check "ignore_ce: mcectl status shows msr_poll active with its plan, cost and clearing" \
		grep -E '^msr_poll +active +3 +0 .*polling 10 banks on 2 CPUs every 2s, [0-9]+ reads/round; clearing corrected errors' <<<"$out"
	grep '^msr_poll' <<<"$out" | diag
	out=$(guest 'sleep 1.5; systemctl show -p StatusText --value mcelogd')
	check "ignore_ce: STATUS= says the banks are polled and counts the 3 records ($out)" \
		grep -q 'Polling MCA banks; 3 records logged' <<<"$out"

	# CPU hotplug: the online list is re-read each round, the plan follows it.
	mark2=$(journal_mark)
	check "ignore_ce: CPU 1 taken offline" guest 'echo 0 >/sys/devices/system/cpu/cpu1/online'
	check "ignore_ce: the next round polls CPU 0 only" guest "
		for i in \$(seq 40); do journalctl --cursor='$mark2' -u mcelogd.service -o cat |
			grep 'MSR polling: polling 10 banks on 1 CPU every 2s, 10 reads/round' && exit 0
			sleep 0.25; done; exit 1"
	check "ignore_ce: CPU 1 back online" guest 'echo 1 >/sys/devices/system/cpu/cpu1/online'
	check "ignore_ce: ... and polled again" guest "
		for i in \$(seq 40); do journalctl --cursor='$mark2' -u mcelogd.service -o cat |
			grep 'MSR polling: polling 10 banks on 2 CPUs every 2s, 20 reads/round' && exit 0
			sleep 0.25; done; exit 1"
	check "ignore_ce: QEMU accepts mce 1 3 $st3 after the hotplug" inject_monitor 1 3 $st3 0 0x3000 0x86
	check "ignore_ce: an error on the re-onlined CPU is logged" \
		wait_records 1 ".status == \"$st3\" and .cpu == 1 and .bank == 3" 20
	is "$(mcelogd_warnings "$mark")" "" "ignore_ce: mcelogd logged no warnings while polling"
	check "ignore_ce: MSRPollInterval=0 is refused by --test-config, naming file, line and key" guest "
		printf '[Sources]\nMSRPollInterval=0\n' >/run/bad.conf
		out=\$(mcelogd --test-config -c /run/bad.conf 2>&1); rc=\$?; echo \"\$out\"
		[ \$rc -ne 0 ] && grep -q 'bad.conf:2: bad value for MSRPollInterval=' <<<\"\$out\""
}
