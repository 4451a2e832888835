#!/bin/bash
# Integration test: the control socket and `mcectl status` against a live
# mcelogd (no journal needed: --no-journal).  Checks what the daemon says
# about its sources, who may ask, and how mcectl reports a daemon that is
# not running.  Needs root (to become another user with setpriv); prints TAP.
set -u
builddir=${top_builddir:-$(pwd)}
mcelogd=$builddir/mcelogd/mcelogd
mcectl=$builddir/mcectl/mcectl
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/integration/lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || ! command -v jq >/dev/null; then
	echo "1..0 # SKIP needs root, setpriv and jq"
	exit 0
fi

work=$(mktemp -d)
chmod 0755 "$work"   # other users must reach the socket for the credential checks
sock=$work/control
cleanup() {
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

echo "1..38"

# An empty tracefs: the tracepoint source must be reported unavailable, with why.
mkdir -p "$work/tracefs"
printf '[Daemon]\nSocketGroup=adm\n' >"$work/mcelogd.conf"
"$mcelogd" --config "$work/mcelogd.conf" --no-journal --tracefs "$work/tracefs" \
	--control-socket "$sock" 2>"$work/daemon.err" &
pid=$!
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done

check "the socket is mode 0660, group adm" "660 adm" "$(stat -c '%a %G' "$sock" 2>&1)"

"$mcectl" status --socket "$sock" --output json >"$work/status.json" 2>"$work/status.err"
check "mcectl status --output json exits 0" 0 $?
check "the document names the daemon's pid" "$pid" "$(jq -r .pid "$work/status.json" 2>&1)"
check "the CPU hotplug listener is running (uevent netlink socket)" true \
	"$(jq -r .cpu_hotplug_followed "$work/status.json" 2>&1)"
check "the tracepoint source is unavailable" unavailable \
	"$(jq -r '.sources[] | select(.name == "tracepoint") | .state' "$work/status.json" 2>&1)"
if jq -e '.sources[] | select(.name == "tracepoint") | .reason | test("no mce:mce_record")' \
	"$work/status.json" >/dev/null 2>&1; then
	ok "and the reason says why"
else
	not_ok "and the reason says why" "$(cat "$work/status.json")"
fi

"$mcectl" status --socket "$sock" >"$work/table.txt" 2>&1
if [ $? = 0 ] && grep -q "^tracepoint  *unavailable  *0  *0  the kernel has no" "$work/table.txt"; then
	ok "the table shows each source with state, counts and reason"
else
	not_ok "the table shows each source with state, counts and reason" "$(cat "$work/table.txt")"
fi
# Memory repair (mcelogd.rules(5), REPAIR): off by default, nothing asked, said on a line of its own.
check "memory repair: off, nothing asked this run" "false 0 0 0" \
	"$(jq -r '.memory | "\(.repair_enabled) \(.repairs_done) \(.repairs_refused) \(.repairs_failed)"' "$work/status.json" 2>&1)"
check "the table says repair is off" 1 \
	"$(grep -c '^Memory repairs by the rules (off, \[Memory\] Repair=no, soft only): 0 done, 0 refused, 0 failed, 0 would; 0 in the state$' "$work/table.txt")"

# Who may ask: even with the file opened up to everyone, peer credentials decide.
chmod 0666 "$sock"
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$mcectl" status --socket "$sock" 2>&1)
rc=$?
if [ $rc = 1 ] && grep -q "permission denied" <<<"$out"; then
	ok "a user outside the group is refused by credentials, not only by the file mode"
else
	not_ok "a user outside the group is refused by credentials, not only by the file mode" "rc=$rc" "$out"
fi
adm=$(getent group adm | cut -d: -f3)
out=$(setpriv --reuid=65534 --regid=65534 --groups="$adm" "$mcectl" status --socket "$sock" -o json 2>&1)
check "a member of SocketGroup= (supplementary group) is answered" "$pid" "$(jq -r .pid <<<"$out" 2>&1)"
# Issue 36: the group may read, only root may change what the daemon knows.
out=$(setpriv --reuid=65534 --regid=65534 --groups="$adm" "$mcectl" pages --forget 0x1234 --socket "$sock" 2>&1)
check "mcectl pages --forget from a member of the group: refused, only root may" \
	'1 {"error":"forget-page: only root may change the known-bad pages"}' "$? $out"
out=$("$mcectl" pages --forget 0x1234 --socket "$sock" 2>&1)
check "mcectl pages --forget of a page the state does not know: exit 1, said" \
	'1 {"forgotten":false,"error":"no such page in the state"}' "$? $out"
# Review of e24200c M1: a reload applies [Memory]'s repair settings (the kill switch among them) at once.
printf '[Daemon]\nSocketGroup=adm\n[Memory]\nRepair=yes\n' >"$work/mcelogd.conf"
kill -HUP "$pid"
for _ in $(seq 100); do grep -q "Configuration reloaded" "$work/daemon.err" && break; sleep 0.05; done
check "a reload with Repair=yes: repair on at once" true \
	"$("$mcectl" status --socket "$sock" --output json | jq -r .memory.repair_enabled 2>&1)"
printf '[Daemon]\nSocketGroup=adm\n' >"$work/mcelogd.conf"
kill -HUP "$pid"
for _ in $(seq 100); do [ "$(grep -c "Configuration reloaded" "$work/daemon.err")" -ge 2 ] && break; sleep 0.05; done
check "... and off again at the next, said in the log" "false 2" \
	"$("$mcectl" status --socket "$sock" --output json | jq -r .memory.repair_enabled 2>&1) $(grep -c 'repair settings now in effect' "$work/daemon.err")"

# A local process posing as the kernel: a forged "CPU 0 offline" uevent sent straight
# to mcelogd's uevent socket (found by its inode among the daemon's descriptors in
# /proc/net/netlink, protocol 15) is dropped and counted, never acted on.
port=$(uevent_port "$pid")
before_events=$("$mcectl" status --socket "$sock" -o json | jq -r .cpu_hotplug.events)
"$builddir/tests/integration/forge-uevent" "${port:-0}" 0
for _ in $(seq 50); do
	out=$("$mcectl" status --socket "$sock" -o json)
	[ "$(jq -r .cpu_hotplug.foreign_dropped <<<"$out")" = 1 ] && break
	sleep 0.05
done
check "a forged uevent (a process posing as the kernel, port ${port:-none}) is dropped and counted" \
	"1 $before_events" "$(jq -r '"\(.cpu_hotplug.foreign_dropped) \(.cpu_hotplug.events)"' <<<"$out")"

# A client that connects and says nothing must not block anyone else.  The test
# first makes sure that client is really connected (the daemon's accepted end shows
# in /proc/net/unix under the socket's path), or it would prove nothing.
connected() { awk -v p="$sock" '$NF == p && $6 == "03"' /proc/net/unix | wc -l; }
before=$(connected)
exec 5< <(exec socat -u UNIX-CONNECT:"$sock" - 2>/dev/null; sleep 5)
for _ in $(seq 50); do [ "$(connected)" -gt "$before" ] && break; sleep 0.05; done
out=$(timeout 5 "$mcectl" status --socket "$sock" -o json 2>&1)
if [ "$(connected)" -gt "$before" ] && [ "$(jq -r .pid <<<"$out" 2>&1)" = "$pid" ]; then
	ok "a silent client (connected, saying nothing) does not block status"
else
	not_ok "a silent client (connected, saying nothing) does not block status" \
		"connected before/now: $before/$(connected)" "$out"
fi
exec 5<&-

out=$(printf 'bogus\n' | socat - UNIX-CONNECT:"$sock" 2>&1)
if jq -e '.error | test("unknown request")' <<<"$out" >/dev/null 2>&1; then
	ok "an unknown request gets an error naming what is expected"
else
	not_ok "an unknown request gets an error naming what is expected" "$out"
fi

# Hostile requests: each gets an error saying what was wrong, and the daemon goes on.
# expect_error DESCRIPTION PATTERN: the request on stdin gets an error matching PATTERN.
expect_error() {
	local out
	out=$(socat - UNIX-CONNECT:"$sock" 2>&1)
	if jq -e --arg p "$2" '.error | test($p)' <<<"$out" >/dev/null 2>&1; then ok "$1"; else not_ok "$1" "$out"; fi
}
# (Input by redirection, not a pipe: a pipe would run it in a subshell and lose the count.)
expect_error "an oversized request (10000 bytes, no newline) gets 'request too long'" "request too long" \
	< <(head -c 10000 /dev/zero | tr '\0' a)
expect_error "a binary request gets 'request is not text'" "not text" < <(printf 'sta\001\377tus\n')
expect_error "a request with a NUL byte is not taken for 'status'" "not text" < <(printf 'status\0trailing\n')
expect_error "a partial request (EOF mid-word) gets an error, not a hang" "unknown request" < <(printf 'stat')

# Many clients at once: the daemon serves 16 at a time and the rest wait in the
# backlog, not refused; silent ones are dropped after their 2 s, so status is answered.
# The silent client above must be gone first (its 2 s), or it takes a slot.
for _ in $(seq 100); do [ "$(connected)" = 0 ] && break; sleep 0.05; done
# The 16 connect at once, from one process (16 processes started one by one
# on a loaded host can take longer than the 2 s after which the first is
# dropped).  The first slot frees when a holder's 2 s end, counted from its
# connection, so from before they connect: however slowly this host runs
# the lines between, status cannot be answered sooner.
start=$(date +%s%N)
rm -f "$work/holding"
python3 -c '
import socket, sys, time
held = []
for _ in range(16):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[1])
    held.append(s)
