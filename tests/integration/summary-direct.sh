#!/bin/bash
# Integration test: mcectl summary reading journal files directly
# (mcectl/journal-direct.c) says what the libsystemd path says
# (MCECTL_JOURNAL_READER=libsystemd), byte for byte, on journals a real
# journald wrote: every severity, storms, foreign entries (another id,
# another user), loss reports, replayed records, compressed MCE_JSON, every
# --by and output, a --since window, --host; in an online file being
# written, after journalctl --rotate (two files), a compact and a regular
# file (SYSTEMD_JOURNAL_COMPACT in journald's environment), a truncated
# copy (refused: libsystemd counts it), and while journald writes.  MCECTL_JOURNAL_READER=debug tells
# which way each summary went.
# Needs root (unshare, mounts) and systemd-journald; prints TAP.

set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/integration/lib.sh"
enter_journal_namespace "$0" "$@"

use_workdir

# Entries as mcelogd writes them, some with MCE_JSON longer than journald's
# compression threshold (512 bytes).
. "$srcdir/tests/integration/summary-entries.sh"
entries_starts=13 entries_pad=$(head -c 600 /dev/zero | tr '\0' p)

# Every --by, output, window and extra option: direct and libsystemd byte
# for byte.  Prints the differing invocations.  Not the whole product (144
# pairs of runs, 8 times over, was most of this test's time): 24 pairs in
# which every --by comes three times and every combination of output,
# window and extra option at least once: a --by only chooses how one walk's
# records are grouped, and the window and options change that walk the
# same way whatever the grouping.
compare_all() {
	local bys=(dimm channel bank cpu socket page error host) combos=() o window extra k a b
	for o in table json csv; do
		for window in "" "--since $since --until $until"; do
			for extra in "" "--host $(hostname)" "--include-replayed"; do
				combos+=("-o $o $window $extra")
			done
		done
	done
	for ((k = 0; k < 24; k++)); do
		# shellcheck disable=SC2086
		a=$(MCECTL_JOURNAL_READER=libsystemd "$mcectl" summary "$@" --by "${bys[k % 8]}" ${combos[k % 18]} 2>&1)
		# shellcheck disable=SC2086
		b=$("$mcectl" summary "$@" --by "${bys[k % 8]}" ${combos[k % 18]} 2>&1)
		[ "$a" = "$b" ] || echo "differs: $* --by ${bys[k % 8]} ${combos[k % 18]}"
	done
}

# The same for mcectl query (its direct path: mcectl/query-walk.c): every
# output, whole and windowed (the window's seek by time), --alerts,
# --include-replayed, and a filter left to libsystemd.  Every window with
# every option (16 pairs), the output turning with them, so that each output
# meets each window and each option too: not the whole product (48).
compare_queries() {
	local outputs=(table json csv) windows=("" "--since $since" "--since $since --until $until" "--until $until")
	local extras=("" "--alerts" "--include-replayed" "--severity fatal") i j o a b
	for ((i = 0; i < 4; i++)); do
		for ((j = 0; j < 4; j++)); do
			o=${outputs[(i + j) % 3]}
			# shellcheck disable=SC2086
			a=$(MCECTL_JOURNAL_READER=libsystemd "$mcectl" query "$@" -o "$o" ${windows[i]} ${extras[j]} 2>&1)
			# shellcheck disable=SC2086
			b=$("$mcectl" query "$@" -o "$o" ${windows[i]} ${extras[j]} 2>&1)
			[ "$a" = "$b" ] || echo "differs: query $* -o $o ${windows[i]} ${extras[j]}"
		done
	done
}

# Which way a query went: "direct N-files" or "libsystemd".
qway() {
	MCECTL_JOURNAL_READER=debug "$mcectl" query "$@" 2>&1 >/dev/null |
		sed -n 's/.*read directly: \([0-9]*\) files.*/direct \1/p; s/.*not read directly.*/libsystemd/p'
}

# Which way a summary went: "direct N-files" or "libsystemd".
way() {
	MCECTL_JOURNAL_READER=debug "$mcectl" summary "$@" 2>&1 >/dev/null |
		sed -n 's/.*read directly: \([0-9]*\) files.*/direct \1/p; s/.*not read directly.*/libsystemd/p'
}

