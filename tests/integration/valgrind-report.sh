#!/bin/bash
# Sums up the memcheck logs of `make check-valgrind`: every mcelogd process
# must end with "ERROR SUMMARY: 0 errors" (definite leaks are errors there).
# A log without a summary is a process that did not exit (killed): listed,
# and a failure, since the run must show every process clean.
dir=$1
shopt -s nullglob
logs=("$dir"/mcelogd.*.log)
[ ${#logs[@]} -gt 0 ] || { echo "check-valgrind: no mcelogd ran under valgrind (no logs in $dir)"; exit 1; }
clean=0 dirty=0 unfinished=0
for f in "${logs[@]}"; do
	summary=$(grep -o 'ERROR SUMMARY: [0-9]* errors' "$f" | tail -n 1)
	cmd=$(sed -n 's/^==[0-9]*== Command: //p' "$f" | head -n 1 | cut -c1-120)
	if [ -z "$summary" ]; then
		unfinished=$((unfinished + 1)); echo "UNFINISHED $f: $cmd"
	elif [ "$summary" = "ERROR SUMMARY: 0 errors" ]; then
		clean=$((clean + 1))
	else
		dirty=$((dirty + 1)); echo "ERRORS $f: $summary: $cmd"
		grep -A12 '^==[0-9]*== \(Invalid\|Conditional\|Use of\|Syscall param\|.*definitely lost in\)' "$f" | head -n 40
	fi
done
definite=$(grep -ho 'definitely lost: [0-9,]* bytes' "${logs[@]}" | grep -v 'lost: 0 bytes' | head -n 3)
echo "check-valgrind: ${#logs[@]} mcelogd processes: $clean clean, $dirty with errors, $unfinished unfinished${definite:+; $definite}"
[ $dirty = 0 ] && [ $unfinished = 0 ] && [ -z "$definite" ]
