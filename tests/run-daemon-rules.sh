#!/bin/bash
# tools/run-daemon.sh (the README's first command) runs the daemon from the
# build tree, where no rules are installed: every daemon it starts must be
# given the shipped config/rules.d, or a newcomer reads "0 rules in effect".
# The script itself builds and may run the live daemon, so it is read, and the
# command line it uses is run against the sample.  TAP.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${top_builddir:-$srcdir}
script=$srcdir/tools/run-daemon.sh
echo "1..2"
runs=$(grep -c 'mcelogd/mcelogd ' "$script")
given=$(grep 'mcelogd/mcelogd ' "$script" | grep -c '"\${rules\[@\]}"')
if [ "$runs" -gt 0 ] && [ "$runs" == "$given" ]; then
	echo "ok 1 - each of the $runs daemons run-daemon.sh starts is given the shipped rules"
else
	echo "not ok 1 - each daemon run-daemon.sh starts is given the shipped rules ($given of $runs)"
	failed=1
fi
# What "${rules[@]}" holds there, applied to the sample it replays.
rules=$(sed -n 's/^rules=(\(.*\))$/\1/p' "$script")
dir=$(top=$srcdir eval "set -- $rules; echo \"\$2\"")
out=$("$builddir/mcelogd/mcelogd" --replay "$srcdir/tests/data/real-records.txt" --no-journal \
	--rules-directory "$dir" --log-level info 2>&1 >/dev/null)
if grep -q ": [1-9][0-9]* rules\? in effect" <<<"$out"; then
	echo "ok 2 - its replay has the shipped rules in effect ($(grep -o '[0-9]* rules\? in effect' <<<"$out"))"
else
	echo "not ok 2 - its replay has the shipped rules in effect"
	grep -i rule <<<"$out" | sed 's/^/#   /'
	failed=1
fi
exit ${failed:-0}
