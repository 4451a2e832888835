#!/bin/bash
# Integration test: a journald that is alive but does not read (stopped with
# SIGSTOP here; stuck on failing storage in the field) must not stop the
# daemon.  Its queue fills, the daemon keeps what it cannot take in its spool
# and stays responsive, and once journald reads again every record is in the
# journal exactly once.  The daemon runs live, its records from the
# fake-dev-mcelog.so shim (see dev-mcelog.sh).  Needs root; prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
use_dev_mcelog_shim
# A private network namespace: the datagram queue length is its own (the
# kernel's 10, whatever the host's sysctl.d says), so it fills quickly.
MCELOGD_NS_NET=1 enter_journal_namespace "$0" "$@"
use_workdir
start_private_journald "$work"
sysctl -qw net.unix.max_dgram_qlen=10 2>/dev/null

echo "1..8"

# 32 corrected records (the shim's whole buffer), each its own TSC, all
# stamped now: only the spool makes them late (entry-time.h).
now=$(date +%s)
for i in $(seq 1 32); do
	dev_mcelog_record "$i" "$now"
done >"$work/records.bin"
printf '[Sources]\nTracepoint=no\nTraceBuffer=no\nDevMcelog=yes\nRAS=no\n[Storm]\nEnable=no\n' >"$work/mcelogd.conf"
mkdir "$work/state" "$work/empty"
sock=$work/control

kill -STOP "$journald_pid"
FAKE_DEV_MCELOG_PATH=/dev/mcelog FAKE_DEV_MCELOG_RECORDS=$work/records.bin FAKE_DEV_MCELOG_RECORD_LEN=88 \
ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=$shim \
	"$mcelogd" -c "$work/mcelogd.conf" --control-socket "$sock" --state-directory "$work/state" \
	--rules-directory "$work/empty" --bert "$work/no-bert" --log-level info 2>"$work/daemon.err" &
pid=$!
started $pid

# spooled: how many entries wait in the spool, by the daemon's own account (empty: it does not answer).
spooled() {
	timeout 2 "$mcectl" status --socket "$sock" -o json 2>/dev/null |
		jq -r '.sinks[] | select(.name == "journal") | .spool.entries'
}
# Until all 32 are handed over: the count stays the same for half a second.
waiting= last=
for _ in $(seq 20); do
	sleep 0.5
	waiting=$(spooled)
	[ -n "$waiting" ] && [ "$waiting" -gt 0 ] && [ "$waiting" = "$last" ] && break
	last=$waiting
done
if [ -n "$waiting" ] && [ "$waiting" -gt 0 ] && [ "$waiting" -lt 32 ]; then
	ok "with journald stopped, the records its queue cannot take go to the spool ($waiting of 32)"
else
	not_ok "with journald stopped, the records its queue cannot take go to the spool" "spooled: '$waiting'" \
		"$(cat "$work/daemon.err")" "$(grep -s State /proc/$pid/status) $(cat /proc/$pid/wchan 2>/dev/null)"
fi
if grep -q "journald is not reading its socket (its queue is full)" "$work/daemon.err"; then
	ok "the daemon says journald is not reading"
else
	not_ok "the daemon says journald is not reading" "$(cat "$work/daemon.err")"
fi
# Still responsive two retries later (each retry meets the full queue again).
sleep 4.5
check "the daemon keeps answering while journald stays stopped" "$waiting" "$(spooled)"
check "retrying a stopped journald logs nothing more" 1 "$(grep -c "not reading its socket" "$work/daemon.err")"

kill -CONT "$journald_pid"
for _ in $(seq 100); do
	[ "$(spooled)" = 0 ] && break
	sleep 0.1
done
check "once journald reads again, the spool empties" 0 "$(spooled)"
journalctl --sync 2>/dev/null
journalctl -o json _COMM=mcelogd MCE_SOURCE=dev_mcelog | jq -r .MCE_TSC | sort >"$work/tsc"
check "every record is in the journal" 32 "$(wc -l <"$work/tsc")"
check "... once" 32 "$(sort -u "$work/tsc" | wc -l)"
# Delivered when journald was back: marked late, for mcectl query to find by their time.
check "the entries that went to the spool, and only those, are marked late" "$waiting" \
	"$(journalctl -o json _COMM=mcelogd MCE_SOURCE=dev_mcelog MCE_LATE=1 | wc -l)"
exit $((failed > 0))
