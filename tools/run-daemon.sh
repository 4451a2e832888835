#!/bin/bash
# The README's first command: install what is needed, build, and run mcelogd
# in the foreground.  On a kernel with machine-check support it watches the
# live kernel; otherwise it replays a bundled sample of real records, so a
# newcomer sees real output either way.
#
# MCELOGD_RUN_DAEMON=replay replays the sample even on a kernel that reports
# machine checks (CI sets it: the live daemon runs until it is stopped).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/_build/run

"$top/tools/install-deps.sh"
(cd "$top" && ./autogen.sh >/dev/null 2>&1)
mkdir -p "$build"
cd "$build"
[ -f Makefile ] || "$top/configure" --enable-werror >/dev/null
make -j"$(nproc)" >/dev/null

# The build tree's daemon looks for rules where an installed one would
# (/etc/mcelogd/rules.d, ...), where nothing is yet: give it the shipped ones.
rules=(--rules-directory "$top/config/rules.d")

journal=()
if [ ! -S /run/systemd/journal/socket ]; then
	echo "(no journald on this machine: records go to standard output only)"
	journal=(--no-journal)
fi

tracefs=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -e "$d/events/mce/mce_record" ] && tracefs=$d && break
done
if [ -z "$tracefs" ] && [ -d /sys/kernel/tracing ] && ! mountpoint -q /sys/kernel/tracing; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
	[ -e /sys/kernel/tracing/events/mce/mce_record ] && tracefs=/sys/kernel/tracing
fi

if [ -n "$tracefs" ] && [ "${MCELOGD_RUN_DAEMON:-}" != replay ]; then
	echo "This kernel reports machine checks: mcelogd is watching it (Ctrl-C stops it)."
	echo "Each record is printed below as JSON and logged to the journal; see them with"
	echo "  $build/mcectl/mcectl query --since 1h"
	exec ./mcelogd/mcelogd --foreground --output json "${rules[@]}" "${journal[@]}"
fi

sample=$top/tests/data/real-records.txt
if [ -n "$tracefs" ]; then
	echo "This kernel reports machine checks, but MCELOGD_RUN_DAEMON=replay: not watching it."
else
	echo "This kernel has no machine-check support (no mce:mce_record tracepoint)."
fi
echo "Replaying the bundled sample of real records: $sample"
echo
./mcelogd/mcelogd --replay "$sample" --output json "${rules[@]}" "${journal[@]}"
echo
echo "The same records, decoded for a person (mcectl decode):"
echo
./mcectl/mcectl decode "$sample"
if [ ${#journal[@]} = 0 ]; then
	echo
	echo "And as the journal holds them (replayed entries are marked, so query shows"
	echo "them only when asked: mcectl query --since 1h --include-replayed):"
	./mcectl/mcectl query --since 1h --include-replayed
fi
