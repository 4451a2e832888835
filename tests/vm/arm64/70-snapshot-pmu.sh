# Issue 29, item 3: the counter flight recorder on a real kernel PMU driver.
# The aarch64 guest's kernel drives QEMU's emulated PMUv3 (armv8_pmuv3_0),
# which under TCG counts cycles (its 1 GHz clock) and, with -icount (see
# tests/vm/arch.sh), retired instructions; mcelogd opens
# its hardware group there, so cycles, instructions and IPC come from a PMU
# driver for the first time (the x86 guests have no PMU: 70-snapshot-counters).
#
# Here the counts are read where the recorder shows them without a record:
# `mcectl status`'s counters object, whose "latest" is the first online
# CPU's interval up to now, written by the same code a record's
# snapshot.counters is.  The record that carries them on arm64 is a memory
# failure (arm64 has no machine checks, and QEMU 10 cannot inject
# ras:arm_event): 75-memory-failure-snapshot.
#
# Then libpfm4: which PMU tables it finds for QEMU's -cpu max, events named
# through it (its perf_raw table, and the Arm table for this CPU where it has
# one), and what the status says each event's naming was.  Then more hardware
# events than the PMU has counters: see the notes of each run for what the
# kernel did (the figures of one run are in tests/vm/README.md).
VM_DESC="PMUv3 under TCG: cycles, instructions, IPC, libpfm4 naming, more events than counters"

# counters_config EVENTS...: Counters= in mcelogd's configuration file, reload,
# then wait for two interval reads.
counters_config() {
	guest "conf=\$(mcelogd --help | sed -n 's/.*configuration file (default \(.*\))/\1/p')
mkdir -p \"\${conf%/*}\"
printf '[Snapshot]\nCounters=%s\n' '$*' >\"\$conf\"
mcelogd --test-config >/dev/null && systemctl reload mcelogd.service && sleep 3"
}
counters_status() { guest "mcectl status --output json" | jq -c '.snapshots[] | select(.name == "counters")'; }

