#!/bin/bash
# Integration test: mcectl query and summary by the error's time, not the
# journal's arrival time (mcectl(1), TIMES).  The daemon runs live on records
# from the fake-dev-mcelog.so shim (see dev-mcelog.sh): one stamped now, then
# one stamped three hours ago (as the kernel's buffer, the trace instance
# after a stop, or the spool hand them over late).  Both arrive now, the old
# one last.  It must be found by a --since before its time and not after,
# by an --until just after its time although it arrived hours later, come
# first in the listing, and count in the right window of a summary through
# both readers (libsystemd, and the journal files read directly).  A third
# is stamped three hours ahead (a wrong clock): found by a --since hours after
# it arrived.  Then an entry forged by a user's process named mcelogd, marked
# late like mcelogd's: neither shown nor counted, nor even read as a late one
# (issue 39 #5).  Needs root; prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
use_dev_mcelog_shim
need_tools setpriv
enter_journal_namespace "$0" "$@"
use_workdir
start_private_journald "$work"

echo "1..26"

now=$(date +%s)
old=$((now - 3 * 3600))
ahead=$((now + 3 * 3600))
{ dev_mcelog_record 1 "$now"; dev_mcelog_record 2 "$old"; dev_mcelog_record 3 "$ahead"; } >"$work/records.bin"
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
	[ "$(journalctl -o json _COMM=mcelogd MCE_SOURCE=dev_mcelog 2>/dev/null | wc -l)" -ge 3 ] && break
	sleep 0.1
done
stop_started

j() { journalctl -o json _COMM=mcelogd MCE_SOURCE=dev_mcelog "$@" | jq -r "$jq"; }
jq='.MCE_TSC + " " + (.MCE_TIME // "-") + " " + (.MCE_LATE // "-") + " " + (.MCE_AHEAD // "-")'
check "each record carries its error time; the one three hours old is marked late, the one ahead ahead too" \
	"0x0000000000000001 ${now}000000 - -
0x0000000000000002 ${old}000000 1 -
0x0000000000000003 ${ahead}000000 1 1" "$(j)"
jq=.__REALTIME_TIMESTAMP
arrived=$(j | sed -n 2p)
if [ "$arrived" -gt "${now}000000" ]; then
	ok "the old record arrived now, after the new one"
else
	not_ok "the old record arrived now, after the new one" "arrival $arrived"
fi

iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%S; }
# q ARGS: the TSCs of the records query shows, in its order.
q() { "$mcectl" query -o json "$@" 2>/dev/null | jq -r .tsc | sed "s/^0x0*/0x/"; }
check "query lists by error time: the old record first" "$(printf '0x2\n0x1\n0x3')" "$(q)"
check "--since before the old record's time finds it" "$(printf '0x2\n0x1\n0x3')" "$(q --since "@$((old - 60))")"
check "--since after its time does not, although it arrived after" "$(printf '0x1\n0x3')" "$(q --since "@$((old + 60))")"
check "--since hours after the record ahead arrived, before its time, finds it" "0x3" "$(q --since "@$((ahead - 60))")"
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
	check "summary ($reader): not in the hour it arrived" 1 \
		"$(s "$reader" "${dir[@]}" --since "@$((now - 60))" --until "@$((now + 60))")"
	check "summary ($reader): the record ahead in its hour, hours after it arrived" 1 \
		"$(s "$reader" "${dir[@]}" --since "@$((ahead - 60))")"
	first=$(MCECTL_JOURNAL_READER=$reader "$mcectl" summary -o json --by cpu "${dir[@]}" 2>/dev/null | jq -r '.first' | sort | head -n 1)
	case $first in
	"$(iso "$old")"*) ok "summary ($reader): first seen is the old record's error time" ;;
	*) not_ok "summary ($reader): first seen is the old record's error time" "expected $(iso "$old")" "actual $first" ;;
	esac
done

# --- a forged late entry (issue 39 #5) ---
# The genuine record stamped now, as a user's process named mcelogd sends it:
# all of mcelogd's fields, its TSC 0x666, marked late and ahead.
journalctl -o json -n 1 _COMM=mcelogd MCE_TSC=0x0000000000000001 |
	jq -r 'with_entries(select(.key | startswith("_") | not)) |
		.MCE_TSC = "0x0000000000000666" | .MCE_JSON |= sub("0x0+1\""; "0x0000000000000666\"") |
		.MCE_LATE = "1" | .MCE_AHEAD = "1" | .MCE_TIME = "'"$((now + 1))"'000000" |
		to_entries[] | "\(.key)=\(.value)"' >"$work/forged.fields"
forge_entries 1 <"$work/forged.fields"
forged=
for _ in $(seq 100); do
	journalctl --sync 2>/dev/null
	forged=$(journalctl -o json MCE_TSC=0x0000000000000666 2>/dev/null | jq -r '._COMM + " " + ._UID + " " + .MCE_LATE')
	[ -n "$forged" ] && break
	sleep 0.1
done
check "journald took the forged entry from a process named mcelogd, as nobody" "mcelogd 65534 1" "$forged"
check "query does not show it" "$(printf '0x2\n0x1\n0x3')" "$(q)"
check "query --since does not show it" "$(printf '0x1\n0x3')" "$(q --since "@$((now - 60))")"
# Both readers (query-walk.c reads the files itself): byte for byte, late, ahead and forged entries present.
differs=
for args in "" "--since @$((now - 60))" "--since @$((old - 60)) --until @$((old + 60))" "--since @$((now + 86400))"; do
	for o in table json csv; do
		# shellcheck disable=SC2086
		[ "$(MCECTL_JOURNAL_READER=libsystemd "$mcectl" query -o "$o" $args 2>&1)" = \
		  "$("$mcectl" query -o "$o" $args 2>&1)" ] || differs+=" [$o $args]"
	done
done
check "query reads the same directly as through libsystemd" "" "$differs"
for reader in libsystemd direct; do
	dir=()
	[ "$reader" = direct ] && dir=(--directory "$journal")
	check "summary ($reader) does not count it" 2 "$(s "$reader" "${dir[@]}" --since "@$((now - 60))")"
done
# late READER ARGS: how many late entries query (summary for libsystemd) read as mcelogd's.
late() {
	MCECTL_JOURNAL_READER=debug "$mcectl" "$@" -o json 2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) late entries of mcelogd.s read$/\1/p'
}
check "query reads the two genuine late entries that arrived in the window, not the forged one" 2 \
	"$(late query --since "@$((now - 60))")"
# (--merge: read through libsystemd, which the debug setting would otherwise not.)
check "summary (libsystemd) too" 2 "$(late summary --merge --since "@$((now - 60))")"
check "query --since after they arrived reads only the record ahead: no walk of every late entry" 1 \
	"$(late query --since "@$((now + 86400))")"
exit $((failed > 0))
