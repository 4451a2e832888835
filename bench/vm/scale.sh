# A VM rig scenario file for bench/scale-bench.sh (not a test: it prints one
# measurement row per guest and fails only when it cannot measure).  The
# guest's CPU count comes from MCELOGD_SCALE_SMP.
VM_DESC="scale: start-up, idle cost and latency of mcelogd at ${MCELOGD_SCALE_SMP:-2} vCPUs"
VM_SMP=${MCELOGD_SCALE_SMP:-2}
VM_ALONE=1
IDLE_SECONDS=${MCELOGD_SCALE_IDLE:-30}

# measure COUNTERS: restart mcelogd with [Snapshot] Counters=COUNTERS, then one row.
measure() {
	local counters=$1 row
	row=$(guest "
	conf=\$(mcelogd --help | sed -n 's/.*configuration file (default \\(.*\\))\$/\\1/p')
	mkdir -p \$(dirname \$conf)
	# yes: the default events (Counters= unset); no: the recorder off.
	if [ '$counters' = no ]; then printf '[Snapshot]\nCounters=no\n'; else printf '[Snapshot]\n'; fi >\$conf
	cal() { awk '/^ *CAL:/ { s = 0; for (i = 2; i <= NF; i++) if (\$i ~ /^[0-9]+\$/) s += \$i; print s }' /proc/interrupts; }
	c0=\$(cal)
	systemctl restart mcelogd.service || exit 1
	c1=\$(cal)
	pid=\$(systemctl show -p MainPID --value mcelogd.service)
	a=\$(systemctl show -p ExecMainStartTimestampMonotonic --value mcelogd.service)
	b=\$(systemctl show -p ActiveEnterTimestampMonotonic --value mcelogd.service)
	sleep 2
	# Idle: CPU time (ns, schedstat) and wake-ups (voluntary context switches).
	read -r ns0 _ < /proc/\$pid/schedstat
	w0=\$(awk '/^voluntary_ctxt_switches/ {print \$2}' /proc/\$pid/status)
	t0=\$(date +%s%N)
	sleep $IDLE_SECONDS
	read -r ns1 _ < /proc/\$pid/schedstat
	w1=\$(awk '/^voluntary_ctxt_switches/ {print \$2}' /proc/\$pid/status)
	t1=\$(date +%s%N)
	fds=\$(ls /proc/\$pid/fd | wc -l)
	rss=\$(awk '/^VmHWM/ {print \$2}' /proc/\$pid/status)
	# perf ring memory: the daemon's mappings of perf events, in KiB.
	ring=0
	while read -r range _ _ _ _ path; do
		case \$path in *perf_event*) ring=\$(( ring + 0x\${range#*-} - 0x\${range%-*} )) ;; esac
	done </proc/\$pid/maps
	ring=\$(( ring / 1024 ))
	# Latency: a software-injected CE on the last CPU, to its journal entry.
	last=\$(( \$(nproc) - 1 ))
	st=0x9c0000400001$(printf '%04x' $RANDOM)
	cd /sys/kernel/debug/mce-inject || exit 1
	echo sw >flags; echo \$last >cpu; echo \$st >status; echo 0 >addr; echo 0 >misc
	i0=\$(date +%s%N)
	taskset -c \$last sh -c 'echo 1 >/sys/kernel/debug/mce-inject/bank'
	for k in \$(seq 600); do
		e=\$(journalctl -o json MCE_STATUS=\$st -n 1 --no-pager 2>/dev/null | jq -r .__REALTIME_TIMESTAMP)
		[ -n \"\$e\" ] && [ \"\$e\" != null ] && break; sleep 0.1
	done
	lat=\$(( e - i0 / 1000 ))
	echo \"\$(nproc) $counters \$(( (b - a) / 1000 )) \$(( c1 - c0 )) \$ns0 \$ns1 \$t0 \$t1 \$w0 \$w1 \$fds \$rss \$ring \$(( lat / 1000 ))\"
	" $((IDLE_SECONDS + 600)))
	[ -n "$row" ] || { not_ok "scale: no measurement with Counters=$counters"; return; }
	# cpus counters ready_ms cal_ipis ns0 ns1 t0 t1 w0 w1 fds rss_kib ring_kib latency_ms
	awk -v r="$row" 'BEGIN { split(r, f, " ")
		cpu = (f[6] - f[5]) / (f[8] - f[7]) * 100; wake = (f[10] - f[9]) / ((f[8] - f[7]) / 1e9)
		printf "SCALE cpus=%d counters=%s ready_ms=%d start_ipis=%d ipis_per_cpu=%.1f idle_cpu_pct=%.4f wakeups_per_s=%.2f fds=%d rss_mib=%.1f ring_kib=%d latency_ms=%d\n",
			f[1], f[2], f[3], f[4], f[4] / f[1], cpu, wake, f[11], f[12] / 1024, f[13], f[14] }' | sed 's/^/# /'
	ok "scale: measured with Counters=$counters"
}

scenario() {
	guest 'modprobe mce-inject 2>/dev/null; true' >/dev/null
	measure yes
	measure no
}
