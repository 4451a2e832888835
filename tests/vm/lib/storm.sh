# Sourced by the storm scenarios (45-storm, 38-crash-storm): a paced storm
# injector and the counts of what mcelogd wrote for a storm.

# storm_inject N STATUS [PAUSE]: the guest script that injects N records of STATUS on
# CPU 1 bank 1, paced, and prints "injected N in S s (R/s) kernel=C overrun=O".
# While the file PAUSE exists it waits (between groups of 16).
storm_inject() {
	cat <<SCRIPT
n=$1 st=$2 pause=${3:-/nonexistent}
t=/sys/kernel/tracing/instances/vmcount
[ -d \$t ] || mkdir \$t || exit 1
echo 8192 >\$t/buffer_size_kb && echo >\$t/trace && echo 1 >\$t/events/mce/mce_record/enable || exit 1
# Sum of the per-CPU ring-buffer entry counters: O(1), no trace text rendered.
count() { c=0 o=0; local k v f; for f in \$t/per_cpu/cpu*/stats; do
	while read -r k v; do case \$k in entries:) c=\$((c + v)) ;; overrun:) o=\$((o + v)) ;; esac; done <\$f
done; }
# The kernel prints every record to the console; a serial console under TCG
# would then set the pace.  The records still reach the kernel log.
read -r printk </proc/sys/kernel/printk; echo 0 >/proc/sys/kernel/printk
# A sleep without a fork per call: read with a time-out on a pipe nobody writes.
exec {nap}<> <(:)
cd /sys/kernel/debug/mce-inject || exit 1
start=\$EPOCHREALTIME
for ((i = 0; i < n; i++)); do
	# mce-inject forgets every register after each injection: all of them, every time.
	echo sw >flags; echo 1 >cpu; echo \$st >status; echo 0x86 >misc
	echo \$((0x40000000 + i * 4096)) >addr
	echo 1 >bank
	if ((i % 16 == 15)); then
		for ((w = 0; w < 5000; w++)); do count; ((c > i - 16)) && break; read -t 0.002 -u \$nap || :; done
		while [ -e \$pause ]; do read -t 0.05 -u \$nap || :; done
	fi
done
end=\$EPOCHREALTIME
echo \$printk >/proc/sys/kernel/printk
# Settle: the kernel's work item emits the last records within moments.
last=-1; for ((w = 0; w < 100; w++)); do count; ((c >= n || c == last)) && break; last=\$c; sleep 0.2; done
echo 0 >\$t/events/mce/mce_record/enable
us=\$(( (\${end/./} - \${start/./}) ))
echo "injected \$n in \$((us / 1000000)).\$(( us % 1000000 / 100000 )) s (\$(( n * 1000000 / (us > 0 ? us : 1) ))/s) kernel=\$(grep -c "MC1: \${st#0x}" \$t/trace) overrun=\$o"
SCRIPT
}

# storm_counts SINCE CODE STATUS: "individual summaries summed ends end_total
# reason entries" for the storm of that signature since SINCE: what mcelogd
# sent to the journal (SYSLOG_IDENTIFIER; _COMM is missing from entries
# journald reads after the sender exited, see storm_view for the trusted view).
storm_counts() {
	guest "
f=(--since '$1' -o json --no-pager SYSLOG_IDENTIFIER=mcelogd)
ind=\$(journalctl \"\${f[@]}\" MESSAGE_ID=$(msgid CORRECTED) | jq -r 'select(.MCE_STATUS == \"$3\") | 1' | wc -l)
journalctl \"\${f[@]}\" MESSAGE_ID=$(msgid STORM) MCE_STORM_CODE=$2 | jq -s '[length, (map(.MCE_STORM_COUNT | tonumber) | add // 0)] | @tsv' -r >/run/sum
journalctl \"\${f[@]}\" MESSAGE_ID=$(msgid STORM_END) MCE_STORM_CODE=$2 | jq -s '[length, (map(.MCE_STORM_TOTAL | tonumber) | add // 0), (map(.MCE_STORM_REASON) | join(\",\"))] | @tsv' -r >/run/end
all=\$(journalctl --since '$1' -o cat --no-pager SYSLOG_IDENTIFIER=mcelogd | wc -l)
echo \$ind \$(cat /run/sum) \$(cat /run/end) \$all"
}
# storm_view SINCE CODE STATUS: the same from mcectl query --output json (only
# entries journald vouches were written by mcelogd): "individual summaries summed ends end_total".
# mcectl query selects by the error's time, and a storm's first record can be
# dated before SINCE (seen: 9 of 10 individual records after SINCE by error
# time, all 10 by arrival), so the view starts an hour earlier: each storm
# scenario's STATUS and CODE must be its own in the boot (45's are outside
# the range 40-burst injects).
storm_view() {
	guest "mcectl query --since @\$(( ${1#@} - 3600 )) --output json | jq -s -r '[
		(map(select(.status == \"$3\")) | length),
		(map(select(.event == \"storm_summary\" and .code == \"$2\")) | length, (map(.count) | add // 0)),
		(map(select(.event == \"storm_end\" and .code == \"$2\")) | length, (map(.total) | add // 0))] | @tsv' | tr '\t' ' '"
}
# wait_storm_end SINCE CODE SECONDS: until mcectl query shows the storm's end
# (journald may lag far behind under TCG while it reads the kernel's messages).
wait_storm_end() {
	guest "for i in \$(seq $(($3 * 2))); do
	mcectl query --since '$1' --output json | jq -e 'select(.event == \"storm_end\" and .code == \"$2\")' >/dev/null && exit 0
	sleep 0.5
done; exit 1" $(($3 + 30))
}
