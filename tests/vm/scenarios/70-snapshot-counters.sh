# Issue 10, the counter flight recorder on the real kernel: a corrected error
# injected on CPU 1 carries snapshot.counters for CPU 1 (the record's CPU, not
# the one whose ring delivered it), with software-event counts from the
# kernel; the hardware events are listed as unavailable with the reason (the
# emulated qemu64 CPU has no PMU); the journal holds the flat MCE_SNAPSHOT_*
# fields; mcectl status and mcectl query's table show the snapshot.
VM_DESC="counter snapshot of the record's CPU; hardware events unavailable without a PMU"
VM_APPEND="mcelogd_vm.check_interval=1"

scenario() {
	local cpu=1 bank=2 st=0x9c00004000010093 addr=0x0000000123456000 misc=0x0000000000000086
	local rec c j pmu status table line
	# Two reads of history before the error: the window is a real interval.
	sleep 2
	check "snapshot: QEMU accepts mce $cpu $bank $st" inject_monitor $cpu $bank $st 0 $addr $misc
	rec=$(wait_records 1 ".status == \"$st\"" 30 | head -n1)
	check "snapshot: the record arrived" test -n "$rec"
	c=$(jq -c '.snapshot.counters' <<<"$rec")
	note "snapshot.counters: $(head -c 1500 <<<"$c")"
	is "$(jq -r '.cpu' <<<"$c")" "$cpu" "snapshot: counters are of the record's CPU"
	is "$(jq -r '.events["cpu-clock"] > 0' <<<"$c")" true "snapshot: cpu-clock counted (> 0)"
	is "$(jq -r '[.events["context-switches"], .events["page-faults"], .events["cpu-migrations"]] | map(type) | join(",")' <<<"$c")" \
		"number,number,number" "snapshot: context-switches, page-faults, cpu-migrations counted"
	is "$(jq -r '.window.position' <<<"$c")" covers "snapshot: the window covers the error time"
	# What the daemon computed from the times it had (the record's and its read's), not
	# how soon a guest under TCG on a loaded host came to read.
	is "$(jq -r 'def us: (.[0:19] + "Z" | fromdateiso8601) * 1000000 + (.[20:26] | tonumber);
		.snapshot.counters as $c | $c.read_after_error_usec >= 0 and
		$c.read_after_error_usec == ($c.read | us) - (.time | us)' <<<"$rec")" true \
		"snapshot: read after the error, by the two times the record gives"
	if [ "$(jq -r '(.tsc // "0x0000000000000000") != "0x0000000000000000"' <<<"$rec")" = true ] &&
		[ "$(guest 'cat /sys/devices/system/clocksource/clocksource0/current_clocksource')" = tsc ]; then
		is "$(jq -r '(.read_after_error_tsc | type) + " " + (.read_after_error_tsc_usec >= 0 | tostring)' <<<"$c")" \
			"number true" "snapshot: the TSC distance to the error is given"
	else
		is "$(jq -r 'has("read_after_error_tsc")' <<<"$c")" false \
			"snapshot: no TSC distance without a record TSC and a TSC clock source (tsc $(jq -r .tsc <<<"$rec"), clock $(guest 'cat /sys/devices/system/clocksource/clocksource0/current_clocksource'))"
	fi
	pmu=$(guest 'test -e /sys/bus/event_source/devices/cpu && echo yes || echo no')
	if [ "$pmu" = no ]; then
		is "$(jq -r '.unavailable | keys | sort | join(",")' <<<"$c")" \
			"branch-misses,branches,cache-misses,cache-references,cycles,instructions,ref-cycles" \
			"snapshot: every hardware event is listed as unavailable (no PMU in this guest)"
		check "snapshot: the reason says there is no PMU driver" \
			grep -q "no PMU driver" <<<"$(jq -r '.unavailable.cycles' <<<"$c")"
		is "$(jq -r 'has("ipc")' <<<"$c")" false "snapshot: no IPC without the events it needs"
		is "$(jq -r 'has("not_counted")' <<<"$c")" false "snapshot: unavailable events are not also listed as not counted"
	else
		skip "snapshot: hardware events unavailable" "this guest has a PMU"
	fi
	is "$(jq -r '.snapshot | with_entries(select(.value | type == "object")) | keys | join(",")' <<<"$rec")" \
		"counters,pt,rtit" "snapshot: three providers: counters, pt, rtit"
	is "$(jq -r '[.snapshot.cpu == .cpu, .snapshot.cpu_from] | @tsv' <<<"$rec")" "$(printf 'true\trecord')" \
		"snapshot: of the CPU the machine check names (cpu_from record)"
	# The emulated CPU has no Intel PT: the RTIT state and the PT recorder say why they are missing.
	note "snapshot.rtit: $(jq -c '.snapshot.rtit' <<<"$rec"); snapshot.pt: $(jq -c '.snapshot.pt' <<<"$rec")"
	check "snapshot: rtit is unavailable, with the reason" \
		test -n "$(jq -r '.snapshot.rtit.unavailable // empty' <<<"$rec")"
	is "$(jq -r '.snapshot.pt.unavailable' <<<"$rec")" "off in the configuration" \
		"snapshot: the PT recorder is off unless ProcessorTrace=yes"

	j=$(guest "journalctl -o json --no-pager MCE_STATUS=$st")
	is "$(jq -r '.MCE_SNAPSHOT_CPU' <<<"$j")" "$cpu" "snapshot: journal MCE_SNAPSHOT_CPU"
	check "snapshot: journal MCE_SNAPSHOT_WINDOW_SEC" test "$(jq -r '.MCE_SNAPSHOT_WINDOW_SEC' <<<"$j")" != null
	is "$(jq -r '.MCE_JSON | fromjson | .snapshot.counters.cpu' <<<"$j")" "$cpu" "snapshot: MCE_JSON holds the snapshot"

	status=$(guest "mcectl status --output json" | jq -c '.snapshots[] | select(.name == "counters")')
	note "status: $status"
	is "$(jq -r .state <<<"$status")" active "snapshot: mcectl status lists counters as active"
	is "$(jq -r '.cpus' <<<"$status")" 2 "snapshot: counters on both CPUs"
	table=$(guest "mcectl status")
	note "$(grep -A3 '^SNAPSHOT' <<<"$table")"
	check "snapshot: mcectl status's table shows the counters" grep -q "^counters  *active" <<<"$table"
	table=$(guest "mcectl query --since 1h")
	note "$(grep -B1 'snapshot:' <<<"$table")"
	check "snapshot: mcectl query's table has the snapshot line" grep -q "snapshot: CPU $cpu over" <<<"$table"
	# The record's JSON (a JSON-lines file, MCE_JSON) through mcectl decode: the same line.
	line=$(host_mcectl decode - <<<"$rec" | sed -n 's/^  Snapshot: //p')
	note "decode: $line"
	check "snapshot: mcectl decode of the record's JSON prints the summary query prints for it" \
		grep -qF -- " snapshot: ${line:-(decode printed no snapshot line)}" <<<"$table"

	# CPU hotplug: the offline CPU's groups close, and come back with it.
	local cpus
	cpus=$(guest "c=/sys/devices/system/cpu/cpu1
echo 0 >\$c/online; sleep 2
mcectl status --output json | jq -r '.snapshots[] | select(.name == \"counters\") | .cpus'
echo 1 >\$c/online; sleep 2
mcectl status --output json | jq -r '.snapshots[] | select(.name == \"counters\") | .cpus'" | tr '\n' ' ')
	is "$cpus" "1 2 " "snapshot: counters follow CPU 1 offline and back online"
	is "$(mcelogd_warnings "${warn_mark:-}")" "" "snapshot: journalctl -u mcelogd shows no warnings"
}
