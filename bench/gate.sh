#!/bin/bash
# The speed gate: this build against a pinned baseline build, side by side in
# one run, and a failure when a figure got slower than the noise measured
# allows.  tools/run-tests.sh runs it after the gcc build, so CI does.
#
#   bench/gate.sh            (from a build directory after make; or: make bench-gate)
#
# The baseline is the commit named in bench/gate-baseline; it moves only on
# purpose (README.md, "Testing": how, and when that is honest).  Its source
# comes from git (git archive of that commit); where the tree is no git
# checkout, from MCELOGD_GATE_BASELINE_SRC, a tar of it named COMMIT.tar
# (tools/fresh-root.sh makes one, since it copies no .git).  Only mcelogd,
# mcectl and bench/ras-storm-cost are built for it, with this build's compiler
# and flags less -g, under ccache where there is one, in GATE_DIR (default
# BUILDDIR/gate), where it stays: the next run rebuilds nothing unless the
# commit moved.  MCELOGD_GATE_CACHE (a directory) also keeps the baseline's
# programs and the journal across fresh trees, keyed by commit and toolchain.
#
# Figures, each the CPU time (user+sys of the child, not wall) of one run,
# best of GATE_RUNS (default 5) per build, the runs of both builds
# interleaved and every figure's runs spread over the whole gate, so that a
# burst of load from elsewhere touches one run of each rather than every
# run of one:
#   decode, mixed        mcectl decode --output json, bench/gen-mixed's corpus (every form)
#   decode, kernel       the same of the Intel kernel-console set bench/decode-bench.sh uses
#   record path          mcelogd --replay of the mixed corpus, shipped rules, a state directory
#   rules, DRAM rows     the same of EDAC records over 5,000 rows (bench/row-records.sh)
#   storm                bench/ras-storm-cost: storm detection per record, 16 storms at once
#   query 1h             mcectl query --since 1h (the journal's last hour), 10 runs
#   summary              mcectl summary of the whole journal (bench/journal-gen.sh)
# Each build reads its own shipped rules and mcelogd.conf.
#
# The journal has GATE_JOURNAL_ENTRIES (default 100,000) entries over as many
# days as put 1,388 in the last hour, the density of the issue's 1M entries
# over 30 days: importing costs about 150 us of CPU per entry, so 1M would
# cost CI minutes.  It is kept in GATE_DIR (and MCELOGD_GATE_CACHE), one per
# size.  The issue's 1M figures, outside CI: make bench-gate-1m
# (GATE_JOURNAL_ENTRIES=1000000 GATE_FIGURES='query|summary').
#
# A figure's noise is the larger of the two builds' (median - best) / best;
# its tolerance is that noise, at least GATE_FLOOR percent (default 5: the
# 1 ms steps of the times, and what code layout alone moves) and at most 15.
# A figure is slower when current / baseline exceeds the tolerance both best
# against best and as the median over the runs made back to back (one lucky
# quiet run moves one build's best, not the median of the pairs).  A figure
# slower is measured again, twice at most, with as many runs more each time;
# the gate fails if it is still slower over all its runs.  A program that
# fails fails the gate.
#
# Where there is no baseline source, the gate is skipped (exit 77), or
# fails with MCELOGD_TESTS_NO_SKIP set (CI).
set -euo pipefail

builddir=$(cd "${top_builddir:-$PWD}" && pwd)
srcdir=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
runs=${GATE_RUNS:-5}
floor=${GATE_FLOOR:-5}
cap=15
work=${GATE_DIR:-$builddir/gate}
cache=${MCELOGD_GATE_CACHE:-}
n_mixed=100000          # the issue's record count for decode and the record path
n_rows=30000 rows=5000  # past the 4,096 rows the rules keep, so eviction runs too
n_storm=1000000 storms=16
n_journal=${GATE_JOURNAL_ENTRIES:-100000}
jobs=$(nproc)

say() { echo "gate: $*"; }
die() { echo "gate: $*" >&2; exit 1; }
skip() {
	if [ -n "${MCELOGD_TESTS_NO_SKIP:-}" ]; then
		die "$* (MCELOGD_TESTS_NO_SKIP is set: no skip)"
	fi
	echo "gate: SKIP: $*"
	exit 77
}

