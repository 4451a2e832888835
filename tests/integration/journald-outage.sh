#!/bin/bash
# Integration test: a journald outage with a bounded spool ([Output]
# SpoolSize=64K) loses nothing uncounted.  journald is gone (killed, its
# socket left behind, as `systemctl stop` leaves it) while a burst of 3
# uncorrected and 150 corrected records arrives; the spool fills, and its
# oldest corrected records leave it, counted in summary entries.  Once
# journald is back every corrected record is in the journal, either on its
# own or counted in a summary there, and every uncorrected one on its own.
# The VM scenario 36-journald-outage does the same on a real kernel.  The
# daemon runs live, its records from the fake-dev-mcelog.so shim, in batches
# of 32 as a kernel's buffer gives them.  Needs root; prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
use_dev_mcelog_shim
need_tools python3
# A private network namespace: journald's datagram queue as long as systemd
# makes it (512), whatever this host's sysctl says, so the spool is handed
# over in one retry, not in one per 10 entries.
MCELOGD_NS_NET=1 enter_journal_namespace "$0" "$@"
use_workdir
start_private_journald "$work"
sysctl -qw net.unix.max_dgram_qlen=512 2>/dev/null

echo "1..6"

# m corrected records after u uncorrected ones: enough of the first for
# summaries to fill the spool unless they fold into one another, and enough
# of the second that corrected records find it full of entries that stay.
m=${OUTAGE_CORRECTED:-600} u=${OUTAGE_UNCORRECTED:-3} ucna=0xbc000000000a0099
# The records, as an 88-byte-record kernel returns them (make-dev-mcelog-records.py):
# the uncorrected ones first (UCNA: UC=1, PCC=0), then the corrected, each its own
# STATUS[31:16] (so no storm takes them) and TSC, all stamped now.
python3 - "$m" "$u" "$ucna" "$(date +%s)" >"$work/records.bin" <<'EOF'
import struct, sys
m, u, ucna, now = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3], 0), int(sys.argv[4])
def record(cpu, bank, status, addr, tsc):
    r = struct.pack('<7Q', status, 0x86, addr, 0x5, 0, tsc, now)
    r += struct.pack('<BBBBI', 0, 0, 0, 0, 0x000806f8)
    r += struct.pack('<BBBB', 0, bank, cpu, 1)
    r += struct.pack('<III', cpu, 0, cpu * 2)
    r += struct.pack('<Q', 0x0000000000000c14)
    return r
out = b''.join(record(0, 3 + i % 4, ucna, 0x500000 + 0x1000 * i, 1000 + i) for i in range(1, u + 1))
out += b''.join(record(i % 2, i % 3, 0x9c00004000000098 | i << 16, 0x600000 + 0x1000 * i, 2000 + i)
                for i in range(1, m + 1))
sys.stdout.buffer.write(out)
EOF
printf '[Sources]\nTracepoint=no\nTraceBuffer=no\nDevMcelog=yes\nRAS=no\n[Output]\nSpoolSize=64K\n' >"$work/mcelogd.conf"
mkdir "$work/state" "$work/empty"
sock=$work/control

# spool: the journal sink's spool figures, by the daemon's own account ("" when it does not answer).
spool() {
	timeout 5 "$mcectl" status --socket "$sock" -o json 2>/dev/null |
		jq -c '.sinks[] | select(.name == "journal") | .spool'
}

# journald goes away as `systemctl stop` makes it: the process ends, its socket stays.
kill "$journald_pid" && wait "$journald_pid" 2>/dev/null
journald_pid=
FAKE_DEV_MCELOG_PATH=/dev/mcelog FAKE_DEV_MCELOG_RECORDS=$work/records.bin FAKE_DEV_MCELOG_RECORD_LEN=88 \
FAKE_DEV_MCELOG_BATCH_MS=20 ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=$shim \
	"$mcelogd" -c "$work/mcelogd.conf" --control-socket "$sock" --state-directory "$work/state" \
	--rules-directory "$work/empty" --bert "$work/no-bert" --log-level info 2>"$work/daemon.err" &
pid=$!
started $pid

# taken: the records the daemon took, kept in the spool or refused by it when full.
taken() { jq '(.spooled // 0) + (.refused // 0)' <<<"${1:-null}"; }
s=
for _ in $(seq 300); do
	s=$(spool)
	[ "$(taken "$s")" -ge $((m + u)) ] && break
	sleep 0.1
done
check "the daemon took all $((m + u)) records while journald was away" $((m + u)) "$(taken "$s")"
if [ "$(jq '.summarised // 0' <<<"${s:-null}")" -gt 0 ] && [ "$(jq '.bytes // 65537' <<<"${s:-null}")" -le 65536 ]; then
	ok "the full spool summarised its oldest corrected records and stayed within 64 KiB"
else
	not_ok "the full spool summarised its oldest corrected records and stayed within 64 KiB" "spool: '$s'"
fi

/lib/systemd/systemd-journald >>"$work/journald.log" 2>&1 &
journald_pid=$!
for _ in $(seq 100); do
	[ "$(spool | jq '.entries')" = 0 ] && break
	sleep 0.1
done
journalctl --sync 2>/dev/null
check "once journald is back, the spool empties" 0 "$(spool | jq '.entries')"

ind=$(journalctl -o json _COMM=mcelogd MESSAGE_ID=$(grep -o 'MCELOGD_MSGID_CORRECTED *"[0-9a-f]*"' \
	"$srcdir/lib/message-ids.h" | grep -o '[0-9a-f]\{32\}') | jq -r .MCE_STATUS | sort -u | wc -l)
lost=$(journalctl -o json _COMM=mcelogd MCE_SOURCE=journal_spool | jq -s 'map(.MCE_LOST | tonumber) | add // 0')
summarised=$(spool | jq '.summarised')
check "the uncorrected records are in the journal, each on its own" "$u" \
	"$(journalctl -o json _COMM=mcelogd MCE_STATUS=$(printf '0x%016x' $ucna) | wc -l)"
check "the spool's summaries in the journal count what it says it summarised" "$summarised" "$lost"
if [ "$((ind + lost))" = "$m" ]; then
	ok "every corrected record is in the journal on its own ($ind) or counted in a summary there ($lost)"
else
	not_ok "every corrected record is in the journal on its own or counted in a summary there" \
		"expected: $m" "actual:   $((ind + lost)) (on its own: $ind, counted in summaries: $lost)" \
		"spool: $(spool)" "$(grep -v 'older corrected record' "$work/daemon.err" | tail -n 5)"
fi
exit $((failed > 0))
