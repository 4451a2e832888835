# Issue 4, scenario 3: mcelogd as a systemd service from the shipped unit:
# active and ready (Type=notify), its hardening in force and not in its way
# (the tracepoint source open, no warnings), `systemctl reload` and `stop`
# behave.  Then a negative control: a drop-in that takes away the
# capabilities the tracepoint needs must show up as a warning, so a sandbox
# that blinds mcelogd cannot pass unnoticed.
VM_DESC="systemd service: ready, hardened, reload, stop, sandbox failure visible"
VM_APPEND="mcelogd_vm.check_interval=1"

# service_props A,B,...: the values of those unit properties, in that order.
service_props() {
	local p
	for p in ${1//,/ }; do guest "systemctl show -p $p --value mcelogd.service"; done | paste -sd' '
}

scenario() {
	local pid pid2 w mark out st=0x9c00004000030093
	is "$(service_props ActiveState,SubState,Type)" "active running notify" \
		"service: active (running), Type=notify: systemd got READY=1"
	check "service: status text says which sources are open" \
		guest 'systemctl show -p StatusText --value mcelogd.service | grep -i "mce_record"'
	check "service: systemctl status mcelogd exits 0" guest 'systemctl status --no-pager mcelogd.service'
	check "service: the tracepoint source opened on every online CPU" guest '
		n=$(grep -c ^processor /proc/cpuinfo)
		journalctl -b -u mcelogd.service -o cat | grep "Reading mce:mce_record.* on $n of $n online CPUs"'
	pid=$(service_props MainPID)
	# The unit's sandbox is what runs: no new privileges, bounded capabilities,
	# read-only /usr.
	check "service: hardening in force (NoNewPrivs, bounded CapBnd, read-only /usr)" guest "
		grep -q '^NoNewPrivs:[[:space:]]*1' /proc/$pid/status &&
		! grep -q '^CapBnd:[[:space:]]*000001ffffffffff' /proc/$pid/status &&
		grep -q ' /usr [^ ]* [^ ]* ro' /proc/$pid/mountinfo || grep -q ' / [^ ]* ro' /proc/$pid/mountinfo"
	w=$(mcelogd_warnings)
	is "$w" "" "service: journalctl -u mcelogd shows no warnings"
	# Issue 38: the kernel's side, under the unit's sandbox (ProtectKernelTunables=
	# leaves /sys/kernel/debug read-only): ras/daemon_active held while the ras:*
	# events are read, and the kernel's corrected-error collector readable.
	check "service: holds /sys/kernel/debug/ras/daemon_active open (sandboxed)" guest "
		ls -l /proc/$pid/fd | grep -q ' -> /sys/kernel/debug/ras/daemon_active\$' &&
		mcectl status --output json | jq -e '.ras_daemon_active == true'"
	out=$(guest "mcectl status --output json | jq -c .kernel_cec" 2>&1)
	if jq -e '.state == "active" or .state == "absent"' <<<"$out" >/dev/null 2>&1; then
		ok "service: the kernel's corrected-error collector is readable from the sandbox"
		printf 'kernel_cec: %s\n' "$out" | diag
	else
		not_ok "service: the kernel's corrected-error collector is readable from the sandbox"
		printf '%s\n' "$out" | diag
	fi

	# reload: same process, configuration re-read, still logging.
	mark=$(journal_mark)
	check "service: systemctl reload mcelogd" guest 'systemctl reload mcelogd.service'
	check "service: reload logged by mcelogd" guest "
		for i in \$(seq 40); do journalctl --cursor='$mark' -u mcelogd.service -o cat | grep -qi reload && exit 0; sleep 0.25; done; exit 1"
	pid2=$(service_props MainPID)
	is "$(service_props ActiveState) $pid2" "active $pid" "service: still active after reload, same main PID"
	check "service: records still logged after reload" inject_sw cpu=0 bank=4 status=$st addr=0x5ead000
	check "service: ... and found by mcectl query" wait_records 1 ".status == \"$st\" and .addr == \"0x0000000005ead000\"" 20

	# stop: clean exit within systemd's limits, then start again.
	check "service: systemctl stop mcelogd" guest 'timeout 30 systemctl stop mcelogd.service'
	is "$(service_props ActiveState,Result,ExecMainStatus)" "inactive success 0" \
		"service: stopped cleanly (inactive, result success, exit status 0)"
	check "service: systemctl start mcelogd" guest 'systemctl start mcelogd.service && systemctl is-active mcelogd.service'
	w=$(mcelogd_warnings "$mark")
	is "$w" "" "service: no warnings through reload, stop and start"

	# Negative control: without CAP_PERFMON/CAP_SYS_ADMIN the tracepoint
	# cannot be read; that must be loud.
	mark=$(journal_mark)
	guest 'mkdir -p /run/systemd/system/mcelogd.service.d
printf "[Service]\nCapabilityBoundingSet=\nCapabilityBoundingSet=CAP_IPC_LOCK\n" >/run/systemd/system/mcelogd.service.d/blind.conf
systemctl daemon-reload; systemctl restart mcelogd.service; sleep 1' >/dev/null
	w=$(mcelogd_warnings "$mark")
	if grep -qi "mce_record\|tracepoint" <<<"$w"; then
		ok "service: a sandbox that blinds the tracepoint source shows as a warning"
		printf '%s\n' "$w" | diag
	else
		not_ok "service: a sandbox that blinds the tracepoint source shows as a warning"
		guest "journalctl --cursor='$mark' -u mcelogd.service -o cat" | diag
	fi
	guest 'rm -rf /run/systemd/system/mcelogd.service.d; systemctl daemon-reload; systemctl restart mcelogd.service' >/dev/null
	is "$(service_props ActiveState,SubState)" "active running" "service: restored unit active again"
	# Later scenarios look for warnings after this point only.
	warn_mark=$(journal_mark)
}
