#!/bin/bash
# mcelogd's cost against the CPU count (issue 25): boots the VM rig's guest
# (Debian's kernel under QEMU TCG, systemd, the shipped unit) once per size
# and prints one row per size and Counters= setting:
#   ready_ms        main process start to READY=1 (systemd's timestamps)
#   start_ipis      function-call interrupts (/proc/interrupts CAL) during the
#                   restart, all CPUs: the cross-CPU calls perf_event_open and
#                   the first reads cost; ipis_per_cpu is that over the CPUs
#   idle_cpu_pct    the daemon's CPU time (schedstat) over IDLE seconds idle
#   wakeups_per_s   its voluntary context switches per second idle
#   fds, rss_mib    descriptors open, peak RSS (VmHWM)
#   ring_kib        memory of its perf mappings (rings)
#   latency_ms      a CE injected (mce-inject, flags=sw) on the last CPU to
#                   its journal entry's timestamp
#
#   bench/scale-bench.sh [SIZES...]     (from a build directory, as root; default 2 16 32 64)
#   MCELOGD_SCALE_IDLE=SECONDS          idle window (default 30)
#   the rig's whole output per size: scale-bench-N.log in the build directory
#
# TCG runs every vCPU on the host's cores: cross-CPU calls wait for the target
# vCPU's thread, so under TCG start-up grows faster than on hardware.  The
# rows count those calls, so what the daemon asks for (per CPU, flat) can be
# told from what the emulator takes to serve it.  One guest at a time: never
# beside another heavy VM.
set -uo pipefail
builddir=${top_builddir:-$PWD}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(2 16 32 64)
destdir=$builddir/tests/vm/destdir
make -C "$builddir" install DESTDIR="$destdir" >/dev/null || exit 1
for n in "${sizes[@]}"; do
	echo "=== $n vCPUs"
	MCELOGD_SCALE_SMP=$n MCELOGD_VM_TIMEOUT=${MCELOGD_VM_TIMEOUT:-2400} \
		bash "$srcdir/tests/vm/run.sh" --destdir "$destdir" --srcdir "$srcdir" "$srcdir/bench/vm/scale.sh" |
		tee "$builddir/scale-bench-$n.log" | grep -E '^# SCALE|^not ok|^Bail|boot \[' | sed 's/^# //'
done
