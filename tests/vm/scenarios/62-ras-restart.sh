# Issue 11, item 3 (and issue 14, item 15): ras:* events survive restarts.
# mcelogd keeps its own tracefs instance for ras events (instances/mcelogd-ras,
# stamped by the mono clock like its perf samples).  An AER error while it
# runs, then, while it is stopped, a free page poisoned (ras:memory_failure_event)
# and a second AER error (ras:aer_event, QEMU's pcie_aer_inject_error): after
# the start each is in the journal exactly once, the stopped-time ones read
# back from the instance with every field, and a further restart logs nothing
# again.
VM_DESC="ras:* events raised while mcelogd is stopped: logged once at its next start"
# 61-aer's boot (23-ignore-ce-no-clear's too): the counts below are relative to what
# is already there when this scenario starts.
VM_SMP=1
VM_APPEND="mce=ignore_ce msr.allow_writes=off"
VM_QEMU="-machine q35 -device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1 -device e1000e,bus=rp1,id=nic1 -smbios type=17,loc_pfx=SLOT,bank=CPU0_CHANNEL_A"

# aer_count: journal entries of ras:aer_event this boot, beyond those before the scenario
aer_count() { echo $(( $(guest "journalctl -b -o cat --no-pager MESSAGE_ID=$(msgid PCIE_AER) | wc -l") - aer_base )); }
# aer_wait N: until mcectl query shows N AER records beyond those before the scenario
aer_wait() { wait_records $((query_base + $1)) '.source == "ras:aer_event"' 30 >/dev/null; }
# kernel_aer N: until the kernel has reported N AER errors beyond those before the scenario
kernel_aer() { guest "for i in \$(seq 40); do [ \$(dmesg | grep -c 'PCIe Bus Error') -ge $((dmesg_base + $1)) ] && break; sleep 0.25; done"; }

. "$srcdir/tests/vm/lib/free-page.sh"

