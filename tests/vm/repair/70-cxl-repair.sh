# Issue 36 #6: a memory repair that the kernel and the device both carry out.
# `make check-vm-repair`, outside CI: it needs a kernel built from Debian's
# linux-source-7.3 with the CXL repair options Debian's own lacks
# (build-kernel.sh, kernel.config) and QEMU 11 from trixie-backports, whose
# cxl-type3 device answers the Perform Maintenance command and offers
# patrol scrub, ECS, soft and hard PPR and the four sparings as CXL features.
#
# One boot, 65's CXL machine line, with the device's memory online in a
# region (lib/cxl-region.sh): the kernel then repairs only a location that
# a DRAM or general media event of this boot reported (drivers/cxl/core/edac.c,
# cxl_mem_perform_ppr), which is what lets the kernel refuse.  mcelogd runs
# with [Memory] Repair=yes and an admin's repair rule.  Shown, each by a
# check that fails if it does not happen:
#  (a) the device asks for a soft PPR (a DRAM event with MAINTENANCE_NEEDED,
#      class 1, sub-class 0, at a VOLATILE DPA); the rule's repair is
#      accepted by the kernel (the sysfs writes succeed, the DPA as the
#      kernel keys it, flag bit included) and carried out by the device,
#      whose Memory Sparing Event Record the kernel traces
#      (cxl_memory_sparing) and mcelogd logs;
#  (b) a DRAM event whose Physical Address field carries a reserved bit
#      (5:2): the kernel keys its record by the raw field but traces the
#      DPA with bits 5:0 clear, so the DPA mcelogd writes is one the kernel
#      has no record of this boot; it refuses (EINVAL) and mcelogd spends no
#      limit (repairs_known, rules.state);
#  (c) a NOT_REPAIRABLE location (even though the device asks for PPR) and a
#      TE State Violation are never repaired, nor sent to the device;
#  (d) the scrub and ECS controls in mcectl status, as sysfs reads them.
# Before all that: the shipped unit keeps /sys read-only, so a repair without
# the repair.conf drop-in fails at its first write (EROFS), not counted.
. "$srcdir/tests/vm/lib/cxl-boot.sh"
VM_KERNEL=repair
VM_QEMU_VERSION=11
VM_DESC="a soft PPR the kernel accepts and QEMU 11's device carries out; the kernel's refusal; no repair of what cannot be"
# Restarts mcelogd with a configuration of its own.
VM_LAST=1

. "$srcdir/tests/vm/lib/cxl-inject.sh"
. "$srcdir/tests/vm/lib/cxl-region.sh"

edac=/sys/bus/edac/devices/cxl_mem0
# repair_reports: this boot's repair reports, one JSON object a line.
repair_reports() { guest "journalctl -b -o json --no-pager MESSAGE_ID=$(msgid REPAIR)"; }
# next_report N: sets rep to the (N)th repair report of the boot, once there
# is one (15 s), and notes its fields.  Not printed for $(...) to take: the
# note would go into rep with it.
next_report() {
	local i
	for i in $(seq 30); do
		rep=$(repair_reports | sed -n "${1}p")
		[ -n "$rep" ] && break
		sleep 0.5
	done
	note "report $1: $(jq -c '{MCE_REPAIR_OUTCOME, MCE_REPAIR_REFUSED, MCE_REPAIR_TYPE, MCE_REPAIR_LOCATION, MCE_REPAIR_ERRNO, MCE_REPAIR_FAILED_ATTRIBUTE, MCE_REPAIR_COUNTED, MCE_REPAIR_REASON}' <<<"$rep" 2>&1)"
}
# memory_status: mcectl status's memory object.
memory_status() { guest 'mcectl status --output json' | jq -c '.memory'; }
# repairs_in_state: the repair lines of mcelogd's rules state.
repairs_in_state() { guest "awk -F'\\t' '\$1 == \"repair\"' /var/lib/mcelogd/rules.state"; }
# sparing_lines: how many cxl_memory_sparing lines the kernel traced.
sparing_lines() { guest "grep -c ' cxl_memory_sparing: ' $cxl_trace/trace"; }

