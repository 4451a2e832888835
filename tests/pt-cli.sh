#!/bin/sh
# mcectl pt end to end on streams built by libipt's encoder (tests/pt/pt-gen):
# the raw stream and a snapshot file, table and JSON, symbols from a kallsyms
# fixture; truncated, undecodable and foreign files; exit codes.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
MCECTL="$top_builddir/mcectl/mcectl"
GEN="$top_builddir/tests/pt/pt-gen"
KSYMS="$top_srcdir/tests/data/intel_pt/kallsyms"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1))
	failed=1
	echo "not ok $n - $1"
	[ -s "$TMP/err" ] && sed 's/^/# stderr: /' "$TMP/err" | head -5
}
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
run() {   # run EXPECTED_RC ARGS...
	want=$1
	shift
	"$MCECTL" pt --kallsyms "$KSYMS" "$@" >"$TMP/out" 2>"$TMP/err"
	[ $? -eq "$want" ]
}
jq_is() { [ "$(jq -c "$1" "$TMP/out")" = "$2" ]; }
has() { grep -q -- "$1" "$TMP/out"; }
err_has() { grep -q -- "$1" "$TMP/err"; }

"$GEN" reference >"$TMP/ref.pt" || exit 99
"$GEN" snapshot >"$TMP/snap.pt" || exit 99
"$GEN" snapshot 5 >"$TMP/short.pt" || exit 99
"$GEN" bad-opcode >"$TMP/bad.pt" || exit 99

check "raw stream: exit 0" run 0 -o json "$TMP/ref.pt"
check "raw stream: every packet counted" jq_is .counts \
	'{"pad":1,"psb":2,"psbend":2,"fup":1,"tip":3,"tip.pge":2,"tip.pgd":2,"tnt.8":1,"mode":2,"pip":1,"cbr":2,"tsc":2}'
check "raw stream: TSC range" jq_is .tsc_range '[4096,8192]'
check "raw stream: CBR changes" jq_is '[.cbr[].ratio]' '[36,40]'
check "raw stream: CR3" jq_is '[.cr3[].cr3]' '["0x0000000012345000"]'
check "raw stream: execution modes" jq_is '[.modes[].bits]' '[64,32]'
check "raw stream: ips in order, rebuilt from compressed payloads" jq_is '[.ips[] | .type + " " + .ip]' \
	'["tip.pge 0xffffffff81000100","tip 0xffffffff81000234","fup 0xffffffff81001000","tip.pge 0x0000000000401000","tip 0x0000000000401234","tip.pgd 0x0000000000401300"]'
check "raw stream: kernel ips symbolised from --kallsyms, user ips not" jq_is '[.ips[].symbol]' \
	'["_stext+0x100","do_thing+0x34","mce_handler+0x0",null,null,null]'
check "raw stream: suppressed and baseless IPs counted" jq_is '[.ips_suppressed, .ips_without_base, (.errors | length)]' '[1,1,0]'

check "table output: exit 0" run 0 "$TMP/ref.pt"
check "table output: the TSC range, CBR and a symbol" eval 'has "TSC range:  4096 .. 8192" && has "ratio 40" && has "do_thing+0x34"'

check "snapshot file: exit 0" run 0 -o json "$TMP/snap.pt"
check "snapshot file: its header is shown" jq_is '[.format, .snapshot.cpu, .snapshot.tsc_range, .snapshot.error_tsc, .snapshot.aux_flags]' \
	'["snapshot",3,[4096,8192],6144,["overwrite"]]'
check "snapshot file: caps and time conversion" jq_is '[.snapshot.caps.num_address_ranges, .snapshot.time_conv.time_shift]' '["2",21]'
check "snapshot file: perf time of the TSC range" jq_is '.snapshot.perf_time_range' '[1002048,1004096]'
check "snapshot file: the same trace decoded" jq_is '[.packets, (.ips | length)]' '[21,6]'

check "truncated snapshot: exit 1" run 1 -o json "$TMP/short.pt"
check "truncated snapshot: says it is truncated" err_has "truncated"
check "truncated snapshot: what there is is still decoded" jq_is '.counts.psb' '2'

check "undecodable packet: exit 1" run 1 -o json "$TMP/bad.pt"
check "undecodable packet: error names the offset" eval 'err_has "offset 18:" && jq_is ".errors[0].offset" 18'

head -c 4096 /dev/urandom >"$TMP/junk"
check "garbage: exit 1, no PSB" eval 'run 1 "$TMP/junk" && err_has "no PSB packet"'
printf 'MCELOGPT' >"$TMP/hdr"
check "a cut snapshot header: exit 1, named" eval 'run 1 "$TMP/hdr" && err_has "bad snapshot header: file shorter than the 80-byte header"'
check "a missing file: exit 1" eval 'run 1 "$TMP/nonexistent" && err_has "cannot open"'
check "no FILE: exit 2" run 2
check "bad --output: exit 2" eval 'run 2 -o xml "$TMP/ref.pt" && err_has "expected .table. or .json."'
check "unreadable --kallsyms: exit 1" eval '"$MCECTL" pt --kallsyms "$TMP/nonexistent" "$TMP/ref.pt" >/dev/null 2>"$TMP/err"; [ $? -eq 1 ] && err_has "cannot read --kallsyms"'

echo "1..$n"
exit $failed
