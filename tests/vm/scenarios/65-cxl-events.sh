# Issue 28 #3, issue 29 #2: CXL memory errors on the newest backported kernel.
# The guest loads its cxl drivers for QEMU's cxl-type3 device; QMP injects a
# general media event, a DRAM event and a memory module event into the
# device's event logs, and poison that the kernel reads back when asked for
# the poison list.  For each: the kernel traced it (its own line, from a
# tracefs instance of ours), mcelogd logged exactly one record, under the
# class's MESSAGE_ID, with the injected values in the record and in the
# journal's MCE_* fields, and the values agree with the kernel's line.  No
# region maps the device, so the kernel's HPA is all ones: the records carry
# no HPA and say why (no_page), so no page rule acts on them.
. "$srcdir/tests/vm/lib/cxl-boot.sh"
VM_DESC="CXL events from QEMU's cxl-type3 device on Linux 7.3: each logged once, with the injected values"

. "$srcdir/tests/vm/lib/cxl-inject.sh"

scenario() {
	local out st e rec k j
	check "cxl: the cxl drivers load and the kernel sees mem0" cxl_drivers_up
	# cxl_core is built in: mcelogd opened the events at its start.
	st=$(guest 'mcectl status --output json 2>/dev/null')
	for e in cxl_general_media cxl_dram cxl_memory_module cxl_poison cxl_overflow cxl_aer_correctable_error; do
		is "$(jq -r --arg s "cxl:$e" '.sources[] | select(.name == $s) | .state' <<<"$st")" active \
			"cxl: mcectl status shows cxl:$e active"
	done
	check "cxl: a tracefs instance of the rig's own traces the cxl events" \
		guest "mkdir -p $cxl_trace && echo 1 >$cxl_trace/events/cxl/enable"

	# General media: an uncorrectable, threshold event on channel 3, rank 1, device 5.
	check "cxl: QMP cxl-inject-general-media-event" cxl_inject cxl-inject-general-media-event \
		'{"log":"informational","flags":1,"dpa":4096,"descriptor":3,"type":3,"transaction-type":1,"channel":3,"rank":1,"device":5,"component-id":"iras mem"}'
	k=$(kernel_line cxl_general_media)
	note "kernel: $k"
	cxl_record cxl_general_media '.dpa == "0x0000000000001000"'
	rec=$cxl_rec
	is "$(jq -c '[.event, .severity, .memdev, .log, .descriptor, .type, .transaction_type, .channel, .rank, .media_device, .no_page, has("hpa")]' <<<"$rec")" \
		'["cxl_general_media","uncorrected","mem0","informational","UNCORRECTABLE_EVENT|THRESHOLD_EVENT","TE State Violation","Host Read",3,1,"0x5","not_in_region",false]' \
		"cxl: general media record: severity, memdev, log, descriptor, type, transaction, channel, rank, device, no HPA"
	is "$(jq -r '[.memdev, .serial, (.dpa | ltrimstr("0x") | ltrimstr("000000000000")), .channel, .rank] | map(tostring) | join(" ")' <<<"$rec")" \
		"$(echo "$(kv "$k" memdev) $(kv "$k" serial) $(kv "$k" dpa) $(kv "$k" channel) $(kv "$k" rank)")" \
		"cxl: general media record agrees with the kernel's line (memdev, serial, dpa, channel, rank)"
	j=$(journal_of CXL_GENERAL_MEDIA)
	is "$(grep -c . <<<"$j")" 1 "cxl: one journal entry with MESSAGE_ID=$(msgid CXL_GENERAL_MEDIA)"
	is "$(jq -c '[.MCE_SOURCE, .MCE_SEVERITY, .MCE_MEMDEV, .MCE_DPA, .MCE_CHANNEL, .MCE_RANK, ._COMM]' <<<"$j")" \
		'["cxl:cxl_general_media","uncorrected","mem0","0x0000000000001000","3","1","mcelogd"]' \
		"cxl: general media journal fields MCE_SOURCE/SEVERITY/MEMDEV/DPA/CHANNEL/RANK"

	# DRAM: a corrected ECC error with its full DRAM address.
	check "cxl: QMP cxl-inject-dram-event" cxl_inject cxl-inject-dram-event \
		'{"log":"warning","flags":1,"dpa":8192,"descriptor":0,"type":0,"transaction-type":2,"channel":2,"rank":0,"nibble-mask":33,"bank-group":1,"bank":3,"row":1234,"column":56,"correction-mask":[1,2,3,4]}'
	k=$(kernel_line cxl_dram)
	note "kernel: $k"
	cxl_record cxl_dram '.dpa == "0x0000000000002000"'
	rec=$cxl_rec
	is "$(jq -c '[.event, .severity, .log, .type, .transaction_type, .channel, .rank, .nibble_mask, .bank_group, .bank, .row, .column, .no_page]' <<<"$rec")" \
		'["cxl_dram","corrected","warning","ECC Error","Host Write",2,0,"0x21",1,3,1234,56,"not_in_region"]' \
		"cxl: DRAM record: severity, log, type, transaction, channel, rank, nibble mask, bank group, bank, row, column"
	is "$(jq -r '[.channel, .rank, .bank_group, .bank, .row, .column] | map(tostring) | join(" ")' <<<"$rec")" \
		"$(echo "$(kv "$k" channel) $(kv "$k" rank) $(kv "$k" bank_group) $(kv "$k" bank) $(kv "$k" row) $(kv "$k" column)")" \
		"cxl: DRAM record agrees with the kernel's line (channel, rank, bank group, bank, row, column)"
	j=$(journal_of CXL_DRAM)
	is "$(grep -c . <<<"$j")" 1 "cxl: one journal entry with MESSAGE_ID=$(msgid CXL_DRAM)"
	is "$(jq -c '[.MCE_SEVERITY, .MCE_DPA, .MCE_BANK_GROUP, .MCE_BANK, .MCE_ROW, .MCE_COLUMN]' <<<"$j")" \
		'["corrected","0x0000000000002000","1","3","1234","56"]' \
		"cxl: DRAM journal fields MCE_SEVERITY/DPA/BANK_GROUP/BANK/ROW/COLUMN"

	# Memory module: health and life used changed, at -15 degrees C.
	check "cxl: QMP cxl-inject-memory-module-event" cxl_inject cxl-inject-memory-module-event \
		'{"log":"failure","flags":1,"type":2,"health-status":3,"media-status":7,"additional-status":33,"life-used":30,"temperature":-15,"dirty-shutdown-count":4,"corrected-volatile-error-count":5,"corrected-persistent-error-count":6}'
	k=$(kernel_line cxl_memory_module)
	note "kernel: $k"
	cxl_record cxl_memory_module '.life_used == 30'
	rec=$cxl_rec
	is "$(jq -c '[.event, .severity, .log, .event_type, .health_status, .media_status, .life_used, .temperature, .dirty_shutdowns, .corrected_volatile_errors, .corrected_persistent_errors]' <<<"$rec")" \
		'["cxl_memory_module","uncorrected","failure","Life Used Change","MAINTENANCE_NEEDED|PERFORMANCE_DEGRADED","All Data Loss in Event of Power Loss",30,-15,4,5,6]' \
		"cxl: memory module record: log, event type, health, media status, life used, temperature, counts"
	is "$(jq -r '[.health_status, .media_status, .life_used, .temperature, .dirty_shutdowns] | map(tostring) | join(" ")' <<<"$rec")" \
		"$(echo "$(kv "$k" health_status) $(kv "$k" media_status) $(kv "$k" life_used) $(kv "$k" device_temp) $(kv "$k" dirty_shutdown_cnt)")" \
		"cxl: memory module record agrees with the kernel's line (health, media status, life used, temperature, dirty shutdowns)"
	j=$(journal_of CXL_MEMORY_MODULE)
	is "$(grep -c . <<<"$j")" 1 "cxl: one journal entry with MESSAGE_ID=$(msgid CXL_MEMORY_MODULE)"
	is "$(jq -c '[.MCE_LIFE_USED, .MCE_TEMPERATURE, .MCE_HEALTH_STATUS]' <<<"$j")" \
		'["30","-15","MAINTENANCE_NEEDED|PERFORMANCE_DEGRADED"]' \
		"cxl: memory module journal fields MCE_LIFE_USED/TEMPERATURE/HEALTH_STATUS"

	# Poison: injected into the device, read back through the poison list.
	check "cxl: QMP cxl-inject-poison" cxl_inject cxl-inject-poison '{"start":2048,"length":256}'
	check "cxl: the kernel reads the poison list (trigger_poison_list)" \
		guest 'echo 1 >/sys/bus/cxl/devices/mem0/trigger_poison_list'
	k=$(kernel_line cxl_poison)
	note "kernel: $k"
	cxl_record cxl_poison '.dpa == "0x0000000000000800"'
	rec=$cxl_rec
	is "$(jq -c '[.event, .severity, .memdev, .trace_type, .dpa_length, .poison_source, .no_page]' <<<"$rec")" \
		'["cxl_poison","uncorrected","mem0","list","0x100","Internal","not_in_region"]' \
		"cxl: poison record: list, DPA length, source (QEMU lists injected poison as Internal), no HPA"
	is "$(jq -r '[(.dpa | ltrimstr("0x") | sub("^0+"; "")), (.dpa_length | ltrimstr("0x")), .poison_source] | join(" ")' <<<"$rec")" \
		"$(echo "$(kv "$k" dpa | sed 's/^0x//; s/^0*//') $(kv "$k" dpa_length | sed 's/^0x//') $(kv "$k" source)")" \
		"cxl: poison record agrees with the kernel's line (dpa, length, source)"
	j=$(journal_of CXL_POISON)
	is "$(grep -c . <<<"$j")" 1 "cxl: one journal entry with MESSAGE_ID=$(msgid CXL_POISON)"

	guest "echo 0 >$cxl_trace/events/cxl/enable; rmdir $cxl_trace" >/dev/null
}
