# Sourced by the scenarios that check the devlink health source (issue 38
# item 3): 61-aer (Debian's kernels: both events read, netdevsim absent, so
# its reports say SKIP) and tests/vm/repair/71-devlink (the repair lane's
# kernel, built with CONFIG_NETDEVSIM: netdevsim's "dummy" reporter made to
# report and to fail its recovery, through its debugfs break_health and
# fail_recover, drivers/net/netdevsim/health.c).
#
# devlink_health: the checks, in a running boot.

# devlink_fields FILE: a format's field lines, without the common header or
# signedness (a __data_loc string is signed:1 on 6.1, signed:0 on 7.3).
devlink_fields() { grep -E '^\s*field:' "$1" | grep -v common_ | sed 's/^\s*//; s/\s*signed:[01];//'; }

devlink_health() {
	local ev out st recs rec n dev=netdevsim10 dbg=/sys/kernel/debug/netdevsim/netdevsim10/health j
	out=$(guest "mcectl status --output json")
	for ev in devlink_health_report devlink_health_recover_aborted; do
		st=$(jq -r ".sources[] | select(.name == \"devlink:$ev\") | .state" <<<"$out")
		is "$st" active "devlink: mcelogd reads devlink:$ev on this kernel"
		# Kept while mcelogd is stopped, for its next start (the ras trace instance).
		is "$(guest "cat /sys/kernel/tracing/instances/mcelogd-ras/events/devlink/$ev/enable")" 1 \
			"devlink: the ras trace instance keeps devlink:$ev across a restart"
		note "$(guest "cat /sys/kernel/tracing/events/devlink/$ev/format")"
		# The real kernel's layout, against the one the unit tests are built to.
		is "$(guest "grep -E '^\\s*field:' /sys/kernel/tracing/events/devlink/$ev/format | grep -v common_ |
			sed 's/^\\s*//; s/\\s*signed:[01];//'")" \
			"$(devlink_fields "$srcdir/tests/data/tracefs/7.3/devlink/$ev.format")" \
			"devlink: the kernel's $ev fields are those of tests/data/tracefs/7.3/devlink"
	done
	# Built in (a kernel built for the rig) or a module.
	if ! guest 'test -d /sys/bus/netdevsim || modprobe netdevsim' >/dev/null 2>&1; then
		skip "devlink: a netdevsim report and an aborted recovery logged once each" \
			"this kernel has no netdevsim (CONFIG_NETDEVSIM)"
		return 0
	fi
	check "devlink: netdevsim device $dev created" guest "echo '10 1' >/sys/bus/netdevsim/new_device
		for i in \$(seq 40); do test -e $dbg/break_health && break; sleep 0.25; done; test -e $dbg/break_health"
	# A report the dummy reporter recovers from at once (it auto-recovers).
	guest "echo 'mcelogd-vm fault one' >$dbg/break_health" >/dev/null
	recs=$(wait_records 1 '.event == "devlink_health"' 30)
	rec=$(head -n1 <<<"$recs")
	is "$(jq -c '[.source, .severity, .bus, .dev_name, .driver, .reporter, .message, .health_state]' <<<"$rec")" \
		"[\"devlink:devlink_health_report\",\"corrected\",\"netdevsim\",\"$dev\",\"netdevsim\",\"dummy\",\"mcelogd-vm fault one\",\"error\"]" \
		"devlink: the report logged with bus, device, driver, reporter, message and state"
	# Recovery made to fail: the next report leaves the reporter in error, and the one after is not
	# recovered at all (recover_aborted).  Both writes fail with the recovery's error.
	guest "echo Y >$dbg/fail_recover; echo 'mcelogd-vm fault two' >$dbg/break_health
		echo 'mcelogd-vm fault three' >$dbg/break_health; true" >/dev/null
	recs=$(wait_records 1 '.event == "devlink_recover_aborted"' 30)
	rec=$(head -n1 <<<"$recs")
	is "$(jq -c '[.source, .severity, .dev_name, .reporter, .health_state]' <<<"$rec")" \
		"[\"devlink:devlink_health_recover_aborted\",\"uncorrected\",\"$dev\",\"dummy\",\"error\"]" \
		"devlink: the aborted recovery logged as uncorrected, reporter still in error"
	sleep 2
	n=$(query_json | jq -c 'select(.event == "devlink_health")' | wc -l)
	is "$n" 3 "devlink: three reports, each logged once"
	n=$(query_json | jq -c 'select(.event == "devlink_recover_aborted")' | wc -l)
	is "$n" 1 "devlink: one aborted recovery, logged once"
	j=$(guest "journalctl -o json --no-pager MESSAGE_ID=$(msgid DEVLINK_RECOVER_ABORTED)")
	is "$(jq -c '[.MCE_DRIVER, .MCE_DEV_NAME, .MCE_REPORTER, .MCE_HEALTH_STATE, .PRIORITY]' <<<"$j")" \
		"[\"netdevsim\",\"$dev\",\"dummy\",\"error\",\"2\"]" \
		"devlink: journal MCE_DRIVER/DEV_NAME/REPORTER/HEALTH_STATE under its MESSAGE_ID, PRIORITY crit"
	guest "echo N >$dbg/fail_recover; echo 10 >/sys/bus/netdevsim/del_device" >/dev/null
}
