# Issue 36 (review of e24200c C1): a page first hard-offlined is never
# hard-offlined again in a later boot.  hard_offline_page runs the kernel's
# memory_failure(), which panics at once under vm.memory_failure_recovery=0
# ("Memory failure on page ..."); mcelogd used to write it again at every
# start for such a page, so every boot panicked.  Here the guest's own
# mcelogd makes, by a replay against stand-ins, a state in which a free guest
# page was hard-offlined in another boot on this machine; with the sysctl at
# 0, mcelogd is started on it: the guest lives, the page is soft-offlined
# (migration), and the log says it was hard then.  Then a live firing of an
# admin's hard-offline rule on a corrected error: soft-offlined instead, and
# the alert names the sysctl.
VM_DESC="a page hard-offlined in an earlier boot: soft-offlined at start, never hard; no panic with vm.memory_failure_recovery=0"
# 80's boot (an Intel CPU, whose records name a page; 1 s polling), after it.
VM_CPU="qemu64,+mce,+mca,vendor=GenuineIntel,family=6,model=63,stepping=2"
VM_APPEND="mcelogd_vm.check_interval=1"
# Restarts mcelogd and sets a sysctl: after the boot's no-restart checks.
VM_LAST=1

. "$srcdir/tests/vm/lib/page-rule.sh"

