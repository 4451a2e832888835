# Issue 26 (across reboots): the kernel forgets its offlined pages at a
# reboot, mcelogd does not.  A page rule soft-offlines a page (HWPOISON set,
# HardwareCorrupted grows); then the guest reboots for real (vm_reboot: a new
# boot id, the same kernel started afresh) with /var/lib/mcelogd carried
# across as a disk keeps it.  In the new boot, before mcelogd starts, the
# kernel holds no poisoned page; once it starts, mcelogd offlines again every
# page its state file names (OfflineAgainAtBoot=, on by default): its log says
# so per page, the pages are poisoned again, HardwareCorrupted counts them,
# and mcectl status reports them.  The kernel's refusal of such an offlining
# (an alert) is 66's case.
VM_DESC="a known-bad page is offlined again at start after a real reboot of the guest"
# 80's boot (an Intel CPU, whose records name a page; 1 s polling), after it:
# whatever pages 80 offlined are offlined again too.
VM_CPU="qemu64,+mce,+mca,vendor=GenuineIntel,family=6,model=63,stepping=2"
VM_APPEND="mcelogd_vm.check_interval=1"
# Restarts mcelogd and reboots the guest: after the boot's no-restart checks.
VM_LAST=1

. "$srcdir/tests/vm/lib/page-rule.sh"

scenario() {
	local pfn addr hex before boot_before boot_after pages n st
	pfn=$(free_pfns 0x8000 0x34000 | head -n1)
	if ! [[ "$pfn" =~ ^[0-9]+$ ]]; then not_ok "reboot: found a free guest page (got '$pfn')"; return; fi
	hex=$(printf '0x%x' "$pfn")
	addr=$((pfn * 4096 + 0x40))
	# One error in bank 8 (no other scenario's) offlines its page: the
	# shipped rule's ten errors are 80's to prove.
	check "reboot: an admin's rule soft-offlines a page at its first error in bank 8" admin_rule 92-vm-reboot.rules '[Rule]\nName=vm-reboot\nMatch=bank=8\nKey=page\nThreshold=1 in 1h\nAction=soft-offline\n'
	before=$(corrupted_kb)
	check "reboot: the error is logged" inject_ce 1 "$addr" 8
	is "$(hwpoison "$pfn")" 1 "reboot: the kernel marked the page poisoned (soft-offlined)"
	is "$(corrupted_kb)" "$((before + 4))" "reboot: HardwareCorrupted grew by one page (4 kB)"
	pages=$(guest "awk -F'\\t' '\$1 == \"page\" && \$5 == \"ok\" { print \$2 }' /var/lib/mcelogd/rules.state")
	n=$(grep -c . <<<"$pages")
	check "reboot: the state file names the page as offlined" grep -qx "$hex" <<<"$pages"
	note "pages offlined in this boot: $(echo $pages)"
	boot_before=$(guest 'cat /proc/sys/kernel/random/boot_id')

	ts=$(date +%s)
	check "reboot: the guest rebooted, /var/lib/mcelogd kept" vm_reboot /var/lib/mcelogd
	note "the reboot took $(( $(date +%s) - ts ))s"
	boot_after=$(guest 'cat /proc/sys/kernel/random/boot_id')
	if [ -n "$boot_after" ] && [ "$boot_after" != "$boot_before" ]; then ok "reboot: a new boot id ($boot_after)"
	else not_ok "reboot: a new boot id (before '$boot_before', after '$boot_after')"; fi
	is "$(corrupted_kb)" 0 "reboot: before mcelogd starts, the new boot's kernel has no page offlined"
	is "$(guest "awk -F'\\t' '\$1 == \"page\" && \$5 == \"ok\" { print \$2 }' /var/lib/mcelogd/rules.state" | grep -c .)" "$n" \
		"reboot: the state file came across with its $n pages"

	check "reboot: mcelogd starts in the new boot" vm_provision
	check "reboot: its log says the page was offlined again at start" \
		guest "for i in \$(seq 20); do journalctl -b -u mcelogd -o cat --no-pager |
	grep -qF 'Page $hex, offlined in an earlier boot, soft-offline again: done' && exit 0; sleep 0.5; done; exit 1"
	is "$(guest "journalctl -b -u mcelogd -o cat --no-pager | grep -c 'offlined in an earlier boot, soft-offline again: done'")" "$n" \
		"reboot: one such line per page the state file names ($n)"
	is "$(hwpoison "$pfn")" 1 "reboot: the kernel marked the page poisoned again"
	is "$(corrupted_kb)" "$((4 * n))" "reboot: HardwareCorrupted counts the $n pages again ($((4 * n)) kB)"
	st=$(guest 'mcectl status --output json 2>/dev/null')
	is "$(jq -c '[.memory.pages_offlined_again_at_start, .memory.pages_offlined_this_boot, .memory.hardware_corrupted_kib]' <<<"$st")" \
		"[$n,$n,$((4 * n))]" "reboot: mcectl status: pages offlined again at start, this boot, HardwareCorrupted"
	check "reboot: mcectl status says so in words" \
		guest "mcectl status | grep -F 'Pages offlined by the rules: $n this boot ($n again at start)'"
	is "$(guest "journalctl -b -o json --no-pager MESSAGE_ID=$(msgid ALERT) | grep -c .")" 0 \
		"reboot: no alert: the kernel took every page again"
}
