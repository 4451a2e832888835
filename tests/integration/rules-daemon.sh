#!/bin/bash
# Integration test: the live daemon's rules state and reload.  A damaged
# state file is set aside, never fatal; the state is written at stop,
# atomically; SIGHUP with a bad rule file keeps the running rules, and says
# so to systemd with the READY=1 that ends the reload (TAP).
set -u
builddir=${top_builddir:-$(pwd)}
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
mcelogd=$builddir/mcelogd/mcelogd
. "$srcdir/tests/integration/lib.sh"

work=$(mktemp -d)
cleanup() {
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	[ -n "${listener:-}" ] && kill "$listener" 2>/dev/null && wait "$listener" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/tracefs" "$work/state" "$work/rules"
cp "$srcdir"/config/rules.d/*.rules "$work/rules/"
shipped=$(cat "$work"/rules/*.rules | grep -c '^Name=')
: >"$work/mcelogd.conf"

# systemd's side of sd_notify(): each datagram on one line of $work/notify, '|' for its newlines.
if command -v python3 >/dev/null; then
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a") as out:
    while True:
        out.write(s.recv(65536).decode().replace("\n", "|") + "\n")
        out.flush()
' "$work/notify.sock" "$work/notify" &
	listener=$!
	for _ in $(seq 100); do [ -S "$work/notify.sock" ] && break; sleep 0.05; done
	export NOTIFY_SOCKET=$work/notify.sock
fi
# last_ready: the last READY=1 message after a RELOADING=1
last_ready() { sed -n '/RELOADING=1/,$p' "$work/notify" 2>/dev/null | grep '^READY=1' | tail -1; }
notified() { # notified DESCRIPTION PATTERN (a grep -E on last_ready; "!" first: must not match)
	if [ -z "${NOTIFY_SOCKET:-}" ]; then ok "# SKIP $1: no python3 for a notify socket"; return; fi
	local want=$2 neg=
	[ "${want:0:1}" == "!" ] && { neg=1; want=${want:1}; }
	if last_ready | grep -qE -- "$want"; then [ -z "$neg" ]; else [ -n "$neg" ]; fi &&
		ok "$1" || not_ok "$1" "$(cat "$work/notify")"
}

# start: the daemon with no record source (an empty tracefs), its log in $work/log
start() {
	"$mcelogd" --config "$work/mcelogd.conf" --no-journal --tracefs "$work/tracefs" --control-socket "" \
		--state-directory "$work/state" --rules-directory "$work/rules" --log-level info \
		2>"$work/log" &
	pid=$!
	for _ in $(seq 100); do grep -q "rules in effect" "$work/log" 2>/dev/null && break; sleep 0.05; done
}
stop() { kill "$pid"; wait "$pid"; rc=$?; pid=; }
log_has() { # log_has DESCRIPTION TEXT...
	desc=$1; shift
	for t in "$@"; do
		grep -qF -- "$t" "$work/log" || { not_ok "$desc" "missing: $t" "$(cat "$work/log")"; return; }
	done
	ok "$desc"
}

echo "1..12"

# --- a damaged state file ---
printf 'mcelogd-rules-state 1\nbucket\tmemory-page-ce\tpage=0x1\t0\t1,2\n' >"$work/state/rules.state"
start
log_has "a truncated state file is reported and set aside" \
	"rules.state: no end line: the file is truncated; set aside as $work/state/rules.state.damaged, counting afresh"
check "the damaged file is kept for inspection" 2 "$(grep -c . "$work/state/rules.state.damaged")"
if kill -0 "$pid" 2>/dev/null; then ok "the daemon runs on"; else not_ok "the daemon runs on" "$(cat "$work/log")"; fi

# --- SIGHUP with a bad rule file: the running rules stay ---
printf '[Rule]\nName=broken\nAction=alert\nThreshold=5 in a while\n' >"$work/rules/60-broken.rules"
kill -HUP "$pid"
for _ in $(seq 100); do grep -q "Rules not reloaded" "$work/log" && break; sleep 0.05; done
log_has "a reload with a bad rule file names file and line and keeps the rules" \
	"60-broken.rules:4: Threshold=: 'a while' is not a time span" \
	"Rules not reloaded: keeping the $shipped running rules and their counts"
grep -q "RELOADING=1|MONOTONIC_USEC=[0-9]" "$work/notify" 2>/dev/null || [ -z "${NOTIFY_SOCKET:-}" ] &&
	ok "a reload starts with RELOADING=1 and its MONOTONIC_USEC=" || not_ok "RELOADING=1 with MONOTONIC_USEC=" "$(cat "$work/notify")"
notified "the READY=1 that ends a failed reload says it failed" "STATUS=Reload failed"
printf '[Rule]\nName=fixed\nAction=alert\nThreshold=5 in 1h\n' >"$work/rules/60-broken.rules"
kill -HUP "$pid"
for _ in $(seq 100); do grep -q "Rules reloaded" "$work/log" && break; sleep 0.05; done
log_has "once fixed, the reload takes it" "Rules reloaded: $((shipped + 1)) rules in effect"
for _ in $(seq 100); do [ "$(sed -n '/RELOADING=1/,$p' "$work/notify" 2>/dev/null | grep -c '^READY=1')" -ge 2 ] && break; sleep 0.05; done
notified "and its READY=1 no longer says failed" "!Reload failed"

# --- stop: the state is written, whole, atomically ---
stop
check "the daemon stops cleanly" 0 "$rc"
check "the state file starts with its header" "mcelogd-rules-state 1" "$(head -1 "$work/state/rules.state")"
check "and ends with its end line" end "$(tail -1 "$work/state/rules.state" | cut -f1)"
check "no temporary file is left" "" "$(ls "$work/state" | grep '\.tmp$')"
exit $((failed > 0))
