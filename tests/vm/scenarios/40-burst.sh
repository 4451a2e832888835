# Issue 4, scenario 4: a burst of 1,000 records through the kernel's logging
# path (mce-inject flags=sw), spread over both CPUs and several banks.  Every
# record has its own error signature (model-specific bits of STATUS), so this
# is a burst, not a storm: mcelogd must log each one.  That holds with the
# default storm settings (Burst=10 per 1 s per signature, MaxSignatures=1024):
# the signature is CPU or shared bank, bank and STATUS[31:0], so the 1,000
# MSCOD values are 1,000 signatures of one record each, and the check below
# that mcelogd wrote no storm entry fails if that ever changes.  45-storm is
# the storm: one signature, counted in summaries.
#
# The kernel queues records in a small pool (2 pages, ~60 records) until its
# work item runs; injecting faster than that drains makes the kernel drop
# records ("MCE records pool full!") before any consumer sees them.  So the
# injector keeps at most 16 records in flight: it waits until the kernel has
# emitted the mce_record events of the previous ones (counted in the ftrace
# buffer, independently of mcelogd), which also gives the kernel's own count.
VM_DESC="burst of 1,000 records: none lost, registers intact, journal holds them"
VM_APPEND="mcelogd_vm.check_interval=1"

. "$srcdir/tests/vm/lib/burst.sh"

scenario() {
	local n=1000 got want kernel journal out since
	# A time, not a cursor: journalctl 252 --after-cursor with matches skips the first match.
	since=@$(guest 'date +%s')
	# STATUS 0x9c000040_iiii0094: VAL EN MISCV ADDRV, MCACOD 0x0094, i in 31:16.
	out=$(guest "$(burst_inject $n 0094 0x40000000)" 300)
	note "$out"
	out=${out%% in *}
	is "$out" injected "burst: $n records injected through mce-inject"
	# Expected [cpu, bank, status, addr, misc] of every record.
	want=$(for i in $(seq 0 $((n - 1))); do
		printf '[%d,%d,"0x9c000040%04x0094","0x%016x","0x0000000000000086"]\n' $((i % 2)) $((i % 8)) $i $((0x40000000 + i * 0x1000))
	done | sort)
	# The kernel's count first (it settles within a second or two), then wait
	# for mcelogd to have logged that many.
	kernel=$(guest "t=/sys/kernel/tracing
for i in \$(seq 40); do
	c=\$(grep -c 'MC[0-9]: 9c000040[0-9a-f]\{4\}0094' \$t/trace)
	[ \$c -ge $n ] || [ \"\$c\" = \"\${last:-}\" ] && break
	last=\$c; sleep 0.5
done
echo 0 >\$t/events/mce/mce_record/enable
echo \$c")
	got=$(guest "
for i in \$(seq 90); do
	c=\$(mcectl query --since 1h --output json | jq -c 'select((.status // \"\") | test(\"^0x9c000040[0-9a-f]{4}0094\$\"))' | tee /run/burst.json | wc -l)
	[ \$c -ge ${kernel:-$n} ] && break
	sleep 1
done
jq -c '[.cpu, .bank, .status, .addr, .misc]' /run/burst.json" 150 | sort)
	is "$kernel" "$n" "burst: the kernel emitted $n mce_record events"
	is "$(grep -c . <<<"$got")" "$n" "burst: mcectl query returns $n records"
	if [ "$got" = "$want" ]; then ok "burst: every record once, cpu, bank, status, addr, misc intact"; else
		not_ok "burst: every record once, cpu, bank, status, addr, misc intact"
		diff <(echo "$want") <(echo "$got") | grep "^[<>]" | sort -k2 | head -n 20 | diag
	fi
	# The journal's order is the kernel's across both CPUs' rings: no record is logged
	# after one the kernel stamped more than 50 us later.  The kernel's order is its
	# ftrace buffer's (merged by time); ftrace and perf stamp one event a moment apart,
	# hence the margin.  /run/burst.json is in mcectl query's order, the journal's.
	order=$(guest "grep -o '[0-9]*\.[0-9]*: mce_record: .*MC[0-9]*: 9c000040[0-9a-f]\{4\}0094' /sys/kernel/tracing/trace |
	sed 's/^\([0-9.]*\):.*MC[0-9]*: \(9c000040[0-9a-f]\{4\}0094\).*/0x\2 \1/' >/run/burst.trace
jq -r .status /run/burst.json | awk 'NR == FNR { ts[\$1] = \$2 + 0; next }
	!(\$1 in ts) { miss++; next }
	{ t = ts[\$1]; if (seen++ && t < max - 0.00005) late++; if (t > max) max = t }
	END { print seen + 0, late + 0, miss + 0 }' /run/burst.trace -")
	is "$order" "$n 0 0" "burst: logged in the kernel's order across both CPUs (records, late, not in the trace)"
	journal=$(guest "journalctl -b -o json MESSAGE_ID=$(msgid CORRECTED) --output-fields=MCE_STATUS | jq -r .MCE_STATUS | grep -c '^0x9c000040[0-9a-f]\{4\}0094\$'")
	is "$journal" "$n" "burst: the guest journal holds $n entries"
	is "$(guest "journalctl --since '$since' -o json SYSLOG_IDENTIFIER=mcelogd MESSAGE_ID=$(msgid STORM) MESSAGE_ID=$(msgid STORM_END) | jq -r .MESSAGE | head -n 3")" "" \
		"burst: no storm summary or end: $n records, individual + summarised == $n"
	is "$(guest "journalctl --since '$since' -o cat MESSAGE_ID=$(msgid LOST) | head -n 3")" "" "burst: mcelogd reported no lost records"
	is "$(guest 'dmesg | grep -i "pool full\|lost" | head -n 3')" "" "burst: the kernel reported no lost records"
	is "$(mcelogd_warnings "${warn_mark:-}")" "" "burst: journalctl -u mcelogd shows no warnings"
}