open(sys.argv[2], "w").close()
time.sleep(6)
' "$sock" "$work/holding" &
holders=($!)
for _ in $(seq 200); do [ -e "$work/holding" ] && break; sleep 0.05; done
held=$(connected)
out=$(timeout 10 "$mcectl" status --socket "$sock" -o json 2>&1)
waited=$((($(date +%s%N) - start) / 1000000))
if [ "$(jq -r .pid <<<"$out" 2>&1)" = "$pid" ] && [ "$waited" -ge 1900 ]; then
	ok "with 16 silent clients in every slot, status waits for a free slot and is answered"
else not_ok "with 16 silent clients in every slot, status waits for a free slot and is answered" \
	"connected before status: $held, answered $waited ms after the silent clients began to connect" "$out"; fi
# Each is dropped by its own 2 s timer; under load the last ones may fire a little later.
for _ in $(seq 100); do [ "$(connected)" = 0 ] && break; sleep 0.05; done
check "... and the silent clients were dropped" 0 "$(connected)"
kill "${holders[@]}" 2>/dev/null; wait "${holders[@]}" 2>/dev/null

out=$("$mcectl" status --socket "$sock" --output yaml 2>&1)
check "a bad --output value is a usage error (2)" 2 $?

kill "$pid"; wait "$pid" 2>/dev/null; pid=
check "the socket is removed at stop" no "$([ -e "$sock" ] && echo yes || echo no)"

