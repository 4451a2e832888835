# Issue 26: the kernel's own refusal of soft offlining (vm.enable_soft_offline,
# Linux 6.11 and later; 7.3 here, in 65-cxl-events' boot).  With the sysctl
# at 0 the kernel refuses a soft offline (writing the page to
# soft_offline_page fails); two corrected errors on one page then trip an
# admin's page rule with a soft offline (the shipped rule's ten errors cost a
# minute more under TCG; 80 proves that rule): mcelogd does not count the page as offlined, says why
# naming the sysctl (its log, and an alert entry with the failed action),
# mcectl status shows soft offlining forbidden, and the page stays unpoisoned.
. "$srcdir/tests/vm/lib/cxl-boot.sh"
VM_DESC="vm.enable_soft_offline=0: the page rule's soft offline is refused, said so, not counted"
# mcelogd warns on purpose: after the boot's no-warning checks.
VM_LAST=1

. "$srcdir/tests/vm/lib/page-rule.sh"

scenario() {
	local pfn pfn_k addr key i a st
	check "offline refused: this kernel has vm.enable_soft_offline" guest 'test -f /proc/sys/vm/enable_soft_offline'
	check "offline refused: sysctl vm.enable_soft_offline=0" guest 'sysctl -q vm.enable_soft_offline=0'
	read -r pfn pfn_k <<<"$(free_pfns 0x8000 0x34000 2 | tr '\n' ' ')"
	if ! [[ "$pfn" =~ ^[0-9]+$ && "$pfn_k" =~ ^[0-9]+$ ]]; then
		not_ok "offline refused: found two free guest pages (got '$pfn', '$pfn_k')"
		return
	fi
	# The kernel itself refuses (EOPNOTSUPP), as mcelogd expects.
	check "offline refused: the kernel refuses soft_offline_page itself" guest "
! printf '0x%x\n' $((pfn_k * 4096)) >/sys/devices/system/memory/soft_offline_page 2>/tmp/so.err &&
grep -q 'not supported' /tmp/so.err"
	check "offline refused: an admin's rule soft-offlines a page after two errors in bank 7" guest "
rd=\$(mcelogd --help | sed -n 's|.*configuration file (default \\(.*\\)/mcelogd.conf).*|\\1|p')/rules.d
mkdir -p \$rd
printf '[Rule]\\nName=vm-refused\\nMatch=bank=7\\nKey=page\\nThreshold=2 in 1h\\nAction=alert soft-offline\\n' >\$rd/90-vm-refused.rules
systemctl reload mcelogd && for i in \$(seq 20); do
	journalctl -b -u mcelogd -o cat | grep -q 'Rules reloaded: .* rules in effect' && exit 0; sleep 0.5; done; exit 1"
	addr=$((pfn * 4096 + 0x40))
	key=$(printf 'page=0x%x' "$pfn")
	inject_ce 1 "$addr" 7 && inject_ce 2 "$addr" 7
	check "offline refused: an alert entry says the soft offline failed, naming vm.enable_soft_offline" \
		guest "for i in \$(seq 20); do journalctl -b -o json --no-pager MESSAGE_ID=$(msgid ALERT) MCE_RULE_KEY=$key |
	jq -r .MESSAGE | grep -qF \"soft-offline of page $(printf '0x%x' "$pfn") failed: the kernel forbids soft offlining (vm.enable_soft_offline=0)\" && exit 0
	sleep 0.5; done; exit 1"
	a=$(alerts_for "$key")
	printf '%s\n' "$a" | jq -c '{MESSAGE, MCE_RULE, MCE_RULE_ACTIONS, PRIORITY}' | diag
	is "$(grep -c . <<<"$a")" 2 "offline refused: two alert entries for the page: the rule's, and its failed action's"
	check "offline refused: mcelogd's log says so at warning" guest "journalctl -b -p warning -o cat -u mcelogd --no-pager |
	grep -qF \"Rule 'vm-refused': soft-offline of page $(printf '0x%x' "$pfn") failed: the kernel forbids soft offlining (vm.enable_soft_offline=0)\""
	is "$(hwpoison "$pfn")" 0 "offline refused: the page is not poisoned"
	st=$(guest 'mcectl status --output json 2>/dev/null')
	is "$(jq -c '[.memory.soft_offline_allowed, .memory.enable_soft_offline]' <<<"$st")" '[false,0]' \
		"offline refused: mcectl status shows soft offlining forbidden by the sysctl"
	is "$(guest "mcectl export --prometheus | grep '^mcelogd_pages_offlined_total'")" \
		'mcelogd_pages_offlined_total{mode="soft",result="failed"} 1' \
		"offline refused: the metrics count the failure and no page offlined"
	guest 'sysctl -q vm.enable_soft_offline=1' >/dev/null
}
