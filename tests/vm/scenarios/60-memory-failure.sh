# Issue 5, item 3: the kernel's ras:* tracepoints as live sources.  Every ras
# event this kernel has (events/ras/* in tracefs) is opened on every CPU and
# shown active by mcectl status (disabled after a reload with RAS=no); a
# free page poisoned through /sys/devices/system/memory/hard_offline_page
# fires ras:memory_failure_event, which mcelogd logs exactly once, with the
# pfn, page type and result the kernel reported (checked against the kernel's
# own trace line, read from a tracefs instance of our own), its MESSAGE_ID
# and MCE_* fields, and mcectl query shows it (JSON, table, --severity).
# In the same boot (issue 38): a process in a unit of its own poisons its
# own page with madvise(MADV_HWPOISON) and is killed by the kernel's SIGBUS
# (signal:signal_generate, read through its kernel filter), which mcelogd
# logs with the process, its unit and the memory failure it joins; and a
# scsi_debug disk's injected medium error fails a read
# (block:block_rq_error), logged with its disk, sectors and error, a flood
# of them summarised as a storm.
VM_DESC="ras:memory_failure_event from hard_offline_page: logged once, as the kernel reported it; SIGBUS and disk errors"
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
	sigbus_checks
	disk_checks
}

# run_victim UNIT [early]: the victim in a unit of its own (a unit file under
# /run: the guest has no D-Bus for systemd-run); prints its pid, then how
# the unit ended.
run_victim() {
	guest "printf '[Service]\\nType=oneshot\\nExecStart=/usr/local/libexec/mcelogd-vm/hwpoison-kill ${2:-}\\nStandardOutput=file:/run/$1.out\\n' >/run/systemd/system/$1.service
systemctl daemon-reload; systemctl start $1.service; echo \"exit \$?\" >>/run/$1.out; cat /run/$1.out" 60
}

# The kernel's SIGBUS for a memory error: a process that asked to be told
# early (PR_MCE_KILL_EARLY) poisons its own dirty page and is sent a SIGBUS
# by memory_failure(), just before the kernel traces the page; one that did
# not touches the page again and faults (BUS_MCEERR_AR).  The early kill's
# code is the kernel's: BUS_MCEERR_AO up to 6.9, BUS_MCEERR_AR from 6.10,
# where madvise(MADV_HWPOISON) calls memory_failure() with
# MF_ACTION_REQUIRED (mm/madvise.c, madvise_inject_error()), so the poisoning
# process itself is killed as if it had consumed the page.
sigbus_checks() {
	local out pid rec mf st j f kver code severity priority
	kver=$(guest 'uname -r')
	if [ "$(printf '%s\n' 6.10 "${kver%%-*}" | sort -V | head -n1)" = 6.10 ]; then
		code=action_required severity=uncorrected priority=2
	else
		code=action_optional severity=deferred priority=3
	fi
	note "kernel $kver: the early kill's code is $code"
	st=$(guest 'cat /sys/kernel/tracing/events/signal/signal_generate/format')
	note "signal_generate format: $(tr '\n\t' '  ' <<<"$st")"
	check "sigbus: signal:signal_generate read with its kernel filter" guest \
		"journalctl -b -u mcelogd.service -o cat | grep \"Reading signal:signal_generate (tracepoint id .*, filter 'sig == 7 && (code == 4 || code == 5)')\""
	out=$(run_victim hwpoison-victim early)
	note "$out"
	pid=$(grep -m1 -x "[0-9][0-9]*" <<<"$out")
	if ! [[ "$pid" =~ ^[0-9]+$ ]]; then not_ok "sigbus: the victim ran (output: '$out')"; return; fi
	rec=$(wait_records 1 ".source == \"signal:signal_generate\" and .pid == $pid" 30)
	note "$rec"
	is "$(jq -c '[.event, .severity, .comm, .code, .signal, .unit]' <<<"$rec" | head -n1)" \
		"[\"sigbus\",\"$severity\",\"hwpoison-kill\",\"$code\",7,\"hwpoison-victim.service\"]" \
		"sigbus: early kill logged with its process, code ($code on this kernel) and unit"
	mf=$(wait_records 1 ".source == \"ras:memory_failure_event\" and .killed_pid == $pid" 10)
	note "$mf"
	# The SIGBUS comes first and is logged before the page's record exists: the
	# memory failure, logged second, carries the join (the killed process).
	is "$(jq -c '[.killed_comm, .killed_code, .killed_unit, (.pfn != null)]' <<<"$mf" | head -n1)" \
		"[\"hwpoison-kill\",\"$code\",\"hwpoison-victim.service\",true]" \
		"sigbus: the memory failure of the same page names the killed process and its unit"
	j=$(guest "journalctl -o json --no-pager MESSAGE_ID=$(msgid SIGBUS) MCE_PID=$pid")
	is "$(grep -c . <<<"$j")" 1 "sigbus: one journal entry with MESSAGE_ID=$(msgid SIGBUS)"
	is "$(jq -c '[.MCE_EVENT, .MCE_SOURCE, .MCE_COMM, .MCE_CODE, .MCE_UNIT, .PRIORITY]' <<<"$j")" \
		"[\"sigbus\",\"signal:signal_generate\",\"hwpoison-kill\",\"$code\",\"hwpoison-victim.service\",\"$priority\"]" \
		"sigbus: journal MCE_EVENT/SOURCE/COMM/CODE/UNIT, PRIORITY $priority"
	j=$(guest "journalctl -o json --no-pager MESSAGE_ID=$(msgid MEMORY_FAILURE) MCE_KILLED_PID=$pid")
	check "sigbus: the memory failure's MESSAGE names the killed process" \
		grep -q "SIGBUS to hwpoison-kill\[$pid\] of hwpoison-victim.service" <<<"$(jq -r .MESSAGE <<<"$j")"

	# Without early kill: the touch faults on the poisoned page.
	out=$(run_victim hwpoison-victim-late)
	note "$out"
	pid=$(grep -m1 -x "[0-9][0-9]*" <<<"$out")
	rec=$(wait_records 1 ".source == \"signal:signal_generate\" and .pid == $pid" 30)
	note "$rec"
	is "$(jq -c '[.severity, .comm, .code]' <<<"$rec" | head -n1)" '["uncorrected","hwpoison-kill","action_required"]' \
		"sigbus: a touch of a poisoned page logged as action required"
	n=$(query_json | jq -c 'select(.source == "signal:signal_generate")' | wc -l)
	is "$n" 2 "sigbus: no other signal logged (the kernel filter)"
	st=$(guest 'mcectl status --output json 2>/dev/null')
	is "$(jq -c '.sources[] | select(.name == "signal:signal_generate") | [.state, .records]' <<<"$st")" \
		"[\"active\",2]" "sigbus: mcectl status shows the source active with 2 records"
	f=$(guest 'mcectl summary --since 1h --by process 2>&1')
	note "$f"
	check "sigbus: mcectl summary --by process counts the victim" grep -q '^hwpoison-kill ' <<<"$f"
}

