#!/bin/bash
# Integration test of the /dev/mcelog source's daemon glue (open, ioctls, full-
# buffer read, record length, overflow) on a kernel without the device: the
# LD_PRELOAD shim fake-dev-mcelog.so plays the device (see its header).  The
# real kernel device could not be tested: Debian's kernels lack it.  Prints TAP.

set -u
builddir=${top_builddir:-$(pwd)}
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
mcelogd=$builddir/mcelogd/mcelogd
. "$srcdir/tests/integration/lib.sh"
shim=$builddir/tests/integration/fake-dev-mcelog.so
records=$srcdir/tests/integration/data/dev-mcelog-88.bin

if [ -e /dev/mcelog ] || ! command -v jq >/dev/null; then
	echo "1..0 # SKIP needs jq, and a machine without a real /dev/mcelog"
	exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '[Sources]\nTracepoint=no\nTraceBuffer=no\nDevMcelog=yes\n' >"$work/mcelogd.conf"
mkdir "$work/state"

# run NAME RECORD_LEN OVERFLOW [RECORDS [LOG-PATTERN]]: the daemon, live, until it logged
# RECORDS (default 2) records, and LOG-PATTERN is in its log (a slow start, as under
# valgrind in make check-valgrind, must not cut it short)
run() {
	: >"$work/$1.jsonl"
	FAKE_DEV_MCELOG_PATH=/dev/mcelog FAKE_DEV_MCELOG_RECORDS=$records FAKE_DEV_MCELOG_RECORD_LEN=$2 \
	FAKE_DEV_MCELOG_OVERFLOW=$3 ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=$shim \
		"$mcelogd" -c "$work/mcelogd.conf" --no-journal --output-file "$work/$1.jsonl" \
		--control-socket '' --state-directory "$work/state" --bert "$work/no-bert" \
		--log-level info 2>"$work/$1.err" &
	local pid=$! i
	for i in $(seq 300); do
		[ "$(wc -l <"$work/$1.jsonl")" -ge "${4:-2}" ] && { [ -z "${5:-}" ] || grep -q "$5" "$work/$1.err"; } &&
			break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	sleep 0.3
	kill -TERM $pid 2>/dev/null
	wait $pid
	echo $? >"$work/$1.rc"
}

echo "1..7"

run short 88 1
check "88-byte records: the daemon stops cleanly" 0 "$(cat "$work/short.rc")"
check "both records logged, once, from dev_mcelog" \
	"dev_mcelog 1 7 0x9c00004000010090 0x0000000012345000 0x0000000000000086
dev_mcelog 3 4 0xbd80000000100134 0x00000000deadb000 0x0000000000000005" \
	"$(jq -r '"\(.source) \(.cpu) \(.bank) \(.status) \(.addr) \(.misc)"' "$work/short.jsonl" | sort)"
check "fields the 88-byte record has (mcgcap, apicid, cpuid) are kept; synd and ipid it lacks are absent" \
	"0x0000000000000c14 6 intel 6 143 null null" \
	"$(jq -r 'select(.cpu == 3) | "\(.mcgcap) \(.apicid) \(.vendor) \(.family) \(.model) \(.synd) \(.ipid)"' "$work/short.jsonl")"
if grep -q "lost from dev_mcelog" "$work/short.err"; then ok "the overflow flag is reported as a loss"
else not_ok "the overflow flag is reported as a loss" "$(cat "$work/short.err")"; fi

run nolost 88 0
if ! grep -q "lost" "$work/nolost.err"; then ok "no overflow flag, no loss"
else not_ok "no overflow flag, no loss" "$(cat "$work/nolost.err")"; fi

# A device that reports a record length shorter than any kernel's struct mce.
run bad 40 0 0 "record length 40"
check "an implausible record length: nothing logged" 0 "$(wc -l <"$work/bad.jsonl")"
if grep -q "record length 40" "$work/bad.err"; then ok "... and the error names it"
else not_ok "... and the error names it" "$(cat "$work/bad.err")"; fi

[ $failed = 0 ]
