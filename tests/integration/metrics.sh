#!/bin/bash
# Integration test: mcelogd's metrics (issue 12, item 3) through the real
# components.  Known records are replayed with --metrics-file; Debian's
# prometheus-node-exporter serves the file with its textfile collector; a real
# Prometheus scrapes that node_exporter, and its HTTP API must return the
# counts.  node_exporter runs as Debian runs it, as user prometheus.  promtool checks and unit-tests the shipped alerting rules.  A live
# daemon answers `mcectl export --prometheus` and keeps its file current.
# Everything listens on 127.0.0.1 and lives in a temporary directory.  Prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"

exporter=/usr/bin/prometheus-node-exporter
need_tools prometheus promtool curl jq setpriv "$exporter"
if ! id prometheus >/dev/null 2>&1; then
	echo "1..0 # SKIP needs the user prometheus (the prometheus-node-exporter package creates it)"
	exit 0
fi
use_workdir

echo "1..24"

# value FILE SELECTOR: the value of the series lines matching SELECTOR (a grep -F string), summed.
value() { grep -F "$2" "$1" | grep -v '^#' | awk '{ s += $NF } END { print s + 0 }'; }

# --- the file, from a replay of known records ---
# The textfile directory as Debian ships it: root's, 0755, so that node_exporter (user
# prometheus) can read in it.
mkdir -p "$work/textfile"
chmod 0755 "$work" "$work/textfile"
prom=$work/textfile/mcelogd.prom
cat "$data/replay-mixed.txt" "$data/replay-mixed.txt" "$data/replay-ras.txt" >"$work/records.txt"
# A replay never writes this host's own outputs (Metrics=, JSON= of the configuration):
# node_exporter would serve another host's errors as this one's.
printf '[Output]\nMetrics=%s\nJSON=%s\n' "$prom" "$work/host.jsonl" >"$work/replay.conf"
"$mcelogd" --config "$work/replay.conf" --replay "$work/records.txt" --no-journal >/dev/null 2>"$work/replay.err"
check "a replay leaves the configuration's Metrics= and JSON= files alone" "no no" \
	"$([ -e "$prom" ] && echo yes || echo no) $([ -e "$work/host.jsonl" ] && echo yes || echo no)"
"$mcelogd" --config "$work/replay.conf" --replay "$work/records.txt" --no-journal --output json 2>/dev/null |
	jq -r '"\(.hostname) \(.boot_id)"' | sort -u >"$work/identity"
check "... and stamps no host name or boot id of this host on the replayed records" "null null" \
	"$(cat "$work/identity")"
"$mcelogd" --config "$work/replay.conf" --replay "$work/records.txt" --no-journal --metrics-file "$prom" \
	>/dev/null 2>"$work/replay.err"
check "replay with --metrics-file writes the file" yes "$([ -s "$prom" ] && echo yes || echo no)"
check "... readable by all (node_exporter's own user), whatever the umask" 644 "$(stat -c %a "$prom")"
check "8 machine checks counted (2 x 4 replayed)" 8 "$(value "$prom" 'mcelogd_records_total{')"
check "... 2 of them fatal (the Ice Lake record with PCC, replayed twice)" 2 \
	"$(value "$prom" 'mcelogd_records_total{severity="fatal"')"
check "3 other records, by kind" "1 1 1" \
	"$(for e in memory_failure memory_controller arm_processor; do value "$prom" "mcelogd_ras_records_total{event=\"$e\""; done | paste -sd' ')"
check "the EDAC event's DIMM, named as node_exporter's EDAC collector names it" 1 \
	"$(value "$prom" 'mcelogd_dimm_correctable_errors_total{socket="unknown",controller="0",channel="unknown",dimm="unknown",label="DIMM_A1"}')"
check "the format's TYPE lines" 1 "$(grep -c '^# TYPE mcelogd_records_total counter$' "$prom")"

