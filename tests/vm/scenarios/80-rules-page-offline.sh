# Issue 13: rules on the real kernel.  Ten corrected errors on one guest page,
# written into the bank registers through the QEMU monitor as hardware
# would, trip the shipped page rule once: one alert entry, and the kernel
# soft-offlines the page (its HWPOISON flag, HardwareCorrupted).  Then the
# same on another page with a restart between the 5th and the 6th error:
# the count persisted in /var/lib/mcelogd/rules.state.  Then triggers, under
# the unit's sandbox: one runs with its environment and its output is
# logged; one that hangs is killed at its timeout while records keep being
# captured.
VM_DESC="rules: 10 CEs on one page -> one alert, page soft-offlined; count survives a restart; triggers"
# An Intel CPU (Haswell-EP, as 21-decode-intel-imc, whose boot it shares): the
# kernel's rule, which mcelogd follows, takes a page from an Intel record with
# ADDRV, MISCV and a physical address mode in MISC.  QEMU's default qemu64 is an
# AMD K8, whose load-store bank names no page.
VM_CPU="qemu64,+mce,+mca,vendor=GenuineIntel,family=6,model=63,stepping=2"
VM_APPEND="mcelogd_vm.check_interval=1"
# Restarts mcelogd: after the boot's no-restart checks.
VM_LAST=1

. "$srcdir/tests/vm/lib/page-rule.sh"
# unit_log_has TEXT [SECONDS]: mcelogd's log of this boot has TEXT (a grep -E pattern) within SECONDS.
unit_log_has() {
	guest "for i in \$(seq $((${2:-10} * 2))); do
	journalctl -b -u mcelogd --no-pager | grep -qE -- '$1' && exit 0; sleep 0.5; done; exit 1"
}