for f in mcelogd/mcelogd mcectl/mcectl bench/gen-mixed bench/ras-storm-cost; do
	[ -x "$builddir/$f" ] || die "$builddir/$f missing: run make first"
done
[ -x /lib/systemd/systemd-journal-remote ] || die "systemd-journal-remote missing (tools/install-deps.sh)"
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "GATE_RUNS=$runs is no count"

# ------------------------------------------------------------ the baseline
commit=$(sed -e 's/#.*//' "$srcdir/bench/gate-baseline" | awk 'NF { print $1; exit }')
[[ $commit =~ ^[0-9a-f]{40}$ ]] || die "bench/gate-baseline names no full commit hash ('$commit')"

# This build's compiler and flags (the baseline's are the same, so that only
# the code differs); -g changes no code and costs compile time.
cc=$(sed -n 's/^CC = //p' "$builddir/Makefile")
cflags=$(sed -n 's/^CFLAGS = //p' "$builddir/Makefile" | sed -E 's/(^| )-g[0-9]?( |$)/ /g; s/^ +| +$//g')
grep -q -- '-fsanitize' <(sed -n 's/^HARDEN_CFLAGS = //p' "$builddir/Makefile"; echo "$cflags") &&
	die "this build has sanitizers: measure a plain one (configure without --enable-sanitizers)"
bcc=$cc
case " $cc " in *" ccache "*) ;; *) ! command -v ccache >/dev/null || bcc="ccache $cc" ;; esac
# What the programs' code depends on besides the commit: the cache's key.
toolchain=$({ echo "$cc|$cflags"; $cc --version | head -n1; uname -m
	pkg-config --modversion libsystemd json-c libmnl 2>/dev/null || :; } | md5sum | cut -c1-12)

bdir=$work/baseline
bprog=$work/baseline-programs-$commit-$toolchain
mkdir -p "$work"
# baseline_source DIR: the commit's files into DIR
baseline_source() {
	local tar=${MCELOGD_GATE_BASELINE_SRC:-}/$commit.tar
	if git -C "$srcdir" cat-file -e "$commit^{commit}" 2>/dev/null; then
		git -C "$srcdir" archive --format=tar "$commit" | tar -C "$1" -xf -
	elif [ -n "${MCELOGD_GATE_BASELINE_SRC:-}" ] && [ -f "$tar" ]; then
		tar -C "$1" -xf "$tar"
	elif git -C "$srcdir" rev-parse --git-dir >/dev/null 2>&1; then
		die "commit $commit (bench/gate-baseline) is not in this clone (a shallow one? git fetch --unshallow)"
	else
		skip "no baseline source: $srcdir is no git checkout and MCELOGD_GATE_BASELINE_SRC has no $commit.tar"
	fi
}
t0=$SECONDS
if [ -n "$cache" ] && [ -x "$cache/baseline-$commit-$toolchain/mcelogd" ] && [ ! -x "$bprog/mcelogd" ]; then
	rm -rf "$bprog" && cp -a "$cache/baseline-$commit-$toolchain" "$bprog"
	touch "$cache/baseline-$commit-$toolchain"   # used: kept (unused ones go after 30 days)
	say "baseline $commit: programs from $cache"