# A disk's failed read: scsi_debug with a medium error at sectors 4660-4669
# (opts=2), read with O_DIRECT from 4656; then a flood of them, a storm.
disk_checks() {
	local out dev rec n st f j ksector
	if ! guest 'modprobe sd_mod && modprobe scsi_debug opts=2 medium_error_start=4660 dev_size_mb=8' >/dev/null; then
		skip "disk: scsi_debug medium error" "no scsi_debug module in this kernel's guest set"; return
	fi
	dev=$(guest 'for i in $(seq 40); do d=$(ls /sys/bus/pseudo/drivers/scsi_debug/adapter0/host*/target*/*/block/ 2>/dev/null); [ -n "$d" ] && [ -b /dev/$d ] && break; sleep 0.25; done; echo $d')
	note "scsi_debug disk: $dev"
	note "$(guest "for e in block_rq_error block_rq_complete; do cat /sys/kernel/tracing/events/block/\$e/format; done" | tr '\n\t' '  ')"
	out=$(guest "dd if=/dev/$dev of=/dev/null bs=512 skip=4656 count=8 iflag=direct 2>&1; dmesg | grep -i 'critical medium error' | tail -n 1")
	note "$out"
	# The kernel's own line names the sector it failed at (6.1: 4660, the first bad one, + 1).
	ksector=$(sed -n 's/.*critical medium error, dev [a-z]*, sector \([0-9]*\).*/\1/p' <<<"$out" | tail -n1)
	rec=$(wait_records 1 ".source == \"block:block_rq_error\" and .disk == \"$dev\"" 30)
	note "$rec"
	is "$(jq -c '[.event, .severity, .sector, .error, .error_type, (.rwbs | startswith("R"))]' <<<"$rec" | head -n1)" \
		"[\"disk_error\",\"uncorrected\",${ksector:-0},-61,\"medium\",true]" \
		"disk: the failed read logged with the kernel's sector and error"
	j=$(guest "journalctl -o json --no-pager MESSAGE_ID=$(msgid DISK_ERROR) MCE_DISK=$dev")
	is "$(grep -c . <<<"$j")" 1 "disk: one journal entry with MESSAGE_ID=$(msgid DISK_ERROR)"
	check "disk: MESSAGE names the disk and the medium error" grep -q "Disk $dev (8:[0-9]*): critical medium error, R" \
		<<<"$(jq -r .MESSAGE <<<"$j")"
	# A flood: 40 failed reads within a second or two (each dd reads the 10 bad sectors one by
	# one, going on past each error), the first Burst logged, the rest in a storm summary.
	guest "for i in 1 2 3 4; do dd if=/dev/$dev of=/dev/null bs=512 skip=4656 count=16 iflag=direct conv=noerror 2>/dev/null; done; true" 120 >/dev/null
	out=$(wait_records 1 ".event == \"storm_summary\" and .scope == \"ras\" and .ras_event == \"disk_error\"" 40)
	note "$out"
	check "disk: a flood of failed reads is summarised as a storm" test -n "$out"
	n=$(query_json | jq -c "select(.source == \"block:block_rq_error\" and .disk == \"$dev\")" | wc -l)
	check "disk: not every failed read is logged one by one ($n)" test "$n" -lt 41
	f=$(guest 'mcectl summary --since 1h --by disk 2>&1')
	note "$f"
	check "disk: mcectl summary --by disk counts the disk" grep -q "^8:[0-9]* .*$dev" <<<"$f"
	st=$(guest 'mcectl status --output json 2>/dev/null')
	is "$(jq -c '.sources[] | select(.name == "block:block_rq_error") | .state' <<<"$st")" '"active"' \
		"disk: mcectl status shows block:block_rq_error active"
	is "$(jq -c '.sources[] | select(.name == "block:block_rq_complete") | [.state, .reason]' <<<"$st")" \
		'["disabled","block:block_rq_error is read instead"]' "disk: block_rq_complete not read where block_rq_error is"
	guest 'rmmod scsi_debug' >/dev/null
}