scenario() {
	local pfn_a pfn_b addr_a addr_b key_a key_b before i
	# 0x8000-0x3c000: above the kernel image, below the top of the guest's 1 GiB
	read -r pfn_a pfn_b <<<"$(free_pfns 0x8000 0x34000 2 | tr '\n' ' ')"
	if ! [[ "$pfn_a" =~ ^[0-9]+$ && "$pfn_b" =~ ^[0-9]+$ ]]; then
		not_ok "rules: found two free guest pages (got '$pfn_a', '$pfn_b')"
		return
	fi
	ok "rules: found two free guest pages ($pfn_a, $pfn_b)"
	addr_a=$((pfn_a * 4096 + 0x40))
	addr_b=$((pfn_b * 4096 + 0x80))
	key_a=$(printf 'page=0x%x' "$pfn_a")
	key_b=$(printf 'page=0x%x' "$pfn_b")
	before=$(corrupted_kb)

	for i in $(seq 1 9); do
		inject_ce "$i" "$addr_a" || break
	done
	is "$(query_json | jq -c "select(.addr == \"$(printf '0x%016x' "$addr_a")\")" | wc -l)" 9 \
		"rules: nine errors on page A logged"
	is "$(alerts_for "$key_a" | grep -c .)" 0 "rules: no alert after nine"
	check "rules: the tenth error is logged" inject_ce 10 "$addr_a"
	is "$(wait_alert "$key_a")" 1 "rules: exactly one alert entry for page A"
	is "$(alerts_for "$key_a" | jq -r '[.MCE_RULE, .MCE_RULE_COUNT, .PRIORITY, .MCE_RULE_ACTIONS] | join(" ")')" \
		"memory-page-ce 10 4 alert soft-offline" "rules: the alert names rule, count, priority, actions"
	is "$(hwpoison "$pfn_a")" 1 "rules: the kernel marked page A poisoned (soft-offlined)"
	is "$(corrupted_kb)" "$((before + 4))" "rules: HardwareCorrupted grew by one page (4 kB)"
	check "rules: the offlining is logged" \
		guest "journalctl -b -u mcelogd --no-pager | grep -q 'page $(printf '0x%x' "$pfn_a") (address .*) soft-offline: done'"
	is "$(guest "mcectl export --prometheus | grep '^mcelogd_pages_offlined_total'")" \
		'mcelogd_pages_offlined_total{mode="soft",result="done"} 1' \
		"rules: the metrics count the offlined page (mcectl export --prometheus)"

	for i in $(seq 1 5); do
		inject_ce "$i" "$addr_b" || break
	done
	check "rules: systemctl restart mcelogd after five errors on page B" guest "systemctl restart mcelogd"
	check "rules: the state file holds page B's five" \
		guest "grep -P '^bucket\tmemory-page-ce\t$key_b\t0\t(\\d+,){4}\\d+\$' /var/lib/mcelogd/rules.state"
	for i in $(seq 6 9); do
		inject_ce "$i" "$addr_b" || break
	done
	is "$(alerts_for "$key_b" | grep -c .)" 0 "rules: no alert for page B after nine, across the restart"
	check "rules: the tenth error on page B is logged" inject_ce 10 "$addr_b"
	is "$(wait_alert "$key_b")" 1 "rules: the tenth error after the restart fires the alert for page B"
	is "$(hwpoison "$pfn_b")" 1 "rules: and page B is soft-offlined"

	# Triggers, added by the admin and loaded by a reload.
	guest "mkdir -p /etc/mcelogd && cat >/etc/mcelogd/trig.sh <<'EOT'
#!/bin/sh
env >/run/mcelogd/trig.env
cat >/run/mcelogd/trig.json
echo \"vm trigger output for \$MCELOGD_KEY\"
EOT
printf '#!/bin/sh\\nexec sleep 600\\n' >/etc/mcelogd/hang.sh
chmod +x /etc/mcelogd/trig.sh /etc/mcelogd/hang.sh
# The admin's rule directory is under the build's sysconfdir (/usr/local/etc here).
rd=\$(mcelogd --help | sed -n 's|.*configuration file (default \\(.*\\)/mcelogd.conf).*|\\1|p')/rules.d
mkdir -p \$rd
printf '[Rule]\\nName=vm-trigger\\nMatch=bank=4\\nKey=page\\nThreshold=2 in 1h\\nAction=alert trigger\\nTrigger=/etc/mcelogd/trig.sh\\n' >\$rd/90-vm-trigger.rules
printf '[Rule]\\nName=vm-hang\\nMatch=bank=5\\nKey=page\\nThreshold=2 in 1h\\nAction=trigger\\nTrigger=/etc/mcelogd/hang.sh\\nTriggerTimeout=3s\\n' >\$rd/91-vm-hang.rules" >/dev/null
	check "rules: systemctl reload mcelogd takes the admin's rules" guest "systemctl reload mcelogd"
	# The shipped rules and the admin's two.
	check "rules: the reload is logged" unit_log_has \
		"Rules reloaded: $(( $(cat "$srcdir"/config/rules.d/*.rules | grep -c '^Name=') + 2 )) rules in effect"
	inject_ce 1 0x3000040 4 && inject_ce 2 0x3000080 4
	check "rules: the trigger ran in the sandbox with the alert in its environment" \
		guest "for i in \$(seq 20); do [ -s /run/mcelogd/trig.env ] && break; sleep 0.5; done
grep -qx MCELOGD_RULE=vm-trigger /run/mcelogd/trig.env && grep -qx MCE_BANK=4 /run/mcelogd/trig.env &&
grep -qx MCE_PAGE=0x3000 /run/mcelogd/trig.env"
	check "rules: and the alert as JSON on its standard input" \
		guest "jq -e '.event == \"alert\" and .rule == \"vm-trigger\"' /run/mcelogd/trig.json"
	check "rules: its output is logged" unit_log_has "Trigger of rule .vm-trigger. \\[[0-9]+\\]: vm trigger output for page=0x3000"
	check "rules: its exit status is logged" unit_log_has "Trigger of rule .vm-trigger. \\[[0-9]+\\] exited with status 0"
	inject_ce 1 0x5000040 5 && inject_ce 2 0x5000080 5
	check "rules: the hanging trigger started" unit_log_has "Trigger of rule .vm-hang. started"
	check "rules: records are captured while it hangs" inject_ce 1 0x6000040 6
	check "rules: it is killed at its timeout" \
		unit_log_has "Trigger of rule .vm-hang. \\[[0-9]+\\] killed by signal 9 \\(SIGKILL\\): it ran past its TriggerTimeout=" 15
	check "rules: no sleep is left behind" guest "! pgrep -f '^sleep 600$'"
}
