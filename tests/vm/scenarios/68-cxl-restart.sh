# Issue 28 #1: cxl:* events survive restarts, as ras:* events do (62).  The
# unit's instances/mcelogd-ras keeps the cxl events too; a DRAM event the
# device reports while mcelogd is stopped is logged once at its next start,
# with its values, and a further restart does not log it again.  In the CXL
# boot (65 loaded the drivers and made mem0; this scenario loads them again
# in case it runs alone).
. "$srcdir/tests/vm/lib/cxl-boot.sh"
. "$srcdir/tests/vm/lib/cxl-inject.sh"
VM_DESC="cxl:* events raised while mcelogd is stopped: logged once at its next start"

# dram_records DPA: mcectl query's cxl_dram records with that DPA.
dram_records() { query_json | jq -c "select(.source == \"cxl:cxl_dram\" and .dpa == \"$1\")"; }

scenario() {
	local dpa=0x0000000000003000 since rec n
	check "cxl-restart: the cxl drivers load and the kernel sees mem0" cxl_drivers_up
	check "cxl-restart: the unit's ras instance keeps cxl:* events" guest \
		'grep -qx 1 /sys/kernel/tracing/instances/mcelogd-ras/events/cxl/cxl_dram/enable'

	check "cxl-restart: systemctl stop mcelogd" guest "systemctl stop mcelogd"
	since=$(guest 'date +%s')
	check "cxl-restart: QMP cxl-inject-dram-event while mcelogd is stopped" cxl_inject cxl-inject-dram-event \
		'{"log":"warning","flags":1,"dpa":12288,"descriptor":0,"type":0,"transaction-type":2,"channel":1,"rank":1,
		  "nibble-mask":3,"bank-group":2,"bank":1,"row":4321,"column":8,"correction-mask":[1,2,3,4]}'
	# The kernel reads the device's event log on its interrupt: wait until it traced the event.
	check "cxl-restart: the kernel traced the DRAM event into the ras instance" guest \
		"for i in \$(seq 40); do grep -q 'cxl_dram: .*dpa=3000\b' /sys/kernel/tracing/instances/mcelogd-ras/trace && exit 0; sleep 0.25; done; exit 1"
	is "$(dram_records $dpa | wc -l)" 0 "cxl-restart: nothing logged while stopped"

	check "cxl-restart: systemctl start mcelogd" guest "systemctl start mcelogd"
	rec=$(wait_records 1 ".source == \"cxl:cxl_dram\" and .dpa == \"$dpa\"" 30 | head -n1)
	note "mcelogd: $rec"
	sleep 1
	is "$(dram_records $dpa | wc -l)" 1 "cxl-restart: the DRAM event raised while stopped is logged once at start"
	is "$(jq -c '[.memdev, .channel, .rank, .bank_group, .bank, .row, .column]' <<<"$rec")" \
		'["mem0",1,1,2,1,4321,8]' "cxl-restart: ... with the values the device reported"
	check "cxl-restart: the log says it was read back from the instance" guest \
		"journalctl -b -u mcelogd -o cat --since @$since | grep -q 'Logged [0-9]* ras event(s) the kernel kept in .*/instances/mcelogd-ras'"

	check "cxl-restart: systemctl restart mcelogd (nothing new)" guest "systemctl restart mcelogd"
	sleep 3
	n=$(dram_records $dpa | wc -l)
	is "$n" 1 "cxl-restart: a restart with nothing new does not log it again"
}
