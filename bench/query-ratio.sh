#!/bin/bash
# mcectl query --since 1h against journalctl over the same journal and the
# same hour, as bench/journal-bench.sh compares them, without perf: CPU time
# (user+sys of the children, from bash's times) per run, each sample a loop of
# RUNS runs, the samples of every command interleaved, best of SAMPLES.
# From a build directory after make:
#   [BASELINE=OTHER-MCECTL] [RUNS=10] [SAMPLES=3] bash ../../bench/query-ratio.sh [DIR]
# DIR: a journal made by bench/journal-bench.sh (default /var/tmp/mcelogd-journal-bench).
set -euo pipefail
dir=${1:-/var/tmp/mcelogd-journal-bench}
runs=${RUNS:-10}
samples=${SAMPLES:-3}
mcectl=${MCECTL:-./mcectl/mcectl}
baseline=${BASELINE:-}
[ -d "$dir" ] || { echo "query-ratio.sh: no journal in $dir (bench/journal-bench.sh makes one)" >&2; exit 1; }
# The journal's last hour, not the clock's.
last=$(journalctl --directory "$dir" -n 1 -o export | sed -n 's/^__REALTIME_TIMESTAMP=//p')
since=@$((last / 1000000 - 3600))
names=("journalctl -o json" "mcectl query (table)" "mcectl query -o json")
cmds=("journalctl --directory $dir --since $since -o json"
	"$mcectl query --directory $dir --since $since"
	"$mcectl query --directory $dir --since $since -o json")
if [ -n "$baseline" ]; then
	names+=("baseline query (table)" "baseline query -o json")
	cmds+=("$baseline query --directory $dir --since $since" "$baseline query --directory $dir --since $since -o json")
fi
declare -a best
# one I: the CPU seconds of one run of command I, over a loop of runs
one() {
	local t
	TIMEFORMAT='%3U %3S'
	# shellcheck disable=SC2086
	t=$( { time (for ((k = 0; k < runs; k++)); do ${cmds[$1]} >/dev/null 2>&1; done); } 2>&1)
	awk -v r="$runs" '{ printf "%.4f", ($1 + $2) / r }' <<<"$t"
}
for ((s = 0; s < samples; s++)); do
	for i in "${!cmds[@]}"; do
		t=$(one "$i")
		best[i]=$(awk -v a="${best[i]:-}" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
	done
done
echo "since $since, $dir; CPU ms per run, best of $samples samples of $runs runs"
for i in "${!cmds[@]}"; do
	awk -v l="${names[i]}" -v t="${best[i]}" -v j="${best[0]}" \
		'BEGIN { printf "%-26s %8.1f ms  %5.2fx journalctl\n", l, t * 1000, t / j }'
done