# Under the shipped unit's capability set (no CAP_CHOWN) SocketGroup= cannot be applied:
# root must still be answered, and the log says why the group is not.
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "${top_srcdir:-.}/config/mcelogd.service.in" |
	tr ' ' '\n' | tr 'A-Z' 'a-z' | sed 's/^cap_/+/' | paste -sd, -)
setpriv --bounding-set=-all,"$caps" --inh-caps=-all "$mcelogd" --config "$work/mcelogd.conf" --no-journal \
	--tracefs "$work/tracefs" --control-socket "$sock" 2>"$work/daemon2.err" &
pid=$!
for _ in $(seq 100); do out=$("$mcectl" status --socket "$sock" -o json 2>&1) && break; sleep 0.05; done
check "without CAP_CHOWN (bounding set $caps) root is still answered" "$pid" "$(jq -r .pid <<<"$out" 2>&1)"
check "... the socket stays root's, mode 0660" "660 root" "$(stat -c '%a %G' "$sock" 2>&1)"
if grep -q "Cannot give the control socket .* to SocketGroup=.*only root may ask" "$work/daemon2.err"; then
	ok "... and the log says SocketGroup= could not be applied, and why"
else not_ok "... and the log says SocketGroup= could not be applied, and why" "$(cat "$work/daemon2.err")"; fi
kill "$pid"; wait "$pid" 2>/dev/null; pid=
# ... and with the service in the group (SupplementaryGroups=, as mcelogd.conf(5) says) it works.
setpriv --bounding-set=-all,"$caps" --inh-caps=-all --groups="$adm" "$mcelogd" --config "$work/mcelogd.conf" \
	--no-journal --tracefs "$work/tracefs" --control-socket "$sock" 2>"$work/daemon3.err" &
pid=$!
# The socket is bound first and given its group a moment later: wait for the group.
for _ in $(seq 100); do [ "$(stat -c %G "$sock" 2>/dev/null)" = adm ] && break; sleep 0.05; done
check "with SupplementaryGroups=adm and no CAP_CHOWN the socket is group adm" "660 adm" "$(stat -c '%a %G' "$sock" 2>&1)"
kill "$pid"; wait "$pid" 2>/dev/null; pid=

# Out of descriptors (issue 25): a limit that leaves the snapshot providers nothing, then
# (prlimit on the running daemon) none at all for a new client.  Before, accept() failed
# with EMFILE on a readable socket and the loop spun; now a client is served through the
# descriptor kept for that and told why, and the daemon stays idle.
# Bare, even under make check-valgrind: memcheck keeps descriptors of its own at the top
# of the limit, and these checks are about the daemon's.
bare_mcelogd=${MCELOGD_VALGRIND_TARGET:-$mcelogd}
(ulimit -n 20; exec "$bare_mcelogd" --config /dev/null --no-journal --tracefs "$work/tracefs" \
	--control-socket "$sock" --state-directory "$work" --log-level info) 2>"$work/daemon4.err" &
