#!/bin/bash
# Integration test: known-bad pages on a CXL region that is made after the
# daemon starts (issue 36, review of e24200c I8).  Held at start for memory
# that is not there; offlined again once uevents say memory came online and
# the region is back at the same address; one made again elsewhere stays
# held.  The live daemon against a stand-in sysfs (--sysfs-memory,
# --sysfs-cxl), whose uevents forge-uevent sends in the kernel's place (the
# stand-in makes the daemon take a local process's uevents; never otherwise,
# status.sh).  TAP.
set -u
builddir=${top_builddir:-$(pwd)}
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/integration/lib.sh"
forge=$builddir/tests/integration/forge-uevent
need_tools jq
use_workdir

sys=$work/sys
mkdir -p "$sys/memory" "$sys/cxl/mem0" "$work/proc/sys/vm" "$work/tracefs" "$work/state" "$work/rules" \
	"$work/dmi" "$work/slots"
printf '8000000\n' >"$sys/memory/block_size_bytes"          # 128 MiB blocks
: >"$sys/memory/soft_offline_page"
: >"$sys/memory/hard_offline_page"
printf '0x1234\n' >"$sys/cxl/mem0/serial"
echo 1 >"$work/proc/sys/vm/enable_soft_offline"
echo 1 >"$work/proc/sys/vm/memory_failure_recovery"
: >"$work/mcelogd.conf"
# Two pages of an earlier boot on memdev 0x1234, as the journal beside the state keeps them:
# 0x140010 on region0 (block 40), 0x180010 on region1 (block 48).
earlier=0123456789abcdef0123456789abcdef
printf 'page\t0x140010\tsoft\t1764000000000000\tok\t%s\t-\tcxl_serial=0x1234;dpa=0x10000;region=region0\t-\n' \
	"$earlier" >"$work/state/rules.state.journal"
printf 'page\t0x180010\tsoft\t1764000000000000\tok\t%s\t-\tcxl_serial=0x1234;dpa=0x50000;region=region1\t-\n' \
	"$earlier" >>"$work/state/rules.state.journal"
boot=$(tr -d -- '-\n' </proc/sys/kernel/random/boot_id)

log=$work/log
log_count() { grep -cF -- "$1" "$log"; }
offlined() { [ "$(cat "$sys/memory/soft_offline_page")" = "$1" ]; }
status() { "$mcectl" status --socket "$work/control" --output json | jq -r "$1"; }
# uevent ACTION DEVPATH SUBSYSTEM: sent to the daemon's uevent socket as the kernel would.
uevent() { "$forge" "$port" "$@"; }

echo "1..11"

"$mcelogd" --config "$work/mcelogd.conf" --no-journal --tracefs "$work/tracefs" --control-socket "$work/control" \
	--state-directory "$work/state" --rules-directory "$work/rules" --sysfs-memory "$sys/memory" \
	--sysfs-cxl "$sys/cxl" --procfs "$work/proc" --dmi-dir "$work/dmi" --slots-directory "$work/slots" \
	--log-level debug 2>"$log" &
pid=$!
started "$pid"
wait_for 10 grep -q "Following memory coming online through kernel uevents" "$log"
wait_for 10 test -S "$work/control"
port=$(uevent_port "$pid")

check "at start, no region yet: neither page is offlined" "" "$(cat "$sys/memory/soft_offline_page")"
check "... each is held, said once, to be looked at again when memory comes online" 2 \
	"$(grep -c "is known bad, but not offlined again: no memory block holds it in this boot.*looked at again when memory comes online" "$log")"
check "... and the status counts both as waiting for their memory" "2 2" \
	"$(status '"\(.memory.pages_held_memory_changed) \(.memory.pages_held_waiting_for_memory)"')"

# The operator makes the regions: region0 at its old address, region1 at another; kmem adds and
# onlines their blocks, one uevent each, as the kernel sends them.
mkdir -p "$sys/cxl/region0" "$sys/cxl/region1" "$sys/memory/memory40" "$sys/memory/memory48"
printf '0x140000000\n' >"$sys/cxl/region0/resource"; printf '0x10000000\n' >"$sys/cxl/region0/size"
printf '0x200000000\n' >"$sys/cxl/region1/resource"; printf '0x10000000\n' >"$sys/cxl/region1/size"
echo online >"$sys/memory/memory40/state"
echo online >"$sys/memory/memory48/state"
region=/devices/platform/ACPI0017:00/root0/decoder0.0
uevent add "$region/region0" cxl
uevent add "$region/region1" cxl
for b in 40 48; do
	uevent add "/devices/system/memory/memory$b" memory
	uevent online "/devices/system/memory/memory$b" memory
done
uevent bind "$region/region0" cxl
wait_for 10 grep -q "Memory came online: of" "$log"

check "the region back at its address: its page soft-offlined again" 0x140010000 \
	"$(cat "$sys/memory/soft_offline_page")"
check "... said so, with what brought it about" 1 \
	"$(log_count "Page 0x140010, offlined in an earlier boot, soft-offline again now that its memory came online: done")"
check "the region made again elsewhere: its page held for good, saying why" 1 \
	"$(grep -c "Page 0x180010 is known bad, but not offlined again: the CXL region that mapped it (region1) no longer holds its address.*not looked at again in this boot" "$log")"
check "one look per burst of uevents, not one per uevent" "1 7" \
	"$(log_count "looking again at 2 known-bad pages held for memory that was not there") $(grep -c "memory may have come online" "$log")"
check "... the summary line" 1 \
	"$(log_count "Memory came online: of 2 held pages, 1 offlined again, 0 refused, 0 still waiting, 1 held for good (other memory)")"
check "the status: one offlined when its memory came online, none waiting" "1 0" \
	"$(status '"\(.memory.pages_offlined_when_memory_came_online) \(.memory.pages_held_waiting_for_memory)"')"

# More memory later: the page held for other memory is not looked at again, nothing is written.
: >"$sys/memory/soft_offline_page"
mkdir -p "$sys/memory/memory60" && echo online >"$sys/memory/memory60/state"
uevent online /devices/system/memory/memory60 memory
wait_for 5 grep -q "no known-bad page waits for it" "$log"
check "later memory: nothing waits for it, nothing written" "1 " \
	"$(log_count "no known-bad page waits for it") $(cat "$sys/memory/soft_offline_page")"

kill "$pid" && wait "$pid" 2>/dev/null
check "the state: the page offlined in this boot, the other held" "ok held" \
	"$(awk -F'\t' -v b="$boot" '$1 == "page" && $2 == "0x140010" && $6 == b { s = $5 }
		$1 == "page" && $2 == "0x180010" { t = $5 } END { print s, t }' "$work/state/rules.state")"

exit $failed