echo "1..30"
for compact in 0 1; do
	kind=$([ "$compact" = 1 ] && echo compact || echo regular)
	# (A fresh tmpfs over the last one's on the second round.)
	export SYSTEMD_JOURNAL_COMPACT=$compact
	start_private_journald "$work"
	# journald makes its machine's directory when it first writes, which can
	# be after its socket is up: named, not globbed.
	journal=/run/log/journal/$(cat /etc/machine-id)
	write_entries 0 150
	"$mcelogd" --replay "$data/replay-mixed.txt" >/dev/null 2>&1
	next_second
	write_entries 150 300
	journalctl --sync 2>/dev/null || sleep 1
	since=@$((left_second + 1)) until=@$((left_second + 120))
	check "$kind: journald 252 took SYSTEMD_JOURNAL_COMPACT=$compact" "$compact" \
		"$(journalctl --header --file "$journal/system.journal" | grep -c 'Incompatible flags:.*COMPACT')"
	check "$kind: some MCE_JSON is compressed (zstd frames in the file)" 1 \
		"$(LC_ALL=C grep -a -c -P '\x28\xb5\x2f\xfd' "$journal/system.journal" | awk '{ print ($1 > 0) }')"
	check "$kind, online file: read directly, by bank and by DIMM (every MCE_JSON)" "direct 1 direct 1" \
		"$(way -D "$journal") $(way -D "$journal" --by dimm)"
	check "$kind, online file: the same summaries either way" "" "$(compare_all -D "$journal")"
	check "$kind, online file: queries read directly, and the same either way" "direct 1" \
		"$(qway -D "$journal" --since "$since")$(compare_queries -D "$journal")"
	journalctl --rotate 2>/dev/null
	write_entries 300 400
	journalctl --sync 2>/dev/null || sleep 1
	check "$kind, rotated: both files read directly" "direct 2" "$(way -D "$journal")"
	check "$kind, rotated: the same summaries either way, --directory and --file" "" \
		"$(compare_all -D "$journal"; compare_all $(printf -- '--file %s ' "$journal"/system@*.journal))"
	check "$kind, rotated: queries read directly, and the same either way, --directory and --file" "direct 2" \
		"$(qway -D "$journal" --since "$since")$(compare_queries -D "$journal"; compare_queries $(printf -- '--file %s ' "$journal"/system*.journal))"
	# No -D: this machine's files under /run/log/journal (the private
	# journald's volatile storage keeps every UID in system*.journal).
	check "$kind, the local journal: its files read directly" "direct 2" "$(way)"
	check "$kind, the local journal: the same summaries either way" "" "$(compare_all)"
	check "$kind, the local journal: the same queries either way" "" "$(compare_queries)"
	# A truncated copy: libsystemd refuses the file, and so does the walk.
	archived=$(echo "$journal"/system@*.journal)
	head -c $(($(stat -c %s "$archived") / 2)) "$archived" >"$work/truncated.journal"
	check "$kind, truncated copy: left to libsystemd" "libsystemd" "$(way --file "$work/truncated.journal")"
	a=$(MCECTL_JOURNAL_READER=libsystemd "$mcectl" summary --file "$work/truncated.journal" 2>&1)
	check "$kind, truncated copy: the same answer" "$a" "$("$mcectl" summary --file "$work/truncated.journal" 2>&1)"
	a=$(MCECTL_JOURNAL_READER=libsystemd "$mcectl" query --file "$work/truncated.journal" 2>&1)
	check "$kind, truncated copy: query left to libsystemd, the same answer" "libsystemd $a" \
		"$(qway --file "$work/truncated.journal") $("$mcectl" query --file "$work/truncated.journal" 2>&1)"
	# While journald writes (the file online, its header ahead of or behind
	# what the walk meets): summaries that end well, and each count at least
	# what was there before the writer started.
	before=$("$mcectl" summary -o json | jq -s 'map(.records) | add')
	# (Paced: 200 entries over 2 s or more, for many summaries meanwhile.)
	entries_pace=10000 write_entries 400 600 &
	writer=$!
	started "$writer"
	bad=0 runs=0 direct=0
	while kill -0 "$writer" 2>/dev/null && [ "$runs" -lt 40 ]; do
		got=$(MCECTL_JOURNAL_READER=debug "$mcectl" summary -D "$journal" -o json 2>"$work/err" |
			jq -s 'map(.records) | add') || bad=$((bad + 1))
		[ "${got:-0}" -ge "$before" ] || bad=$((bad + 1))
		grep -q 'read directly:' "$work/err" && direct=$((direct + 1))
		runs=$((runs + 1))
	done
	wait "$writer"
	check "$kind, written meanwhile: summaries that did not fail or count less than before, most read directly" \
		"0 1" "$bad $((direct * 2 > runs))"
	kill "$journald_pid" && wait "$journald_pid" 2>/dev/null
done

exit $((failed > 0))
