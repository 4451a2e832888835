# Issue 29, item 3: a firmware-first memory error on arm64, in 80's boot.
# A recoverable platform memory error section (UEFI 2.10 §N.2.5: a patrol
# scrub found an uncorrected error) naming a free page of the guest goes
# through the same HEST error source as 80's.  Debian's arm64 kernel has no
# ghes_edac (CONFIG_EDAC_GHES is off), so no ras:mc_event: the GHES driver
# prints the section and, the error being recoverable with a valid physical
# address, queues memory_failure() for its page (ghes_handle_memory_failure(),
# CONFIG_ACPI_APEI_MEMORY_FAILURE), which poisons it and fires
# ras:memory_failure_event; mcelogd logs that, with the counter snapshot of
# the CPU that ran memory_failure() (the GHES work queued where the
# notification was taken).
VM_DESC="GHES on arm64: a recoverable memory error CPER, memory_failure() of its page, mcelogd's record"
. "$srcdir/tests/vm/lib/ghes-boot.sh"
. "$srcdir/tests/vm/lib/free-page.sh"

scenario() {
	local ram pfn pa sec kline hw rec
	# The virt machine's RAM starts at 1 GiB: a free page 128 MiB past its start.
	ram=$(guest 'sed -n "s/^ *\([0-9a-f]*\)-[0-9a-f]* : System RAM$/\1/p" /proc/iomem | head -n1')
	pfn=$(free_pfns $((0x$ram / 4096 + 0x8000)) 0xc000)
	if ! [[ "$pfn" =~ ^[0-9]+$ ]]; then
		not_ok "ghes-mem: a free page to name in the record (found: '$pfn')"
		return
	fi
	pa=$((pfn * 4096))
	pfn=$(printf '0x%x' "$pfn")
	# Validation (§N.2.5): physical address (bit 1), its mask (2), node (3),
	# memory error type (14); error status 0; the address and a page mask;
	# node 0; the other locators zero; type 14, scrub uncorrected error.
	sec=$(cper_le 8 $((1 << 1 | 1 << 2 | 1 << 3 | 1 << 14)))$(cper_le 8 0)$(cper_le 8 $pa)$(cper_le 8 0xfffffffffffff000)
	sec+=$(cper_le 2 0)$(cper_zeros 14)$(cper_zeros 24)$(cper_le 1 14)$(cper_zeros 7)
	guest 't=/sys/kernel/tracing/instances/mcelogd-vm-81
mkdir -p $t && echo 1 >$t/events/ras/memory_failure_event/enable && echo >$t/trace' >/dev/null
	check "ghes-mem: QEMU took the record (inject-ghes-v2-error)" ghes_inject "$(ghes_block 0 "$cper_guid_memory" "$sec")"
	kline=$(guest 't=/sys/kernel/tracing/instances/mcelogd-vm-81
for i in $(seq 60); do grep -q memory_failure_event: $t/trace && break; sleep 0.5; done
grep "memory_failure_event: " $t/trace | sed "s/^ *//"; echo 0 >$t/events/ras/memory_failure_event/enable; rmdir $t')
	note "kernel trace: $kline"
	hw=$(guest "dmesg | grep '\\[Hardware Error\\]' | sed 's/^\\[ *[0-9.]*\\] //' | grep -A12 'memory error'")
	note "kernel's CPER print: $(tr '\n' '|' <<<"$hw")"
	check "ghes-mem: the kernel printed the memory section with its address" \
		grep -qi "physical_address: $(printf '0x%016x' "$pa")" <<<"$hw"
	check "ghes-mem: the kernel ran memory_failure() on $pfn: free page, recovered" \
		grep -q "memory_failure_event: pfn $pfn: recovery action for free buddy page: Recovered" <<<"$kline"

	rec=$(wait_records 1 ".source == \"ras:memory_failure_event\" and .pfn == \"$pfn\"" 60 | head -n1)
	note "mcelogd: $rec"
	check "ghes-mem: mcelogd logged the memory failure of $pfn" test -n "$rec"
	[ -n "$rec" ] || return
	is "$(jq -c '.snapshot | [.cpu_from, (.counters.events.cycles > 0)]' <<<"$rec")" '["sample",true]' \
		"ghes-mem: its snapshot is of the CPU that ran memory_failure(), with PMUv3 cycles"
	check "ghes-mem: the kernel's trace line shows that CPU" \
		grep -q "\[0*$(jq -r '.snapshot.cpu' <<<"$rec")\]" <<<"$kline"
	is "$(guest "journalctl -b -o json --no-pager MESSAGE_ID=$(msgid MEMORY_FAILURE) MCE_PFN=$pfn" | grep -c .)" 1 \
		"ghes-mem: one journal entry for $pfn"
}
