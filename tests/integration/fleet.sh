#!/bin/bash
# Integration test: a fleet's records on a collector (issue 12, item 4), with
# systemd's own transport.  This "host" (a private UTS namespace named
# node-a, with its own journald) logs records; systemd-journal-upload sends
# its journal over HTTP to systemd-journal-remote on 127.0.0.1, which writes
# a journal file per sender; mcectl query and summary read them with
# --directory, --file and --host, and each record shows its host.
# Needs root (unshare, mounts), journald and systemd-journal-remote; prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
remote=/lib/systemd/systemd-journal-remote
upload=/lib/systemd/systemd-journal-upload
need_tools "$remote" "$upload" curl
MCELOGD_NS_UTS=1 enter_journal_namespace "$0" "$@"

use_workdir

# Our own UTS namespace: this name is the journal's _HOSTNAME and the records' hostname.
hostname node-a
start_private_journald "$work"

echo "1..9"

"$mcelogd" --replay "$data/replay-mixed.txt" >/dev/null 2>&1
journalctl --sync 2>/dev/null || sleep 1

# The collector, and the upload of this host's journal to it.
port=$((20000 + RANDOM % 30000))
mkdir -p "$work/remote"
"$remote" --listen-http="127.0.0.1:$port" --output="$work/remote/" --split-mode=host >"$work/remote.log" 2>&1 &
started $!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
"$upload" --url="http://127.0.0.1:$port" --save-state="$work/upload.state" --follow=no >"$work/upload.log" 2>&1
check "systemd-journal-upload sent this host's journal" 0 "$?"
stop_started
files=$(ls "$work/remote/")
# Named after the sender's address (an upload over HTTP); the host is in each entry's _HOSTNAME.
check "systemd-journal-remote wrote the sender's journal file" "remote-127.0.0.1.journal" "$files"

q() { "$mcectl" query --include-replayed "$@" 2>"$work/err"; }
check "mcectl query --directory: the 4 records, each from node-a" "4 node-a" \
	"$(q --directory "$work/remote" --output json | wc -l) $(q --directory "$work/remote" | awk 'NR > 1 { print $2 }' | sort -u | paste -sd' ')"
check "the table names the host" "HOST" "$(q --directory "$work/remote" | awk 'NR == 1 { print $2 }')"
check "--file reads one sender's file" 4 "$(q --file "$work/remote/remote-127.0.0.1.journal" --output json | wc -l)"
check "--host node-a: its records" 4 "$(q --directory "$work/remote" --host node-a --output json | wc -l)"
check "--host node-b: none" 0 "$(q --directory "$work/remote" --host node-b --output json | wc -l)"
check "mcectl summary --by host on the collector" "node-a:4" \
	"$("$mcectl" summary --include-replayed --directory "$work/remote" --by host --output json | jq -r '"\(.key):\(.records)"')"
check "the trust checks hold on collected journals: the records are mcelogd's (_COMM, _UID)" "mcelogd 0" \
	"$(journalctl --directory "$work/remote" -o json MESSAGE_ID=d90772f9176e45e88ae80c46f01c0915 | jq -r '"\(._COMM) \(._UID)"' | sort -u)"

exit $((failed > 0))
