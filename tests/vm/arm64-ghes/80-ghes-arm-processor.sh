# Issue 29, items 3-4: a real ras:arm_event.  The aarch64 guest boots through
# UEFI (qemu-efi-aarch64) on `-M virt,ras=on`, so the firmware installs
# QEMU's ACPI tables with a HEST; QEMU 11 (VM_QEMU_VERSION=11, tests/vm/kernels.sh)
# writes a CPER record we build here into the HEST's QMP error source
# (inject-ghes-v2-error) and raises its GPIO notification.  The kernel's GHES
# driver reads it, prints it ("[Hardware Error]:") and, for the ARM processor
# section, fires ras:arm_event (drivers/ras/ras.c log_arm_hw_error(): the
# error information, context and vendor bytes, the severity, and the logical
# CPU of the section's MPIDR), which mcelogd decodes.
#
# The record: a corrected ARM processor error section (UEFI 2.10 §N.2.4.4)
# naming CPU 1 by the MPIDR its kernel booted it with, the guest's own MIDR,
# two error information structures (a level-2 cache data read with both fault
# addresses, a level-1 TLB instruction fetch), two contexts (an AArch64 EL1
# register array, and a misc-register array holding ERXSTATUS_EL1 and
# ERXADDR_EL1, an Arm RAS error record), and 8 vendor bytes.  Every field
# mcelogd reports is checked against what we injected, against the kernel's
# own trace line of the same event, and against the kernel's CPER print.
VM_DESC="GHES on arm64: an ARM processor error CPER injected by QEMU, ras:arm_event, mcelogd's decode"
. "$srcdir/tests/vm/lib/ghes-boot.sh"

# hexnum VALUE: a hex number as 0x<lowercase, no leading zeros>, whatever its
# width; anything else (null: mcelogd gave no such field) as it is.
hexnum() { if [[ $1 =~ ^(0x[0-9a-fA-F]+|[0-9]+)$ ]]; then printf '0x%x' "$(($1))"; else printf '%s' "$1"; fi; }

