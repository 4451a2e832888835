# Issue 29, item 3: an arm64 error record that carries a real-PMU counter
# snapshot.  The real path: a free page poisoned through
# /sys/devices/system/memory/hard_offline_page makes the arm64 kernel run
# memory_failure() and emit ras:memory_failure_event, on the CPU of the task
# that wrote the file.  The record names no CPU of its own, so mcelogd takes
# the CPU whose tracepoint fired (snapshot.cpu_from "sample",
# mcelogd/snapshot-cpu.c) and attaches that CPU's counters from the kernel's
# PMUv3 driver (cycles, instructions, IPC; see 70-snapshot-pmu).
#
# Each poisoning is pinned to a CPU with taskset, once on CPU 1 and once on
# CPU 0, and the CPU is checked three ways: the one we pinned, the one the
# kernel's own trace line shows ([00N], from a tracefs instance of ours),
# and the one the record's snapshot names.
VM_DESC="ras:memory_failure_event on arm64, with a PMUv3 counter snapshot of the CPU that ran memory_failure()"

. "$srcdir/tests/vm/lib/free-page.sh"

# poison_on CPU PFN: hard_offline_page written by a task pinned to CPU, after a
# little work there; prints the kernel's trace line (and the write's error, if
# the kernel refused it: the event is traced all the same).
poison_on() {
	guest '
t=/sys/kernel/tracing/instances/mcelogd-vm-75
mkdir -p $t && echo 1 >$t/events/ras/memory_failure_event/enable || exit 1
echo >$t/trace
taskset -c '"$1"' sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i + 1)); done
printf \"0x%x\n\" \$(('"$2"' * 4096)) >/sys/devices/system/memory/hard_offline_page" 2>&1
for i in $(seq 20); do grep -q memory_failure_event: $t/trace && break; sleep 0.25; done
grep "memory_failure_event: " $t/trace
echo 0 >$t/events/ras/memory_failure_event/enable; rmdir $t' 120
}

scenario() {
	local ram pfn cpu kline kcpu rec snap j n secs t0
	check "mf: this kernel has ras:memory_failure_event" guest 'test -d /sys/kernel/tracing/events/ras/memory_failure_event'
	check "mf: and hard_offline_page (CONFIG_MEMORY_FAILURE)" guest 'test -w /sys/devices/system/memory/hard_offline_page'
	is "$(guest 'grep -c ^processor /proc/cpuinfo')" 2 "mf: two CPUs, so the snapshot's CPU can be told apart"
	# Run alone, right after the daemon started (or 70's reload): the recorder needs
	# an interval read before a record's snapshot has a window.
	check "mf: the counter recorder has read an interval with cycles" guest \
		'for i in $(seq 30); do mcectl status --output json 2>/dev/null |
			jq -e ".snapshots[] | select(.name == \"counters\") | .latest.events.cycles > 0" >/dev/null && exit 0
		sleep 1; done; exit 1'
	# The virt machine's RAM starts at 1 GiB (pfn 0x40000): search 192 MiB of it, past the kernel.
	ram=$(guest 'sed -n "s/^ *\([0-9a-f]*\)-[0-9a-f]* : System RAM$/\1/p" /proc/iomem | head -n1')
	note "first System RAM at 0x$ram"
	for cpu in 1 0; do
		# Looked up just before each poisoning, 2 MiB apart: a free page can be taken
		# at any moment, and the first poisoning splits the free block around it.
		pfn=$(free_pfns $(( 0x$ram / 4096 + 0x8000 + (1 - cpu) * 0x2000 )) 0xc000)
		if ! [[ "$pfn" =~ ^[0-9]+$ ]]; then
			not_ok "mf: a free page to poison from CPU $cpu (found: '$pfn')"
			continue
		fi
		pfn=$(printf '0x%x' "$pfn")
		t0=$SECONDS
		kline=$(poison_on "$cpu" "$pfn")
		note "kernel (CPU $cpu): $kline"
		check "mf: the kernel poisoned free page $pfn and traced it (CPU $cpu)" \
			grep -q "memory_failure_event: pfn $pfn: recovery action for free buddy page: Recovered" <<<"$kline"
		kcpu=$(sed -n 's/.*\[0*\([0-9][0-9]*\)\].*memory_failure_event:.*/\1/p' <<<"$kline" | head -n1)
		is "$kcpu" "$cpu" "mf: the kernel's trace line shows it on CPU $cpu, where the writer was pinned"

		rec=$(wait_records 1 ".source == \"ras:memory_failure_event\" and .pfn == \"$pfn\"" 30 | head -n1)
		secs=$((SECONDS - t0))
		check "mf: mcelogd logged the memory failure of $pfn (${secs}s)" test -n "$rec"
		snap=$(jq -c '.snapshot' <<<"$rec")
		note "snapshot (CPU $cpu): $snap"
		is "$(jq -c '[.cpu, .cpu_from]' <<<"$snap")" "[$cpu,\"sample\"]" \
			"mf: the snapshot is of CPU $cpu, the CPU whose tracepoint fired (cpu_from sample)"
		check "mf: the snapshot says what that CPU was doing (ran memory_failure())" \
			grep -q 'memory_failure()' <<<"$(jq -r '.cpu_is' <<<"$snap")"
		is "$(jq -r 'has("cpu")' <<<"$rec")" false "mf: the record itself still names no CPU"
		is "$(jq -r '.counters.cpu' <<<"$snap")" "$cpu" "mf: snapshot.counters is of CPU $cpu"
		is "$(jq -r '.counters.events.cycles > 0 and .counters.events.instructions > 0' <<<"$snap")" true \
			"mf: PMUv3 cycles and instructions counted on CPU $cpu (> 0)"
		is "$(jq -r '(.counters.ipc // 0) > 0' <<<"$snap")" true \
			"mf: IPC > 0 in the record's snapshot ($(jq -r '.counters.ipc' <<<"$snap"))"
		is "$(jq -r '.counters.read_after_error_usec >= 0' <<<"$snap")" true \
			"mf: the counters were read after the error ($(jq -r '.counters.read_after_error_usec' <<<"$snap") us)"

		j=$(guest "journalctl -o json --no-pager MESSAGE_ID=$(msgid MEMORY_FAILURE) MCE_PFN=$pfn")
		is "$(grep -c . <<<"$j")" 1 "mf: one journal entry for $pfn"
		is "$(jq -c '[.MCE_SNAPSHOT_CPU, .MCE_SNAPSHOT_CPU_FROM, (.MCE_SNAPSHOT_IPC | tonumber > 0)]' <<<"$j")" \
			"[\"$cpu\",\"sample\",true]" "mf: the journal's flat snapshot fields: MCE_SNAPSHOT_CPU, _CPU_FROM, _IPC"
		is "$(jq -r '.MCE_JSON | fromjson | .snapshot.counters.cpu' <<<"$j")" "$cpu" "mf: MCE_JSON holds the snapshot"
		check "mf: mcectl query's table shows the snapshot line of CPU $cpu under the record" guest \
			"mcectl query --since 1h | grep -A1 'Memory failure at pfn $pfn' | grep -q 'snapshot: CPU $cpu '"
	done
	n=$(query_json | jq -c 'select(.source == "ras:memory_failure_event")' | wc -l)
	is "$n" 2 "mf: two memory failure records in all, each logged once"
}
