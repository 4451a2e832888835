#!/bin/bash
# Integration test: the kernel's contract with a RAS daemon (ras-daemon-active.h)
# and the kernel's corrected-error collector in `mcectl status` (kernel-cec.h).
# The live daemon reads this machine's real ras:* tracepoints (tracefs mounted
# in a private mount namespace), and --debugfs points it at a stand-in tree, so
# that what it holds open can be seen in /proc/PID/fd.  Needs root, unshare and
# a kernel with at least one ras:* tracepoint; prints TAP.
set -u
builddir=${top_builddir:-$(pwd)}
mcelogd=$builddir/mcelogd/mcelogd
mcectl=$builddir/mcectl/mcectl
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/integration/lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null || ! command -v jq >/dev/null; then
	echo "1..0 # SKIP needs root, unshare and jq"
	exit 0
fi
if [ -z "${MCELOGD_IN_NAMESPACE:-}" ]; then
	MCELOGD_IN_NAMESPACE=1 exec unshare -m --propagation private "$BASH" "$0" "$@"
fi

work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	umount "$work/tracefs" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/tracefs"
if ! mount -t tracefs nodev "$work/tracefs" 2>/dev/null || ! ls "$work/tracefs/events/ras/"*/format >/dev/null 2>&1; then
	echo "1..0 # SKIP no tracefs with ras:* events here"
	exit 0
fi

# No trace instance (it would outlive the test in the real tracefs), no other source.
conf() { # conf FILE RAS
	printf '[Sources]\nTracepoint=no\nTraceBuffer=no\nMSRPoll=no\nDevMcelog=no\nRAS=%s\n' "$2" >"$1"
}

# start NAME DEBUGFS [ARGS...]: a daemon with its own socket, log and state; sets pid.
start() {
	local name=$1 debugfs=$2
	shift 2
	mkdir -p "$work/$name/state"
	"$mcelogd" --config "$work/$name.conf" --no-journal --tracefs "$work/tracefs" --debugfs "$debugfs" \
		--bert "$work/no-bert" --state-directory "$work/$name/state" \
		--control-socket "$work/$name/control" --log-level info "$@" 2>"$work/$name/daemon.err" &
	pid=$!
	pids+=("$pid")
	for _ in $(seq 600); do [ -S "$work/$name/control" ] && break; sleep 0.05; done
}

status() { "$mcectl" status --socket "$work/$1/control" --output json 2>&1; }

# Which of pid's descriptors point at path (none: empty).
holds() { for fd in /proc/"$1"/fd/*; do [ "$(readlink "$fd")" = "$2" ] && echo "${fd##*/}"; done; }

# A stand-in debugfs: ras/daemon_active and a collector as cec.c lays it out.
dfs=$work/debugfs
mkdir -p "$dfs/ras/cec"
: >"$dfs/ras/daemon_active"
chmod 0400 "$dfs/ras/daemon_active"
printf '2\n' >"$dfs/ras/cec/action_threshold"
printf '86400\n' >"$dfs/ras/cec/decay_interval"

conf "$work/live.conf" yes
start live "$dfs"
live=$pid
doc=$(status live)
# perf_event_open may be refused here (a container, perf_event_paranoid): then there is nothing to test.
if [ "$(jq -r '[.sources[] | select(.name | startswith("ras:")) | .state == "active"] | any' <<<"$doc" 2>&1)" != true ]; then
	echo "1..0 # SKIP no ras:* tracepoint can be read here: $(jq -c '[.sources[] | select(.name | startswith("ras:")) | .reason]' <<<"$doc" 2>&1)"
	exit 0
fi
echo "1..15"
check "status: ras_daemon_active is true" true "$(jq -r .ras_daemon_active <<<"$doc" 2>&1)"
fd=$(holds "$live" "$dfs/ras/daemon_active")
if [ -n "$fd" ] && grep -q '^flags:.*[0-7][0-7]0000$' "/proc/$live/fdinfo/$fd" 2>/dev/null; then
	ok "the daemon holds ras/daemon_active open, read-only (fd $fd)"
else
	not_ok "the daemon holds ras/daemon_active open, read-only" "fd: '$fd'" \
		"$(cat "/proc/$live/fdinfo/$fd" 2>&1)" "$(ls -l /proc/"$live"/fd 2>&1)"
fi
if grep -q "Holding $dfs/ras/daemon_active open" "$work/live/daemon.err"; then
	ok "the log says so"
