#!/bin/sh
# Two mcectl builds over the bench journal (bench/journal-bench.sh builds it):
# every summary --by and --output, over the whole journal and its last hour,
# and query in every output (last hour, whole journal, --alerts, one filtered);
# summaries over windows across the journal, --host and --include-replayed.
# A change made for speed must not change a byte.  From a build directory:
#   sh ../../bench/journal-compare.sh OLD-MCECTL [DIR]
# Windowed summaries pin --until: their rate is otherwise over --since to now.
set -eu
old=$1
dir=${2:-/var/tmp/mcelogd-journal-bench}
new=${MCECTL:-./mcectl/mcectl}
last=$(journalctl --directory "$dir" -n 1 -o export | sed -n 's/^__REALTIME_TIMESTAMP=//p')
since=@$((last / 1000000 - 3600)) until=@$((last / 1000000))
n=0 diffs=0
same() {
	a=$("$old" "$@" 2>&1 | md5sum) b=$("$new" "$@" 2>&1 | md5sum)
	n=$((n + 1))
	if [ "$a" != "$b" ]; then diffs=$((diffs + 1)); echo "differs: mcectl $*"; fi
}
for by in dimm channel bank cpu socket page error host; do
	for o in table json csv; do
		same summary -D "$dir" --by "$by" -o "$o"
		same summary -D "$dir" --by "$by" -o "$o" --since "$since" --until "$until"
	done
done
for o in table json csv; do
	same query -D "$dir" --since "$since" -o "$o"
	same query -D "$dir" -o "$o"
	same query -D "$dir" --alerts -o "$o"
done
same query -D "$dir" --since "$since" --bank 7
same summary -D "$dir" --severity uncorrected
# Windows over the first days, across the middle (where a summary's two
# threads meet) and nearly all: a summary reading the files itself splits
# them between its threads and must stop, merge and drop as one pass would.
first=$(journalctl --directory "$dir" -o export | awk -F= '/^__REALTIME_TIMESTAMP=/ { print $2; exit }')
day=86400 t0=$((first / 1000000))
for w in "1 10" "10 20" "0 29"; do
	set -- $w
	same summary -D "$dir" --since @$((t0 + $1 * day)) --until @$((t0 + $2 * day))
	same summary -D "$dir" --by cpu -o json --since @$((t0 + $1 * day)) --until @$((t0 + $2 * day))
done
same summary -D "$dir" --host bench -o csv
same summary -D "$dir" --include-replayed
echo "$n invocations compared, $diffs differ"
[ "$diffs" = 0 ]
