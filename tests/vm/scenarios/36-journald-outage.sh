# Issue 11 #1: a journald outage loses nothing.  journald (its sockets and
# service) is stopped during a burst of injected errors: mcelogd keeps every
# record it cannot hand over in its spool under /var/lib/mcelogd, says so in
# mcectl status, and when journald is back hands them over, in order, once.
VM_DESC="journald outage: records kept in the spool, logged once when journald is back"
VM_APPEND="mcelogd_vm.check_interval=1"
# Stops journald, and mcelogd warns while it is gone: after the boot's
# no-warning checks, in the first boot (a boot of its own cost CI about 50 s).
VM_LAST=1

. "$srcdir/tests/vm/lib/burst.sh"

scenario() {
	local n=40 i script out pid
	local units="systemd-journald.socket systemd-journald-dev-log.socket systemd-journald.service"

	check "outage: journald stopped (its sockets and service)" guest "
		systemctl stop $units && ! systemctl is-active -q systemd-journald.service"
	# On both CPUs, each from its own CPU: the kernel's work item drains its
	# record pool on the CPU that logged, so the records alternate between the
	# two CPUs' rings, and only mcelogd's merge of the rings by sample time
	# puts them back in the order injected.  mcelogd is stopped meanwhile (as
	# when it is busy syncing its spool): otherwise it reads each record as it
	# comes, and the order would hold even read ring by ring.
	pid=$(guest 'systemctl show -p MainPID --value mcelogd.service')
	# A loaded host makes the 40 injections slow: a limit of their own, and
	# mcelogd continued even if the script is cut short.
	script="trap 'kill -CONT $pid' EXIT; kill -STOP $pid; "
	for i in $(seq 1 $n); do
		script+="taskset -c $((i % 2)) bash -c '$(sw_inject_script cpu=$((i % 2)) bank=2 status=$(printf '0x9c000040%04x0096' "$i") addr=$((0x200000 + 0x1000 * i)) misc=0x86)'; "
	done
	guest "$script sleep 1" 300 >/dev/null
	# The kernel agrees that both CPUs emitted them: its trace instance for
	# mcelogd records each event in the buffer of the CPU that emitted it.
	out=$(guest "for c in 0 1; do grep -c ': 9c000040[0-9a-f]\\{4\\}0096' \
		/sys/kernel/tracing/instances/mcelogd/per_cpu/cpu\$c/trace; done | tr '\n' ' '")
	note "records in the trace instance's CPU 0 and CPU 1 buffers: $out"
	if [ "$(awk '{ print ($1 > 0 && $2 > 0) }' <<<"$out")" = 1 ]; then
		ok "outage: the records were emitted on both CPUs"
	else not_ok "outage: the records were emitted on both CPUs"; fi
	out=$(guest "end=\$((SECONDS + 60)); while :; do
		n=\$(mcectl status --output json | jq '.sinks[] | select(.name == \"journal\") | .spool.entries')
		[ \"\${n:-0}\" -ge $n ] || [ \$SECONDS -ge \$end ] && break; sleep 0.2; done; echo \${n:-0}" 90)
	is "$out" "$n" "outage: mcelogd kept all $n records in its spool while journald was down"
	is "$(guest "mcectl status --output json | jq '.sink_failures'")" 0 "outage: ... and counted no sink failure"

	check "outage: journald started again" guest "systemctl start $units"
	check "outage: every record reaches the journal once journald is back" \
		wait_records $n '(.status // "") | test("^0x9c000040[0-9a-f]{4}0096$")' 60
	sleep 3   # a retry or two: time for anything to arrive twice
	out=$(query_json | jq -r 'select((.status // "") | test("^0x9c000040[0-9a-f]{4}0096$")) | .status' | sort)
	is "$(wc -l <<<"$out") $(sort -u <<<"$out" | wc -l)" "$n $n" "outage: $n records, each exactly once"
	is "$(guest "mcectl status --output json | jq '.sinks[] | select(.name == \"journal\") | .spool.entries'")" 0 \
		"outage: the spool is empty again"
	# In order: the journal's order of the records is the order they were injected.
	is "$(query_json | jq -r 'select((.status // "") | test("^0x9c000040[0-9a-f]{4}0096$")) | .status' | tr '\n' ' ')" \
		"$(for i in $(seq 1 $n); do printf '0x9c000040%04x0096 ' "$i"; done)" "outage: in the order they happened"

	# A bounded spool (SpoolSize=64K, room for a few dozen entries): a long outage
	# makes the oldest corrected records leave it, their counts kept in summary
	# entries; uncorrected ones (UCNA: UC=1, PCC=0; the oldest here) always stay.
	local conf m=150 ucna=0xbc000000000a0099 ind lost kernel
	conf=$(guest 'mcelogd --help | sed -n "s/.*configuration file (default \(.*\))\$/\1/p"')
	check "outage: SpoolSize=64K, reloaded" guest "
cp '$conf' /run/mcelogd.conf.outage && printf '[Output]\nSpoolSize=64K\n' >>'$conf' &&
mcelogd --test-config -c '$conf' && systemctl reload mcelogd.service"
	check "outage: journald stopped again" guest "systemctl stop $units"
	script=
	for i in 1 2 3; do
		script+="$(sw_inject_script cpu=0 bank=$((i + 3)) status=$ucna addr=$((0x500000 + 0x1000 * i)) misc=0x86); "
	done
	guest "$script" >/dev/null
	# Paced (lib/burst.sh): unpaced, a fast guest outran the kernel's record
	# pool ("MCE records pool full!"), which dropped records before anyone saw
	# them.  The kernel's own count of what it emitted is the reference.
	out=$(guest "$(burst_inject $m 0098 0x600000)" 300)
	note "$out"
	kernel=$(guest "grep -c 'MC[0-9]: 9c000040[0-9a-f]\{4\}0098' /sys/kernel/tracing/trace")
	is "$kernel" "$m" "outage: the kernel emitted all $m corrected records"
	# What mcelogd took (kept in the spool, or refused by it full and counted),
	# its status printed whatever happens, within the guest command's limit.
	out=$(guest "end=\$((SECONDS + 60)); while :; do
		s=\$(mcectl status --output json 2>/run/status.err | jq -c '.sinks[] | select(.name == \"journal\") | .spool')
		[ \"\$(jq '(.spooled // 0) + (.refused // 0)' <<<\"\${s:-null}\")\" -ge $((m + 3)) ] ||
			[ \$SECONDS -ge \$end ] && break
		sleep 0.2
	done
	echo \"\${s:-no answer: \$(head -c 300 /run/status.err)}\"" 90)
	note "spool: $out"
	if [ "$(jq '(.summarised // 0) > 0 and (.bytes // 65537) <= 65536' <<<"$out" 2>/dev/null)" = true ]; then
		ok "outage: the full spool summarised its oldest corrected records and stayed within 64 KiB"
	else not_ok "outage: the full spool summarised its oldest corrected records and stayed within 64 KiB"; fi
	check "outage: journald started again" guest "systemctl start $units"
	check "outage: the three uncorrected records reach the journal" wait_records 3 ".status == \"$ucna\"" 60
	# Until every corrected record is in the journal, on its own or counted in a
	# spool summary there (or 60 s): the spool hands over every 2 s.
	out=$(guest "end=\$((SECONDS + 60)); while :; do
		ind=\$(journalctl -b -o json MESSAGE_ID=$(msgid CORRECTED) _COMM=mcelogd | jq -r .MCE_STATUS | grep '0098\$' | sort -u | wc -l)
		lost=\$(journalctl -b -o json MESSAGE_ID=$(msgid LOST) MCE_SOURCE=journal_spool | jq -s 'map(.MCE_LOST | tonumber) | add // 0')
		[ \$((ind + lost)) -ge $m ] || [ \$SECONDS -ge \$end ] && break
		sleep 0.5
	done
	echo \$ind \$lost" 90)
	read -r ind lost <<<"$(tail -n 1 <<<"$out")"
	# Numbers, or say what came instead (never a shell error on what the guest printed).
	[[ $ind =~ ^[0-9]+$ && $lost =~ ^[0-9]+$ ]] || { note "counting gave: $out"; ind=0 lost=0; }
	note "corrected records: the kernel emitted $kernel; logged one by one: $ind; counted in spool summaries: $lost; missing: $((m - ind - lost))"
	is "$((ind + lost))" "$m" "outage: every corrected record is in the journal or counted in a spool summary"
	# mcectl query shows the same records (late entries, by their own time).
	is "$(query_json | jq -r 'select((.status // "") | test("^0x9c000040[0-9a-f]{4}0098$")) | .status' | sort -u | wc -l)" \
		"$ind" "outage: mcectl query shows the corrected records logged one by one"
	if [ "$((ind + lost))" != "$m" ]; then
		guest "mcectl status --output json | jq -c '.sinks[] | select(.name == \"journal\") | .spool'
mcectl status --output json | jq -c '.sources[] | select(.records > 0 or .lost > 0)'
dmesg | grep -i 'pool full\|lost' | head -n 3
journalctl -b -o json MESSAGE_ID=$(msgid LOST) | jq -c '[.MCE_SOURCE, .MCE_LOST]' | sort | uniq -c
journalctl -b -u mcelogd --no-pager -o cat | grep -v 'is full: \|reached its' | tail -n 5
journalctl -b --no-pager -o cat _COMM=systemd-journal | tail -n 5" | diag
	fi
	check "outage: configuration restored" guest "cp /run/mcelogd.conf.outage '$conf' && systemctl reload mcelogd.service"
}
