#!/bin/bash
# Integration test: mcectl follow against a real journald (issue 12, item 2).
# Records logged while it runs reach its output as they come, with query's
# filters and outputs; SIGINT and a closed pipe end it cleanly (exit 0).
# Needs root (unshare, mounts) and systemd-journald; prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
enter_journal_namespace "$0" "$@"

use_workdir

start_private_journald "$work"

echo "1..12"

# wait_lines FILE N: until FILE has N lines (10 s); prints how many it has.
wait_lines() {
	for _ in $(seq 200); do [ "$(wc -l <"$1")" -ge "$2" ] && break; sleep 0.05; done
	wc -l <"$1" | tr -d ' '
}

# Records already there before follow starts are not shown without --since.
"$mcelogd" --replay "$data/replay-mixed.txt" >/dev/null 2>&1
journalctl --sync 2>/dev/null || sleep 1

"$mcectl" follow --include-replayed --output json >"$work/json" 2>"$work/err" &
follower=$!
started $follower
sleep 0.5
check "nothing from before the start is shown" 0 "$(wc -l <"$work/json" | tr -d ' ')"
"$mcelogd" --replay "$data/replay-mixed.txt" >/dev/null 2>&1
check "the 4 records logged while following are shown as they come" 4 "$(wait_lines "$work/json" 4)"
check "each is a record object (cpu, bank, status)" "3 1 0x9c00004000010090" \
	"$(jq -r 'select(.cpu == 3) | "\(.cpu) \(.bank) \(.status)"' "$work/json" | head -n 1)"
kill -INT "$follower"
wait "$follower"
check "SIGINT ends it with exit status 0" 0 "$?"
pids=
check "and nothing on standard error" "" "$(cat "$work/err")"

# Filters as in query: --cpu 3 shows only CPU 3's record.
"$mcectl" follow --include-replayed --cpu 3 --output json >"$work/cpu3" 2>&1 &
follower=$!
started $follower
sleep 0.5
"$mcelogd" --replay "$data/replay-mixed.txt" >/dev/null 2>&1
wait_lines "$work/cpu3" 1 >/dev/null
sleep 0.5
check "--cpu 3: only CPU 3's record" "3" "$(jq -r .cpu "$work/cpu3" | paste -sd' ')"
kill -TERM "$follower"
wait "$follower"
check "SIGTERM ends it with exit status 0" 0 "$?"
pids=

# --since: first what is there, then the new ones; the table has its header.
"$mcectl" follow --include-replayed --since @1 >"$work/table" 2>&1 &
follower=$!
started $follower
check "--since @1: the 12 records already logged, in the table" 13 "$(wait_lines "$work/table" 13)"
kill -INT "$follower"
wait "$follower"
pids=
check "the table starts with its header" 1 "$(head -n 1 "$work/table" | grep -c 'TIME')"

# A reader that goes away (head -n 1): follow ends at its next write, with status 0.
( "$mcectl" follow --include-replayed --since @1 --output json; echo "rc=$?" >"$work/rc" ) | head -n 1 >"$work/head" &
check "the reader got its line" 1 "$(wait_lines "$work/head" 1)"
"$mcelogd" --replay "$data/replay-mixed.txt" >/dev/null 2>&1
for _ in $(seq 100); do [ -s "$work/rc" ] && break; sleep 0.05; done
check "a closed pipe ends it with exit status 0" "rc=0" "$(cat "$work/rc" 2>/dev/null)"

"$mcectl" follow --until 1h >/dev/null 2>"$work/err"
check "--until is refused (exit 2), with a reason" "2 1" "$? $(grep -c 'until cannot be used' "$work/err")"

exit $((failed > 0))
