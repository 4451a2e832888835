# Issue 5, "Storms": a corrected-error storm of 6,000 records (20,000 with
# MCELOGD_VM_STORM=20000) of one
# signature (CPU 1, bank 1, STATUS[31:0] 0x04a50094: outside 40-burst's
# 0x0000..0x03e7 in STATUS[31:16], so that no burst record shares it) through the kernel's
# logging path (mce-inject flags=sw).  mcelogd must log the first records
# individually and then only summaries with exact counts and one storm end:
# a few dozen journal entries instead of thousands, and every record the kernel
# emitted counted: individual + sum of summary counts == the kernel's count.
#
# The kernel's count is taken independently of mcelogd: mce:mce_record is
# enabled in a tracefs instance of its own ("vmcount"), whose per-CPU
# "entries" counters also pace the injector (at most 16 records in flight,
# as in 40-burst: the kernel's record pool overflows beyond that).  ADDR
# changes with every record (one 4 KiB page each): the kernel merges
# identical records that are queued together, and a failing DIMM reports
# many addresses anyway; ADDR is not part of the signature.
#
# Short storm timings (SummaryInterval=2s, QuietTime=3s) make the storm end
# within the test.  A second, shorter storm is cut by a service restart:
# SIGTERM must close it (last summary, storm end with reason "stop") so that
# no count is lost across a stop.
VM_DESC="corrected-error storm of ${MCELOGD_VM_STORM:-6000} records: a few journal entries, every record counted"
VM_APPEND="mcelogd_vm.check_interval=1"

. "$srcdir/tests/vm/lib/storm.sh"

