# Issue 29, item 4: a vendor CPER section on arm64, in 80's boot.  A section
# whose type GUID the kernel does not know goes to ras:non_standard_event
# with its bytes and, like arm_event, the GHES severity of the section
# (ghes_do_proc() passes ghes_severity()): a CPER-corrected section is
# traced as 1, which mcelogd once read as CPER's 1, fatal.  The GUID here is
# no vendor's (mcelogd has no decoder for it): the record keeps the bytes.
VM_DESC="GHES on arm64: a vendor section CPER, ras:non_standard_event, its severity"
. "$srcdir/tests/vm/lib/ghes-boot.sh"

scenario() {
	local guid=5a5a5a5a-1234-4abc-8def-0123456789ab data=00112233445566778899aabbccddeeff tr kline rec
	tr=/sys/kernel/tracing/instances/mcelogd-vm-82
	guest "mkdir -p $tr && echo 1 >$tr/events/ras/non_standard_event/enable && echo >$tr/trace" >/dev/null
	check "ghes-vendor: QEMU took the record (inject-ghes-v2-error)" ghes_inject "$(ghes_block 2 "$guid" "$data")"
	kline=$(guest "for i in \$(seq 60); do grep -q 'non_standard_event: ' $tr/trace && break; sleep 0.5; done
grep -v '^#' $tr/trace | sed 's/^ *//'; echo 0 >$tr/events/ras/non_standard_event/enable; rmdir $tr")
	# The event prints over several lines (section type, fru, severity, length, data).
	note "kernel trace: $(tr '\n' '|' <<<"$kline")"
	check "ghes-vendor: the kernel traced the section with GHES severity 1 (corrected)" grep -q "severity: 1" <<<"$kline"
	rec=$(wait_records 1 ".source == \"ras:non_standard_event\" and .section_type == \"$guid\"" 60 | head -n1)
	note "mcelogd: $rec"
	check "ghes-vendor: mcelogd logged the vendor section" test -n "$rec"
	[ -n "$rec" ] || return
	is "$(jq -c '[.severity, .ghes_severity, .data]' <<<"$rec")" "[\"corrected\",\"corrected\",\"$data\"]" \
		"ghes-vendor: corrected (ghes_severity), its 16 bytes as injected"
	is "$(jq -r .description <<<"$rec")" "Corrected hardware error in a vendor section (type $guid, 16 bytes)" \
		"ghes-vendor: the description"
}
