# Issue 11 #2: storm counts survive a crash.  During a storm mcelogd counts
# records instead of logging them, and writes the counts in a summary every
# SummaryInterval.  It is killed with SIGKILL between two summaries, so some
# counted records are in no summary yet.  They must not be lost: the restart
# cursor stays before a counted record until its summary is written, so the
# next start logs such records on their own.  Every record the kernel emitted
# is accounted for exactly once: individual records + summary counts == the
# kernel's count, and no record is logged on its own twice.
VM_DESC="crash mid-storm: SIGKILL between storm summaries, every record still counted once"
VM_APPEND="mcelogd_vm.check_interval=1"
# SIGKILLs mcelogd (systemd restarts it): after the boot's no-restart checks.
VM_LAST=1

. "$srcdir/tests/vm/lib/storm.sh"

scenario() {
	local n=3000 st=0x9c00004000c70094 code=0x00c70094 conf out kernel counts since
	local ind nsum sum nend etotal reason all distinct
	conf=$(guest 'mcelogd --help | sed -n "s/.*configuration file (default \(.*\))\$/\1/p"')
	# Summaries every 5 s: a kill lands between two of them with counts pending.
	check "crash-storm: storm timings SummaryInterval=5s QuietTime=3s, reloaded" guest "
cp '$conf' /run/mcelogd.conf.saved && printf '[Storm]\nSummaryInterval=5s\nQuietTime=3s\n' >>'$conf' &&
mcelogd --test-config -c '$conf' && systemctl reload mcelogd.service"
	since=@$(guest 'date +%s')
	check "crash-storm: the injector starts (its own unit)" guest "
cat >/run/crash-storm.sh <<'EOF'
$(storm_inject $n $st /run/crash-storm.pause)
EOF
rm -f /run/crash-storm.out /run/crash-storm.pause
# A counting instance left by an earlier scenario would be read before this injector clears it.
rmdir /sys/kernel/tracing/instances/vmcount 2>/dev/null
systemd-run --quiet --unit=crash-storm bash -c 'bash /run/crash-storm.sh >/run/crash-storm.out 2>&1'"
	# Kill when the storm has been counting for a while (well past its first
	# summary), at no particular point between two summaries.
	# The injector makes the counting instance: wait until it counts (its event
	# enabled), and read a stats file that is not there yet as 0, never as an
	# empty number (which once killed mcelogd "at 0", before any storm).
	out=$(guest "t=/sys/kernel/tracing/instances/vmcount
for w in \$(seq 600); do [ \"\$(cat \$t/events/mce/mce_record/enable 2>/dev/null)\" = 1 ] && break; sleep 0.05; done
count() { c=0; local f v; for f in \$t/per_cpu/cpu*/stats; do
	v=\$(sed -n 's/^entries: //p' \$f 2>/dev/null); c=\$((c + \${v:-0})); done; }
for w in \$(seq 1200); do count; [ \$c -ge $((n / 2)) ] && break; sleep 0.05; done
[ \$c -ge $((n / 2)) ] || { echo \"no storm to kill: \$c records counted in \$t\"; exit 0; }
pending=\$(mcectl status --output json | jq '[.storms.list[]?.pending // 0] | add // 0')
pid=\$(systemctl show -p MainPID --value mcelogd)
# The injector waits while mcelogd is down: what happens while it is stopped is
# 35-restart's; here the storm must go on in the new process.
touch /run/crash-storm.pause
kill -9 \$pid && echo \"killed \$pid at \$c, pending \$pending\"
for w in \$(seq 300); do
	new=\$(systemctl show -p MainPID --value mcelogd)
	[ \"\$new\" != 0 ] && [ \"\$new\" != \$pid ] &&
		mcectl status --output json 2>/dev/null | grep -q '\"name\":\"tracepoint\",\"state\":\"active\"' && break
	sleep 0.1
done
rm -f /run/crash-storm.pause" 90)
	note "$out"
	check "crash-storm: mcelogd was killed mid-storm ($out)" grep -q '^killed' <<<"$out"
	out=$(guest "for w in \$(seq 1200); do [ -s /run/crash-storm.out ] && break; sleep 0.1; done; cat /run/crash-storm.out" 150)
	note "$out"
	kernel=$(sed -n 's/.* kernel=\([0-9]*\).*/\1/p' <<<"$out")
	is "$kernel" "$n" "crash-storm: the kernel emitted $n records (counted in tracefs instance vmcount)"
	check "crash-storm: systemd restarted mcelogd" guest "
for w in \$(seq 100); do systemctl is-active -q mcelogd && break; sleep 0.1; done; systemctl is-active -q mcelogd"
	check "crash-storm: the storm after the restart ends" wait_storm_end "$since" $code 300
	counts=$(storm_counts "$since" $code $st)
	note "journal: individual summaries summed ends end_total reason all_entries = $counts"
	read -r ind nsum sum nend etotal reason all <<<"$counts"
	is "$((ind + sum))" "$kernel" "crash-storm: individual + sum of summary counts == the kernel's count"
	# The killed process's storm is closed at the next start from its saved counts.
	out=$(guest "journalctl --since '$since' -o json --no-pager SYSLOG_IDENTIFIER=mcelogd MESSAGE_ID=$(msgid STORM_END) \
		MCE_STORM_CODE=$code MCE_STORM_REASON=crash | jq -r .MCE_STORM_TOTAL")
	if [ -n "$out" ] && [ "$out" -gt 0 ]; then ok "crash-storm: the killed storm got an end with reason crash (total $out)"
	else not_ok "crash-storm: the killed storm got an end with reason crash (got '$out')"; fi
	distinct=$(guest "journalctl --since '$since' -o json --no-pager SYSLOG_IDENTIFIER=mcelogd MESSAGE_ID=$(msgid CORRECTED) |
		jq -r 'select(.MCE_STATUS == \"$st\") | .MCE_ADDR' | sort -u | wc -l")
	is "$distinct" "$ind" "crash-storm: no record logged on its own twice ($ind individual, $distinct addresses)"
	check "crash-storm: configuration restored" guest "cp /run/mcelogd.conf.saved '$conf' && systemctl reload mcelogd.service"
}
