#!/bin/bash
# What the LIVE daemon writes to its state directory in an error storm
# (issue 39 item 4, review of e24200c I7).  A replay writes its state once,
# at its end (bench/state-storm.sh); the live daemon also writes it while
# counts change, which only a live run shows.  Here each mcelogd given reads
# a paced storm from a stand-in /dev/mcelog (tests/integration/
# fake-dev-mcelog.so: 32 records per read, one read every few ms), with the
# shipped rules and a --state-directory, like VM scenario 46's storm:
# RECORDS corrected Intel memory errors over about SECONDS, PER_PAGE on each
# page (1: every record on a page of its own, as 46 injects them; 10: every
# page crosses memory-page-ce and is soft-offlined, into a stand-in
# --sysfs-memory).  For each build, while the storm runs (the stop's own
# write is reported apart):
#   state B/rec  bytes written to files in the state directory, per record
#                (strace -y: write, pwrite64, writev on fds under it);
#   fsyncs       fsync and fdatasync of files and of the directory;
#   full writes  renames into the state directory (whole-file rewrites);
#   wchar B/rec  /proc/PID/io wchar per record: every byte the process wrote
#                (stderr at --log-level err, nothing else: no journal, no
#                output file), as scenario 46 measures it;
#   stop B       state bytes written at SIGTERM.
# The figures are counts, not times: strace's slowdown does not change them.
#
#   bench/state-live.sh MCELOGD [MCELOGD...]
#   STATE_LIVE_RECORDS=20000 STATE_LIVE_SECONDS=100 STATE_LIVE_PER_PAGE=1 (defaults)
#   STATE_LIVE_TIMES=now (default): every record dated the second the storm
#   was made, as a storm's records share their seconds; spread: record i
#   dated RECORDS-i seconds earlier, each its own second, so that the rules'
#   least-recently-seen eviction keeps every new key for a while (with equal
#   times it evicts the newest keys first: rule-engine.c add_bucket)
#   STATE_LIVE_SHIM=path/to/fake-dev-mcelog.so (default: beside the first
#   build's mcelogd, BUILD/tests/integration/)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 MCELOGD [MCELOGD...]" >&2; exit 2; }
records=${STATE_LIVE_RECORDS:-20000} seconds=${STATE_LIVE_SECONDS:-100} per_page=${STATE_LIVE_PER_PAGE:-1}
shim=${STATE_LIVE_SHIM:-$(cd "$(dirname "$1")/.." && pwd)/tests/integration/fake-dev-mcelog.so}
for tool in strace python3; do
	command -v $tool >/dev/null || { echo "$0: needs $tool" >&2; exit 2; }
done
[ -f "$shim" ] || { echo "$0: no $shim (make -C BUILD tests/integration/fake-dev-mcelog.so)" >&2; exit 2; }
# The shim hands out 32 records a read: one read every batch_ms spreads them over the seconds asked.
batch_ms=$(( seconds * 1000 * 32 / records ))
[ "$batch_ms" -ge 1 ] || batch_ms=1
t=$(mktemp -d /tmp/state-live.XXXXXX)
pid=
daemon=
trap '[ -n "$daemon" ] && kill "$daemon" 2>/dev/null; [ -n "$pid" ] && wait "$pid"; rm -rf "$t"' EXIT
# The records: tests/integration/data's 88-byte record (status
# 0x9c00004000010090: corrected, address valid, memory controller read),
# each with its own TSC, the current time and an address PER_PAGE records a page.
python3 - "$top/tests/integration/data/dev-mcelog-88.bin" "$t/storm.bin" "$records" "$per_page" \
	"${STATE_LIVE_TIMES:-now}" <<'EOF'
