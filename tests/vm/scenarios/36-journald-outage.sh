# Issue 11 #1: a journald outage loses nothing.  journald (its sockets and
# service) is stopped during a burst of injected errors: mcelogd keeps every
# record it cannot hand over in its spool under /var/lib/mcelogd, says so in
# mcectl status, and when journald is back hands them over, in order, once.
VM_DESC="journald outage: records kept in the spool, logged once when journald is back"
VM_APPEND="mcelogd_vm.check_interval=1"
# Stops journald, and mcelogd warns while it is gone: after the boot's
# no-warning checks, in the first boot (a boot of its own cost CI about 50 s).
VM_LAST=1

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
	script="kill -STOP $pid; "
	for i in $(seq 1 $n); do
		script+="taskset -c $((i % 2)) bash -c '$(sw_inject_script cpu=$((i % 2)) bank=2 status=$(printf '0x9c000040%04x0096' "$i") addr=$((0x200000 + 0x1000 * i)) misc=0x86)'; "
	done
	guest "$script sleep 1; kill -CONT $pid" >/dev/null
	# The kernel agrees that both CPUs emitted them: its trace instance for
	# mcelogd records each event in the buffer of the CPU that emitted it.
	out=$(guest "for c in 0 1; do grep -c ': 9c000040[0-9a-f]\\{4\\}0096' \
		/sys/kernel/tracing/instances/mcelogd/per_cpu/cpu\$c/trace; done | tr '\n' ' '")
	note "records in the trace instance's CPU 0 and CPU 1 buffers: $out"
	if [ "$(awk '{ print ($1 > 0 && $2 > 0) }' <<<"$out")" = 1 ]; then
		ok "outage: the records were emitted on both CPUs"
	else not_ok "outage: the records were emitted on both CPUs"; fi
	out=$(guest "for w in \$(seq 150); do
		n=\$(mcectl status --output json | jq '.sinks[] | select(.name == \"journal\") | .spool.entries')
		[ \"\${n:-0}\" -ge $n ] && break; sleep 0.2; done; echo \${n:-0}")
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
	local conf m=150 ucna=0xbc000000000a0099 ind lost
	conf=$(guest 'mcelogd --help | sed -n "s/.*configuration file (default \(.*\))\$/\1/p"')
	check "outage: SpoolSize=64K, reloaded" guest "
cp '$conf' /run/mcelogd.conf.outage && printf '[Output]\nSpoolSize=64K\n' >>'$conf' &&
mcelogd --test-config -c '$conf' && systemctl reload mcelogd.service"
	check "outage: journald stopped again" guest "systemctl stop $units"
	script=
	for i in 1 2 3; do
		script+="$(sw_inject_script cpu=0 bank=$((i + 3)) status=$ucna addr=$((0x500000 + 0x1000 * i)) misc=0x86); "
	done
	for i in $(seq 1 $m); do
		script+="$(sw_inject_script cpu=$((i % 2)) bank=$((i % 3)) status=$(printf '0x9c000040%04x0098' "$i") addr=$((0x600000 + 0x1000 * i)) misc=0x86); "
	done
	guest "$script" >/dev/null
	out=$(guest "for w in \$(seq 300); do
		s=\$(mcectl status --output json | jq '.sinks[] | select(.name == \"journal\") | .spool')
		[ \"\$(jq '.spooled' <<<\"\$s\")\" -ge $((m + 3)) ] && break; sleep 0.2; done; jq -c . <<<\"\$s\"")
	note "spool: $out"
	if [ "$(jq '.summarised' <<<"$out")" -gt 0 ] && [ "$(jq '.bytes' <<<"$out")" -le 65536 ]; then
		ok "outage: the full spool summarised its oldest corrected records and stayed within 64 KiB"
	else not_ok "outage: the full spool summarised its oldest corrected records and stayed within 64 KiB"; fi
	check "outage: journald started again" guest "systemctl start $units"
	check "outage: the three uncorrected records reach the journal" wait_records 3 ".status == \"$ucna\"" 60
	guest "for w in \$(seq 100); do
		[ \"\$(mcectl status --output json | jq '.sinks[] | select(.name == \"journal\") | .spool.entries')\" = 0 ] && break
		sleep 0.2; done" >/dev/null
	ind=$(query_json | jq -r 'select((.status // "") | test("^0x9c000040[0-9a-f]{4}0098$")) | .status' | sort -u | wc -l)
	lost=$(guest "journalctl -b -o json MESSAGE_ID=$(msgid LOST) MCE_SOURCE=journal_spool | jq -s 'map(.MCE_LOST | tonumber) | add // 0'")
	note "corrected records logged one by one: $ind; counted in spool summaries: $lost"
	is "$((ind + lost))" "$m" "outage: every corrected record is in the journal or counted in a spool summary"
	if [ "$((ind + lost))" != "$m" ]; then
		guest "journalctl -b -o json MESSAGE_ID=$(msgid CORRECTED) | jq -r .MCE_STATUS | grep -c '0098\$'
journalctl -b -o json MESSAGE_ID=$(msgid CORRECTED) | jq -c 'select(.MCE_STATUS | test(\"0098\$\")) | [._COMM, ._UID, (.MCE_JSON | length), .MCE_STATUS]' | head -n 12
mcectl query --since 1h --output json 2>&1 >/dev/null | head -n 3
journalctl -b -u mcelogd --no-pager -o cat | grep -v 'reached its' | tail -n 5
journalctl -b --no-pager -o cat _COMM=systemd-journal | tail -n 5" | diag
	fi
	check "outage: configuration restored" guest "cp /run/mcelogd.conf.outage '$conf' && systemctl reload mcelogd.service"
}
