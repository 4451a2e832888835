#!/bin/bash
# Integration test: the shipped syslog-ng recipe (config/pipelines/) carries
# mcelogd's journal entries, every MCE_* field kept, as JSON lines over TCP
# (issue 12, item 5), and only this host's: not what mcelogd --replay logged.
# A real journald (private namespace), a real syslog-ng
# reading it with its systemd-journal() source, and socat as the collector.
# (rsyslog cannot be installed beside syslog-ng on Debian; its recipe is
# tested in the VM, scenario 47-rsyslog.)  Needs root; prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
need_tools syslog-ng socat
if [ -e /dev/mcelog ]; then
	echo "1..0 # SKIP needs a machine without a real /dev/mcelog (the live records come from a stand-in)"
	exit 0
fi
enter_journal_namespace "$0" "$@"

use_workdir

start_private_journald "$work"

echo "1..7"

# The collector: every line it receives, in a file.
port=$((20000 + RANDOM % 30000))
socat -u "TCP-LISTEN:$port,bind=127.0.0.1,reuseaddr,fork" "OPEN:$work/received,creat,append" &
started $!
# Listening before syslog-ng first connects: a refused connection waits time-reopen().
listening() { grep -qi ":$(printf '%04X' "$port") 00000000:0000 0A" /proc/net/tcp; }
for _ in $(seq 100); do listening && break; sleep 0.1; done

# syslog-ng with the recipe as shipped, but for the collector's address: the
# rest of the configuration is what Debian's syslog-ng.conf has (s_src).
sed "s/\"collector.example.org\" port(5140)/\"127.0.0.1\" port($port)/" "$srcdir/config/pipelines/syslog-ng-mcelogd.conf" \
	>"$work/mcelogd.conf"
cat >"$work/syslog-ng.conf" <<CONF
@version: 3.38
options { stats-freq(0); time-reopen(1); };
source s_src { systemd-journal(); };
@include "$work/mcelogd.conf"
CONF
syslog-ng -F --no-caps -f "$work/syslog-ng.conf" -R "$work/persist" -p "$work/pid" -c "$work/ctl" \
	>"$work/syslog-ng.log" 2>&1 &
started $!
# Up and reading the journal (its control socket answers) before anything is logged.
for _ in $(seq 100); do syslog-ng-ctl stats -c "$work/ctl" >/dev/null 2>&1 && break; sleep 0.1; done
sleep 1
# A forged entry first: same fields, but not mcelogd's.
logger --journald <<FORGED
MESSAGE=forged
MESSAGE_ID=d90772f9176e45e88ae80c46f01c0915
MCE_CPU=99
MCE_JSON={"cpu":99}
FORGED
# What a replay logs is another host's or another time's: it must stay here.
"$mcelogd" --replay "$data/replay-mixed.txt" >/dev/null 2>&1
# This host's records: a live daemon, its two records from the fake /dev/mcelog (see dev-mcelog.sh).
mkdir "$work/state" "$work/empty"
printf '[Sources]\nTracepoint=no\nTraceBuffer=no\nDevMcelog=yes\nRAS=no\n' >"$work/live.conf"
FAKE_DEV_MCELOG_PATH=/dev/mcelog FAKE_DEV_MCELOG_RECORDS=$data/dev-mcelog-88.bin FAKE_DEV_MCELOG_RECORD_LEN=88 \
ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=$builddir/tests/integration/fake-dev-mcelog.so \
	"$mcelogd" -c "$work/live.conf" --control-socket '' --state-directory "$work/state" \
	--rules-directory "$work/empty" --bert "$work/no-bert" 2>"$work/daemon.err" &
started $!
received() { [ -s "$work/received" ] && grep -c . "$work/received" || echo 0; }
for _ in $(seq 300); do [ "$(received)" -ge 2 ] && break; sleep 0.1; done
sleep 1

check "syslog-ng forwarded the 2 records of the live daemon, one JSON line each" 2 "$(received)"
[ "$(received)" = 2 ] || sed 's/^/# syslog-ng: /' "$work/syslog-ng.log"
check "every line is JSON" 2 "$(jq -c . "$work/received" 2>/dev/null | wc -l)"
check "the forged entry was not forwarded" 0 "$(jq -r 'select(.MCE_CPU == "99")' "$work/received" | wc -l)"
check "no replayed entry was forwarded" 0 "$(jq -r 'select(.MCE_SOURCE != "dev_mcelog")' "$work/received" | wc -l)"
check "MCE_* fields kept, as journald has them" "1 7 0x9c00004000010090 corrected" \
	"$(jq -r 'select(.MCE_CPU == "1") | "\(.MCE_CPU) \(.MCE_BANK) \(.MCE_STATUS) \(.MCE_SEVERITY)"' "$work/received")"
check "the host and MESSAGE_ID ride along" "$(hostname) d90772f9176e45e88ae80c46f01c0915" \
	"$(jq -r 'select(.MCE_CPU == "1") | "\(._HOSTNAME) \(.MESSAGE_ID)"' "$work/received")"
check "MCE_JSON is the record mcectl query shows" \
	"$("$mcectl" query --output json | jq -cS 'select(.cpu == 1)')" \
	"$(jq -r 'select(.MCE_CPU == "1") | .MCE_JSON' "$work/received" | jq -cS .)"

exit $((failed > 0))
