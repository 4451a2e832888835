# Issue 28 #4 on the real kernel: Action=repair fed by a DRAM event that
# QEMU's cxl-type3 device reports to Linux 7.3, in the CXL boot.  Not in the
# default set (CI's time): `make check-vm-cxl-repair`.
#
# No repair can be done here, and the scenario says why rather than pretends:
# Debian's 7.3 kernel is built without CONFIG_EDAC_MEM_REPAIR,
# CONFIG_CXL_FEATURES and so CONFIG_CXL_EDAC_MEM_FEATURES and
# CONFIG_CXL_EDAC_MEM_REPAIR (its config in linux-base-7.3.4+deb13-amd64),
# so /sys/bus/edac/devices has no cxl_mem0 whatever the device offers; and
# QEMU 10.0's type-3 device has Get Supported Features with patrol scrub and
# ECS but no maintenance command, so no PPR or sparing (QEMU 11.1 has
# MAINTENANCE_PERFORM).  What this proves on the real kernel is the rest of
# the path: with [Memory] Repair=yes and an admin's repair rule, the
# kernel's cxl_dram event becomes mcelogd's record, the rule fires, mcelogd
# reads the real EDAC tree, finds no repair feature for mem0 and logs one
# repair report (refused, not-offered, its reason naming the kernel option),
# writes nothing, and mcectl status counts it.  The writes themselves are
# proven against a stand-in tree (tests/integration/repair.sh).
. "$srcdir/tests/vm/lib/cxl-boot.sh"
. "$srcdir/tests/vm/lib/cxl-inject.sh"
VM_DESC="Action=repair on a real CXL DRAM event: refused, mem0 offers no repair on this kernel"
# Restarts mcelogd with a configuration of its own.
VM_LAST=1

# repair_reports: the guest's repair reports of this boot, one JSON object a line.
repair_reports() { guest "journalctl -b -o json --no-pager MESSAGE_ID=$(msgid REPAIR)"; }

scenario() {
	local dpa=0x0000000000005000 rep st n
	check "cxl-repair: the cxl drivers load and the kernel sees mem0" cxl_drivers_up
	note "edac: $(guest 'ls /sys/bus/edac/devices/ 2>&1' | tr '\n' ' ')"
	is "$(guest '[ -e /sys/bus/edac/devices/cxl_mem0 ] && echo present || echo absent')" absent \
		"cxl-repair: this kernel registers no EDAC device for mem0 (no CONFIG_CXL_EDAC_MEM_FEATURES)"
	check "cxl-repair: Repair=yes and an admin's repair rule; mcelogd restarted" guest "
etc=\$(mcelogd --help | sed -n 's|.*configuration file (default \\(.*\\)/mcelogd.conf).*|\\1|p')
mkdir -p \$etc/rules.d
cp -a \$etc/mcelogd.conf /run/mcelogd.conf.saved 2>/dev/null || : >/run/mcelogd.conf.saved
printf '\\n[Memory]\\nRepair=yes\\n' >>\$etc/mcelogd.conf
printf '[Rule]\\nName=vm-cxl-repair\\nMatch=kind=cxl_dram\\nAction=repair\\n' >\$etc/rules.d/93-vm-cxl-repair.rules
systemctl restart mcelogd"
	st=$(guest 'mcectl status --output json')
	is "$(jq -r '.memory.repair_enabled' <<<"$st")" true "cxl-repair: mcectl status says repair is on"

	check "cxl-repair: QMP cxl-inject-dram-event" cxl_inject cxl-inject-dram-event \
		'{"log":"warning","flags":1,"dpa":20480,"descriptor":0,"type":0,"transaction-type":2,"channel":1,"rank":0,
		  "nibble-mask":33,"bank-group":1,"bank":2,"row":777,"column":16,"correction-mask":[1,2,3,4]}'
	check "cxl-repair: mcelogd logged the DRAM event" wait_records 1 \
		".source == \"cxl:cxl_dram\" and .dpa == \"$dpa\"" 30
	for _ in $(seq 20); do
		rep=$(repair_reports | tail -n1)
		[ -n "$rep" ] && break
		sleep 0.5
	done
	note "report: $(jq -c '{MESSAGE, MCE_REPAIR_OUTCOME, MCE_REPAIR_REFUSED, MCE_MEMDEV, MCE_RULE}' <<<"$rep" 2>&1)"
	is "$(repair_reports | grep -c .)" 1 "cxl-repair: one repair report in the journal"
	is "$(jq -r '"\(.MCE_REPAIR_OUTCOME) \(.MCE_REPAIR_REFUSED) \(.MCE_MEMDEV) \(.MCE_RULE) \(.PRIORITY)"' <<<"$rep")" \
		"refused not-offered mem0 vm-cxl-repair 4" \
		"cxl-repair: refused, not offered, for mem0 and the rule, at warning"
	check "cxl-repair: its reason names the kernel option" grep -q "CONFIG_CXL_EDAC_MEM_REPAIR" \
		<<<"$(jq -r .MCE_REPAIR_REASON <<<"$rep")"
	n=$(guest "awk -F'\\t' '\$1 == \"repair\"' /var/lib/mcelogd/rules.state | grep -c ." )
	is "$n" 0 "cxl-repair: nothing was asked, so the state holds no repair"
	st=$(guest 'mcectl status --output json')
	is "$(jq -r '"\(.memory.repairs_refused) \(.memory.repairs_done) \(.memory.repairs_failed)"' <<<"$st")" "1 0 0" \
		"cxl-repair: mcectl status counts the refusal"

	check "cxl-repair: the configuration and rules restored; mcelogd restarted" guest "
etc=\$(mcelogd --help | sed -n 's|.*configuration file (default \\(.*\\)/mcelogd.conf).*|\\1|p')
rm -f \$etc/rules.d/93-vm-cxl-repair.rules
if [ -s /run/mcelogd.conf.saved ]; then cp -a /run/mcelogd.conf.saved \$etc/mcelogd.conf; else rm -f \$etc/mcelogd.conf; fi
systemctl restart mcelogd"
}
