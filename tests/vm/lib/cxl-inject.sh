# Sourced by the scenarios of the CXL boot that inject into QEMU's cxl-type3
# device (65, 67, 68, extra/69, trixie/69): the drivers, the injection, and
# the kernel's trace line beside mcelogd's record.

# cxl_drivers_up: the guest's cxl drivers loaded and mem0 seen (idempotent).
cxl_drivers_up() {
	guest '
for m in libnvdimm cxl_pmem cxl_acpi cxl_mem cxl_pci; do modprobe $m || exit 1; done
for i in $(seq 120); do [ -e /sys/bus/cxl/devices/mem0/serial ] && exit 0; sleep 0.5; done
ls /sys/bus/cxl/devices; exit 1' 90
}
# cxl_inject COMMAND ARGUMENTS-JSON: a QMP cxl-inject-* command for the device.
cxl_inject() { qmp "$1" "$(jq -c --arg p "$cxl_dev" '. + {path: $p}' <<<"$2")"; }
# kernel_line EVENT: the kernel's own trace line for EVENT, whole, as
# trace_pipe prints it (task, CPU, flags, time, event) (waits 10 s).
kernel_line() { trace_line "$cxl_trace" "$1"; }
# kv LINE KEY: KEY's value in a kernel trace line ("key=value" or "key='value'").
kv() { grep -oE "(^| )$2=('[^']*'|[^ ]*)" <<<"$1" | head -n1 | sed -E "s/^ ?$2=//; s/^'(.*)'\$/\\1/"; }
# cxl_record EVENT JQ-CONDITION: the first record of cxl:EVENT matching, once
# there is one (30 s); then checks that there is exactly one.
cxl_record() {
	local rec
	rec=$(wait_records 1 ".source == \"cxl:$1\" and ($2)" 30 | head -n1)
	note "mcelogd: $rec"
	sleep 1
	is "$(query_json | jq -c "select(.source == \"cxl:$1\" and ($2))" | wc -l)" 1 "cxl: exactly one $1 record"
	cxl_rec=$rec
}
# journal_of MSGID: the journal entries of one class (JSON lines).
journal_of() { guest "journalctl -b -o json --no-pager MESSAGE_ID=$(msgid "$1")"; }

cxl_trace=/sys/kernel/tracing/instances/mcelogd-vm-cxl