pid=$!
for _ in $(seq 100); do "$mcectl" status --socket "$sock" >/dev/null 2>&1 && break; sleep 0.05; done
# The lowest free descriptor number: with the limit there, the next one fails.
nfd=0; while [ -e /proc/$pid/fd/$nfd ]; do nfd=$((nfd + 1)); done
prlimit --pid "$pid" --nofile="$nfd:$nfd"
read -r _ _ _ _ _ _ _ _ _ _ _ _ _ u0 s0 _ </proc/$pid/stat
out=$(timeout 5 "$mcectl" status --socket "$sock" 2>&1)
# More clients while the spare is in use: they wait, and the loop does not spin.
waiters=()
for _ in 1 2 3; do timeout 3 "$mcectl" status --socket "$sock" >/dev/null 2>&1 & waiters+=($!); done
sleep 2
read -r _ _ _ _ _ _ _ _ _ _ _ _ _ u1 s1 _ </proc/$pid/stat
wait "${waiters[@]}"
if grep -q "no file descriptor free (RLIMIT_NOFILE)" <<<"$out"; then ok "at EMFILE a client is told the daemon has no descriptor free"
else not_ok "at EMFILE a client is told the daemon has no descriptor free" "$out"; fi
# 2 s of a spinning loop is ~200 ticks; an idle daemon takes none or one.
if [ $(( u1 + s1 - u0 - s0 )) -le 20 ]; then ok "... and the daemon does not spin ($(( u1 + s1 - u0 - s0 )) ticks in 2 s)"
else not_ok "... and the daemon does not spin" "$(( u1 + s1 - u0 - s0 )) clock ticks in 2 s"; fi
if grep -q "Control socket: Too many open files; 1 client(s) turned away" "$work/daemon4.err" &&
	[ "$(grep -c "turned away" "$work/daemon4.err")" = 1 ]; then ok "... the log says so once"
else not_ok "... the log says so once" "$(grep -c "turned away" "$work/daemon4.err") lines: $(tail -3 "$work/daemon4.err")"; fi
kill "$pid"; wait "$pid" 2>/dev/null; pid=
# At stop the control socket and the counters go first: what they free saves the rules' state.
if grep -q "Failed to save the rules' state" "$work/daemon4.err"; then
	not_ok "at the descriptor limit the rules' state is still saved at stop" "$(tail -3 "$work/daemon4.err")"
else ok "at the descriptor limit the rules' state is still saved at stop"; fi
if grep -q "Counter snapshots: 0 of [0-9]* event(s) per CPU: descriptors .* did not fit (RLIMIT_NOFILE 20," "$work/daemon4.err"
then ok "the counter recorder gave up its events to the descriptor budget, and said why"
else not_ok "the counter recorder gave up its events to the descriptor budget, and said why" "$(cat "$work/daemon4.err")"; fi
rm -f "$sock"
# With room (the same daemon, the limit raised), status shows the descriptors against the limit.
(ulimit -n 4096; exec "$bare_mcelogd" --config /dev/null --no-journal --tracefs "$work/tracefs" \
	--control-socket "$sock" --state-directory "$work") 2>"$work/daemon5.err" &
pid=$!
for _ in $(seq 100); do out=$("$mcectl" status --socket "$sock" -o json 2>&1) && break; sleep 0.05; done
check "status's descriptors: the limit in force, what the snapshots took, the perf ring memory" "4096 true" \
	"$(jq -r '"\(.descriptors.limit) \(.descriptors.open > 0 and .descriptors.snapshots >= 0 and .descriptors.perf_ring_bytes >= 0)"' <<<"$out" 2>&1)"
# perf_ring_bytes is what the process has mapped of perf events (the counter rings here,
# where the counters can be opened; the tracepoint rings too on a real kernel), summed
# here from its maps independently of the daemon.
mapped=0
while read -r range _ _ _ _ name; do
	[ "$name" = "anon_inode:[perf_event]" ] || continue
	mapped=$(( mapped + 16#${range#*-} - 16#${range%-*} ))
done </proc/$pid/maps
check "status's perf_ring_bytes is the daemon's perf mappings in /proc/PID/maps" "$mapped" \
	"$(jq -r .descriptors.perf_ring_bytes <<<"$out" 2>&1)"
kill "$pid"; wait "$pid" 2>/dev/null; pid=
"$mcectl" status --socket "$sock" >/dev/null 2>&1
check "mcectl status exits 3 when mcelogd is not running" 3 $?

exit $((failed > 0))
