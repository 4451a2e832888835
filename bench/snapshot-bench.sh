#!/bin/sh
# Cost of the counter flight recorder ([Snapshot] Counters=), same run:
#  1. two idle live daemons side by side for SECONDS (default 60), one with
#     Counters=no, one with the default events at Interval=1s, every record
#     source off so that the recorder is the only difference: CPU time
#     (/proc/PID/schedstat, ns) and wake-ups (voluntary + involuntary context
#     switches, /proc/PID/status), and the ratio;
#  2. bench/snapshot-annotate: the time a snapshot adds to one record.
#
#   bench/snapshot-bench.sh [SECONDS]      (from a build directory after `make`, as root)
#
# Targets (issue 10): under 0.1% of a CPU at a 1 s period; under 1 ms per record.
set -eu

secs=${1:-60}
builddir=${top_builddir:-$PWD}
mcelogd=$builddir/mcelogd/mcelogd
annotate=$builddir/bench/snapshot-annotate
tmp=$(mktemp -d)
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null || :; done; rm -rf "$tmp"' EXIT

for f in "$mcelogd" "$annotate"; do
	[ -x "$f" ] || { echo "snapshot-bench: $f missing: run make first" >&2; exit 1; }
done

start() { # start NAME COUNTERS
	mkdir -p "$tmp/$1"
	printf '[Sources]\nTracepoint=no\nTraceBuffer=no\nDevMcelog=no\nRAS=no\nMSRPoll=no\n[Snapshot]\nCounters=%s\n' \
		"$2" >"$tmp/$1/mcelogd.conf"
	"$mcelogd" -c "$tmp/$1/mcelogd.conf" --no-journal --control-socket '' \
		--state-directory "$tmp/$1" --bert "$tmp/none" --log-level warning >"$tmp/$1/out" 2>"$tmp/$1/err" &
	pids="$pids $!"
	echo $!
}
sample() { # sample PID: cpu-ns wakeups
	cpu=$(cut -d' ' -f1 "/proc/$1/schedstat")
	sw=$(awk '/^(non)?voluntary_ctxt_switches/ { s += $2 } END { print s }' "/proc/$1/status")
	echo "$cpu $sw"
}

off=$(start off no)
on=$(start on "")
sleep 2
set -- $(sample "$off") $(sample "$on")
off_cpu0=$1 off_sw0=$2 on_cpu0=$3 on_sw0=$4
sleep "$secs"
set -- $(sample "$off") $(sample "$on")
awk -v s="$secs" -v oc="$(($1 - off_cpu0))" -v ow="$(($2 - off_sw0))" \
	-v nc="$(($3 - on_cpu0))" -v nw="$(($4 - on_sw0))" -v cpus="$(nproc)" 'BEGIN {
	printf "idle daemon, %d s, %d CPUs online, Interval=1s:\n", s, cpus
	printf "  Counters=no:      %8.4f%% of a CPU (%d us), %6.2f wake-ups/s\n", oc / (s * 1e7), oc / 1000, ow / s
	printf "  Counters=default: %8.4f%% of a CPU (%d us), %6.2f wake-ups/s\n", nc / (s * 1e7), nc / 1000, nw / s
	printf "  recorder adds:    %8.4f%% of a CPU, %6.2f wake-ups/s", (nc - oc) / (s * 1e7), (nw - ow) / s
	if (oc > 0)
		printf " (on/off CPU ratio %.1f)\n", nc / oc
	else
		printf " (off: no CPU time measurable, so no ratio)\n"
}'
"$annotate" 20000 2>/dev/null | sed -n '1,4p'