scenario() {
	local line hwid midr mpidr ei1 ei2 el1 misc oem sec rec kline hw j tr
	check "ghes: the guest booted with ACPI, its firmware gave it a HEST" guest 'test -s /sys/firmware/acpi/tables/HEST'
	note "dmesg: $(guest 'dmesg | grep -iE "HEST|GHES|APEI|HED" | sed "s/^\[ *[0-9.]*\] //"' | tr '\n' '|')"
	check "ghes: the GHES driver bound the HEST's error sources" guest 'ls /sys/bus/platform/drivers/GHES | grep -q "^GHES"'
	check "ghes: this kernel's ras:arm_event carries the error information (pei_buf)" \
		guest 'grep -q pei_buf /sys/kernel/tracing/events/ras/arm_event/format'

	# "CPU1: Booted secondary processor 0x0000000001 [0x000f0510]": MPIDR's affinity, and MIDR.
	line=$(guest 'dmesg | grep -m1 "CPU1: Booted secondary processor"')
	hwid=$(sed -n 's/.*processor \(0x[0-9a-f]*\) .*/\1/p' <<<"$line")
	midr=$(guest 'cat /sys/devices/system/cpu/cpu1/regs/identification/midr_el1')
	check "ghes: CPU 1's MPIDR ($hwid) and MIDR ($midr) from its kernel" test -n "$hwid" -a -n "$midr"
	mpidr=$(printf '0x%x' $((hwid | 0x80000000)))   # bit 31 reads as one in MPIDR_EL1

	# Error information (§N.2.4.4.1), 32 bytes each: version, length, validation
	# (multiple error, flags, info, VA, PA), type (bitmap: 2 cache, 4 TLB),
	# multiple error, flags (1 first, 2 last), error information, VA, PA.
	# Cache: transaction type, operation, level, context corrupt and corrected
	# valid (0x1f); data access (1 << 16), data read (3 << 18), level 2, corrected.
	ei1=$(cper_le 1 0)$(cper_le 1 32)$(cper_le 2 0x1f)$(cper_le 1 0x02)$(cper_le 2 2)$(cper_le 1 0x03)
	ei1+=$(cper_le 8 0x48d001f)$(cper_le 8 0xffff800012345000)$(cper_le 8 0x41234000)
	# TLB: transaction, operation, level, corrected valid (0x17); instruction (0),
	# instruction fetch (5 << 18), level 1, corrected; only flags and info valid.
	ei2=$(cper_le 1 0)$(cper_le 1 32)$(cper_le 2 0x06)$(cper_le 1 0x04)$(cper_le 2 0)$(cper_le 1 0)
	ei2+=$(cper_le 8 0x4540017)$(cper_le 8 0)$(cper_le 8 0)
	# Context information (§N.2.4.4.2): version, type, array size, the array.
	# Type 5, AArch64 EL1: 17 registers, ELR_EL1, ESR_EL1, FAR_EL1 first.
	el1=$(cper_le 2 0)$(cper_le 2 5)$(cper_le 4 136)
	el1+=$(cper_le 8 0xffff800010abc120)$(cper_le 8 0x96000010)$(cper_le 8 0xffff800012345000)$(cper_zeros 112)
	# Type 8, misc registers: (MRS encoding u16, value u64) pairs. ERXSTATUS_EL1
	# (0x42a2): AV, V, CE "at least one error corrected" (2 << 24), SERR 6 (data
	# from associative memory); ERXADDR_EL1 (0x42a3): NS, the physical address.
	misc=$(cper_le 2 0)$(cper_le 2 8)$(cper_le 4 20)
	misc+=$(cper_le 2 0x42a2)$(cper_le 8 0xc2000006)$(cper_le 2 0x42a3)$(cper_le 8 0x8000000041234000)
	oem=0123456789abcdef
	# Section (§N.2.4.4): validation (MPIDR, affinity level, running state,
	# vendor info), 2 error infos, 2 contexts, section length, affinity level 0,
	# 3 reserved, MPIDR, MIDR, running state (bit 0: running), PSCI state.
	sec=$(cper_le 4 0xf)$(cper_le 2 2)$(cper_le 2 2)$(cper_le 4 $((40 + (${#ei1} + ${#ei2} + ${#el1} + ${#misc} + ${#oem}) / 2)))
	sec+=$(cper_le 1 0)$(cper_zeros 3)$(cper_le 8 "$mpidr")$(cper_le 8 "$midr")$(cper_le 4 1)$(cper_le 4 0)
	sec+=$ei1$ei2$el1$misc$oem

	tr=/sys/kernel/tracing/instances/mcelogd-vm-80
	guest "mkdir -p $tr && echo 1 >$tr/events/ras/arm_event/enable && echo >$tr/trace" >/dev/null
	check "ghes: QEMU took the record (inject-ghes-v2-error)" ghes_inject "$(ghes_block 2 "$cper_guid_arm" "$sec")"
	kline=$(trace_line $tr arm_event 30)
	guest "echo 0 >$tr/events/ras/arm_event/enable; rmdir $tr" >/dev/null
	note "kernel trace: $kline"
	check "ghes: the kernel fired ras:arm_event" grep -q 'arm_event: ' <<<"$kline"
	hw=$(guest 'dmesg | grep "\[Hardware Error\]" | sed "s/^\[ *[0-9.]*\] //"')
	note "kernel's CPER print: $(tr '\n' '|' <<<"$hw")"

	rec=$(wait_records 1 '.source == "ras:arm_event"' 60 | head -n1)
	note "mcelogd: $rec"
	check "ghes: mcelogd logged the ras:arm_event" test -n "$rec"
	[ -n "$rec" ] || return

	# The section's header, as injected, as the kernel traced it, as mcelogd logged it.
	is "$(jq -r '[.severity, .cpu, .mpidr, .midr, .affinity, .running_state, .psci_state] | map(tostring) | join(" ")' <<<"$rec" |
		{ read -r s c m i a r p; echo "$s $c $(hexnum "$m") $(hexnum "$i") $a $(hexnum "$r") $(hexnum "$p")"; })" \
		"corrected 1 $mpidr $(hexnum "$midr") 0 0x1 0x0" \
		"ghes: severity, CPU (from the MPIDR), MPIDR, MIDR, affinity level, running and PSCI state as injected"
	# "error" is the GHES severity the kernel hands the event (GHES_SEV_CORRECTED,
	# 1), not the CPER one we wrote (2): mcelogd's ghes_severity.
	is "$(sed -n 's/.*cpu: \([-0-9]*\); error: \([0-9]*\);.*MPIDR: \([0-9a-f]*\); MIDR: \([0-9a-f]*\);.*/\1 \2 \3 \4/p' <<<"$kline" |
		{ read -r c e m i; echo "$c $e $(hexnum "0x$m") $(hexnum "0x$i")"; })" "1 1 $mpidr $(hexnum "$midr")" \
		"ghes: the kernel's trace line says the same: cpu 1, error 1 (GHES corrected), MPIDR, MIDR"
	is "$(jq -r .ghes_severity <<<"$rec")" corrected "ghes: mcelogd's ghes_severity: corrected"
	check "ghes: the kernel's CPER print names the same MPIDR" grep -qi "MPIDR): $(printf '0x%016x' "$mpidr")" <<<"$hw"

	# The raw blocks: mcelogd keeps them as the kernel traced them.  Linux 7.3
	# traces 8 bytes of ctx a context (the headers' length) and the rest of the
	# contexts at the start of oem; ctx and oem together are what we injected.
	j=$(sed -n 's/.*ARM Processor Err Info raw data: \([0-9a-fA-F ]*\);.*/\1/p' <<<"$kline" | tr -d ' ' | tr 'A-F' 'a-f')
	is "$j" "$ei1$ei2" "ghes: the kernel's trace line carries the error information bytes as injected"
	is "$(jq -r '.pei' <<<"$rec")" "$j" "ghes: pei: the kernel's error information bytes"
	j=$(sed -n 's/.*Context Info raw data: \([0-9a-fA-F ]*\);.*/\1/p' <<<"$kline" | tr -d ' ' | tr 'A-F' 'a-f')
	is "$(jq -r '.ctx' <<<"$rec")" "$j" "ghes: ctx: the kernel's context bytes ($((${#j} / 2)) of them)"
	j=$(sed -n 's/.*Vendor Specific Err Info raw data: \([0-9a-fA-F ]*\).*/\1/p' <<<"$kline" | tr -d ' ' | tr 'A-F' 'a-f')
	is "$(jq -r '.oem' <<<"$rec")" "$j" "ghes: oem: the kernel's vendor bytes ($((${#j} / 2)) of them)"
	is "$(jq -r '.ctx + .oem' <<<"$rec")" "$el1$misc$oem" "ghes: ctx and oem together: the contexts and vendor bytes injected"
	note "kernel's lengths: $(grep -oE '(Info|Context Info|Vendor Specific Err Info) data len: [0-9]+' <<<"$kline" | tr '\n' ' ')"
	if [ "$(jq -r '.ctx | length' <<<"$rec")" -lt $((${#el1} + ${#misc})) ]; then
		is "$(jq -c '[.ctx_from_oem, .vendor_data]' <<<"$rec")" "[$(( (${#el1} + ${#misc} - $(jq -r '.ctx | length' <<<"$rec")) / 2 )),\"$oem\"]" \
			"ghes: the contexts read on into oem (ctx_from_oem), the vendor bytes after them (vendor_data)"
	fi

	# The first error information, decoded, against what was injected and the kernel's print.
	is "$(jq -c '[.error_type, .multiple_error, .error_flag_names, .transaction_type, .operation, .level,
		.processor_context_corrupt, .corrected]' <<<"$rec")" \
		'["cache",2,"first|last","data access","data read",2,false,true]' \
		"ghes: first error information: cache, 2 errors, first|last, data access, data read, level 2, corrected"
	is "$(hexnum "$(jq -r .error_info <<<"$rec")") $(hexnum "$(jq -r .virtual_fault_address <<<"$rec")") $(hexnum "$(jq -r .physical_fault_address <<<"$rec")")" \
		"0x48d001f 0xffff800012345000 0x41234000" "ghes: its error_info, virtual and physical fault address"
	check "ghes: the kernel's print has the same error_info and physical fault address" \
		eval 'grep -q "error_info: 0x00000000048d001f" <<<"$hw" && grep -q "physical fault address: 0x0000000041234000" <<<"$hw"'
	# Field by field with the kernel's words; its "num errors" is multiple_error + 1.
	check "ghes: the kernel's print: cache error, Data Access, Data read, level 2, corrected, 3 errors" \
		eval 'grep -q "error_type: 0x02: cache error" <<<"$hw" && grep -q "transaction type: Data Access" <<<"$hw" &&
			grep -q "cache error, operation type: Data read" <<<"$hw" && grep -q "cache level: 2" <<<"$hw" &&
			grep -q "the error has been corrected" <<<"$hw" && grep -q "num errors: 3" <<<"$hw"'
	is "$(jq -r .pei_decoded <<<"$rec")" \
		"cache level 2 data read corrected multiple (2) flags first|last PA 0x41234000 VA 0xffff800012345000; tlb level 1 instruction fetch corrected" \
		"ghes: both structures in pei_decoded (the second a TLB instruction fetch, level 1)"
	check "ghes: the kernel's print has the TLB one too: Instruction, Instruction fetch, level 1" \
		eval 'grep -q "error_type: 0x04: TLB error" <<<"$hw" && grep -q "transaction type: Instruction$" <<<"$hw" &&
			grep -q "TLB error, operation type: Instruction fetch" <<<"$hw" && grep -q "TLB level: 1" <<<"$hw"'

	# The contexts: the EL1 fault registers, and the Arm RAS error record.
	is "$(jq -c '[.ctx_count, .context_types]' <<<"$rec")" '[2,"AArch64 EL1 context registers, misc system registers"]' \
		"ghes: two contexts, AArch64 EL1 and misc registers"
	is "$(for k in elr_el1 esr_el1 far_el1 err_status err_addr; do hexnum "$(jq -r ".$k" <<<"$rec")"; printf ' '; done)" \
		"0xffff800010abc120 0x96000010 0xffff800012345000 0xc2000006 0x8000000041234000 " \
		"ghes: ELR/ESR/FAR_EL1, ERXSTATUS_EL1 and ERXADDR_EL1 from the contexts"
	is "$(jq -c '[.err_status_flags, .err_status_ce, .err_status_serr]' <<<"$rec")" \
		'["V|AV","at least one error corrected","data value from associative memory"]' \
		"ghes: ERXSTATUS decoded: V|AV, CE at least one error corrected, SERR 6"
	check "ghes: the kernel's print shows both contexts" \
		eval 'grep -qi "AArch64 EL1 context registers" <<<"$hw" && grep -qi "Misc. system register structure" <<<"$hw"'

	# The snapshot: of the CPU the section's MPIDR names (the kernel's cpu field).
	is "$(jq -c '.snapshot | [.cpu, .cpu_from]' <<<"$rec")" '[1,"record"]' \
		"ghes: the record's snapshot is of CPU 1, the MPIDR's CPU (cpu_from record)"
	is "$(jq -r '.snapshot.counters.cpu' <<<"$rec")" 1 "ghes: snapshot.counters is of CPU 1"
	is "$(jq -r '.snapshot.counters.events.cycles > 0' <<<"$rec")" true "ghes: PMUv3 cycles counted on CPU 1"

	is "$(guest "journalctl -b -o json --no-pager MESSAGE_ID=$(msgid ARM_PROCESSOR)" | grep -c .)" 1 \
		"ghes: one journal entry, of the ARM processor class"
	check "ghes: mcectl query's table shows it" guest "mcectl query --since 1h | grep -q 'Corrected ARM cache error, level 2, on CPU 1'"
}
