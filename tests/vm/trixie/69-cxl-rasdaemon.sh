# Issue 28 #3, last bullet: Debian 13's rasdaemon (0.8.x, built with CXL
# support) and mcelogd side by side on the same injected CXL events, in a
# Debian 13 guest (VM_RELEASE=trixie: make check-vm-cxl-rasdaemon) on 65's
# CXL boot (Linux 7.3, QEMU 10's cxl-type3 device).  Both read the kernel's
# cxl:* events at the same time, each from a tracefs instance of its own
# (rasdaemon's "rasdaemon", mcelogd's "mcelogd-ras"), rasdaemon as Debian's
# unit starts it (rasdaemon -f -r: its log lines in the journal, each event
# a row in its SQLite database).
#
# For each injected event (general media, DRAM, memory module, poison;
# then, in a region, a DRAM event and poison with a valid HPA; then a burst
# that overflows the device's event log) the scenario asserts what each
# tool recorded: rasdaemon's log line and its row in the event's table,
# mcelogd's one record and its values; and that rasdaemon's use of the same
# events disturbs mcelogd in nothing (its sources stay active, it logs each
# event once and no warning).  Each pair is noted for the side-by-side
# table in tests/vm/README.md.  The rasdaemon lines this prints are what
# tests/data/decode/rasdaemon-cxl.txt holds, for mcectl decode.
. "$srcdir/tests/vm/lib/cxl-boot.sh"
VM_DESC="rasdaemon (Debian 13) beside mcelogd on the same injected CXL events"

. "$srcdir/tests/vm/lib/cxl-inject.sh"
. "$srcdir/tests/vm/lib/cxl-region.sh"

ras_db=/var/lib/rasdaemon/ras-mc_event.db
ras_instance=/sys/kernel/tracing/instances/rasdaemon

# ras_line PATTERN: rasdaemon's last journal line this boot holding the fixed
# PATTERN, once there is one (20 s).
ras_line() {
	guest "for i in \$(seq 80); do journalctl -b -u rasdaemon.service -o cat --no-pager | grep -qF -- '$1' && break; sleep 0.25; done
journalctl -b -u rasdaemon.service -o cat --no-pager | grep -F -- '$1' | tail -n1"
}
# ras_rows TABLE WHERE: rasdaemon's rows of TABLE matching WHERE, as JSON lines.
ras_rows() { guest "sqlite3 -json $ras_db \"select * from $1 where $2\" | jq -c '.[]'"; }
# ras_field LINE LABEL: the value after "LABEL:" in a rasdaemon line, up to the next space.
ras_field() { grep -oE "(^| )$2:[^ ]*" <<<"$1" | head -n1 | sed -E "s/^ ?$2://"; }
# side_by_side EVENT RASDAEMON MCELOGD: one row of the table (noted).
side_by_side() { note "side by side: $1"; note "  rasdaemon: $2"; note "  mcelogd:   $3"; }

