#!/bin/sh
# Two mcectl builds over the bench journal (bench/journal-bench.sh builds it):
# every summary --by and --output, over the whole journal and its last hour,
# and query in every output (last hour, whole journal, --alerts, one filtered).
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
echo "$n invocations compared, $diffs differ"
[ "$diffs" = 0 ]
