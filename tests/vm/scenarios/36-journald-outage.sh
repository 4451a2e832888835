# Issue 11 #1: a journald outage loses nothing.  journald (its sockets and
# service) is stopped during a burst of injected errors: mcelogd keeps every
# record it cannot hand over in its spool under /var/lib/mcelogd, says so in
# mcectl status, and when journald is back hands them over, in order, once.
VM_DESC="journald outage: records kept in the spool, logged once when journald is back"
VM_APPEND="mcelogd_vm.check_interval=1 mcelogd_vm.outage=1"

scenario() {
	local n=40 i script out
	local units="systemd-journald.socket systemd-journald-dev-log.socket systemd-journald.service"

	check "outage: journald stopped (its sockets and service)" guest "
		systemctl stop $units && ! systemctl is-active -q systemd-journald.service"
	script=
	for i in $(seq 1 $n); do
		script+="$(sw_inject_script cpu=$((i % 2)) bank=2 status=$(printf '0x9c000040%04x0096' "$i") addr=$((0x200000 + 0x1000 * i)) misc=0x86); "
	done
	guest "$script" >/dev/null
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
}
