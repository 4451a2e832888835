# Issue 25, item 3: corrected errors on 64 CPUs at once, beside Debian's
# rasdaemon in the same guest.  Each round writes one CE into bank 3 of every
# CPU through the QEMU monitor (64 commands in well under a second); each
# CPU's own poller finds it within the next second, so 64 CPUs report within
# about one second, from 64 rings.  ROUNDS rounds, then:
#   every error is accounted for, once: records logged one by one plus what
#   storm summaries counted equal what was injected (and what the kernel
#   printed); rasdaemon's SQLite rows are shown beside it;
#   per CPU the records come in the order injected (the address carries the
#   round);
#   the CPU time each daemon spent per error.
VM_DESC="64 vCPUs: corrected errors on every CPU at once, counted exactly, beside rasdaemon"
VM_CPU="qemu64,+mce,+mca,vendor=GenuineIntel,family=6,model=63,stepping=2"
VM_SMP=64
VM_APPEND="mcelogd_vm.check_interval=1"
ROUNDS=${MCELOGD_STORM_ROUNDS:-5}

stats() { # stats UNIT: "cpu_ticks" of its main process
	guest "pid=\$(systemctl show -p MainPID --value $1); read -r -a st </proc/\$pid/stat; echo \$((st[13] + st[14]))"
}

scenario() {
	local st=0x9c00004000010092 code n=$((ROUNDS * 64)) since hz m0 m1 r0 r1 out ras got order mcpu rcpu
	code=0x00010092
	out=$(guest "systemctl start rasdaemon.service; for i in \$(seq 150); do
		[ \"\$(cat /sys/kernel/tracing/instances/rasdaemon/events/mce/mce_record/enable 2>/dev/null)\" = 1 ] && exit 0
		sleep 0.2; done; journalctl -u rasdaemon --no-pager | tail -n 5; exit 1" 60)
	is "$?" 0 "many-cpus storm: rasdaemon started and reads mce:mce_record"
	hz=$(guest 'getconf CLK_TCK')
	since=@$(guest 'date +%s')
	m0=$(stats mcelogd) r0=$(stats rasdaemon)
	for round in $(seq 0 $((ROUNDS - 1))); do
		for cpu in $(seq 0 63); do
			hmp "mce $cpu 3 $st 0 $(printf '0x%x' $((0x40000000 + (round * 64 + cpu) * 4096))) 0x86" >/dev/null ||
				not_ok "many-cpus storm: QEMU refused mce on CPU $cpu"
		done
		sleep 2.5 # every CPU's poller runs once a second: the banks are free again
	done
	# Wait until the kernel's count and mcelogd's count settle.
	out=$(guest "for i in \$(seq 240); do
	k=\$(journalctl -k --since '$since' -o cat --no-pager | grep -c 'Bank 3: ${st#0x}')
	j=\$(journalctl --since '$since' -o json --no-pager SYSLOG_IDENTIFIER=mcelogd MCE_STATUS=$st | wc -l)
	[ \$k -ge $n ] && [ \$j -ge $n ] && break; sleep 0.5; done; echo \$k" 200)
	is "$out" "$n" "many-cpus storm: the kernel logged all $n errors ($ROUNDS rounds of 64 CPUs)"
	# Individually logged plus what storm summaries counted: every error once.
	got=$(guest "mcectl query --since '$since' --output json | jq -s '(map(select(.status == \"$st\")) | length) +
		(map(select(.event == \"storm_summary\" and .code == \"$code\")) | map(.count) | add // 0)'")
	is "$got" "$n" "many-cpus storm: mcelogd accounts for every error exactly once"
	order=$(guest "mcectl query --since '$since' --output json | jq -s -r 'map(select(.status == \"$st\")) |
		group_by(.cpu) | map(map(.addr) as \$a | \$a == (\$a | sort)) | all'")
	is "$order" true "many-cpus storm: on every CPU the records come in the order injected"
	check "many-cpus storm: every CPU's errors were logged from that CPU" guest "
		mcectl query --since '$since' --output json | jq -s -e 'map(select(.status == \"$st\") | .cpu) | unique | length == 64'"
	sleep 5
	ras=$(guest "sqlite3 /var/lib/rasdaemon/ras-mc_event.db 'select count(*) from mce_record' 2>/dev/null || echo ?")
	m1=$(stats mcelogd) r1=$(stats rasdaemon)
	mcpu=$(awk -v a="$m0" -v b="$m1" -v hz="$hz" -v n="$n" 'BEGIN { printf "%.2f", (b - a) / hz * 1000 / n }')
	rcpu=$(awk -v a="$r0" -v b="$r1" -v hz="$hz" -v n="$n" 'BEGIN { printf "%.2f", (b - a) / hz * 1000 / n }')
	note "many-cpus storm: $n errors on 64 CPUs: mcelogd accounted $got, $mcpu ms CPU per error; rasdaemon stored $ras rows, $rcpu ms CPU per error"
	check "many-cpus storm: rasdaemon stopped" guest "systemctl stop rasdaemon.service"
}
