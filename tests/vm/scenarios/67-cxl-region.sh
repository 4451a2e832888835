# Issue 28 #3 and #4, in 65's boot: QEMU's cxl-type3 device mapped by a
# region, so that the kernel knows the host physical address of a device
# address, then the link errors.
#
# - A ram region over the device's volatile capacity in the 4 GiB fixed
#   window (the cxl tool of Debian's ndctl, in the guest image, or the
#   kernel's region ABI where that tool cannot); its memory comes online
#   (movable) through the kernel's kmem driver.
# - Two corrected DRAM events on one device page: the kernel's trace lines
#   carry a valid hpa and the region's name; mcelogd's records carry the same
#   HPA and region, and an admin's page rule keyed on the page soft-offlines
#   the HPA's page, which the kernel then marks poisoned.  The DPA-to-HPA
#   relation is the kernel's: the test only takes the page of the HPA the
#   kernel traced.
# - Poison read back through the poison list now has an HPA: the record
#   carries it, and the shipped memory-uncorrected alert names the HPA range.
# - AER: QMP cxl-inject-correctable-error and cxl-inject-uncorrectable-errors,
#   each one record with its status bits, as the kernel traced them.  Seen on
#   Linux 7.3 with QEMU 10.0: both answered {"return": {}}, and the kernel
#   traced no cxl_aer_* event and printed no AER message (dmesg is noted);
#   the checks then say so (SKIP) and that mcelogd logged no such record.  A
#   kernel that does see the uncorrectable error resets the link and may
#   unbind the memdev, so this comes last in the boot (VM_LAST).
# - What /sys/bus/edac/devices holds on this kernel with this device (noted).
#
# rasdaemon side by side is not here: Debian 12's rasdaemon (0.6.8, in the
# guest image for 46) has no CXL support; trixie's 0.8.3 has, and runs
# beside mcelogd in a Debian 13 guest: tests/vm/trixie/69-cxl-rasdaemon.sh
# (make check-vm-cxl-rasdaemon).
. "$srcdir/tests/vm/lib/cxl-boot.sh"
VM_DESC="a CXL region: valid HPAs, a page rule on a CXL page, poison with its HPA range, AER CE and UE"
VM_LAST=1

. "$srcdir/tests/vm/lib/cxl-inject.sh"
. "$srcdir/tests/vm/lib/page-rule.sh"
. "$srcdir/tests/vm/lib/cxl-region.sh"

# aer_status LINE: the error names of a cxl_aer_* line's "status: '...'", joined
# by ", " as the records join them (the kernel joins them by " | ").
aer_status() { sed -n "s/.* status: '\([^']*\)'.*/\1/p" <<<"$1" | sed 's/ | /, /g'; }

# aer_reg WHAT: the memdev's PCIe endpoint's AER register WHAT (ustatus
# umask cstatus cmask: PCIe r6.0 7.8.4, at 4, 8, 16 and 20 in the AER
# extended capability), read from its config space; hexadecimal.
aer_reg() {
	local r
	case $1 in ustatus) r=4 ;; umask) r=8 ;; cstatus) r=16 ;; cmask) r=20 ;; *) return 1 ;; esac
	guest "cfg=\$(dirname \$(readlink -f /sys/bus/cxl/devices/mem0))/config
rd() { printf '%08x' 0x\$(od -An -tx4 -j \$1 -N4 \$cfg | tr -d ' '); }
off=256
while [ \$off -ne 0 ]; do
	h=\$((0x\$(rd \$off)))
	[ \$((h & 0xffff)) = 1 ] && break
	off=\$(((h >> 20) & 0xffc))
done
[ \$off -ne 0 ] || { echo 'no AER capability'; exit 1; }
rd \$((off + $r))"
}

# aer_case KIND QMP-COMMAND ARGUMENTS JQ WANT: inject, the kernel's
# cxl_aer_KIND_error line (and dmesg and the endpoint's AER status and mask
# registers, noted), one record whose JQ is WANT and whose error names are
# the kernel's.
#
# Seen on 7.3 with QEMU 10.0, after either injection: the endpoint's AER
# status registers still read 0 (correctable and uncorrectable), the
# internal-error mask bits are at their reset value (set: cmask 0000c000,
# umask 02400000), no AER message reached the root port and nothing was
# traced.  Clearing those two mask bits first changed nothing (tried once:
# the status stayed 0), so the injection does not reach the endpoint's AER
# registers at all here; why is not known.
aer_case() {
	local k rec sreg mreg
	case $1 in
	correctable) sreg=cstatus mreg=cmask ;;
	uncorrectable) sreg=ustatus mreg=umask ;;
	esac
	note "endpoint AER before: $sreg=$(aer_reg $sreg) $mreg=$(aer_reg $mreg)"
	check "cxl aer: QMP $2" cxl_inject "$2" "$3"
	k=$(kernel_line "cxl_aer_$1_error")
	note "endpoint AER after: $sreg=$(aer_reg $sreg) $mreg=$(aer_reg $mreg)"
	note "kernel: $k"
	note "dmesg: $(guest 'dmesg | grep -i "aer\|cxl" | tail -n 12' | tr '\n' '|')"
	if [ -z "$k" ]; then
		skip "cxl aer: the kernel traced cxl_aer_$1_error" "Linux 7.3 traced nothing for QEMU's injection (notes above)"
		is "$(query_json | jq -c "select(.source == \"cxl:cxl_aer_$1_error\")" | wc -l)" 0 \
			"cxl aer: no cxl_aer_$1_error record without the kernel's event"
		return
	fi
	cxl_record "cxl_aer_$1_error" 'true'
	rec=$cxl_rec
	is "$(jq -c "$4" <<<"$rec")" "$5" "cxl aer: one $1 record: its status bit, its name"
	is "$(jq -r .errors <<<"$rec")" "$(aer_status "$k")" "cxl aer: the $1 record's errors are the kernel's status"
}