scenario() {
	local out st rep k n0 d
	check "repair: the cxl drivers load and the kernel sees mem0" cxl_drivers_up
	out=$(guest "ls $edac 2>&1; for f in $edac/mem_repair*; do echo \"\${f##*/}: \$(cat \$f/repair_type) persist_mode=\$(cat \$f/persist_mode) safe_when_in_use=\$(cat \$f/repair_safe_when_in_use)\"; done")
	printf '%s\n' "$out" | diag
	check "repair: the kernel registered EDAC device cxl_mem0 with a soft PPR (CONFIG_CXL_EDAC_MEM_REPAIR, QEMU 11)" \
		grep -q '^mem_repair[0-9]*: ppr persist_mode=0 ' <<<"$out"

	# (d) The scrub and ECS controls: what mcectl status says is what sysfs reads.
	st=$(guest 'mcectl status --output json')
	for d in scrub ecs_fru; do
		out=$(jq -c --arg f "$d" '[.edac_features[] | select(.device == "cxl_mem0" and .feature == $f) | del(.device, .feature)]' <<<"$st")
		check "repair: mcectl status lists cxl_mem0's $d controls" test "$out" != "[]"
		is "$out" "$(guest "for f in $edac/$d[0-9]*; do
	printf '{\"instance\":%s' \${f##*/$d}
	for a in enable_background current_cycle_duration min_cycle_duration max_cycle_duration mode log_entry_type threshold; do
		v=\$(cat \$f/\$a 2>/dev/null) && printf ',\"%s\":\"%s\"' \$a \"\$v\"
	done
	echo '}'
done | jq -sc .")" "repair: mcectl status shows cxl_mem0's $d controls with the values sysfs reads"
	done
	note "status: $(jq -c '[.edac_features[] | select(.feature != "mem_repair")]' <<<"$st" 2>&1)"
	note "status, lines that are not its JSON: $(grep -v '^{' <<<"$st" | head -n 3)"
	check "repair: mcectl status (text) lists cxl_mem0's scrub and ECS with their values" \
		guest "mcectl status >/run/status.txt
grep -q \"^  cxl_mem0 scrub0: enable_background=\$(cat $edac/scrub0/enable_background) \" /run/status.txt &&
grep -q \"^  cxl_mem0 ecs_fru0: mode=\$(cat $edac/ecs_fru0/mode) \" /run/status.txt || cat /run/status.txt"

	# The device's memory online: the kernel now checks each repair against its records.
	out=$(region_up)
	check "repair: a ram region over mem0, its memory online" grep -qE '^region[0-9]+$' <<<"$(tail -n1 <<<"$out")"
	check "repair: a tracefs instance of the rig's own traces the cxl events" \
		guest "mkdir -p $cxl_trace && echo 1 >$cxl_trace/events/cxl/enable"
	check "repair: Repair=yes, generous limits, an admin's repair rule; mcelogd restarted" guest "
etc=\$(mcelogd --help | sed -n 's|.*configuration file (default \\(.*\\)/mcelogd.conf).*|\\1|p')
mkdir -p \$etc/rules.d
printf '\\n[Memory]\\nRepair=yes\\nRepairsPerDay=10\\nRepairsPerDevice=10\\n' >>\$etc/mcelogd.conf
printf '[Rule]\\nName=vm-repair\\nMatch=kind=cxl_dram|cxl_general_media\\nKey=label dpa\\nAction=repair\\n' >\$etc/rules.d/93-vm-repair.rules
systemctl restart mcelogd"

	# The shipped unit alone: /sys is read-only to mcelogd (ProtectKernelTunables=yes).
	check "repair: QMP cxl-inject-dram-event, an ECC error on row 555" cxl_inject cxl-inject-dram-event \
		'{"log":"warning","flags":1,"sub-type":0,"dpa":12288,"descriptor":0,"type":0,"transaction-type":1,"channel":1,"rank":0,
		  "nibble-mask":33,"bank-group":0,"bank":1,"row":555,"column":8,"correction-mask":[1,2,3,4]}'
	next_report 1
	is "$(jq -r '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_ERRNO) \(.MCE_REPAIR_COUNTED)"' <<<"$rep")" "failed 30 no" \
		"repair: without the repair.conf drop-in the unit's read-only /sys refuses the first write (EROFS), not counted"
	check "repair: the drop-in installed as the manual says; mcelogd restarted" guest '
f=$(ls /usr/share/mcelogd/drop-ins/repair.conf /usr/local/share/mcelogd/drop-ins/repair.conf 2>/dev/null | head -n1)
[ -n "$f" ] || { echo "no repair.conf installed"; exit 1; }
mkdir -p /etc/systemd/system/mcelogd.service.d && cp "$f" /etc/systemd/system/mcelogd.service.d/
systemctl daemon-reload && systemctl restart mcelogd'
	st=$(memory_status)
	note "memory: $st"
	n0=$(jq -r .repairs_known <<<"$st")
	is "$n0" 0 "repair: no repair known yet"

	# (a) The device asks for a soft PPR at DPA 0x4000, VOLATILE (raw field 0x4001).
	check "repair: QMP cxl-inject-dram-event with MAINTENANCE_NEEDED, class 1 (PPR) sub-class 0 (sPPR)" \
		cxl_inject cxl-inject-dram-event \
		'{"log":"warning","flags":9,"sub-type":0,"maint-op-class":1,"maint-op-subclass":0,"dpa":16385,"descriptor":0,"type":0,
		  "transaction-type":1,"channel":1,"rank":0,"nibble-mask":33,"bank-group":1,"bank":2,"row":777,"column":16,
		  "correction-mask":[1,2,3,4]}'
	k=$(kernel_line cxl_dram)
	note "kernel: $k"
	next_report 2
	is "$(jq -r '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_DEVICE) \(.MCE_REPAIR_TYPE) \(.MCE_REPAIR_PERSIST) \(.MCE_RULE)"' <<<"$rep")" \
		"done cxl_mem0 ppr soft vm-repair" "repair: the rule's soft PPR is done (every write accepted by the kernel)"
	is "$(jq -r '.MCE_JSON | fromjson | .repair.writes | map("\(.attribute)=\(.value)") | join(" ")' <<<"$rep")" \
		"dpa=0x4001 nibble_mask=0x21 repair=1" \
		"repair: written as the kernel keys its record: the DPA with its VOLATILE bit, the nibble mask, then repair"
	out=$(trace_line "$cxl_trace" cxl_memory_sparing)
	note "kernel: $out"
	check "repair: the device carried it out: its Memory Sparing Event Record, traced by the kernel" \
		grep -q 'cxl_memory_sparing: ' <<<"$out"
	is "$(echo "$(kv "$out" channel) $(kv "$out" rank) $(kv "$out" bank_group) $(kv "$out" bank) $(kv "$out" row)")" \
		"1 0 1 2 777" "repair: the device's report names the repaired location (channel, rank, bank group, bank, row)"
	check "repair: mcelogd logged the device's report (cxl:cxl_memory_sparing)" \
		wait_records 1 '.source == "cxl:cxl_memory_sparing"' 30
	st=$(memory_status)
	is "$(jq -r '"\(.repairs_done) \(.repairs_known)"' <<<"$st")" "1 1" "repair: mcectl status counts the repair done, one known"
	check "repair: the rules state holds the repair of that row, done, soft" \
		grep -qP '\tmem0 row channel=1 rank=0 bank_group=1 bank=2 row=777\t[0-9]+\tdone\t.*\tsoft$' <<<"$(repairs_in_state)"

	# (b) A DPA the kernel has no record of this boot.
	check "repair: QMP cxl-inject-dram-event, an ECC error whose address field has reserved bit 2 set" \
		cxl_inject cxl-inject-dram-event \
		'{"log":"warning","flags":1,"sub-type":0,"dpa":24580,"descriptor":0,"type":0,"transaction-type":1,"channel":1,"rank":0,
		  "nibble-mask":33,"bank-group":2,"bank":1,"row":888,"column":8,"correction-mask":[1,2,3,4]}'
	next_report 3
	is "$(jq -r '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_FAILED_ATTRIBUTE) \(.MCE_REPAIR_ERRNO) \(.MCE_REPAIR_COUNTED)"' <<<"$rep")" \
		"failed repair 22 no" "repair: the kernel refuses the repair of DPA 0x6000, which no event of this boot reported (EINVAL), not counted"
	st=$(memory_status)
	# (The counts are this run's: the restart for the drop-in cleared the EROFS failure.)
	is "$(jq -r '"\(.repairs_known) \(.repairs_done) \(.repairs_failed)"' <<<"$st")" "1 1 1" \
		"repair: no limit spent: still one repair known; the refusal counted as failed"
	# The intent was synced before the write; the state without it is written
	# whole by the daemon's next once-a-second save (rules-stage.c, ask_repair).
	for _ in $(seq 15); do
		[ "$(repairs_in_state | grep -c 'row=888')" = 0 ] && break
		sleep 0.2
	done
	is "$(repairs_in_state | grep -c 'row=888')" 0 "repair: within a second or two, the rules state holds no repair of row 888"

	# (c) What is never repaired, whatever the device asks.
	n0=$(sparing_lines)
	check "repair: QMP cxl-inject-dram-event, NOT_REPAIRABLE, the device asking for sPPR" \
		cxl_inject cxl-inject-dram-event \
		'{"log":"warning","flags":9,"sub-type":0,"maint-op-class":1,"maint-op-subclass":0,"dpa":32771,"descriptor":0,"type":0,
		  "transaction-type":1,"channel":1,"rank":0,"nibble-mask":33,"bank-group":3,"bank":0,"row":999,"column":8,
		  "correction-mask":[1,2,3,4]}'
	next_report 4
	is "$(jq -r '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_REFUSED)"' <<<"$rep")" "refused not-repairable" \
		"repair: a NOT_REPAIRABLE location is refused"
	check "repair: QMP cxl-inject-general-media-event, a TE State Violation" cxl_inject cxl-inject-general-media-event \
		'{"log":"warning","flags":1,"sub-type":0,"dpa":40960,"descriptor":0,"type":3,"transaction-type":1,"channel":1,"rank":0}'
	next_report 5
	is "$(jq -r '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_REFUSED)"' <<<"$rep")" "refused not-media-fault" \
		"repair: a TE State Violation is refused"
	sleep 2
	is "$(sparing_lines)" "$n0" "repair: the device was asked for nothing more (no new cxl_memory_sparing)"
	st=$(memory_status)
	note "memory: $st"
	is "$(jq -r '"\(.repairs_known) \(.repairs_done) \(.repairs_refused)"' <<<"$st")" "1 1 2" \
		"repair: mcectl status: one repair done and known, two refused"

	guest "echo 0 >$cxl_trace/events/cxl/enable; rmdir $cxl_trace" >/dev/null
}