scenario() {
	# 6,000 in make check-vm (CI's time); MCELOGD_VM_STORM=20000 for the full storm.
	local n=${MCELOGD_VM_STORM:-6000} st=0x9c00004004a50094 code=0x04a50094 conf out kernel counts
	local ind nsum sum nend etotal reason all q since
	conf=$(guest 'mcelogd --help | sed -n "s/.*configuration file (default \(.*\))\$/\1/p"')
	note "configuration: $conf"
	check "storm: short storm timings in $conf, reloaded" guest "
cp '$conf' /run/mcelogd.conf.saved && printf '[Storm]\nSummaryInterval=2s\nQuietTime=3s\n' >>'$conf' &&
mcelogd --test-config -c '$conf' && systemctl reload mcelogd.service"
	# Times, not cursors: journalctl 252 --after-cursor with matches skips the first match.
	since=@$(guest 'date +%s')

	out=$(guest "$(storm_inject $n $st)" 900)
	note "$out"
	kernel=$(sed -n 's/.* kernel=\([0-9]*\).*/\1/p' <<<"$out")
	is "$kernel" "$n" "storm: the kernel emitted $n mce_record events (counted in tracefs instance vmcount)"
	is "$(sed -n 's/.* overrun=\([0-9]*\).*/\1/p' <<<"$out")" 0 "storm: the counting ring buffer lost nothing"

	# The storm ends QuietTime (3 s) after its last record; journald may lag.
	check "storm: mcectl query shows the storm's end" wait_storm_end "$since" $code 300
	counts=$(storm_counts "$since" $code $st)
	note "journal after the storm: individual summaries summed ends end_total reason all_entries = $counts"
	read -r ind nsum sum nend etotal reason all <<<"$counts"
	is "$ind" 10 "storm: the first Burst=10 records logged individually"
	is "$((ind + sum))" "$kernel" "storm: individual + sum of summary counts == the kernel's count"
	is "$nend $etotal $reason" "1 $sum quiet" "storm: one storm end, its total the sum of the summaries, reason quiet"
	if [ "${nsum:-0}" -ge 1 ] && [ "${all:-999}" -le 200 ]; then
		ok "storm: $all journal entries from mcelogd for $kernel records ($nsum summaries)"
	else
		not_ok "storm: at most 200 journal entries from mcelogd for $kernel records, summaries present (got $all, $nsum summaries)"
	fi
	is "$(storm_view "$since" $code $st)" "$ind $nsum $sum $nend $etotal" \
		"storm: mcectl query --output json shows the same individual records, summaries and end"
	# Consumers join a storm's summaries and end on storm_start: one value for all of them.
	is "$(query_json --since "$since" | jq -rs "map(select((.event == \"storm_summary\" or .event == \"storm_end\") and .code == \"$code\") | .storm_start) | unique | length")" \
		1 "storm: every summary and the end carry the same storm_start"
	if [ "$ind" != 10 ]; then
		guest "journalctl --since '$since' -o json SYSLOG_IDENTIFIER=mcelogd MESSAGE_ID=$(msgid CORRECTED) |
			jq -c '[.__REALTIME_TIMESTAMP, ._COMM, .MCE_CPU, .MCE_BANK, .MCE_STATUS]' | head -n 20" | diag
	fi
	is "$(guest "journalctl --since '$since' -o cat --no-pager _COMM=systemd-journal | grep -i 'suppressed.*mcelogd' | head -n 3")" "" \
		"storm: journald suppressed nothing of mcelogd's"

	# mcectl query table: one line per summary.
	q=$(guest "mcectl query --since '$since' --cpu 1 --bank 1 --severity corrected | grep -c '(storm summary).*code $code'")
	is "$q" "$nsum" "storm: mcectl query table shows each summary on one line"
	guest "mcectl query --since '$since' --cpu 1 --bank 1 | grep storm | tail -n 3" | diag

	# A storm cut by a stop: SIGTERM closes it, nothing lost.
	check "storm: long storm timings, reloaded" guest "
cp /run/mcelogd.conf.saved '$conf' && printf '[Storm]\nSummaryInterval=1min\nQuietTime=5min\n' >>'$conf' &&
systemctl reload mcelogd.service"
	# Times, not cursors: journalctl 252 --after-cursor with matches skips the first match.
	since=@$(guest 'date +%s')
	out=$(guest "$(storm_inject 500 0x9c00004004a60094)" 300)
	note "$out"
	kernel=$(sed -n 's/.* kernel=\([0-9]*\).*/\1/p' <<<"$out")
	# mcectl status: the storm in progress, with its count, once mcelogd has read every record.
	q=$(guest "for i in \$(seq 60); do
	q=\$(mcectl status --output json | jq -r '[.storms.active, (.storms.list[] | select(.code == \"0x04a60094\") | .suppressed)] | @tsv')
	[ \"\$q\" = \"\$(printf '1\t%s' $((kernel - 10)))\" ] && break
	sleep 0.5
done; echo \"\$q\"; mcectl status | grep -A2 '^Storms'" 60)
	is "$(head -n 1 <<<"$q")" "$(printf '1\t%s' $((kernel - 10)))" "storm: mcectl status shows the storm in progress and its count"
	tail -n +2 <<<"$q" | diag
	check "storm: restart mcelogd in the middle of a storm" guest "systemctl restart mcelogd.service"
	check "storm: stopped mid-storm: mcectl query shows the storm's end" wait_storm_end "$since" 0x04a60094 120
	counts=$(storm_counts "$since" 0x04a60094 0x9c00004004a60094)
	note "journal after the stop: $counts"
	read -r ind nsum sum nend etotal reason all <<<"$counts"
	is "$((ind + sum))" "$kernel" "storm: stopped mid-storm: individual + summarised == the kernel's count ($kernel)"
	is "$nend $etotal $reason" "1 $sum stop" "storm: stopped mid-storm: one storm end with reason stop"
	is "$(storm_view "$since" 0x04a60094 0x9c00004004a60094)" "$ind $nsum $sum $nend $etotal" \
		"storm: stopped mid-storm: mcectl query shows the same"

	check "storm: configuration restored" guest "cp /run/mcelogd.conf.saved '$conf' && systemctl reload mcelogd.service"
}