# --- node_exporter's textfile collector serves it ---
port=$(free_port)
# As Debian's prometheus-node-exporter.service runs it: User=prometheus.
setpriv --reuid=prometheus --regid=prometheus --clear-groups \
"$exporter" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$work/textfile" >"$work/exporter.log" 2>&1 &
started $!
scrape() { curl -sf "http://127.0.0.1:$port/metrics" >"$work/scraped" 2>/dev/null; }
if wait_for 20 scrape; then ok "node_exporter is up on 127.0.0.1:$port"; else not_ok "node_exporter is up on 127.0.0.1:$port" "$(tail -5 "$work/exporter.log")"; fi
check "node_exporter read the file without error" 0 "$(value "$work/scraped" 'node_textfile_scrape_error ')"
check "... and serves our counts as they are in the file" "8 3" \
	"$(value "$work/scraped" 'mcelogd_records_total{') $(value "$work/scraped" 'mcelogd_ras_records_total{')"

# --- a real Prometheus scrapes that node_exporter, with the shipped alerting rules ---
pport=$(free_port)
cat >"$work/prometheus.yml" <<CONF
global: { scrape_interval: 1s, evaluation_interval: 1s }
rule_files: [ "$srcdir/config/prometheus/mcelogd.rules.yml" ]
scrape_configs:
  - job_name: node
    static_configs: [ { targets: [ "127.0.0.1:$port" ] } ]
CONF
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
	--web.listen-address="127.0.0.1:$pport" >"$work/prometheus.log" 2>&1 &
started $!
query() { curl -sf --data-urlencode "query=$1" "http://127.0.0.1:$pport/api/v1/query" | jq -r '.data.result[0].value[1] // empty'; }
counted() { [ "$(query 'sum(mcelogd_records_total)')" = 8 ]; }
if wait_for 60 counted; then
	ok "Prometheus's HTTP API returns the 8 machine checks, scraped through node_exporter"
else
	not_ok "Prometheus's HTTP API returns the 8 machine checks, scraped through node_exporter" \
		"got: $(query 'sum(mcelogd_records_total)')" "$(tail -3 "$work/prometheus.log")"
fi
check "... and the DIMM's corrected errors by its label" 1 \
	"$(query 'sum(mcelogd_dimm_correctable_errors_total{label="DIMM_A1"})')"
firing() { [ -n "$(query 'ALERTS{alertname="MceUncorrectedError",alertstate="firing"}')" ]; }
if wait_for 30 firing; then ok "the shipped rules fire MceUncorrectedError for the fatal records"; else
	not_ok "the shipped rules fire MceUncorrectedError for the fatal records" "$(tail -3 "$work/prometheus.log")"; fi

# --- promtool on the shipped rules ---
promtool check rules "$srcdir/config/prometheus/mcelogd.rules.yml" >"$work/promtool.out" 2>&1
check "promtool check rules passes" 0 "$?"
promtool test rules "$srcdir/tests/prometheus/mcelogd.rules.test.yml" >"$work/promtool.out" 2>&1
rc=$?
if [ "$rc" = 0 ]; then ok "promtool test rules passes on the shipped rules"; else
	not_ok "promtool test rules passes on the shipped rules" "$(head -20 "$work/promtool.out")"; fi

# --- a live daemon: mcectl export --prometheus, and a file kept current ---
mkdir -p "$work/live/textfile" "$work/live/tracefs" "$work/live/state"
live=$work/live/textfile/mcelogd.prom
printf '[Output]\nMetrics=%s\n' "$live" >"$work/live.conf"
# A ras storm a killed mcelogd was counting (see mcelogd(8), Crashes): its last summary is counted here too.
rs_start=$(( ($(date +%s) - 60) * 1000000 ))
printf 'mcelogd-storms 1\nboot_id %s\nras pcie_aer %s %s 4990 10 dev_name=0000:00:1c.0 correctable_status=0x1\n' \
	"$(tr -d - </proc/sys/kernel/random/boot_id)" "$rs_start" "$((rs_start + 9000000))" >"$work/live/state/storms.state"
