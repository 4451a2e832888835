#!/bin/sh
# Runs mcelogd under Valgrind's memcheck, for `make check-valgrind`: every
# integration test that starts the daemon starts it through this (lib.sh).
# exec keeps the pid, so the tests' signals and pid checks still hold.
# Definite leaks count as errors; each process writes its own log.  The
# suppressions file names each false report it silences, and why.
exec valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite \
	--errors-for-leak-kinds=definite --track-origins=yes --error-exitcode=99 \
	--suppressions="$(dirname "$0")/valgrind-mcelogd.supp" \
	--log-file="$MCELOGD_VALGRIND/mcelogd.%p.log" "$MCELOGD_VALGRIND_TARGET" "$@"
