#!/bin/bash
# The rules state on the record path (review of e24200c I7; issue 39 item 4):
# a failing DIMM whose pages cross the shipped page rule one after another.
# 20,000 corrected Intel IMC errors, ten on each of 2,000 pages, replayed by
# each mcelogd given (with the shipped rules, a --state-directory and a
# stand-in for the kernel's offline files), and for each:
#   cpu       user+sys seconds, best of ROUNDS (no tracing);
#   state     bytes written to the state directory and its fsyncs
#             (strace, files other than stdout/stderr);
#   stall     the longest gap between two records' output lines (strace
#             -ttt): what one record cost the event loop at worst.
# A replay writes its state once at its end; the live daemon also writes it
# at most once a second while it changes, which no replay shows.
#
#   bench/state-storm.sh OLD-MCELOGD NEW-MCELOGD [ROUNDS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
old=$1 new=$2 rounds=${3:-3}
n_pages=${STATE_STORM_PAGES:-2000} per_page=${STATE_STORM_PER_PAGE:-10}
t=$(mktemp -d /tmp/state-storm.XXXXXX)
trap 'rm -rf "$t"' EXIT
awk -v pages="$n_pages" -v per="$per_page" 'BEGIN {
	s = 0
	for (p = 0; p < pages; p++)
		for (i = 0; i < per; i++) {
			h = int(s / 3600); m = int(s % 3600 / 60); sec = s % 60; s++
			printf "{\"time\":\"2026-11-20T%02d:%02d:%02d.000000Z\",\"source\":\"tracepoint\",\"cpu\":1,\"socketid\":0,\"bank\":13,\"vendor\":\"intel\",\"family\":6,\"model\":85,\"status\":\"0x8c00000000000090\",\"addr\":\"0x%016x\",\"misc\":\"0x0000000000000086\"}\n", h, m, sec, (0x100000 + p) * 4096 + 64
		}
}' >"$t/storm.jsonl"
# run BIN DIR [WRAPPER...]: one replay into a fresh state directory.
run() {
	local bin=$1 dir=$2
	shift 2
	rm -rf "$dir" && mkdir -p "$dir/state" "$dir/sys" && : >"$dir/sys/soft_offline_page" && : >"$dir/sys/hard_offline_page"
	"$@" "$bin" --replay "$t/storm.jsonl" --no-journal --output json -c /dev/null --control-socket '' \
		--rules-directory "$top/config/rules.d" --state-directory "$dir/state" --sysfs-memory "$dir/sys" \
		--boot-id 11111111111111111111111111111111 --log-level err >/dev/null
}
printf '%-6s %10s %12s %8s %10s %8s\n' build "cpu s" "state bytes" fsyncs "stall ms" offlined
for which in old new; do
	bin=$old; [ $which = new ] && bin=$new
	best=
	for ((i = 0; i < rounds; i++)); do
		c=$( { /usr/bin/time -f '%U %S' bash -c "$(declare -f run); t='$t' top='$top'; run '$bin' '$t/$which'" ; } 2>&1 >/dev/null |
			awk 'END { printf "%.3f", $1 + $2 }')
		if [ -z "$best" ] || awk -v a="$c" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$c; fi
	done
	run "$bin" "$t/$which" strace -f -qq -ttt -e trace=write,fsync,fdatasync -o "$t/$which.trace"
	bytes=$(awk 'match($0, / write\([0-9]+,/) { fd = substr($0, RSTART + 7, RLENGTH - 8) + 0; if (fd > 2 && $NF ~ /^[0-9]+$/) s += $NF }
		END { print s + 0 }' "$t/$which.trace")
	syncs=$(grep -cE ' f(data)?sync\(' "$t/$which.trace" || true)
	stall=$(awk '/ write\(1,/ { if (last) { g = $2 - last; if (g > max) max = g } last = $2 } END { printf "%.1f", max * 1000 }' "$t/$which.trace")
	offlined=$(grep -c "^page	.*	ok	" "$t/$which/state/rules.state" || true)
	printf '%-6s %10s %12s %8s %10s %8s\n' "$which" "$best" "$bytes" "$syncs" "$stall" "$offlined"
done
