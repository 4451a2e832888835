#!/bin/bash
# Integration test: mcectl query and summary by the error's time, not the
# journal's arrival time (mcectl(1), TIMES).  The daemon runs live on records
# from the fake-dev-mcelog.so shim (see dev-mcelog.sh): one stamped now, then
# one stamped three hours ago (as the kernel's buffer, the trace instance
# after a stop, or the spool hand them over late).  Both arrive now, the old
# one last.  It must be found by a --since before its time and not after,
# by an --until just after its time although it arrived hours later, come
# first in the listing, and count in the right window of a summary through
# both readers (libsystemd, and the journal files read directly).
# Needs root; prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
use_dev_mcelog_shim
need_tools python3
enter_journal_namespace "$0" "$@"
use_workdir
start_private_journald "$work"

echo "1..14"

now=$(date +%s)
old=$((now - 3 * 3600))
{ dev_mcelog_record 1 "$now"; dev_mcelog_record 2 "$old"; } >"$work/records.bin"
printf '[Sources]\nTracepoint=no\nTraceBuffer=no\nDevMcelog=yes\nRAS=no\n[Storm]\nEnable=no\n' >"$work/mcelogd.conf"
mkdir "$work/state" "$work/empty"

FAKE_DEV_MCELOG_PATH=/dev/mcelog FAKE_DEV_MCELOG_RECORDS=$work/records.bin FAKE_DEV_MCELOG_RECORD_LEN=88 \
ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=$shim \
	"$mcelogd" -c "$work/mcelogd.conf" --control-socket "$work/control" --state-directory "$work/state" \
	--rules-directory "$work/empty" --bert "$work/no-bert" 2>"$work/daemon.err" &
pid=$!
started $pid
for _ in $(seq 100); do
	journalctl --sync 2>/dev/null
	[ "$(journalctl -o json _COMM=mcelogd MCE_SOURCE=dev_mcelog 2>/dev/null | wc -l)" -ge 2 ] && break
	sleep 0.1
done
stop_started

j() { journalctl -o json _COMM=mcelogd MCE_SOURCE=dev_mcelog "$@" | jq -r "$jq"; }
jq='.MCE_TSC + " " + (.MCE_TIME // "-") + " " + (.MCE_LATE // "-")'
check "each record carries its error time; the one three hours old is marked late" \
	"0x0000000000000001 ${now}000000 -
0x0000000000000002 ${old}000000 1" "$(j)"
jq=.__REALTIME_TIMESTAMP
arrived=$(j | tail -n 1)
if [ "$arrived" -gt "${now}000000" ]; then
	ok "the old record arrived now, after the new one"
else
	not_ok "the old record arrived now, after the new one" "arrival $arrived"
fi

iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%S; }
# q ARGS: the TSCs of the records query shows, in its order.
q() { "$mcectl" query -o json "$@" 2>/dev/null | jq -r .tsc | sed "s/^0x0*/0x/"; }
check "query lists by error time: the old record first" "$(printf '0x2\n0x1')" "$(q)"
check "--since before the old record's time finds it" "$(printf '0x2\n0x1')" "$(q --since "@$((old - 60))")"
check "--since after its time does not, although it arrived after" "0x1" "$(q --since "@$((old + 60))")"
check "--until after its time finds it, although it arrived hours after" "0x2" "$(q --until "@$((old + 60))")"
check "--since and --until around it: it alone" "0x2" "$(q --since "@$((old - 60))" --until "@$((old + 60))")"
rows=$("$mcectl" query -o csv --since "@$((old - 60))" --until "@$((old + 60))" | tail -n +2 | cut -d, -f1)
case $rows in
"$(iso "$old")"*) ok "the table shows the error's time" ;;
*) not_ok "the table shows the error's time" "expected $(iso "$old")..." "actual $rows" ;;
esac

# s READER ARGS: records counted and first seen, from the summary's JSON.
s() {
	local reader=$1
	shift
	MCECTL_JOURNAL_READER=$reader "$mcectl" summary -o json --by cpu "$@" 2>/dev/null |
		jq -rs '[.[].records] | add // 0'
}
journal=/run/log/journal/$(cat /etc/machine-id)
for reader in libsystemd direct; do
	dir=()
	[ "$reader" = direct ] && dir=(--directory "$journal")
	check "summary ($reader): the old record counts in its hour" 1 \
		"$(s "$reader" "${dir[@]}" --since "@$((old - 60))" --until "@$((old + 60))")"
	check "summary ($reader): not in the hour it arrived" 1 "$(s "$reader" "${dir[@]}" --since "@$((now - 60))")"
	first=$(MCECTL_JOURNAL_READER=$reader "$mcectl" summary -o json --by cpu "${dir[@]}" 2>/dev/null | jq -r '.first' | sort | head -n 1)
	case $first in
	"$(iso "$old")"*) ok "summary ($reader): first seen is the old record's error time" ;;
	*) not_ok "summary ($reader): first seen is the old record's error time" "expected $(iso "$old")" "actual $first" ;;
	esac
done
exit $((failed > 0))
