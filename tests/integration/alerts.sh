#!/bin/bash
# Integration test: a module's "replace" verdict reaches someone (issue 37,
# item 4).  mcelogd writes its metrics file; Debian's prometheus-node-exporter
# serves it with its textfile collector; Debian's Prometheus scrapes it and
# evaluates the shipped alerting rules (config/prometheus/mcelogd.rules.yml);
# Debian's prometheus-alertmanager groups the alerts and delivers them to a
# local webhook receiver (webhook-receiver.py).  The receiver must get the
# "replace" alert exactly once, with the host, the slot, the serial and the
# reason, and nothing about a module whose verdict is ok.  The metrics are
# mcelogd's own: a replay of EDAC events against a made-up SMBIOS table, with
# the ledger's thresholds lowered in a test mcelogd.conf.  The three daemons
# run as Debian runs them, as user prometheus; every interval is a second, so
# that the whole takes seconds.  Everything listens on 127.0.0.1 and lives in
# a temporary directory.  Prints TAP.
#
#   alerts.sh --metrics FILE   the same chain for another mcelogd's metrics
#       file (the VM rig's guest, tests/vm/extra/83-dimm-ledger-reboot.sh):
#       its one module at "replace" must arrive, with this host's name (the
#       node_exporter serving the file is this host's).

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"

exporter=/usr/bin/prometheus-node-exporter
need_tools prometheus promtool prometheus-alertmanager curl jq setpriv python3 "$exporter"
if ! id prometheus >/dev/null 2>&1; then
	echo "1..0 # SKIP needs the user prometheus (the prometheus-node-exporter package creates it)"
	exit 0
fi
use_workdir
# Readable by user prometheus: the textfile directory, the rules, the configurations.
chmod 0755 "$work"
# as_prometheus COMMAND... &: exec, so that $! is the daemon itself (the
# exit's kill reaches it) and not a subshell that would leave it running.
as_prometheus() { exec setpriv --reuid=prometheus --regid=prometheus --clear-groups "$@"; }

# --- mcelogd's metrics, one module at "replace" and one at "ok" ---
# Two DIMMs the board's SMBIOS names with their serials; EDAC events naming
# their slots as ghes_edac does; thresholds lowered so that three corrected
# errors in a week mean "replace" and one stays "ok" (mcelogd.conf(5), [Modules]).
given=
if [ "${1:-}" = --metrics ]; then
	given=${2:?alerts.sh --metrics FILE}
	[ -s "$given" ] || { echo "Bail out! --metrics $given: no such file, or empty"; exit 1; }
fi
. "$srcdir/tests/smbios-fake.sh"
memdev_module "$work/dmi/17-0" 000 P1-DIMMA1 P0_Node0_Channel0_Dimm0 SN-A1-7Q3K2 M393A2K43DB3-CWE
memdev_module "$work/dmi/17-1" 001 P1-DIMMB1 P0_Node0_Channel1_Dimm0 SN-B1-9X4M1 M393A2K43DB3-CWE
edac() { # edac MINUTE LABEL ADDRESS
	printf '{"time":"2026-11-20T10:%02d:00.000000Z","source":"ras:mc_event","event":"memory_controller",' "$1"
	printf '"severity":"corrected","error_count":1,"label":"%s","mc":0,"address":"%s"}\n' "$2" "$3"
}
{
	edac 0 "P0_Node0_Channel0_Dimm0 P1-DIMMA1" 0x0000000012345000
	edac 1 "P0_Node0_Channel0_Dimm0 P1-DIMMA1" 0x0000000012346000
	edac 2 "P0_Node0_Channel0_Dimm0 P1-DIMMA1" 0x0000000012347000
	edac 3 "P0_Node0_Channel1_Dimm0 P1-DIMMB1" 0x0000000022345000
} >"$work/records.jsonl"
printf '[Modules]\nWatchCorrected=5\nReplaceCorrectedPerWeek=3\n' >"$work/mcelogd.conf"
mkdir -p "$work/textfile" "$work/state"
chmod 0755 "$work/textfile"
prom=$work/textfile/mcelogd.prom
# The ledger is kept where state is kept: a replay keeps one only with --state-directory.
if [ -n "$given" ]; then
	cp "$given" "$prom" && chmod 0644 "$prom"
else
	"$mcelogd" --config "$work/mcelogd.conf" --replay "$work/records.jsonl" --no-journal --dmi-dir "$work/dmi" \
		--slots-directory "$work/none" --rules-directory "$work/none" --metrics-file "$prom" \
		--state-directory "$work/state" >/dev/null 2>"$work/mcelogd.err"
fi
# Without verdicts nothing below could pass: one failure that says why, not ten.
if ! grep -q '^mcelogd_module_verdict{' "$prom" 2>/dev/null; then
	echo "1..1"
	not_ok "mcelogd's metrics file has mcelogd_module_verdict series" "$(tail -5 "$work/mcelogd.err")"
	exit 1
fi

[ -n "$given" ] && echo "1..8" || echo "1..10"

# series_label VERDICT LABEL: that label of the module series with that verdict.
series_label() {
	grep "^mcelogd_module_verdict{.*verdict=\"$1\"" "$prom" | head -n1 | sed -n "s/.*[{,]$2=\"\([^\"]*\)\".*/\1/p"
}
slot=$(series_label replace slot) serial=$(series_label replace serial) reason=$(series_label replace reason)
ok_serial=$(series_label ok serial)
if [ -n "$given" ]; then
	check "$given: one module at replace, with its slot, serial and reason" "1 yes" \
		"$(grep -c '^mcelogd_module_verdict{.*verdict="replace"' "$prom") $([ -n "$slot" ] && [ -n "$serial" ] &&
			[ -n "$reason" ] && echo yes)"
