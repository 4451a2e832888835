# Issue 5: no loss across restarts.  Errors that happen while mcelogd is
# stopped are kept by the kernel in the trace instance the unit sets up, and
# logged at the next start exactly once; restarts and a crash (SIGKILL, then
# systemd's Restart=on-failure) log nothing twice.
VM_DESC="restart durability: errors while stopped logged once at start, no duplicates"
VM_APPEND="mcelogd_vm.check_interval=1"
# SIGKILLs mcelogd (systemd restarts it): after the boot's no-restart checks.
VM_LAST=1

# count_status ST: how many records with this STATUS mcectl shows.
count_status() { query_json | jq -c "select(.status == \"$1\")" | wc -l; }

scenario() {
	local before=0x9c000040aaaa0094 st out n i mark script
	mark=$(journal_mark)
	check "restart: the unit set up the trace instance" \
		guest "test \"\$(cat /sys/kernel/tracing/instances/mcelogd/events/mce/mce_record/enable)\" = 1"

	inject_sw cpu=0 bank=2 status=$before addr=0x1000 misc=0x86 >/dev/null
	check "restart: a record while running is logged" wait_records 1 ".status == \"$before\"" 30

	check "restart: systemctl stop mcelogd" guest "systemctl stop mcelogd"
	for i in 1 2 3; do
		st=$(printf '0x9c000040bbb%x0094' $i)
		inject_sw cpu=$((i % 2)) bank=$i status=$st addr=$((0x2000 * i)) misc=0x86 >/dev/null
	done
	# The kernel has emitted them into the instance (counted there, not by mcelogd).
	out=$(guest "for w in \$(seq 100); do
	n=\$(grep -c 'MC[0-9]: 9c000040bbb[123]0094' /sys/kernel/tracing/instances/mcelogd/trace)
	[ \$n -ge 3 ] && break; sleep 0.1; done; echo \$n")
	is "$out" 3 "restart: the kernel kept the 3 records injected while mcelogd was stopped"
	check "restart: systemctl start mcelogd" guest "systemctl start mcelogd"
	check "restart: all three are logged after the start" \
		wait_records 3 '(.status // "") | test("^0x9c000040bbb[123]0094$")' 30
	sleep 2
	n=$(query_json | jq -c 'select((.status // "") | test("^0x9c000040bbb[123]0094$"))' | wc -l)
	is "$n" 3 "restart: exactly three new records, no more"
	is "$(count_status $before)" 1 "restart: the record logged before the stop is not logged again"
	check "restart: the log says records were recovered" \
		guest "journalctl -u mcelogd -b --no-pager | grep -q 'Logged 3 machine-check record(s) the kernel kept'"

	out=$(guest "mcectl status --output json")
	is "$(jq -r '.sources[] | select(.name == "tracepoint") | .state' <<<"$out")" active \
		"restart: mcectl status (through the unit's control socket) shows the tracepoint active"
	is "$(jq -r '.sources[] | select(.name == "tracepoint") | .records' <<<"$out")" 3 \
		"restart: and counts the 3 recovered records for it"

	check "restart: systemctl restart mcelogd" guest "systemctl restart mcelogd"
	sleep 2
	n=$(query_json | jq -c 'select((.status // "") | test("^0x9c000040(aaaa|bbb[123])0094$"))' | wc -l)
	is "$n" 4 "restart: a plain restart logs nothing twice"

	# Records the kernel kept while mcelogd was stopped arrive all at once at start:
	# their arrival says nothing of when they happened, so they make no storm (issue 14 #5).
	check "restart: stop before a burst of one error signature" guest "systemctl stop mcelogd"
	script=
	for i in $(seq 1 25); do
		script+="$(sw_inject_script cpu=0 bank=3 status=0x9c000040e5e50094 addr=$((0x100000 + 0x1000 * i)) misc=0x86); "
	done
	guest "$script" >/dev/null
	check "restart: start after the burst" guest "systemctl start mcelogd"
	check "restart: all 25 records of one signature kept while stopped are logged one by one" \
		wait_records 25 '.status == "0x9c000040e5e50094"' 60
	is "$(query_json | jq -c 'select((.event == "storm_summary" or .event == "storm_end") and .code == "0xe5e50094")' | wc -l)" 0 \
		"restart: ... and counted in no storm"
	# The checks below count this process's records from zero.
	check "restart: systemctl restart mcelogd after the burst" guest "systemctl restart mcelogd"

	# A crash: records logged, then SIGKILL; systemd restarts the daemon.
	inject_sw cpu=1 bank=4 status=0x9c000040cccc0094 addr=0x5000 misc=0x86 >/dev/null
	check "restart: a record before the crash is logged" wait_records 1 '.status == "0x9c000040cccc0094"' 30
	sleep 1.5
	out=$(guest "systemctl show -p StatusText --value mcelogd")
	check "restart: STATUS= catches up with the count within a second ($out)" grep -q '; 1 records logged' <<<"$out"
	out=$(guest "pid=\$(systemctl show -p MainPID --value mcelogd); kill -9 \$pid
for w in \$(seq 100); do
	new=\$(systemctl show -p MainPID --value mcelogd)
	[ \"\$new\" != 0 ] && [ \"\$new\" != \"\$pid\" ] && systemctl is-active -q mcelogd && break
	sleep 0.1
done; systemctl is-active mcelogd")
	is "$out" active "restart: systemd restarted mcelogd after SIGKILL"
	sleep 2
	is "$(count_status 0x9c000040cccc0094)" 1 "restart: after the crash, the record is not logged twice"
	n=$(query_json | jq -c 'select((.status // "") | test("^0x9c000040(aaaa|bbb[123])0094$"))' | wc -l)
	is "$n" 4 "restart: nor any earlier one"
	# Early boot: mcelogd's first start in a boot finds records from before it
	# ran in the kernel's top-level buffer when "trace_event=mce:mce_record" is
	# on the command line.  Enabling the event by hand is the same for the
	# kernel; removing the cursor and the instance makes the next start a first
	# start in this boot.
	check "restart: simulate a fresh boot (stop, no cursor, no instance, top-level event on)" guest "
systemctl stop mcelogd
rm -f /var/lib/mcelogd/tracepoint.cursor
rmdir /sys/kernel/tracing/instances/mcelogd
echo > /sys/kernel/tracing/trace
echo 1 > /sys/kernel/tracing/events/mce/mce_record/enable"
	for i in 1 2; do
		inject_sw cpu=$((i % 2)) bank=5 status=$(printf '0x9c000040dddd%x094' $i) addr=0x6000 misc=0x86 >/dev/null
	done
	out=$(guest "for w in \$(seq 100); do
	n=\$(grep -c 'MC5: 9c000040dddd[12]094' /sys/kernel/tracing/trace); [ \$n -ge 2 ] && break; sleep 0.1; done; echo \$n")
	is "$out" 2 "restart: the kernel kept 2 early records in the top-level buffer"
	check "restart: start as if first in this boot" guest "systemctl start mcelogd"
	check "restart: both early records are logged" \
		wait_records 2 '(.status // "") | test("^0x9c000040dddd[12]094$")' 30
	check "restart: systemctl restart mcelogd (not a first start any more)" guest "systemctl restart mcelogd"
	sleep 2
	n=$(query_json | jq -c 'select((.status // "") | test("^0x9c000040(aaaa0094|bbb[123]0094|cccc0094|dddd[12]094)$"))' | wc -l)
	is "$n" 7 "restart: every record exactly once after all of this"

	out=$(mcelogd_warnings "$mark" | grep -v 'mcelogd.service: Main process exited, code=killed' |
	      grep -v "mcelogd.service: Failed with result 'signal'")
	is "$out" "" "restart: no warnings from mcelogd"

	# A damaged cursor file is named (file and line) and ignored: what the kernel
	# kept is logged again rather than skipped, so nothing is lost.
	mark=$(journal_mark)
	check "restart: stop, and damage the cursor" \
		guest "systemctl stop mcelogd; printf 'boot_id nonsense\n' >/var/lib/mcelogd/tracepoint.cursor"
	inject_sw cpu=0 bank=6 status=0x9c000040eeee0094 addr=0x7000 misc=0x86 >/dev/null
	check "restart: start with the damaged cursor" guest "systemctl start mcelogd"
	check "restart: the record injected while stopped is logged all the same" \
		wait_records 1 '.status == "0x9c000040eeee0094"' 30
	out=$(mcelogd_warnings "$mark")
	check "restart: the warning names the cursor file and line ($out)" \
		grep -q 'tracepoint.cursor:1: damaged cursor, ignoring it' <<<"$out"

	# The recovery reads the instance's text, whose lines name their CPU only
	# with the context-info option on (issue 14 #14): switched off while
	# mcelogd is stopped, each start puts it back before reading.
	local opt=/sys/kernel/tracing/instances/mcelogd/options/context-info
	check "restart: stop, and switch the instance's context-info option off" \
		guest "systemctl stop mcelogd; echo 0 >$opt; [ \$(cat $opt) = 0 ]"
	inject_sw cpu=1 bank=6 status=0x9c000040efef0094 addr=0x7000 misc=0x86 >/dev/null
	check "restart: start" guest "systemctl start mcelogd"
	check "restart: the record kept while stopped is logged all the same" \
		wait_records 1 '.status == "0x9c000040efef0094"' 30
	is "$(guest "cat $opt")" 1 "restart: the start set context-info back on"
	check "restart: and said so" guest \
		"journalctl -b -u mcelogd -o cat | grep -q 'Trace instance option context-info was changed; set back to 1'"
}