scenario() {
	local v out k r rows rec region hpa n i
	check "rasdaemon: the cxl drivers load and the kernel sees mem0" cxl_drivers_up
	v=$(guest "dpkg-query -W -f='\${Version}' rasdaemon")
	note "rasdaemon $v ($(guest 'systemctl show -p ExecStart --value rasdaemon.service | grep -o "argv\[\]=[^;]*"'))"
	check "rasdaemon: Debian's rasdaemon $v is built with CXL support (its cxl handlers and tables)" guest \
		"grep -c 'cxl_dram_event' /usr/sbin/rasdaemon >/dev/null && grep -c 'cxl_general_media' /usr/sbin/rasdaemon >/dev/null"
	out=$(guest "
for try in 1 2 3; do
	systemctl start rasdaemon.service && for i in \$(seq 150); do
		[ \"\$(cat $ras_instance/events/cxl/cxl_dram/enable 2>/dev/null)\" = 1 ] && { echo enabled; exit 0; }; sleep 0.2; done
	echo \"rasdaemon start \$try:\"; journalctl -b --no-pager -u rasdaemon.service | tail -n 20
	systemctl stop rasdaemon.service
done" 150)
	is "${out##*$'\n'}" enabled "rasdaemon: started, and it enabled cxl:cxl_dram in its own tracefs instance"
	[ "${out##*$'\n'}" = enabled ] || { printf '%s\n' "$out" | diag; return; }
	note "rasdaemon's instance: buffer_percent $(guest "cat $ras_instance/buffer_percent"), cxl events enabled: $(guest "cd $ras_instance/events/cxl && grep -l 1 */enable | sed 's,/enable,,' | tr '\n' ' '")"
	note "rasdaemon's tables: $(guest "sqlite3 $ras_db .tables | tr -s ' \n' ' '")"
	guest "sqlite3 $ras_db .schema | grep -i cxl" | diag
	note "tracefs instances: $(guest 'ls /sys/kernel/tracing/instances | tr "\n" " "')"
	check "rasdaemon: mcelogd keeps its own instance, its cxl events still enabled there" guest \
		"for e in cxl_general_media cxl_dram cxl_memory_module cxl_poison cxl_overflow; do
	[ \"\$(cat /sys/kernel/tracing/instances/mcelogd-ras/events/cxl/\$e/enable)\" = 1 ] || { echo \"\$e: not enabled\"; exit 1; }; done"
	st=$(guest 'mcectl status --output json 2>/dev/null')
	for e in cxl_general_media cxl_dram cxl_memory_module cxl_poison cxl_overflow; do
		is "$(jq -r --arg s "cxl:$e" '.sources[] | select(.name == $s) | .state' <<<"$st")" active \
			"rasdaemon: beside rasdaemon, mcectl status shows cxl:$e active"
	done
	mark=$(journal_mark)
	check "rasdaemon: a tracefs instance of the rig's own traces the cxl events" \
		guest "mkdir -p $cxl_trace && echo 1 >$cxl_trace/events/cxl/enable"

	# General media, as in 65: uncorrectable, threshold, channel 3 rank 1 device 5.
	check "rasdaemon: QMP cxl-inject-general-media-event" cxl_inject cxl-inject-general-media-event \
		'{"log":"informational","flags":1,"dpa":4096,"descriptor":3,"type":3,"transaction-type":1,"channel":3,"rank":1,"device":5,"component-id":"iras mem"}'
	k=$(kernel_line cxl_general_media)
	note "kernel: $k"
	cxl_record cxl_general_media '.dpa == "0x0000000000001000"'
	rec=$cxl_rec
	r=$(ras_line 'dpa:0x1000 ')
	note "rasdaemon: $r"
	is "$(for f in memdev dpa channel rank; do ras_field "$r" $f; done | tr '\n' ' ')" "mem0 0x1000 3 1 " \
		"rasdaemon: its general media line names mem0, dpa 0x1000, channel 3, rank 1"
	rows=$(ras_rows cxl_general_media_event "dpa = 4096")
	is "$(grep -c . <<<"$rows")" 1 "rasdaemon: one cxl_general_media_event row for dpa 0x1000"
	note "rasdaemon row: $rows"
	is "$(jq -c '[.memdev, .channel, .rank, .media_device, .descriptor, .type]' <<<"$rec")" \
		'["mem0",3,1,"0x5","UNCORRECTABLE_EVENT|THRESHOLD_EVENT","TE State Violation"]' \
		"rasdaemon: beside it, mcelogd's general media record has the injected values"
	side_by_side general_media "$r" "$rec"

	# DRAM: corrected, with its full DRAM address.
	check "rasdaemon: QMP cxl-inject-dram-event" cxl_inject cxl-inject-dram-event \
		'{"log":"warning","flags":1,"dpa":8192,"descriptor":0,"type":0,"transaction-type":2,"channel":2,"rank":0,"nibble-mask":33,"bank-group":1,"bank":3,"row":1234,"column":56,"correction-mask":[1,2,3,4]}'
	k=$(kernel_line cxl_dram)
	note "kernel: $k"
	cxl_record cxl_dram '.dpa == "0x0000000000002000"'
	rec=$cxl_rec
	r=$(ras_line 'dpa:0x2000 ')
	note "rasdaemon: $r"
	is "$(for f in memdev dpa channel rank bank_group bank row column; do ras_field "$r" $f; done | tr '\n' ' ')" \
		"mem0 0x2000 2 0 1 3 1234 56 " "rasdaemon: its DRAM line names mem0, dpa 0x2000, channel 2, rank 0, bank group 1, bank 3, row 1234, column 56"
	rows=$(ras_rows cxl_dram_event "dpa = 8192")
	is "$(grep -c . <<<"$rows")" 1 "rasdaemon: one cxl_dram_event row for dpa 0x2000"
	note "rasdaemon row: $rows"
	is "$(jq -c '[.memdev, .channel, .rank, .bank_group, .bank, .row, .column, .nibble_mask]' <<<"$rec")" \
		'["mem0",2,0,1,3,1234,56,"0x21"]' "rasdaemon: beside it, mcelogd's DRAM record has the injected values"
	side_by_side dram "$r" "$rec"

	# Memory module: health and life used changed, at -15 degrees C.
	check "rasdaemon: QMP cxl-inject-memory-module-event" cxl_inject cxl-inject-memory-module-event \
		'{"log":"failure","flags":1,"type":2,"health-status":3,"media-status":7,"additional-status":33,"life-used":30,"temperature":-15,"dirty-shutdown-count":4,"corrected-volatile-error-count":5,"corrected-persistent-error-count":6}'
	k=$(kernel_line cxl_memory_module)
	note "kernel: $k"
	cxl_record cxl_memory_module '.life_used == 30'
	rec=$cxl_rec
	r=$(ras_line 'life_used:30 ')
	note "rasdaemon: $r"
	is "$(for f in memdev life_used dirty_shutdown_cnt cor_vol_err_cnt cor_per_err_cnt; do ras_field "$r" $f; done | tr '\n' ' ')" \
		"mem0 30 4 5 6 " "rasdaemon: its memory module line names mem0, life used 30, 4 dirty shutdowns, 5 and 6 corrected errors"
	rows=$(ras_rows cxl_memory_module_event "life_used = 30")
	is "$(grep -c . <<<"$rows")" 1 "rasdaemon: one cxl_memory_module_event row for life used 30"
	note "rasdaemon row: $rows"
	is "$(jq -c '[.memdev, .life_used, .temperature, .dirty_shutdowns, .corrected_volatile_errors, .corrected_persistent_errors]' <<<"$rec")" \
		'["mem0",30,-15,4,5,6]' "rasdaemon: beside it, mcelogd's memory module record has the injected values (-15 degrees C)"
	note "temperature: the kernel's device_temp=$(kv "$k" device_temp), rasdaemon's device_temp:$(ras_field "$r" device_temp), mcelogd's $(jq -r .temperature <<<"$rec")"
	side_by_side memory_module "$r" "$rec"

	# Poison: injected into the device, read back through the poison list.
	check "rasdaemon: QMP cxl-inject-poison" cxl_inject cxl-inject-poison '{"start":2048,"length":256}'
	check "rasdaemon: the kernel reads the poison list" guest 'echo 1 >/sys/bus/cxl/devices/mem0/trigger_poison_list'
	k=$(kernel_line cxl_poison)
	note "kernel: $k"
	cxl_record cxl_poison '.dpa == "0x0000000000000800"'
	rec=$cxl_rec
	r=$(ras_line 'dpa:0x800 ')
	note "rasdaemon: $r"
	is "$(for f in memdev dpa dpa_length source; do ras_field "$r" $f; done | tr '\n' ' ')" "mem0 0x800 0x100 Internal " \
		"rasdaemon: its poison line names mem0, dpa 0x800, length 0x100, source Internal"
	rows=$(ras_rows cxl_poison_event "dpa = 2048")
	is "$(grep -c . <<<"$rows")" 1 "rasdaemon: one cxl_poison_event row for dpa 0x800"
	note "rasdaemon row: $rows"
	is "$(jq -c '[.memdev, .trace_type, .dpa_length, .poison_source]' <<<"$rec")" '["mem0","list","0x100","Internal"]' \
		"rasdaemon: beside it, mcelogd's poison record has the injected values"
	side_by_side poison "$r" "$rec"

	# A region: the DRAM event and poison now have a host physical address.
	out=$(region_up)
	region=$(tail -n1 <<<"$out")
	if [[ "$region" =~ ^region[0-9]+$ ]]; then
		ok "rasdaemon: a ram region ($region) maps mem0"
		check "rasdaemon: QMP cxl-inject-dram-event at DPA 0x8000040 (in $region)" cxl_inject cxl-inject-dram-event \
			'{"log":"warning","flags":1,"dpa":134217792,"descriptor":0,"type":0,"transaction-type":1,"channel":1,"rank":0,"nibble-mask":3,"bank-group":2,"bank":1,"row":77,"column":8}'
		k=$(kernel_line cxl_dram)
		note "kernel: $k"
		hpa=$(kv "$k" hpa)
		cxl_record cxl_dram '.dpa == "0x0000000008000040"'
		rec=$cxl_rec
		r=$(ras_line 'dpa:0x8000040 ')
		note "rasdaemon: $r"
		is "$(ras_field "$r" hpa) $(ras_field "$r" region)" "0x$(printf '%x' "$((16#${hpa#0x}))") $region" \
			"rasdaemon: its DRAM line in the region has the kernel's hpa and region"
		is "$(jq -r '[.hpa, .region] | join(" ")' <<<"$rec")" "$(printf '0x%016x' "$((16#${hpa#0x}))") $region" \
			"rasdaemon: beside it, mcelogd's record has the kernel's hpa and region"
		side_by_side "dram in $region" "$r" "$rec"
		check "rasdaemon: QMP cxl-inject-poison at DPA 0x9000000 (in $region)" cxl_inject cxl-inject-poison '{"start":150994944,"length":512}'
		check "rasdaemon: the kernel reads the poison list again" guest 'echo 1 >/sys/bus/cxl/devices/mem0/trigger_poison_list'
		cxl_record cxl_poison '.dpa == "0x0000000009000000"'
		rec=$cxl_rec
		r=$(ras_line 'dpa:0x9000000 ')
		note "rasdaemon: $r"
		is "$(ras_field "$r" hpa)" "$(jq -r '.hpa' <<<"$rec" | sed -E 's/^0x0*/0x/')" \
			"rasdaemon: its poison line in the region has the HPA mcelogd's record has"
		side_by_side "poison in $region" "$r" "$rec"
	else
		not_ok "rasdaemon: a ram region maps mem0"
		printf '%s\n' "$out" | diag
	fi

	# Overflow: more events than QEMU's device log holds (8), sent in one burst
	# before the guest drains it: the kernel traces cxl_overflow, if the burst
	# outran the guest.
	n=24
	for i in $(seq $n); do
		jq -nc --arg p "$cxl_dev" --argjson d $((0x100000 + i * 64)) '{execute: "cxl-inject-dram-event", arguments: {path: $p,
			log: "informational", flags: 1, dpa: $d, descriptor: 0, type: 0, "transaction-type": 1, channel: 0, rank: 0,
			"nibble-mask": 1, "bank-group": 0, bank: 0, row: 9, column: $i}}' --argjson i "$i"
	done >&5
	for i in $(seq $n); do qmp_read >/dev/null; done
	k=$(kernel_line cxl_overflow)
	if [ -n "$k" ]; then
		note "kernel: $k"
		cxl_record cxl_overflow 'true'
		rec=$cxl_rec
		r=$(ras_line 'errors from')
		note "rasdaemon: $r"
		is "$(grep -oE '[0-9]+ errors from' <<<"$r" | cut -d' ' -f1)" "$(jq -r .count <<<"$rec")" \
			"rasdaemon: its overflow line counts the errors mcelogd's overflow record counts"
		side_by_side overflow "$r" "$rec"
	else
		skip "rasdaemon: a burst of $n DRAM events overflows the device's log" "the guest drained the log in time: no cxl_overflow"
	fi
	n=$(query_json | jq -c 'select(.source == "cxl:cxl_dram" and .row == 9)' | wc -l)
	note "burst: mcelogd logged $n DRAM records of row 9, rasdaemon stored $(guest "sqlite3 $ras_db 'select count(*) from cxl_dram_event where row = 9'")"

	# Undisturbed: mcelogd warned of nothing while rasdaemon read the same events.
	is "$(mcelogd_warnings "$mark")" "" "rasdaemon: beside rasdaemon, mcelogd logged no warnings"
	note "rasdaemon's whole log this boot:"
	guest 'journalctl -b -u rasdaemon.service -o cat --no-pager' | diag
	guest "echo 0 >$cxl_trace/events/cxl/enable; rmdir $cxl_trace; systemctl stop rasdaemon.service" >/dev/null
}