# The kernel's memory-failure figures, from stand-ins: soft offlining forbidden, 8 kB corrupted,
# one node's counters.
mkdir -p "$work/live/proc/sys/vm" "$work/live/node/node0/memory_failure"
echo 0 >"$work/live/proc/sys/vm/enable_soft_offline"
printf 'MemTotal:       16318412 kB\nHardwareCorrupted:     8 kB\n' >"$work/live/proc/meminfo"
for c in total:9 ignored:1 failed:2 delayed:1 recovered:5; do
	echo "${c#*:}" >"$work/live/node/node0/memory_failure/${c%%:*}"
done
# Two records from a boot error region (one machine check, one firmware memory record).
live_start=$(date +%s)
"$mcelogd" --config "$work/live.conf" --no-journal --tracefs "$work/live/tracefs" --control-socket "$work/live/sock" \
	--bert "$data/bert-region.bin" --state-directory "$work/live/state" \
	--procfs "$work/live/proc" --sysfs-node "$work/live/node" 2>"$work/live.err" &
live_pid=$!
started $live_pid
# Twice a full `make -j2 check` beside two fuzzers saw exit 3 ("not running") here while the
# daemon was up: its socket file exists from bind() on, a moment before listen(), and under
# such load the wait can also run out first.  So: ask again while the daemon runs, and say
# what it said if it never answers.
wait_for 30 test -S "$work/live/sock"
for _ in $(seq 20); do
	"$mcectl" export --prometheus --socket "$work/live/sock" >"$work/export" 2>"$work/export.err"
	rc=$?
	[ "$rc" = 3 ] && kill -0 "$live_pid" 2>/dev/null || break
	sleep 0.5
done
if [ "$rc" = 0 ]; then ok "mcectl export --prometheus exits 0"; else
	not_ok "mcectl export --prometheus exits 0" "exit $rc: $(cat "$work/export.err")" \
		"daemon $(kill -0 "$live_pid" 2>/dev/null && echo running || echo gone): $(tail -5 "$work/live.err")"; fi
check "... and prints the daemon's counts" "1 1" \
	"$(value "$work/export" 'mcelogd_records_total{') $(value "$work/export" 'mcelogd_ras_records_total{')"
check "... and the ras storm's count under its source, as bank" "4990 1" \
	"$(value "$work/export" 'mcelogd_storm_records_total{bank="ras:aer_event"}') $(value "$work/export" 'mcelogd_storms_ended_total')"
check "... and the kernel's memory-failure figures" "8192 0 5 9" \
	"$(value "$work/export" 'mcelogd_memory_hardware_corrupted_bytes') $(value "$work/export" 'mcelogd_soft_offline_allowed') $(value "$work/export" 'mcelogd_kernel_memory_failure_pages_total{result="recovered"}') $(value "$work/export" 'mcelogd_kernel_memory_failure_pages_total{')"
"$mcectl" status --socket "$work/live/sock" >"$work/status" 2>&1
check "mcectl status shows them" yes \
	"$(grep -q 'Memory: HardwareCorrupted 8 kB; kernel memory failures on 1 node: total 9, recovered 5, delayed 1, ignored 1, failed 2; soft offlining FORBIDDEN (vm.enable_soft_offline=0)' "$work/status" && echo yes || cat "$work/status")"
in_file() { [ "$(value "$live" 'mcelogd_ras_records_total{')" = 1 ]; }
if wait_for 15 in_file; then ok "the daemon's file has them within seconds"; else not_ok "the daemon's file has them within seconds" "$(cat "$live")"; fi
# Written by this daemon, so between its start and now (whole seconds: the file's
# time may have a fraction), however long this host took between the two.
now=$(date +%s)
check "its last-update time is now" yes \
	"$(awk -v start="$live_start" -v now="$now" '/^mcelogd_last_update_timestamp_seconds/ { print ($2 >= start && $2 < now + 1) ? "yes" : "no: " $2 " not in " start ".." now }' "$live")"

exit $((failed > 0))
