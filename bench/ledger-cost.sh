#!/bin/bash
# The module ledger's cost (issue 37) at 8 sockets x 24 DIMMs and 1,000 CXL
# memory devices, each with a full history: the ledger's memory and its
# state file's size, CPU per memory error added, per save (the write off the
# record path, at most once a second) and per load (at start), from the
# ledger's own code (bench/ledger-cost.c); then the daemon's whole cost per
# record with the ledger, by mcelogd --replay of that many modules' records
# (peak RSS and CPU time, /usr/bin/time): with --state-directory (the ledger
# kept, as the daemon keeps it), once into an empty one and once more with
# its file full (a restart), against the same replay without one (no ledger,
# no rules.state).
#
#   bench/ledger-cost.sh [RECORDS]     (from a build directory; default 200,000)
set -euo pipefail
builddir=${top_builddir:-$PWD}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
records=${1:-200000}
make -C "$builddir" bench/ledger-cost mcelogd/mcelogd >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== the ledger alone (bench/ledger-cost), 192 DIMMs + 1,000 CXL devices, full histories"
"$builddir/bench/ledger-cost" --dimms 192 --cxl 1000 --records 2000000

# The daemon: CXL DRAM events over 1,000 memdevs and EDAC events over 192 labelled DIMMs.
python3 - "$records" >"$tmp/in.jsonl" <<'PY'
import random, sys
n = int(sys.argv[1]); r = random.Random(37)
for i in range(n):
    t = "2026-11-%02dT%02d:%02d:%02d.000000Z" % (1 + i // 86400 % 28, i // 3600 % 24, i // 60 % 60, i % 60)
    if i % 2:
        d = r.randrange(1000)
        print('{"time":"%s","event":"cxl_dram","source":"tracepoint","severity":"corrected","memdev":"mem%d",'
              '"serial":%d,"dpa":"0x%x","type":"ECC Error","transaction_type":"Host Read","channel":1,"rank":0,'
              '"bank_group":%d,"bank":%d,"row":%d,"column":%d}' % (t, d, 0x5a00000000 + d, r.randrange(1 << 30) & ~63,
              r.randrange(4), r.randrange(4), r.randrange(65536), r.randrange(1024)))
    else:
        d = r.randrange(192)
        print('{"time":"%s","event":"memory_controller","source":"ras:mc_event","severity":"corrected",'
              '"error_count":1,"label":"CPU_SrcID#%d_MC#%d_Chan#%d_DIMM#%d","mc":%d,"address":"0x%x","grain":32}'
              % (t, d // 24, d % 24 // 6, d % 6 // 2, d % 2, d // 6, r.randrange(1 << 36) & ~4095))
PY
mkdir -p "$tmp/rules" "$tmp/state"
run() { # run LABEL [--state-directory DIR]
	local label=$1
	shift
	/usr/bin/time -f '%U %S %M' -o "$tmp/time" "$builddir/mcelogd/mcelogd" --replay "$tmp/in.jsonl" --no-journal \
		--rules-directory "$tmp/rules" "$@" --control-socket "" \
		--metrics-file "$tmp/m.prom" 2>/dev/null >/dev/null
	read -r user sys rss <"$tmp/time"
	echo "$label: $(python3 -c "print('%.2f us CPU per record, peak RSS %d KiB' % (($user + $sys) * 1e6 / $records, $rss))")"
}
echo "== mcelogd --replay of $records records over 192 DIMMs and 1,000 CXL devices"
run "no state directory (no ledger)"
run "first run (the ledger fills)" --state-directory "$tmp/state"
echo "modules.state: $(grep -c '^module ' "$tmp/state/modules.state") modules, $(stat -c %s "$tmp/state/modules.state") bytes"
run "second run (restart: the ledger read back, then fed)" --state-directory "$tmp/state"
echo "metrics: $(grep -c '^mcelogd_module_' "$tmp/m.prom") module series, $(grep -c '^mcelogd_module_verdict{' "$tmp/m.prom") verdict series"
