#!/bin/bash
# Integration test: a fleet's records on a collector (issue 12, item 4), with
# systemd's own transport.  This "host" (a private UTS namespace named
# node-a, with its own journald) logs records; systemd-journal-upload sends
# its journal over HTTP to systemd-journal-remote on 127.0.0.1, which writes
# a journal file per sender; mcectl query and summary read them with
# --directory, --file and --host, and each record shows its host: the sender
# journal-remote named the file after, never what the entries claim.  A second
# sender (127.0.0.2) forges mcelogd's entries under node-a's name.
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

echo "1..13"

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
files=$(ls "$work/remote/")
# Named after the sender's address (an upload over HTTP), not after any field it sent.
check "systemd-journal-remote wrote the sender's journal file" "remote-127.0.0.1.journal" "$files"

# Another host forges one of mcelogd's records: _COMM, _UID and _HOSTNAME are
# whatever its stream says, and journal-remote keeps them.
journalctl -o export MESSAGE_ID=d90772f9176e45e88ae80c46f01c0915 -n 1 |
	sed -e 's/^_HOSTNAME=.*/_HOSTNAME=node-a/' -e 's/^__CURSOR=.*//' >"$work/forged.export"
curl -s --interface 127.0.0.2 -H "Content-Type: application/vnd.fdo.journal" --data-binary @"$work/forged.export" \
	"http://127.0.0.1:$port/upload" >"$work/forge.log" 2>&1
stop_started
check "the forger's entry landed in its own file" "remote-127.0.0.1.journal remote-127.0.0.2.journal" \
	"$(ls "$work/remote/" | paste -sd' ')"
check "it claims to be mcelogd's on node-a" "mcelogd 0 node-a" \
	"$(journalctl --file "$work/remote/remote-127.0.0.2.journal" -o json | jq -r '"\(._COMM) \(._UID) \(._HOSTNAME)"')"

q() { "$mcectl" query --include-replayed "$@" 2>"$work/err"; }
# Over HTTP the sender is its address; '!' marks the name its entries claim.
check "mcectl query --directory: each record's host is its file's sender" "127.0.0.1!node-a:4 127.0.0.2!node-a:1" \
	"$(q --directory "$work/remote" | awk 'NR > 1 { print $2 }' | sort | uniq -c | awk '{ print $2 ":" $1 }' | paste -sd' ')"
check "the table names the host" "HOST" "$(q --directory "$work/remote" | awk 'NR == 1 { print $2 }')"
check "--file reads one sender's file" 4 "$(q --file "$work/remote/remote-127.0.0.1.journal" --output json | wc -l)"
check "--host picks a sender: 127.0.0.1's records" 4 "$(q --directory "$work/remote" --host 127.0.0.1 --output json | wc -l)"
check "--host node-a: a claimed name matches nothing" 0 "$(q --directory "$work/remote" --host node-a --output json | wc -l)"
check "--host 127.0.0.2: the forger's one entry, under its own name" "1 127.0.0.2!node-a" \
	"$(q --directory "$work/remote" --host 127.0.0.2 --output json | wc -l) $(q --directory "$work/remote" --host 127.0.0.2 | awk 'NR > 1 { print $2 }')"
for reader in libsystemd debug; do
	check "mcectl summary --by host counts by sender ($reader reader)" "127.0.0.1:4 127.0.0.2:1" \
		"$(MCECTL_JOURNAL_READER=$reader "$mcectl" summary --include-replayed --directory "$work/remote" --by host --output json |
			jq -r '"\(.key):\(.records)"' | sort | paste -sd' ')"
done
check "follow on a collector's directory asks for one sender" 2 \
	"$(timeout 10 "$mcectl" follow --directory "$work/remote" >/dev/null 2>&1; echo $?)"

exit $((failed > 0))