import struct, sys, time
rec = open(sys.argv[1], 'rb').read()[:88]
n, per, spread = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == 'spread'
now = int(time.time())
with open(sys.argv[2], 'wb') as out:
    for i in range(n):
        r = bytearray(rec)
        struct.pack_into('<Q', r, 16, 0x40000000 + (i // per) * 4096 + 64)
        struct.pack_into('<QQ', r, 40, 1000 + i, now - (n - i if spread else 0))
        out.write(r)
EOF
printf '[Sources]\nTracepoint=no\nTraceBuffer=no\nDevMcelog=yes\nRAS=no\n' >"$t/mcelogd.conf"

# records_seen SOCKET: the records the daemon has taken (mcectl status), empty if it does not answer.
records_seen() {
	"$mcectl" status --socket "$1" --output json 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["records"])' 2>/dev/null
}
# state_figures TRACE DIR UNTIL: "bytes writes fsyncs renames" on files in DIR, syscalls before UNTIL (0: all).
state_figures() {
	awk -v dir="$2" -v until="$3" '
	function under(s) { return index(s, "<" dir "/") > 0 || index(s, "<" dir ">") > 0 }
	until > 0 && $2 + 0 > until + 0 { next }
	/ (write|pwrite64|writev)\(/ { if (under($0) && $NF ~ /^[0-9]+$/) { bytes += $NF; writes++ } }
	/ f(data)?sync\(/ { if (under($0)) syncs++ }
	/ rename(at2?)?\(/ { if (index($0, dir "/") && $NF == "0") renames++ }
	END { printf "%d %d %d %d\n", bytes, writes, syncs, renames }' "$1"
}

printf 'storm: %d records over about %d s, %d a page, times %s, shipped rules, live from a stand-in /dev/mcelog\n' \
	"$records" "$seconds" "$per_page" "${STATE_LIVE_TIMES:-now}"
printf '%-4s %9s %11s %7s %8s %6s %9s %10s %10s %s\n' build records "state B/rec" fsyncs "full wr" writes \
	"wchar/rec" "stop B" "state kB" mcelogd
k=0
for bin in "$@"; do
	k=$((k + 1))
	mcectl=$(cd "$(dirname "$bin")/.." && pwd)/mcectl/mcectl
	[ -x "$mcectl" ] || mcectl=$top/_build/mcectl/mcectl
	d=$t/$k
	mkdir -p "$d/state" "$d/sys" && : >"$d/sys/soft_offline_page" && : >"$d/sys/hard_offline_page"
	strace -f -qq -ttt -y -e trace=write,pwrite64,writev,fsync,fdatasync,rename,renameat,renameat2 -o "$d/trace" \
		env FAKE_DEV_MCELOG_PATH=/dev/mcelog FAKE_DEV_MCELOG_RECORDS="$t/storm.bin" FAKE_DEV_MCELOG_RECORD_LEN=88 \
		FAKE_DEV_MCELOG_BATCH_MS=$batch_ms LD_PRELOAD="$shim" \
		"$bin" -c "$t/mcelogd.conf" --no-journal --control-socket "$d/control" --state-directory "$d/state" \
		--rules-directory "$top/config/rules.d" --sysfs-memory "$d/sys" --bert "$d/no-bert" \
		--boot-id 11111111111111111111111111111111 --log-level err 2>"$d/log" &
	pid=$!
	daemon=
	for _ in $(seq 100); do
		daemon=$(cat "/proc/$pid/task/$pid/children" 2>/dev/null | awk '{ print $1 }')
		[ -n "$daemon" ] && [ -e "/proc/$daemon/io" ] && [ -n "$(records_seen "$d/control")" ] && break
		sleep 0.1
	done
	seen=0
	for _ in $(seq $(( (seconds * 3 + 60) * 5 ))); do
		seen=$(records_seen "$d/control")
		[ "${seen:-0}" -ge "$records" ] && break
		sleep 0.2
	done
	# The writes a change waits for (rules 1 s, the module ledger 5 s) are the storm's too.
	sleep 6
	wchar=$(sed -n 's/^wchar: //p' "/proc/$daemon/io")
	until=$(date +%s.%N)
	kill -TERM "$daemon"
	wait "$pid" || :
	pid=
	read -r bytes writes syncs renames < <(state_figures "$d/trace" "$d/state" "$until")
	read -r all_bytes _ _ _ < <(state_figures "$d/trace" "$d/state" 0)
	size=$(du -sk "$d/state" | cut -f1)
	printf '%-4s %9s %11s %7s %8s %6s %9s %10s %10s %s\n' "$k" "${seen:-0}" \
		"$(awk -v b="$bytes" -v n="${seen:-0}" 'BEGIN { printf "%.1f", n ? b / n : 0 }')" "$syncs" "$renames" \
		"$writes" "$(awk -v b="$wchar" -v n="${seen:-0}" 'BEGIN { printf "%.1f", n ? b / n : 0 }')" \
		$((all_bytes - bytes)) "$size" "$bin"
	if [ "${seen:-0}" -lt "$records" ]; then
		echo "  build $k took ${seen:-0} of $records records; its log:" && sed 's/^/  /' "$d/log"
	fi
	# Which files took the bytes (the storm's part).
	awk -v dir="$d/state" -v until="$until" '
	$2 + 0 > until + 0 { next }
	/ (write|pwrite64|writev)\(/ && $NF ~ /^[0-9]+$/ {
		if (match($0, "<" dir "/[^>]*>")) { f = substr($0, RSTART + length(dir) + 2, RLENGTH - length(dir) - 3); b[f] += $NF; w[f]++ } }
	END { for (f in b) printf "       %-28s %12d bytes in %d writes\n", f, b[f], w[f] }' "$d/trace" | sort
done
