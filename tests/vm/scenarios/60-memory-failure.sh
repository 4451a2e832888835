# Issue 5, item 3: the kernel's ras:* tracepoints as live sources.  Every ras
# event this kernel has (events/ras/* in tracefs) is opened on every CPU and
# shown active by mcectl status (disabled after a reload with RAS=no); a
# free page poisoned through /sys/devices/system/memory/hard_offline_page
# fires ras:memory_failure_event, which mcelogd logs exactly once, with the
# pfn, page type and result the kernel reported (checked against the kernel's
# own trace line, read from a tracefs instance of our own), its MESSAGE_ID
# and MCE_* fields, and mcectl query shows it (JSON, table, --severity).
VM_DESC="ras:memory_failure_event from hard_offline_page: logged once, as the kernel reported it"
VM_APPEND="mcelogd_vm.check_interval=1"

. "$srcdir/tests/vm/lib/free-page.sh"

scenario() {
	local out pfn kline rec recs n j events e st conf mark ncpu
	# Each ras event of this kernel is read on every online CPU.
	events=$(guest 'cd /sys/kernel/tracing/events/ras && for d in */; do echo "${d%/}"; done')
	check "ras: this kernel has ras:memory_failure_event" grep -qx memory_failure_event <<<"$events"
	for e in $events; do
		check "ras: source ras:$e active on every online CPU" guest "
			n=\$(grep -c ^processor /proc/cpuinfo)
			journalctl -b -u mcelogd.service -o cat | grep 'Reading ras:$e (tracepoint id .*) on '\$n' of '\$n' online CPUs'"
	done

	# mcectl status, where this build's control socket answers.
	st=$(guest 'mcectl status --output json 2>/dev/null')
	ncpu=$(guest 'grep -c ^processor /proc/cpuinfo')
	for e in $events; do
		if [ -z "$st" ]; then skip "ras: mcectl status shows ras:$e active" "no answer from mcectl status"; continue; fi
		is "$(jq -c --arg s "ras:$e" '.sources[] | select(.name == $s) | [.state, .reason]' <<<"$st")" \
			"[\"active\",\"ras:$e on $ncpu CPUs\"]" "ras: mcectl status shows ras:$e active on $ncpu CPUs"
	done

	# A free page, poisoned; the kernel's own account of it from a private
	# tracefs instance.
	pfn=$(free_pfns 0x30000 0xc000)
	if ! [[ "$pfn" =~ ^[0-9]+$ ]]; then
		not_ok "ras: a free page poisoned through hard_offline_page (no free page found: '$pfn')"
		return
	fi
	pfn=$(printf '0x%x' "$pfn")
	out=$(guest '
t=/sys/kernel/tracing/instances/mcelogd-vm-60
mkdir -p $t && echo 1 >$t/events/ras/memory_failure_event/enable || exit 1
printf "0x%x\n" $(('"$pfn"' * 4096)) >/sys/devices/system/memory/hard_offline_page || exit 1
for i in $(seq 20); do grep -q memory_failure_event: $t/trace && break; sleep 0.25; done
grep -o "memory_failure_event: .*" $t/trace
echo 0 >$t/events/ras/memory_failure_event/enable; rmdir $t' 120)
	note "$out"
	kline=$(grep '^memory_failure_event:' <<<"$out")
	is "$kline" "memory_failure_event: pfn $pfn: recovery action for free buddy page: Recovered" \
		"ras: the kernel poisoned free page $pfn and traced it"

	recs=$(wait_records 1 ".source == \"ras:memory_failure_event\" and .pfn == \"$pfn\"" 30)
	check "ras: mcectl query --output json shows the memory failure record" test -n "$recs"
	sleep 2
	n=$(query_json | jq -c "select(.source == \"ras:memory_failure_event\" and .pfn == \"$pfn\")" | wc -l)
	is "$n" 1 "ras: the record appears exactly once"
	rec=$(head -n1 <<<"$recs")
	is "$(jq -c '[.event, .source, .severity, .pfn, .page_type, .result]' <<<"$rec")" \
		"[\"memory_failure\",\"ras:memory_failure_event\",\"info\",\"$pfn\",\"free_buddy\",\"recovered\"]" \
		"ras: event, source, severity, pfn, page type and result as the kernel reported"
	is "$(jq -c '[(.time | test("^2[0-9-]+T")), (.hostname | length > 0), (.boot_id | length)]' <<<"$rec")" \
		"[true,true,32]" "ras: the record has a time, hostname and boot id"

	j=$(guest "journalctl -o json --no-pager MESSAGE_ID=$(msgid MEMORY_FAILURE) MCE_PFN=$pfn")
	is "$(grep -c . <<<"$j")" 1 "ras: one journal entry with MESSAGE_ID=$(msgid MEMORY_FAILURE)"
	is "$(jq -c '[.MCE_EVENT, .MCE_SOURCE, .MCE_SEVERITY, .MCE_PAGE_TYPE, .MCE_RESULT, .PRIORITY, ._COMM]' <<<"$j")" \
		"[\"memory_failure\",\"ras:memory_failure_event\",\"info\",\"free_buddy\",\"recovered\",\"5\",\"mcelogd\"]" \
		"ras: journal MCE_EVENT/SOURCE/SEVERITY/PAGE_TYPE/RESULT, PRIORITY notice, from mcelogd"
	is "$(jq -r '.MCE_JSON | fromjson | .pfn' <<<"$j")" "$pfn" "ras: MCE_JSON holds the record"
	check "ras: MESSAGE names the pfn" grep -q "pfn $pfn" <<<"$(jq -r .MESSAGE <<<"$j")"

	# mcectl query filters: by severity (MCE_SEVERITY for these classes), and the table.
	n=$(query_json "--since 1h --severity info" | jq -c "select(.pfn == \"$pfn\")" | wc -l)
	is "$n" 1 "ras: mcectl query --severity info shows it"
	n=$(query_json "--since 1h --severity corrected" | jq -c "select(.pfn == \"$pfn\")" | wc -l)
	is "$n" 0 "ras: mcectl query --severity corrected does not"
	n=$(query_json "--since 1h --bank 0" | jq -c "select(.pfn == \"$pfn\")" | wc -l)
	is "$n" 0 "ras: mcectl query --bank (machine checks only) does not"
	check "ras: mcectl query table shows the source and the summary" guest \
		"mcectl query --since 1h | grep 'info .*ras:memory_failure_event .*Memory failure at pfn $pfn'"
	st=$(guest 'mcectl status --output json 2>/dev/null')
	if [ -z "$st" ]; then skip "ras: mcectl status counts the record" "no answer from mcectl status"; else
		is "$(jq -c '.sources[] | select(.name == "ras:memory_failure_event") | .records' <<<"$st")" 1 \
			"ras: mcectl status counts the record for ras:memory_failure_event"
	fi

	# RAS=no: every ras source disabled, the machine-check tracepoint untouched; and back.
	conf=$(guest 'ls /usr/local/etc/mcelogd/mcelogd.conf /etc/mcelogd/mcelogd.conf 2>/dev/null | head -n1')
	mark=$(journal_mark)
	check "ras: reload with RAS=no" guest "sed -i 's/^\\[Sources\\]\$/[Sources]\\nRAS=no/' $conf && grep -qx RAS=no $conf &&
		systemctl reload mcelogd.service && sleep 1"
	out=$(guest "journalctl --cursor='$mark' -u mcelogd.service -o cat | grep '^Reading '")
	is "$(grep -c . <<<"$out") $(grep -c "^Reading mce:mce_record .* on $ncpu of $ncpu online CPUs" <<<"$out")" "1 1" \
		"ras: after RAS=no only mce:mce_record is read"
	[ "$(grep -c . <<<"$out")" = 1 ] || printf '%s\n' "$out" | diag
	st=$(guest 'mcectl status --output json 2>/dev/null')
	if [ -z "$st" ]; then skip "ras: RAS=no shown by mcectl status" "no answer from mcectl status"; else
		is "$(jq -c '[.sources[] | select(.name | startswith("ras:")) | [.state, .reason]] | unique' <<<"$st")" \
			'[["disabled","RAS=no in the configuration"]]' "ras: RAS=no disables every ras source (mcectl status)"
	fi
	mark=$(journal_mark)
	check "ras: reload with RAS= removed" guest "sed -i '/^RAS=no\$/d' $conf && systemctl reload mcelogd.service && sleep 1"
	is "$(guest "journalctl --cursor='$mark' -u mcelogd.service -o cat | grep -c '^Reading ras:'")" \
		"$(wc -w <<<"$events")" "ras: every ras source read again"
}