fi
if [ ! -x "$bprog/mcelogd" ]; then
	# The source is unpacked once per commit: same files, same times, so make rebuilds nothing.
	if [ "$(cat "$bdir/commit" 2>/dev/null)" != "$commit" ]; then
		rm -rf "$bdir" && mkdir -p "$bdir/src"
		baseline_source "$bdir/src"
		say "baseline $commit: autogen.sh"
		(cd "$bdir/src" && ./autogen.sh >"$bdir/autogen.out" 2>&1) || { tail -20 "$bdir/autogen.out"; die "autogen.sh failed"; }
		echo "$commit" >"$bdir/commit"
	fi
	if [ "$(cat "$bdir/build/flags" 2>/dev/null)" != "$bcc|$cflags" ]; then
		rm -rf "$bdir/build" && mkdir -p "$bdir/build"
		say "baseline $commit: configure CC='$bcc' CFLAGS='$cflags'"
		(cd "$bdir/build" && "$bdir/src/configure" --disable-dependency-tracking CC="$bcc" CFLAGS="$cflags" \
			>configure.out 2>&1) || { tail -40 "$bdir/build/config.log"; die "the baseline's configure failed"; }
		echo "$bcc|$cflags" >"$bdir/build/flags"
	fi
	say "baseline $commit: make mcelogd mcectl ras-storm-cost"
	make -C "$bdir/build" -j"$jobs" mcelogd/mcelogd mcectl/mcectl bench/ras-storm-cost >"$bdir/make.out" 2>&1 ||
		{ tail -40 "$bdir/make.out"; die "the baseline's build failed"; }
	rm -rf "$work"/baseline-programs-* && mkdir -p "$bprog.tmp"
	cp "$bdir/build/mcelogd/mcelogd" "$bdir/build/mcectl/mcectl" "$bdir/build/bench/ras-storm-cost" \
		"$bdir/src/config/mcelogd.conf" "$bprog.tmp/"
	cp -r "$bdir/src/config/rules.d" "$bprog.tmp/"
	mv "$bprog.tmp" "$bprog"
	if [ -n "$cache" ] && mkdir -p "$cache" && [ ! -e "$cache/baseline-$commit-$toolchain" ]; then
		cp -a "$bprog" "$cache/.baseline.$$" && mv "$cache/.baseline.$$" "$cache/baseline-$commit-$toolchain" ||
			rm -rf "$cache/.baseline.$$"
		find "$cache" -maxdepth 1 -name 'baseline-*' -mtime +30 -exec rm -rf {} +
	fi
fi
say "baseline ready in $((SECONDS - t0)) s"

# ---------------------------------------------------------------- the inputs
t0=$SECONDS
in=$work/inputs
mkdir -p "$in"
"$builddir/bench/gen-mixed" "$n_mixed" >"$in/mixed.txt"
# As bench/decode-bench.sh: gen-mixed's Intel kernel-console records (its first form), 7 times.
grep -A2 'CPU [0-9]*: Machine Check: 0 Bank 13' "$in/mixed.txt" | grep -v '^--' >"$in/kernel1.txt"
for _ in 1 2 3 4 5 6 7; do cat "$in/kernel1.txt"; done >"$in/kernel.txt"
n_kernel=$(grep -c 'Machine Check' "$in/kernel.txt")
sh "$srcdir/bench/row-records.sh" "$n_rows" "$rows" >"$in/rows.jsonl"

# The journal: kept while its generator and size stay the same.
days=$(( (n_journal * 30 + 999999) / 1000000 ))
jkey=$n_journal-$days-$(md5sum <"$srcdir/bench/journal-gen.sh" | cut -c1-12)
journal=$work/journal-$jkey
if [ ! -e "$journal/done" ] && [ -n "$cache" ] && [ -e "$cache/journal-$jkey/done" ]; then
	rm -rf "$journal" && cp -a "$cache/journal-$jkey" "$journal"
	say "journal from $cache"
fi
if [ ! -e "$journal/done" ]; then
	# another size's journal stays (make bench-gate-1m keeps a 1M one beside CI's)
	rm -rf "$work"/journal-"$n_journal"-* && mkdir -p "$journal"
	say "generating a journal of $n_journal entries over $days days"
	sh "$srcdir/bench/journal-gen.sh" "$n_journal" "$days" |
		/lib/systemd/systemd-journal-remote -o "$journal/bench.journal" - 2>"$journal/import.log" ||
		{ tail "$journal/import.log"; die "systemd-journal-remote failed"; }
	touch "$journal/done"
	if [ -n "$cache" ] && mkdir -p "$cache" && [ ! -e "$cache/journal-$jkey" ]; then
		rm -rf "$cache"/journal-"$n_journal"-*
		cp -a "$journal" "$cache/.journal.$$" && mv "$cache/.journal.$$" "$cache/journal-$jkey" ||
			rm -rf "$cache/.journal.$$"
	fi
fi
# The journal's last hour, not the clock's: it is kept between runs.
last=$(journalctl --directory "$journal" -n 1 -o export | sed -n 's/^__REALTIME_TIMESTAMP=//p')
since=@$((last / 1000000 - 3600))
say "inputs ready in $((SECONDS - t0)) s"

