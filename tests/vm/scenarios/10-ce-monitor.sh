# Issue 4, scenario 1: a corrected memory error written into the bank
# registers through the QEMU monitor (as hardware would), found by the guest
# kernel's poll, logged by mcelogd exactly once, with every register intact,
# and stored in the guest journal with our MESSAGE_ID and MCE_* fields.
VM_DESC="corrected memory error via the QEMU monitor, logged once, journald fields"
VM_APPEND="mcelogd_vm.check_interval=1"

scenario() {
	local cpu=1 bank=3 st=0x9c00004000010092 addr=0x00000001234d5000 misc=0x0000000000000086
	local recs rec n j
	check "ce-monitor: QEMU accepts mce $cpu $bank $st 0 $addr $misc" \
		inject_monitor $cpu $bank $st 0 $addr $misc
	recs=$(wait_records 1 ".status == \"$st\"" 30)
	check "ce-monitor: mcectl query --since 1h --output json shows the record" test -n "$recs"
	sleep 3 # the kernel polls every second: time for a duplicate to show
	n=$(query_json | jq -c "select(.status == \"$st\")" | wc -l)
	is "$n" 1 "ce-monitor: the record appears exactly once"
	rec=$(head -n1 <<<"$recs")
	is "$(jq -c '[.cpu, .bank, .status, .addr, .misc]' <<<"$rec")" \
		"[$cpu,$bank,\"$st\",\"$addr\",\"$misc\"]" "ce-monitor: cpu, bank, status, addr, misc as injected"
	is "$(jq -r .severity <<<"$rec")" corrected "ce-monitor: severity corrected"
	is "$(jq -r .error_class <<<"$rec")" memory_controller "ce-monitor: error_class memory_controller (MCACOD 0x0092)"
	is "$(jq -r .source <<<"$rec")" tracepoint "ce-monitor: source is the tracepoint"
	j=$(guest "journalctl -o json --no-pager MESSAGE_ID=$(msgid CORRECTED) MCE_STATUS=$st")
	is "$(grep -c . <<<"$j")" 1 "ce-monitor: one journal entry with MESSAGE_ID=$(msgid CORRECTED)"
	is "$(jq -c '[.MCE_CPU, .MCE_BANK, .MCE_STATUS, .MCE_ADDR, .MCE_MISC, .MCE_SEVERITY, .PRIORITY]' <<<"$j")" \
		"[\"$cpu\",\"$bank\",\"$st\",\"$addr\",\"$misc\",\"corrected\",\"4\"]" \
		"ce-monitor: journal MCE_CPU/BANK/STATUS/ADDR/MISC/SEVERITY and PRIORITY"
	is "$(jq -c '[._COMM, ._SYSTEMD_UNIT]' <<<"$j")" '["mcelogd","mcelogd.service"]' \
		"ce-monitor: the entry comes from mcelogd.service"
	is "$(jq -r '.MCE_JSON | fromjson | [.status, .addr, .misc, .severity] | join(" ")' <<<"$j")" \
		"$st $addr $misc corrected" "ce-monitor: MCE_JSON holds the record"
	check "ce-monitor: MESSAGE names the severity and CPU" \
		grep -q "CPU $cpu" <<<"$(jq -r .MESSAGE <<<"$j")"
}
