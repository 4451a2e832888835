# Issue 12, item 5: the shipped rsyslog recipe (config/pipelines/) on the
# real journald of the guest.  A second rsyslogd runs the recipe as shipped,
# but for the collector's address: itself, on 127.0.0.1 (imtcp), writing what
# it receives to a file.  An injected corrected error must arrive there as one
# JSON object with its MCE_* fields, and a forged entry must not.
VM_DESC="rsyslog recipe: imjournal, JSON over TCP, every MCE_* field kept"
# 52-suspend's boot (tests/vm/lib/s3-boot.sh).
. "$srcdir/tests/vm/lib/s3-boot.sh"

scenario() {
	local d=/run/rsyslog-mce port=15140 st=0x9c000040000a0098 out rec
	check "rsyslog: the guest has rsyslogd" guest "command -v rsyslogd"
	guest "mkdir -p $d && cat >$d/recipe.conf <<'RECIPE'
$(cat "$srcdir/config/pipelines/rsyslog-mcelogd.conf")
RECIPE
sed -i 's/target=\"collector.example.org\" port=\"5140\"/target=\"127.0.0.1\" port=\"$port\"/' $d/recipe.conf" >/dev/null
	# What the forwarder's recipe is included in, and the collector side.
	check "rsyslog: the recipe, with the collector on 127.0.0.1:$port, starts" guest "cat >$d/rsyslog.conf <<'CONF'
global(workDirectory=\"$d\")
module(load=\"imtcp\")
input(type=\"imtcp\" port=\"$port\" address=\"127.0.0.1\" ruleset=\"collect\")
template(name=\"raw\" type=\"string\" string=\"%rawmsg%\\n\")
ruleset(name=\"collect\") { action(type=\"omfile\" file=\"$d/received\" template=\"raw\") }
include(file=\"$d/recipe.conf\")
CONF
rsyslogd -N1 -f $d/rsyslog.conf >$d/check.log 2>&1 || { cat $d/check.log; exit 1; }
rsyslogd -f $d/rsyslog.conf -i $d/pid
for i in \$(seq 50); do [ -s $d/pid ] && break; sleep 0.1; done; [ -s $d/pid ]"
	guest "logger --journald <<FORGED
MESSAGE=forged
MESSAGE_ID=d90772f9176e45e88ae80c46f01c0915
MCE_CPU=99
MCE_JSON={\"cpu\":99}
FORGED" >/dev/null
	inject_sw cpu=1 bank=3 status=$st addr=0x7e3000 misc=0x86 >/dev/null
	out=$(guest "for i in \$(seq 100); do grep -q '$st' $d/received 2>/dev/null && break; sleep 0.1; done; sleep 1; cat $d/received" 30)
	note "$(head -c 600 <<<"$out")"
	rec=$(grep -F "$st" <<<"$out" | head -n 1)
	check "rsyslog: the record arrived as one JSON line" jq -e . <<<"$rec"
	is "$(jq -r '"\(.MCE_CPU) \(.MCE_BANK) \(.MCE_STATUS) \(.MCE_SEVERITY) \(._COMM)"' <<<"$rec")" \
		"1 3 $st corrected mcelogd" "rsyslog: MCE_* fields kept, as journald has them"
	is "$(jq -r '.MCE_JSON | fromjson | .status' <<<"$rec")" "$st" "rsyslog: MCE_JSON is the whole record"
	is "$(jq -c 'select(.MCE_CPU == "99")' <<<"$out" | wc -l)" 0 "rsyslog: the forged entry was not forwarded"
	check "rsyslog: ... while everything received is JSON" jq -e . <<<"$out"
	guest "kill \$(cat $d/pid)" >/dev/null
}