else
	not_ok "the log says so" "$(cat "$work/live/daemon.err")"
fi
check "status: the kernel's collector, its threshold and decay" "active 2 86400" \
	"$(jq -r '.kernel_cec | "\(.state) \(.action_threshold) \(.decay_interval_sec)"' <<<"$doc" 2>&1)"
table=$("$mcectl" status --socket "$work/live/control" 2>&1)
check "the table has a line for each" 2 \
	"$(grep -c -e '^Kernel told a RAS daemon runs (ras/daemon_active held): yes$' \
	   -e "^Kernel corrected-error collector (ras/cec): active, soft-offlines a page at 2 corrected errors, counts age every 86400 s; it acts beside mcelogd's page rules$" <<<"$table")"
# The collector's threshold is read at each status, not once.
printf '5\n' >"$dfs/ras/cec/action_threshold"
check "a changed threshold shows at the next status" 5 "$(status live | jq -r .kernel_cec.action_threshold 2>&1)"

# RAS=no at a reload: the events are no longer read, so the kernel must print them again.
conf "$work/live.conf" no
kill -HUP "$live"
for _ in $(seq 400); do [ "$(status live | jq -r .ras_daemon_active)" = false ] && break; sleep 0.05; done
doc=$(status live)
check "after RAS=no: ras_daemon_active is false, with why" "false mcelogd does not read the ras:* events (RAS=no, or none available)" \
	"$(jq -r '"\(.ras_daemon_active) \(.ras_daemon_active_reason)"' <<<"$doc" 2>&1)"
check "and the file is closed" "" "$(holds "$live" "$dfs/ras/daemon_active")"
conf "$work/live.conf" yes
kill -HUP "$live"
for _ in $(seq 400); do [ "$(status live | jq -r .ras_daemon_active)" = true ] && break; sleep 0.05; done
if [ -n "$(holds "$live" "$dfs/ras/daemon_active")" ]; then
	ok "RAS=yes again: held again"
else
	not_ok "RAS=yes again: held again" "$(status live)"
fi
kill "$live"
wait "$live"
check "the daemon stops cleanly" 0 $?

# A kernel without the file (ras/ there, daemon_active not), and debugfs not mounted at all.
mkdir -p "$work/dfs-nofile/ras"
conf "$work/nofile.conf" yes
start nofile "$work/dfs-nofile"
check "no ras/daemon_active: false, with why" "false no $work/dfs-nofile/ras/daemon_active in this kernel" \
	"$(status nofile | jq -r '"\(.ras_daemon_active) \(.ras_daemon_active_reason)"' 2>&1)"
if grep -q "Cannot tell the kernel a RAS daemon runs: no $work/dfs-nofile/ras/daemon_active in this kernel" \
	"$work/nofile/daemon.err"; then
	ok "the log says why"
else
	not_ok "the log says why" "$(cat "$work/nofile/daemon.err")"
fi
check "no collector there: absent" absent "$(status nofile | jq -r .kernel_cec.state 2>&1)"
mkdir -p "$work/dfs-unmounted"
conf "$work/unmounted.conf" yes
start unmounted "$work/dfs-unmounted"
check "an empty debugfs directory: not mounted" "false debugfs is not mounted at $work/dfs-unmounted" \
	"$(status unmounted | jq -r '"\(.ras_daemon_active) \(.ras_daemon_active_reason)"' 2>&1)"

# A replay reads no kernel events: it never tells the kernel it does.
mkfifo "$work/replay.fifo"
"$mcelogd" --config "$work/live.conf" --no-journal --debugfs "$dfs" --replay "$work/replay.fifo" \
	--state-directory "$work/replay-state" 2>"$work/replay.err" &
replay=$!
pids+=("$replay")
exec 7>"$work/replay.fifo"   # the replay now waits for its input
# Once it has opened its input (fd to the fifo), it has set up all it ever will.
for _ in $(seq 400); do [ -n "$(holds "$replay" "$work/replay.fifo")" ] && break; sleep 0.05; done
if [ -d "/proc/$replay" ] && [ -z "$(holds "$replay" "$dfs/ras/daemon_active")" ]; then
	ok "a replay never opens ras/daemon_active"
else
	not_ok "a replay never opens ras/daemon_active" "$(ls -l /proc/"$replay"/fd 2>&1)" "$(cat "$work/replay.err")"
fi
exec 7>&-
wait "$replay"

[ "$failed" = 0 ]