scenario() {
	local out pfn n since clock aer_base=0 query_base dmesg_base
	aer_base=$(aer_count)
	query_base=$(query_json | jq -c 'select(.source == "ras:aer_event")' | wc -l)
	dmesg_base=$(guest "dmesg | grep -c 'PCIe Bus Error'")
	check "ras-restart: the kernel's AER driver owns the root port" guest \
		'dmesg | grep -q "pcieport 0000:00:01.0: AER: enabled"'
	clock=$(guest 'cat /sys/kernel/tracing/instances/mcelogd-ras/trace_clock')
	check "ras-restart: the unit set up instances/mcelogd-ras stamped by the mono clock" \
		grep -q '\[mono\]' <<<"$clock"
	check "ras-restart: ... with ras:* events enabled" guest \
		'grep -qx 1 /sys/kernel/tracing/instances/mcelogd-ras/events/ras/aer_event/enable'

	# One AER error while mcelogd runs: logged live, once.
	out=$(hmp "pcie_aer_inject_error rp1 POISON_TLP 0x4a000001 0x0100000f 0xfee00000 0x00000000")
	check "ras-restart: QEMU injected the first AER error" grep -q '^OK id: rp1' <<<"$out"
	aer_wait 1
	is "$(aer_count)" 1 "ras-restart: the AER error raised while running is logged once"

	check "ras-restart: systemctl stop mcelogd" guest "systemctl stop mcelogd"
	since=$(guest 'date +%s')
	out=$(hmp "pcie_aer_inject_error rp1 POISON_TLP 0x4a000001 0x0100000f 0xfee00000 0x00000000")
	check "ras-restart: QEMU injected a second AER error while mcelogd is stopped" grep -q '^OK id: rp1' <<<"$out"
	pfn=$(free_pfns 0x30000 0xc000)
	[[ "$pfn" =~ ^[0-9]+$ ]] && pfn=$(printf '0x%x' "$pfn") || pfn=
	[ -n "$pfn" ] && guest "printf '0x%x\n' \$(($pfn * 4096)) >/sys/devices/system/memory/hard_offline_page" || pfn=
	kernel_aer 2
	check "ras-restart: a free page poisoned while mcelogd is stopped" test -n "$pfn"
	is "$(aer_count)" 1 "ras-restart: nothing logged while stopped"

	check "ras-restart: systemctl start mcelogd" guest "systemctl start mcelogd"
	aer_wait 2
	wait_records 1 ".source == \"ras:memory_failure_event\" and .pfn == \"$pfn\"" 30 >/dev/null
	sleep 2
	is "$(aer_count)" 2 "ras-restart: the AER error raised while stopped is logged at start, the earlier one not again"
	n=$(query_json | jq -c "select(.source == \"ras:memory_failure_event\" and .pfn == \"$pfn\")" | wc -l)
	is "$n" 1 "ras-restart: the page poisoned while stopped (pfn $pfn) is logged once"
	is "$(query_json | jq -r "select(.source == \"ras:memory_failure_event\" and .pfn == \"$pfn\") | [.page_type, .result] | join(\"/\")")" \
		"free_buddy/recovered" "ras-restart: ... with the page type and result the kernel reported"
	is "$(query_json | jq -r 'select(.source == "ras:aer_event") | [.dev_name, .aer_severity, .uncorrectable_status] | join(" ")' | sort -u)" \
		"0000:00:01.0 non_fatal 0x1000" "ras-restart: both AER records carry the device, severity and status"
	check "ras-restart: the log says what was read back from the instance" guest \
		"journalctl -b -u mcelogd -o cat --since @$since | grep -q 'Logged 2 ras event(s) the kernel kept in .*/instances/mcelogd-ras'"
	# The recovered record is timed when it happened, not when it was read back.
	local t_rec
	t_rec=$(query_json | jq -r "select(.source == \"ras:memory_failure_event\" and .pfn == \"$pfn\") | .time" | head -n1)
	check "ras-restart: the recovered record's time ($t_rec) is before the start" \
		test "$(guest "date -d '$t_rec' +%s")" -lt "$(guest 'date -d "$(systemctl show -p ActiveEnterTimestamp --value mcelogd)" +%s')"

	check "ras-restart: systemctl restart mcelogd (nothing new)" guest "systemctl restart mcelogd"
	sleep 3
	is "$(aer_count)" 2 "ras-restart: a restart with nothing new logs no AER record again"
	n=$(query_json | jq -c "select(.source == \"ras:memory_failure_event\" and .pfn == \"$pfn\")" | wc -l)
	is "$n" 1 "ras-restart: ... nor the poisoned page"

	# A reload that closes the ras readers and opens them again: what came in
	# between is read back from the instance when they open.
	local conf
	conf=$(guest 'ls /usr/local/etc/mcelogd/mcelogd.conf /etc/mcelogd/mcelogd.conf 2>/dev/null | head -n1')
	check "ras-restart: reload with RAS=no" guest "sed -i 's/^\\[Sources\\]\$/[Sources]\\nRAS=no/' $conf && grep -qx RAS=no $conf &&
		systemctl reload mcelogd.service && sleep 1"
	out=$(hmp "pcie_aer_inject_error rp1 POISON_TLP 0x4a000001 0x0100000f 0xfee00000 0x00000000")
	check "ras-restart: QEMU injected a third AER error while the ras readers are closed" grep -q '^OK id: rp1' <<<"$out"
	kernel_aer 3
	sleep 1
	is "$(aer_count)" 2 "ras-restart: not logged while RAS=no"
	check "ras-restart: reload with RAS= removed" guest "sed -i '/^RAS=no\$/d' $conf && systemctl reload mcelogd.service"
	aer_wait 3
	sleep 2
	is "$(aer_count)" 3 "ras-restart: the AER error of the closed gap is logged once when the readers open again"

	# The read at start empties the instance, so what it read goes to ras.kept
	# (fsynced) before any of it is logged.  A mcelogd killed right after that
	# (strace holds it in the rename that puts ras.kept in place) has logged
	# nothing; the next start logs the event from ras.kept, once.
	check "ras-restart: systemctl stop mcelogd (for the kill at start)" guest "systemctl stop mcelogd"
	out=$(hmp "pcie_aer_inject_error rp1 POISON_TLP 0x4a000001 0x0100000f 0xfee00000 0x00000000")
	check "ras-restart: QEMU injected a fourth AER error while mcelogd is stopped" grep -q '^OK id: rp1' <<<"$out"
	kernel_aer 4
	out=$(guest 'kept=/var/lib/mcelogd/ras.kept
rm -f $kept
# the state directory of the unit, as systemd would pass it
# -P names the temporary file the rename moves into place: strace 6.1 matches
# a rename(2) by its first path only.
STATE_DIRECTORY=/var/lib/mcelogd timeout 100 strace -f -qq -o /run/kill-at-start.strace -P /var/lib/mcelogd/.ras.kept.tmp \
	-e trace=rename,renameat,renameat2 -e inject=rename,renameat,renameat2:delay_exit=30000000 \
	"$(command -v mcelogd)" --foreground >/run/kill-at-start.log 2>&1 &
end=$((SECONDS + 60))
while [ ! -e $kept ] && [ $SECONDS -lt $end ]; do sleep 0.1; done
pid=$(pgrep -x mcelogd)
if [ -e $kept ] && [ -n "$pid" ] && kill -9 $pid; then
	echo "killed $pid with $(stat -c %s $kept) bytes in ras.kept"
else
	echo "no ras.kept after $SECONDS s (pid $pid)"; pkill -9 -x mcelogd
	ls -la /var/lib/mcelogd; cat /run/kill-at-start.strace; tail -n 5 /run/kill-at-start.log
fi
wait' 150)
	note "$out"
	check "ras-restart: mcelogd killed right after it wrote ras.kept" grep -q '^killed' <<<"$out"
	is "$(aer_count)" 3 "ras-restart: ... before it logged the event it had read"
	check "ras-restart: systemctl start mcelogd (after the kill)" guest "systemctl start mcelogd"
	aer_wait 4
	sleep 2
	is "$(aer_count)" 4 "ras-restart: the event read by the killed start is logged once, from ras.kept"
	check "ras-restart: ras.kept is gone once the cursor covers it" guest '! test -e /var/lib/mcelogd/ras.kept'
}