scenario() {
	local pmus slots st latest n hw mark
	mark=$(journal_mark)
	pmus=$(guest 'ls /sys/bus/event_source/devices/')
	note "event sources: $(tr '\n' ' ' <<<"$pmus")"
	check "pmu: the kernel's PMUv3 driver is there (armv8_pmuv3*)" grep -q '^armv8_pmuv3' <<<"$pmus"
	note "dmesg: $(guest 'dmesg | grep -i "hw perfevents"' | tr '\n' ' ')"
	# "enabled with armv8_pmuv3_0 PMU driver, N counters available": N includes the cycle counter.
	slots=$(guest 'dmesg | sed -n "s/.*PMU driver, \([0-9]*\) .*counters available.*/\1/p" | head -n1')
	check "pmu: the driver says how many counters it has ($slots)" test -n "$slots"
	note "cpu: $(guest 'grep -m1 -E "CPU (implementer|part)" /proc/cpuinfo; grep -m2 -E "CPU (implementer|part)" /proc/cpuinfo | tail -n1' | tr '\n' ' ')"

	# Default events: the generic names, on the real PMU.
	st=$(counters_status)
	note "status (default events): $(head -c 2500 <<<"$st")"
	is "$(jq -r .state <<<"$st")" active "pmu: the counter recorder is active"
	is "$(jq -r '[.events[] | select(. == "cycles" or . == "instructions")] | join(",")' <<<"$st")" "cycles,instructions" \
		"pmu: cycles and instructions open on the PMU (not unavailable)"
	is "$(jq -r '.naming.cycles + "," + .naming.instructions' <<<"$st")" "perf,perf" \
		"pmu: cycles and instructions are perf's generic names"
	latest=$(jq -c '.latest' <<<"$st")
	is "$(jq -r '.events.cycles > 0 and .events.instructions > 0' <<<"$latest")" true \
		"pmu: cycles and instructions counted (> 0) in the latest interval"
	is "$(jq -r '(.ipc // 0) > 0' <<<"$latest")" true "pmu: IPC present and > 0 ($(jq -r .ipc <<<"$latest"))"
	is "$(jq -r 'has("scaled") or has("time_running_ns")' <<<"$latest")" false \
		"pmu: with the default events every counted one ran the whole interval (not scaled)"
	note "latest (default events): $latest"

	# libpfm4: what it finds for this CPU; an event named through its perf_raw table
	# (INST_RETIRED, 0x08 in the Arm architecture's common events).
	note "libpfm4 PMUs present: $(jq -c '.libpfm4_pmus' <<<"$st")"
	check "pmu: Counters= with libpfm4 names and reload" counters_config \
		'cycles perf_raw::r0008 arm_ac57::INST_RETIRED cpu-clock'
	st=$(counters_status)
	note "status (libpfm4 names): $(head -c 2500 <<<"$st")"
	is "$(jq -r '.naming["perf_raw::r0008"]' <<<"$st")" "libpfm4 perf_raw" \
		"pmu: perf_raw::r0008 is named through libpfm4's perf_raw table"
	is "$(jq -r '.latest.events["perf_raw::r0008"] > 0' <<<"$st")" true \
		"pmu: perf_raw::r0008 (INST_RETIRED) counted (> 0)"
	if jq -e '.naming["arm_ac57::INST_RETIRED"]' <<<"$st" >/dev/null; then
		is "$(jq -r '.latest.events["arm_ac57::INST_RETIRED"] > 0' <<<"$st")" true "pmu: arm_ac57::INST_RETIRED counted"
	else
		check "pmu: a name libpfm4 does not know here is unavailable, with libpfm4's reason" \
			grep -q 'libpfm4' <<<"$(jq -r '.unavailable["arm_ac57::INST_RETIRED"]' <<<"$st")"
	fi

	# More hardware events than counters: the cycle counter takes one, each other
	# event a general counter ($slots in all).
	hw='cycles instructions stalled-cycles-frontend stalled-cycles-backend perf_raw::r0008 perf_raw::r0011 perf_raw::r0023 perf_raw::r0024 perf_raw::r0000 perf_raw::r0008:u'
	check "pmu: Counters= with $(wc -w <<<"$hw") hardware events (PMU: $slots counters) and reload" \
		counters_config "$hw cpu-clock"
	st=$(counters_status)
	note "status (more events than counters): $(head -c 3000 <<<"$st")"
	latest=$(jq -c '.latest' <<<"$st")
	n=$(jq -r '[.events[]] | length' <<<"$st")
	note "open: $n of $(( $(wc -w <<<"$hw") + 1 )); unavailable: $(jq -c '.unavailable // {}' <<<"$st")"
	note "counted: $(jq -c '.events' <<<"$latest"); scaled: $(jq -c '.scaled // []' <<<"$latest"); enabled: $(jq -c '.time_enabled_ns // {}' <<<"$latest"); running: $(jq -c '.time_running_ns // {}' <<<"$latest"); not counted: $(jq -c '.not_counted // {}' <<<"$latest")"
	# The hardware group is scheduled all or nothing: the kernel validates it against
	# the PMU's counters, so it holds at most $slots events and is never multiplexed;
	# the rest are unavailable, saying that the group is full (EINVAL in the group,
	# while each opens alone).
	local full
	full=$(jq -r '[(.unavailable // {}) | to_entries[] | select(.value | test("no counter left")) | .key] | join(" ")' <<<"$st")
	note "group full for: $full"
	check "pmu: events beyond the PMU's counters are unavailable because the group is full" test -n "$full"
	n=$(jq -r --arg hw "$hw" '[.events[] | select(. as $e | $hw | split(" ") | index($e))] | length' <<<"$st")
	check "pmu: at most $slots hardware events open in the group ($n)" test "$n" -le "$slots"
	# (QEMU's STALL_FRONTEND/STALL_BACKEND count zero, and SW_INCR counts writes to PMSWINC)
	is "$(jq -r '.events.cycles > 0 and .events.instructions > 0 and .events["perf_raw::r0008"] > 0' <<<"$latest")" true \
		"pmu: cycles, instructions and perf_raw::r0008 still counted in the full group"
	is "$(jq -r 'has("scaled")' <<<"$latest")" false "pmu: nothing scaled: the group was on the PMU all the time"
	is "$(jq -r '.events["cpu-clock"] > 0' <<<"$latest")" true \
		"pmu: the software group counts whatever the hardware one does"
	# The names that mean nothing here were logged as warnings, on purpose; nothing else.
	is "$(mcelogd_warnings "$mark" | grep -v "^Counter event '[^']*' is unavailable: ")" "" \
		"pmu: journalctl -u mcelogd shows no warnings but the unavailable event names"
	check "pmu: the default configuration back, and reload" guest \
		"rm -f \"\$(mcelogd --help | sed -n 's/.*configuration file (default \(.*\))/\1/p')\" && systemctl reload mcelogd.service"
	# The end-of-boot check for warnings starts after those deliberate ones.
	warn_mark=$(journal_mark)
}