scenario() {
	local pfn pfn_b hex hex_b addr t st
	pfn=$(free_pfns 0x8000 0x34000 | head -n1)
	if ! [[ "$pfn" =~ ^[0-9]+$ ]]; then not_ok "hard later: found a free guest page (got '$pfn')"; return; fi
	hex=$(printf '0x%x' "$pfn")
	addr=$(printf '0x%016x' $((pfn * 4096 + 0x40)))
	t=$(date -u -d '-5 min' +%Y-%m-%dT%H:%M:%S.000000Z)
	# An uncorrected IMC error (UC, no PCC) on the page, hard-offlined by an
	# admin's rule in boot 0...01 of this machine (stand-in sysfs and procfs).
	check "hard later: a state whose page was hard-offlined in another boot of this machine" guest "
set -e
rm -rf /root/c1 && mkdir -p /root/c1/rules /root/c1/state /root/c1/sys /root/c1/proc/sys/vm
: >/root/c1/sys/hard_offline_page; : >/root/c1/sys/soft_offline_page; echo 1 >/root/c1/proc/sys/vm/memory_failure_recovery
printf '[Rule]\\nName=vm-hard\\nMatch=bank=13\\nKey=page\\nThreshold=1 in 1h\\nAction=hard-offline\\n' >/root/c1/rules/50-hard.rules
printf '{\"time\":\"$t\",\"source\":\"tracepoint\",\"cpu\":0,\"socketid\":0,\"bank\":13,\"vendor\":\"intel\",\"family\":6,\"model\":85,\"status\":\"0xbc00000000000090\",\"addr\":\"$addr\",\"misc\":\"0x0000000000000086\"}\\n' >/root/c1/uc.jsonl
mcelogd --replay /root/c1/uc.jsonl --no-journal -c /dev/null --control-socket '' --rules-directory /root/c1/rules \
	--state-directory /root/c1/state --sysfs-memory /root/c1/sys --procfs /root/c1/proc \
	--boot-id 00000000000000000000000000000001 --machine-id \$(cat /etc/machine-id) >/dev/null 2>&1
grep -q '^page	$hex	hard	[0-9]*	ok	00000000000000000000000000000001	' /root/c1/state/rules.state"
	check "hard later: vm.memory_failure_recovery=0, mcelogd restarted on that state" guest "
systemctl stop mcelogd && cp /root/c1/state/rules.state /var/lib/mcelogd/rules.state &&
sysctl -qw vm.memory_failure_recovery=0 && systemctl start mcelogd"
	check "hard later: the guest lives, and mcelogd says it soft-offlined the page again" \
		guest "for i in \$(seq 40); do journalctl -b -u mcelogd -o cat --no-pager |
	grep -qF 'Page $hex, offlined in an earlier boot, soft-offline again: done (it was hard-offlined then' && exit 0; sleep 0.5; done; exit 1"
	is "$(hwpoison "$pfn")" 1 "hard later: the kernel took the page (by migration)"
	check "hard later: the kernel never ran memory_failure() for it (no 'Memory failure' line)" \
		guest "! dmesg | grep -q 'Memory failure: $hex'"
	is "$(guest "awk -F'\\t' '\$1 == \"page\" && \$2 == \"$hex\" { print \$3, \$5 }' /var/lib/mcelogd/rules.state")" \
		"soft ok" "hard later: the state now says soft, done in this boot"

	# Live: an admin's hard-offline rule on a corrected error in bank 8.
	check "hard later: an admin's hard-offline rule on bank 8, reloaded" admin_rule 93-vm-hard.rules '[Rule]\nName=vm-hard-live\nMatch=bank=8\nKey=page\nThreshold=1 in 1h\nAction=alert hard-offline\n'
	# Page B taken free just before its error: a page found free minutes earlier may hold
	# kernel memory by now, which the kernel cannot offline ("unhandlable page").
	pfn_b=$(free_pfns 0x8000 0x34000 2 | grep -vx "$pfn" | head -n1)
	if ! [[ "$pfn_b" =~ ^[0-9]+$ ]]; then not_ok "hard later: found a second free guest page (got '$pfn_b')"; return; fi
	hex_b=$(printf '0x%x' "$pfn_b")
	check "hard later: a corrected error on page B is logged" inject_ce 1 $((pfn_b * 4096 + 0x80)) 8
	st=$(guest "for i in \$(seq 20); do journalctl -b -o json --no-pager MESSAGE_ID=$(msgid ALERT) MCE_RULE=vm-hard-live |
	jq -r 'select(.MCE_RULE_FAILED_ACTION == \"hard-offline\") | .MESSAGE' | grep . && exit 0; sleep 0.5; done")
	note "the refusal's alert: $st"
	check "hard later: an alert refuses the hard offline and names vm.memory_failure_recovery=0" \
		grep -q "only for an uncorrected error.*vm.memory_failure_recovery=0" <<<"$st"
	is "$(hwpoison "$pfn_b")" 1 "hard later: page B soft-offlined instead"
	is "$(guest "mcectl pages --state /var/lib/mcelogd/rules.state --output json | jq -r '.pages[] | select(.pfn == \"$hex_b\") | [.mode, .status, .machine, (.origin | test(\"^rule=vm-hard-live;severity=corrected;source=tracepoint\"))] | @tsv'")" \
		"soft	done	this	true" "hard later: mcectl pages lists page B, soft, done, this machine, with its record"
	is "$(guest "mcectl pages --forget $hex_b")" '{"forgotten":true}' "hard later: mcectl pages --forget forgets it"
	check "hard later: the forget is a journal entry of its own, naming who asked" \
		guest "for i in \$(seq 20); do journalctl -b -o json --no-pager MESSAGE_ID=$(msgid ALERT) MCE_RULE=page-forgotten |
	jq -e 'select(.MCE_RULE_KEY == \"page=$hex_b\") | .MESSAGE | test(\"request of uid 0\")' >/dev/null && exit 0; sleep 0.5; done; exit 1"
	check "hard later: and the page is no longer known bad" \
		guest "! mcectl pages --state /var/lib/mcelogd/rules.state --output json | jq -e '.pages[] | select(.pfn == \"$hex_b\")' >/dev/null"
	check "hard later: the sysctl back to 1, the admin's rule removed" guest "
sysctl -qw vm.memory_failure_recovery=1 && rm -f \$(mcelogd --help | sed -n 's|.*configuration file (default \\(.*\\)/mcelogd.conf).*|\\1|p')/rules.d/93-vm-hard.rules &&
systemctl reload mcelogd"
}
