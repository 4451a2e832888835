# Issue 11 #2: crash safety.  mcelogd is killed with SIGKILL twice in the
# middle of a burst of 1,000 injected errors (systemd restarts it each time).
# Whatever point of a batch the kill lands on (record sent, cursor not yet
# saved; or the reverse), the next start must log every record exactly once:
# 1,000 distinct records in the journal, and no duplicate.
#
# The injector runs in the guest as its own unit, throttled like 40-burst (at
# most 16 records in flight, so the kernel's record pool never overflows), and
# counts what the kernel emitted in the top-level trace buffer, independently
# of mcelogd.  STATUS 0x9c000040_iiii0097: MCACOD 0x0097 is this scenario's own.
VM_DESC="crash mid-burst: SIGKILL twice during 1,000 records, each logged exactly once"
VM_APPEND="mcelogd_vm.check_interval=1"
# SIGKILLs mcelogd (systemd restarts it): after the boot's no-restart checks.
VM_LAST=1

. "$srcdir/tests/vm/lib/burst.sh"

scenario() {
	local n=1000 out kills=0 at emitted got t0
	# Loss reports of earlier scenarios of this boot (41 loses records on purpose) are not ours.
	t0=$(guest 'date +%s%6N')
	check "crash: the injector starts (its own unit)" guest "
cat >/run/crash-burst.sh <<'EOF'
$(burst_inject $n 0097 0x80000000 /run/crash-burst.emitted)
EOF
rm -f /run/crash-burst.emitted /run/crash-burst.emitted.done
systemd-run --quiet --unit=crash-burst bash /run/crash-burst.sh"

	# Two kills, at about a third and two thirds of the burst.  The first lands on
	# the worst point: strace kills mcelogd when it renames its new cursor into
	# place, so the records of that batch are in the journal and the cursor
	# still says they are not.  The second is a plain kill -9, wherever it lands.
	for at in 330 660; do
		if [ "$at" = 330 ]; then
			kill="timeout 20 strace -f -qq -o /dev/null -p \$pid -e trace=rename,renameat,renameat2 \\
	-e inject=rename,renameat,renameat2:signal=SIGKILL
for w in \$(seq 100); do [ \"\$(systemctl show -p MainPID --value mcelogd)\" != \$pid ] && break; sleep 0.05; done
[ \"\$(systemctl show -p MainPID --value mcelogd)\" != \$pid ]"
		else
			kill="kill -9 \$pid"
		fi
		out=$(guest "for w in \$(seq 600); do
	e=\$(cat /run/crash-burst.emitted 2>/dev/null); e=\${e:-0}   # empty while the injector rewrites it
	[ \$e -ge $at ] && break; sleep 0.05
done
pid=\$(systemctl show -p MainPID --value mcelogd)
$kill && echo \"killed \$pid at \$e\"" 60)
		note "$out"
		case $out in killed*) kills=$((kills + 1)) ;; esac
	done
	is "$kills" 2 "crash: mcelogd was killed (SIGKILL) twice during the burst, once at a cursor save"
	emitted=$(guest "for w in \$(seq 600); do [ -e /run/crash-burst.emitted.done ] && break; sleep 0.1; done
echo 0 >/sys/kernel/tracing/events/mce/mce_record/enable
cat /run/crash-burst.emitted" 90)
	is "$emitted" "$n" "crash: the kernel emitted all $n records"
	check "crash: systemd restarted mcelogd after each kill" guest "
for w in \$(seq 100); do systemctl is-active -q mcelogd && break; sleep 0.1; done
systemctl is-active -q mcelogd && [ \"\$(systemctl show -p NRestarts --value mcelogd)\" -ge 2 ]"
	got=$(wait_records "$n" '(.status // "") | test("^0x9c000040[0-9a-f]{4}0097$")' 120 |
	      jq -r .status | sort)
	# A last look after things settle: a duplicate may come after the count is reached.
	sleep 3
	got=$(query_json | jq -r 'select((.status // "") | test("^0x9c000040[0-9a-f]{4}0097$")) | .status' | sort)
	is "$(grep -c . <<<"$got")" "$n" "crash: mcectl query returns $n records"
	is "$(uniq <<<"$got" | grep -c .)" "$n" "crash: $n distinct records (every one logged)"
	out=$(uniq -d <<<"$got" | head -n 5 | tr '\n' ' ')
	is "$out" "" "crash: no record logged twice"
	# A restart in the middle of a burst can overflow the live ring while mcelogd reads
	# the trace instance; such a loss report says so (at start), and the records are
	# all there (above).  Any other loss report is a failure.
	is "$(guest "journalctl -b -o json MESSAGE_ID=$(msgid LOST) | jq -r 'select((.__REALTIME_TIMESTAMP | tonumber) > $t0 and .MCE_LOSS_AT_START != \"yes\") | .MESSAGE' | head -n 3")" "" \
		"crash: mcelogd reported no lost records (but for ring overflows while catching up at start)"
	# The kill at the cursor save left records after the cursor that the journal has:
	# the restart found them there rather than logging them again.
	check "crash: the restart found the last batch already in the journal" guest \
		"journalctl -b -u mcelogd --no-pager | grep -q 'after the restart cursor were already in the journal'"
}
