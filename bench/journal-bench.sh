#!/bin/sh
# mcectl query and summary on a 1M-entry journal of mcelogd-shaped entries
# spread over 30 days (bench/journal-gen.sh, imported with
# systemd-journal-remote), against journalctl on the same files in the same
# run.  From a build directory after `make`:
#   [BASELINE=OTHER-MCECTL] sh ../../bench/journal-bench.sh [DIR] [ENTRIES]
# DIR (default /var/tmp/mcelogd-journal-bench) is kept for the next run.
# Needs systemd-journal-remote and perf (package linux-perf, in
# tools/install-deps.sh); about 1 GB of disk.
set -eu
dir=${1:-/var/tmp/mcelogd-journal-bench}
n=${2:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
mcectl=${MCECTL:-./mcectl/mcectl}
# BASELINE=OTHER-MCECTL: that build measured too, in the same run (before/after).
baseline=${BASELINE:-}
command -v perf >/dev/null || { echo "journal-bench.sh: needs perf (package linux-perf)" >&2; exit 1; }
if [ ! -e "$dir/done-$n" ]; then
	rm -rf "$dir" && mkdir -p "$dir"
	echo "generating $n entries into $dir ..."
	sh "$here/journal-gen.sh" "$n" 30 | /lib/systemd/systemd-journal-remote -o "$dir/bench.journal" - 2>"$dir/import.log"
	touch "$dir/done-$n"
fi
# Mean wall-clock and CPU milliseconds of a command over R runs (output
# discarded), from perf stat, whose ± is its relative error of the mean: the
# 10 ms steps of /usr/bin/time cannot tell 20 ms from 30.  Prints
# "wall_ms wall_err% cpu_ms cpu_err%".
measure() {
	r=$1
	shift
	perf stat -o "$dir/stat" -r "$r" -x, -e duration_time -e task-clock -- "$@" >/dev/null 2>&1
	awk -F, '$3 == "duration_time" { w = $1 / 1e6; we = $4 }
		$3 == "task-clock" { c = $1; ce = $4 }
		END { printf "%.1f %s %.1f %s\n", w, we, c, ce }' "$dir/stat"
}
# The last hour of the journal (not of the clock: the journal is kept between runs).
last=$(journalctl --directory "$dir" -n 1 -o export | sed -n 's/^__REALTIME_TIMESTAMP=//p')
since=@$((last / 1000000 - 3600))
q_json=$(measure 30 "$mcectl" query --directory "$dir" --since "$since" --output json)
q_table=$(measure 30 "$mcectl" query --directory "$dir" --since "$since")
j_json=$(measure 30 journalctl --directory "$dir" --since "$since" -o json)
s_all=$(measure 5 "$mcectl" summary --directory "$dir")
j_all=$(measure 3 journalctl --directory "$dir" -o cat --output-fields=MCE_BANK)
row() {
	# label, measurement, the journalctl measurement it is compared with (or nothing)
	echo "$2 ${3:-}" | awk -v l="$1" '{
		printf "%-50s %9.1f %7s %9.1f %7s", l, $1, $2, $3, $4
		if (NF > 4) printf " %8.2f", $1 / $5
		printf "\n" }'
}
printf '%-50s %9s %7s %9s %7s %8s\n' "" "wall ms" "+-" "cpu ms" "+-" "x jctl"
row "mcectl query, last hour, --output json (30 runs)" "$q_json" "$j_json"
row "mcectl query, last hour, table (30 runs)" "$q_table" "$j_json"
row "journalctl, last hour, -o json (30 runs)" "$j_json"
row "mcectl summary, all $n entries, by bank (5 runs)" "$s_all" "$j_all"
row "journalctl -o cat --output-fields=MCE_BANK (3 runs)" "$j_all"
row "mcectl summary in one pass (MCECTL_SUMMARY_ONE_PASS=1)" \
	"$(measure 5 env MCECTL_SUMMARY_ONE_PASS=1 "$mcectl" summary --directory "$dir")" "$j_all"
# The files read directly (the default) against libsystemd's reader, and one thread.
row "mcectl summary through libsystemd (MCECTL_JOURNAL_READER)" \
	"$(measure 5 env MCECTL_JOURNAL_READER=libsystemd "$mcectl" summary --directory "$dir")" "$j_all"
# The floor under one pass: libsystemd walking the entries and reading the
# fields a summary by bank needs (the first 18 here), and the cost of matching
# on more fields instead (one bank's sixth of the entries).
if [ -x ./bench/journal-walk ]; then
	row "libsystemd: walk _COMM=mcelogd, no field read" "$(measure 3 ./bench/journal-walk "$dir" 0 _COMM=mcelogd)"
	row "libsystemd: walk _COMM=mcelogd, 18 fields read" "$(measure 3 ./bench/journal-walk "$dir" 18 _COMM=mcelogd)"
	row "libsystemd: walk MCE_BANK=7 (1/6), no field read" "$(measure 3 ./bench/journal-walk "$dir" 0 MCE_BANK=7)"
	row "libsystemd: walk MCE_BANK=7 AND _COMM _UID MESSAGE_ID" "$(measure 3 ./bench/journal-walk "$dir" 0 MCE_BANK=7 \
		_COMM=mcelogd _UID=0 MESSAGE_ID=d90772f9176e45e88ae80c46f01c0915)"
fi
if [ -n "$baseline" ]; then
	row "baseline query, last hour, --output json" "$(measure 30 "$baseline" query --directory "$dir" --since "$since" --output json)" "$j_json"
	row "baseline query, last hour, table" "$(measure 30 "$baseline" query --directory "$dir" --since "$since")" "$j_json"
	row "baseline summary, all $n entries, by bank" "$(measure 5 "$baseline" summary --directory "$dir")" "$j_all"
fi
