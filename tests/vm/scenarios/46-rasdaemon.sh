# Issue 11: side by side with Debian's rasdaemon under the same storm of
# 20,000 corrected errors (one signature, CPU 1 bank 1, one 4 KiB page each,
# paced as in 45-storm).  Both daemons read the same kernel tracepoint on
# the same guest at the same time; for each the scenario reports:
#   records accounted  mcelogd: logged one by one + storm summary counts;
#                      rasdaemon: rows in its SQLite mce_record table (this
#                      boot's, fresh: the storm is all it holds)
#   CPU seconds        utime + stime of the daemon's process, from /proc
#   journal entries    entries the daemon sent (SYSLOG_IDENTIFIER / _COMM)
#   wake-ups           times the daemon's process slept and was woken (its
#                      voluntary context switches, /proc/PID/status)
#   bytes written      what the daemon wrote through system calls (/proc/PID/io
#                      wchar: files, SQLite, journald's socket), and the size
#                      of its journal entries (export format).  The guest's root
#                      is in RAM, so block-level write_bytes would be 0 for both.
# journald's own work for each daemon's entries is not in the daemon's CPU
# time; the entry counts show it.
#
# A CPU rasdaemon decodes (Haswell-EP, family 6 model 63), or it refuses the
# mce tracepoint: 21-decode-intel-imc's boot, after its no-warning checks and
# before 80-rules-page-offline (a boot of its own cost CI about 50 s).
# rasdaemon runs in this scenario only: started here, stopped at its end, and
# mcelogd's configuration put back.
VM_DESC="side by side with rasdaemon: a storm (1,500 records; MCELOGD_VM_RASDAEMON_STORM=20000 for the benchmark), records accounted, CPU, journal entries, bytes"
VM_CPU="qemu64,+mce,+mca,vendor=GenuineIntel,family=6,model=63,stepping=2"
VM_APPEND="mcelogd_vm.check_interval=1"
VM_LAST=1

. "$srcdir/tests/vm/lib/storm.sh"

# daemon_stats UNIT: "cpu_ticks wchar wake-ups" of the unit's main process;
# wake-ups are its voluntary context switches: each time it slept and was woken.
daemon_stats() {
	guest "pid=\$(systemctl show -p MainPID --value $1)
read -r -a st </proc/\$pid/stat
echo \$((st[13] + st[14])) \$(sed -n 's/^wchar: //p' /proc/\$pid/io) \$(sed -n 's/^voluntary_ctxt_switches:[[:space:]]*//p' /proc/\$pid/status) \${st[14]}"
}