else
	check "mcelogd's ledger: P1-DIMMA1 at replace with a reason, P1-DIMMB1 at ok, by their SMBIOS serials" \
		"P1-DIMMA1 SN-A1-7Q3K2 reason SN-B1-9X4M1" "$slot $serial ${reason:+reason} $ok_serial"
fi

rules=$work/mcelogd.rules.yml
cp "$srcdir/config/prometheus/mcelogd.rules.yml" "$rules"
promtool check rules "$rules" >"$work/promtool.out" 2>&1
check "promtool check rules passes on the shipped rules" 0 "$?"

# --- the webhook receiver: its port is the kernel's choice ---
# Started first: Python can take seconds to start on a loaded machine, and
# only Alertmanager needs its port (started last).
python3 "$srcdir/tests/integration/webhook-receiver.py" "$work/hook.port" "$work/hook.bodies" \
	>"$work/hook.log" 2>&1 &
started $!

# --- node_exporter: the textfile collector, and uname for the host's name ---
eport=$(free_port)
as_prometheus "$exporter" --web.listen-address="127.0.0.1:$eport" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$work/textfile" --collector.uname \
	>"$work/exporter.log" 2>&1 &
started $!

# --- Prometheus: scrapes node_exporter, evaluates the shipped rules every second ---
# It sends to Alertmanager about 5 s after its start, when its discovery of
# the Alertmanager first reports, so Alertmanager can start after it; and it
# sends its firing alerts again every second (not every minute), so that an
# Alertmanager not yet listening costs a second, not the test.
pport=$(free_port) aport=$(free_port)
mkdir -p "$work/tsdb"
chown prometheus: "$work/tsdb"
cat >"$work/prometheus.yml" <<CONF
global: { scrape_interval: 1s, evaluation_interval: 1s }
rule_files: [ "$rules" ]
alerting:
  alertmanagers:
    - static_configs: [ { targets: [ "127.0.0.1:$aport" ] } ]
scrape_configs:
  - job_name: node
    static_configs: [ { targets: [ "127.0.0.1:$eport" ] } ]
CONF
as_prometheus prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
	--web.listen-address="127.0.0.1:$pport" --rules.alert.resend-delay=1s >"$work/prometheus.log" 2>&1 &
started $!

# --- Alertmanager: no cluster (nothing to wait for), every wait a second ---
wait_for 20 test -s "$work/hook.port"
hport=$(cat "$work/hook.port" 2>/dev/null)
mkdir -p "$work/alertmanager"
chown prometheus: "$work/alertmanager"
cat >"$work/alertmanager.yml" <<CONF
route:
  receiver: hook
  group_by: [alertname, host]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: http://127.0.0.1:$hport/
        send_resolved: true
CONF
as_prometheus prometheus-alertmanager --config.file="$work/alertmanager.yml" --storage.path="$work/alertmanager" \
	--web.listen-address="127.0.0.1:$aport" --cluster.listen-address= >"$work/alertmanager.log" 2>&1 &
started $!

# --- what arrives ---
query() { curl -sf --data-urlencode "query=$1" "http://127.0.0.1:$pport/api/v1/query" | jq -c '.data.result'; }
# replace_alerts: every MceModuleReplace alert the receiver got, one JSON object a line.
replace_alerts() {
	jq -c '.alerts[] | select(.labels.alertname == "MceModuleReplace")' "$work/hook.bodies" 2>/dev/null
}
arrived() { [ -n "$(replace_alerts)" ]; }
if wait_for 25 arrived; then
	ok "the webhook receiver gets MceModuleReplace"
else
	not_ok "the webhook receiver gets MceModuleReplace" \
		"Prometheus's alerts: $(query 'ALERTS')" \
		"prometheus: $(tail -3 "$work/prometheus.log")" "alertmanager: $(tail -3 "$work/alertmanager.log")" \
		"exporter: $(tail -3 "$work/exporter.log")" "receiver: $(tail -3 "$work/hook.log")"
fi
alert=$(replace_alerts | head -n1)
field() { jq -r "$1 // empty" <<<"$alert"; }
check "... with this host's name (node_uname_info's nodename)" "$(uname -n)" "$(field .labels.host)"
check "... the module's slot and serial" "$slot $serial" "$(field .labels.slot) $(field .labels.serial)"
check "... and the verdict's reason" "$reason" "$(field .annotations.reason)"
check "... firing, and its summary names them" \
	"firing Replace memory module $slot (serial $serial) on $(uname -n)" \
	"$(field .status) $(field .annotations.summary)"

# Exactly once: a second notification would come at one of Alertmanager's next
# group intervals (1 s), after an evaluation of Prometheus (every second) that
# sent it something new.  Four more evaluations of the rules, however long a
# loaded machine takes for them, span three such intervals.
# evaluations: how many times Prometheus has evaluated the module rules.
evaluations() {
	curl -sf "http://127.0.0.1:$pport/metrics" |
		awk '/^prometheus_rule_group_iterations_total\{.*;mcelogd-modules"\}/ { print $2 }'
}
first=$(evaluations)
four_more() { [ "$(evaluations)" -ge $((${first:-0} + 4)) ]; }
wait_for 20 four_more
check "MceModuleReplace arrived exactly once, in one notification" "1 1" \
	"$(replace_alerts | wc -l) $(grep -c MceModuleReplace "$work/hook.bodies")"
if [ -z "$given" ]; then
	check "nothing arrived about the module at ok" 0 "$(grep -c -F "\"serial\":\"$ok_serial\"" "$work/hook.bodies")"
	check "... and Prometheus has no alert on it" "[]" "$(query "ALERTS{serial=\"$ok_serial\"}")"
fi

exit $((failed > 0))