# ------------------------------------------------------------ the figures
# use BUILD: the programs and shipped files the figures run
use() {
	if [ "$1" = baseline ]; then
		MCELOGD=$bprog/mcelogd MCECTL=$bprog/mcectl STORM_COST=$bprog/ras-storm-cost
		CONF=$bprog/mcelogd.conf RULES=$bprog/rules.d
	else
		MCELOGD=$builddir/mcelogd/mcelogd MCECTL=$builddir/mcectl/mcectl
		STORM_COST=$builddir/bench/ras-storm-cost
		CONF=$srcdir/config/mcelogd.conf RULES=$srcdir/config/rules.d
	fi
}
# With a state directory of its own, empty at each run, as the live daemon
# always has one: what is kept there (the rules' state, and in a build that
# has it the module ledger, which runs only where state is kept) is part of
# the record path's cost.  The baseline gets one too; it has no ledger, so
# the comparison holds the ledger's cost against the daemon before it.
replay() {
	local state r
	state=$(mktemp -d "$work/state.XXXXXX") || return
	"$MCELOGD" --replay "$1" --config "$CONF" --rules-directory "$RULES" --no-journal \
		--control-socket "" --log-level err --output-file /dev/null --state-directory "$state"
	r=$?
	rm -rf "$state"
	return $r
}
fig_decode_mixed() { "$MCECTL" decode --output json --cpu-id intel:6:0x55 "$in/mixed.txt"; }
fig_decode_kernel() { "$MCECTL" decode --output json "$in/kernel.txt"; }
fig_record_path() { replay "$in/mixed.txt"; }
fig_dram_rows() { replay "$in/rows.jsonl"; }
fig_storm() { "$STORM_COST" "$storms" "$n_storm"; }
fig_query() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		"$MCECTL" query --directory "$journal" --since "$since" || return
	done
}
fig_summary() { "$MCECTL" summary --directory "$journal"; }

