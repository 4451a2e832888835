#!/bin/bash
# Two mcelogd builds under VM 46's storm (20,000 corrected errors on a real
# kernel, side by side with rasdaemon), run alternately so that both see the
# same machine load:
#   bash ../../bench/storm-ab.sh OLD-BUILD-DIR NEW-BUILD-DIR [ROUNDS]
# Each is a configured build directory (make check-vm works in it); give the
# old tree today's tests/vm/scenarios/46-rasdaemon.sh so both print the same
# table.  Prints, per run, the storm's pace and the table: records
# accounted, CPU seconds, wake-ups, journal entries and bytes per daemon.
# A run takes 2-3 minutes; the lock that keeps guests one at a time
# (STORM_AB_LOCK, default /tmp/mcelogd-guest.lock) is taken per run.  Each run's
# whole log is kept as $STORM_AB_DIR/ROUND-old.log and ROUND-new.log.
set -eu
old=$1 new=$2 rounds=${3:-2}
out=${STORM_AB_DIR:-/tmp/storm-ab}
mkdir -p "$out"
for ((i = 1; i <= rounds; i++)); do
	for which in old new; do
		if [ $which = old ]; then b=$old; else b=$new; fi
		MCELOGD_VM_RASDAEMON_STORM=${MCELOGD_VM_RASDAEMON_STORM:-20000} \
			flock "${STORM_AB_LOCK:-/tmp/mcelogd-guest.lock}" make -C "$b" check-vm VM_SCENARIOS=46-rasdaemon >/dev/null 2>&1 ||
			echo "storm-ab: check-vm failed in $b" >&2
		cp "$b/tests/vm/check-vm.log" "$out/$i-$which.log"
		echo "== $which ($b), round $i: $out/$i-$which.log"
		grep -E "injected|records accounted|^# (mcelogd|rasdaemon) +[0-9]|rasdaemon start [0-9] failed" \
			"$out/$i-$which.log" || true
	done
done