scenario() {
	# 1,500 in make check-vm, for CI's time: enough for mcelogd to reach storm
	# mode and account for every record; Debian 12's rasdaemon reads nothing of
	# so short a storm (its buffer never reaches the half-full watermark, see
	# below), so the side-by-side figures are bench/storm-ab.sh's, at the
	# 20,000 records of the published table.
	local n=${MCELOGD_VM_RASDAEMON_STORM:-1500} st=0x9c00004000b60094 code=0x00b60094 conf out kernel hz since
	local m0 m1 r0 r1 ind nsum sum rest ras mje rje mjb rjb mcpu rcpu mw rw mwk rwk
	conf=$(guest 'mcelogd --help | sed -n "s/.*configuration file (default \(.*\))\$/\1/p"')
	check "rasdaemon: short storm timings for mcelogd (as 45-storm), reloaded" guest "
cp '$conf' /run/mcelogd.conf.rasdaemon && printf '[Storm]\nSummaryInterval=2s\nQuietTime=3s\n' >>'$conf' && systemctl reload mcelogd.service"
	# In some runs (2 of 8 in one session, 1 of 12 in the next; all with mcelogd's
	# tracepoint hold-back) rasdaemon exits 0 within a moment of starting, having
	# disabled its events; the cause is not known.  It is started up to three times,
	# and each failed start is shown.  A guess to check when it recurs: rasdaemon
	# takes a poll() wakeup on which no CPU's buffer has data for a kernel without
	# poll() support ("Old kernel detected"), leaves its loop for one thread per
	# CPU, and exits if those fail ("Huh! something got wrong"); the note says so.
	out=$(guest "
for try in 1 2 3; do
	systemctl start rasdaemon.service && for i in \$(seq 100); do
		[ -d /sys/kernel/tracing/instances/rasdaemon ] && break; sleep 0.1; done
	sleep 1
	systemctl is-active -q rasdaemon.service && { echo active; exit 0; }
	echo \"rasdaemon start \$try failed:\"; journalctl -b --no-pager -u rasdaemon.service | tail -n 30
done")
	[ "$out" = active ] || printf "%s\n" "$out" | diag
	if grep -q "Old kernel detected\|something got wrong" <<<"$out"; then
		note "rasdaemon left its poll() loop for its old-kernel fallback, then exited (see the comment above)"
	fi
	is "${out##*$'\n'}" active "rasdaemon: rasdaemon (Debian's, -f -r: record to SQLite) starts"
	# rasdaemon enables the events it handles once it has set up; wait for mce_record.
	check "rasdaemon: rasdaemon has enabled mce:mce_record" guest "for i in \$(seq 150); do
	[ \"\$(cat /sys/kernel/tracing/instances/rasdaemon/events/mce/mce_record/enable 2>/dev/null)\" = 1 ] && exit 0
	sleep 0.2; done; journalctl -u rasdaemon --no-pager | tail -n 5; exit 1"
	hz=$(guest 'getconf CLK_TCK')
	since=@$(guest 'date +%s')
	m0=$(daemon_stats mcelogd) r0=$(daemon_stats rasdaemon)

	out=$(guest "$(storm_inject $n $st)" 900)
	note "$out"
	kernel=$(sed -n 's/.* kernel=\([0-9]*\).*/\1/p' <<<"$out")
	is "$kernel" "$n" "rasdaemon: the kernel emitted $n records"
	check "rasdaemon: mcelogd's storm ended" wait_storm_end "$since" $code 300
	# rasdaemon is done when its row count and its CPU time stop moving for 10 s.
	ras=$(guest "db=/var/lib/rasdaemon/ras-mc_event.db pid=\$(systemctl show -p MainPID --value rasdaemon)
last= same=0
for i in \$(seq 300); do
	c=\$(sqlite3 \$db 'select count(*) from mce_record' 2>/dev/null || echo busy)
	read -r -a st </proc/\$pid/stat
	now=\"\$c \$((st[13] + st[14]))\"
	if [ \"\$now\" = \"\$last\" ]; then same=\$((same + 1)); else same=0; fi
	[ \$same -ge 5 ] && break
	last=\$now; sleep 2
done; echo \$c" 700)
	m1=$(daemon_stats mcelogd) r1=$(daemon_stats rasdaemon)
	# Why rasdaemon may have stored nothing: it sleeps in poll() on each CPU's
	# trace_pipe_raw in its own tracefs instance, and since Linux 6.1
	# ("tracing/ring-buffer: Have polling block on watermark", 42fb0a1e84ff)
	# that poll wakes only once buffer_percent (default 50) of the CPU's buffer
	# is full.  rasdaemon writes 0 there only from the fix of
	# mchehab/rasdaemon#86 (2023), which Debian 12's does not have.  Records
	# still in its buffer were emitted but not yet read.
	read -r ras_ver ras_pct ras_kb ras_held <<<"$(guest "d=/sys/kernel/tracing/instances/rasdaemon
echo \$(dpkg-query -W -f='\${Version}' rasdaemon) \$(cat \$d/buffer_percent) \$(cat \$d/buffer_size_kb) \
	\$(cat \$d/per_cpu/cpu*/stats | awk '/^entries:/ { s += \$2 } END { print s + 0 }')")"
	note "rasdaemon $ras_ver: buffer_percent $ras_pct of buffer_size_kb $ras_kb per CPU; records in its ring not yet read: $ras_held"

	read -r ind nsum sum rest <<<"$(storm_counts "$since" $code $st)"
	mje=$(guest "journalctl --since '$since' -o cat --no-pager SYSLOG_IDENTIFIER=mcelogd | wc -l")
	rje=$(guest "journalctl --since '$since' -o cat --no-pager _COMM=rasdaemon | wc -l")
	mjb=$(guest "journalctl --since '$since' -o export --no-pager SYSLOG_IDENTIFIER=mcelogd | wc -c")
	rjb=$(guest "journalctl --since '$since' -o export --no-pager _COMM=rasdaemon | wc -c")
	read -r mcpu mw mwk <<<"$(awk -v a="$m0" -v b="$m1" -v hz="$hz" 'BEGIN { split(a, x, " "); split(b, y, " ");
		printf "%.2f %d %d", (y[1] - x[1]) / hz, y[2] - x[2], y[3] - x[3] }')"
	read -r rcpu rw rwk <<<"$(awk -v a="$r0" -v b="$r1" -v hz="$hz" 'BEGIN { split(a, x, " "); split(b, y, " ");
		printf "%.2f %d %d", (y[1] - x[1]) / hz, y[2] - x[2], y[3] - x[3] }')"
	note "same storm, same guest: $kernel corrected errors emitted by the kernel"
	note "                     records accounted  CPU s   wake-ups  journal entries  journal bytes  bytes written (wchar)"
	note "$(printf 'mcelogd              %-18s %-7s %-9s %-16s %-14s %s' "$((ind + sum))" "$mcpu" "$mwk" "$mje" "$mjb" "$mw")"
	note "$(printf 'rasdaemon            %-18s %-7s %-9s %-16s %-14s %s' "$ras" "$rcpu" "$rwk" "$rje" "$rjb" "$rw")"
	# Where a daemon's CPU went: in the kernel for it (system: reads, wake-ups) or its own code (user).
	note "$(awk -v a="$m0" -v b="$m1" -v c="$r0" -v d="$r1" -v hz="$hz" 'BEGIN { split(a, w, " "); split(b, x, " ")
		split(c, y, " "); split(d, z, " ")
		printf "system CPU s: mcelogd %.2f of %.2f, rasdaemon %.2f of %.2f", (x[4] - w[4]) / hz, (x[1] - w[1]) / hz,
			(z[4] - y[4]) / hz, (z[1] - y[1]) / hz }')"
	note "rasdaemon's journal lines about an mce_record event: $(guest "journalctl --since '$since' -o cat --no-pager _COMM=rasdaemon | grep -c 'mce_record'")"
	note "rasdaemon's log: $(guest "journalctl -u rasdaemon --since '$since' --no-pager -o cat | grep -v 'mce_record' | tail -n 3 | tr '\n' ' '")"
	note "journald on rasdaemon: $(guest "journalctl --since '$since' -o cat --no-pager _COMM=systemd-journal | grep -i 'suppressed' | tail -n 2 | tr '\n' ' '")"
	is "$((ind + sum))" "$kernel" "rasdaemon: mcelogd accounts for every error"
	# CPU and journal entries side by side are benchmark figures (bench/storm-ab.sh
	# runs 20,000 records): noted, not asserted.  At 4,000 records on 6.1 this
	# rasdaemon has recorded nothing and used no CPU: the storm never filled
	# half of its buffer, so its poll() never woke (the note on its ring above;
	# 2026-11-28: rasdaemon 0.6.8-1.1, buffer_percent 50 of 1410 KiB per CPU,
	# all 4,000 records still in its ring); it kept 7,677 of 20,000 in the
	# last full storm.
	note "CPU for the storm: mcelogd $mcpu s, rasdaemon $rcpu s; journal entries: mcelogd $mje, rasdaemon $rje"
	[ "${ras:-0}" != 0 ] || note "rasdaemon accounted for no record of this storm (see the table above)"
	check "rasdaemon: stopped" guest "systemctl stop rasdaemon.service"
	check "rasdaemon: mcelogd's configuration restored" \
		guest "cp /run/mcelogd.conf.rasdaemon '$conf' && systemctl reload mcelogd.service"
}