# name, function, what the figure is per: records (us/record) or runs (ms/run)
figures=(
	"decode, mixed corpus|fig_decode_mixed|$n_mixed"
	"decode, Intel kernel console|fig_decode_kernel|$n_kernel"
	"record path (replay, rules)|fig_record_path|$n_mixed"
	"rules, $rows DRAM rows|fig_dram_rows|$n_rows"
	"storm, $storms at once|fig_storm|$n_storm"
	"query --since 1h|fig_query|-10"
	"summary, $n_journal entries|fig_summary|-1"
)
# GATE_FIGURES (an extended regular expression): only the figures whose names match it
if [ -n "${GATE_FIGURES:-}" ]; then
	kept=()
	for f in "${figures[@]}"; do
		[[ ${f%%|*} =~ $GATE_FIGURES ]] && kept+=("$f")
	done
	((${#kept[@]})) || die "GATE_FIGURES='$GATE_FIGURES' names no figure"
	figures=("${kept[@]}")
fi
declare -A samples=()

# sample FIGURE BUILD: one timed run, its CPU seconds appended to samples[FIGURE,BUILD]
sample() {
	local fn=${figures[$1]#*|} t rc
	fn=${fn%%|*}
	use "$2"
	TIMEFORMAT='%3U %3S'
	{ time "$fn" >/dev/null 2>"$work/stderr"; } 2>"$work/time" && rc=0 || rc=$?
	if [ "$rc" != 0 ]; then
		tail -20 "$work/stderr" >&2
		die "${figures[$1]%%|*}: the $2 build's run failed (exit $rc)"
	fi
	t=$(awk 'END { printf "%.3f", $1 + $2 }' "$work/time")
	samples[$1,$2]+="$t "
}
# measure ROUNDS FIGURE...: ROUNDS runs of each build of each FIGURE, interleaved
measure() {
	local r=$1 i f
	shift
	for ((i = 0; i < r; i++)); do
		for f in "$@"; do
			if ((i % 2 == 0)); then sample "$f" baseline; sample "$f" current
			else sample "$f" current; sample "$f" baseline; fi
		done
	done
}
# judge FIGURE: "best_baseline best_current ratio paired noise% tolerance% ok|SLOWER".
# ratio: best against best; paired: the median of current / baseline over
# the runs made back to back (a burst of load hits both of a pair, or one
# pair of many).  Slower only if both exceed the tolerance: one lucky quiet
# run moves the best of one build, never the median of the pairs.
judge() {
	printf '%s\n%s\n' "${samples[$1,baseline]}" "${samples[$1,current]}" |
		awk -v floor="$floor" -v cap="$cap" '
		function sort(a, n,   i, j, t) {
			for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j] < a[j - 1]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		}
		function median(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		# spread(A, N): (median - best) / best of the runs A[1..N], sorted in place
		function spread(a, n) { sort(a, n); return (median(a, n) - a[1]) / a[1] }
		NR == 1 { n = split($0, rb, " ") }
		NR == 2 { split($0, rc, " ") }
		END {
			for (i = 1; i <= n; i++) {
				if (rb[i] <= 0) rb[i] = 0.001
				if (rc[i] <= 0) rc[i] = 0.001
				p[i] = rc[i] / rb[i]
			}
			sort(p, n)
			paired = median(p, n)
			nb = spread(rb, n); b = rb[1]
			nc = spread(rc, n); c = rc[1]
			noise = 100 * (nb > nc ? nb : nc)
			tol = noise < floor ? floor : noise; if (tol > cap) tol = cap
			ratio = c / b
			slower = ratio > 1 + tol / 100 && paired > 1 + tol / 100
			printf "%.3f %.3f %.3f %.3f %.1f %.1f %s\n", b, c, ratio, paired, noise, tol, (slower ? "SLOWER" : "ok") }'
}

t0=$SECONDS
all=()
for i in "${!figures[@]}"; do all+=("$i"); done
say "measuring ${#figures[@]} figures, best of $runs runs per build ($commit against this build)"
measure "$runs" "${all[@]}"
# slower FIGURE...: those of them judged slower than their tolerance, into $slower
judge_all() {
	local i verdict
	slower=()
	for i in "$@"; do
		read -r _ _ _ _ _ _ verdict < <(judge "$i")
		[ "$verdict" = ok ] || slower+=("$i")
	done
}
judge_all "${all[@]}"
# A figure judged slower is measured again, up to twice, as many runs more
# each time, and judged over all its runs: a burst of load that hit its runs
# passes, a slowdown of the code stays.
for again in 1 2; do
	[ ${#slower[@]} -gt 0 ] || break
	say "slower than the tolerance:$(for i in "${slower[@]}"; do printf ' "%s"' "${figures[$i]%%|*}"; done); measuring again ($again of 2)"
	measure "$runs" "${slower[@]}"
	judge_all "${slower[@]}"
done
say "measured in $((SECONDS - t0)) s"

echo
printf '%-30s %-6s %10s %10s %7s %7s %7s %7s  %s\n' figure unit baseline current ratio paired noise toler. verdict
failed=0 runs_of=()
for i in "${all[@]}"; do
	IFS='|' read -r name _ per <<<"${figures[$i]}"
	read -r b c ratio paired noise tol verdict < <(judge "$i")
	[ "$verdict" = ok ] || failed=1 runs_of+=("$name: baseline ${samples[$i,baseline]}, current ${samples[$i,current]}")
	awk -v n="$name" -v b="$b" -v c="$c" -v per="$per" -v r="$ratio" -v pr="$paired" -v no="$noise" -v t="$tol" -v v="$verdict" 'BEGIN {
		if (per > 0) { f = 1e6 / per; u = "us/rec" } else { f = 1e3 / -per; u = "ms" }
		printf "%-30s %-6s %10.3f %10.3f %6.3fx %6.3fx %6.1f%% %6.1f%%  %s\n", n, u, b * f, c * f, r, pr, no, t, v }'
done
echo "(CPU time, user+sys, best of $runs or more runs per build, per record (us) or per run (ms); ratio: current / baseline;"
echo " paired: the median of current / baseline over the runs made back to back; slower: both beyond the tolerance)"
if [ $failed = 1 ]; then
	echo "the runs (CPU s) of what failed:"
	printf '  %s\n' "${runs_of[@]}"
	echo "gate: FAILED: a figure is slower than the baseline ($commit) by more than its tolerance"
	exit 1
fi
echo "gate: ok: no figure slower than the baseline ($commit) beyond its tolerance"