scenario() {
	local region k rec rec2 hpa pfn key a j st out i
	check "cxl region: the cxl drivers load and the kernel sees mem0" cxl_drivers_up
	guest "mkdir -p $cxl_trace && echo 0 >$cxl_trace/tracing_on && echo >$cxl_trace/trace &&
echo 1 >$cxl_trace/events/cxl/enable && echo 1 >$cxl_trace/tracing_on" >/dev/null
	out=$(region_up)
	region=$(tail -n1 <<<"$out")
	printf '%s\n' "$out" | diag
	note "$(guest 'grep -i "kmem\|cxl" /proc/iomem; cxl list -R 2>&1 | head -n 20' | tr '\n' ' ')"
	if ! [[ "$region" =~ ^region[0-9]+$ ]]; then
		not_ok "cxl region: cxl create-region made a ram region over mem0, its memory online"
		printf '%s\n' "$region" | diag
		return
	fi
	ok "cxl region: cxl create-region made $region over mem0, its memory online"

	# An admin's page rule: two corrected CXL DRAM errors on one page soft-offline it.
	check "cxl region: an admin's page rule soft-offlines a CXL page after two errors" guest "
rd=\$(mcelogd --help | sed -n 's|.*configuration file (default \\(.*\\)/mcelogd.conf).*|\\1|p')/rules.d
mkdir -p \$rd
printf '[Rule]\\nName=vm-cxl-page\\nMatch=kind=cxl_dram\\nKey=page\\nThreshold=2 in 1h\\nAction=alert soft-offline\\n' >\$rd/90-vm-cxl-page.rules
systemctl reload mcelogd && for i in \$(seq 20); do
	journalctl -b -u mcelogd -o cat | grep -q 'Rules reloaded: .* rules in effect' && exit 0; sleep 0.5; done; exit 1"

	# Two corrected DRAM errors 64 bytes apart, in the region's half of the device.
	check "cxl region: QMP cxl-inject-dram-event at DPA 0x8000040" cxl_inject cxl-inject-dram-event \
		'{"log":"warning","flags":1,"dpa":134217792,"descriptor":0,"type":0,"transaction-type":1,"channel":1,"rank":0,"nibble-mask":3,"bank-group":2,"bank":1,"row":77,"column":8}'
	k=$(kernel_line cxl_dram)
	note "kernel: $k"
	hpa=$(kv "$k" hpa)
	if ! [[ "$hpa" =~ ^(0x)?[0-9a-f]+$ ]] || [ "$((16#${hpa#0x}))" = -1 ]; then
		not_ok "cxl region: the kernel's cxl_dram line carries a valid hpa (got '$hpa')"
		return
	fi
	hpa=$((16#${hpa#0x}))
	ok "cxl region: the kernel's cxl_dram line carries a valid hpa ($(printf '0x%x' "$hpa"))"
	is "$(kv "$k" region)" "$region" "cxl region: the kernel's cxl_dram line names $region"
	cxl_record cxl_dram '.dpa == "0x0000000008000040"'
	rec=$cxl_rec
	is "$(jq -c '[.hpa, .region, has("no_page")]' <<<"$rec")" \
		"[\"$(printf '0x%016x' "$hpa")\",\"$region\",false]" \
		"cxl region: the DRAM record carries the kernel's HPA and region, and a page"
	check "cxl region: QMP cxl-inject-dram-event at DPA 0x8000080 (same page)" cxl_inject cxl-inject-dram-event \
		'{"log":"warning","flags":1,"dpa":134217856,"descriptor":0,"type":0,"transaction-type":1,"channel":1,"rank":0,"nibble-mask":3,"bank-group":2,"bank":1,"row":77,"column":16}'
	cxl_record cxl_dram '.dpa == "0x0000000008000080"'
	rec2=$cxl_rec
	pfn=$((hpa >> 12))
	key=$(printf 'page=0x%x' "$pfn")
	is "$(jq -r '.hpa' <<<"$rec2" | xargs printf '%d\n' | awk '{ printf "page=0x%x\n", int($1 / 4096) }')" "$key" \
		"cxl region: the second record's HPA lies in the same page"
	is "$(wait_alert "$key")" 1 "cxl region: the page rule fired for $key, the page of the kernel's HPA"
	a=$(alerts_for "$key")
	printf '%s\n' "$a" | jq -c '{MESSAGE, MCE_RULE, MCE_RULE_ACTIONS, PRIORITY}' | diag
	is "$(jq -r .MCE_RULE <<<"$a" | head -n1)" vm-cxl-page "cxl region: the alert is the CXL page rule's"
	is "$(hwpoison "$pfn")" 1 "cxl region: the kernel marked the CXL page $(printf '0x%x' "$pfn") poisoned (soft offline)"
	guest "rm -f \$(mcelogd --help | sed -n 's|.*configuration file (default \\(.*\\)/mcelogd.conf).*|\\1|p')/rules.d/90-vm-cxl-page.rules; systemctl reload mcelogd" >/dev/null

	# Poison in the region, read back: its HPA range, and the uncorrected-memory alert.
	check "cxl region: QMP cxl-inject-poison at DPA 0x9000000" cxl_inject cxl-inject-poison '{"start":150994944,"length":512}'
	check "cxl region: the kernel reads the poison list" guest 'echo 1 >/sys/bus/cxl/devices/mem0/trigger_poison_list'
	# The list also holds 65's poison at DPA 0x800 (now in the region too): this one's line.
	k=$(guest "for i in \$(seq 40); do grep -q ' cxl_poison: .* dpa=0x9000000 ' $cxl_trace/trace && break; sleep 0.25; done
grep ' cxl_poison: .* dpa=0x9000000 ' $cxl_trace/trace | tail -n1 | sed 's/^ *//'")
	note "kernel: $k"
	hpa=$(kv "$k" hpa)
	cxl_record cxl_poison '.dpa == "0x0000000009000000"'
	rec=$cxl_rec
	is "$(jq -c '[.hpa, .region, .dpa_length]' <<<"$rec")" \
		"[\"$(printf '0x%016x' "$((16#${hpa#0x}))")\",\"$region\",\"0x200\"]" \
		"cxl region: the poison record carries the kernel's HPA, region and length"
	j=$(guest "for i in \$(seq 20); do journalctl -b -o json --no-pager MESSAGE_ID=$(msgid ALERT) MCE_RULE=memory-uncorrected |
	grep -F '$(printf '0x%x' "$((16#${hpa#0x}))")' && break; sleep 0.5; done")
	note "alert: $(jq -c '{MESSAGE, MCE_RULE, PRIORITY}' <<<"$j" | head -n1)"
	is "$(jq -r .MESSAGE <<<"$j" | head -n1 | grep -oE 'HPA 0x[0-9a-f]+-0x[0-9a-f]+')" \
		"$(printf 'HPA 0x%x-0x%x' "$((16#${hpa#0x}))" "$((16#${hpa#0x} + 0x200 - 1))")" \
		"cxl region: the memory-uncorrected alert names the poison's HPA range"

	# What EDAC offers on this kernel with this device, and mcectl status agrees.
	note "edac: $(guest 'ls /sys/bus/edac/devices/; ls /sys/bus/edac/devices/*/ 2>/dev/null' | tr '\n' ' ')"
	st=$(guest 'mcectl status --output json 2>/dev/null')
	is "$(jq -r '.edac_features | map(.device + "/" + .feature + (.instance | tostring)) | sort | join(" ")' <<<"$st")" \
		"$(guest 'cd /sys/bus/edac/devices 2>/dev/null && ls -d */scrub[0-9]* */ecs_fru[0-9]* */mem_repair[0-9]* 2>/dev/null | sort | tr "\n" " " | sed "s/ $//"')" \
		"cxl edac: mcectl status lists the scrub, ECS and repair features sysfs has"
	if [ "$(jq '.edac_features | length' <<<"$st")" = 0 ]; then
		check "cxl edac: mcectl status says no memory RAS controls are offered" \
			guest 'mcectl status | grep -qx "Memory RAS controls (EDAC): none offered"'
	fi

	# AER: a correctable, then an uncorrectable error on the device's link.
	# CXL r3.1 8.2.4.17.4 and .1: Memory Data ECC Error is bit 1 of the
	# Correctable and bit 7 of the Uncorrectable Error Status.
	aer_case correctable cxl-inject-correctable-error '{"type":"mem-data-ecc"}' \
		'[.severity, .memdev, .correctable_status, .errors]' \
		'["corrected","mem0","0x2","Memory Data ECC Error"]'
	aer_case uncorrectable cxl-inject-uncorrectable-errors \
		'{"errors":[{"type":"mem-data-ecc","header":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}]}' \
		'[.severity, .memdev, .uncorrectable_status, .errors, .first_error]' \
		'["uncorrected","mem0","0x80","Memory Data ECC Error","Memory Data ECC Error"]'
}
