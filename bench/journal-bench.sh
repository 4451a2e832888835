#!/bin/sh
# mcectl query and summary on a 1M-entry journal of mcelogd-shaped entries
# spread over 30 days (bench/journal-gen.sh, imported with
# systemd-journal-remote), against journalctl on the same files in the same
# run.  From a build directory after `make`:
#   sh ../../bench/journal-bench.sh [DIR] [ENTRIES]
# DIR (default /var/tmp/mcelogd-journal-bench) is kept for the next run.
# Needs systemd-journal-remote; about 1 GB of disk.
set -eu
dir=${1:-/var/tmp/mcelogd-journal-bench}
n=${2:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
mcectl=${MCECTL:-./mcectl/mcectl}
if [ ! -e "$dir/done-$n" ]; then
	rm -rf "$dir" && mkdir -p "$dir"
	echo "generating $n entries into $dir ..."
	sh "$here/journal-gen.sh" "$n" 30 | /lib/systemd/systemd-journal-remote -o "$dir/bench.journal" - 2>"$dir/import.log"
	touch "$dir/done-$n"
fi
# best of 3 wall-clock seconds of a command (output discarded)
best() {
	b=
	for _ in 1 2 3; do
		/usr/bin/time -f %e -o "$dir/time" "$@" >/dev/null 2>&1
		t=$(tail -n 1 "$dir/time")
		if [ -z "$b" ]; then b=$t; else b=$(echo "$b $t" | awk '{ print ($2 < $1) ? $2 : $1 }'); fi
	done
	echo "$b"
}
# The last hour of the journal (not of the clock: the journal is kept between runs).
last=$(journalctl --directory "$dir" -n 1 -o export | sed -n 's/^__REALTIME_TIMESTAMP=//p')
since=@$((last / 1000000 - 3600))
q_json=$(best "$mcectl" query --directory "$dir" --since "$since" --output json)
q_table=$(best "$mcectl" query --directory "$dir" --since "$since")
j_json=$(best journalctl --directory "$dir" --since "$since" -o json)
s_all=$(best "$mcectl" summary --directory "$dir")
j_all=$(best journalctl --directory "$dir" -o cat --output-fields=MCE_BANK)
printf '%-52s %8s %8s\n' "" seconds "x journalctl"
printf '%-52s %8s %8.2f\n' "mcectl query, last hour, --output json" "$q_json" "$(echo "$q_json $j_json" | awk '{ print $1 / $2 }')"
printf '%-52s %8s %8.2f\n' "mcectl query, last hour (table)" "$q_table" "$(echo "$q_table $j_json" | awk '{ print $1 / $2 }')"
printf '%-52s %8s\n' "journalctl, last hour, -o json" "$j_json"
printf '%-52s %8s %8.2f\n' "mcectl summary (all $n entries, by bank)" "$s_all" "$(echo "$s_all $j_all" | awk '{ print $1 / $2 }')"
printf '%-52s %8s\n' "journalctl -o cat --output-fields=MCE_BANK (all)" "$j_all"
