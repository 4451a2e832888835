#!/bin/sh
# mcectl query --since 1h over a journal in which a local user's process
# named mcelogd wrote FORGED entries marked late (and ahead), spread over the
# last FORGED_HOURS (default 24) hours, each with an error time in that hour (issue 39 #5, review I9):
# CPU time (task-clock, best of 3) and peak memory, beside BASELINE's in the
# same run.  ENTRIES of mcelogd's own over 30 days make the rest of the
# journal (bench/journal-gen.sh, imported with systemd-journal-remote, the
# forged ones into a file of their own).  From a build directory after `make`:
#   [BASELINE=OTHER-MCECTL] sh ../../bench/late-forged-bench.sh [DIR] [FORGED] [ENTRIES]
# DIR (default /var/tmp/mcelogd-late-bench) is kept for the next run.  FORGED
# defaults to 10000, ENTRIES to 100000.  Needs systemd-journal-remote, perf
# (linux-perf) and /usr/bin/time.
set -eu
dir=${1:-/var/tmp/mcelogd-late-bench}
forged=${2:-10000}
n=${3:-100000}
hours=${FORGED_HOURS:-24}
here=$(cd "$(dirname "$0")" && pwd)
mcectl=${MCECTL:-./mcectl/mcectl}
baseline=${BASELINE:-}
command -v perf >/dev/null || { echo "late-forged-bench.sh: needs perf (package linux-perf)" >&2; exit 1; }
if [ ! -e "$dir/done-$n-$forged-$hours" ]; then
	rm -rf "$dir" && mkdir -p "$dir"
	echo "generating $n entries and $forged forged ones into $dir ..."
	sh "$here/journal-gen.sh" "$n" 30 | /lib/systemd/systemd-journal-remote -o "$dir/bench.journal" - 2>"$dir/import.log"
	FORGED=1 SPAN_SECONDS=$((hours * 3600)) sh "$here/journal-gen.sh" "$forged" 1 |
		/lib/systemd/systemd-journal-remote -o "$dir/forged.journal" - 2>>"$dir/import.log"
	touch "$dir/done-$n-$forged-$hours"
fi
# The last hour of the journal (not of the clock: the journal is kept between runs).
last=$(journalctl --directory "$dir" -n 1 -o export | sed -n 's/^__REALTIME_TIMESTAMP=//p')
since=@$((last / 1000000 - 3600))
# cpu PROGRAM: the least task-clock milliseconds of 3 runs of the query, and its peak RSS in kB.
cpu() {
	best=
	for _ in 1 2 3; do
		perf stat -o "$dir/stat" -x, -e task-clock -- "$1" query --directory "$dir" --since "$since" -o json \
			>/dev/null 2>&1
		ms=$(awk -F, '$3 == "task-clock" { printf "%.1f", $1 }' "$dir/stat")
		best=$(awk -v a="$best" -v b="$ms" 'BEGIN { print (a == "" || b < a) ? b : a }')
	done
	rss=$(/usr/bin/time -f %M "$1" query --directory "$dir" --since "$since" -o json 2>&1 >/dev/null | tail -n 1)
	rows=$("$1" query --directory "$dir" --since "$since" -o json 2>/dev/null | wc -l)
	echo "$best ms CPU, $rss kB peak, $rows records"
}
echo "query --since 1h, $n entries of mcelogd's over 30 days, $forged forged late ones in the last $hours h:"
echo "  this build: $(cpu "$mcectl")"
[ -z "$baseline" ] || echo "  baseline:   $(cpu "$baseline")"
